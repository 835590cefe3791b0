package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
)

// Every command's help lists the games from the registry and what each
// game says of itself (games.About): no command's text names a game.

// helpWidth is the width help text is wrapped to.
const helpWidth = 76

// wrapText wraps text to width columns, each line after indent. Lines
// that start with two spaces (examples) are kept as they are; blank
// lines stay.
func wrapText(text, indent string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		if para == "" || strings.HasPrefix(para, "  ") {
			out = append(out, strings.TrimRight(indent+para, " "))
			continue
		}
		line := indent
		for _, w := range strings.Fields(para) {
			if line != indent && len(line)+1+len(w) > width {
				out = append(out, line)
				line = indent
			}
			if line != indent {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// playersRange says a game's player counts: "2 to 13 players".
func playersRange(g games.Game) string {
	lo, hi := g.Players()
	return fmt.Sprintf("%d to %d players", lo, hi)
}

// gamesList is the list of games for a command's help: one game a line,
// its name (for --game), its title and its player counts, aligned.
func (a *app) gamesList() string {
	g := &grid{aligned: true, indent: "  "}
	for _, gm := range a.list {
		g.row(gm.Name(), gm.Title(), playersRange(gm))
	}
	var b strings.Builder
	b.WriteString("The games (--game NAME, default " + registry.Default + "; 'masque help games' says\nwhat each one hides and its options, --scenario):\n")
	g.write(&b)
	return strings.TrimRight(b.String(), "\n")
}

// gameExamples are a command's examples for every game but the default:
// "  masque play --game NAME --players N", N a count the game takes, then
// rest (more flags, or "").
func (a *app) gameExamples(command, rest string) string {
	var lines []string
	for _, g := range a.list {
		if g.Name() == registry.Default {
			continue
		}
		lo, hi := g.Players()
		lines = append(lines, fmt.Sprintf("  masque %s --game %s --players %d%s", command, g.Name(), min(max(4, lo), hi), rest))
	}
	return strings.Join(lines, "\n")
}

// aboutGames is 'masque help games': each game, its players, what it is,
// what it hides and its options.
func (a *app) aboutGames() string {
	var b strings.Builder
	b.WriteString(wrapText("The games masque plays, each at a table of its own: --game NAME picks one (play, host, demo), "+
		"--scenario its setup; joiners, verify and replay learn the game from the table. "+
		"'masque games' lists them (tab-separated when piped, --json for programs).", "", helpWidth))
	for _, g := range a.list {
		ab := games.AboutOf(g)
		sh := g.SetupHelp()
		fmt.Fprintf(&b, "\n\n%s (--game %s), %s\n", g.Title(), g.Name(), playersRange(g))
		b.WriteString(wrapText(ab.Summary, "  ", helpWidth) + "\n")
		b.WriteString(wrapText("Hidden: "+ab.Hides, "  ", helpWidth) + "\n")
		opts := "Options: none; " + sh.Default + "."
		if sh.Usage != "" {
			opts = "Options (--scenario): " + strings.ReplaceAll(sh.Usage, "`", "") + "."
			if len(sh.Choices) > 0 {
				opts += " For example: " + strings.Join(sh.Choices, ", ") + "."
			}
		}
		b.WriteString(wrapText(opts, "  ", helpWidth))
		if ab.Setup != "" {
			b.WriteString("\n" + wrapText(ab.Setup, "  ", helpWidth))
		}
	}
	return b.String()
}

// gameInfo is one game in 'masque games --json'.
type gameInfo struct {
	Name      string   `json:"name"`
	Title     string   `json:"title"`
	Min       int      `json:"min_players"`
	Max       int      `json:"max_players"`
	Summary   string   `json:"summary"`
	Hides     string   `json:"hides"`
	Scenario  string   `json:"scenario,omitempty"`
	Scenarios []string `json:"scenarios,omitempty"`
	Default   bool     `json:"default"`
}

func newGamesCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games masque plays ('masque help games' describes each)",
		Long:  a.aboutGames(),
		Example: `  masque games
  masque games | cut -f1
  masque games --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var infos []gameInfo
			for _, g := range a.list {
				lo, hi := g.Players()
				ab, sh := games.AboutOf(g), g.SetupHelp()
				infos = append(infos, gameInfo{Name: g.Name(), Title: g.Title(), Min: lo, Max: hi, Summary: ab.Summary,
					Hides: ab.Hides, Scenario: strings.ReplaceAll(sh.Usage, "`", ""), Scenarios: sh.Choices, Default: g.Name() == registry.Default})
			}
			if asJSON {
				return json.NewEncoder(a.stdout).Encode(infos)
			}
			t := newGrid(a.stdout)
			t.row("NAME", "GAME", "PLAYERS", "SCENARIOS")
			for _, in := range infos {
				sc := strings.Join(in.Scenarios, " ")
				if sc == "" {
					sc = "-"
				}
				t.row(in.Name, in.Title, fmt.Sprintf("%d-%d", in.Min, in.Max), sc)
			}
			return t.write(a.stdout)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}
