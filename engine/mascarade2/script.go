package mascarade2

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
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
type Script = masquerade.Script[Options, ed]

// ScriptLine is one action line of a script.
type ScriptLine = masquerade.ScriptLine

// ScriptError is an error tied to a line of a script.
type ScriptError = masquerade.ScriptError

// ScenarioLoader returns the contents of a scenario file named in a
// script header (scenario=FILE). The pure engine reads no files: the
// caller decides where the name points.
type ScenarioLoader = games.Loader

// ParseScript parses a script. It checks the header's options against the
// book's constraints and that every line names a player; the moves
// themselves are checked when played. load reads scenario files named by
// scenario=FILE when FILE is not a built-in scenario; it may be nil (then
// only built-in scenarios are known).
func ParseScript(src []byte, load ScenarioLoader) (*Script, error) {
	return masquerade.ParseScript(src, func(fields []string) (*Script, error) { return parseHeader(fields, load) })
}

const headerUsage = "game mascarade2 players=NAMES [scenario=NAME|FILE | set=MASKS] [deal=MASKS] [coins=N]"

func parseHeader(fields []string, load ScenarioLoader) (*Script, error) {
	var h masquerade.CommonHeader
	scenario := ""
	err := h.Read(fields, GameName, headerUsage, ParseCards, func(k, v string) error {
		if k != "scenario" {
			return fmt.Errorf("unknown key %q (players, scenario, set, deal, coins)", k)
		}
		scenario = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	s := &Script{Options: Options{Players: h.Players, Set: h.Set, Coins: h.Coins}, Deal: h.Deal}
	p := len(s.Options.Players)
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
		if !masquerade.SameCards(s.Deal, s.Options.Set) {
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
