package phoneseat

import (
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
)

// TestReconnectStatus: a seated phone whose connection to the host comes
// back (the host restarted) says it is reconnecting to its seat, not
// asking for a new one, as its page's status line.
func TestReconnectStatus(t *testing.T) {
	p, _, err := New("mila", Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.OnControl(time.Now(), Control{T: "challenge", Nonce: make([]byte, 32)}); err != nil {
		t.Fatal(err)
	}
	if got := p.View().Status; got != "asking for a seat" {
		t.Errorf("a new phone says %q, want asking for a seat", got)
	}
	// Seated at a table (its roster known, as after startTable).
	p.roster = &ledger.Roster{TableID: [16]byte{1}, Game: mascarade.GameName, Seats: []ledger.SeatInfo{{Name: "alice"}, {Name: "mila"}}}
	if _, err := p.OnControl(time.Now(), Control{T: "challenge", Nonce: make([]byte, 32)}); err != nil {
		t.Fatal(err)
	}
	if got := p.View().Status; got != "reconnecting to your seat" {
		t.Errorf("a seated phone reconnecting says %q, want reconnecting to your seat", got)
	}
}
