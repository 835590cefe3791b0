package p2p

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/connmgr"
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/p2p/identity"
)

func TestParseRelays(t *testing.T) {
	const id = "12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u"
	rs, err := ParseRelays([]string{
		"/ip4/11.0.0.10/tcp/4001/p2p/" + id,
		"/ip4/11.0.0.10/udp/4001/quic-v1/p2p/" + id,
		"/ip4/11.0.0.10/tcp/4001/p2p/" + id, // repeated: kept once
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || len(rs[0].Addrs) != 2 || rs[0].ID.String() != id {
		t.Fatalf("merged relays: %v", rs)
	}
	cs := CircuitAddrs(rs)
	want := []string{"/ip4/11.0.0.10/tcp/4001/p2p/" + id + "/p2p-circuit", "/ip4/11.0.0.10/udp/4001/quic-v1/p2p/" + id + "/p2p-circuit"}
	if len(cs) != 2 || cs[0].String() != want[0] || cs[1].String() != want[1] {
		t.Fatalf("circuit addrs: %v", cs)
	}
	full := ma.StringCast(want[0] + "/p2p/12D3KooWPjceQrSwdWXPyLLeABRXmuqt69Rg3sBYbU1Nft9HyQ6X")
	if !IsCircuit(full) || IsCircuit(rs[0].Addrs[0]) {
		t.Fatal("IsCircuit")
	}
	if rl, ok := RelayOfCircuit(full); !ok || rl.ID != rs[0].ID || rl.Addrs[0].String() != "/ip4/11.0.0.10/tcp/4001" {
		t.Fatalf("RelayOfCircuit: %v %v", rl, ok)
	}
	if _, ok := RelayOfCircuit(rs[0].Addrs[0]); ok {
		t.Fatal("RelayOfCircuit of a direct address")
	}
	for _, bad := range []string{
		"11.0.0.10:4001",                    // not a multiaddr
		"/ip4/11.0.0.10/tcp/4001",           // no peer id
		"/p2p/" + id,                        // no transport
		want[0] + "/p2p/" + id,              // a circuit
		"/ip4/11.0.0.10/tcp/4001/p2p/QmBad", // bad id
	} {
		if _, err := ParseRelays([]string{bad}); !errors.Is(err, ErrBadRelay) || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseRelays(%q): %v", bad, err)
		}
	}
}

func TestRelayIPsExempt(t *testing.T) {
	rs, err := ParseRelays([]string{"/ip4/11.0.0.10/tcp/4001/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u",
		"/ip6/2001:db8::1/udp/4001/quic-v1/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u"})
	if err != nil {
		t.Fatal(err)
	}
	ips := relayIPs(rs)
	if len(ips) != 2 || ips[0] != netip.MustParseAddr("11.0.0.10") || ips[1] != netip.MustParseAddr("2001:db8::1") {
		t.Fatalf("relay IPs: %v", ips)
	}
	// The resource manager lets many connections through from the relay's
	// IP (relayed connections all carry it), and still limits others.
	rm, err := nodeResourceManager(rs)
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	circuit := ma.StringCast("/ip4/11.0.0.10/tcp/4001/p2p/12D3KooWK9UNDPkgNWa1kW5wspQT15tsnQS6WrdoNKSaY4BSQT8u/p2p-circuit")
	for i := range 40 {
		s, err := rm.OpenConnection(network.DirInbound, false, circuit)
		if err != nil {
			t.Fatalf("relayed connection %d refused: %v", i, err)
		}
		defer s.Done()
	}
	other := ma.StringCast("/ip4/11.0.0.99/tcp/4001")
	refused := 0
	for range 40 {
		s, err := rm.OpenConnection(network.DirInbound, false, other)
		if err != nil {
			refused++
			continue
		}
		defer s.Done()
	}
	if refused == 0 {
		t.Fatal("40 connections from one ordinary IP: none refused")
	}
}

// directGater refuses every direct dial except to the relay: peers on
// one machine then reach each other only through it.
type directGater struct{ relay peer.ID }

func (g directGater) InterceptPeerDial(peer.ID) bool { return true }
func (g directGater) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	return p == g.relay || IsCircuit(a)
}
func (g directGater) InterceptAccept(network.ConnMultiaddrs) bool { return true }
func (g directGater) InterceptSecured(_ network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	return p == g.relay || IsCircuit(c.RemoteMultiaddr())
}
func (g directGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// TestRelayedGame seats three peers that can reach each other only
// through a relay (a connection gater refuses direct dials) and plays a
// game to the end. The relay has a limit, so its connections are
// "limited": without network.WithAllowLimitedConn every stream open
// would wait a minute for a direct connection and the test would time
// out.
func TestRelayedGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	rh, relays := loopbackRelay(t)

	const n = 3
	ps := relayedPeers(t, n, relays, newPunchLog(), directGater{relay: rh.ID()})
	for _, p := range ps {
		if got := p.node.Addrs(); len(got) == 0 || !IsCircuit(got[0]) {
			t.Fatalf("a node with relays announces %v: its circuit address first", got)
		}
	}
	table, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Options: []byte{7}, Seats: n, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	// The invite: the creator's circuit addresses only.
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: CircuitAddrs(relays)}
	seatings := make([]*Seating, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = table.Seat(ctx) })
	for i := 1; i < n; i++ {
		wg.Go(func() {
			// The creator's reservation may not be made yet: ask again
			// while it is unreachable, as masque join does.
			for {
				seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, TableID: table.ID(), Name: fmt.Sprint("p", i)})
				if !errors.Is(errs[i], ErrUnreachable) || ctx.Err() != nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
	}
	// Every connection between players goes through the relay, and is
	// limited (the relay has a limit).
	for i := 1; i < n; i++ {
		cs := ps[i].node.Host().Network().ConnsToPeer(ps[0].id.PeerID())
		if len(cs) == 0 || !IsCircuit(cs[0].RemoteMultiaddr()) || !cs[0].Stat().Limited {
			t.Fatalf("seat %d's connections to the creator: %v", i, cs)
		}
	}
	limit := uint64(4 * n)
	res := make([]result, n)
	for i, p := range ps {
		s := seatings[i]
		wg.Go(func() {
			res[s.Seat] = play(ctx, t, p, s.Table, &counter{seats: n, limit: limit}, RoomConfig{})
		})
	}
	wg.Wait()
	sameLogs(t, res, int(limit))
	for i := 1; i < n; i++ {
		for j := 1; j < n; j++ {
			if i == j {
				continue
			}
			for _, c := range ps[i].node.Host().Network().ConnsToPeer(ps[j].id.PeerID()) {
				if !IsCircuit(c.RemoteMultiaddr()) {
					t.Errorf("a direct connection from seat %d to %d, through the gater", i, j)
				}
			}
		}
	}
}

// TestRedialsNotRateLimited: a joiner asking a creator again dials its IP
// many times in a row (each connection failing on a lossy network); the
// node's resource manager lets 60 of them through at once
// (libp2p's default refused every one after the 16th with "rate limit
// exceeded", for minutes), and still caps concurrent connections per IP.
func TestRedialsNotRateLimited(t *testing.T) {
	rm, err := nodeResourceManager(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rm.Close()
	host := ma.StringCast("/ip4/10.78.0.1/udp/4001/quic-v1")
	for i := range 60 {
		s, err := rm.OpenConnection(network.DirOutbound, false, host)
		if err != nil {
			t.Fatalf("dial %d refused: %v", i, err)
		}
		s.Done() // that connection failed
	}
	var open []network.ConnManagementScope
	defer func() {
		for _, s := range open {
			s.Done()
		}
	}()
	other := ma.StringCast("/ip4/10.78.0.2/tcp/4001")
	for i := range 9 {
		s, err := rm.OpenConnection(network.DirInbound, false, other)
		if err != nil {
			if i < 8 {
				t.Fatalf("connection %d from one IP refused: %v", i, err)
			}
			return
		}
		open = append(open, s)
	}
	t.Fatal("9 concurrent connections from one IP: none refused")
}

// loopbackRelay starts an in-process relay service on loopback whose
// relayed connections are limited (an hour, 1 GiB), closed when the test
// ends, and returns it with the relay list naming its addresses.
func loopbackRelay(t *testing.T) (host.Host, []peer.AddrInfo) {
	t.Helper()
	rid, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	rc := relayv2.DefaultResources()
	rc.Limit = &relayv2.RelayLimit{Duration: time.Hour, Data: 1 << 30}
	rh, err := libp2p.New(libp2p.Identity(rid.PrivKey()), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"),
		libp2p.ForceReachabilityPublic(), libp2p.EnableRelayService(relayv2.WithResources(rc)), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rh.Close() })
	var raddrs []ma.Multiaddr
	for _, a := range rh.Network().ListenAddresses() {
		if !IsCircuit(a) { // the relay's own /p2p-circuit listener
			raddrs = append(raddrs, a)
		}
	}
	return rh, []peer.AddrInfo{{ID: rh.ID(), Addrs: raddrs}}
}

// relayedPeers starts n nodes on loopback that use relays, their hole
// punches traced by punches (nil: not traced), their connections gated
// by gater; they are closed when the test ends.
func relayedPeers(t *testing.T, n int, relays []peer.AddrInfo, punches holepunch.EventTracer, gater connmgr.ConnectionGater) []*tpeer {
	t.Helper()
	ps := make([]*tpeer, n)
	for i := range ps {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		ro, err := relayOptions(relays, punches)
		if err != nil {
			t.Fatal(err)
		}
		h, err := libp2p.New(append([]libp2p.Option{libp2p.Identity(id.PrivKey()),
			libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableMetrics(),
			libp2p.ConnectionGater(gater)}, ro...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		node, err := NewNodeWithHost(h, Config{Identity: id, Relays: relays})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { node.Close() })
		ps[i] = &tpeer{id: id, node: node, dir: filepath.Join(t.TempDir(), fmt.Sprint(i))}
	}
	return ps
}

// refusalCount counts a relay's circuits refused for want of a
// reservation while when() holds (a relayv2.MetricsTracer).
type refusalCount struct {
	when  func() bool
	count atomic.Int64
}

func (r *refusalCount) RelayStatus(bool)                      {}
func (r *refusalCount) ConnectionOpened()                     {}
func (r *refusalCount) ConnectionClosed(time.Duration)        {}
func (r *refusalCount) ReservationAllowed(bool)               {}
func (r *refusalCount) ReservationClosed(int)                 {}
func (r *refusalCount) ReservationRequestHandled(pbv2.Status) {}
func (r *refusalCount) BytesTransferred(int)                  {}
func (r *refusalCount) ConnectionRequestHandled(st pbv2.Status) {
	if st == pbv2.Status_NO_RESERVATION && r.when != nil && r.when() {
		r.count.Add(1)
	}
}

// relayAt starts an in-process relay like loopbackRelay's with identity
// id, listening on addr, telling tr (if not nil) what it does.
func relayAt(t *testing.T, id *identity.Identity, addr string, tr relayv2.MetricsTracer) host.Host {
	t.Helper()
	rc := relayv2.DefaultResources()
	rc.Limit = &relayv2.RelayLimit{Duration: time.Hour, Data: 1 << 30}
	opts := []relayv2.Option{relayv2.WithResources(rc)}
	if tr != nil {
		opts = append(opts, relayv2.WithMetricsTracer(tr))
	}
	rh, err := libp2p.New(libp2p.Identity(id.PrivKey()), libp2p.ListenAddrStrings(addr),
		libp2p.ForceReachabilityPublic(), libp2p.EnableRelayService(opts...), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rh.Close() })
	return rh
}

// circuitReach reports how long it takes b to reach a through the relay
// (trying every every, up to limit).
func circuitReach(ctx context.Context, b, a *tpeer, relays []peer.AddrInfo, limit, every time.Duration) (time.Duration, error) {
	start := time.Now()
	var err error
	for time.Since(start) < limit {
		b.node.clearBackoff(a.id.PeerID())
		cctx, cancel := context.WithTimeout(allowLimited(ctx), time.Second)
		err = b.node.Host().Connect(cctx, peer.AddrInfo{ID: a.id.PeerID(), Addrs: CircuitAddrs(relays)})
		cancel()
		if err == nil {
			return time.Since(start), nil
		}
		time.Sleep(every)
	}
	return time.Since(start), err
}

// TestReservationOnPrivateRelay is issue 29's relay on a private address
// (10.x, a VPN's 100.64/10; loopback here, which libp2p treats alike):
// the relay grants the reservation within a second, but AutoRelay
// announces circuit addresses through public relays only, so a node
// that looked for one among its addresses saw none and waited its whole
// --relay-wait (15 s) before warning "no reservation". WaitReservations
// must see the reservation, and the relay must really hold it.
func TestReservationOnPrivateRelay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rh, relays := loopbackRelay(t)
	ps := relayedPeers(t, 2, relays, nil, directGater{relay: rh.ID()})
	if ps[0].node.PublicRelay() {
		t.Fatal("a loopback relay counts as public")
	}
	kctx, stop := context.WithCancel(ctx)
	defer stop()
	go ps[0].node.keepRelays(kctx)
	start := time.Now()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	held := ps[0].node.WaitReservations(wctx)
	wcancel()
	took := time.Since(start)
	if len(held) != 1 || held[0] != rh.ID() {
		t.Fatalf("after %v: reservations %v, want the relay's", took.Round(time.Millisecond), held)
	}
	if took > 5*time.Second {
		t.Fatalf("the reservation was seen after %v", took.Round(time.Millisecond))
	}
	if _, err := circuitReach(ctx, ps[1], ps[0], relays, 5*time.Second, 100*time.Millisecond); err != nil {
		t.Fatalf("the relay holds no reservation: %v", err)
	}
}

// TestRelayRestartReservesAtOnce is issue 29's relay restart: the new
// relay process (same identity and port) knows no reservation, and
// refuses every circuit to a seat (NO_RESERVATION) until the seat
// reserves again. A seat must reserve as soon as its connection to the
// relay is back, not after AutoRelay's own schedule: another seat asking
// for it every 50 ms must be refused at most twice while the seat is
// connected to the new relay (AutoRelay alone: 8 times in a run here).
func TestRelayRestartReservesAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rid, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	rh := relayAt(t, rid, "/ip4/127.0.0.1/tcp/0", nil)
	var addr ma.Multiaddr
	for _, a := range rh.Network().ListenAddresses() {
		if !IsCircuit(a) { // not the relay's own /p2p-circuit listener
			addr = a
		}
	}
	relays := []peer.AddrInfo{{ID: rh.ID(), Addrs: []ma.Multiaddr{addr}}}
	ps := relayedPeers(t, 2, relays, nil, directGater{relay: rh.ID()})
	kctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, p := range ps { // both seats, as in a game
		go p.node.keepRelays(kctx)
	}
	if _, err := circuitReach(ctx, ps[1], ps[0], relays, 20*time.Second, 100*time.Millisecond); err != nil {
		t.Fatalf("before the restart: %v", err)
	}
	rh.Close()
	time.Sleep(2 * time.Second) // down for a while: the seats redial in vain
	var newRelay atomic.Pointer[host.Host]
	refused := &refusalCount{when: func() bool {
		h := newRelay.Load()
		return h != nil && (*h).Network().Connectedness(ps[0].id.PeerID()) == network.Connected
	}}
	rh = relayAt(t, rid, addr.String(), refused)
	newRelay.Store(&rh)
	took, err := circuitReach(ctx, ps[1], ps[0], relays, 20*time.Second, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("after the restart: %v", err)
	}
	t.Logf("reachable through the restarted relay after %v; refused %d times while connected to it",
		took.Round(time.Millisecond), refused.count.Load())
	if n := refused.count.Load(); n > 2 {
		t.Fatalf("the restarted relay refused %d circuits to a seat connected to it (no reservation yet); reachable after %v",
			n, took.Round(time.Millisecond))
	}
}
