package masqview

import (
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade"
)

// Rules is the public face of a Mascarade-family rules state (either
// edition), as the narration, the play screen and the local bots need it.
// An edition's [Viewer] wraps its [engine.State] ([Viewer.Of]); the
// methods the states share are theirs, the others are the edition's
// package functions.
type Rules interface {
	engine.State

	// Game is the game's name in rosters ("mascarade", "mascarade2");
	// Title its name for people ("Mascarade", "Mascarade (2nd edition)").
	Game() string
	Title() string
	// Raw returns the edition's own state (*mascarade.State, ...).
	Raw() engine.State

	Players() int
	Name(p engine.Seat) string
	Coins(p engine.Seat) int
	Court() int
	Bank() int
	Turn() int
	TurnSeat() engine.Seat
	Preparatory() bool
	// PreparatoryTurns is the number of opening turns that may only swap.
	PreparatoryTurns() int
	Over() bool
	Winners() []engine.Seat

	Deal() []engine.Card
	SlotName(slot engine.Slot) string
	SlotsOf(p engine.Seat) []engine.Slot
	CenterSlots() []engine.Slot
	SlotOwner(slot engine.Slot) (engine.Seat, bool)
	// Seating lists the seats in chair order, clockwise from chair 0: the
	// identity unless the 2nd edition's Puppeteer moved players.
	Seating() []engine.Seat
	LastRevealed() []engine.Fact

	Claim() (c engine.Card, contenders []masquerade.Contender, ok bool)
	InChallengeWindow() bool

	LegalMoves(p engine.Seat) []engine.Move
	// FormatMove is the move's public script text ("Anna swap Boris").
	FormatMove(m engine.Move) string
	// HasSecretSwap reports whether m, applied now, carries a secret
	// swap bit.
	HasSecretSwap(m engine.Move) bool
	CardName(c engine.Card) string
	// Power says what a character's power does in a few words, or "" if
	// unknown.
	Power(c engine.Card) string
}

// first adapts the 1st edition.
type first struct{ *mascarade.State }

func (first) Game() string                       { return mascarade.GameName }
func (first) Title() string                      { return "Mascarade" }
func (r first) Raw() engine.State                { return r.State }
func (first) PreparatoryTurns() int              { return mascarade.PreparatoryTurns }
func (first) CardName(c engine.Card) string      { return mascarade.CardName(c) }
func (r first) FormatMove(m engine.Move) string  { return mascarade.FormatMove(r.State, m) }
func (r first) HasSecretSwap(m engine.Move) bool { return mascarade.HasSecretSwap(r.State, m) }
func (r first) Seating() []engine.Seat           { return identity(r.Players()) }
func (first) Power(c engine.Card) string         { return firstPowers[mascarade.CardName(c)] }

// firstOf wraps a 1st edition state; ok=false for nil or another game's.
func firstOf(s engine.State) (Rules, bool) {
	if st, ok := s.(*mascarade.State); ok && st != nil {
		return first{st}, true
	}
	return nil, false
}

// second adapts the 2nd edition.
type second struct{ *mascarade2.State }

func (second) Game() string                       { return mascarade2.GameName }
func (second) Title() string                      { return "Mascarade (2nd edition)" }
func (r second) Raw() engine.State                { return r.State }
func (second) PreparatoryTurns() int              { return mascarade2.PreparatoryTurns }
func (second) CardName(c engine.Card) string      { return mascarade2.CardName(c) }
func (r second) FormatMove(m engine.Move) string  { return mascarade2.FormatMove(r.State, m) }
func (r second) HasSecretSwap(m engine.Move) bool { return mascarade2.HasSecretSwap(r.State, m) }
func (second) Power(c engine.Card) string         { return secondPowers[mascarade2.CardName(c)] }

// secondOf wraps a 2nd edition state; ok=false for nil or another game's.
func secondOf(s engine.State) (Rules, bool) {
	if st, ok := s.(*mascarade2.State); ok && st != nil {
		return second{st}, true
	}
	return nil, false
}

func identity(n int) []engine.Seat {
	out := make([]engine.Seat, n)
	for i := range out {
		out[i] = engine.Seat(i)
	}
	return out
}

// sameSeating reports whether two states seat everyone on the same chairs.
func sameSeating(a, b Rules) bool { return slices.Equal(a.Seating(), b.Seating()) }
