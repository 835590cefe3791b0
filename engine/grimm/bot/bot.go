// Package bot plays plausible moves of The Grimm Masquerade for one seat,
// from what that seat knows: the public state and the cards it has seen
// (its character, its hidden hand, looks at the character deck).
//
// The bot keeps its own talismans and gives its own curses away, gives an
// item to the opponent most likely to be unmasked by it (one who already
// holds one and may still be that item's curse-bearer), plays Mask off!
// when an opponent has a single possible character left, and otherwise
// acts now and then. It never needs to lie: the rules list only the
// statements it can prove.
package bot

import (
	"math/rand/v2"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// Bot chooses moves for one seat.
type Bot struct {
	Seat engine.Seat
	// Act is the chance to take an action it can pay for when no Mask off!
	// is certain.
	Act float64
	rng *rand.Rand
}

// New returns a bot for seat, deterministic given seed.
func New(seat engine.Seat, seed uint64) *Bot {
	return &Bot{Seat: seat, Act: 0.35, rng: rand.New(rand.NewPCG(seed, uint64(seat)+0x6772696d))}
}

// Choose returns a legal move for the bot's seat in s, given what the
// seat knows, or ok=false when s does not wait for a move by it.
func (b *Bot) Choose(s *grimm.State, known map[engine.Slot]engine.Card) (engine.Move, bool) {
	legal := s.LegalMoves(b.Seat, known)
	if len(legal) == 0 {
		return engine.Move{}, false
	}
	v := view{s: s, me: b.Seat, known: known}
	best, bestScore := legal[0], -1e9
	for _, m := range legal {
		sc := v.score(m) + b.rng.Float64()*0.5 // break ties at random
		if m.Kind == grimm.KindAct && b.rng.Float64() > b.Act && !v.certainGuess(m) {
			sc -= 5
		}
		if sc > bestScore {
			best, bestScore = m, sc
		}
	}
	return best, true
}

// view is the bot's reading of the table.
type view struct {
	s     *grimm.State
	me    engine.Seat
	known map[engine.Slot]engine.Card
}

// mine returns the bot's masked characters.
func (v view) mine() []engine.Card {
	var out []engine.Card
	for _, sl := range v.s.MaskedSlots(v.me) {
		if c, ok := v.known[sl]; ok {
			out = append(out, c)
		}
	}
	return out
}

// candidates returns the characters seat p may still be: not broken, no
// token of p on them, not one of the bot's own.
func (v view) candidates(p engine.Seat) []engine.Card {
	var out []engine.Card
	mine := v.mine()
	for _, c := range grimm.Characters() {
		if v.s.Broken(c) || v.s.HasToken(p, c) || contains(mine, c) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func contains(v []engine.Card, c engine.Card) bool {
	for _, x := range v {
		if x == c {
			return true
		}
	}
	return false
}

// value says how much the bot wants to hold one more item it.
func (v view) value(it engine.Card) float64 {
	ch := v.s.Charms()
	have := v.s.Count(v.me, it)
	for _, c := range v.mine() {
		if ch.Boon[c] == it {
			return 3 + float64(have)
		}
		if ch.Bane[c] == it {
			if have >= 1 {
				return -10
			}
			return -2
		}
	}
	if have == 1 || have == 2 {
		return -0.5 // a forced hint gives information away
	}
	return 0.2
}

// hurt says how much giving item it to seat p may hurt p.
func (v view) hurt(p engine.Seat, it engine.Card) float64 {
	ch := v.s.Charms()
	have := v.s.Count(p, it)
	cand := v.candidates(p)
	if len(cand) == 0 {
		return 0
	}
	score := 0.0
	if have >= 1 && contains(cand, ch.BaneOwner(it)) {
		score += 4 / float64(len(cand))
	}
	if have == 2 && contains(cand, ch.BoonOwner(it)) {
		score -= 6 / float64(len(cand))
	}
	return score
}

// drawn returns the item waiting for a decision.
func (v view) drawn() engine.Card {
	d := v.s.Drawn()
	if len(d) == 0 {
		return 0
	}
	return d[0].Item
}

func (v view) certainGuess(m engine.Move) bool {
	if m.Kind != grimm.KindAct || grimm.Action(m.Args[0]) != grimm.MaskOff {
		return false
	}
	cand := v.candidates(engine.Seat(m.Args[3]))
	return len(cand) == 1 && cand[0] == engine.Card(m.Args[4])
}

func (v view) score(m engine.Move) float64 {
	switch m.Kind {
	case grimm.KindPick:
		return v.value(engine.Card(m.Args[0]))
	case grimm.KindKeep:
		return v.value(v.drawn())
	case grimm.KindGive:
		t := engine.Seat(m.Args[0])
		switch {
		case len(m.Args) == 2 && len(v.s.Drawn()) == 2: // Toast
			d := v.s.Drawn()
			return v.hurt(t, d[0].Item) + v.hurt(engine.Seat(m.Args[1]), d[1].Item)
		case len(m.Args) == 2: // from the hidden hand
			return v.hurt(t, v.known[engine.Slot(m.Args[1])])
		}
		return v.hurt(t, v.drawn()) - v.value(v.drawn())*0.3
	case grimm.KindWin:
		return 100
	case grimm.KindEnd:
		return 0
	case grimm.KindAct:
		a := grimm.Action(m.Args[0])
		it := engine.Card(m.Args[1])
		cost := 0.5
		if v.value(it) > 2 {
			cost = 4 // spending one's talismans
		}
		if m.Args[2] == 1 {
			cost += 0.5
		}
		switch a {
		case grimm.MaskOff:
			cand := v.candidates(engine.Seat(m.Args[3]))
			if v.certainGuess(m) {
				return 10 - cost
			}
			if contains(cand, engine.Card(m.Args[4])) {
				return 2/float64(len(cand)) - cost
			}
			return -3
		case grimm.Dance, grimm.Exchange:
			return 0.8 - cost + v.value(engine.Card(m.Args[4]))*-0.3
		}
		return 1 - cost
	}
	return 0
}
