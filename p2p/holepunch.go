package p2p

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
)

// HolePunch is the outcome of the last attempt to turn a relayed
// connection to a peer into a direct one (DCUtR): a direct dial first,
// then, if that failed, hole punching.
type HolePunch struct {
	Peer peer.ID
	// At is when the attempt ended.
	At time.Time
	// Success: a direct connection was made.
	Success bool
	// Dialled: it was made by dialling the peer's address directly (no
	// hole punch was needed: the peer is reachable).
	Dialled bool
	// Elapsed is how long the attempt took.
	Elapsed time.Duration
	// Err says why it failed (libp2p's words).
	Err string
}

// punchLog keeps the last [HolePunch] per peer, from libp2p's hole
// punching events (it is their holepunch.EventTracer).
type punchLog struct {
	mu      sync.Mutex
	last    map[peer.ID]HolePunch
	changed chan struct{}
}

func newPunchLog() *punchLog {
	return &punchLog{last: map[peer.ID]HolePunch{}, changed: make(chan struct{})}
}

// Trace records the end of a direct dial or of a hole punch, and protocol
// errors (the peer did not take part); the other events are steps.
func (l *punchLog) Trace(evt *holepunch.Event) {
	hp := HolePunch{Peer: evt.Remote, At: time.Unix(0, evt.Timestamp)}
	switch e := evt.Evt.(type) {
	case *holepunch.DirectDialEvt:
		if !e.Success {
			// A hole punch follows: its end is the outcome. Until then,
			// this failure is all there is.
			hp.Err = "direct dial failed: " + e.Error
		}
		hp.Success, hp.Dialled, hp.Elapsed = e.Success, e.Success, e.EllapsedTime
	case *holepunch.EndHolePunchEvt:
		hp.Success, hp.Elapsed, hp.Err = e.Success, e.EllapsedTime, e.Error
	case *holepunch.ProtocolErrorEvt:
		hp.Err = "hole punching protocol: " + e.Error
	default:
		return
	}
	if hp.At.IsZero() || evt.Timestamp == 0 {
		hp.At = time.Now()
	}
	hp.Err = strings.ToValidUTF8(hp.Err, "?")
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last[hp.Peer] = hp
	close(l.changed)
	l.changed = make(chan struct{})
}

// HolePunches returns the last hole punch outcome per peer this node
// tried to reach directly (only with relays: a node without relays never
// punches), sorted by peer id.
func (n *Node) HolePunches() []HolePunch {
	if n.punches == nil {
		return nil
	}
	n.punches.mu.Lock()
	defer n.punches.mu.Unlock()
	out := make([]HolePunch, 0, len(n.punches.last))
	for _, hp := range n.punches.last {
		out = append(out, hp)
	}
	slices.SortFunc(out, func(a, b HolePunch) int { return strings.Compare(string(a.Peer), string(b.Peer)) })
	return out
}

// HolePunchChanged returns a channel closed at the next change of
// [Node.HolePunches] (nil, never closed, without relays).
func (n *Node) HolePunchChanged() <-chan struct{} {
	if n.punches == nil {
		return nil
	}
	n.punches.mu.Lock()
	defer n.punches.mu.Unlock()
	return n.punches.changed
}
