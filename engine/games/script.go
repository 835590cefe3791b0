package games

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

// ScanScript reads a script's text for a game's parser, the part every
// game's scripts share: a UTF-8 byte order mark at the start and '#'
// comments are dropped and blank lines skipped; the first other line's
// fields go to header, every later one's to line, with its 1-based number
// and its text (without the comment). At most maxLines lines are read.
// An error header or line returns becomes a *[ScriptError] naming the
// line (one that already is a *ScriptError is returned as it is); a
// script without a header is the error "missing header: " + usage.
func ScanScript(src []byte, maxLines int, usage string, header func(fields []string) error, line func(no int, text string, fields []string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<16)
	started := false
	lineNo := 0
	for sc.Scan() {
		lineNo++
		if lineNo > maxLines {
			return &ScriptError{Line: lineNo, Err: errors.New("script too long")}
		}
		text := sc.Text()
		if lineNo == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte order mark
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		var err error
		if started {
			err = line(lineNo, text, fields)
		} else {
			err, started = header(fields), true
		}
		if err != nil {
			var se *ScriptError
			if errors.As(err, &se) {
				return se
			}
			return &ScriptError{Line: lineNo, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return &ScriptError{Line: lineNo + 1, Err: err}
	}
	if !started {
		return &ScriptError{Line: lineNo, Err: errors.New("missing header: " + usage)}
	}
	return nil
}

// ParseHeaded reads a script with [ScanScript] into the script its
// header describes: header returns it (S) from the header's fields, and
// line reads every later line into it.
func ParseHeaded[S any](src []byte, maxLines int, usage string, header func(fields []string) (S, error), line func(sc S, no int, text string, fields []string) error) (S, error) {
	var out S
	err := ScanScript(src, maxLines, usage, func(f []string) error {
		s, err := header(f)
		out = s
		return err
	}, func(no int, text string, f []string) error { return line(out, no, text, f) })
	if err != nil {
		var zero S
		return zero, err
	}
	return out, nil
}

// SeatLine checks a script line that is SEAT VERB ARGS: at least two
// fields, the first naming one of players (case-insensitively). text is
// the line, for the error.
func SeatLine(players []string, fields []string, text string) error {
	if len(fields) < 2 {
		return fmt.Errorf("expected SEAT VERB ARGS, got %q", text)
	}
	if !slices.ContainsFunc(players, func(p string) bool { return strings.EqualFold(p, fields[0]) }) {
		return fmt.Errorf("no player named %q", fields[0])
	}
	return nil
}

// HeaderPairs checks that a script header's fields start with "game NAME"
// (NAME being game, case-insensitively; else the error shows usage) and
// calls set with each following KEY=VALUE pair, the key lower-cased. Each
// key may be given once and needs a value; set's errors are wrapped as
// "header: ...".
func HeaderPairs(fields []string, game, usage string, set func(key, value string) error) error {
	if len(fields) < 2 || !strings.EqualFold(fields[0], "game") || !strings.EqualFold(fields[1], game) {
		return errors.New("the first line must be: " + usage)
	}
	seen := map[string]bool{}
	for _, f := range fields[2:] {
		k, v, ok := strings.Cut(f, "=")
		k = strings.ToLower(k)
		if !ok || v == "" {
			return fmt.Errorf("header: expected KEY=VALUE, got %q", f)
		}
		if seen[k] {
			return fmt.Errorf("header: %s given twice", k)
		}
		seen[k] = true
		if err := set(k, v); err != nil {
			return fmt.Errorf("header: %w", err)
		}
	}
	return nil
}

// ScriptState is what [PlayMoveLine] needs of a game's state.
type ScriptState interface {
	comparable
	SeatByName(name string) (engine.Seat, error)
	Name(p engine.Seat) string
}

// StartedRules returns the rules state of t as the game's state S, or a
// *[ScriptError] for line when the table has not started.
func StartedRules[S comparable](t Table, line int) (S, error) {
	st, ok := StateOf[S](t.Rules())
	if !ok {
		return st, &ScriptError{Line: line, Err: errors.New("the table has not started")}
	}
	return st, nil
}

// PlayMoveLine plays a script's move line (line, by the player named
// seat, tokens the verb and its arguments) on t in state st: a card of a
// hidden hand is named by the seat's own knowledge (nameHidden) when t is
// a [KnowingTable]; parse makes the move. Errors are *[ScriptError]
// values naming the line (and the player, for a move refused).
func PlayMoveLine[S ScriptState](t Table, st S, line int, seat string, tokens []string,
	nameHidden func(S, engine.Seat, map[engine.Slot]engine.Card, []string) []string,
	parse func(S, engine.Seat, []string) (engine.Move, error)) error {
	p, err := st.SeatByName(seat)
	if err != nil {
		return &ScriptError{Line: line, Err: err}
	}
	if kt, ok := t.(KnowingTable); ok {
		tokens = nameHidden(st, p, kt.Known(p), tokens)
	}
	m, err := parse(st, p, tokens)
	if err == nil {
		err = t.Move(p, m, nil)
	}
	if err != nil {
		return &ScriptError{Line: line, Err: fmt.Errorf("%s: %w", st.Name(p), err)}
	}
	return nil
}

// ScriptLine is one line of a script after its header, in the games
// whose lines are SEAT VERB ARGS or a bare VERB ARGS.
type ScriptLine struct {
	LineNo int
	Seat   string   // the acting player ("" for a bare line)
	Verb   string   // the verb, lower-cased
	Tokens []string // the arguments (for a seat's line, the verb first)
}

// ReadLine reads a script line's fields (f, from [ScanScript]): a line
// whose first field is one of bare (lower case, any case in the script)
// is VERB ARGS, with no seat; any other is SEAT VERB ARGS ([SeatLine]).
func ReadLine(players []string, no int, text string, f []string, bare ...string) (ScriptLine, error) {
	if v := strings.ToLower(f[0]); slices.Contains(bare, v) {
		return ScriptLine{LineNo: no, Verb: v, Tokens: f[1:]}, nil
	}
	if err := SeatLine(players, f, text); err != nil {
		return ScriptLine{}, err
	}
	return ScriptLine{LineNo: no, Seat: f[0], Verb: strings.ToLower(f[1]), Tokens: f[1:]}, nil
}

// OptionsScript is a [Script] whose table is the game's canonical
// options alone (no table deal: what a script fixes of the deal travels
// in the options), made of the parts a game's parsed script supplies.
type OptionsScript struct {
	Players []string               // the player names, in seat order
	Options func() ([]byte, error) // the canonical options
	Lines   func(t Table) error    // plays the script's lines ([Script.Play])
}

// Seats returns a copy of the player names.
func (s OptionsScript) Seats() []string { return slices.Clone(s.Players) }

// Table returns the table options: the canonical options.
func (s OptionsScript) Table() (table.Options, error) {
	enc, err := s.Options()
	if err != nil {
		return table.Options{}, err
	}
	return table.Options{Game: enc}, nil
}

// Play plays the script's lines on t.
func (s OptionsScript) Play(t Table) error { return s.Lines(t) }
