package games

import "github.com/masque-games/masque/engine"

// NightRevealer is implemented by a game's table binding ([Rules.Table])
// whose secret night actions (Mafia's ballots and checks,
// table.BodyActions) replay --reveal opens once every seat's key is
// published: it tells them in words. open returns the card in a slot
// (its first component: a Mafia role), decrypted with the published keys.
type NightRevealer interface {
	// SayBallots tells one power's opened ballots, asked in state s:
	// votes[voter] is the target each voter named; a seat whose ballot was
	// empty is absent.
	SayBallots(s engine.State, power uint8, votes map[engine.Seat]engine.Seat, open func(engine.Slot) engine.Card) []string
	// SayChecks tells the opened checks of one night, asked in state s:
	// answers[seat] is the card each seat's check re-masked (a checked
	// target's team component, or the neutral card of a seat that checked
	// nobody). A check hides its target even from the published keys.
	SayChecks(s engine.State, answers map[engine.Seat]engine.Card, open func(engine.Slot) engine.Card) []string
}
