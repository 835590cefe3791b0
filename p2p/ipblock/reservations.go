package ipblock

import (
	"net/netip"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Reservations caps a relay's reservations per block of addresses (see
// [Of] and [Wide]). It is the relay service's access filter (libp2p's
// relay.WithACL), which the service asks before each reservation: the
// relay's own limits count reservations per IP address only, so that 16
// addresses of one /24 (or of one IPv6 /64) could take all of them.
//
// A peer counts against its block from its last allowed reservation
// until the reservation's TTL has passed or the peer has no connection
// to the relay any more (the relay drops its reservation then).
// Its zero value is not usable: make one with [NewReservations].
type Reservations struct {
	perBlock, perWide int
	ttl               time.Duration
	connected         func(peer.ID) bool
	now               func() time.Time

	mu    sync.Mutex
	peers map[peer.ID]held
}

type held struct {
	block, wide netip.Prefix
	expires     time.Time
}

// NewReservations allows at most perBlock reservations per block (/24,
// /56, or one address that is not public) and perWide per IPv6 /48
// (perWide < 1: 4 × perBlock). ttl is the relay's reservation TTL;
// connected reports whether a peer still has a connection to the relay.
func NewReservations(perBlock, perWide int, ttl time.Duration, connected func(peer.ID) bool) *Reservations {
	if perWide < 1 {
		perWide = 4 * perBlock
	}
	return &Reservations{perBlock: perBlock, perWide: perWide, ttl: ttl, connected: connected,
		now: time.Now, peers: map[peer.ID]held{}}
}

// AllowReserve reports whether p, connected from a, may hold a
// reservation: fewer than the cap of other peers hold one from a's
// block (and /48). A renewal counts p once.
func (r *Reservations) AllowReserve(p peer.ID, a ma.Multiaddr) bool {
	ip := Addr(a)
	if !ip.IsValid() {
		return false // the relay itself refuses these: no IP address
	}
	block := Of(ip)
	wide, hasWide := Wide(ip)
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	inBlock, inWide := 0, 0
	for q, h := range r.peers {
		if q == p {
			continue
		}
		if !now.Before(h.expires) || !r.connected(q) {
			delete(r.peers, q)
			continue
		}
		if h.block == block {
			inBlock++
		}
		if hasWide && h.wide == wide {
			inWide++
		}
	}
	if inBlock >= r.perBlock || hasWide && inWide >= r.perWide {
		return false
	}
	r.peers[p] = held{block: block, wide: wide, expires: now.Add(r.ttl)}
	return true
}

// AllowConnect allows every relayed connection (the relay's own limits
// apply).
func (r *Reservations) AllowConnect(peer.ID, ma.Multiaddr, peer.ID) bool { return true }
