package masquerade

import (
	"encoding"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// An edition of Mascarade is data and a few hooks: its [Spec] (the
// catalogue, the box, the table's geometry, which cards take which kind
// of choice, the texts and the powers) and its options type O with the
// functions over it ([Edition]). [State], [Game], [Setup] and [Script]
// are the rules, the game contract, the setup and the scripts of any
// edition, written once; an edition package names its own instances:
//
//	type State = masquerade.State[Options, ed]
//
// where ed is an empty type whose Edition method returns the edition.
// Instances for different editions are different types, so a rules state
// of one edition is never taken for the other's.

// NoTarget is the "use target=none" argument of a power that may keep
// its own purse (the Witch, the Sorceress).
const NoTarget = -1

// Choice is the kind of public choice an owner makes to use a power
// ([Spec.Choices]); a card not listed needs none.
type Choice uint8

// The kinds of choice.
const (
	// ChoiceRichest: take from one of the richest other players, Args
	// [seat]; a choice only when several tie (the Bishop, the Swindler).
	ChoiceRichest Choice = iota + 1
	// ChoicePurses: exchange purses with another player or keep one's
	// own, Args [seat or NoTarget] (the Witch, the Sorceress).
	ChoicePurses
	// ChoiceQuestion: question another player, Args [seat] (the
	// Inquisitor, the Guru).
	ChoiceQuestion
	// ChoiceFool: swap (or not, a secret bit) two cards of other players,
	// Args [slot a, slot b].
	ChoiceFool
	// ChoiceSpy: look at another card, Args [slot], then swap it with
	// one's own or not (a second move, with a secret bit).
	ChoiceSpy
	// ChoiceSeat: choose another player, Args [seat]; the edition's
	// [Spec.Use] applies it (the Princess).
	ChoiceSeat
	// ChoiceSeats: choose two other players, Args [seat a, seat b]; the
	// edition's [Spec.Use] applies it (the Puppeteer).
	ChoiceSeats
)

// Texts are the words an edition's rule errors and script usages use
// where the editions differ.
type Texts struct {
	TurnMoves string // what the turn player may do: "swaps, peeks or claims"
	Revealed  string // the error of a move a revealed player may not make
	NotYours  string // an own slot that is not the mover's: "slot %d is ..."
	BadSwap   string // a swap target not allowed: "cannot swap with slot %d ..."
	BadClaim  string // a claim's slot not allowed: "... slot %d ..."
	BadFool   string // the Fool's pair not allowed
	SpyWhat   string // what the Spy may look at, after "the Spy "
	SpyArg    string // the Spy's with= argument in usages: SLOT or NAME
	Centre    string // the centre cards in errors: "centre", "middle"
}

// Spec is the part of an edition that does not depend on its options
// type: data and hooks the rules of [State] consult.
type Spec struct {
	Game  string // the name in rosters; prefixes errors
	Title string // the name for people
	Cards *Catalogue
	// BoxCoins is the coins of the box: bank + purses + court.
	BoxCoins               int
	MinPlayers, MaxPlayers int

	// Variants: 2 and 3 players play with 3 and 2 cards each (left,
	// right, and a guard with 2); script lines may name the own slot.
	Variants bool
	// Chairs: players may change chairs (the seating is part of the
	// state encoding).
	Chairs bool
	// RevealedMustSwap: a player whose card was revealed during the
	// previous turn must swap; otherwise it may only not claim.
	RevealedMustSwap bool
	// SpyCentre: the Spy may look at a centre card.
	SpyCentre bool
	// Shared is the card whose owners are all paid at once (the Peasant).
	Shared engine.Card
	// Choices lists the cards whose power takes a choice, and which.
	Choices map[engine.Card]Choice
	// RichestTake is what a ChoiceRichest power takes; RuleNotRichest the
	// rule broken by taking from another player.
	RichestTake    int
	RuleNotRichest string
	// RuleRevealed is the rule broken by a move a revealed player may not
	// make.
	RuleRevealed string
	// FoolTake is what the Fool takes from the bank once it has chosen
	// (0: the edition's Power pays it).
	FoolTake int
	Text     Texts

	// Power applies owner o's power as far as it goes without a choice;
	// choose says whether o must then choose ([Spec.Choices]).
	Power func(w Work, o Contender, choose bool)
	// Use applies an owner's ChoiceSeat or ChoiceSeats choice.
	Use func(w Work, m engine.Move) ([]engine.Effect, error)

	// SetupHelp and Configure are the edition's side of
	// [games.Rules.SetupHelp] and [games.Rules.Configure].
	SetupHelp games.SetupHelp
	Configure func(players int, choice string, load games.Loader) (games.Setup, error)
	// ParseScript is [games.Rules.ParseScript].
	ParseScript func(src []byte, load games.Loader) (games.Script, error)
}

// Edition is an edition of Mascarade: its [Spec] and its options type O.
type Edition[O encoding.BinaryMarshaler] struct {
	Spec
	// Normalize fills in an options value's defaults; Validate checks
	// normalized options against the book.
	Normalize func(O) O
	Validate  func(O) error
	// Parts returns the players, the set (sorted), the purse and the
	// centre cards of normalized options.
	Parts func(O) (players []string, set []engine.Card, coins, center int)
	// Make returns the options of a setup: players, set (nil: the
	// default) and coins (0: the default).
	Make func(players []string, set []engine.Card, coins int) O
	// Append appends the canonical encoding of normalized, valid options;
	// Unmarshal reads it strictly.
	Append    func(o O, dst []byte) []byte
	Unmarshal func(data []byte) (O, error)
}

// Of is the constraint of the type naming an edition: an empty type
// whose Edition method returns it (always the same value).
type Of[O encoding.BinaryMarshaler] interface {
	Edition() *Edition[O]
}

// Work is what an edition's power hooks ([Spec.Power], [Spec.Use]) may
// read and change of the state being played; the rules hand it out only
// on a state they have just cloned.
type Work struct{ t *board }

// Core returns the state's core, to change.
func (w Work) Core() *Core { return &w.t.core }

// Players returns the number of players.
func (w Work) Players() int { return len(w.t.names) }

// SeatAfter returns the seat k chairs clockwise (to the left) of p.
func (w Work) SeatAfter(p engine.Seat, k int) engine.Seat { return w.t.seatAfter(p, k) }

// Neighbours returns the distinct seats to the right and to the left of
// p, in that order: one with two players.
func (w Work) Neighbours(p engine.Seat) []engine.Seat {
	right, left := w.t.seatAfter(p, -1), w.t.seatAfter(p, 1)
	if right == left {
		return []engine.Seat{left}
	}
	return []engine.Seat{right, left}
}

// SlotOf returns the slot of seat p's (first) card.
func (w Work) SlotOf(p engine.Seat) engine.Slot { return w.t.slotOf(p, 0) }

// ExchangeChairs makes seats a and b change chairs. Their cards and
// purses stay on the table: a now has the card and the coins in front of
// b's old chair, and the other way round.
func (w Work) ExchangeChairs(a, b engine.Seat) {
	t := w.t
	ca, cb := t.chairOf[a], t.chairOf[b]
	t.seatAt[ca], t.seatAt[cb] = b, a
	t.chairOf[a], t.chairOf[b] = cb, ca
	t.core.Purse[a], t.core.Purse[b] = t.core.Purse[b], t.core.Purse[a]
}
