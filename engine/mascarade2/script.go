package mascarade2

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Script is a parsed scripted table:
//
//	# comments start with '#'
//	game mascarade2 players=Anna,Boris,Sasha,Dima deal=Empress,Thief,King,Judge,Spy,Swindler
//	Anna swap Boris yes
//	Dima claim King
//	Anna challenge
//
// The header takes players=NAMES and optionally one of scenario=NAME|FILE
// (a built-in scenario, [ScenarioNames], or a scenario file read by the
// caller's loader) and set=MASKS (a custom list of masks, checked like a
// scenario), deal=MASKS (one per slot, in slot order: the players' cards,
// then the middle) and coins=N. Without scenario= and set=, the masks are
// the deal's, or else the default scenario for the player count. Each later
// line is SEAT VERB ARGS; lines are turned into moves against a state with
// [ParseMove].
type Script struct {
	Options  Options       // as given (not normalized); Set is the scenario's or the deal's masks when given so
	Scenario string        // the scenario's name, "" without scenario=
	Deal     []engine.Card // nil: the deal is random, drawn by the table
	Lines    []ScriptLine
}

// ScriptLine is one action line of a script.
type ScriptLine struct {
	LineNo   int      // 1-based line number in the source
	SeatName string   // the acting player, as written
	Tokens   []string // the verb and its arguments
}

// ScriptError is an error tied to a line of a script.
type ScriptError struct {
	Line int
	Err  error
}

func (e *ScriptError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *ScriptError) Unwrap() error { return e.Err }

// ScenarioLoader returns the contents of a scenario file named in a
// script header (scenario=FILE). The pure engine reads no files: the
// caller decides where the name points.
type ScenarioLoader func(name string) ([]byte, error)

// maxScriptLines bounds the work a hostile script can cause.
const maxScriptLines = 1 << 20

// ParseScript parses a script. It checks the header's options against the
// book's constraints and that every line names a player; the moves
// themselves are checked when played. load reads scenario files named by
// scenario=FILE when FILE is not a built-in scenario; it may be nil (then
// only built-in scenarios are known).
func ParseScript(src []byte, load ScenarioLoader) (*Script, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	var out *Script
	lineNo := 0
	for sc.Scan() {
		lineNo++
		if lineNo > maxScriptLines {
			return nil, &ScriptError{lineNo, errors.New("script too long")}
		}
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if out == nil {
			s, err := parseHeader(fields, load)
			if err != nil {
				return nil, &ScriptError{lineNo, err}
			}
			out = s
			continue
		}
		if len(fields) < 2 {
			return nil, &ScriptError{lineNo, fmt.Errorf("expected SEAT VERB ARGS, got %q", line)}
		}
		if !slices.ContainsFunc(out.Options.Players, func(p string) bool { return strings.EqualFold(p, fields[0]) }) {
			return nil, &ScriptError{lineNo, fmt.Errorf("no player named %q", fields[0])}
		}
		out.Lines = append(out.Lines, ScriptLine{LineNo: lineNo, SeatName: fields[0], Tokens: fields[1:]})
	}
	if err := sc.Err(); err != nil {
		return nil, &ScriptError{lineNo + 1, err}
	}
	if out == nil {
		return nil, &ScriptError{lineNo, errors.New("missing header: game mascarade2 players=...")}
	}
	return out, nil
}

const headerUsage = "game mascarade2 players=NAMES [scenario=NAME|FILE | set=MASKS] [deal=MASKS] [coins=N]"

func parseHeader(fields []string, load ScenarioLoader) (*Script, error) {
	if len(fields) < 2 || fields[0] != "game" || !strings.EqualFold(fields[1], GameName) {
		return nil, errors.New("the first line must be: " + headerUsage)
	}
	s := &Script{}
	seen := map[string]bool{}
	scenario := ""
	for _, f := range fields[2:] {
		k, v, ok := strings.Cut(f, "=")
		k = strings.ToLower(k)
		if !ok || v == "" {
			return nil, fmt.Errorf("header: expected KEY=VALUE, got %q", f)
		}
		if seen[k] {
			return nil, fmt.Errorf("header: %s given twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "players":
			s.Options.Players = strings.Split(v, ",")
		case "deal":
			s.Deal, err = ParseCards(v)
		case "set":
			s.Options.Set, err = ParseCards(v)
		case "scenario":
			scenario = v
		case "coins":
			s.Options.Coins, err = strconv.Atoi(v)
			if err == nil && s.Options.Coins <= 0 {
				err = fmt.Errorf("coins=%s: must be positive", v)
			}
		default:
			err = fmt.Errorf("unknown key %q (players, scenario, set, deal, coins)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
	}
	p := len(s.Options.Players)
	if p == 0 {
		return nil, errors.New("header: players= is required")
	}
	if scenario != "" {
		if s.Options.Set != nil {
			return nil, errors.New("header: scenario= and set= both given; use one")
		}
		sc, err := findScenario(scenario, p, load)
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
		s.Scenario = sc.Name
		s.Options.Set = sc.Masks
	}
	if s.Deal != nil && s.Options.Set != nil {
		a, b := slices.Clone(s.Deal), slices.Clone(s.Options.Set)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return nil, fmt.Errorf("header: deal=%s does not use the masks %s", FormatCards(s.Deal), FormatCards(s.Options.Set))
		}
	}
	if s.Options.Set == nil && s.Deal != nil {
		s.Options.Set = slices.Clone(s.Deal)
	}
	if err := s.Options.Normalize().Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	return s, nil
}

// findScenario returns the built-in scenario called name, or else the
// scenario file load returns for it, checked for players players.
func findScenario(name string, players int, load ScenarioLoader) (*Scenario, error) {
	if sc, ok := BuiltinScenario(name); ok {
		if err := sc.Check(players); err != nil {
			return nil, err
		}
		return sc, nil
	}
	if load == nil {
		return nil, fmt.Errorf("unknown scenario %q (built-in: %s; files cannot be read here)", name, strings.Join(ScenarioNames(), ", "))
	}
	data, err := load(name)
	if err != nil {
		return nil, fmt.Errorf("scenario %q is not built in (%s) and cannot be read: %w", name, strings.Join(ScenarioNames(), ", "), err)
	}
	return LoadScenario(name, data, players)
}
