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
	// EffectSet: the slots in Slots take fresh face-up cards, Slots[i]
	// the card Cards[i] (a new deck for a round). Public and immediate:
	// no entry carries it.
	EffectSet
	// EffectShuffle: the seats in Seats (every seat, in seat order, when
	// Seats is empty) each shuffle the cards in Slots in turn, re-masking
	// them, with a proof that the output is a permutation of the input.
	// Nobody learns the new order. Each shuffle is an entry of its own;
	// the table collects them before the next move.
	EffectShuffle
	// EffectProve: the entry carrying the Move also carries a proof, by
	// seat By, about its own card in Slots[0], which it viewed privately
	// and which has not changed since: that the card is one of Cards
	// (Not false; Cards = {X} is "I am X"), or none of Cards (Not true;
	// "I am not X"). A false statement cannot be proven: the entry is
	// rejected and By is named.
	EffectProve
	// EffectCoin: every seat contributes to a joint random value that no
	// seat can bias; the table then feeds the rules one [Fact] with Slot
	// -1 and Coin set, and the rules wait for it (NeedFacts).
	EffectCoin
	// EffectBallot: every seat in Seats, in seat order, posts one
	// encrypted ballot for power Power over the seats in Targets, with a
	// proof that either its own card in Slots[i] (which Seats[i] viewed
	// privately) is one of Cards and the ballot names exactly one of
	// Targets (never the voter itself unless SelfAllowed), or its card is
	// none of Cards and the ballot is empty. Nobody learns who voted for
	// whom, or whether anyone voted at all; the ballots of one power are
	// summed and nothing is opened until an EffectTally. The rules wait
	// (NeedFacts) for the tally they ask for after it.
	EffectBallot
	// EffectTally: the sum of the ballots of Power (posted by the last
	// EffectBallot of that power) is opened at the targets in Seats
	// (every target, in ballot order, when Seats is empty). Every seat
	// publishes decryption shares; the table feeds the rules one [Fact]
	// per target, in order: Slot FactTally, Seat the target, Count the
	// number of ballots naming it. With AddPowers, the ballots of those
	// powers (over the same targets, in the same order) are added to
	// Power's before anything is opened: a count then says how many
	// ballots of all these powers named the target, never which power's.
	//
	// A one-vote mix (Mix and Votes set) lays out one card per voter of
	// Power's last ballots: the code sum of its ballot (a holder's
	// target's code, or the identity), which every seat in Mix shuffles
	// in turn (an entry each); it opens nothing and brings no fact. A
	// test (Tested set) then asks whether card Pick of Power's last mix
	// encrypts the identity: every seat not retired posts a blind step in
	// seat order, and the rules learn one [Fact], Slot [FactBlind], Count
	// 0 (the identity) or 1 (not). A pick (Picked set) opens the code of
	// card Pick of Power's last mix, with the codes of AddPowers' sums
	// (one ballot naming one target each) added: the facts are as a
	// tally's over every target, each Count how many of the codes named
	// it, never which one (mental SPEC §9.8). A Mix without Votes is a
	// plurality kill (Plurality, below); the mixed tally, which opened
	// the counts of shuffled (code, count) pairs (mental SPEC §9.6), is
	// withdrawn.
	EffectTally
	// EffectCheck: every seat in Seats, in seat order, posts one
	// ciphertext, proven to be either a re-masking of component Comp of
	// the card in the slot of one of Targets other than itself (allowed
	// only if its own card in Slots[i] is one of Cards), or a re-masking
	// of the face-up card Neutral; every other seat then sends its
	// decryption share of it encrypted to the poster, who alone learns
	// what it holds. Nobody else learns who checked whom, or whether
	// anyone did. Target t's card lies in slot Slot(t) of Targets' order:
	// TargetSlots[k] for Targets[k].
	EffectCheck
	// EffectTag: every seat in Seats, in seat order, posts a 32-byte tag
	// derived from component Comp of its own card in Slots[i], viewed
	// privately: a keyed hash of the group secret that component holds
	// (game id, Round and the seat bound in), or, when the component is
	// not a group secret, 32 random bytes. Seats holding the same group
	// secret recognise each other's tags; nobody else can tell a tag from
	// noise or forge one.
	EffectTag
	// EffectRetire: seat By publishes its card key (it is eliminated or
	// leaves). From then on the table computes that seat's decryption and
	// coin shares itself, and the seat posts nothing more. Its earlier
	// private views stay private: they went through encrypted shares.
	EffectRetire
)

// FactTally is the Slot of a [Fact] that reports a tally (EffectTally).
const FactTally Slot = -2

// Slot -3 was a mixed tally's count (mental SPEC §9.6, withdrawn).

// FactBlind is the Slot of a [Fact] that reports a blinded identity test
// (EffectTally with Tested): Count 0 when the tested card encrypts the
// identity, 1 when it does not; Seat is -1.
const FactBlind Slot = -4

// Component says what one component of a tuple card holds when a card
// kind is laid face up (see [Tupler]): a face-up card kind, or the
// table's group secret (a value nobody knows short of every seat
// together, which a private view of the component reveals to its viewer).
type Component struct {
	Kind        Card
	GroupSecret bool
}

// Tupler is implemented by rules states whose cards are tuples: the card
// of kind c, laid face up, is Tuple(c) component by component (a Mafia
// role with its team and its group secret, say). A game whose cards are
// single points does not implement it.
type Tupler interface {
	Tuple(c Card) []Component
}

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
	case EffectSet:
		return "set"
	case EffectShuffle:
		return "shuffle"
	case EffectProve:
		return "prove"
	case EffectCoin:
		return "coin"
	case EffectBallot:
		return "ballot"
	case EffectTally:
		return "tally"
	case EffectCheck:
		return "check"
	case EffectTag:
		return "tag"
	case EffectRetire:
		return "retire"
	}
	return fmt.Sprintf("effect(%d)", uint8(k))
}

// Effect is a request from the rules to the table layer.
type Effect struct {
	Kind   EffectKind
	By     Seat // swapper, viewer or prover; unused for reveals
	Except Seat // EffectShowOthers: the seat that must not learn the card
	Slots  []Slot
	// Seats: EffectShuffle's shufflers in order (empty: every seat).
	Seats []Seat
	// Cards: EffectSet's new cards, one per slot; EffectProve's set.
	Cards []Card
	// Not: EffectProve states that the card is none of Cards.
	Not bool
	// Comps: the components of a tuple card an EffectPeek or
	// EffectReveal opens (empty: every component). EffectProve: the one
	// component of a tuple card the statement is about, which the prover
	// viewed (empty: the card as a whole, as for single-component cards).
	Comps []int
	// Comp: the component EffectCheck re-masks and EffectTag reads.
	Comp int
	// Power: EffectBallot's and EffectTally's game-defined power (a
	// night action), bound into every proof.
	Power uint8
	// Targets: EffectBallot's and EffectCheck's candidate seats, in
	// order; TargetSlots[k] is the slot of Targets[k]'s card (EffectCheck).
	Targets     []Seat
	TargetSlots []Slot
	// AddPowers: EffectTally's further powers whose ballots are added to
	// Power's before opening (empty: Power's alone).
	AddPowers []uint8
	// Voters: an EffectTally that sums only the ballots of these voters
	// of Power's last EffectBallot (empty: every voter's). The proofs of
	// the ballots make such a sum as sound as the whole: a voter without
	// the power adds an empty ballot.
	Voters []Seat
	// Mix: a one-vote mix's or a plurality kill's shufflers, in order
	// (empty: a plain tally). Picked and Pick: an EffectTally that opens
	// the code of card Pick (0-based, in the shuffled order) of Power's
	// last mix.
	Mix    []Seat
	Picked bool
	Pick   int
	// Votes: a one-vote mix (with Mix): the mixed cards are the code
	// sums of Power's last ballots, one per voter. Tested: a blinded
	// identity test of card Pick of Power's last one-vote mix.
	Votes  bool
	Tested bool
	// Plurality: a plurality kill (mental SPEC §9.9) of Power's last
	// ballots, with Mix: k = Plurality holders voted, and the target named
	// most often wins, a tie uniformly among the tied. Every seat in Mix
	// posts a count lookup, shuffles the (code sum, count) cards, every
	// seat tests every shuffled code sum, shuffles the kill table laid
	// from the k votes and tests every row; then the true row's payload
	// is picked as a Picked tally would be (with AddPowers' code sums
	// added). The rules learn only the pick's facts: a tally's over every
	// target, each Count how many codes named it.
	Plurality int
	// SelfAllowed: an EffectBallot voter may name itself.
	SelfAllowed bool
	// Roles: EffectBallot's and EffectCheck's list of every kind the
	// voter's card may be (Cards, the kinds that hold the power, is a
	// proper subset); the proof that a seat does not hold the power is
	// that its card is one of the others. An EffectCheck with Roles is
	// mandatory: a seat holding the power must check a target. Without
	// Roles a check is optional (anyone may post the neutral card).
	Roles []Card
	// Neutral: EffectCheck's face-up card a seat without the power
	// re-masks.
	Neutral Card
	// Round: EffectTag's round, bound into every tag.
	Round int
}

// Fact is an established public fact fed back to the rules: the card that
// was revealed in Slot, (Slot -1) a joint coin, or (Slot [FactTally]) a
// tally.
type Fact struct {
	Slot Slot
	Card Card
	Coin [32]byte // EffectCoin's value, uniform and unbiased
	// Seat and Count: a tally (Slot FactTally): Count ballots named Seat.
	Seat  Seat
	Count int
}

// Opening is implemented by rules states that begin with effects (a hidden
// deal by shuffles, say): the table carries out Opening's effects before
// the first move, on the slots holding the game's deck face up in its
// canonical order, and skips the public deal.
type Opening interface {
	Opening() []Effect
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

// PowerTeller is implemented by the State of a game with night powers
// (Mafia) to say them in words in the table's refusals: the verb of a
// choice for power ("kill") and what the power is ("the mafia's kill").
// A table whose game does not implement it says "night power N".
type PowerTeller interface {
	PowerWords(power uint8) (verb, what string)
}

// ChatGate is implemented by the State of a game that bars some seats
// from writing in the table chat at some point of the game (Mafia: the
// dead may read but not write). A game whose State does not implement it
// lets every seat write. A networked table asks the state after the last
// applied entry, both before its own seat sends and when another seat's
// message arrives: a message from a barred seat is dropped.
type ChatGate interface {
	// MayChat reports whether seat may write in the chat now.
	MayChat(seat Seat) bool
}
