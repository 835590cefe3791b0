package mascarade2

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

// Move kinds, shared by the Mascarade family ([masquerade.KindSwap] ...).
// See the package documentation for each kind's Args.
const (
	KindSwap      = masquerade.KindSwap      // Args: [own slot, target slot]
	KindPeek      = masquerade.KindPeek      // Args: [own slot]
	KindClaim     = masquerade.KindClaim     // Args: [mask, own slot]
	KindChallenge = masquerade.KindChallenge // Args: [own slot]
	KindPass      = masquerade.KindPass      // Args: []
	KindUse       = masquerade.KindUse       // Args: depend on the power, see the package documentation
	KindGuess     = masquerade.KindGuess     // Args: [mask]
)

// NoTarget is the Sorceress's "use target=none" argument: she keeps her
// purse.
const NoTarget = masquerade.NoTarget

// Contender is a player taking part in a claim: the claimant (first) or a
// challenger, with the card they put forward.
type Contender = masquerade.Contender

// State is the public rules state of one game of Mascarade (2nd edition):
// the family's rules ([masquerade.State]) for this edition. It implements
// [engine.State]; values are immutable: every method that changes the
// game returns a new *State.
//
// Chairs: the table has one chair per player, numbered clockwise; chair i
// holds slot i (the card in front of it). At the start seat i sits on
// chair i; only the Puppeteer moves players. Turn order and neighbours
// follow the chairs ([masquerade.State.Seating], [masquerade.State.SlotOf]).
type State = masquerade.State[Options, ed]

// NewGame starts a game. deal lists the card in each slot (slot i is the
// card of seat i, then centre1 and centre2); it must be a permutation of
// the set. The deal is face up, so it is public.
func NewGame(opts Options, deal []engine.Card) (*State, error) {
	return masquerade.NewState[Options, ed](opts, deal)
}

// KindName returns the script verb of a move kind.
func KindName(k uint8) string { return masquerade.KindName(k) }

// HasSecretSwap reports whether move m, applied to s, carries a secret
// swap bit: a swap, or the use of the Fool or the Spy.
func HasSecretSwap(s *State, m engine.Move) bool { return s.HasSecretSwap(m) }

// HasSwapToken reports whether a script line's tokens carry a swap=
// argument (the Spy's "use with=NAME swap=yes" plays the look and the
// swap from one line).
func HasSwapToken(tokens []string) bool { return masquerade.HasSwapToken(tokens) }

// FormatMove returns the public text form of m, applied to s, as a script
// line without the secret swap bit: "Anna swap Boris", "Boris claim King",
// "Sasha use between=Anna,Dima". [ParseMove] reads it back.
func FormatMove(s *State, m engine.Move) string { return s.FormatMove(m) }

// FormatLine is [FormatMove] plus the secret swap bit where the move has
// one ("yes"/"no" for a swap, "swap=yes"/"swap=no" for the Fool and the
// Spy): the form of a script line.
func FormatLine(s *State, m engine.Move, swap bool) string { return s.FormatLine(m, swap) }

// ParseMove turns one script line's tokens (the verb and its arguments,
// without the seat name) said by player seatName into a move applicable
// to s. It returns the secret swap bit separately ("yes" for a swap,
// "swap=yes" for the Fool and the Spy; false when absent). It checks the
// syntax and the names only; [State.Apply] checks the rules.
func ParseMove(s *State, seatName string, tokens []string) (engine.Move, bool, error) {
	return s.ParseMove(seatName, tokens)
}

var _ engine.State = (*State)(nil)
