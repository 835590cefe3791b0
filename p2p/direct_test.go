package p2p

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// punchGater refuses every direct connection but to the relay until
// punched is set: then it lets direct connections through, as a hole
// punch would.
type punchGater struct {
	relay   peer.ID
	punched *atomic.Bool
}

func (g punchGater) InterceptPeerDial(peer.ID) bool { return true }
func (g punchGater) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	return g.punched.Load() || p == g.relay || IsCircuit(a)
}
func (g punchGater) InterceptAccept(network.ConnMultiaddrs) bool { return true }
func (g punchGater) InterceptSecured(_ network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	return g.punched.Load() || p == g.relay || IsCircuit(c.RemoteMultiaddr())
}
func (g punchGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// punchLab starts an in-process relay with a limit (its connections are
// limited) and n nodes on loopback that reach each other only through it
// until punched is set. It waits for every node's reservation.
func punchLab(ctx context.Context, t *testing.T, n int, punched *atomic.Bool) []*tpeer {
	t.Helper()
	rh, relays := loopbackRelay(t)
	ps := relayedPeers(t, n, relays, nil, punchGater{relay: rh.ID(), punched: punched})
	// Reservations on a loopback relay are not announced (AutoRelay
	// announces public relay addresses only): connect every pair through
	// the relay, asking again while a reservation is missing.
	for i, a := range ps {
		for j, b := range ps {
			if i >= j {
				continue
			}
			for {
				b.node.clearBackoff(b.id.PeerID())
				a.node.clearBackoff(b.id.PeerID())
				cctx, cancel := context.WithTimeout(allowLimited(ctx), 2*time.Second)
				err := a.node.Host().Connect(cctx, peer.AddrInfo{ID: b.id.PeerID(), Addrs: CircuitAddrs(relays)})
				cancel()
				if err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("peers %d and %d: no relayed connection: %v", i, j, err)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	return ps
}

// punch lets direct connections through and makes one from a to b, as
// DCUtR does after a hole punch.
func punch(ctx context.Context, t *testing.T, punched *atomic.Bool, a, b *tpeer) {
	t.Helper()
	punched.Store(true)
	var direct []ma.Multiaddr
	for _, m := range b.node.Host().Network().ListenAddresses() {
		if !IsCircuit(m) {
			direct = append(direct, m)
		}
	}
	cctx := network.WithForceDirectDial(ctx, "test: hole punched")
	if err := a.node.Host().Connect(cctx, peer.AddrInfo{ID: b.id.PeerID(), Addrs: direct}); err != nil {
		t.Fatalf("direct connection: %v", err)
	}
}

// logStreams counts the log streams (both directions) between h's node
// and p on relayed and on direct connections.
func logStreams(n *Node, p peer.ID) (relayed, direct int) {
	for _, c := range n.Host().Network().ConnsToPeer(p) {
		for _, s := range c.GetStreams() {
			if s.Protocol() != ProtocolLog {
				continue
			}
			if relayedConn(c) {
				relayed++
			} else {
				direct++
			}
		}
	}
	return relayed, direct
}

// TestSenderMovesToDirect sends numbered frames on a log stream that
// starts on a relayed connection; midway a direct connection appears.
// The receiver (slow: it takes a moment per frame, as a busy room does)
// must get every frame exactly once and in order, the later ones over the
// direct connection, and the relayed stream must be closed cleanly.
func TestSenderMovesToDirect(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var punched atomic.Bool
	ps := punchLab(ctx, t, 2, &punched)
	a, b := ps[0], ps[1]

	type got struct {
		n       uint32
		relayed bool
	}
	var (
		mu      sync.Mutex
		frames  []got
		streams []bool // per stream opened: relayed
		arrived = make(chan struct{}, 1)
	)
	b.node.Host().SetStreamHandler(ProtocolLog, func(s network.Stream) {
		relayed := relayedConn(s.Conn())
		r := bufio.NewReader(s)
		if m, err := b.node.readMsgLimit(r, s, MaxHelloFrame); err != nil || m.Type != msgHello {
			t.Errorf("first frame: %v %v", m, err)
			s.Reset()
			return
		}
		mu.Lock()
		streams = append(streams, relayed)
		mu.Unlock()
		for {
			f, err := readFrame(r, 1024, nil)
			if err != nil {
				// As handleLog: EOF or not, the stream is done with.
				s.Reset()
				return
			}
			time.Sleep(2 * time.Millisecond)
			mu.Lock()
			frames = append(frames, got{binary.BigEndian.Uint32(f[1:]), relayed})
			mu.Unlock()
			select {
			case arrived <- struct{}{}:
			default:
			}
		}
	})

	room := &Room{node: a.node, self: 0}
	s := newSender(room, b.id.PeerID(), CircuitAddrs(b.node.Relays()))
	sctx, stop := context.WithCancel(ctx)
	defer func() { stop(); <-s.done }()
	go s.run(sctx)

	const total = 400
	frame := func(i uint32) []byte { return binary.BigEndian.AppendUint32([]byte{msgEntry}, i) }
	for i := range uint32(total) {
		if i == total/4 {
			// The stream is on the relayed connection by now.
			for {
				mu.Lock()
				n := len(frames)
				mu.Unlock()
				if n > 0 {
					break
				}
				select {
				case <-arrived:
				case <-ctx.Done():
					t.Fatal("no frame through the relay")
				}
			}
			if r, d := logStreams(a.node, b.id.PeerID()); r != 1 || d != 0 {
				t.Fatalf("before the punch: %d log streams relayed, %d direct; want 1, 0", r, d)
			}
			punch(ctx, t, &punched, a, b)
		}
		s.send(frame(i))
		time.Sleep(time.Millisecond)
	}
	for {
		mu.Lock()
		n := len(frames)
		mu.Unlock()
		if n >= total {
			break
		}
		select {
		case <-arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d frames arrived", n, total)
		}
	}
	time.Sleep(50 * time.Millisecond) // duplicates, if any, would arrive meanwhile
	mu.Lock()
	defer mu.Unlock()
	if len(frames) != total {
		t.Fatalf("%d frames arrived, sent %d", len(frames), total)
	}
	firstDirect := -1
	for i, f := range frames {
		if f.n != uint32(i) {
			t.Fatalf("frame %d arrived as number %d (lost, repeated or out of order)", i, f.n)
		}
		if !f.relayed && firstDirect < 0 {
			firstDirect = i
		}
		if f.relayed && firstDirect >= 0 {
			t.Fatalf("frame %d came through the relay after frame %d came direct", i, firstDirect)
		}
	}
	if firstDirect < 0 {
		t.Fatal("every frame came through the relay: the stream never moved to the direct connection")
	}
	if len(streams) != 2 || !streams[0] || streams[1] {
		t.Fatalf("streams opened (relayed?): %v; want [true false]", streams)
	}
	if m, c := s.moves.Load(), s.cutMoves.Load(); m != 1 || c != 0 {
		t.Fatalf("moves %d (cut %d); want 1 (0)", m, c)
	}
	if r, d := logStreams(a.node, b.id.PeerID()); r != 0 || d != 1 {
		t.Fatalf("after the punch: %d log streams relayed, %d direct; want 0, 1", r, d)
	}
	t.Logf("frames 0..%d through the relay, %d..%d direct", firstDirect-1, firstDirect, total-1)
}

// TestGameMovesToDirect plays a 3-seat game whose seats reach each other
// through a relay; midway every pair gets a direct connection (as hole
// punching makes). Every seat's log streams must move onto the direct
// connections while the game goes on, and the game must end with
// identical logs.
func TestGameMovesToDirect(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var punched atomic.Bool
	const n = 3
	ps := punchLab(ctx, t, n, &punched)
	tb := signedTable(t, ps)
	for i, p := range ps {
		tb.Addrs[i] = addrBytes(p.node.announce()) // the circuit addresses too
	}

	const limit = 400
	midway := make(chan struct{})
	var once sync.Once
	slow := func(ctx context.Context, pos uint64) ([]byte, error) {
		select {
		case <-time.After(5 * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return body(pos), nil
	}
	res := make([]result, n)
	var wg sync.WaitGroup
	for i, p := range ps {
		c := &counter{seats: n, limit: limit}
		if i == 0 {
			c.onApply = func(pos uint64) {
				if pos == limit/4 {
					once.Do(func() { close(midway) })
				}
			}
		}
		wg.Go(func() { res[i] = play(ctx, t, p, tb, c, RoomConfig{Author: slow}) })
	}
	select {
	case <-midway:
	case <-ctx.Done():
		wg.Wait()
		t.Fatalf("the game did not get a quarter through: %v", res)
	}
	for i := range ps {
		for j := range ps {
			if i < j {
				if r, d := logStreams(ps[i].node, ps[j].id.PeerID()); d != 0 || r == 0 {
					t.Errorf("seats %d and %d before the punch: %d log streams relayed, %d direct", i, j, r, d)
				}
				punch(ctx, t, &punched, ps[i], ps[j])
			}
		}
	}
	// Every log stream moves while the game goes on (each pair has two,
	// one each way).
	moved := errors.New("not yet")
	for deadline := time.Now().Add(5 * time.Second); moved != nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		moved = nil
		for i := range ps {
			for j := range ps {
				if i != j {
					if r, d := logStreams(ps[i].node, ps[j].id.PeerID()); r != 0 || d != 2 {
						moved = fmt.Errorf("seat %d to %d: %d log streams relayed, %d direct; want 0, 2", i, j, r, d)
					}
				}
			}
		}
	}
	if moved != nil {
		t.Error(moved)
	}
	wg.Wait()
	sameLogs(t, res, limit)
}

// TestMoveStuckReceiver: a receiver that never reads its relayed log
// stream to the end (stuck, or hostile) holds a move up for moveWait
// only; then the old stream is reset and the sender goes on over the
// direct connection.
func TestMoveStuckReceiver(t *testing.T) {
	defer func(w time.Duration) { moveWait = w }(moveWait)
	moveWait = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var punched atomic.Bool
	ps := punchLab(ctx, t, 2, &punched)
	a, b := ps[0], ps[1]
	stuck := make(chan struct{})
	defer close(stuck)
	var (
		mu     sync.Mutex
		direct []uint32
	)
	b.node.Host().SetStreamHandler(ProtocolLog, func(s network.Stream) {
		r := bufio.NewReader(s)
		if _, err := b.node.readMsgLimit(r, s, MaxHelloFrame); err != nil {
			s.Reset()
			return
		}
		if relayedConn(s.Conn()) {
			<-stuck // reads nothing more, never resets
			s.Reset()
			return
		}
		for {
			f, err := readFrame(r, 1024, nil)
			if err != nil {
				s.Reset()
				return
			}
			mu.Lock()
			direct = append(direct, binary.BigEndian.Uint32(f[1:]))
			mu.Unlock()
		}
	})
	s := newSender(&Room{node: a.node, self: 0}, b.id.PeerID(), CircuitAddrs(b.node.Relays()))
	sctx, stop := context.WithCancel(ctx)
	defer func() { stop(); <-s.done }()
	go s.run(sctx)
	frame := func(i uint32) []byte { return binary.BigEndian.AppendUint32([]byte{msgEntry}, i) }
	s.send(frame(0))
	for r, _ := logStreams(a.node, b.id.PeerID()); r == 0; r, _ = logStreams(a.node, b.id.PeerID()) {
		if ctx.Err() != nil {
			t.Fatal("no log stream through the relay")
		}
		time.Sleep(10 * time.Millisecond)
	}
	punch(ctx, t, &punched, a, b)
	start := time.Now()
	for i := uint32(1); i <= 10; i++ {
		s.send(frame(i))
	}
	for {
		mu.Lock()
		n := len(direct)
		mu.Unlock()
		if n >= 10 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d frames arrived over the direct connection in 10 s", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if m, c := s.moves.Load(), s.cutMoves.Load(); m != 1 || c != 1 {
		t.Fatalf("moves %d, cut %d; want 1, 1", m, c)
	}
	mu.Lock()
	defer mu.Unlock()
	for i, n := range direct {
		if n != uint32(i+1) {
			t.Fatalf("direct frames %v; want 1..10", direct)
		}
	}
	if d := time.Since(start); d < moveWait {
		t.Fatalf("frames moved after %v, before the wait for the stuck receiver (%v) was over", d, moveWait)
	}
}

// TestStalledSyncReconnects: a sync request that gets no answer at all
// within syncAnswerWait (the path went dark, the connection lingers)
// closes the connections to that peer, so that the next attempt dials
// afresh; an answered one does not.
func TestStalledSyncReconnects(t *testing.T) {
	defer func(w time.Duration) { syncAnswerWait = w }(syncAnswerWait)
	syncAnswerWait = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var punched atomic.Bool
	ps := punchLab(ctx, t, 2, &punched)
	a, b := ps[0], ps[1]
	punch(ctx, t, &punched, a, b)
	var silent atomic.Bool
	b.node.Host().SetStreamHandler(ProtocolSync, func(s network.Stream) {
		if silent.Load() {
			time.Sleep(2 * time.Second) // reads nothing, answers nothing
			s.Reset()
			return
		}
		WriteFrame(s, encodeSyncEnd(0))
		s.Close()
	})
	r := &Room{node: a.node, self: 0, peers: []peer.ID{a.id.PeerID(), b.id.PeerID()},
		addrs: [][]ma.Multiaddr{nil, nil}, ctx: ctx,
		inbox: make(chan inbound, 8)}
	if _, err := r.syncOnce(ctx, 1, 0); err != nil {
		t.Fatalf("answered sync: %v", err)
	}
	if len(a.node.Host().Network().ConnsToPeer(b.id.PeerID())) == 0 {
		t.Fatal("an answered sync closed the connections")
	}
	silent.Store(true)
	start := time.Now()
	if _, err := r.syncOnce(ctx, 1, 0); !isTimeout(err) {
		t.Fatalf("unanswered sync: %v; want a timeout", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("the unanswered sync took %v", d)
	}
	if cs := a.node.Host().Network().ConnsToPeer(b.id.PeerID()); len(cs) != 0 {
		t.Fatalf("after an unanswered sync: %d connections still open", len(cs))
	}
}
