package masquerade

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
)

// UseLine reads the arguments of one "use KEY=VALUE..." script line of a
// game: Game is the error prefix, Seat the name of the seat playing.
type UseLine struct {
	Game, Seat string
	KV         map[string]string // the KEY=VALUE pairs, once [UseLine.Parse] succeeded
}

func (u *UseLine) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: %s use: %s", u.Game, u.Seat, fmt.Sprintf(format, args...))
}

// Parse reads the pairs (keys target, between, swap, with) and the swap
// bit. In [PhaseSpySwap] the line is the Spy's decision, swap=yes|no
// alone, and done is true; otherwise a power must be waiting for a choice
// ([PhaseUse]) and the game reads the other keys.
func (u *UseLine) Parse(phase Phase, args []string) (swap, done bool, err error) {
	kv, pos, err := SplitKV(args, "target", "between", "swap", "with")
	if err != nil {
		return false, false, fmt.Errorf("%s: %s use: %w", u.Game, u.Seat, err)
	}
	if len(pos) > 0 {
		return false, false, u.errorf("expected KEY=VALUE, got %q", pos[0])
	}
	u.KV = kv
	if v, ok := kv["swap"]; ok {
		switch strings.ToLower(v) {
		case "yes":
			swap = true
		case "no":
		default:
			return false, false, u.errorf("swap=%s: want yes or no", v)
		}
	}
	if phase == PhaseSpySwap {
		if _, ok := kv["swap"]; !ok || len(kv) != 1 {
			return false, false, u.errorf("the Spy has looked: say swap=yes or swap=no")
		}
		return swap, true, nil
	}
	if phase != PhaseUse {
		return false, false, u.errorf("no power is waiting for a choice")
	}
	return swap, false, nil
}

// Pair reads between=X,Y for power, each parsed by parse; what names X
// and Y in errors (SLOT, NAME).
func (u *UseLine) Pair(power, what string, parse func(string) (int, error)) ([]int, error) {
	v, ok := u.KV["between"]
	a, b, pair := strings.Cut(v, ",")
	if !ok || !pair {
		return nil, u.errorf("the %s needs between=%s,%s", power, what, what)
	}
	x, err := parse(a)
	if err != nil {
		return nil, err
	}
	y, err := parse(b)
	if err != nil {
		return nil, err
	}
	return []int{x, y}, nil
}

// With reads the Spy's with=X (or target=X), parsed by parse; what names
// X in errors.
func (u *UseLine) With(what string, parse func(string) (int, error)) ([]int, error) {
	v, ok := u.KV["with"]
	if !ok {
		v, ok = u.KV["target"]
	}
	if !ok {
		return nil, u.errorf("the Spy needs with=%s", what)
	}
	t, err := parse(v)
	if err != nil {
		return nil, err
	}
	return []int{t}, nil
}

// Target reads power's target=NAME, parsed by seat; with none, the power
// may also say target=none, read as noTarget.
func (u *UseLine) Target(power string, none bool, noTarget int, seat func(string) (int, error)) ([]int, error) {
	v, ok := u.KV["target"]
	if !ok {
		return nil, u.errorf("the %s needs target=NAME", power)
	}
	if none && strings.EqualFold(v, "none") {
		return []int{noTarget}, nil
	}
	t, err := seat(v)
	if err != nil {
		return nil, err
	}
	return []int{t}, nil
}

// MoveLine is one script line being read into a move: the verb and its
// arguments, said by the player Seat.
type MoveLine struct {
	Game, Seat string
	Tokens     []string // the verb and its arguments, as written
	Verb       string   // in lower case
	Args       []string
}

// NewMoveLine splits a line's tokens into the verb and its arguments.
func NewMoveLine(game, seatName string, tokens []string) (*MoveLine, error) {
	if len(tokens) == 0 {
		return nil, fmt.Errorf("%s: %s: missing verb", game, seatName)
	}
	return &MoveLine{Game: game, Seat: seatName, Tokens: tokens, Verb: strings.ToLower(tokens[0]), Args: tokens[1:]}, nil
}

// Bad returns the line's usage error.
func (l *MoveLine) Bad(usage string) error {
	return fmt.Errorf("%s: %s %s: usage: %s", l.Game, l.Seat, strings.Join(l.Tokens, " "), usage)
}

// SwapBit takes the trailing yes or no off Args, the secret bit of a swap
// (yes: exchange the cards; no: only pretend to). It is required, and it
// is always the last word, so a player called Yes or No is still a
// target: "swap No yes".
func (l *MoveLine) SwapBit() (bool, error) {
	n := len(l.Args)
	if n == 0 {
		return false, l.Bad("swap TARGET yes|no")
	}
	switch strings.ToLower(l.Args[n-1]) {
	case "yes":
		l.Args = l.Args[:n-1]
		return true, nil
	case "no":
		l.Args = l.Args[:n-1]
		return false, nil
	}
	return false, fmt.Errorf("%s: %s %s: a swap ends with yes (exchange the cards) or no (only pretend to), got %q",
		l.Game, l.Seat, strings.Join(l.Tokens, " "), l.Args[n-1])
}

// Common reads into m the verbs every game writes the same way, pass and
// guess (a card of cat), and rejects an unknown verb.
func (l *MoveLine) Common(m engine.Move, cat *Catalogue) (engine.Move, bool, error) {
	switch l.Verb {
	case "pass":
		if len(l.Args) != 0 {
			return engine.Move{}, false, l.Bad("pass")
		}
		m.Kind = KindPass
		return m, false, nil
	case "guess":
		if len(l.Args) != 1 {
			return engine.Move{}, false, l.Bad("guess " + strings.ToUpper(cat.Noun))
		}
		c, err := cat.Parse(l.Args[0])
		if err != nil {
			return engine.Move{}, false, err
		}
		m.Kind, m.Args = KindGuess, []int{int(c)}
		return m, false, nil
	}
	return engine.Move{}, false, fmt.Errorf("%s: %s: unknown verb %q (swap, peek, claim, challenge, pass, use, guess)", l.Game, l.Seat, l.Tokens[0])
}
