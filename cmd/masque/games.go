package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// The games this masque plays come from the registry
// (engine/games/registry): no command switches on a game's name.

// tableGames returns the games in list as the table layer sees them,
// for auditing transcripts of any of them.
func tableGames(list []games.Game) table.Games {
	out := table.Games{}
	for _, g := range list {
		out[g.Name()] = g.Table()
	}
	return out
}

// gameFlagHelp is the --game flag's help: every game, with its title.
func (a *app) gameFlagHelp() string {
	var parts []string
	for _, g := range a.list {
		parts = append(parts, fmt.Sprintf("%s (%s)", g.Name(), g.Title()))
	}
	return "the game: " + strings.Join(parts, " or ")
}

// scenarioFlagHelp is the --scenario flag's help: each game's setup.
func (a *app) scenarioFlagHelp() string {
	var parts []string
	for _, g := range games.WithSetup(a.list) {
		parts = append(parts, g.Name()+": "+g.SetupHelp().Usage)
	}
	return strings.Join(parts, "; ")
}

// playersFlagHelp is a --players flag's help: what, then each game's
// player counts, "(NAME 2..13, NAME 4..12)".
func (a *app) playersFlagHelp(what string) string {
	var parts []string
	for _, g := range a.list {
		lo, hi := g.Players()
		parts = append(parts, fmt.Sprintf("%s %d..%d", g.Name(), lo, hi))
	}
	return what + " (" + strings.Join(parts, ", ") + ")"
}

// gameTitle is a game's name for people (the name itself for a game this
// masque does not know).
func (a *app) gameTitle(game string) string {
	g, err := games.Lookup(a.list, game)
	if err != nil {
		return game
	}
	return g.Title()
}

// rosterGame is a roster's game for people: its title, with its setup
// when the game tells it (games.SetupTeller) and it is not the default:
// "TITLE (what TellSetup says)".
func (a *app) rosterGame(r *ledger.Roster) string {
	title := a.gameTitle(r.Game)
	g, err := games.Lookup(a.list, r.Game)
	if err != nil {
		return title
	}
	st, ok := g.Table().(games.SetupTeller)
	if !ok {
		return title
	}
	o, err := table.UnmarshalOptions(r.Options)
	if err != nil {
		return title
	}
	if s := st.TellSetup(o.Game); s != "" {
		return title + " (" + s + ")"
	}
	return title
}

// findGame returns the game a person named with --game: its name, in any
// case, or an error that suggests the nearest name, if one is
// near, and lists them all.
func findGame(all []games.Game, name string) (games.Game, error) {
	for _, g := range all {
		if strings.EqualFold(g.Name(), name) {
			return g, nil
		}
	}
	names := games.Names(all)
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	best, dist := "", 0
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), n); best == "" || d < dist {
			best, dist = n, d
		}
	}
	if dist <= max(2, len(best)/3) {
		return nil, &exitError{code: 2, err: fmt.Errorf("--game %q: no such game", name), hint: fmt.Sprintf("did you mean --game %s? (the games: %s)", best, list)}
	}
	return nil, &exitError{code: 2, err: fmt.Errorf("--game %q: no such game", name), hint: "choose --game " + list}
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// gameSetup checks --game (setting it to the game's own name, whatever
// its case, among all), --scenario and --players (at most most) for a
// table and returns the game's setup. Every error is a usage error (exit status 2).
func gameSetup(all []games.Game, game *string, scenario string, players, most int) (games.Setup, error) {
	g, err := findGame(all, *game)
	if err != nil {
		return nil, err
	}
	*game = g.Name()
	lo, hi := g.Players()
	hi = min(hi, most)
	if scenario != "" && g.SetupHelp().Usage == "" {
		return nil, &exitError{code: 2, err: fmt.Errorf("--scenario: scenarios are for --game %s", strings.Join(games.Names(games.WithSetup(all)), " or ")),
			hint: g.SetupHelp().Default}
	}
	if players < lo || players > hi {
		return nil, &exitError{code: 2, err: fmt.Errorf("--players %d: %s is for %d..%d", players, *game, lo, hi),
			hint: fmt.Sprintf("choose --players from %d to %d", lo, hi)}
	}
	setup, err := g.Configure(players, scenario, os.ReadFile)
	if err != nil {
		var ue *games.UsageError
		if errors.As(err, &ue) {
			return nil, &exitError{code: 2, err: ue.Err, hint: ue.Hint}
		}
		return nil, &exitError{code: 2, err: fmt.Errorf("--scenario: %w", err)}
	}
	return setup, nil
}
