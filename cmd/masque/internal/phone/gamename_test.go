package phone

import (
	"testing"

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
