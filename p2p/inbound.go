package p2p

import (
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// slowInbound is how long an inbound connection may take from accept to
// its completed handshake before the node says so (OnSlowInbound).
const slowInbound = 5 * time.Second

// inboundWatch is the node's connection gater: it lets everything
// through, and notes when each inbound connection was accepted and when
// its handshake completed, so that the node can tell of handshakes that
// drag (a joiner on a network losing packets: over TCP at 25% loss, one
// took a minute or failed, and the host saw nothing of it).
type inboundWatch struct {
	mu      sync.Mutex
	pending map[string]acceptedConn // by remote address
	// secured is when a connection with each remote host (its address's
	// first component: the IP), inbound or outbound, last completed its
	// handshake.
	secured map[string]time.Time
	notify  func(remote ma.Multiaddr)
}

type acceptedConn struct {
	remote   ma.Multiaddr
	since    time.Time
	reported bool
}

func newInboundWatch() *inboundWatch {
	return &inboundWatch{pending: map[string]acceptedConn{}, secured: map[string]time.Time{}}
}

// remoteHost is the first component of a remote address (its IP), or
// the whole address.
func remoteHost(a ma.Multiaddr) string {
	if first, _ := ma.SplitFirst(a); first != nil {
		return first.String()
	}
	return a.String()
}

func (w *inboundWatch) InterceptPeerDial(peer.ID) bool               { return true }
func (w *inboundWatch) InterceptAddrDial(peer.ID, ma.Multiaddr) bool { return true }
func (w *inboundWatch) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) {
	return true, 0
}

func (w *inboundWatch) InterceptAccept(c network.ConnMultiaddrs) bool {
	if IsCircuit(c.RemoteMultiaddr()) {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending[c.RemoteMultiaddr().String()] = acceptedConn{remote: c.RemoteMultiaddr(), since: time.Now()}
	return true
}

func (w *inboundWatch) InterceptSecured(dir network.Direction, _ peer.ID, c network.ConnMultiaddrs) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if dir == network.DirInbound {
		delete(w.pending, c.RemoteMultiaddr().String())
	}
	// Either way: two peers dialling each other at once (a host
	// restarted, its players coming back) keep one connection and drop
	// the other's handshake.
	w.secured[remoteHost(c.RemoteMultiaddr())] = time.Now()
	return true
}

// check reports (once each) the inbound connections accepted at least
// slowInbound before now and not secured yet, and forgets those older
// than a minute (libp2p gave up on them long before). A connection
// whose remote host completed another handshake with this node after it
// was accepted is not slow but dropped, and is forgotten: a dialler tries
// its peer's addresses side by side (QUIC and TCP) and drops the others
// once one is up, and two peers dialling each other at once keep one
// connection (a host restarted on loopback said "the network is losing
// packets" of the players that came back). Nothing tells the watch of a
// handshake that failed.
func (w *inboundWatch) check(now time.Time) {
	var slow []ma.Multiaddr
	w.mu.Lock()
	for k, in := range w.pending {
		sec, ok := w.secured[remoteHost(in.remote)]
		switch age := now.Sub(in.since); {
		case age > time.Minute:
			delete(w.pending, k)
		case ok && sec.After(in.since):
			delete(w.pending, k)
		case age >= slowInbound && !in.reported:
			in.reported = true
			w.pending[k] = in
			slow = append(slow, in.remote)
		}
	}
	notify := w.notify
	w.mu.Unlock()
	if notify != nil {
		for _, a := range slow {
			notify(a)
		}
	}
}

// OnSlowInbound sets f to be told of every inbound connection whose
// handshake has not completed 5 s after it was accepted (f must not
// block; nil: no one is told). A host seating players shows it: on a
// network losing packets a joiner's connection can take a minute to
// open, or fail, and nothing else of it reaches the host. Only a node
// made by [NewNode] watches.
func (n *Node) OnSlowInbound(f func(remote ma.Multiaddr)) {
	if n.inbound == nil {
		return
	}
	n.inbound.mu.Lock()
	n.inbound.notify = f
	n.inbound.mu.Unlock()
}
