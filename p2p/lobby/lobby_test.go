package lobby

import (
	"context"
	"errors"
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

// TestTXTPlaying: a table in play says so (st=play); a seating table's
// record has no st= at all, as before the field existed.
func TestTXTPlaying(t *testing.T) {
	tb := testTable(t)
	for _, s := range EncodeTXT(tb) {
		if strings.HasPrefix(s, "st=") {
			t.Fatalf("seating table's TXT has %q", s)
		}
	}
	if got, err := DecodeTXT(EncodeTXT(tb)); err != nil || got.Playing {
		t.Fatalf("seating table decoded as playing=%v, %v", got.Playing, err)
	}
	tb.Playing, tb.Taken = true, tb.Total
	got, err := DecodeTXT(EncodeTXT(tb))
	if err != nil || !got.Playing || got.Taken != got.Total {
		t.Fatalf("table in play: %+v, %v", got, err)
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
	// The instance name "<name> <code>" is one DNS label (63 bytes) and
	// keeps the whole 14-character code.
	if n := instanceName(tb); len(n) > 63 || !strings.HasSuffix(n, " "+tb.Code()) || !utf8.ValidString(n) {
		t.Fatalf("instance name %q (%d bytes)", n, len(n))
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
	if len(code) != 14 || code[4] != '-' || code[9] != '-' {
		t.Fatalf("code %q", code)
	}
	if code != Code(tb.ID, tb.Peer) {
		t.Fatal("Table.Code is not Code(id, creator)")
	}
	got, err := ParseCode(strings.ToLower(strings.ReplaceAll(code, "-", " ")))
	if err != nil || got != code {
		t.Fatalf("ParseCode: %q %v", got, err)
	}
	// Ambiguous letters read as digits.
	if a, err := ParseCode("OIL0-0000-0000"); err != nil || a != "0110-0000-0000" {
		t.Fatalf("lenient parse: %q %v", a, err)
	}
	for _, bad := range []string{"ABC", "4F7Q-ZK2M-8XP", "4F7Q-ZK2M-8XPA-0", "4F7Q-ZK2M-8XPU", ""} {
		if _, err := ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q) accepted", bad)
		}
	}
	other := tb
	other.ID[0] ^= 1
	found, err := Find([]Table{other, tb}, code)
	if err != nil || len(found) != 1 || found[0].ID != tb.ID {
		t.Fatalf("Find: %v %v", found, err)
	}
	if found, err := Find([]Table{other}, code); err != nil || len(found) != 0 {
		t.Fatalf("Find matched the wrong table: %v %v", found, err)
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

// TestCopiedTableIDGetsAnotherCode performs the attack of a sybil creator
// that copies a victim's table id (public in its advertisement) into its
// own: with codes naming only the table id, its table answered to the
// victim's code. The code now hashes the creator's peer id too.
func TestCopiedTableIDGetsAnotherCode(t *testing.T) {
	victim, attacker := testTable(t), testTable(t)
	attacker.ID, attacker.Name = victim.ID, victim.Name
	if victim.Code() == attacker.Code() {
		t.Fatalf("a copied table id got the victim's code %s", victim.Code())
	}
	found, err := Find([]Table{attacker, victim}, victim.Code())
	if err != nil || len(found) != 1 || found[0].Peer != victim.Peer {
		t.Fatalf("Find(victim's code) = %v, %v; want only the victim's table", found, err)
	}
}

// TestOldCodesRefused: an 8-character code names only 40 bits of the
// table id, which any advertisement can copy, so it is refused with a
// message saying what to ask for.
func TestOldCodesRefused(t *testing.T) {
	_, err := ParseCode("4F7Q-ZK2M")
	if !errors.Is(err, ErrOldCode) || !strings.Contains(err.Error(), "12-character") {
		t.Fatalf("old code: %v", err)
	}
	if _, err := Find(nil, "4f7qzk2m"); !errors.Is(err, ErrOldCode) {
		t.Fatalf("Find with an old code: %v", err)
	}
}

func TestFingerprint(t *testing.T) {
	a, b := testTable(t).Peer, testTable(t).Peer
	fa := Fingerprint(a)
	if len(fa) != FingerprintChars+3 || strings.Count(fa, "-") != 3 {
		t.Fatalf("fingerprint %q", fa)
	}
	if Fingerprint(a) != fa || Fingerprint(b) == fa {
		t.Fatal("fingerprint not a function of the peer id")
	}
	for _, c := range []struct {
		sel  string
		want bool
	}{
		{a.String(), true},
		{fa, true},
		{strings.ToLower(fa[:9]), true},
		{strings.ReplaceAll(fa[:4], "-", ""), true},
		{fa[:3], false}, // too short to mean anything
		{"", false},
		{b.String(), false},
		{Fingerprint(b), false},
		{"not*hex", false},
	} {
		if got := MatchCreator(a, c.sel); got != c.want {
			t.Errorf("MatchCreator(%q) = %v, want %v", c.sel, got, c.want)
		}
	}
}

// TestCatalogKeepsEveryCreator performs the lobby hijack: an attacker
// advertises the victim's table id and name under its own peer id, after
// the victim. The catalog used to keep only the last advertisement per
// table id, so the attacker's replaced the victim's. Both must be kept.
func TestCatalogKeepsEveryCreator(t *testing.T) {
	c := NewCatalog(time.Minute)
	t0 := time.Unix(1000, 0)
	victim, attacker := testTable(t), testTable(t)
	attacker.ID, attacker.Name = victim.ID, victim.Name
	attacker.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/192.168.1.66/tcp/4001")}
	c.Observe(victim, t0)
	if !c.Observe(attacker, t0.Add(time.Second)) {
		t.Fatal("the second creator's advertisement not reported as a change")
	}
	s := c.Snapshot()
	if len(s) != 2 || Creators(s) != 2 {
		t.Fatalf("snapshot after a second creator advertised the same table id: %d tables, %d creators", len(s), Creators(s))
	}
	if s[0].Peer == s[1].Peer || (s[0].Peer != victim.Peer && s[1].Peer != victim.Peer) {
		t.Fatal("the victim's advertisement was replaced")
	}
	// Each creator's own updates still replace its own advertisement.
	victim.Taken++
	if !c.Observe(victim, t0.Add(2*time.Second)) || len(c.Snapshot()) != 2 {
		t.Fatal("an update by the victim was not merged into its own advertisement")
	}
	if !c.Expire(t0.Add(61500 * time.Millisecond)) {
		t.Fatal("the attacker's silent advertisement did not expire")
	}
	if s := c.Snapshot(); len(s) != 1 || s[0].Peer != victim.Peer || s[0].Taken != victim.Taken {
		t.Fatalf("expiry kept %v, want the victim's updated table", s)
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
