package masquerade

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// ScriptLine is one action line of a script.
type ScriptLine struct {
	LineNo   int      // 1-based line number in the source
	SeatName string   // the acting player, as written
	Tokens   []string // the verb and its arguments
}

// ScriptError is an error tied to a line of a script (the contract's).
type ScriptError = games.ScriptError

// MaxScriptLines bounds the work a hostile script can cause.
const MaxScriptLines = 1 << 20

// ParseLines tokenises a script: '#' starts a comment, blank lines are
// skipped, the first non-blank line is the header and every later line is
// SEAT VERB ARGS. header gets the header's fields and returns the player
// names, against which every line's seat is checked case-insensitively.
// game names the game in the "missing header" error. Errors are
// *[ScriptError] values naming the line.
func ParseLines(src []byte, game string, header func(fields []string) ([]string, error)) ([]ScriptLine, error) {
	var players []string
	var lines []ScriptLine
	err := games.ScanScript(src, MaxScriptLines, "game "+game+" players=...", func(fields []string) error {
		p, err := header(fields)
		players = p
		return err
	}, func(no int, text string, fields []string) error {
		if err := games.SeatLine(players, fields, text); err != nil {
			return err
		}
		lines = append(lines, ScriptLine{LineNo: no, SeatName: fields[0], Tokens: fields[1:]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return lines, nil
}

// HeaderPairs is [games.HeaderPairs].
func HeaderPairs(fields []string, game, usage string, set func(key, value string) error) error {
	return games.HeaderPairs(fields, game, usage, set)
}

// SameCards reports whether a and b hold the same cards, in any order.
func SameCards(a, b []engine.Card) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// SplitKV splits tokens into KEY=VALUE pairs (keys among allowed, each at
// most once, lower-cased) and positional tokens.
func SplitKV(tokens []string, allowed ...string) (map[string]string, []string, error) {
	kv := map[string]string{}
	var pos []string
	for _, t := range tokens {
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			pos = append(pos, t)
			continue
		}
		k = strings.ToLower(k)
		if !slices.Contains(allowed, k) {
			return nil, nil, fmt.Errorf("unknown key %q", k)
		}
		if _, dup := kv[k]; dup {
			return nil, nil, fmt.Errorf("key %q given twice", k)
		}
		kv[k] = v
	}
	return kv, pos, nil
}

// HasSwapToken reports whether a script line's tokens carry a swap=
// argument (the Spy's "use with=... swap=yes" plays the look and the swap
// from one line).
func HasSwapToken(tokens []string) bool {
	for _, t := range tokens {
		if strings.HasPrefix(strings.ToLower(t), "swap=") {
			return true
		}
	}
	return false
}

// Responds reports whether a script line's tokens answer a claim (the
// verb is challenge or pass).
func Responds(tokens []string) bool {
	if len(tokens) == 0 {
		return false
	}
	v := strings.ToLower(tokens[0])
	return v == "challenge" || v == "pass"
}

// SwapSuffix returns what a script line adds for a secret swap bit: " yes"
// or " no" after a swap, " swap=yes" or " swap=no" after a use.
func SwapSuffix(kind uint8, swap bool) string {
	yn := map[bool]string{true: "yes", false: "no"}[swap]
	if kind == KindSwap {
		return " " + yn
	}
	return " swap=" + yn
}

// CommonHeader holds the header keys every edition takes: players=NAMES,
// deal=CARDS, set=CARDS and coins=N.
type CommonHeader struct {
	Players []string
	Deal    []engine.Card
	Set     []engine.Card
	Coins   int
}

// Key takes one of the common keys (see [HeaderPairs]), parsing card lists
// with parse. It reports whether k was one of them.
func (h *CommonHeader) Key(k, v string, parse func(string) ([]engine.Card, error)) (bool, error) {
	var err error
	switch k {
	case "players":
		h.Players = strings.Split(v, ",")
	case "deal":
		h.Deal, err = parse(v)
	case "set":
		h.Set, err = parse(v)
	case "coins":
		n, perr := strconv.Atoi(v)
		switch {
		case perr != nil:
			err = fmt.Errorf("coins=%s: want a whole number of coins", v)
		case n <= 0:
			err = fmt.Errorf("coins=%s: must be positive", v)
		}
		h.Coins = n
	default:
		return false, nil
	}
	return true, err
}

// Read reads a header's KEY=VALUE pairs (see [HeaderPairs]) into h: the
// common keys, card lists parsed with parse, and the edition's own keys
// with other. players= is required.
func (h *CommonHeader) Read(fields []string, game, usage string, parse func(string) ([]engine.Card, error), other func(k, v string) error) error {
	err := HeaderPairs(fields, game, usage, func(k, v string) error {
		if ok, err := h.Key(k, v, parse); ok {
			return err
		}
		return other(k, v)
	})
	if err != nil {
		return err
	}
	if len(h.Players) == 0 {
		return errors.New("header: players= is required")
	}
	return nil
}
