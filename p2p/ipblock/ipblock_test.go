package ipblock

import (
	"crypto/rand"
	"net/netip"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct{ ip, block, wide string }{
		{"198.51.100.77", "198.51.100.0/24", ""},
		{"::ffff:198.51.100.77", "198.51.100.0/24", ""},
		{"2001:db8:1:2345:6789::1", "2001:db8:1:2300::/56", "2001:db8:1::/48"},
		// Not public: counted alone.
		{"10.1.2.3", "10.1.2.3/32", ""},
		{"100.101.102.103", "100.101.102.103/32", ""}, // CGNAT, VPNs
		{"192.168.1.5", "192.168.1.5/32", ""},
		{"127.0.0.1", "127.0.0.1/32", ""},
		{"fd12:3456::1", "fd12:3456::1/128", ""},
		{"fe80::1", "fe80::1/128", ""},
	} {
		ip := netip.MustParseAddr(tc.ip)
		if got := Of(ip).String(); got != tc.block {
			t.Errorf("Of(%s) = %s, want %s", tc.ip, got, tc.block)
		}
		w, ok := Wide(ip)
		if tc.wide == "" && ok || tc.wide != "" && w.String() != tc.wide {
			t.Errorf("Wide(%s) = %v %v, want %q", tc.ip, w, ok, tc.wide)
		}
	}
	if Of(netip.Addr{}).IsValid() {
		t.Error("Of(invalid) is valid")
	}
	if got := Addr(ma.StringCast("/ip4/198.51.100.7/tcp/1")); got != netip.MustParseAddr("198.51.100.7") {
		t.Errorf("Addr: %v", got)
	}
	if Addr(ma.StringCast("/dns4/example.org/tcp/1")).IsValid() {
		t.Error("Addr of a DNS name is valid")
	}
}

func newPeer(t *testing.T) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestReservations: the cap per block; a renewal counts once; a peer
// gone (disconnected, or past the TTL) frees its place.
func TestReservations(t *testing.T) {
	connected := map[peer.ID]bool{}
	r := NewReservations(2, 3, time.Hour, func(p peer.ID) bool { return connected[p] })
	now := time.Unix(1_800_000_000, 0)
	r.now = func() time.Time { return now }
	ask := func(p peer.ID, addr string) bool {
		connected[p] = true
		return r.AllowReserve(p, ma.StringCast(addr+"/tcp/4001"))
	}
	a, b, c := newPeer(t), newPeer(t), newPeer(t)
	if !ask(a, "/ip4/198.51.100.1") || !ask(b, "/ip4/198.51.100.2") || ask(c, "/ip4/198.51.100.3") {
		t.Fatal("2 per /24")
	}
	if !ask(a, "/ip4/198.51.100.1") {
		t.Fatal("a renewal")
	}
	if !ask(c, "/ip4/198.51.101.3") {
		t.Fatal("another /24")
	}
	connected[b] = false
	if !ask(newPeer(t), "/ip4/198.51.100.9") {
		t.Fatal("b left: its place is free")
	}
	now = now.Add(time.Hour)
	for range 2 {
		if !ask(newPeer(t), "/ip4/198.51.100.9") {
			t.Fatal("past the TTL: places are free")
		}
	}
	// IPv6: 2 per /56, 3 per /48.
	if !ask(newPeer(t), "/ip6/2001:db8:1:100::1") || !ask(newPeer(t), "/ip6/2001:db8:1:100::2") || ask(newPeer(t), "/ip6/2001:db8:1:1ff::3") {
		t.Fatal("2 per /56")
	}
	if !ask(newPeer(t), "/ip6/2001:db8:1:200::1") || ask(newPeer(t), "/ip6/2001:db8:1:300::1") {
		t.Fatal("3 per /48")
	}
	// Not public: one by one.
	for range 2 {
		if !ask(newPeer(t), "/ip4/10.0.0.1") {
			t.Fatal("10.0.0.1")
		}
	}
	if !ask(newPeer(t), "/ip4/10.0.0.2") {
		t.Fatal("10.0.0.2 is not 10.0.0.1")
	}
}
