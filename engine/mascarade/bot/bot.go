package bot

import (
	"math/rand/v2"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// Bot chooses moves for one seat.
type Bot struct {
	Seat    engine.Seat
	Tracker *Tracker
	// Bluff is the chance to claim a coin-bringing character the bot does
	// not know it holds; Doubt the chance to challenge a claim of a
	// character that may (but need not) be the bot's own card.
	Bluff, Doubt float64

	rng *rand.Rand
}

// New returns a bot for seat in the game s, deterministic given seed.
func New(s *mascarade.State, seat engine.Seat, seed uint64) *Bot {
	return &Bot{
		Seat:    seat,
		Tracker: NewTracker(s, seat),
		Bluff:   0.15,
		Doubt:   0.1,
		rng:     rand.New(rand.NewPCG(seed, uint64(seat)+0x6d617363)),
	}
}

// Observe feeds the bot what its seat learnt from one step.
func (b *Bot) Observe(o Observation) { b.Tracker.Observe(o) }

// Choose returns a legal move for the bot's seat in s and the secret swap
// bit for swap-like moves. It must be called only when s waits for a move
// by the bot's seat; otherwise it returns a zero Move and ok=false.
func (b *Bot) Choose(s *mascarade.State) (m engine.Move, swap bool, ok bool) {
	legal := s.LegalMoves(b.Seat)
	if len(legal) == 0 {
		return engine.Move{}, false, false
	}
	kinds := track.ByKind(legal)
	switch {
	case len(kinds[mascarade.KindPass]) > 0:
		m = b.respond(s, kinds[mascarade.KindPass][0], kinds[mascarade.KindChallenge])
	case len(kinds[mascarade.KindGuess]) > 0:
		m = b.guess(s, kinds[mascarade.KindGuess])
	case len(kinds[mascarade.KindUse]) > 0:
		m, swap = b.use(s, kinds[mascarade.KindUse])
	default:
		m, swap = b.turn(s, kinds)
	}
	return m, swap, true
}

func (b *Bot) chance(p float64) bool { return track.Chance(b.rng, p) }

func (b *Bot) pick(ms []engine.Move) engine.Move { return track.Pick(b.rng, ms) }

// turn picks the turn player's action.
func (b *Bot) turn(s *mascarade.State, kinds [8][]engine.Move) (engine.Move, bool) {
	swaps, peeks, claims := kinds[mascarade.KindSwap], kinds[mascarade.KindPeek], kinds[mascarade.KindClaim]
	if len(claims) == 0 { // preparatory turn, or revealed last turn
		return b.pick(swaps), b.chance(0.5)
	}
	// Claim what we are sure of, if it pays.
	var sure, bluffs []engine.Move
	for _, m := range claims {
		c, slot := engine.Card(m.Args[0]), engine.Slot(m.Args[1])
		if got, ok := b.Tracker.Candidates(slot).Sure(); ok && got == c && b.useful(s, c) {
			sure = append(sure, m)
		}
		if (c == mascarade.King || c == mascarade.Queen) && !b.Tracker.Candidates(slot).Has(c) {
			bluffs = append(bluffs, m)
		}
	}
	if len(sure) > 0 && b.chance(0.9) {
		return b.pick(sure), false
	}
	if len(bluffs) > 0 && b.chance(b.Bluff) {
		return b.pick(bluffs), false
	}
	// Look at an uncertain card, else stir the table.
	var unsure []engine.Move
	for _, m := range peeks {
		if b.Tracker.Candidates(engine.Slot(m.Args[0])).Count() > 1 {
			unsure = append(unsure, m)
		}
	}
	if len(unsure) > 0 && b.chance(0.8) {
		return b.pick(unsure), false
	}
	return b.pick(swaps), b.chance(0.5)
}

// useful reports whether using character c now would help the bot.
func (b *Bot) useful(s *mascarade.State, c engine.Card) bool {
	me := s.Coins(b.Seat)
	switch c {
	case mascarade.Cheat:
		return me >= mascarade.CheatCoins
	case mascarade.Judge:
		return s.Court() > 0
	case mascarade.Widow:
		return me < mascarade.WidowCoins
	case mascarade.Witch:
		for p := range engine.Seat(s.Players()) {
			if s.Coins(p) > me+1 {
				return true
			}
		}
		return false
	}
	return true
}

// respond challenges when the bot believes it holds the claimed character.
func (b *Bot) respond(s *mascarade.State, pass engine.Move, challenges []engine.Move) engine.Move {
	c, _, _ := s.Claim()
	return track.Respond(b.rng, b.Tracker, c, pass, challenges, b.Doubt)
}

// guess names the character the bot most believes it holds.
func (b *Bot) guess(s *mascarade.State, guesses []engine.Move) engine.Move {
	return track.Guess(b.rng, b.Tracker.Candidates(s.SlotsOf(b.Seat)[0]), guesses)
}

// use chooses how to use a power.
func (b *Bot) use(s *mascarade.State, uses []engine.Move) (engine.Move, bool) {
	c, _, _ := s.Claim()
	switch c {
	case mascarade.Witch:
		// Take the richest purse if it beats her own; else keep hers.
		u, _ := s.Resolving()
		var best engine.Move
		most := s.Coins(u.Seat)
		for _, m := range uses {
			if m.Args[0] == mascarade.NoTarget {
				best = m
				continue
			}
			if c := s.Coins(engine.Seat(m.Args[0])); c > most {
				best, most = m, c
			}
		}
		return best, false
	case mascarade.Spy:
		if spy, other, ok := s.SpyDeciding(); ok {
			// The Spy has seen both cards: swap when the bot's own card
			// is worth less than the one it looked at.
			mine := b.Tracker.Candidates(spy.Slot)
			theirs := b.Tracker.Candidates(other)
			return uses[0], worth(theirs) > worth(mine)
		}
		return b.pick(uses), false
	case mascarade.Fool:
		return b.pick(uses), b.chance(0.5)
	}
	return b.pick(uses), false
}

// worth scores a set of possible characters by how well they pay.
func worth(m Mask) int {
	w := 0
	for _, c := range m.Cards() {
		switch c {
		case mascarade.King, mascarade.Widow:
			w += 3
		case mascarade.Queen, mascarade.Bishop, mascarade.Judge:
			w += 2
		default:
			w++
		}
	}
	return w * 10 / max(1, m.Count())
}
