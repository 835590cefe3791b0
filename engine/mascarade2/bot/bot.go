package bot

import (
	"math/rand/v2"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// Bot chooses moves for one seat.
type Bot struct {
	Seat    engine.Seat
	Tracker *Tracker
	// Bluff is the chance to claim a coin-bringing mask the bot does not
	// know it holds; Doubt the chance to challenge a claim of a mask that
	// may (but need not) be the bot's own card.
	Bluff, Doubt float64

	rng *rand.Rand
}

// New returns a bot for seat in the game s, deterministic given seed.
func New(s *mascarade2.State, seat engine.Seat, seed uint64) *Bot {
	return &Bot{
		Seat:    seat,
		Tracker: NewTracker(s, seat),
		Bluff:   0.15,
		Doubt:   0.1,
		rng:     rand.New(rand.NewPCG(seed, uint64(seat)+0x6d617332)),
	}
}

// Observe feeds the bot what its seat learnt from one step.
func (b *Bot) Observe(o Observation) { b.Tracker.Observe(o) }

// Choose returns a legal move for the bot's seat in s and the secret swap
// bit for swap-like moves. It must be called only when s waits for a move
// by the bot's seat; otherwise it returns a zero Move and ok=false.
func (b *Bot) Choose(s *mascarade2.State) (m engine.Move, swap bool, ok bool) {
	legal := s.LegalMoves(b.Seat)
	if len(legal) == 0 {
		return engine.Move{}, false, false
	}
	c, contenders, _ := s.Claim()
	claimed := engine.Slot(-1)
	if len(contenders) > 0 {
		claimed = contenders[0].Slot
	}
	m, swap = track.Choose(b.rng, b.Tracker, legal, c, claimed, b.Tracker.Candidates(s.SlotOf(b.Seat)), b.Doubt, edition{b, s})
	return m, swap, true
}

// edition gives [track.Choose] this game's taste for turns and powers.
type edition struct {
	b *Bot
	s *mascarade2.State
}

func (e edition) Turn(kinds [8][]engine.Move) (engine.Move, bool) { return e.b.turn(e.s, kinds) }

func (e edition) Use(uses []engine.Move) (engine.Move, bool) { return e.b.use(e.s, uses) }

func (b *Bot) chance(p float64) bool { return track.Chance(b.rng, p) }

func (b *Bot) pick(ms []engine.Move) engine.Move { return track.Pick(b.rng, ms) }

// turn picks the turn player's action.
func (b *Bot) turn(s *mascarade2.State, kinds [8][]engine.Move) (engine.Move, bool) {
	swaps, peeks, claims := kinds[mascarade2.KindSwap], kinds[mascarade2.KindPeek], kinds[mascarade2.KindClaim]
	if len(peeks) == 0 { // preparatory turn
		return b.pick(swaps), b.chance(0.5)
	}
	// Claim what we are sure of, if it pays, or bluff.
	useful := func(c engine.Card) bool { return b.useful(s, c) }
	if m, ok := track.Claim(b.rng, b.Tracker, claims, useful, []engine.Card{mascarade2.King, mascarade2.Empress}, b.Bluff); ok {
		return m, false
	}
	// Look at an uncertain card, else stir the table.
	if own := s.SlotOf(b.Seat); b.Tracker.Candidates(own).Count() > 1 && b.chance(0.8) {
		return peeks[0], false
	}
	return b.pick(swaps), b.chance(0.5)
}

// useful reports whether using mask c now would help the bot.
func (b *Bot) useful(s *mascarade2.State, c engine.Card) bool {
	me := s.Coins(b.Seat)
	richer := false
	for p := range engine.Seat(s.Players()) {
		richer = richer || s.Coins(p) > me+1
	}
	switch c {
	case mascarade2.Cheater:
		return me >= mascarade2.CheaterCoins
	case mascarade2.Judge:
		return s.Court() > 0
	case mascarade2.Widow:
		return me < mascarade2.WidowCoins
	case mascarade2.Sorceress, mascarade2.Beggar:
		return richer
	}
	return true
}

// use chooses how to use a power.
func (b *Bot) use(s *mascarade2.State, uses []engine.Move) (engine.Move, bool) {
	c, _, _ := s.Claim()
	switch c {
	case mascarade2.Sorceress:
		// Take the richest purse if it beats her own; else keep hers.
		return track.RichestPurse(uses, mascarade2.NoTarget, s.Coins(b.Seat), s.Coins), false
	case mascarade2.Spy:
		if _, other, ok := s.SpyDeciding(); ok {
			// The Spy has seen both cards: swap when the bot's own card
			// is worth less than the one it looked at.
			mine := b.Tracker.Candidates(s.SlotOf(b.Seat))
			theirs := b.Tracker.Candidates(other)
			return uses[0], worth(theirs) > worth(mine)
		}
		return b.pick(uses), false
	case mascarade2.Fool:
		return b.pick(uses), b.chance(0.5)
	}
	return b.pick(uses), false
}

// worth scores a set of possible masks by how well they pay.
func worth(m Mask) int {
	w := 0
	for _, c := range m.Cards() {
		switch c {
		case mascarade2.Empress, mascarade2.Widow, mascarade2.Patron:
			w += 3
		case mascarade2.King, mascarade2.Princess, mascarade2.Swindler, mascarade2.Judge:
			w += 2
		default:
			w++
		}
	}
	return w * 10 / max(1, m.Count())
}
