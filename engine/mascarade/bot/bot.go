package bot

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// Bot chooses moves for one seat: the family's bot ([track.Bot]) with the
// 1st edition's taste.
type Bot = track.Bot[*mascarade.State]

// New returns a bot for seat in the game s, deterministic given seed.
func New(s *mascarade.State, seat engine.Seat, seed uint64) *Bot {
	return track.NewBot(s, seat, seed, &taste)
}

// NewBot is the game contract's bot ([games.BotMaker]): [New] for a state
// of this game, its secret swap bits given with its moves.
func NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	return track.NewPlayer[*mascarade.State](s, seat, seed, &taste)
}

// taste is the 1st edition's table: it bluffs the King and the Queen,
// claims the Cheat, the Judge and the Widow when they pay, takes the
// richest purse with the Witch. It is never written to.
var taste = track.Taste{
	Game:       mascarade.GameName,
	Stream:     0x6d617363,
	Bluffs:     []engine.Card{mascarade.King, mascarade.Queen},
	Cheat:      mascarade.Cheat,
	CheatCoins: mascarade.CheatCoins,
	Judge:      mascarade.Judge,
	Widow:      mascarade.Widow,
	WidowCoins: mascarade.WidowCoins,
	Takers:     []engine.Card{mascarade.Witch},
	Purses:     mascarade.Witch,
	Spy:        mascarade.Spy,
	Fool:       mascarade.Fool,
	Worth: map[engine.Card]int{
		mascarade.King: 3, mascarade.Widow: 3,
		mascarade.Queen: 2, mascarade.Bishop: 2, mascarade.Judge: 2,
	},
	DrawAlone: true,
}

// Mask is a set of cards: bit c is set if card c may be there.
type Mask = track.Mask

// Observation is what one seat learns from one step of the game (a move
// and the reveals it led to).
type Observation = track.Observation

// Tracker is one seat's knowledge of where the cards are.
type Tracker = track.Tracker

// NewTracker starts from the face-up deal of s.
func NewTracker(s *mascarade.State, seat engine.Seat) *Tracker {
	return track.NewTracker(s.Deal(), seat)
}
