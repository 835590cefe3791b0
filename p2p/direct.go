package p2p

import (
	"context"
	"io"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Moving log streams onto a direct connection.
//
// A seat's log stream to a peer is opened on whatever connection the pair
// has: with relays, at first the relayed one. Hole punching (DCUtR) may
// make a direct connection a moment later, but a stream stays on the
// connection it was opened on, so without a move every entry of the game
// would keep going through the relay (slower, and counted against the
// relay's limits). The sender therefore moves its stream as soon as the
// peer has a direct connection: it half-closes the relayed stream, waits
// until the receiver has read it to its end (the receiver resets or
// closes the stream once it has handed every frame on it to its room), and
// only then opens the new stream, which libp2p puts on the direct
// connection. Nothing is written twice and nothing is lost, and the
// receiver's room gets the frames in the order they were sent (the
// protocol relies on a seat's frames arriving in order: its echo of
// position p before its entry p+1). Sync and chat streams are opened per
// request and so go direct by themselves once a direct connection exists.

// moveWait bounds how long a sender waits for the receiver to finish the
// relayed stream it moves away from. Past it the stream is reset: frames
// still in flight on it may be lost (sync repairs them).
var moveWait = 5 * time.Second

// relayedConn reports whether c goes through a relay: a limited
// connection, or one to a /p2p-circuit address (a relay without limits
// makes unlimited relayed connections).
func relayedConn(c network.Conn) bool {
	return c.Stat().Limited || IsCircuit(c.RemoteMultiaddr())
}

// hasDirectConn reports whether the node has an open direct (not
// relayed) connection to p.
func (n *Node) hasDirectConn(p peer.ID) bool {
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if !c.IsClosed() && !relayedConn(c) {
			return true
		}
	}
	return false
}

// shouldMove reports whether the sender's stream st runs over a relayed
// connection while the peer has a direct one.
func (s *sender) shouldMove(st network.Stream) bool {
	return relayedConn(st.Conn()) && s.room.node.hasDirectConn(s.peer)
}

// finishStream ends old so that the receiver has every frame written on
// it before anything goes on another stream: it closes old for writing
// and waits, at most moveWait, until the receiver ends it (reading EOF,
// the receiver resets or closes it). It reports whether the receiver did;
// if not, old is reset.
func finishStream(ctx context.Context, old network.Stream) bool {
	if err := old.CloseWrite(); err != nil {
		old.Reset()
		return false
	}
	stop := context.AfterFunc(ctx, func() { old.Reset() })
	defer stop()
	old.SetReadDeadline(time.Now().Add(moveWait))
	// The receiver never writes on a log stream; whatever it sends (an
	// old or a misbehaving peer) is discarded, bounded by the deadline.
	_, err := io.Copy(io.Discard, old)
	if err != nil && !isClosed(err) || ctx.Err() != nil {
		old.Reset()
		return false
	}
	old.Close()
	return true
}

// watchDirect wakes a room's senders when a direct connection to their
// peer appears, so that they move their streams onto it at once (see
// sender.shouldMove). The returned function stops it.
func (r *Room) watchDirect() (stop func()) {
	nb := &network.NotifyBundle{ConnectedF: func(_ network.Network, c network.Conn) {
		if relayedConn(c) {
			return
		}
		if seat, ok := r.seatOf(c.RemotePeer()); ok && r.senders[seat] != nil {
			r.senders[seat].signal()
		}
	}}
	nw := r.node.host.Network()
	nw.Notify(nb)
	return func() { nw.StopNotify(nb) }
}
