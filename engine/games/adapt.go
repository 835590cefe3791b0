package games

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
)

// SayMoveOf is a [Teller.SayMove] for the game whose states are S: say
// tells a move of one of its states; anything else gets
// [FormatMoveOf]'s neutral text.
func SayMoveOf[S comparable](s engine.State, m engine.Move, you engine.Seat, say func(S, engine.Move, engine.Seat) string, kindName func(uint8) string) string {
	st, ok := StateOf[S](s)
	if !ok {
		return neutralMove(m, kindName)
	}
	return say(st, m, you)
}

// SayFactsOf is a [Teller.SayFacts] for the game whose states are S: nil
// unless before and after are both its states.
func SayFactsOf[S comparable](before, after engine.State, facts []engine.Fact, you engine.Seat, say func(before, after S, facts []engine.Fact, you engine.Seat) []string) []string {
	b, ok1 := StateOf[S](before)
	a, ok2 := StateOf[S](after)
	if !ok1 || !ok2 {
		return nil
	}
	return say(b, a, facts, you)
}

// HiddenDeal is the part of a table binding (table.Game) that games with
// a hidden deal share: the table lays out the canonical deck face up, one
// card a slot, and the rules' opening shuffles it (engine.Opening).
// Options travel as their canonical encoding, O once decoded; S is the
// game's state.
type HiddenDeal[O any, S engine.State] struct {
	Game      string                  // the game's name, for errors
	Unmarshal func([]byte) (O, error) // decodes canonical options
	Layout    func(O) []engine.Card   // the canonical deck
	NewGame   func(O) (S, error)      // the initial rules state
	Players   func(O) []string        // the player names, in seat order
}

// Deck returns the canonical deck for options.
func (h HiddenDeal[O, S]) Deck(options []byte) ([]engine.Card, error) {
	o, err := h.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	return h.Layout(o), nil
}

// New returns the initial rules state. The deal must be nil (hidden) or
// the canonical deck of [HiddenDeal.Deck].
func (h HiddenDeal[O, S]) New(options []byte, deal []engine.Card) (engine.State, error) {
	o, err := h.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	if deal != nil && !slices.Equal(deal, h.Layout(o)) {
		return nil, fmt.Errorf("%s: the deal is hidden: want no deal or the canonical deck", h.Game)
	}
	s, err := h.NewGame(o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", h.Game, err)
	}
	return s, nil
}

// PlayerNames reads the player names back from canonical options.
func (h HiddenDeal[O, S]) PlayerNames(options []byte) ([]string, error) {
	o, err := h.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	return h.Players(o), nil
}

// HiddenCardsOf is a [Revealer.HiddenCards] for the game whose states are
// S: seat names one seat's hidden cards, and the result is every seat's,
// in seat order; nil for anything but one of its states.
func HiddenCardsOf[S interface {
	comparable
	Players() int
}](s engine.State, seat func(st S, p engine.Seat) []Hidden) []Hidden {
	st, ok := StateOf[S](s)
	if !ok {
		return nil
	}
	var out []Hidden
	for p := range engine.Seat(st.Players()) {
		out = append(out, seat(st, p)...)
	}
	return out
}
