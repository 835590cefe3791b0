package grimm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Script is a parsed scripted table:
//
//	# comments start with '#'
//	game grimm players=Kristina,Alexander,Maria [variants=bets,jewels]
//	round 1 chars=RedRidingHood,EvilQueen,Beast items=GlassSlipper,Crown,Mirror,Clock,Treats actions=toast,dance first=Kristina
//	Kristina pick GlassSlipper
//	Alexander pick Crown
//	random Boris=Crown         # what the next coin's random picks must give
//	expect roses=Kristina:1 tokens=Maria:Beast unmasked=Alexander
//
// A round line fixes what the table deals in that round (all keys
// optional): chars= the characters in character-slot order (the seats'
// first, one each, or two each with 2 players; the rest of the 8 go to the
// character deck in card order unless listed too), items= the top of the
// item deck, top first (the draft row is the first players+2, or 6 with 2
// players; the rest of the 48 follow in canonical order), actions= the
// round's two action cards, first= the round's first player. A random line
// fixes what the next Dance or Exchange coin gives: NAME=ITEM for the item
// each named seat passes (for an Exchange, the target's two items as
// NAME=ITEM,ITEM). The table running the script (package grimmtest)
// deals accordingly and searches coins with [State.PreviewCoin] until one
// gives the wanted outcome. Every other line is SEAT VERB ARGS
// ([ParseMove]) or an expect line, checked by the runner.
type Script struct {
	Options Options
	Rounds  map[int]RoundSpec
	Lines   []ScriptLine
}

// RoundSpec fixes one round's deal in a script; nil or empty fields are
// left to chance.
type RoundSpec struct {
	Chars   []engine.Card
	Items   []engine.Card
	Actions []Action
	First   string
}

// ScriptLine is one line of a script after the header and round lines.
type ScriptLine struct {
	LineNo int
	Seat   string   // the acting player ("" for random and expect lines)
	Verb   string   // "random", "expect", or a move's verb
	Tokens []string // the arguments (for a move, the verb first)
}

// ScriptError is an error tied to a line of a script.
type ScriptError struct {
	Line int
	Err  error
}

// Error names the line.
func (e *ScriptError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *ScriptError) Unwrap() error { return e.Err }

// MaxScriptLines bounds the work a hostile script can cause.
const MaxScriptLines = 1 << 16

// ParseScript parses a script. It checks the header and the round lines;
// the moves are checked when played.
func ParseScript(src []byte) (*Script, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	var out *Script
	lineNo := 0
	for sc.Scan() {
		lineNo++
		if lineNo > MaxScriptLines {
			return nil, &ScriptError{lineNo, errors.New("script too long")}
		}
		line := sc.Text()
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if out == nil {
			s, err := parseHeader(f)
			if err != nil {
				return nil, &ScriptError{lineNo, err}
			}
			out = s
			continue
		}
		switch strings.ToLower(f[0]) {
		case "round":
			if err := out.parseRound(f[1:]); err != nil {
				return nil, &ScriptError{lineNo, err}
			}
		case "random", "expect":
			out.Lines = append(out.Lines, ScriptLine{LineNo: lineNo, Verb: strings.ToLower(f[0]), Tokens: f[1:]})
		default:
			if len(f) < 2 {
				return nil, &ScriptError{lineNo, fmt.Errorf("expected SEAT VERB ARGS, got %q", line)}
			}
			if !out.hasPlayer(f[0]) {
				return nil, &ScriptError{lineNo, fmt.Errorf("no player named %q", f[0])}
			}
			out.Lines = append(out.Lines, ScriptLine{LineNo: lineNo, Seat: f[0], Verb: strings.ToLower(f[1]), Tokens: f[1:]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &ScriptError{lineNo + 1, err}
	}
	if out == nil {
		return nil, &ScriptError{lineNo, errors.New("missing header: game grimm players=...")}
	}
	return out, nil
}

func (s *Script) hasPlayer(name string) bool {
	for _, p := range s.Options.Players {
		if strings.EqualFold(p, name) {
			return true
		}
	}
	return false
}

const headerUsage = "game grimm players=NAMES [variants=bets,jewels]"

func parseHeader(f []string) (*Script, error) {
	if len(f) < 2 || !strings.EqualFold(f[0], "game") || !strings.EqualFold(f[1], GameName) {
		return nil, errors.New("the first line must be: " + headerUsage)
	}
	s := &Script{Rounds: map[int]RoundSpec{}}
	seen := map[string]bool{}
	for _, kv := range f[2:] {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.ToLower(k)
		if !ok || v == "" {
			return nil, fmt.Errorf("header: expected KEY=VALUE, got %q", kv)
		}
		if seen[k] {
			return nil, fmt.Errorf("header: %s given twice", k)
		}
		seen[k] = true
		switch k {
		case "players":
			s.Options.Players = strings.Split(v, ",")
		case "variants":
			for _, x := range strings.Split(strings.ToLower(v), ",") {
				switch x {
				case "bets":
					s.Options.Bets = true
				case "jewels":
					s.Options.Jewels = true
				case "abilities":
					s.Options.Abilities = true
				default:
					return nil, fmt.Errorf("header: unknown variant %q (bets, jewels, abilities)", x)
				}
			}
		default:
			return nil, fmt.Errorf("header: unknown key %q (players, variants)", k)
		}
	}
	if len(s.Options.Players) == 0 {
		return nil, errors.New("header: players= is required")
	}
	if err := s.Options.Normalize().Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	return s, nil
}

func (s *Script) parseRound(f []string) error {
	if len(f) == 0 {
		return errors.New("round: want round N KEY=VALUE...")
	}
	r, err := strconv.Atoi(f[0])
	if err != nil || r < 1 || r > Rounds {
		return fmt.Errorf("round: bad round number %q", f[0])
	}
	if _, dup := s.Rounds[r]; dup {
		return fmt.Errorf("round %d given twice", r)
	}
	var spec RoundSpec
	n := len(s.Options.Players)
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return fmt.Errorf("round: expected KEY=VALUE, got %q", kv)
		}
		list := strings.Split(v, ",")
		switch strings.ToLower(k) {
		case "chars":
			var used [NumKinds]bool
			for _, x := range list {
				c, err := ParseCharacter(x)
				if err != nil {
					return fmt.Errorf("round: %w", err)
				}
				if used[c] {
					return fmt.Errorf("round: %s dealt twice", CardName(c))
				}
				used[c] = true
				spec.Chars = append(spec.Chars, c)
			}
			seats := n
			if n == 2 {
				seats = 4
			}
			if len(spec.Chars) < seats {
				return fmt.Errorf("round: chars= names %d characters, the seats hold %d", len(spec.Chars), seats)
			}
		case "items":
			var cnt [NumKinds]int
			for _, x := range list {
				it, err := ParseItem(x)
				if err != nil {
					return fmt.Errorf("round: %w", err)
				}
				if cnt[it]++; cnt[it] > ItemCopies {
					return fmt.Errorf("round: more than %d %s", ItemCopies, CardName(it))
				}
				spec.Items = append(spec.Items, it)
			}
		case "actions":
			if len(list) != 2 {
				return errors.New("round: actions= names two action cards")
			}
			for _, x := range list {
				a, err := ParseAction(x)
				if err != nil || a == MaskOff {
					return fmt.Errorf("round: bad action card %q", x)
				}
				spec.Actions = append(spec.Actions, a)
			}
			if spec.Actions[0] == spec.Actions[1] {
				return errors.New("round: the two action cards must differ")
			}
		case "first":
			if !s.hasPlayer(v) {
				return fmt.Errorf("round: no player named %q", v)
			}
			spec.First = v
		default:
			return fmt.Errorf("round: unknown key %q (chars, items, actions, first)", k)
		}
	}
	s.Rounds[r] = spec
	return nil
}

// FullChars completes a round's chars= list to all 8 character slots: the
// listed ones first, then the others in card order.
func FullChars(listed []engine.Card) []engine.Card {
	out := append([]engine.Card(nil), listed...)
	for _, c := range Characters() {
		if !containsCard(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// FullItems completes an items= list to the whole deck of 48: the listed
// ones first, then the rest in canonical order.
func FullItems(listed []engine.Card) []engine.Card {
	var left [NumKinds]int
	for _, it := range Items() {
		left[it] = ItemCopies
	}
	out := append([]engine.Card(nil), listed...)
	for _, it := range listed {
		left[it]--
	}
	for _, it := range Items() {
		for range left[it] {
			out = append(out, it)
		}
	}
	return out
}

func containsCard(v []engine.Card, c engine.Card) bool {
	for _, x := range v {
		if x == c {
			return true
		}
	}
	return false
}
