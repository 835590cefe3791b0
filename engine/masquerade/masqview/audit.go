package masqview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Auditor implements [seatview.Viewer]: a [Follower]'s public lines, and
// for every step its move, its hidden swaps, what it revealed and the
// purses after it; with the published keys (open not nil), whether each
// swap was real, what every look and Princess showed, and who held which
// card after every turn.
func (v Viewer) Auditor(open seatview.Opener) seatview.Auditor {
	return &auditor{v: v, f: v.Follower(), open: open}
}

type auditor struct {
	v     Viewer
	f     *Follower
	open  seatview.Opener
	cards []engine.Card // opened: the card in every slot now
	cur   *seatview.AuditStep
	deal  []seatview.AuditCard
	steps []seatview.AuditStep
}

// cardName names a card, "?" for one that opened to no card.
func cardName(s Rules, c engine.Card) string {
	if c < 0 {
		return "?"
	}
	return s.CardName(c)
}

func (a *auditor) Deal() []seatview.AuditCard  { return a.deal }
func (a *auditor) Steps() []seatview.AuditStep { return a.steps }

func (a *auditor) Finish(*table.Table) []string { return nil }

// dealt records the deal of s.
func (a *auditor) dealt(s Rules) {
	for i, c := range s.Deal() {
		a.deal = append(a.deal, seatview.AuditCard{Slot: s.SlotName(engine.Slot(i)), Card: cardName(s, c)})
	}
	if a.open != nil {
		a.cards = s.Deal()
	}
}

// slotCards are the cards in every slot now.
func (a *auditor) slotCards(s Rules) []seatview.AuditCard {
	var out []seatview.AuditCard
	for i, c := range a.cards {
		out = append(out, seatview.AuditCard{Slot: s.SlotName(engine.Slot(i)), Card: cardName(s, c)})
	}
	return out
}

func (a *auditor) Start(t *table.Table) ([]string, error) {
	// A fixed deal (scripted tables) is dealt before the first entry.
	lines := a.f.Start(t)
	if s, ok := a.v.Of(t.Rules()); ok {
		a.dealt(s)
	}
	return lines, nil
}

func (a *auditor) Entry(t *table.Table, e *ledger.Entry) ([]string, error) {
	before := a.cards // the cards before the entry, opened
	if before != nil {
		before = slices.Clone(before)
	}
	ev, err := a.f.Follow(t, e)
	if err != nil {
		return nil, fmt.Errorf("entry %d: %w", e.Pos, err)
	}
	s, _ := a.v.Of(t.Rules())
	lines := ev.Lines
	if ev.Dealt {
		a.dealt(s)
	}
	var out []string // lines told before the entry's own
	switch {
	case ev.Kind == table.BodyMove && ev.Step != nil:
		st := ev.Step
		a.cur = &seatview.AuditStep{Pos: st.Pos, Turn: st.Turn, Player: st.Before.Name(st.Move.Seat), Move: st.Text}
		var outcomes []string
		for _, sw := range st.Swaps {
			rs := seatview.AuditSwap{By: st.Before.Name(sw.By), Slots: [2]string{st.Before.SlotName(sw.Slots[0]), st.Before.SlotName(sw.Slots[1])}}
			if a.open != nil {
				x, y := sw.Slots[0], sw.Slots[1]
				p := ev.Body.Swaps[sw.Index]
				o0, o1 := a.open.Card(p.Out0), a.open.Card(p.Out1)
				in0, in1 := before[x], before[y]
				switch {
				case in0 == in1:
					rs.Outcome = "same-card"
					outcomes = append(outcomes, fmt.Sprintf("both held the %s: nothing could move", cardName(s, in0)))
				case o0 == in1 && o1 == in0:
					rs.Outcome = "real"
					outcomes = append(outcomes, fmt.Sprintf("real swap: %s now holds the %s, %s the %s",
						rs.Slots[0], cardName(s, o0), rs.Slots[1], cardName(s, o1)))
				case o0 == in0 && o1 == in1:
					rs.Outcome = "pretended"
					outcomes = append(outcomes, fmt.Sprintf("pretended swap: nothing moved (%s keeps the %s, %s the %s)",
						rs.Slots[0], cardName(s, o0), rs.Slots[1], cardName(s, o1)))
				default:
					return nil, fmt.Errorf("entry %d: the swap's cards do not decrypt to its inputs: are the published keys right?", e.Pos)
				}
				before[x], before[y] = o0, o1
			}
			a.cur.Swaps = append(a.cur.Swaps, rs)
		}
		if a.open != nil && len(lines) > 0 {
			line := fmt.Sprintf("turn %d  %s", st.Turn, st.Words)
			if len(outcomes) > 0 {
				line += "  → " + strings.Join(outcomes, "; ")
			}
			lines[0] = line
		}
	case ev.Kind == table.BodyShares && ev.Step != nil && a.cur != nil:
		if c := t.Completed(); c != nil {
			switch c.Kind {
			case engine.EffectReveal:
				for _, fc := range ev.Step.Facts[len(a.cur.Revealed):] {
					a.cur.Revealed = append(a.cur.Revealed, seatview.AuditCard{Slot: s.SlotName(fc.Slot), Card: cardName(s, fc.Card)})
				}
			case engine.EffectPeek:
				if a.open != nil {
					rc := seatview.AuditCard{Slot: s.SlotName(c.Slots[0]), Card: cardName(s, a.open.Card(c.Cards[0]))}
					a.cur.Saw = append(a.cur.Saw, rc)
					out = append(out, fmt.Sprintf("  %s saw: %s is the %s", s.Name(c.By), rc.Slot, rc.Card))
				}
			case engine.EffectShowOthers:
				if a.open != nil {
					var shown []string
					for k, sl := range c.Slots {
						rc := seatview.AuditCard{Slot: s.SlotName(sl), Card: cardName(s, a.open.Card(c.Cards[k]))}
						a.cur.Shown = append(a.cur.Shown, rc)
						shown = append(shown, fmt.Sprintf("%s is the %s", rc.Slot, rc.Card))
					}
					out = append(out, fmt.Sprintf("  everyone but %s saw: %s", s.Name(c.Except), strings.Join(shown, ", ")))
				}
			}
		}
	}
	if a.open != nil && a.cards != nil {
		for i := range a.cards {
			a.cards[i] = a.open.Card(t.Slot(engine.Slot(i)))
		}
	}
	out = append(out, lines...)
	if ev.Ended && a.cur != nil {
		a.cur.Coins = map[string]int{}
		for p := range engine.Seat(s.Players()) {
			a.cur.Coins[s.Name(p)] = s.Coins(p)
		}
		a.cur.Court = s.Court()
		if a.open != nil {
			a.cur.Cards = a.slotCards(s)
			// Who holds what, once per turn (and at the end).
			if s.Turn() != a.cur.Turn || s.Over() {
				var held []string
				for _, c := range a.cur.Cards {
					held = append(held, c.Slot+" "+c.Card)
				}
				out = append(out, fmt.Sprintf("  cards after turn %d: %s", a.cur.Turn, strings.Join(held, ", ")))
			}
		}
		a.steps = append(a.steps, *a.cur)
		a.cur = nil
	}
	return out, nil
}
