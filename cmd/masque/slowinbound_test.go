package main

import (
	"strings"
	"testing"

	ma "github.com/multiformats/go-multiaddr"
)

// TestHostSlowInboundOnLoopback: nothing is lost on loopback, so a
// player on this machine slow to connect is not blamed on "the network
// losing packets" (a host restarted on loopback said so); a player
// elsewhere is told of with the network as a cause that may be, not one
// that is.
func TestHostSlowInboundOnLoopback(t *testing.T) {
	var out strings.Builder
	r := &netRun{out: &out}
	say := r.slowInbound()
	say(ma.StringCast("/ip4/127.0.0.1/tcp/40001"))
	say(ma.StringCast("/ip6/::1/tcp/40001"))
	say(ma.StringCast("/ip4/10.78.0.3/tcp/40001"))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("host screen:\n%s", out.String())
	}
	for _, l := range lines[:2] {
		if strings.Contains(l, "losing packets") || !strings.Contains(l, "a player on this machine") {
			t.Errorf("loopback: %q", l)
		}
	}
	if !strings.Contains(lines[2], "a player at 10.78.0.3 is still connecting after 5s: the network may be losing packets") {
		t.Errorf("LAN: %q", lines[2])
	}
}
