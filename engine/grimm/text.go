package grimm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

var kindNames = map[uint8]string{
	KindPick: "pick", KindKeep: "keep", KindGive: "give", KindAct: "act", KindEnd: "end",
	KindHint: "hint", KindUnmask: "unmask", KindWin: "win", KindCommit: "commit", KindBet: "bet",
	KindDraw: "draw", KindChoose: "choose",
}

// KindName returns the script verb of a move kind.
func KindName(k uint8) string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", k)
}

// slotSide names a 2-player seat's character slot: "left" (2p) or
// "right" (2p+1).
func slotSide(sl engine.Slot) string {
	if sl%2 == 0 {
		return "left"
	}
	return "right"
}

func wordsHex(w []int) string {
	b := make([]byte, 0, 2*len(w))
	for _, x := range w {
		b = append(b, byte(x>>8), byte(x))
	}
	return hex.EncodeToString(b)
}

// FormatMove returns the public text form of m, applied to s, as a script
// line: "Anna give Boris", "Boris act maskoff Crown Anna Beast",
// "Anna hint Beast". [ParseMove] reads it back.
func FormatMove(s *State, m engine.Move) string {
	parts := []string{s.Name(m.Seat), KindName(m.Kind)}
	seat := func(x int) string { return s.Name(engine.Seat(x)) }
	card := func(x int) string { return CardName(engine.Card(x)) }
	a := m.Args
	switch {
	case m.Kind == KindPick && len(a) == 1:
		parts = append(parts, card(a[0]))
	case (m.Kind == KindKeep || m.Kind == KindEnd || m.Kind == KindDraw) && len(a) == 0:
	case m.Kind == KindChoose && len(a) == 1:
		parts = append(parts, card(a[0]))
	case m.Kind == KindGive && len(a) == 1:
		parts = append(parts, seat(a[0]))
	case m.Kind == KindGive && len(a) == 2 && s.phase == phHandGive:
		parts = append(parts, seat(a[0]), "slot="+strconv.Itoa(a[1]))
	case m.Kind == KindGive && len(a) == 2:
		parts = append(parts, seat(a[0]), seat(a[1]))
	case m.Kind == KindAct && len(a) >= 3:
		act := Action(a[0])
		parts = append(parts, act.String())
		it := card(a[1])
		if a[2] == 1 {
			it = "jewel+" + it
		}
		parts = append(parts, it)
		rest := a[3:]
		switch {
		case act == MaskOff && len(rest) == 2:
			parts = append(parts, seat(rest[0]), card(rest[1]))
		case act == Eavesdrop && len(rest) >= 1:
			for _, x := range rest {
				parts = append(parts, seat(x))
			}
		case act == Dance && len(rest) == 2:
			dir := "left"
			if rest[0] == -1 {
				dir = "right"
			}
			parts = append(parts, dir, card(rest[1]))
		case act == Exchange && len(rest) == 2:
			parts = append(parts, seat(rest[0]), card(rest[1]))
		case len(rest) == 0:
		default:
			parts = append(parts, fmt.Sprint(rest))
		}
	case m.Kind == KindHint && len(a) == 1:
		parts = append(parts, card(a[0]))
	case m.Kind == KindHint && len(a) == 1+NonceWords:
		parts = append(parts, card(a[0]), "nonce="+wordsHex(a[1:]))
	case (m.Kind == KindUnmask || m.Kind == KindWin) && len(a) == 0:
	case (m.Kind == KindUnmask || m.Kind == KindWin) && len(a) == 1:
		if s.n == 2 {
			parts = append(parts, slotSide(engine.Slot(a[0])))
		}
	case m.Kind == KindCommit && len(a) == CommitWords:
		parts = append(parts, wordsHex(a))
	case m.Kind == KindBet && len(a) <= 1:
		if len(a) == 1 {
			parts = append(parts, strconv.Itoa(a[0]))
		}
	default:
		parts = append(parts, fmt.Sprint(a))
	}
	return strings.Join(parts, " ")
}

// ScriptNonce is the nonce a script uses for a seat's Eavesdrop
// commitment ("commit CHARACTER" and the plain "hint CHARACTER" that opens
// it): the first 16 bytes of SHA-256("masque/grimm/script-nonce/v1" ||
// u8 seat || u8 round).
// It is predictable, so only scripts use it; a real client draws a
// random nonce.
func ScriptNonce(p engine.Seat, round int) [16]byte {
	h := sha256.Sum256(append([]byte("masque/grimm/script-nonce/v1"), byte(p), byte(round)))
	return [16]byte(h[:16])
}

// parseWords reads k 16-bit words written as 4k hex digits.
func parseWords(s string, k int) ([]int, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 2*k {
		return nil, fmt.Errorf("want %d hex digits, got %q", 4*k, s)
	}
	out := make([]int, k)
	for i := range out {
		out[i] = int(b[2*i])<<8 | int(b[2*i+1])
	}
	return out, nil
}

// ParseMove reads a move by seat p from a script line's tokens (the verb
// and its arguments), against state s (the phase decides some forms):
//
//	pick ITEM
//	keep
//	give NAME | give NAME NAME (Toast) | give NAME slot=N (unmasked)
//	act maskoff ITEM NAME CHARACTER
//	act eavesdrop ITEM NAME [NAME]
//	act guestlist|toast|search|learnsecret ITEM
//	act dance ITEM left|right ITEM2
//	act exchange ITEM NAME ITEM2
//	end
//	hint CHARACTER [nonce=HEX]
//	unmask [left|right]     win [left|right]
//	commit HEX | commit CHARACTER   (the script nonce, see ScriptNonce)
//	bet [SLOT]
//	draw                    (an ability's optional draw; end declines it)
//	choose CHARACTER        (2 players: the ability card)
//
// ITEM may be jewel+ITEM: pay with the jewel and one ITEM.
func ParseMove(s *State, p engine.Seat, tokens []string) (engine.Move, error) {
	m := engine.Move{Seat: p}
	if len(tokens) == 0 {
		return m, errors.New("missing verb")
	}
	verb, args := strings.ToLower(tokens[0]), tokens[1:]
	want := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return fmt.Errorf("%s: want %d to %d arguments, got %d", verb, lo, hi, len(args))
		}
		return nil
	}
	seat := func(x string) (int, error) {
		q, err := s.SeatByName(x)
		return int(q), err
	}
	side := func() error {
		if len(args) == 0 {
			return nil
		}
		var sl engine.Slot
		switch strings.ToLower(args[0]) {
		case "left":
			sl = s.CharSlotsOf(p)[0]
		case "right":
			if s.n != 2 {
				return errors.New("only 2-player seats have a right character")
			}
			sl = s.CharSlotsOf(p)[1]
		default:
			return fmt.Errorf("%s: want left or right, got %q", verb, args[0])
		}
		m.Args = []int{int(sl)}
		return nil
	}
	var err error
	switch verb {
	case "pick":
		m.Kind = KindPick
		if err = want(1, 1); err == nil {
			var it engine.Card
			it, err = ParseItem(args[0])
			m.Args = []int{int(it)}
		}
	case "keep", "end", "draw":
		m.Kind = map[string]uint8{"keep": KindKeep, "end": KindEnd, "draw": KindDraw}[verb]
		err = want(0, 0)
	case "choose":
		m.Kind = KindChoose
		if err = want(1, 1); err == nil {
			var c engine.Card
			c, err = ParseCharacter(args[0])
			m.Args = []int{int(c)}
		}
	case "give":
		m.Kind = KindGive
		if err = want(1, 2); err != nil {
			break
		}
		for _, x := range args {
			if v, ok := strings.CutPrefix(strings.ToLower(x), "slot="); ok {
				n, perr := strconv.Atoi(v)
				if perr != nil {
					return m, fmt.Errorf("give: bad slot %q", v)
				}
				m.Args = append(m.Args, n)
				continue
			}
			q, serr := seat(x)
			if serr != nil {
				return m, serr
			}
			m.Args = append(m.Args, q)
		}
	case "act":
		m.Kind = KindAct
		m.Args, err = parseAct(s, args, seat)
	case "hint":
		m.Kind = KindHint
		if err = want(1, 2); err != nil {
			break
		}
		var c engine.Card
		if c, err = ParseCharacter(args[0]); err != nil {
			break
		}
		m.Args = []int{int(c)}
		switch {
		case len(args) == 2:
			v, ok := strings.CutPrefix(strings.ToLower(args[1]), "nonce=")
			if !ok {
				return m, fmt.Errorf("hint: want nonce=HEX, got %q", args[1])
			}
			var w []int
			if w, err = parseWords(v, NonceWords); err == nil {
				m.Args = append(m.Args, w...)
			}
		case s.phase == phRespond && int(p) < len(s.commit) && s.commit[p]:
			m.Args = append(m.Args, NonceArgs(ScriptNonce(p, s.round))...)
		}
	case "unmask", "win":
		m.Kind = KindUnmask
		if verb == "win" {
			m.Kind = KindWin
		}
		if err = want(0, 1); err == nil {
			err = side()
		}
		if mine := s.MaskedSlots(p); len(args) == 0 && len(mine) == 1 {
			m.Args = []int{int(mine[0])}
		}
	case "commit":
		m.Kind = KindCommit
		if err = want(1, 1); err != nil {
			break
		}
		if c, cerr := ParseCharacter(args[0]); cerr == nil {
			m.Args = CommitArgs(CommitHash(p, c, NonceArgs(ScriptNonce(p, s.round))))
		} else {
			m.Args, err = parseWords(args[0], CommitWords)
		}
	case "bet":
		m.Kind = KindBet
		if err = want(0, 1); err == nil && len(args) == 1 {
			var n int
			n, err = strconv.Atoi(args[0])
			m.Args = []int{n}
		}
	default:
		err = fmt.Errorf("unknown verb %q (pick, keep, give, act, end, hint, unmask, win, commit, bet, draw, choose)", verb)
	}
	return m, err
}

func parseAct(s *State, args []string, seat func(string) (int, error)) ([]int, error) {
	if len(args) < 2 {
		return nil, errors.New("act: want ACTION ITEM [ARGS]")
	}
	a, err := ParseAction(args[0])
	if err != nil {
		return nil, err
	}
	jewel := 0
	itName := args[1]
	if v, ok := strings.CutPrefix(strings.ToLower(itName), "jewel+"); ok {
		jewel, itName = 1, v
	}
	it, err := ParseItem(itName)
	if err != nil {
		return nil, err
	}
	out := []int{int(a), int(it), jewel}
	rest := args[2:]
	bad := func(usage string) error { return fmt.Errorf("act %s: want %s", a, usage) }
	switch a {
	case MaskOff:
		if len(rest) != 2 {
			return nil, bad("ITEM NAME CHARACTER")
		}
		q, err := seat(rest[0])
		if err != nil {
			return nil, err
		}
		c, err := ParseCharacter(rest[1])
		if err != nil {
			return nil, err
		}
		return append(out, q, int(c)), nil
	case Eavesdrop:
		if len(rest) < 1 || len(rest) > 2 {
			return nil, bad("ITEM NAME [NAME]")
		}
		for _, x := range rest {
			q, err := seat(x)
			if err != nil {
				return nil, err
			}
			out = append(out, q)
		}
		return out, nil
	case Dance, Exchange:
		if len(rest) != 2 {
			if a == Dance {
				return nil, bad("ITEM left|right ITEM")
			}
			return nil, bad("ITEM NAME ITEM")
		}
		var first int
		if a == Dance {
			switch strings.ToLower(rest[0]) {
			case "left":
				first = 1
			case "right":
				first = -1
			default:
				return nil, bad("ITEM left|right ITEM")
			}
		} else if first, err = seat(rest[0]); err != nil {
			return nil, err
		}
		g, err := ParseItem(rest[1])
		if err != nil {
			return nil, err
		}
		return append(out, first, int(g)), nil
	}
	if len(rest) != 0 {
		return nil, bad("ITEM")
	}
	return out, nil
}
