package games

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// TellingAuditor returns the auditor of a transcript of game g that tells
// every move, public reveal and joint coin in the game's own words
// ([TellEntry]: "Anna gives the Crown to Boris"), and every published
// key; with the published keys (open not nil), what every private look
// showed its viewer, the secret night actions ([NightRevealer]) and,
// after every step that changed them, the hidden cards the game names
// ([Revealer]: every character and hidden hand).
func TellingAuditor(g Rules, open seatview.Opener) seatview.Auditor {
	a := &tellingAuditor{g: g, open: open}
	a.rv, _ = g.Table().(Revealer)
	a.nights, _ = g.Table().(NightRevealer)
	a.teller, a.tells = g.Table().(Teller)
	return a
}

type tellingAuditor struct {
	g      Rules
	open   seatview.Opener
	rv     Revealer
	nights NightRevealer
	teller Teller
	tells  bool

	prev  engine.State // the rules before the next entry
	cur   *seatview.AuditStep
	shown []string // the hidden cards last told
	moves int
	steps []seatview.AuditStep
}

// cardName names a card, "?" for one that opened to no card.
func (a *tellingAuditor) cardName(c engine.Card) string {
	if c < 0 {
		return "?"
	}
	return a.g.CardName(c)
}

// words names a card for people.
func (a *tellingAuditor) words(c engine.Card) string {
	if a.tells {
		return a.teller.CardWords(c)
	}
	return a.cardName(c)
}

func seatName(t *table.Table, s int) string {
	if seats := t.Roster().Seats; s >= 0 && s < len(seats) {
		return seats[s].Name
	}
	return fmt.Sprintf("seat %d", s)
}

func (a *tellingAuditor) Start(t *table.Table) ([]string, error) {
	a.prev = t.Rules()
	return nil, nil
}

func (a *tellingAuditor) Deal() []seatview.AuditCard { return nil }

func (a *tellingAuditor) Steps() []seatview.AuditStep { return a.steps }

// finish ends the step in progress.
func (a *tellingAuditor) finish(t *table.Table) []string {
	if a.cur == nil {
		return nil
	}
	var lines []string
	if a.open != nil && a.rv != nil {
		var now []string
		a.cur.Cards = nil
		for _, h := range a.rv.HiddenCards(t.Rules()) {
			card := a.open.Card(t.Slot(h.Slot))
			c := seatview.AuditCard{Slot: h.Label, Card: a.cardName(card)}
			a.cur.Cards = append(a.cur.Cards, c)
			now = append(now, c.Slot+" "+a.words(card))
		}
		if !slices.Equal(now, a.shown) {
			lines = append(lines, "  hidden cards now: "+strings.Join(now, ", "))
			a.shown = now
		}
	}
	a.steps = append(a.steps, *a.cur)
	a.cur = nil
	return lines
}

func (a *tellingAuditor) Finish(t *table.Table) []string { return a.finish(t) }

func (a *tellingAuditor) Entry(t *table.Table, e *ledger.Entry) ([]string, error) {
	prior := a.prev
	a.prev = t.Rules()
	b, err := t.Body(e) // decoded once, when the table applied it
	if err != nil {
		return nil, fmt.Errorf("entry %d: %w", e.Pos, err)
	}
	var out []string
	switch b.Kind {
	case table.BodyMove:
		out = append(out, a.finish(t)...)
		a.moves++
		m := b.Move
		m.Seat = engine.Seat(e.Seat)
		a.cur = &seatview.AuditStep{Pos: e.Pos, Turn: a.moves, Player: seatName(t, int(e.Seat)), Move: a.g.FormatMove(prior, m)}
	case table.BodyKey:
		out = append(out, a.finish(t)...)
	}
	lines, err := TellEntry(a.g, t, e, prior, -1)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		switch {
		case b.Kind == table.BodyMove && i == 0:
			out = append(out, fmt.Sprintf("%d. %s", a.moves, l))
		case a.tells:
			out = append(out, "  "+l)
		default:
			out = append(out, l)
		}
	}
	if a.open != nil && a.nights != nil {
		for _, l := range openNight(t, a.open, a.nights) {
			out = append(out, "  secretly, "+l)
			if a.cur != nil {
				a.cur.Secret = append(a.cur.Secret, l)
			}
		}
	}
	c := t.Completed()
	if c == nil {
		return out, nil
	}
	switch c.Kind {
	case engine.EffectReveal:
		facts, err := seatview.RevealedFacts(t, c)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", e.Pos, err)
		}
		for _, f := range facts {
			if a.cur != nil {
				a.cur.Revealed = append(a.cur.Revealed, seatview.AuditCard{Slot: fmt.Sprint(f.Slot), Card: a.cardName(f.Card)})
			}
		}
	case engine.EffectCoin:
		out = append(out, fmt.Sprintf("  (joint coin %x…)", c.Coin[:4]))
	case engine.EffectPeek:
		if a.open != nil {
			card := a.open.Card(c.Cards[0])
			rc := seatview.AuditCard{Slot: fmt.Sprint(c.Slots[0]), Card: a.cardName(card)}
			if a.cur != nil {
				a.cur.Saw = append(a.cur.Saw, rc)
			}
			out = append(out, fmt.Sprintf("  privately, %s saw %s", seatName(t, int(c.By)), a.words(card)))
		}
	case engine.EffectShuffle:
		if c.Mixed && c.Rows {
			out = append(out, fmt.Sprintf("  every living seat shuffled the %d rows of the kill table", len(c.Cards)))
		} else if c.Mixed && c.Votes && c.Plurality > 0 {
			out = append(out, fmt.Sprintf("  every living seat shuffled the %d (code sum, count) cards of the kill ballots", len(c.Cards)))
		} else if c.Mixed && c.Votes {
			out = append(out, fmt.Sprintf("  every living seat shuffled the %d kill ballots' code sums", len(c.Cards)))
		} else if len(c.Seats) == 1 {
			out = append(out, fmt.Sprintf("  %s shuffled %d cards alone", seatName(t, int(c.Seats[0])), len(c.Slots)))
		} else {
			out = append(out, fmt.Sprintf("  every seat shuffled %d cards", len(c.Slots)))
		}
	}
	return out, nil
}

// openNight opens, with the published keys, the secret night actions the
// last entry completed ([NightRevealer]): every seat's ballots of each
// power (one-hot or empty vectors under the joint key) and the answer
// each seat's check re-masked. A ballot entry that opens to neither 0 nor
// 1 is told as such (a verified transcript has none).
func openNight(t *table.Table, dec seatview.Opener, nr NightRevealer) []string {
	open := func(sl engine.Slot) engine.Card { return dec.Card(t.Slot(sl)) }
	var out []string
	for _, r := range t.CompletedAll() {
		switch r.Kind {
		case engine.EffectBallot:
			for j, part := range r.Parts {
				if part.Kind != engine.EffectBallot {
					continue
				}
				votes := map[engine.Seat]engine.Seat{}
				for i, seat := range r.Seats {
					b := r.Posts[i][j].Ballot
					if b == nil {
						continue
					}
					for k, ct := range b.Entries {
						v, ok := dec.Bit(ct)
						if !ok {
							out = append(out, fmt.Sprintf("seat %d's ballot %d does not open to 0 or 1", seat, j))
						}
						if v == 1 && k < len(part.Targets) {
							votes[seat] = part.Targets[k]
						}
					}
				}
				out = append(out, nr.SayBallots(t.Rules(), part.Power, votes, open)...)
			}
		case engine.EffectCheck:
			answers := map[engine.Seat]engine.Card{}
			for k, checker := range r.Checkers {
				if k < len(r.Cards) {
					answers[checker] = dec.Card(r.Cards[k])
				}
			}
			out = append(out, nr.SayChecks(t.Rules(), answers, open)...)
		}
	}
	return out
}
