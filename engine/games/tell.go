package games

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// TellingNarrator returns the narrator of a table of game g that tells
// each entry by [TellEntry], speaking to seat you (-1: nobody). It keeps
// no record and no steps: the narration of a game whose view needs none.
func TellingNarrator(g Rules, you engine.Seat) seatview.Narrator {
	return &teller{g: g, you: you}
}

// teller is a [TellingNarrator].
type teller struct {
	g     Rules
	you   engine.Seat
	prev  engine.State // the rules before the next entry
	lines []string
}

func (n *teller) Start(t *table.Table) []string {
	n.prev = t.Rules()
	return nil
}

func (n *teller) Follow(t *table.Table, e *ledger.Entry) (seatview.Told, error) {
	prior := n.prev
	n.prev = t.Rules()
	lines, err := TellEntry(n.g, t, e, prior, n.you)
	if err != nil {
		return seatview.Told{}, err
	}
	n.lines = append(n.lines, lines...)
	return seatview.Told{Lines: lines}, nil
}

func (n *teller) Lines() []string { return n.lines }

func (n *teller) Record() any { return nil }

// tellingViewer is the viewer of a game that brings none of its own
// ([WithBot]): its table is told by [TellingNarrator]; it has no view.
type tellingViewer struct{ g Rules }

func (tellingViewer) View(seatview.Input) (seatview.Table, bool) { return seatview.Table{}, false }

func (v tellingViewer) Auditor(open seatview.Opener) seatview.Auditor {
	return TellingAuditor(v.g, open)
}

func (v tellingViewer) Narrator(you engine.Seat) seatview.Narrator { return TellingNarrator(v.g, you) }

// TellEntry returns the public lines entry e added at a table of game g,
// which t has just applied; prior is the rules state before it. A game whose table binding
// is a [Teller] tells its moves, reveals and joint coins in words
// ("Anna gives the Crown to Boris", "Boris draws the Mirror"), speaking
// to seat you in the second person (-1: nobody); another game's moves
// are its script lines and its reveals a list of cards, and the entry
// that ends its game adds the summary's ending ("... Won by Anna.").
// Published keys are told too. Nothing secret is needed or told.
func TellEntry(g Rules, t *table.Table, e *ledger.Entry, prior engine.State, you engine.Seat) ([]string, error) {
	lines, err := tellEntry(g, t, e, prior, you)
	if err != nil {
		return nil, err
	}
	if _, tells := g.Table().(Teller); tells || prior == nil {
		return lines, nil // a teller tells the end in its own words
	}
	if was, ok := g.Summarize(prior); ok && !was.Over {
		if now, ok := g.Summarize(t.Rules()); ok && now.Over {
			lines = append(lines, now.Ending())
		}
	}
	return lines, nil
}

// tellEntry is [TellEntry] without the ending of a game with no teller.
func tellEntry(g Rules, t *table.Table, e *ledger.Entry, prior engine.State, you engine.Seat) ([]string, error) {
	teller, _ := g.Table().(Teller)
	var lines []string
	b, err := t.Body(e) // decoded once, when the table applied it
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
		if facts, err = seatview.RevealedFacts(t, c); err != nil {
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
