package main

import (
	"encoding/json"
	"net"
	"strings"
	"testing"
)

func TestNATKind(t *testing.T) {
	pub := net.ParseIP("11.0.0.21")
	local := []net.IP{net.ParseIP("192.168.1.2"), net.ParseIP("127.0.0.1")}
	for _, c := range []struct {
		name string
		obs  []observation
		want string
	}{
		{"nothing", nil, "unknown"},
		{"public", []observation{{relay: 0, transport: "quic", local: 4000, ip: net.ParseIP("192.168.1.2"), port: 4000}}, "none"},
		{"cone", []observation{{0, "quic", 4000, pub, 4000}, {1, "quic", 4000, pub, 4000}}, "cone"},
		{"cone, remapped", []observation{{0, "quic", 4000, pub, 5111}, {1, "quic", 4000, pub, 5111}}, "cone"},
		{"symmetric", []observation{{0, "quic", 4000, pub, 5111}, {1, "quic", 4000, pub, 6222}}, "symmetric"},
		{"one relay, kept", []observation{{0, "tcp", 4000, pub, 4000}, {0, "quic", 4001, pub, 4001}}, "port-preserving"},
		{"one relay, changed", []observation{{0, "quic", 4001, pub, 9999}}, "port-changing"},
	} {
		if got := natKind(c.obs, local); got.Kind != c.want || got.Detail == "" {
			t.Errorf("%s: %+v, want %s", c.name, got, c.want)
		}
	}
}

// 'masque doctor --relay' on loopback: the relay is reachable, sees our
// own address (no NAT), keeps a directory, and the report says so.
func TestDoctorRelay(t *testing.T) {
	relay := startTestRelay(t)
	code, out, errOut := runOut("doctor", "--wait", "100ms", "--reservation-wait", "500ms", "--relay", relay, "--config", t.TempDir(), "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Relays) != 1 || rep.NAT == nil {
		t.Fatalf("doctor --relay --json: exit %d, %v\n%s\n%s", code, err, out, errOut)
	}
	r := rep.Relays[0]
	if !r.Reachable || !r.Directory || len(r.Addrs) != 1 || !strings.HasPrefix(r.Addrs[0].Observed, "/ip4/127.0.0.1/tcp/") {
		t.Fatalf("relay check: %+v", r)
	}
	if rep.NAT.Kind != "none" {
		t.Fatalf("NAT on loopback: %+v", rep.NAT)
	}
	_, out, _ = runOut("doctor", "--wait", "100ms", "--reservation-wait", "500ms", "--relay", relay, "--config", t.TempDir())
	for _, want := range []string{"relays (online play):", "reachable (", "directory: 0 open tables", "NAT: none"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor --relay does not say %q:\n%s", want, out)
		}
	}
}

// doctor's hints say where a join code is looked up: by mDNS, or in a
// relay's directory ("works only where mDNS does" was false with --relay).
func TestDoctorHintJoinCode(t *testing.T) {
	all := strings.Join(doctorHints(doctorReport{}), "\n")
	if !strings.Contains(all, "in a relay's directory with --relay") || strings.Contains(all, "only where mDNS does") {
		t.Errorf("the hints on join codes:\n%s", all)
	}
}
