package phone

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
)

// TestInfoNamesAdvertisedGame: a hub that seats phones at another peer's
// table (join --phones, masque phones) names that table's game on the
// name page as its advertisement gave it (the page showed no game
// there), but only a game masque knows (anyone can advertise any
// words); once seating ends the signed roster's game is the one named.
// A host's own game is kept.
func TestInfoNamesAdvertisedGame(t *testing.T) {
	h := NewHub(Config{})
	if got := h.Info(); got.Game != "" || got.Kind != "" {
		t.Errorf("no game known yet: %+v", got)
	}
	h.SetGame("grimm")
	if got := h.Info(); got.Game != "The Grimm Masquerade" || got.Kind != "grimm" {
		t.Errorf("advertised grimm: %+v", got)
	}
	h.SetGame("<b>free coins</b>")
	if got := h.Info(); got.Game != "" || got.Kind != "" {
		t.Errorf("an advertised game masque does not know is named: %+v", got)
	}
	h.SetGame("grimm")
	h.SetSeating(&p2p.Seating{Roster: &ledger.Roster{Game: "mafia", Seats: []ledger.SeatInfo{{Name: "ann"}, {Name: "bob"}}}})
	if got := h.Info(); got.Kind != "mafia" || !got.Started || len(got.Players) != 2 {
		t.Errorf("the signed roster's game: %+v", got)
	}
	host := NewHub(Config{Game: "mascarade"})
	host.SetGame("grimm")
	if got := host.Info(); got.Kind != "mascarade" {
		t.Errorf("a host's own game: %+v", got)
	}
}

// TestInfoUnannouncedTable: a hub seating phones at another peer's table
// known only by its invite (an --unlisted table: no advertisement names
// its game) says so on the name page (Unnamed) with the table's seats
// once its creator told them (it said nothing but the code: no game, no
// seats, no word why).
func TestInfoUnannouncedTable(t *testing.T) {
	h := NewHub(Config{})
	h.SetCreator(peer.AddrInfo{}, [16]byte{1}, 0)
	if got := h.Info(); !got.Unnamed || got.Total != 0 || got.Game != "" || len(got.Players) != 0 {
		t.Errorf("an invite's table, nothing known: %+v", got)
	}
	h.SetTotal(4)
	if got := h.Info(); !got.Unnamed || got.Total != 4 || got.Seats != 0 {
		t.Errorf("an invite's table of 4 seats: %+v", got)
	}
	h.SetGame("grimm")
	if got := h.Info(); got.Unnamed || got.Game != "The Grimm Masquerade" || got.Total != 4 {
		t.Errorf("an advertised table of 4 seats: %+v", got)
	}
	h.SetSeating(&p2p.Seating{Roster: &ledger.Roster{Game: "mafia", Seats: []ledger.SeatInfo{{Name: "ann"}, {Name: "bob"}, {Name: "cy"}, {Name: "dee"}}}})
	if got := h.Info(); got.Unnamed || got.Total != 0 || got.Seats != 4 || len(got.Players) != 4 {
		t.Errorf("once seated, the roster's word: %+v", got)
	}
}
