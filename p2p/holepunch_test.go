package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
)

// TestHolePunchLog: the last outcome per peer, from libp2p's events: a
// failed direct dial then a hole punch that worked is a success; one that
// failed keeps its error; steps change nothing; a change is signalled.
func TestHolePunchLog(t *testing.T) {
	l := newPunchLog()
	n := &Node{punches: l}
	a, b := peer.ID("peer-a"), peer.ID("peer-b")
	at := time.Unix(1_800_000_000, 0)
	ev := func(p peer.ID, e any) *holepunch.Event {
		at = at.Add(time.Second)
		return &holepunch.Event{Timestamp: at.UnixNano(), Remote: p, Evt: e}
	}
	changed := n.HolePunchChanged()
	l.Trace(ev(a, &holepunch.DirectDialEvt{Success: false, Error: "no route"}))
	select {
	case <-changed:
	default:
		t.Fatal("no change signalled")
	}
	l.Trace(ev(a, &holepunch.StartHolePunchEvt{}))
	if got := n.HolePunches(); len(got) != 1 || got[0].Success || got[0].Err != "direct dial failed: no route" {
		t.Fatalf("after a failed direct dial: %+v", got)
	}
	l.Trace(ev(a, &holepunch.EndHolePunchEvt{Success: true, EllapsedTime: 120 * time.Millisecond}))
	l.Trace(ev(b, &holepunch.EndHolePunchEvt{Success: false, EllapsedTime: 5 * time.Second, Error: "all retries failed\xff"}))
	got := n.HolePunches()
	if len(got) != 2 {
		t.Fatalf("%d outcomes, want 2", len(got))
	}
	if got[0].Peer != a || !got[0].Success || got[0].Dialled || got[0].Err != "" || got[0].Elapsed != 120*time.Millisecond ||
		!got[0].At.Equal(time.Unix(1_800_000_003, 0)) {
		t.Errorf("peer a: %+v", got[0])
	}
	if got[1].Peer != b || got[1].Success || got[1].Err != "all retries failed?" {
		t.Errorf("peer b: %+v", got[1])
	}
	l.Trace(ev(b, &holepunch.DirectDialEvt{Success: true, EllapsedTime: time.Millisecond}))
	if got := n.HolePunches(); !got[1].Success || !got[1].Dialled {
		t.Errorf("peer b dialled directly: %+v", got[1])
	}
	if (&Node{}).HolePunches() != nil || (&Node{}).HolePunchChanged() != nil {
		t.Error("a node without relays has hole punch outcomes")
	}
}
