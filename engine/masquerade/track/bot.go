package track

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
)

// Taste is an edition's table for the family's [Bot]: which cards it
// claims, bluffs, values, and how it uses the powers that take a choice.
// A card an edition lacks is 0. A Taste is never written to once a bot
// uses it.
type Taste struct {
	// Game names the edition in errors.
	Game string
	// Stream is the bot's random stream for seat 0; seat s uses
	// Stream+s (the seed picks the sequence).
	Stream uint64
	// Bluffs are the coin-bringing cards the bot claims without knowing
	// it holds them.
	Bluffs []engine.Card
	// Cheat, with CheatCoins, wins; the Judge takes the court; the Widow
	// tops up to WidowCoins: worth claiming only when that pays.
	Cheat      engine.Card
	CheatCoins int
	Judge      engine.Card
	Widow      engine.Card
	WidowCoins int
	// Takers pay only when another player has 2+ coins more (the Witch;
	// the Sorceress, the Beggar).
	Takers []engine.Card
	// Purses exchanges purses (the Witch, the Sorceress): the bot takes
	// the richest purse if it beats its own.
	Purses    engine.Card
	Spy, Fool engine.Card
	// Worth scores cards by how well they pay (default 1).
	Worth map[engine.Card]int
	// DrawAlone: the bot draws which card to peek at even when only one
	// is unsure (the 1st edition's bot always did; its games stay the
	// same).
	DrawAlone bool
}

// Rules is what a [Bot] reads of a Mascarade-family rules state S.
type Rules interface {
	engine.State
	LegalMoves(p engine.Seat) []engine.Move
	Claim() (card engine.Card, contenders []masquerade.Contender, ok bool)
	SpyDeciding() (spy masquerade.Contender, other engine.Slot, ok bool)
	SlotsOf(p engine.Seat) []engine.Slot
	Deal() []engine.Card
	Players() int
	Coins(p engine.Seat) int
	Court() int
	HasSecretSwap(m engine.Move) bool
}

// Bot plays one seat of a Mascarade-family game plausibly: it claims what
// it believes, sometimes bluffs, and challenges when it has reason to.
// It sees only what its seat may see ([Tracker]); it is deterministic
// given its seed and holds no global state.
type Bot[S Rules] struct {
	Seat    engine.Seat
	Tracker *Tracker
	// Bluff is the chance to claim a coin-bringing card the bot does not
	// know it holds; Doubt the chance to challenge a claim of a card that
	// may (but need not) be the bot's own card.
	Bluff, Doubt float64

	rng   *rand.Rand
	taste *Taste
}

// NewBot returns a bot of taste for seat in the game s, deterministic
// given seed.
func NewBot[S Rules](s S, seat engine.Seat, seed uint64, taste *Taste) *Bot[S] {
	return &Bot[S]{
		Seat:    seat,
		Tracker: NewTracker(s.Deal(), seat),
		Bluff:   0.15,
		Doubt:   0.1,
		rng:     rand.New(rand.NewPCG(seed, uint64(seat)+taste.Stream)),
		taste:   taste,
	}
}

// NewPlayer is the game contract's bot ([games.BotMaker]) of an edition
// whose states are S: a [Bot] of taste, its secret swap bits given with
// its moves.
func NewPlayer[S interface {
	Rules
	comparable
}](s engine.State, seat engine.Seat, seed uint64, taste *Taste) (games.Bot, error) {
	st, ok := s.(S)
	var none S
	if !ok || st == none {
		return nil, fmt.Errorf("%s bot: the rules state is %T, not the game's", taste.Game, s)
	}
	return Player(NewBot(st, seat, seed, taste), S.HasSecretSwap), nil
}

// Observe feeds the bot what its seat learnt from one step.
func (b *Bot[S]) Observe(o Observation) { b.Tracker.Observe(o) }

// Choose returns a legal move for the bot's seat in s and the secret swap
// bit for swap-like moves. It must be called only when s waits for a move
// by the bot's seat; otherwise it returns a zero Move and ok=false.
func (b *Bot[S]) Choose(s S) (m engine.Move, swap bool, ok bool) {
	legal := s.LegalMoves(b.Seat)
	if len(legal) == 0 {
		return engine.Move{}, false, false
	}
	c, contenders, _ := s.Claim()
	claimed := engine.Slot(-1)
	if len(contenders) > 0 {
		claimed = contenders[0].Slot
	}
	m, swap = Choose(b.rng, b.Tracker, legal, c, claimed, b.Tracker.Candidates(s.SlotsOf(b.Seat)[0]), b.Doubt, taste[S]{b, s})
	return m, swap, true
}

// taste gives [Choose] the bot's taste for turns and powers.
type taste[S Rules] struct {
	b *Bot[S]
	s S
}

func (e taste[S]) Turn(kinds [8][]engine.Move) (engine.Move, bool) { return e.b.turn(e.s, kinds) }

func (e taste[S]) Use(uses []engine.Move) (engine.Move, bool) { return e.b.use(e.s, uses) }

func (b *Bot[S]) chance(p float64) bool { return Chance(b.rng, p) }

func (b *Bot[S]) pick(ms []engine.Move) engine.Move { return Pick(b.rng, ms) }

// turn picks the turn player's action.
func (b *Bot[S]) turn(s S, kinds [8][]engine.Move) (engine.Move, bool) {
	swaps, peeks, claims := kinds[masquerade.KindSwap], kinds[masquerade.KindPeek], kinds[masquerade.KindClaim]
	if len(peeks) == 0 { // preparatory turn, or revealed last turn in the 1st edition
		return b.pick(swaps), b.chance(0.5)
	}
	// Claim what we are sure of, if it pays, or bluff.
	useful := func(c engine.Card) bool { return b.useful(s, c) }
	if m, ok := Claim(b.rng, b.Tracker, claims, useful, b.taste.Bluffs, b.Bluff); ok {
		return m, false
	}
	// Look at an uncertain card, else stir the table.
	var unsure []engine.Move
	for _, m := range peeks {
		if b.Tracker.Candidates(engine.Slot(m.Args[0])).Count() > 1 {
			unsure = append(unsure, m)
		}
	}
	if len(unsure) > 0 && b.chance(0.8) {
		if len(unsure) == 1 && !b.taste.DrawAlone {
			return unsure[0], false
		}
		return b.pick(unsure), false
	}
	return b.pick(swaps), b.chance(0.5)
}

// useful reports whether using card c now would help the bot.
func (b *Bot[S]) useful(s S, c engine.Card) bool {
	me := s.Coins(b.Seat)
	switch {
	case c == b.taste.Cheat:
		return me >= b.taste.CheatCoins
	case c == b.taste.Judge:
		return s.Court() > 0
	case c == b.taste.Widow:
		return me < b.taste.WidowCoins
	case slices.Contains(b.taste.Takers, c):
		for p := range engine.Seat(s.Players()) {
			if s.Coins(p) > me+1 {
				return true
			}
		}
		return false
	}
	return true
}

// use chooses how to use a power.
func (b *Bot[S]) use(s S, uses []engine.Move) (engine.Move, bool) {
	switch c, _, _ := s.Claim(); c {
	case b.taste.Purses:
		// Take the richest purse if it beats its own; else keep it.
		return RichestPurse(uses, masquerade.NoTarget, s.Coins(b.Seat), s.Coins), false
	case b.taste.Spy:
		if spy, other, ok := s.SpyDeciding(); ok {
			// The Spy has seen both cards: swap when the bot's own card
			// is worth less than the one it looked at.
			mine := b.Tracker.Candidates(spy.Slot)
			theirs := b.Tracker.Candidates(other)
			return uses[0], b.worth(theirs) > b.worth(mine)
		}
		return b.pick(uses), false
	case b.taste.Fool:
		return b.pick(uses), b.chance(0.5)
	}
	return b.pick(uses), false
}

// worth scores a set of possible cards by how well they pay.
func (b *Bot[S]) worth(m Mask) int {
	w := 0
	for _, c := range m.Cards() {
		w += max(1, b.taste.Worth[c])
	}
	return w * 10 / max(1, m.Count())
}
