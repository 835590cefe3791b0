package netsession

import (
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"
)

// WatchAddrs are addresses ('masque watch ADDR') of the other seats still
// in the game that this peer is connected to now, direct TCP first: where
// a player who is out of the game can follow the rest of it when the join
// code will not do (the creator, who announces the table in play, is the
// one leaving).
func (g *Game) WatchAddrs() []string {
	h := g.cfg.Node.Host()
	var tcp, other []string
	for i, s := range g.cfg.Store.Table().Roster.Seats {
		if i == g.Seat() || g.seat.Retired(uint8(i)) {
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
