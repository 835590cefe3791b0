package bot

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// Bot chooses moves for one seat: the family's bot ([track.Bot]) with the
// 2nd edition's taste.
type Bot = track.Bot[*mascarade2.State]

// New returns a bot for seat in the game s, deterministic given seed.
func New(s *mascarade2.State, seat engine.Seat, seed uint64) *Bot {
	return track.NewBot(s, seat, seed, &taste)
}

// NewBot is the game contract's bot ([games.BotMaker]): [New] for a state
// of this game, its secret swap bits given with its moves.
func NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	return track.NewPlayer[*mascarade2.State](s, seat, seed, &taste)
}

// taste is the 2nd edition's table: it bluffs the King and the Empress,
// claims the Cheater, the Judge and the Widow when they pay, the
// Sorceress and the Beggar when someone is richer, takes the richest
// purse with the Sorceress. It is never written to.
var taste = track.Taste{
	Game:       mascarade2.GameName,
	Stream:     0x6d617332,
	Bluffs:     []engine.Card{mascarade2.King, mascarade2.Empress},
	Cheat:      mascarade2.Cheater,
	CheatCoins: mascarade2.CheaterCoins,
	Judge:      mascarade2.Judge,
	Widow:      mascarade2.Widow,
	WidowCoins: mascarade2.WidowCoins,
	Takers:     []engine.Card{mascarade2.Sorceress, mascarade2.Beggar},
	Purses:     mascarade2.Sorceress,
	Spy:        mascarade2.Spy,
	Fool:       mascarade2.Fool,
	Worth: map[engine.Card]int{
		mascarade2.Empress: 3, mascarade2.Widow: 3, mascarade2.Patron: 3,
		mascarade2.King: 2, mascarade2.Princess: 2, mascarade2.Swindler: 2, mascarade2.Judge: 2,
	},
}

// The tracker's types, for the bot's users ([track.Tracker]).
type (
	// Mask is a set of cards: bit c is set if card c may be there.
	Mask = track.Mask
	// Observation is what one seat learns from one step of the game (a
	// move and the reveals it led to, the cards the Princess shows).
	Observation = track.Observation
	// Tracker is one seat's knowledge of where the masks are.
	Tracker = track.Tracker
)

// NewTracker starts from the face-up deal of s.
func NewTracker(s *mascarade2.State, seat engine.Seat) *Tracker {
	return track.NewTracker(s.Deal(), seat)
}
