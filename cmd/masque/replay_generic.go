package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/cmd/masque/internal/narrate"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// replayGeneric narrates a game outside the Mascarade family (The Grimm
// Masquerade): every move, public reveal and joint coin in the game's own
// words (narrate.TellEntry: "Anna gives the Crown to Boris"), and every
// published key; with the joint
// secret (dec.x set), what every private look showed its viewer and,
// after every step that changed them, the hidden cards the game names
// (games.Revealer: every character and hidden hand). say prints a line;
// every entry is checked.
func replayGeneric(tr *ledger.Transcript, t *table.Table, g games.Game, dec *decrypter, res *replayResult, say func(string, ...any)) error {
	name := func(s int) string {
		if s >= 0 && s < len(tr.Roster.Seats) {
			return tr.Roster.Seats[s].Name
		}
		return fmt.Sprintf("seat %d", s)
	}
	cardName := cardNames(g.CardName).of
	rv, _ := g.Table().(games.Revealer)
	teller, tells := g.Table().(games.Teller)
	nights, _ := g.Table().(games.NightRevealer)
	words := cardName
	if tells {
		words = teller.CardWords
	}
	var cur *replayStep
	var shown []string // the hidden cards last printed
	moves := 0
	finish := func() {
		if cur == nil {
			return
		}
		if dec != nil && rv != nil {
			var now []string
			cur.Cards = nil
			for _, h := range rv.HiddenCards(t.Rules()) {
				card := dec.card(t.Slot(h.Slot))
				c := replayCard{Slot: h.Label, Card: cardName(card)}
				cur.Cards = append(cur.Cards, c)
				now = append(now, c.Slot+" "+words(card))
			}
			if !slices.Equal(now, shown) {
				say("  hidden cards now: %s", strings.Join(now, ", "))
				shown = now
			}
		}
		res.Steps = append(res.Steps, *cur)
		cur = nil
	}
	for _, e := range tr.Entries {
		prior := t.Rules()
		if err := t.Apply(e); err != nil {
			var f *table.Fault
			if errors.As(err, &f) && unattributable(f) {
				return &exitError{code: exitDamaged, err: fmt.Errorf("transcript rejected: entry %d claims seat %d, but no roster key signed it (%w, or the entry was forged; nobody is blamed)", e.Pos, f.Seat, errDamaged)}
			}
			return &exitError{code: exitFault, err: fmt.Errorf("transcript rejected: %w", err),
				hint: "masque verify FILE names the fault and the seat to blame"}
		}
		b, err := table.UnmarshalBody(e.Body, t.Slot(0).Width())
		if err != nil {
			return fmt.Errorf("entry %d: %w", e.Pos, err)
		}
		switch b.Kind {
		case table.BodyMove:
			finish()
			moves++
			m := b.Move
			m.Seat = engine.Seat(e.Seat)
			cur = &replayStep{Pos: e.Pos, Turn: moves, Player: name(int(e.Seat)), Move: g.FormatMove(prior, m)}
		case table.BodyKey:
			finish()
		}
		lines, err := narrate.TellEntry(g, t, e, prior, -1)
		if err != nil {
			return err
		}
		for i, l := range lines {
			switch {
			case b.Kind == table.BodyMove && i == 0:
				say("%d. %s", moves, l)
			case tells:
				say("  %s", l)
			default:
				say("%s", l)
			}
		}
		if dec != nil && nights != nil {
			for _, l := range openNight(t, dec, nights) {
				say("  secretly, %s", l)
				if cur != nil {
					cur.Secret = append(cur.Secret, l)
				}
			}
		}
		c := t.Completed()
		if c == nil {
			continue
		}
		switch c.Kind {
		case engine.EffectReveal:
			facts, err := narrate.RevealedFacts(t, c)
			if err != nil {
				return fmt.Errorf("entry %d: %w", e.Pos, err)
			}
			for _, f := range facts {
				if cur != nil {
					cur.Revealed = append(cur.Revealed, replayCard{Slot: fmt.Sprint(f.Slot), Card: cardName(f.Card)})
				}
			}
		case engine.EffectCoin:
			say("  (joint coin %x…)", c.Coin[:4])
		case engine.EffectPeek:
			if dec != nil {
				card := dec.card(c.Cards[0])
				rc := replayCard{Slot: fmt.Sprint(c.Slots[0]), Card: cardName(card)}
				if cur != nil {
					cur.Saw = append(cur.Saw, rc)
				}
				say("  privately, %s saw %s", name(int(c.By)), words(card))
			}
		case engine.EffectShuffle:
			if c.Mixed {
				say("  every living seat shuffled the %d pairs of a mixed tally", len(c.Cards))
				break
			}
			if len(c.Seats) == 1 {
				say("  %s shuffled %d cards alone", name(int(c.Seats[0])), len(c.Slots))
			} else {
				say("  every seat shuffled %d cards", len(c.Slots))
			}
		}
	}
	finish()
	return nil
}

// openNight opens, with the published keys, the secret night actions the
// last entry completed (games.NightRevealer): every seat's ballots of
// each power (one-hot or empty vectors under the joint key) and the
// answer each seat's check re-masked. A ballot entry that opens to
// neither 0 nor 1 is told as such (a verified transcript has none).
func openNight(t *table.Table, dec *decrypter, nr games.NightRevealer) []string {
	open := func(sl engine.Slot) engine.Card { return dec.card(t.Slot(sl)) }
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
						v, ok := dec.bit(ct)
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
					answers[checker] = dec.card(r.Cards[k])
				}
			}
			out = append(out, nr.SayChecks(t.Rules(), answers, open)...)
		}
	}
	return out
}
