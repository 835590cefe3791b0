package netsession

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// A seat that restarts (a new Seat replaying the stored log, with the
// secret bits of its swaps from its state directory) knows exactly what
// it knew before: here Anna's left card, revealed in a challenge and then
// really exchanged with Boris's left card (also revealed), is known for
// sure both before and after the restart (the play screen once showed it
// as uncertain after a host restarted).
func TestRestartedSeatRemembers(t *testing.T) {
	src := "game mascarade players=Anna,Boris,Sasha deal=Queen,Witch,Judge,Bishop,Fool,King\n" +
		"Anna swap Anna.left Boris.left no\nBoris swap Boris.right Sasha.left no\nSasha swap Sasha.left Anna.right no\nAnna swap Anna.right Sasha.right no\n" +
		"Boris claim Witch with=Boris.left\nAnna challenge with=Anna.left\n" +
		"Sasha peek Sasha.left\nAnna swap Anna.left Boris.left yes\n"
	tr, anna, keys, sign := scriptedSeat(t, src, 0)

	beliefs := func(bits map[uint64][]bool) masqview.Belief {
		t.Helper()
		d, err := NewSeat(SeatConfig{Seat: 0, Roster: tr.Roster, Sign: sign, Keys: keys, SwapBits: bits})
		if err != nil {
			t.Fatal(err)
		}
		// The script's deal is fixed (dealt before the first entry), which
		// network tables never are: the narration starts on it.
		d.narr.Start(d.tab)
		for _, e := range tr.Entries {
			if err := d.Apply(e); err != nil {
				t.Fatalf("entry %d: %v", e.Pos, err)
			}
		}
		if err := d.Failure(); err != nil {
			t.Fatal(err)
		}
		v := d.View()
		s, ok := masqview.First().Of(v.Rules)
		if !ok {
			t.Fatal("no rules")
		}
		left, err := s.Raw().(interface {
			ParseSlot(string) (engine.Slot, error)
		}).ParseSlot("Anna.left")
		if err != nil {
			t.Fatal(err)
		}
		moves, _ := v.Record.([]masqview.Moved)
		return masqview.Beliefs(s, v.Memory, moves, v.SwapBits, 0)[left]
	}
	bits := anna.SwapBits()
	if len(bits) == 0 {
		t.Fatal("Anna's player kept no swap bits")
	}
	// Boris.left was revealed at the challenge; Anna's real exchange
	// brought it to Anna.left: she knows it.
	if bl := beliefs(bits); !bl.Known() || len(bl.Cards) != 1 {
		t.Errorf("with the stored bits: Anna.left is %v (known %v), want known", bl.Cards, bl.Known())
	}
	// Without them (a lost state file) her own swap could have gone either
	// way: the card is one of two, which is all she can be sure of.
	if bl := beliefs(nil); bl.Known() || len(bl.Cards) != 2 {
		t.Errorf("without the bits: Anna.left is %v (known %v), want one of two", bl.Cards, bl.Known())
	}
}

// scriptedSeat plays a script of the Mascarade family through the real
// stack and returns its transcript, the player of seat, its keys and a
// signing key of its own (the seat authors nothing in these tests).
func scriptedSeat(t *testing.T, src string, seat int) (*ledger.Transcript, *table.Player, table.SeatSecrets, ed25519.PrivateKey) {
	t.Helper()
	game, _, _ := strings.Cut(strings.TrimPrefix(src, "game "), " ")
	g, err := registry.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := localplay.Run(g, []byte(src), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p := lt.Seats[seat].Player
	keys := table.SeatSecrets{Card: p.CardKey(), View: p.ViewingKey()}
	return lt.Transcript(), p, keys, tabletest.DeriveSignKey("restart", lt.Seats[seat].Name)
}
