package mascarade

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

// Script is a parsed scripted table (the format of issue 3):
//
//	# comments start with '#'
//	game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat
//	Anna swap Boris yes
//	Dima claim King
//	Anna challenge
//
// The header takes players=NAMES and optionally deal=CHARACTERS (one per
// slot, in slot order), set=CHARACTERS (a custom set), coins=N and, as an
// extension, center=N (centre cards with 6+ players; by default implied by
// the size of deal= or set=, else 0). Each later line is SEAT VERB ARGS;
// lines are turned into moves against a state with [ParseMove].
type Script struct {
	Options Options       // as given (not normalized); Set is the deal's cards when only deal= is given
	Deal    []engine.Card // nil: the deal is random, drawn by the table
	Lines   []ScriptLine
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

// maxScriptLines bounds the work a hostile script can cause.
const maxScriptLines = 1 << 20

// ParseScript parses a script. It checks the header's options against the
// book's constraints and that every line names a player; the moves
// themselves are checked when played.
func ParseScript(src []byte) (*Script, error) {
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
			s, err := parseHeader(fields)
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
		return nil, &ScriptError{lineNo, errors.New("missing header: game mascarade players=...")}
	}
	return out, nil
}

func parseHeader(fields []string) (*Script, error) {
	if len(fields) < 2 || fields[0] != "game" || !strings.EqualFold(fields[1], "mascarade") {
		return nil, errors.New("the first line must be: game mascarade players=NAMES [deal=...] [set=...] [coins=N]")
	}
	s := &Script{}
	seen := map[string]bool{}
	center := -1
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
		case "coins":
			s.Options.Coins, err = strconv.Atoi(v)
			if err == nil && s.Options.Coins <= 0 {
				err = fmt.Errorf("coins=%s: must be positive", v)
			}
		case "center":
			center, err = strconv.Atoi(v)
			if err == nil && (center < 0 || center > 2) {
				err = fmt.Errorf("center=%s: must be 0, 1 or 2", v)
			}
		default:
			err = fmt.Errorf("unknown key %q (players, deal, set, coins, center)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
	}
	p := len(s.Options.Players)
	if p == 0 {
		return nil, errors.New("header: players= is required")
	}
	if s.Deal != nil && s.Options.Set != nil {
		a, b := slices.Clone(s.Deal), slices.Clone(s.Options.Set)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return nil, fmt.Errorf("header: deal=%s does not use the cards of set=%s", FormatCards(s.Deal), FormatCards(s.Options.Set))
		}
	}
	if s.Options.Set == nil && s.Deal != nil {
		s.Options.Set = slices.Clone(s.Deal)
	}
	switch {
	case center >= 0:
		s.Options.Center = center
	case p >= 6 && s.Options.Set != nil:
		s.Options.Center = len(s.Options.Set) - p
	}
	n := s.Options.Normalize()
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if s.Deal != nil {
		if want := layoutFor(p, n.Center).slots(); len(s.Deal) != want {
			return nil, fmt.Errorf("header: deal has %d cards, the table has %d slots", len(s.Deal), want)
		}
	}
	return s, nil
}
