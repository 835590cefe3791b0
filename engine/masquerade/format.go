package masquerade

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
)

// LegalMoves enumerates every move seat p may make now (without secret
// bits: each swap-like move may be played with either bit). It returns nil
// when the rules do not wait for a move by p.
func (t *board) LegalMoves(p engine.Seat) []engine.Move {
	need := t.Next()
	if need.Kind != engine.NeedMove || need.Seat != p {
		return nil
	}
	mine := t.SlotsOf(p)
	n := engine.Slot(t.Slots())
	var out []engine.Move
	add := func(kind uint8, args ...int) {
		out = append(out, engine.Move{Seat: p, Kind: kind, Args: args})
	}
	u := t.core.User
	others := func() {
		for q := range engine.Seat(t.Players()) {
			if q != u.Seat {
				add(KindUse, int(q))
			}
		}
	}
	switch t.core.Phase {
	case PhaseTurn:
		for _, own := range mine {
			for to := range n {
				if t.swapTarget(p, to) || (own < to && t.ownPair(p, own, to)) {
					add(KindSwap, int(own), int(to))
				}
			}
		}
		if t.MustSwap(p) {
			return out
		}
		for _, own := range mine {
			add(KindPeek, int(own))
		}
		if !t.MayClaim(p) {
			return out
		}
		for _, c := range slices.Compact(slices.Clone(t.set)) {
			for _, own := range mine {
				if t.claimable(p, own) {
					add(KindClaim, int(c), int(own))
				}
			}
		}
	case PhaseRespond:
		add(KindPass)
		for _, own := range mine {
			add(KindChallenge, int(own))
		}
	case PhaseUse:
		switch t.ed.Choices[t.core.Claimed] {
		case ChoiceRichest:
			for _, q := range t.Richest(u.Seat) {
				add(KindUse, int(q))
			}
		case ChoicePurses:
			add(KindUse, NoTarget)
			others()
		case ChoiceQuestion, ChoiceSeat:
			others()
		case ChoiceFool:
			for a := range n {
				for b := a + 1; b < n; b++ {
					if t.foolPair(u.Seat, a, b) {
						add(KindUse, int(a), int(b))
					}
				}
			}
		case ChoiceSpy:
			for to := range n {
				if t.spyTarget(u.Seat, to) {
					add(KindUse, int(to))
				}
			}
		case ChoiceSeats:
			for a := range engine.Seat(t.Players()) {
				for b := a + 1; int(b) < t.Players(); b++ {
					if a != u.Seat && b != u.Seat {
						add(KindUse, int(a), int(b))
					}
				}
			}
		}
	case PhaseSpySwap:
		add(KindUse)
	case PhaseGuess:
		for _, c := range slices.Compact(slices.Clone(t.set)) {
			add(KindGuess, int(c))
		}
	}
	return out
}

// posNames name a player's cards in the 1st edition's variants.
var posNames = [...]string{"left", "right", "guard"}

// SlotName returns the script name of slot s: the name of the player in
// front of it ("Name.left", "Name.right", "Name.guard" in the 1st
// edition's variants), "centre1"/"centre2" for the centre.
func (t *board) SlotName(slot engine.Slot) string {
	if !t.validSlot(slot) {
		return fmt.Sprintf("slot(%d)", int(slot))
	}
	p, pos, ok := t.owner(slot)
	switch {
	case !ok:
		return fmt.Sprintf("centre%d", int(slot)-len(t.names)*t.per+1)
	case t.per == 1:
		return t.names[p]
	}
	return t.names[p] + "." + posNames[pos]
}

// SeatByName returns the seat of a player, matching the name
// case-insensitively.
func (t *board) SeatByName(name string) (engine.Seat, error) {
	return SeatByName(t.ed.Game, t.names, name)
}

// ParseSlot parses a slot name (see [State.SlotName]), case-insensitively:
// a player's name names the card in front of that player now; in the 1st
// edition's variants the position is required ("Name.left").
func (t *board) ParseSlot(name string) (engine.Slot, error) {
	lower := strings.ToLower(name)
	rest, ok := strings.CutPrefix(lower, "centre")
	if !ok {
		rest, ok = strings.CutPrefix(lower, "center") // the American spelling works too
	}
	base := len(t.names) * t.per
	if ok {
		for i := range t.center {
			if rest == fmt.Sprint(i+1) {
				return engine.Slot(base + i), nil
			}
		}
		return 0, fmt.Errorf("%s: no %s slot %q (this table has %d)", t.ed.Game, t.ed.Text.Centre, name, t.center)
	}
	if !t.ed.Variants {
		p, err := t.SeatByName(name)
		if err != nil {
			return 0, err
		}
		return t.slotOf(p, 0), nil
	}
	player, pos, hasPos := strings.Cut(name, ".")
	seat, err := t.SeatByName(player)
	if err != nil {
		return 0, err
	}
	if t.per == 1 {
		if hasPos {
			return 0, fmt.Errorf("%s: slot %q: players have one card each here; name the player", t.ed.Game, name)
		}
		return t.slotOf(seat, 0), nil
	}
	if !hasPos {
		guard := ""
		if t.per == 3 {
			guard = ", .guard"
		}
		return 0, fmt.Errorf("%s: slot %q: say which card (%s.left, %s.right%s)", t.ed.Game, name, player, player, guard)
	}
	for i := range t.per {
		if strings.EqualFold(pos, posNames[i]) {
			return t.slotOf(seat, i), nil
		}
	}
	return 0, fmt.Errorf("%s: slot %q: no such card position", t.ed.Game, name)
}

// choosing returns the kind of choice the power being used takes, or 0
// outside the phase "use".
func (t *board) choosing() Choice {
	if t.core.Phase != PhaseUse {
		return 0
	}
	return t.ed.Choices[t.core.Claimed]
}

// HasSecretSwap reports whether move m, applied now, carries a secret
// swap bit: a swap, or the use of the Fool or the Spy.
func (t *board) HasSecretSwap(m engine.Move) bool {
	if m.Kind == KindSwap {
		return true
	}
	return m.Kind == KindUse && (t.choosing() == ChoiceFool || t.core.Phase == PhaseSpySwap)
}

// FormatMove returns the public text form of m, applied now, as a script
// line without the secret swap bit: "Anna swap Boris", "Boris claim
// King", "Sasha use between=Anna,Dima". [State.ParseMove] reads it back.
func (t *board) FormatMove(m engine.Move) string {
	if m.Seat < 0 || int(m.Seat) >= t.Players() {
		return fmt.Sprintf("seat(%d) %s %v", m.Seat, KindName(m.Kind), m.Args)
	}
	parts := []string{t.Name(m.Seat), KindName(m.Kind)}
	slot := func(i int) string { return t.SlotName(engine.Slot(m.Args[i])) }
	seat := func(i int) string {
		if m.Args[i] == NoTarget && t.ed.Choices[t.core.Claimed] == ChoicePurses {
			return "none"
		}
		if m.Args[i] < 0 || m.Args[i] >= t.Players() {
			return fmt.Sprintf("seat(%d)", m.Args[i])
		}
		return t.Name(engine.Seat(m.Args[i]))
	}
	std := t.per == 1
	use := t.choosing()
	if m.Kind != KindUse {
		use = 0
	}
	switch {
	case m.Kind == KindSwap && len(m.Args) == 2:
		if !std {
			parts = append(parts, slot(0))
		}
		parts = append(parts, slot(1))
	case m.Kind == KindPeek && len(m.Args) == 1:
		if !std {
			parts = append(parts, slot(0))
		}
	case m.Kind == KindClaim && len(m.Args) == 2:
		parts = append(parts, t.ed.Cards.Name(engine.Card(m.Args[0])))
		if !std {
			parts = append(parts, "with="+slot(1))
		}
	case m.Kind == KindChallenge && len(m.Args) == 1:
		if !std {
			parts = append(parts, "with="+slot(0))
		}
	case m.Kind == KindPass && len(m.Args) == 0:
	case m.Kind == KindGuess && len(m.Args) == 1:
		parts = append(parts, t.ed.Cards.Name(engine.Card(m.Args[0])))
	case use == ChoiceFool && len(m.Args) == 2:
		parts = append(parts, "between="+slot(0)+","+slot(1))
	case use == ChoiceSeats && len(m.Args) == 2:
		parts = append(parts, "between="+seat(0)+","+seat(1))
	case use == ChoiceSpy && len(m.Args) == 1:
		parts = append(parts, "with="+slot(0))
	case m.Kind == KindUse && t.core.Phase == PhaseSpySwap && len(m.Args) == 0:
	case m.Kind == KindUse && len(m.Args) == 1:
		parts = append(parts, "target="+seat(0))
	default:
		parts = append(parts, fmt.Sprint(m.Args))
	}
	return strings.Join(parts, " ")
}

// FormatLine is [State.FormatMove] plus the secret swap bit where the
// move has one ("yes"/"no" for a swap, "swap=yes"/"swap=no" for the Fool
// and the Spy): the form of a script line.
func (t *board) FormatLine(m engine.Move, swap bool) string {
	line := t.FormatMove(m)
	if !t.HasSecretSwap(m) {
		return line
	}
	return line + SwapSuffix(m.Kind, swap)
}

// ParseMove turns one script line's tokens (the verb and its arguments,
// without the seat name) said by player seatName into a move applicable
// now. It returns the secret swap bit separately ("yes" for a swap,
// "swap=yes" for the Fool and the Spy; false when absent). It checks the
// syntax and the names only; [State.Apply] checks the rules.
//
// In the 1st edition a line may name the own slot (swap MYSLOT TARGET,
// peek MYSLOT, claim CARD with=MYSLOT); in its variants an omitted own
// slot means the player's left card.
func (t *board) ParseMove(seatName string, tokens []string) (engine.Move, bool, error) {
	seat, err := t.SeatByName(seatName)
	if err != nil {
		return engine.Move{}, false, err
	}
	l, err := NewMoveLine(t.ed.Game, seatName, tokens)
	if err != nil {
		return engine.Move{}, false, err
	}
	args := l.Args
	m := engine.Move{Seat: seat}
	own := t.slotOf(seat, 0)
	named := t.ed.Variants // the own slot may be named
	ownSlot := func(name string) error {
		sl, err := t.ParseSlot(name)
		if err != nil {
			return err
		}
		if !t.owns(seat, sl) {
			return fmt.Errorf("%s: %s is not one of %s's cards", t.ed.Game, name, seatName)
		}
		own = sl
		return nil
	}
	bad := func(usage string) (engine.Move, bool, error) { return engine.Move{}, false, l.Bad(usage) }
	switch l.Verb {
	case "swap":
		m.Kind = KindSwap
		bit, err := l.SwapBit()
		if err != nil {
			return engine.Move{}, false, err
		}
		args = l.Args
		if named && len(args) == 2 {
			if err := ownSlot(args[0]); err != nil {
				return engine.Move{}, false, err
			}
			args = args[1:]
		} else if len(args) != 1 || t.per != 1 {
			if t.per != 1 {
				return bad("swap MYSLOT TARGET yes|no")
			}
			return bad("swap TARGET yes|no")
		}
		to, err := t.ParseSlot(args[0])
		if err != nil {
			return engine.Move{}, false, err
		}
		m.Args = []int{int(own), int(to)}
		return m, bit, nil
	case "peek":
		m.Kind = KindPeek
		switch {
		case !named && len(args) != 0:
			return bad("peek")
		case len(args) > 1:
			return bad("peek [MYSLOT]")
		case len(args) == 1:
			if err := ownSlot(args[0]); err != nil {
				return engine.Move{}, false, err
			}
		}
		m.Args = []int{int(own)}
		return m, false, nil
	case "claim", "challenge":
		want, usage := 0, l.Verb
		if l.Verb == "claim" {
			m.Kind, want = KindClaim, 1
			usage += " " + strings.ToUpper(t.ed.Cards.Noun)
		} else {
			m.Kind = KindChallenge
		}
		var kv map[string]string
		pos := args
		if named {
			usage += " [with=MYSLOT]"
			if kv, pos, err = SplitKV(args, "with"); err != nil {
				return bad(usage)
			}
		}
		if len(pos) != want {
			return bad(usage)
		}
		if w, ok := kv["with"]; ok {
			if err := ownSlot(w); err != nil {
				return engine.Move{}, false, err
			}
		}
		if want == 1 {
			c, err := t.ed.Cards.Parse(pos[0])
			if err != nil {
				return engine.Move{}, false, err
			}
			m.Args = []int{int(c), int(own)}
		} else {
			m.Args = []int{int(own)}
		}
		return m, false, nil
	case "use":
		return t.parseUse(m, seatName, args)
	}
	return l.Common(m, t.ed.Cards)
}

// parseUse parses "use KEY=VALUE..." against the power being resolved.
func (t *board) parseUse(m engine.Move, seatName string, args []string) (engine.Move, bool, error) {
	m.Kind = KindUse
	u := &UseLine{Game: t.ed.Game, Seat: seatName}
	bit, done, err := u.Parse(t.core.Phase, args)
	if err != nil {
		return engine.Move{}, false, err
	}
	if done {
		return m, bit, nil
	}
	slot := func(v string) (int, error) { sl, err := t.ParseSlot(v); return int(sl), err }
	seat := func(v string) (int, error) { p, err := t.SeatByName(v); return int(p), err }
	power := t.ed.Cards.Name(t.core.Claimed)
	switch choice := t.ed.Choices[t.core.Claimed]; choice {
	case ChoiceFool:
		m.Args, err = u.Pair(power, "SLOT", slot)
	case ChoiceSeats:
		m.Args, err = u.Pair(power, "NAME", seat)
	case ChoiceSpy:
		m.Args, err = u.With(t.ed.Text.SpyArg, slot)
	default:
		m.Args, err = u.Target(power, choice == ChoicePurses, NoTarget, seat)
		bit = false
	}
	if err != nil {
		return engine.Move{}, false, err
	}
	return m, bit, nil
}
