package mascarade2

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
)

func kindName(k uint8) string { return masquerade.KindName(k) }

// KindName returns the script verb of a move kind.
func KindName(k uint8) string { return kindName(k) }

// SlotName returns the script name of slot s: the name of the player
// sitting in front of it, or "centre1"/"centre2" for the middle.
func (s *State) SlotName(slot engine.Slot) string {
	if !s.validSlot(slot) {
		return fmt.Sprintf("slot(%d)", int(slot))
	}
	if p, ok := s.SlotOwner(slot); ok {
		return s.opts.Players[p]
	}
	return fmt.Sprintf("centre%d", int(slot)-s.Players()+1)
}

// SeatByName returns the seat of a player, matching the name
// case-insensitively.
func (s *State) SeatByName(name string) (engine.Seat, error) {
	return masquerade.SeatByName(GameName, s.opts.Players, name)
}

// ParseSlot parses a slot name (see [State.SlotName]), case-insensitively:
// a player's name names the card in front of that player now.
func (s *State) ParseSlot(name string) (engine.Slot, error) {
	rest, ok := strings.CutPrefix(strings.ToLower(name), "centre")
	if !ok {
		rest, ok = strings.CutPrefix(strings.ToLower(name), "center") // the American spelling works too
	}
	if ok {
		for i := range s.Slots() - s.Players() {
			if rest == fmt.Sprint(i+1) {
				return engine.Slot(s.Players() + i), nil
			}
		}
		return 0, fmt.Errorf("mascarade2: no middle slot %q (this table has %d)", name, s.Slots()-s.Players())
	}
	p, err := s.SeatByName(name)
	if err != nil {
		return 0, err
	}
	return s.SlotOf(p), nil
}

// HasSecretSwap reports whether move m, applied to s, carries a secret
// swap bit: a swap, or the use of the Fool or the Spy.
func HasSecretSwap(s *State, m engine.Move) bool {
	if m.Kind == KindSwap {
		return true
	}
	return m.Kind == KindUse && ((s.core.Phase == masquerade.PhaseUse && s.core.Claimed == Fool) || s.core.Phase == masquerade.PhaseSpySwap)
}

// HasSwapToken reports whether a script line's tokens carry a swap=
// argument (the Spy's "use with=NAME swap=yes" plays the look and the
// swap from one line).
func HasSwapToken(tokens []string) bool { return masquerade.HasSwapToken(tokens) }

// FormatMove returns the public text form of m, applied to s, as a script
// line without the secret swap bit: "Anna swap Boris", "Boris claim King",
// "Sasha use between=Anna,Dima". [ParseMove] reads it back.
func FormatMove(s *State, m engine.Move) string {
	if m.Seat < 0 || int(m.Seat) >= s.Players() {
		return fmt.Sprintf("seat(%d) %s %v", m.Seat, kindName(m.Kind), m.Args)
	}
	parts := []string{s.Name(m.Seat), kindName(m.Kind)}
	slot := func(i int) string { return s.SlotName(engine.Slot(m.Args[i])) }
	seat := func(i int) string {
		if m.Args[i] == NoTarget && s.core.Claimed == Sorceress {
			return "none"
		}
		if m.Args[i] < 0 || m.Args[i] >= s.Players() {
			return fmt.Sprintf("seat(%d)", m.Args[i])
		}
		return s.Name(engine.Seat(m.Args[i]))
	}
	use := m.Kind == KindUse && s.core.Phase == masquerade.PhaseUse
	switch {
	case m.Kind == KindSwap && len(m.Args) == 2:
		parts = append(parts, slot(1))
	case m.Kind == KindPeek && len(m.Args) == 1:
	case m.Kind == KindClaim && len(m.Args) == 2:
		parts = append(parts, CardName(engine.Card(m.Args[0])))
	case m.Kind == KindChallenge && len(m.Args) == 1:
	case m.Kind == KindPass && len(m.Args) == 0:
	case m.Kind == KindGuess && len(m.Args) == 1:
		parts = append(parts, CardName(engine.Card(m.Args[0])))
	case use && s.core.Claimed == Fool && len(m.Args) == 2:
		parts = append(parts, "between="+slot(0)+","+slot(1))
	case use && s.core.Claimed == Puppeteer && len(m.Args) == 2:
		parts = append(parts, "between="+seat(0)+","+seat(1))
	case use && s.core.Claimed == Spy && len(m.Args) == 1:
		parts = append(parts, "with="+slot(0))
	case m.Kind == KindUse && s.core.Phase == masquerade.PhaseSpySwap && len(m.Args) == 0:
	case m.Kind == KindUse && len(m.Args) == 1:
		parts = append(parts, "target="+seat(0))
	default:
		parts = append(parts, fmt.Sprint(m.Args))
	}
	return strings.Join(parts, " ")
}

// FormatLine is [FormatMove] plus the secret swap bit where the move has
// one ("yes"/"no" for a swap, "swap=yes"/"swap=no" for the Fool and the
// Spy): the form of a script line.
func FormatLine(s *State, m engine.Move, swap bool) string {
	line := FormatMove(s, m)
	if !HasSecretSwap(s, m) {
		return line
	}
	return line + masquerade.SwapSuffix(m.Kind, swap)
}

// ParseMove turns one script line's tokens (the verb and its arguments,
// without the seat name) said by player seatName into a move applicable
// to s. It returns the secret swap bit separately ("yes" for a swap,
// "swap=yes" for the Fool and the Spy; false when absent). It checks the
// syntax and the names only; [State.Apply] checks the rules.
func ParseMove(s *State, seatName string, tokens []string) (engine.Move, bool, error) {
	seat, err := s.SeatByName(seatName)
	if err != nil {
		return engine.Move{}, false, err
	}
	l, err := masquerade.NewMoveLine(GameName, seatName, tokens)
	if err != nil {
		return engine.Move{}, false, err
	}
	args := l.Args
	m := engine.Move{Seat: seat}
	own := int(s.SlotOf(seat))
	bad := func(usage string) (engine.Move, bool, error) { return engine.Move{}, false, l.Bad(usage) }
	switch l.Verb {
	case "swap":
		m.Kind = KindSwap
		bit, err := l.SwapBit()
		if err != nil {
			return engine.Move{}, false, err
		}
		args = l.Args
		if len(args) != 1 {
			return bad("swap TARGET yes|no")
		}
		t, err := s.ParseSlot(args[0])
		if err != nil {
			return engine.Move{}, false, err
		}
		m.Args = []int{own, int(t)}
		return m, bit, nil
	case "peek":
		if len(args) != 0 {
			return bad("peek")
		}
		m.Kind, m.Args = KindPeek, []int{own}
		return m, false, nil
	case "claim":
		if len(args) != 1 {
			return bad("claim MASK")
		}
		c, err := ParseCard(args[0])
		if err != nil {
			return engine.Move{}, false, err
		}
		m.Kind, m.Args = KindClaim, []int{int(c), own}
		return m, false, nil
	case "challenge":
		if len(args) != 0 {
			return bad("challenge")
		}
		m.Kind, m.Args = KindChallenge, []int{own}
		return m, false, nil
	case "use":
		return parseUse(s, m, seatName, args)
	}
	return l.Common(m, catalogue)
}

// parseUse parses "use KEY=VALUE..." against the power being resolved.
func parseUse(s *State, m engine.Move, seatName string, args []string) (engine.Move, bool, error) {
	m.Kind = KindUse
	u := &masquerade.UseLine{Game: GameName, Seat: seatName}
	bit, done, err := u.Parse(s.core.Phase, args)
	if err != nil {
		return engine.Move{}, false, err
	}
	if done {
		return m, bit, nil
	}
	slot := func(v string) (int, error) { sl, err := s.ParseSlot(v); return int(sl), err }
	seat := func(v string) (int, error) { p, err := s.SeatByName(v); return int(p), err }
	switch s.core.Claimed {
	case Fool:
		m.Args, err = u.Pair("Fool", "SLOT", slot)
	case Puppeteer:
		m.Args, err = u.Pair("Puppeteer", "NAME", seat)
	case Spy:
		m.Args, err = u.With("NAME", slot)
	default:
		m.Args, err = u.Target(CardName(s.core.Claimed), s.core.Claimed == Sorceress, NoTarget, seat)
		bit = false
	}
	if err != nil {
		return engine.Move{}, false, err
	}
	return m, bit, nil
}
