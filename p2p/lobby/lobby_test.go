package lobby

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/p2p/identity"
)

func testTable(t *testing.T) Table {
	t.Helper()
	id, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return Table{ID: [16]byte{0xde, 0xad, 0xbe, 0xef, 0x42, 9}, Name: "Friday night", Game: "mascarade",
		Options: "13 players, 2nd edition", Taken: 3, Total: 6, Peer: id.PeerID(),
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/192.168.1.7/tcp/4001"), ma.StringCast("/ip4/192.168.1.7/udp/4001/quic-v1")}}
}

func TestTXTRoundTrip(t *testing.T) {
	tb := testTable(t)
	got, err := DecodeTXT(EncodeTXT(tb))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != tb.ID || got.Name != tb.Name || got.Game != tb.Game || got.Options != tb.Options ||
		got.Taken != 3 || got.Total != 6 || got.Peer != tb.Peer || got.Version != Version || len(got.Addrs) != 2 {
		t.Fatalf("round trip: %+v", got)
	}
}

func TestTXTLimits(t *testing.T) {
	tb := testTable(t)
	tb.Name = strings.Repeat("й", 300) // 2-byte runes: a cut must not split one
	tb.Options = strings.Repeat("x", 1000)
	for i := range 40 {
		tb.Addrs = append(tb.Addrs, ma.StringCast("/dns4/"+strings.Repeat("h", 20+i)+".example/tcp/4001"))
	}
	txt := EncodeTXT(tb)
	total := 0
	for _, s := range txt {
		if len(s) > MaxTXTString {
			t.Fatalf("TXT string of %d bytes", len(s))
		}
		if !utf8.ValidString(s) {
			t.Fatalf("TXT string cut inside a rune: %q", s)
		}
		total += 1 + len(s)
	}
	if total > MaxTXTTotal {
		t.Fatalf("TXT record of %d bytes", total)
	}
	got, err := DecodeTXT(txt)
	if err != nil {
		t.Fatal(err)
	}
	if got.Peer != tb.Peer || got.ID != tb.ID || len(got.Addrs) == 0 {
		t.Fatal("essential fields lost to truncation")
	}
	if _, err := DecodeTXT([]string{"v=1", "n=x"}); err == nil {
		t.Fatal("decoded a record without id, seats and peer")
	}
	if _, err := DecodeTXT([]string{"id=00", "s=1/2", "p=x"}); err == nil {
		t.Fatal("decoded a bad id")
	}
}

func TestCatalogExpiry(t *testing.T) {
	c := NewCatalog(9 * time.Second)
	t0 := time.Unix(1000, 0)
	a, b := testTable(t), testTable(t)
	b.ID[0], b.Name = 1, "Another"
	if !c.Observe(a, t0) || !c.Observe(b, t0) {
		t.Fatal("new tables not reported as changes")
	}
	if c.Observe(a, t0.Add(3*time.Second)) {
		t.Fatal("an unchanged table reported as a change")
	}
	a.Taken++
	if !c.Observe(a, t0.Add(6*time.Second)) {
		t.Fatal("a seat change not reported")
	}
	if c.Expire(t0.Add(9 * time.Second)) {
		t.Fatal("expired too early")
	}
	if !c.Expire(t0.Add(10 * time.Second)) {
		t.Fatal("b (silent for 10s) not expired")
	}
	s := c.Snapshot()
	if len(s) != 1 || s[0].ID != a.ID || s[0].Taken != 4 {
		t.Fatalf("snapshot %+v", s)
	}
	if !c.Expire(t0.Add(16*time.Second)) || len(c.Snapshot()) != 0 {
		t.Fatal("a not expired")
	}
}

func TestCodes(t *testing.T) {
	tb := testTable(t)
	code := tb.Code()
	if len(code) != 9 || code[4] != '-' {
		t.Fatalf("code %q", code)
	}
	got, err := ParseCode(strings.ToLower(strings.ReplaceAll(code, "-", " ")))
	if err != nil || got != [5]byte(tb.ID[:5]) {
		t.Fatalf("ParseCode: %x %v", got, err)
	}
	// Ambiguous letters read as digits.
	if a, _ := ParseCode("OIL0-0000"); a != ([5]byte{0, 0x42, 0, 0, 0}) {
		t.Fatalf("lenient parse: %x", a)
	}
	if _, err := ParseCode("ABC"); err == nil {
		t.Fatal("short code accepted")
	}
	other := tb
	other.ID[0] ^= 1
	found, err := Find([]Table{other, tb}, code)
	if err != nil || found.ID != tb.ID {
		t.Fatalf("Find: %v", err)
	}
	if _, err := Find([]Table{other}, code); err == nil {
		t.Fatal("Find matched the wrong table")
	}
	inv := tb.Addrs[0].String() + "/p2p/" + tb.Peer.String()
	info, err := ParseInvite(inv)
	if err != nil || info.ID != tb.Peer {
		t.Fatalf("ParseInvite: %v", err)
	}
	if _, err := ParseInvite("/p2p/" + tb.Peer.String()); err == nil {
		t.Fatal("invite without address accepted")
	}
}

// TestAdvertiseBrowse runs the real mDNS stack. It is skipped when the
// machine has no multicast-capable interface or multicast does not loop
// back.
func TestAdvertiseBrowse(t *testing.T) {
	if testing.Short() {
		t.Skip("mDNS test skipped in -short mode")
	}
	tb := testTable(t)
	tb.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/45123")}
	opts := Options{Interval: 500 * time.Millisecond, TTL: 1500 * time.Millisecond}
	ad, err := Advertise(tb, opts)
	if err != nil {
		t.Skipf("multicast unavailable: cannot advertise: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ch, err := Browse(ctx, opts)
	if err != nil {
		ad.Close()
		t.Skipf("multicast unavailable: cannot browse: %v", err)
	}
	wait := func(ok func([]Table) bool) bool {
		deadline := time.After(4 * time.Second)
		for {
			select {
			case s := <-ch:
				if ok(s) {
					return true
				}
			case <-deadline:
				return false
			}
		}
	}
	find := func(s []Table) *Table {
		for i := range s {
			if s[i].ID == tb.ID {
				return &s[i]
			}
		}
		return nil
	}
	if !wait(func(s []Table) bool { return find(s) != nil }) {
		ad.Close()
		t.Skip("multicast unavailable: our own advertisement was not seen (no multicast loopback on this network?)")
	}
	tb.Taken = 5
	ad.Update(tb)
	if !wait(func(s []Table) bool { f := find(s); return f != nil && f.Taken == 5 }) {
		t.Error("seat update not seen")
	}
	ad.Close()
	if !wait(func(s []Table) bool { return find(s) == nil }) {
		t.Error("table did not expire after the advertisement stopped")
	}
	cancel()
	for range ch { // Browse closes its channel.
	}
}
