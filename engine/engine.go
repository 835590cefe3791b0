// Package engine is the replicated rules engine of masque.
//
// Every peer, and every auditor, applies the same log of signed entries to
// the same pure state machine and must reach the same state. A game's rules
// (one package per game under engine/) never see a ciphertext: they say what
// must happen next with [Effect] values ("seat 3 sees slot 5", "slots 2 and 7
// are swapped or not by seat 1", "reveal slot 4 to all") and receive
// established facts back ([Fact]). The table layer (engine/table) turns those
// effects into cryptographic steps with package mental and keeps what each
// seat has seen.
//
// # Purity
//
// Rules are value-in, value-out: [State.Apply] never mutates its receiver,
// reads no clock, does no I/O and draws no randomness except what the log
// carries (joint coins arrive as facts).
package engine

import "fmt"

// Seat is a player's place at the table, counted from 0 in clockwise order.
type Seat int

// Slot names one hidden-card position on the table (a card in front of a
// player, a centre card, a hand). Slots are numbered from 0; each game
// documents its layout.
type Slot int

// Card is a game-defined card kind (a character, a role). The table layer
// maps card kinds to group elements; the rules see only these small
// integers.
type Card int

// Move is a public action by one seat, exactly as it appears in the log.
// Kind and Args are game-defined; a hidden swap's secret bit is never part
// of a Move (it lives only inside the swap's ciphertexts and proof).
type Move struct {
	Seat Seat
	Kind uint8
	Args []int
}

// EffectKind says what an [Effect] asks the table layer to do.
type EffectKind uint8

const (
	// EffectSwap: seat By swaps or does not swap the cards in Slots[0] and
	// Slots[1], re-masking both, and proves it. The entry carrying the
	// Move must carry the proof.
	EffectSwap EffectKind = iota + 1
	// EffectPeek: seat By privately learns the card in Slots[0]. Every
	// other seat publishes a decryption share.
	EffectPeek
	// EffectReveal: every card in Slots is opened to everyone. Every seat
	// publishes a decryption share; the table then feeds one [Fact] per
	// slot back to the rules, in the order of Slots.
	EffectReveal
	// EffectShowOthers: the card in Slots[0] is opened to every seat but
	// Except (Mascarade 2e's Princess). Shares travel encrypted to each
	// recipient inside the public log.
	EffectShowOthers
)

// String returns the effect kind's name.
func (k EffectKind) String() string {
	switch k {
	case EffectSwap:
		return "swap"
	case EffectPeek:
		return "peek"
	case EffectReveal:
		return "reveal"
	case EffectShowOthers:
		return "show-others"
	}
	return fmt.Sprintf("effect(%d)", uint8(k))
}

// Effect is a request from the rules to the table layer.
type Effect struct {
	Kind   EffectKind
	By     Seat // swapper or viewer; unused for reveals
	Except Seat // EffectShowOthers: the seat that must not learn the card
	Slots  []Slot
}

// Fact is an established public fact fed back to the rules: the card that
// was revealed in Slot.
type Fact struct {
	Slot Slot
	Card Card
}

// NeedKind says what the log must contain next.
type NeedKind uint8

const (
	// NeedMove: a move by Need.Seat.
	NeedMove NeedKind = iota + 1
	// NeedFacts: the rules wait for the facts of an earlier EffectReveal.
	NeedFacts
	// NeedNothing: the game is over.
	NeedNothing
)

// Need describes what the rules wait for.
type Need struct {
	Kind NeedKind
	Seat Seat // for NeedMove
}

// State is one game's rules state. Implementations are immutable values.
type State interface {
	// Next reports what the rules wait for.
	Next() Need
	// Apply returns the state after m and the effects the table must carry
	// out, or an error (a *RuleError) if m is illegal now. The receiver is
	// not modified.
	Apply(m Move) (State, []Effect, error)
	// Learn returns the state after the facts of a reveal are established,
	// and any further effects.
	Learn(facts []Fact) (State, []Effect, error)
	// AppendBinary appends the canonical encoding of the state, used for
	// the state hash after every entry.
	AppendBinary(b []byte) ([]byte, error)
}

// RuleError is a typed rejection of a move: it names the seat at fault and
// the rule broken.
type RuleError struct {
	Seat Seat
	Rule string // short stable identifier, e.g. "not-your-turn"
	Msg  string // human explanation
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("seat %d: %s: %s", e.Seat, e.Rule, e.Msg)
}
