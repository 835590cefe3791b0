package main

import (
	"strings"
	"testing"
)

// The version printed is never the old fixed "dev": a release constant
// when one is set, else what the build information says.
func TestBuildVersion(t *testing.T) {
	if got := buildVersion(); got == "" || got == "dev" {
		t.Fatalf("buildVersion() = %q", got)
	}
	old := version
	defer func() { version = old }()
	version = "v9.9.9"
	if got := buildVersion(); got != "v9.9.9" {
		t.Fatalf("with a release constant: %q", got)
	}
	version = ""
	if got := buildVersion(); !strings.HasPrefix(got, "devel") && !strings.HasPrefix(got, "v") {
		t.Fatalf("a test binary's version: %q", got)
	}
}
