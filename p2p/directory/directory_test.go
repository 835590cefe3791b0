package directory

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/p2p/lobby"
)

const (
	relayID = "12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u"
	otherID = "12D3KooWPjceQrSwdWXPyLLeABRXmuqt69Rg3sBYbU1Nft9HyQ6X"
)

func sampleTable(t *testing.T, creator peer.ID) lobby.Table {
	t.Helper()
	var id [16]byte
	rand.Read(id[:])
	return lobby.Table{ID: id, Name: "friday", Game: "mascarade", Options: "4 players, card keys published at the end",
		Taken: 1, Total: 4, Version: lobby.Version, Peer: creator, Players: []string{"ann"},
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.10/tcp/4001/p2p/" + relayID + "/p2p-circuit")}}
}

func mustPeer(t *testing.T, s string) peer.ID {
	t.Helper()
	id, err := peer.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestRequestRoundTrip(t *testing.T) {
	tb := sampleTable(t, "")
	code := lobby.Code(tb.ID, mustPeer(t, otherID))
	for _, q := range []Request{
		{Op: OpPublish, TTL: 90 * time.Second, Table: tb},
		{Op: OpWithdraw, ID: tb.ID},
		{Op: OpList},
		{Op: OpList, Code: code},
		{Op: OpPublishPlaying, TTL: 90 * time.Second, Table: tb},
		{Op: OpListPlaying},
		{Op: OpListPlaying, Code: code},
	} {
		b, err := MarshalRequest(q)
		if err != nil {
			t.Fatalf("op %d: %v", q.Op, err)
		}
		got, err := UnmarshalRequest(b)
		if err != nil {
			t.Fatalf("op %d: %v", q.Op, err)
		}
		b2, _ := MarshalRequest(got)
		if !bytes.Equal(b, b2) {
			t.Fatalf("op %d: re-encoding differs", q.Op)
		}
		if got.Op != q.Op || got.Code != q.Code || got.ID != q.ID || got.TTL != q.TTL || got.Table.Name != q.Table.Name ||
			got.Table.Playing != (q.Op == OpPublishPlaying) {
			t.Fatalf("op %d: got %+v", q.Op, got)
		}
	}
}

// TestRequestBytes pins the wire format documented in docs/protocol.md.
func TestRequestBytes(t *testing.T) {
	var id [16]byte
	for i := range id {
		id[i] = byte(i)
	}
	b, err := MarshalRequest(Request{Op: OpWithdraw, ID: id})
	if err != nil || !bytes.Equal(b, append([]byte{2}, id[:]...)) {
		t.Fatalf("withdraw: % x %v", b, err)
	}
	b, err = MarshalRequest(Request{Op: OpList, Code: "4f7q-zk2m-8xpa"})
	if err != nil || string(b) != "\x03\x0c4F7QZK2M8XPA" {
		t.Fatalf("list: %q %v", b, err)
	}
	tb := lobby.Table{ID: id, Version: 3, Taken: 1, Total: 3, Name: "T", Game: "g", Options: "", Players: []string{"a"},
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/1.2.3.4/tcp/5")}}
	b, err = MarshalRequest(Request{Op: OpPublish, TTL: 90 * time.Second, Table: tb})
	want := append([]byte{1, 0, 90}, id[:]...)
	want = append(want, 3, 1, 3, 1, 'T', 1, 'g', 0, 1, 1, 'a', 1, 8, 0x04, 1, 2, 3, 4, 0x06, 0, 5)
	if err != nil || !bytes.Equal(b, want) {
		t.Fatalf("publish:\n got % x\nwant % x %v", b, want, err)
	}
	// The in-play operations: the same bodies under operations 4 and 5.
	b, err = MarshalRequest(Request{Op: OpPublishPlaying, TTL: 90 * time.Second, Table: tb})
	want[0] = 4
	if err != nil || !bytes.Equal(b, want) {
		t.Fatalf("publish in play:\n got % x\nwant % x %v", b, want, err)
	}
	b, err = MarshalRequest(Request{Op: OpListPlaying, Code: "4f7q-zk2m-8xpa"})
	if err != nil || string(b) != "\x05\x0c4F7QZK2M8XPA" {
		t.Fatalf("list in play: %q %v", b, err)
	}
}

func TestUnmarshalRequestRefuses(t *testing.T) {
	tb := sampleTable(t, "")
	pub, _ := MarshalRequest(Request{Op: OpPublish, TTL: time.Minute, Table: tb})
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "operation"},
		{"unknown op", []byte{9}, "unknown operation 9"},
		{"short withdraw", []byte{2, 1, 2}, "table id"},
		{"trailing", append(append([]byte{2}, make([]byte, 16)...), 0), "trailing"},
		{"bad code length", []byte{3, 5, 'A', 'B', 'C', 'D', 'E'}, "code of 5"},
		{"lower-case code", append([]byte{3, 12}, "4f7qzk2m8xpa"...), "code"},
		{"ttl zero", append([]byte{1, 0, 0}, pub[3:]...), "ttl 0"},
		{"ttl too long", append([]byte{1, 0xff, 0xff}, pub[3:]...), "ttl 65535"},
		{"truncated table", pub[:len(pub)-3], "want"},
		{"too big", make([]byte, MaxRequest+1), "at most"},
	} {
		if _, err := UnmarshalRequest(c.b); !errors.Is(err, ErrDecode) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (want %q)", c.name, err, c.want)
		}
	}
	// A name longer than the cap, seats out of range, bad UTF-8.
	bad := func(mutate func(b []byte) []byte) []byte {
		w := &writer{}
		w.u8(OpPublish)
		w.u16(60)
		w.raw(tb.ID[:])
		return mutate(w.b)
	}
	for name, b := range map[string][]byte{
		"seats 5/4":   bad(func(b []byte) []byte { return append(b, 3, 5, 4, 0, 0, 0, 0, 0) }),
		"seats 0/0":   bad(func(b []byte) []byte { return append(b, 3, 0, 0, 0, 0, 0, 0, 0) }),
		"long name":   bad(func(b []byte) []byte { return append(append(b, 3, 1, 4, 65), make([]byte, 65)...) }),
		"bad utf8":    bad(func(b []byte) []byte { return append(b, 3, 1, 4, 1, 0xff, 0, 0, 0, 0) }),
		"17 players":  bad(func(b []byte) []byte { return append(b, 3, 1, 4, 0, 0, 0, 17) }),
		"9 addresses": bad(func(b []byte) []byte { return append(b, 3, 1, 4, 0, 0, 0, 0, 9) }),
		"bad address": bad(func(b []byte) []byte { return append(b, 3, 1, 4, 0, 0, 0, 0, 1, 2, 0xff, 0xff) }),
	} {
		if _, err := UnmarshalRequest(b); !errors.Is(err, ErrDecode) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestResponseRoundTrip(t *testing.T) {
	tb := sampleTable(t, mustPeer(t, otherID))
	p := Response{Status: StatusOK, Message: "1 tables", Entries: []Entry{{Table: tb, TTL: 42 * time.Second}}}
	b, err := MarshalResponse(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalResponse(b)
	if err != nil {
		t.Fatal(err)
	}
	e := got.Entries[0]
	if len(got.Entries) != 1 || e.TTL != 42*time.Second || e.Table.Peer != tb.Peer || e.Table.Code() != tb.Code() ||
		e.Table.Name != tb.Name || !e.Table.Addrs[0].Equal(tb.Addrs[0]) || e.Table.Players[0] != "ann" {
		t.Fatalf("got %+v", got)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(b, 0), {0, 0, 0, 1, 0}, {0, 0, 0xff, 0xff}} {
		if _, err := UnmarshalResponse(bad); !errors.Is(err, ErrDecode) {
			t.Errorf("% x: %v", bad, err)
		}
	}
	if _, err := UnmarshalResponse([]byte{2, 3, 'a', 'b', 'c'}); err != nil {
		t.Errorf("a refusal: %v", err)
	}
}

func FuzzUnmarshalRequest(f *testing.F) {
	var id [16]byte
	tb := lobby.Table{ID: id, Version: 3, Taken: 1, Total: 3, Name: "T", Game: "g", Players: []string{"a"},
		Addrs: []ma.Multiaddr{ma.StringCast("/ip4/1.2.3.4/tcp/5")}}
	for _, q := range []Request{{Op: OpPublish, TTL: time.Minute, Table: tb}, {Op: OpWithdraw}, {Op: OpList}, {Op: OpList, Code: "4F7Q-ZK2M-8XPA"},
		{Op: OpPublishPlaying, TTL: time.Minute, Table: tb}, {Op: OpListPlaying}, {Op: OpListPlaying, Code: "4F7Q-ZK2M-8XPA"}} {
		b, _ := MarshalRequest(q)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := UnmarshalRequest(b)
		if err != nil {
			return
		}
		// What decodes re-encodes to the same bytes.
		b2, err := MarshalRequest(q)
		if err != nil {
			t.Fatalf("decoded %+v does not re-encode: %v", q, err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatalf("re-encoding differs:\n% x\n% x", b, b2)
		}
	})
}

func FuzzUnmarshalResponse(f *testing.F) {
	tb := lobby.Table{Version: 3, Taken: 1, Total: 3, Name: "T", Game: "g", Peer: peer.ID("\x00\x24\x08\x01\x12\x20" + strings.Repeat("x", 32))}
	b, _ := MarshalResponse(Response{Status: StatusOK, Entries: []Entry{{Table: tb, TTL: time.Minute}}})
	f.Add(b)
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := UnmarshalResponse(b)
		if err != nil {
			return
		}
		if _, err := MarshalResponse(p); err != nil {
			t.Fatalf("decoded %+v does not re-encode: %v", p, err)
		}
	})
}

// fakeClock is a settable clock for the server.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestServer(lim Limits) (*Server, *fakeClock) {
	s := NewServer(lim)
	c := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	s.now = c.now
	return s, c
}

func req(t *testing.T, q Request) []byte {
	t.Helper()
	b, err := MarshalRequest(q)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServerOwnEntriesOnly(t *testing.T) {
	s, clock := newTestServer(Limits{})
	alice, mallory := mustPeer(t, otherID), mustPeer(t, relayID)
	ip := netip.MustParseAddr("198.51.100.7")
	tb := sampleTable(t, "")
	// The creator is the connection's peer, whatever the entry says.
	tb.Peer = mallory
	if r := s.Serve(alice, ip, req(t, Request{Op: OpPublish, TTL: time.Minute, Table: tb})); r.Status != StatusOK {
		t.Fatalf("publish: %+v", r)
	}
	list := s.Serve(mallory, ip, req(t, Request{Op: OpList}))
	if len(list.Entries) != 1 || list.Entries[0].Table.Peer != alice {
		t.Fatalf("list: %+v", list)
	}
	// Mallory cannot withdraw Alice's table, nor overwrite it: publishing
	// the same table id makes a second entry, under Mallory's peer id
	// (with another join code: the code names the creator).
	if r := s.Serve(mallory, ip, req(t, Request{Op: OpWithdraw, ID: tb.ID})); r.Status != StatusNotFound {
		t.Fatalf("mallory's withdraw: %+v", r)
	}
	tb2 := tb
	tb2.Name = "stolen"
	s.Serve(mallory, ip, req(t, Request{Op: OpPublish, TTL: time.Minute, Table: tb2}))
	byCode := s.Serve(mallory, ip, req(t, Request{Op: OpList, Code: lobby.Code(tb.ID, alice)}))
	if len(byCode.Entries) != 1 || byCode.Entries[0].Table.Name != "friday" || byCode.Entries[0].Table.Peer != alice {
		t.Fatalf("by alice's code: %+v", byCode)
	}
	if all := s.Serve(alice, ip, req(t, Request{Op: OpList})); len(all.Entries) != 2 {
		t.Fatalf("list: %d entries", len(all.Entries))
	}
	if r := s.Serve(alice, ip, req(t, Request{Op: OpWithdraw, ID: tb.ID})); r.Status != StatusOK {
		t.Fatalf("withdraw: %+v", r)
	}
	// Entries expire.
	clock.t = clock.t.Add(61 * time.Second)
	if all := s.Serve(alice, ip, req(t, Request{Op: OpList})); len(all.Entries) != 0 {
		t.Fatalf("after expiry: %+v", all.Entries)
	}
}

// TestServerPlaying: a table switched to in play (operation 4) leaves the
// open list and appears in the in-play list (operation 5) only, under
// the same creator and code; withdrawing removes it.
func TestServerPlaying(t *testing.T) {
	s, _ := newTestServer(Limits{PerCreator: 1})
	alice := mustPeer(t, otherID)
	ip := netip.MustParseAddr("198.51.100.7")
	tb := sampleTable(t, "")
	if r := s.Serve(alice, ip, req(t, Request{Op: OpPublish, TTL: time.Minute, Table: tb})); r.Status != StatusOK {
		t.Fatalf("publish: %+v", r)
	}
	if r := s.Serve(alice, ip, req(t, Request{Op: OpListPlaying})); len(r.Entries) != 0 {
		t.Fatalf("in play before the game: %+v", r.Entries)
	}
	tb.Taken = tb.Total
	// The same table, now in play: it replaces the open entry (the cap of
	// one table per creator is not hit).
	if r := s.Serve(alice, ip, req(t, Request{Op: OpPublishPlaying, TTL: time.Minute, Table: tb})); r.Status != StatusOK {
		t.Fatalf("publish in play: %+v", r)
	}
	if r := s.Serve(alice, ip, req(t, Request{Op: OpList})); len(r.Entries) != 0 {
		t.Fatalf("open list shows a table in play: %+v", r.Entries)
	}
	code := lobby.Code(tb.ID, alice)
	r := s.Serve(alice, ip, req(t, Request{Op: OpListPlaying, Code: code}))
	if len(r.Entries) != 1 || r.Entries[0].Table.Peer != alice || !r.Entries[0].Table.Playing {
		t.Fatalf("in-play list by code: %+v", r)
	}
	if r := s.Serve(alice, ip, req(t, Request{Op: OpWithdraw, ID: tb.ID})); r.Status != StatusOK {
		t.Fatalf("withdraw: %+v", r)
	}
	if r := s.Serve(alice, ip, req(t, Request{Op: OpListPlaying})); len(r.Entries) != 0 {
		t.Fatalf("after withdrawing: %+v", r.Entries)
	}
}

func TestServerLimits(t *testing.T) {
	s, clock := newTestServer(Limits{PerCreator: 2, Entries: 3, PeerBurst: 100, IPBurst: 100})
	a, b := mustPeer(t, otherID), mustPeer(t, relayID)
	ip := netip.MustParseAddr("198.51.100.7")
	pub := func(who peer.ID) Status {
		return s.Serve(who, ip, req(t, Request{Op: OpPublish, TTL: time.Minute, Table: sampleTable(t, "")})).Status
	}
	// Each call publishes once more: a's third table passes its cap of 2,
	// then b's second passes the total of 3.
	for i, want := range []Status{StatusOK, StatusOK, StatusFull} {
		if got := pub(a); got != want {
			t.Fatalf("per-creator cap: creator a's publish %d got %v, want %v", i+1, got, want)
		}
	}
	for i, want := range []Status{StatusOK, StatusFull} {
		if got := pub(b); got != want {
			t.Fatalf("total cap: creator b's publish %d got %v, want %v", i+1, got, want)
		}
	}
	// TTL is clamped to MinTTL.
	tb := sampleTable(t, "")
	s2, _ := newTestServer(Limits{})
	s2.Serve(a, ip, req(t, Request{Op: OpPublish, TTL: time.Second, Table: tb}))
	if l := s2.Serve(a, ip, req(t, Request{Op: OpList})); l.Entries[0].TTL != 15*time.Second {
		t.Fatalf("ttl %v", l.Entries[0].TTL)
	}
	_ = clock
}

func TestServerRateLimits(t *testing.T) {
	s, clock := newTestServer(Limits{PeerRate: 1, PeerBurst: 3, IPRate: 2, IPBurst: 5})
	a, b := mustPeer(t, otherID), mustPeer(t, relayID)
	ip := netip.MustParseAddr("198.51.100.7")
	list := req(t, Request{Op: OpList})
	var got []Status
	for range 4 {
		got = append(got, s.Serve(a, ip, list).Status)
	}
	if got[2] != StatusOK || got[3] != StatusRateLimited {
		t.Fatalf("per peer: %v", got)
	}
	// b shares a's address: 2 more from the IP's burst of 5, then none.
	got = nil
	for range 3 {
		got = append(got, s.Serve(b, ip, list).Status)
	}
	if got[1] != StatusOK || got[2] != StatusRateLimited {
		t.Fatalf("per IP: %v", got)
	}
	// Bad requests cost a token too, and never panic.
	clock.t = clock.t.Add(time.Minute)
	if r := s.Serve(a, ip, []byte{0xff, 0xff}); r.Status != StatusBadRequest {
		t.Fatalf("bad request: %+v", r)
	}
	if r := s.Serve(a, ip, list); r.Status != StatusOK {
		t.Fatalf("after a minute: %+v", r)
	}
}

func TestPublishAddrs(t *testing.T) {
	self := mustPeer(t, otherID)
	in := []ma.Multiaddr{
		ma.StringCast("/ip4/11.0.0.10/tcp/4001/p2p/" + relayID + "/p2p-circuit/p2p/" + otherID),
		ma.StringCast("/ip4/192.168.1.5/tcp/4242/p2p/" + otherID),
		ma.StringCast("/ip4/127.0.0.1/tcp/4242"),
		ma.StringCast("/ip4/93.184.216.34/udp/4242/quic-v1"),
	}
	got := PublishAddrs(self, in)
	want := []string{"/ip4/11.0.0.10/tcp/4001/p2p/" + relayID + "/p2p-circuit", "/ip4/93.184.216.34/udp/4242/quic-v1"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("got %v", got)
		}
	}
}

// newHost is a libp2p host on loopback TCP.
func newHost(t *testing.T) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestOverTheNetwork: a creator publishes through a Publisher, a browser
// lists it by code over a real stream, the creator withdraws on Close.
func TestOverTheNetwork(t *testing.T) {
	relay, creator, browser := newHost(t), newHost(t), newHost(t)
	srv := NewServer(Limits{PeerBurst: 100}) // the browser polls
	srv.Attach(relay)
	ri := peer.AddrInfo{ID: relay.ID(), Addrs: relay.Addrs()}
	tb := sampleTable(t, creator.ID())
	reports := make(chan error, 4)
	pub, err := NewPublisher(creator, []peer.AddrInfo{ri}, tb, 30*time.Second, func(_ peer.ID, err error) { reports <- err })
	if err != nil {
		t.Fatal(err)
	}
	if err := <-reports; err != nil {
		t.Fatalf("publish: %v", err)
	}
	ctx := context.Background()
	got, err := List(ctx, browser, ri, tb.Code())
	if err != nil || len(got) != 1 || got[0].Peer != creator.ID() || got[0].Name != "friday" {
		t.Fatalf("list by code: %v %v", got, err)
	}
	tb.Taken, tb.Players = 2, []string{"ann", "bob"}
	pub.Update(tb)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _ = List(ctx, browser, ri, "")
		if len(got) == 1 && got[0].Taken == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(got) != 1 || got[0].Taken != 2 {
		t.Fatalf("after update: %+v", got)
	}
	// The game starts: the entry moves to the in-play list.
	tb.Taken, tb.Total, tb.Playing = 2, 2, true
	pub.Update(tb)
	deadline = time.Now().Add(5 * time.Second)
	for {
		got, _ = ListPlaying(ctx, browser, ri, tb.Code())
		if len(got) == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(got) != 1 || !got[0].Playing || got[0].Peer != creator.ID() {
		t.Fatalf("in play: %+v", got)
	}
	if open, err := List(ctx, browser, ri, ""); err != nil || len(open) != 0 {
		t.Fatalf("open tables once in play: %v %v", open, err)
	}
	pub.Close()
	if got, err := ListPlaying(ctx, browser, ri, ""); err != nil || len(got) != 0 {
		t.Fatalf("in play after close: %v %v", got, err)
	}
	if got, err := List(ctx, browser, ri, ""); err != nil || len(got) != 0 {
		t.Fatalf("after close: %v %v", got, err)
	}
	// A host without the directory: a clear error.
	plain := newHost(t)
	_, err = List(ctx, browser, peer.AddrInfo{ID: plain.ID(), Addrs: plain.Addrs()}, "")
	if err == nil || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("no directory: %v", err)
	}
}

func TestMerge(t *testing.T) {
	a := sampleTable(t, mustPeer(t, otherID))
	b := a
	b.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/11.0.0.11/tcp/4001/p2p/" + relayID + "/p2p-circuit")}
	c := a
	c.Peer = mustPeer(t, relayID) // another creator, same table id: kept apart
	got := Merge([]lobby.Table{a}, []lobby.Table{b, c})
	if len(got) != 2 || len(got[0].Addrs) != 2 || got[1].Peer != c.Peer {
		t.Fatalf("merge: %+v", got)
	}
}

// freshPeer is a new peer id, as a client making identities makes them.
func freshPeer(t *testing.T) peer.ID {
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

// TestServerFillFromOneNetwork is issue 23's attack: fresh peer ids from
// one network publish tables as fast as the directory lets them, from a
// new address each time (one IPv4 /24, or one IPv6 /64), for as long as
// it takes (the clock advances a second per 5 publishes, the rate the
// old per-address limit let one address have). An honest host on
// another network must still get its table listed, and the stranger's
// network holds at most PerBlock tables (4 × PerBlock for an IPv6 /48).
func TestServerFillFromOneNetwork(t *testing.T) {
	ids := make([]peer.ID, 64)
	for i := range ids {
		ids[i] = freshPeer(t)
	}
	for _, tc := range []struct {
		name string
		addr func(i int) netip.Addr
		max  int
	}{
		{"IPv4 /24", func(i int) netip.Addr { return netip.AddrFrom4([4]byte{198, 51, 100, byte(i)}) }, 32},
		{"IPv6 /64", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2, 0, 0, 0, 0, byte(i >> 16), byte(i >> 8), byte(i), 1})
		}, 32},
		{"IPv6 /48, a /56 each time", func(i int) netip.Addr {
			return netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 0, 1, byte(i), 0, 0, 0, 0, 0, 0, 0, 0, 1})
		}, 128},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clock := newTestServer(Limits{})
			listed := 0
			for i := range 2000 {
				// Four tables per peer id (the per-creator cap).
				who := ids[(i/4)%len(ids)]
				if i%4 == 0 && i/4 >= len(ids) {
					who = freshPeer(t)
				}
				r := s.Serve(who, tc.addr(i%250), req(t, Request{Op: OpPublish, TTL: MaxTTL * time.Second, Table: sampleTable(t, "")}))
				if r.Status == StatusOK {
					listed++
				}
				if i%5 == 4 {
					clock.t = clock.t.Add(time.Second)
				}
				if listed > tc.max {
					t.Fatalf("%d tables listed from one network after %d publishes (%v); want at most %d", listed, i+1, clock.t.Sub(time.Unix(1_800_000_000, 0)), tc.max)
				}
			}
			honest := mustPeer(t, otherID)
			if r := s.Serve(honest, netip.MustParseAddr("203.0.113.9"), req(t, Request{Op: OpPublish, TTL: time.Minute, Table: sampleTable(t, "")})); r.Status != StatusOK {
				t.Fatalf("an honest host on another network: %+v", r)
			}
			if r := s.Serve(honest, netip.MustParseAddr("203.0.113.9"), req(t, Request{Op: OpPublish, TTL: time.Minute, Table: sampleTable(t, "")})); r.Status != StatusOK {
				t.Fatalf("its second table: %+v", r)
			}
		})
	}
}

// TestServerBlockRate: requests from new addresses of one /24 share one
// rate limit.
func TestServerBlockRate(t *testing.T) {
	s, _ := newTestServer(Limits{PeerBurst: 100, IPBurst: 5})
	a := mustPeer(t, otherID)
	list := req(t, Request{Op: OpList})
	var got []Status
	for i := range 6 {
		got = append(got, s.Serve(a, netip.AddrFrom4([4]byte{198, 51, 100, byte(10 + i)}), list).Status)
	}
	if got[4] != StatusOK || got[5] != StatusRateLimited {
		t.Fatalf("6 requests from 6 addresses of one /24 with a burst of 5: %v", got)
	}
	// Addresses that are not public count one by one (a LAN, a VPN).
	for i := range 6 {
		if r := s.Serve(a, netip.AddrFrom4([4]byte{10, 0, 0, byte(10 + i)}), list); r.Status != StatusOK {
			t.Fatalf("10.0.0.%d: %+v", 10+i, r)
		}
	}
}

// TestServerHonestTableStaysListed: a stranger behind the honest host's
// own address (carrier-grade NAT: one IPv4 address for many homes)
// spends the address's rate limit asking for lists under many peer ids;
// the honest host's refreshes still keep its table listed, and it can
// still withdraw it.
func TestServerHonestTableStaysListed(t *testing.T) {
	s, clock := newTestServer(Limits{})
	honest := mustPeer(t, otherID)
	strangers := make([]peer.ID, 40) // each held to 1 request a second
	for i := range strangers {
		strangers[i] = freshPeer(t)
	}
	cgnat := netip.MustParseAddr("198.51.100.7")
	tb := sampleTable(t, "")
	if r := s.Serve(honest, cgnat, req(t, Request{Op: OpPublish, TTL: DefaultTTL, Table: tb})); r.Status != StatusOK {
		t.Fatalf("publish: %+v", r)
	}
	list := req(t, Request{Op: OpList})
	// Ten minutes: the stranger asks 20 times a second under 40 peer
	// ids, the honest host refreshes every 30 s (DefaultTTL/3), as the
	// Publisher does.
	for sec := 1; sec <= 600; sec++ {
		clock.t = clock.t.Add(time.Second)
		for i := range 20 {
			s.Serve(strangers[(20*sec+i)%len(strangers)], cgnat, list)
		}
		if sec%30 == 0 {
			if r := s.Serve(honest, cgnat, req(t, Request{Op: OpPublish, TTL: DefaultTTL, Table: tb})); r.Status != StatusOK {
				t.Fatalf("refresh at %ds: %+v", sec, r)
			}
		}
	}
	r := s.Serve(honest, netip.MustParseAddr("203.0.113.9"), list)
	if len(r.Entries) != 1 || r.Entries[0].Table.ID != tb.ID {
		t.Fatalf("after 10 minutes: %+v", r)
	}
	if r := s.Serve(honest, cgnat, req(t, Request{Op: OpWithdraw, ID: tb.ID})); r.Status != StatusOK {
		t.Fatalf("withdraw: %+v", r)
	}
}

// TestServerCreatorGone: an entry whose creator has no connection to the
// relay any more is dropped after Limits.Gone, whatever TTL it asked
// for; a connected creator's entry stays for its TTL.
func TestServerCreatorGone(t *testing.T) {
	s, clock := newTestServer(Limits{Gone: 20 * time.Second})
	here, gone := mustPeer(t, otherID), mustPeer(t, relayID)
	connected := map[peer.ID]bool{here: true, gone: true}
	s.connected = func(p peer.ID) bool { return connected[p] }
	ip := netip.MustParseAddr("198.51.100.7")
	for _, p := range []peer.ID{here, gone} {
		if r := s.Serve(p, ip, req(t, Request{Op: OpPublish, TTL: MaxTTL * time.Second, Table: sampleTable(t, "")})); r.Status != StatusOK {
			t.Fatalf("publish: %+v", r)
		}
	}
	connected[gone] = false
	list := req(t, Request{Op: OpList})
	for range 25 {
		clock.t = clock.t.Add(time.Second)
		s.Serve(here, ip, list)
	}
	r := s.Serve(here, ip, list)
	if len(r.Entries) != 1 || r.Entries[0].Table.Peer != here {
		t.Fatalf("25 s after its creator left: %+v", r.Entries)
	}
	// A creator that comes back within Gone keeps its entry.
	connected[here] = false
	clock.t = clock.t.Add(10 * time.Second)
	s.Serve(gone, ip, list)
	connected[here] = true
	clock.t = clock.t.Add(15 * time.Second)
	if r := s.Serve(gone, ip, list); len(r.Entries) != 1 {
		t.Fatalf("a creator away 15 s: %+v", r.Entries)
	}
}
