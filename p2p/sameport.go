package p2p

import (
	"errors"
	"net"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

// samePort gives a TCP and a QUIC listen address on one IP address, both
// on port 0 (the system's choice), one port number free for both, so
// that a joiner given the TCP address also knows the QUIC one
// ([QUICSiblings]): at 25% packet loss a QUIC dial took 1.4–5.4 s, a
// TCP one 8–104 s or failed. Other addresses, and pairs for which no
// common free port is found, are kept as they are.
func samePort(addrs []string) []string {
	out := slices.Clone(addrs)
	for i, a := range out {
		ip, ok := ipPart(a, "/tcp/0")
		if !ok {
			continue
		}
		j := slices.Index(out, ip+"/udp/0/quic-v1")
		if j < 0 {
			continue
		}
		port, ok := freeOnBoth(ip)
		if !ok {
			continue
		}
		out[i] = ip + "/tcp/" + strconv.Itoa(port)
		out[j] = ip + "/udp/" + strconv.Itoa(port) + "/quic-v1"
	}
	return out
}

// ipPart returns the /ip4/... or /ip6/... part of a, if a is that
// followed by suffix.
func ipPart(a, suffix string) (string, bool) {
	if len(a) <= len(suffix) || a[len(a)-len(suffix):] != suffix {
		return "", false
	}
	ip := a[:len(a)-len(suffix)]
	m, err := ma.NewMultiaddr(ip)
	if err != nil || len(m) != 1 {
		return "", false
	}
	if c := m[0].Protocol().Code; c != ma.P_IP4 && c != ma.P_IP6 {
		return "", false
	}
	return ip, true
}

// freeOnBoth finds a port number free for both TCP and UDP on the IP
// address of the multiaddr prefix ip (/ip4/X or /ip6/X).
func freeOnBoth(ip string) (int, bool) {
	m, err := ma.NewMultiaddr(ip)
	if err != nil {
		return 0, false
	}
	host := m[0].Value()
	for range 20 {
		tl, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return 0, false
		}
		port := tl.Addr().(*net.TCPAddr).Port
		ul, err := net.ListenPacket("udp", net.JoinHostPort(host, strconv.Itoa(port)))
		tl.Close()
		if err == nil {
			ul.Close()
			return port, true
		}
	}
	return 0, false
}

// QUICSiblings adds to addrs, after them, the QUIC address on the same
// IP address and port number of every TCP address among them (keeping
// any /p2p/ suffix), unless addrs already hold a QUIC address for that
// IP address. A node started with masque's default listen addresses
// listens for QUIC on its TCP port number, so that an invite giving its
// TCP address reaches it over QUIC too, which copes far better with lost
// packets; libp2p dials QUIC first. A guess that finds nothing there
// costs nothing: the peer id is checked by the handshake, and TCP is
// dialled as well.
func QUICSiblings(addrs []ma.Multiaddr) []ma.Multiaddr {
	out := slices.Clone(addrs)
	for _, a := range addrs {
		if IsCircuit(a) {
			continue
		}
		first, rest := ma.SplitFirst(a)
		if first == nil || first.Protocol().Code != ma.P_IP4 && first.Protocol().Code != ma.P_IP6 {
			continue
		}
		tcp, tail := ma.SplitFirst(rest)
		if tcp == nil || tcp.Protocol().Code != ma.P_TCP {
			continue
		}
		if len(tail) > 0 && tail[0].Protocol().Code != ma.P_P2P {
			continue // /tcp/…/ws and the like
		}
		if slices.ContainsFunc(addrs, func(b ma.Multiaddr) bool {
			f, _ := ma.SplitFirst(b)
			return f != nil && f.Equal(first) && hasQUICv1(b)
		}) {
			continue
		}
		q, err := ma.NewMultiaddr(first.String() + "/udp/" + tcp.Value() + "/quic-v1")
		if err != nil {
			continue
		}
		if len(tail) > 0 {
			q = q.Encapsulate(tail)
		}
		out = append(out, q)
	}
	return out
}

func hasQUICv1(a ma.Multiaddr) bool {
	_, err := a.ValueForProtocol(ma.P_QUIC_V1)
	return err == nil
}

// refusedFor is how long a peer whose TCP port refused a dial gets no
// QUIC guess (QUICSiblings) in joins.
const refusedFor = 30 * time.Second

// refusals are the peers whose TCP port refused a dial, and when.
type refusals struct {
	mu sync.Mutex
	at map[peer.ID]time.Time
}

func (r *refusals) note(p peer.ID, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.at == nil {
		r.at = map[peer.ID]time.Time{}
	}
	for q, t := range r.at {
		if now.Sub(t) > refusedFor {
			delete(r.at, q)
		}
	}
	r.at[p] = now
}

func (r *refusals) recent(p peer.ID, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.at[p]
	return ok && now.Sub(t) <= refusedFor
}

// tcpRefused reports whether err, a failed dial, holds a TCP address
// that refused the connection (nothing listens there).
func tcpRefused(err error) bool {
	var de *swarm.DialError
	if !errors.As(err, &de) {
		return false
	}
	for _, te := range de.DialErrors {
		if _, terr := te.Address.ValueForProtocol(ma.P_TCP); terr == nil && errors.Is(te.Cause, syscall.ECONNREFUSED) {
			return true
		}
	}
	return false
}
