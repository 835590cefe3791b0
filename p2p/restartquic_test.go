package p2p

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p/identity"
)

// TestRestartedQUICJoinerRetakesItsSeat: a joiner seated over QUIC dies
// without a word (its packets stop, as after kill -9: the creator's QUIC
// connection to it stays open until its 30 s idle timeout) and restarts
// with the same identity and a new card key. The creator pings the old
// connection, gets no answer, and gives the restarted joiner its seat
// back within seconds instead of refusing it as already seated.
func TestRestartedQUICJoinerRetakesItsSeat(t *testing.T) { testQUICRestart(t, true) }

// TestSecondProgramStillRefused: while the program holding the seat is
// alive (it answers the ping), a second program with its identity is
// still refused as already seated.
func TestSecondProgramStillRefused(t *testing.T) { testQUICRestart(t, false) }

func testQUICRestart(t *testing.T, dies bool) {
	quicNode := func(id *identity.Identity, refuse func() error) *Node {
		testRefuse = refuse
		defer func() { testRefuse = nil }()
		n, err := NewNode(Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/udp/0/quic-v1"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	hostID, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	joinerID, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	host := quicNode(hostID, nil)
	var dead atomic.Bool
	old := quicNode(joinerID, func() error {
		if dead.Load() {
			return refusedSend() // dropped silently (quietUDPConn)
		}
		return nil
	})
	tbl, err := host.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	creator := peer.AddrInfo{ID: host.ID(), Addrs: host.Host().Addrs()}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	seated := make(chan int, 2)
	oldCtx, oldCancel := context.WithCancel(ctx)
	defer oldCancel()
	go old.Join(oldCtx, JoinConfig{Creator: creator, Name: "p1", CardKey: []byte("old"),
		OnSeated: func(seat, _, _ int) { seated <- seat }})
	select {
	case s := <-seated:
		if s != 1 {
			t.Fatalf("first join: seat %d, want 1", s)
		}
	case <-ctx.Done():
		t.Fatal("first join: no seat")
	}
	dead.Store(dies) // the old program is gone; the creator does not know

	restarted := quicNode(joinerID, nil)
	start := time.Now()
	errc := make(chan error, 1)
	go func() {
		_, err := restarted.Join(ctx, JoinConfig{Creator: creator, Name: "p1", CardKey: []byte("new"),
			OnSeated: func(seat, _, _ int) { seated <- seat }})
		errc <- err
	}()
	if !dies {
		var no *JoinRefusedError
		select {
		case err := <-errc:
			if !errors.As(err, &no) || no.Code != RefusedAlreadySeated {
				t.Fatalf("second program: %v, want refused as already seated", err)
			}
		case s := <-seated:
			t.Fatalf("second program given seat %d", s)
		case <-ctx.Done():
			t.Fatal("second program: no answer")
		}
		return
	}
	select {
	case s := <-seated:
		if s != 1 {
			t.Fatalf("restarted join: seat %d, want 1", s)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("restarted join seated after %v", d)
		}
		t.Logf("restarted joiner seated after %v", time.Since(start).Round(time.Millisecond))
	case err := <-errc:
		t.Fatalf("restarted join: %v", err)
	case <-ctx.Done():
		t.Fatal("restarted join: no seat")
	}
	if taken, _ := tbl.Taken(); taken != 2 {
		t.Errorf("%d seats taken, want 2", taken)
	}
}
