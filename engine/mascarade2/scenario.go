package mascarade2

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

// A scenario file is text, one "key: value" line each, '#' starting a
// comment:
//
//	# my box's sheet 6A
//	name: sheet-6a
//	players: 6
//	masks: Judge, Empress, King, Princess, Puppeteer, Swindler
//
// masks is required: comma-separated mask names, an entry may carry a
// count ("Peasant x2"). players is optional: the player count the scenario
// is for (the number on the sheet); without it the scenario may be used by
// any player count it satisfies the constraints for. name is optional
// (default: the file's base name without extension).

//go:embed scenarios/*.txt
var scenarioFS embed.FS

// Scenario is a named set of masks.
type Scenario struct {
	Name    string
	Players int // the player count it is for; 0: any
	Masks   []engine.Card
}

// builtin holds the default scenarios, parsed once at initialisation and
// never written to afterwards.
var builtin = func() map[string]*Scenario {
	out := map[string]*Scenario{}
	files, err := scenarioFS.ReadDir("scenarios")
	if err != nil {
		panic(err)
	}
	for _, f := range files {
		data, err := scenarioFS.ReadFile("scenarios/" + f.Name())
		if err != nil {
			panic(err)
		}
		sc, err := ParseScenario(f.Name(), data)
		if err != nil {
			panic(err)
		}
		out[strings.ToLower(sc.Name)] = sc
	}
	return out
}()

// ScenarioNames returns the names of the built-in scenarios, sorted as
// people read them: default-4 before default-10.
func ScenarioNames() []string {
	var out []string
	for _, sc := range builtin {
		out = append(out, sc.Name)
	}
	slices.SortFunc(out, naturalCompare)
	return out
}

// naturalCompare orders strings that differ in a trailing number by that
// number ("default-9" < "default-10"), others as strings.
func naturalCompare(a, b string) int {
	pa, na, oka := splitNumber(a)
	pb, nb, okb := splitNumber(b)
	if oka && okb && pa == pb {
		return na - nb
	}
	return strings.Compare(a, b)
}

// splitNumber splits s into a prefix and its trailing decimal number.
func splitNumber(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) || len(s)-i > 6 {
		return s, 0, false
	}
	n := 0
	for _, c := range s[i:] {
		n = n*10 + int(c-'0')
	}
	return s[:i], n, true
}

// BuiltinScenario returns the built-in scenario called name
// (case-insensitively).
func BuiltinScenario(name string) (*Scenario, bool) {
	sc, ok := builtin[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	return sc.clone(), true
}

// DefaultScenario returns the default scenario for a player count
// ("default-N"), or nil.
func DefaultScenario(players int) *Scenario {
	sc, _ := BuiltinScenario(fmt.Sprintf("default-%d", players))
	return sc
}

func (sc *Scenario) clone() *Scenario {
	c := *sc
	c.Masks = slices.Clone(sc.Masks)
	return &c
}

// ScenarioError is a syntax error in a scenario file.
type ScenarioError struct {
	File string
	Line int
	Err  error
}

func (e *ScenarioError) Error() string {
	return fmt.Sprintf("scenario %s: line %d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying error.
func (e *ScenarioError) Unwrap() error { return e.Err }

// maxScenarioSize bounds a scenario file.
const maxScenarioSize = 1 << 16

// ParseScenario parses a scenario file called file (used for messages and
// as the default name). It checks the syntax and the mask names only;
// [Scenario.Check] checks the book's constraints.
func ParseScenario(file string, data []byte) (*Scenario, error) {
	if len(data) > maxScenarioSize {
		return nil, &ScenarioError{file, 0, errors.New("file too large")}
	}
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	sc := &Scenario{Name: strings.TrimSuffix(base, path.Ext(base))}
	seen := map[string]bool{}
	s := bufio.NewScanner(bytes.NewReader(data))
	lineNo := 0
	for s.Scan() {
		lineNo++
		line := s.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, &ScenarioError{file, lineNo, fmt.Errorf("expected KEY: VALUE, got %q", line)}
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if seen[k] {
			return nil, &ScenarioError{file, lineNo, fmt.Errorf("%s given twice", k)}
		}
		seen[k] = true
		var err error
		switch k {
		case "name":
			if v == "" || strings.ContainsAny(v, " \t=,") {
				err = fmt.Errorf("name %q: one word without '=' or ','", v)
			}
			sc.Name = v
		case "players":
			sc.Players, err = strconv.Atoi(v)
			if err == nil && (sc.Players < MinPlayers || sc.Players > MaxPlayers) {
				err = fmt.Errorf("players: %d; the game is for %d to %d", sc.Players, MinPlayers, MaxPlayers)
			}
		case "masks":
			sc.Masks, err = ParseCards(v)
		default:
			err = fmt.Errorf("unknown key %q (name, players, masks)", k)
		}
		if err != nil {
			return nil, &ScenarioError{file, lineNo, err}
		}
	}
	if err := s.Err(); err != nil {
		return nil, &ScenarioError{file, lineNo + 1, err}
	}
	if len(sc.Masks) == 0 {
		return nil, &ScenarioError{file, lineNo, errors.New("masks: is required")}
	}
	return sc, nil
}

// Check checks the scenario against the book's constraints for a table of
// players players. It returns nil or one [*SetError] per broken constraint
// (joined with [errors.Join]), each naming the scenario.
func (sc *Scenario) Check(players int) error {
	b := broken()
	if sc.Players != 0 && sc.Players != players {
		b.Bad("scenario-players", "the scenario is for %d players, not %d", sc.Players, players)
	}
	checkSet(b, sc.Masks, players)
	if len(b.Errs) == 0 {
		return nil
	}
	return fmt.Errorf("scenario %s: %w", sc.Name, b.Err())
}

// LoadScenario parses a scenario file and checks it for players players.
func LoadScenario(file string, data []byte, players int) (*Scenario, error) {
	sc, err := ParseScenario(file, data)
	if err != nil {
		return nil, err
	}
	if err := sc.Check(players); err != nil {
		return nil, err
	}
	return sc, nil
}
