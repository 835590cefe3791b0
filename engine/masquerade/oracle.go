package masquerade

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
)

// OracleState is what the [Oracle] needs of a game's rules state S: the
// engine interface, the concrete Play and Know, and the few public
// accessors the script semantics use.
type OracleState[S any] interface {
	engine.State
	// Play is Apply with the concrete result type.
	Play(m engine.Move) (S, []engine.Effect, error)
	// Know is Learn with the concrete result type.
	Know(facts []engine.Fact) (S, []engine.Effect, error)
	// Players returns the number of players.
	Players() int
	// InChallengeWindow reports whether a responder must challenge or pass.
	InChallengeWindow() bool
	// SeatByName returns the seat of a player, case-insensitively.
	SeatByName(name string) (engine.Seat, error)
	// SpyDeciding returns the Spy and the other slot when the Spy, having
	// looked, must now swap or not.
	SpyDeciding() (spy Contender, other engine.Slot, ok bool)
}

// OracleRules are the game hooks of an [Oracle]: its name, for errors, and
// how a script line becomes a move.
type OracleRules[S any] struct {
	Name string // the driver's package name, prefixing its errors
	// ParseMove turns a line's tokens said by seatName into a move and its
	// secret swap bit.
	ParseMove func(s S, seatName string, tokens []string) (engine.Move, bool, error)
}

// Oracle is the omniscient table of a game whose rules state is S: the
// public rules state plus the true card in every slot. It knows every card,
// carries out hidden swaps with their real secret bit, answers every
// reveal with the true cards and ignores the privacy of peeks.
type Oracle[S OracleState[S]] struct {
	State S
	Cards []engine.Card // the true card in each slot
	Steps []Step        // every move played, in order

	rules OracleRules[S]
}

// Step records one move and everything that followed from it.
type Step struct {
	Move    engine.Move
	Swap    bool            // the secret bit, for swap-like moves
	Effects []engine.Effect // the effects of the move and of any reveals it led to, in order
	Facts   []engine.Fact   // the cards revealed to all
	Peeks   []Peek          // what each peek (and each show-others, once per viewer) showed, privately
	Hash    [32]byte        // SHA-256 of the state encoding after the step
}

// Peek is a card seen privately by one seat.
type Peek struct {
	By   engine.Seat
	Slot engine.Slot
	Card engine.Card
}

// NewOracle returns an oracle table for the initial state s and the true
// deal (one card per slot).
func NewOracle[S OracleState[S]](rules OracleRules[S], s S, deal []engine.Card) *Oracle[S] {
	return &Oracle[S]{State: s, Cards: slices.Clone(deal), rules: rules}
}

// HashState returns the SHA-256 of the canonical encoding of s.
func HashState(s engine.State) [32]byte {
	b, err := s.AppendBinary(nil)
	if err != nil {
		panic(err) // the encoding of a valid state cannot fail
	}
	return sha256.Sum256(b)
}

// Play applies m with the secret swap bit swap (ignored by moves without
// a swap) and carries out the resulting effects in order: a swap exchanges
// the two true cards if the bit is set, a peek (or a show to all but one
// seat) records what each viewer saw, a reveal is answered at once with the
// true cards, whose own effects join the queue. On error the table is
// unchanged.
func (t *Oracle[S]) Play(m engine.Move, swap bool) (Step, error) {
	s, eff, err := t.State.Play(m)
	if err != nil {
		return Step{}, err
	}
	cards := slices.Clone(t.Cards)
	st := Step{Move: m, Swap: swap}
	for len(eff) > 0 {
		e := eff[0]
		eff = eff[1:]
		st.Effects = append(st.Effects, e)
		switch e.Kind {
		case engine.EffectSwap:
			if swap {
				a, b := e.Slots[0], e.Slots[1]
				cards[a], cards[b] = cards[b], cards[a]
			}
		case engine.EffectPeek:
			st.Peeks = append(st.Peeks, Peek{By: e.By, Slot: e.Slots[0], Card: cards[e.Slots[0]]})
		case engine.EffectShowOthers:
			for p := range engine.Seat(s.Players()) {
				if p != e.Except {
					for _, sl := range e.Slots {
						st.Peeks = append(st.Peeks, Peek{By: p, Slot: sl, Card: cards[sl]})
					}
				}
			}
		case engine.EffectReveal:
			facts := make([]engine.Fact, len(e.Slots))
			for i, sl := range e.Slots {
				facts[i] = engine.Fact{Slot: sl, Card: cards[sl]}
			}
			st.Facts = append(st.Facts, facts...)
			var more []engine.Effect
			s, more, err = s.Know(facts)
			if err != nil {
				return Step{}, fmt.Errorf("%s: learning %v: %w", t.rules.Name, facts, err)
			}
			eff = append(eff, more...)
		default:
			return Step{}, fmt.Errorf("%s: unexpected effect %v", t.rules.Name, e.Kind)
		}
	}
	t.State, t.Cards = s, cards
	st.Hash = HashState(s)
	t.Steps = append(t.Steps, st)
	return st, nil
}

// PassResponders makes every remaining responder of an open challenge
// window pass until the window closes or it is seat's turn to respond.
// Pass -1 to close the window.
func (t *Oracle[S]) PassResponders(seat engine.Seat) error {
	for t.State.InChallengeWindow() {
		next := t.State.Next().Seat
		if next == seat {
			return nil
		}
		if _, err := t.Play(engine.Move{Seat: next, Kind: KindPass}, false); err != nil {
			return err
		}
	}
	return nil
}

// RunLines plays script lines in order (see [Oracle.PlayLine]), then
// [Oracle.Finish]. It stops at the first illegal line, the table as it was
// before that line.
func (t *Oracle[S]) RunLines(lines []ScriptLine) error {
	for _, ln := range lines {
		if err := t.PlayLine(ln); err != nil {
			return err
		}
	}
	return t.Finish()
}

// PlayLine plays one script line: first the responders who are not listed
// pass (every responder before the line's seat, or every remaining
// responder if the line is not a challenge or a pass), then the line's
// move. A Spy's line that says swap= plays both the look and the decision.
// Errors are *[ScriptError] values naming the line.
func (t *Oracle[S]) PlayLine(ln ScriptLine) error {
	if err := t.playLine(ln); err != nil {
		return &ScriptError{Line: ln.LineNo, Err: err}
	}
	return nil
}

// Finish closes a challenge window left open at the end of a script: the
// remaining responders pass.
func (t *Oracle[S]) Finish() error { return t.PassResponders(-1) }

func (t *Oracle[S]) playLine(ln ScriptLine) error {
	seat, err := t.State.SeatByName(ln.SeatName)
	if err != nil {
		return err
	}
	if !Responds(ln.Tokens) {
		seat = -1 // not an answer: everyone still to answer passes
	}
	if err := t.PassResponders(seat); err != nil {
		return err
	}
	m, swap, err := t.rules.ParseMove(t.State, ln.SeatName, ln.Tokens)
	if err != nil {
		return err
	}
	if _, err = t.Play(m, swap); err != nil {
		return err
	}
	// "use with=... swap=yes" by the Spy is two moves: look, then swap or
	// not. A line that says swap= plays both.
	if spy, _, ok := t.State.SpyDeciding(); ok && spy.Seat == m.Seat && HasSwapToken(ln.Tokens) {
		_, err = t.Play(engine.Move{Seat: m.Seat, Kind: KindUse}, swap)
	}
	return err
}
