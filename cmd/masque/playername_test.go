package main

import (
	"slices"
	"strings"
	"testing"
)

// Without a name from the environment the player is still a name: the
// others and the transcript speak of them in the third person, and "You
// votes to eliminate Anna" or "You gets a rose" is no sentence.
func TestDefaultPlayerNameIsAName(t *testing.T) {
	for _, env := range []map[string]string{
		{},
		{"USER": "you"},
		{"MASQUE_NAME": "You"},
	} {
		for _, v := range []string{"MASQUE_NAME", "USER", "LOGNAME"} {
			t.Setenv(v, env[v])
		}
		n := defaultPlayerName()
		if strings.EqualFold(n, "you") || !validName(n) || slices.Contains(demoNames, n) {
			t.Errorf("env %v: default name %q", env, n)
		}
	}
	t.Setenv("MASQUE_NAME", "")
	t.Setenv("USER", "kim")
	if n := defaultPlayerName(); n != "kim" {
		t.Errorf("USER=kim: default name %q", n)
	}
}
