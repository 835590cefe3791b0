package netsession

import (
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
)

// WatchAddrs are addresses ('masque watch ADDR') of the other seats still
// in the game that this peer is connected to now, direct TCP first: where
// a player who is out of the game can follow the rest of it. A join code
// would not do: a table is listed only while it seats.
func (g *Game) WatchAddrs() []string {
	h := g.cfg.Node.Host()
	var tcp, other []string
	for i, s := range g.cfg.Store.Table().Roster.Seats {
		if i == g.Seat() || g.seat.retired(i) {
			continue
		}
		id := peer.ID(s.PeerID)
		for _, c := range h.Network().ConnsToPeer(id) {
			a := c.RemoteMultiaddr().String() + "/p2p/" + id.String()
			if strings.Contains(a, "/tcp/") && !strings.Contains(a, "/p2p-circuit") {
				tcp = append(tcp, a)
			} else {
				other = append(other, a) // QUIC, or through a relay
			}
		}
	}
	return append(tcp, other...)
}

// retired says whether seat has published its card key (out of the game).
func (d *Seat) retired(seat int) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.Retired(seat)
}
