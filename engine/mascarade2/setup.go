package mascarade2

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/masque-games/masque/engine/games"
)

// scenarioUsage is the --scenario flag's help.
const scenarioUsage = "the masks in play, a built-in scenario `NAME|FILE` (default: default-N for N players)"

// configure returns the setup of a scenario for players: a built-in
// scenario, or a scenario file (read with load) when no built-in scenario
// has that name; choice "" is the default scenario for the player count.
// Errors are *[games.UsageError] values phrased for the --scenario flag;
// a scenario that breaks the book's constraints lists every one.
func configure(players int, choice string, load games.Loader) (games.Setup, error) {
	sc, err := loadScenario(choice, players, load)
	if err != nil || sc == nil {
		return Setup{}, err
	}
	return Setup{Set: sc.Masks}, nil
}

// loadScenario returns the scenario NAME (built in) or FILE, checked
// against the book's constraints for players; nil (the default for the
// player count) when name is empty.
func loadScenario(name string, players int, load games.Loader) (*Scenario, error) {
	if name == "" {
		return nil, nil
	}
	builtins := strings.Join(ScenarioNames(), ", ")
	hint := "a scenario file has 'name:', 'players:' and 'masks:' lines, e.g. 'masks: Judge, Empress, King, Princess, Puppeteer, Swindler'; built-in scenarios: " + builtins
	sc, ok := BuiltinScenario(name)
	if !ok {
		if load == nil {
			return nil, &games.UsageError{Err: fmt.Errorf("--scenario %s: no built-in scenario and no such file", name), Hint: hint}
		}
		data, err := load(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, &games.UsageError{Err: fmt.Errorf("--scenario %s: no built-in scenario and no such file", name), Hint: hint}
			}
			return nil, &games.UsageError{Err: fmt.Errorf("--scenario: %w", err)}
		}
		if sc, err = ParseScenario(name, data); err != nil {
			return nil, &games.UsageError{Err: fmt.Errorf("--scenario: %w", err), Hint: hint}
		}
	}
	if err := sc.Check(players); err != nil {
		broken := setErrors(err)
		var b strings.Builder
		fmt.Fprintf(&b, "--scenario %s: scenario %s breaks %d of the book's constraints for %d players:", name, sc.Name, len(broken), players)
		for _, se := range broken {
			fmt.Fprintf(&b, "\n  - %s: %s", se.Constraint, se.Msg)
		}
		return nil, &games.UsageError{Err: errors.New(b.String()),
			Hint: "fix the scenario's masks (or its players: line), or pick another with --scenario; built-in scenarios: " + builtins}
	}
	return sc, nil
}

// setErrors returns every *SetError in err's tree, in order.
func setErrors(err error) []*SetError {
	var out []*SetError
	var walk func(error)
	walk = func(e error) {
		if se, ok := e.(*SetError); ok {
			out = append(out, se)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			if x := u.Unwrap(); x != nil {
				walk(x)
			}
		}
	}
	walk(err)
	return out
}
