package narrate

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// TellEntry returns the public lines entry e added at a table of a game
// outside the Mascarade family (The Grimm Masquerade), which t has just
// applied; prior is the rules state before it. A game whose table binding
// is a [games.Teller] tells its moves, reveals and joint coins in words
// ("Anna gives the Crown to Boris", "Boris draws the Mirror"), speaking
// to seat you in the second person (-1: nobody); another game's moves
// are its script lines and its reveals a list of cards. Published keys
// are told too. Nothing secret is needed or told.
func TellEntry(g games.Rules, t *table.Table, e *ledger.Entry, prior engine.State, you engine.Seat) ([]string, error) {
	teller, _ := g.Table().(games.Teller)
	var lines []string
	b, err := table.UnmarshalBody(e.Body, t.Slot(0).Width())
	if err != nil {
		return nil, fmt.Errorf("entry %d: %w", e.Pos, err)
	}
	switch b.Kind {
	case table.BodyMove:
		m := b.Move
		m.Seat = engine.Seat(e.Seat)
		if teller != nil && prior != nil {
			lines = append(lines, teller.SayMove(prior, m, you))
		} else {
			lines = append(lines, g.FormatMove(prior, m))
		}
	case table.BodyKey:
		who := fmt.Sprintf("seat %d", e.Seat)
		if seats := t.Roster().Seats; int(e.Seat) < len(seats) {
			who = seats[e.Seat].Name
		}
		// A sentence, as the games' own words are.
		verb := " published their card key."
		if engine.Seat(e.Seat) == you {
			who, verb = "You", " published your card key."
		}
		lines = append(lines, who+verb)
	}
	c := t.Completed()
	if c == nil {
		return lines, nil
	}
	var facts []engine.Fact
	switch c.Kind {
	case engine.EffectReveal:
		if facts, err = RevealedFacts(t, c); err != nil {
			return nil, fmt.Errorf("entry %d: %w", e.Pos, err)
		}
	case engine.EffectCoin:
		facts = []engine.Fact{{Slot: -1, Coin: c.Coin}}
	case engine.EffectTally:
		// A night's tallies (Mafia): the teller tells what the rules
		// learnt from them, by the state before and after.
		facts = []engine.Fact{}
	default:
		return lines, nil
	}
	if teller != nil && prior != nil && t.Rules() != nil {
		return append(lines, teller.SayFacts(prior, t.Rules(), facts, you)...), nil
	}
	if c.Kind == engine.EffectReveal {
		var cards []string
		for _, f := range facts {
			cards = append(cards, g.CardName(f.Card))
		}
		lines = append(lines, "  revealed: "+strings.Join(cards, ", "))
	}
	return lines, nil
}
