package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/local"
)

type scriptOptions struct {
	file       string
	asJSON     bool
	transcript string
	noKeys     bool
}

func newScriptCmd(a *app) *cobra.Command {
	var o scriptOptions
	cmd := &cobra.Command{
		Use:   "script FILE",
		Short: "Play a scripted game through the real stack",
		Long: `Play a scripted table in one process: every seat holds its own keys, every
hidden swap is proven, every peek and reveal is made of decryption shares,
and every entry is signed, encoded and validated as over the network.

A script is a header line naming the game and the players, then the
moves and checks, one a line; '#' starts a comment. Each game's lines:

` + a.scriptFormats() + `

An illegal line stops the script with exit status 2, naming the line.`,
		Example: `  masque script game.txt
  masque script game.txt --json --transcript game.masque
  masque verify game.masque`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runScript(a, o)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, `print {"over","winners","coins","court","turn"} as JSON`)
	cmd.Flags().StringVar(&o.transcript, "transcript", "", "write the transcript to `PATH`")
	cmd.Flags().BoolVar(&o.noKeys, "no-key-release", false, "do not publish the seats' keys at the end")
	return cmd
}

func runScript(a *app, o scriptOptions) error {
	src, err := os.ReadFile(o.file)
	if err != nil {
		return &exitError{code: exitDamaged, err: err, hint: "masque script reads a script file: 'masque script --help' shows one"}
	}
	game := scriptGame(src)
	g, err := games.Lookup(a.list, game)
	if err != nil {
		var heads []string
		for _, n := range games.Names(a.list) {
			heads = append(heads, fmt.Sprintf("'game %s ...'", n))
		}
		return &exitError{code: 2, err: fmt.Errorf("%s: unknown game %q", o.file, game),
			hint: "the first line of a script is " + strings.Join(heads, " or ")}
	}
	dir := filepath.Dir(o.file)
	load := func(name string) ([]byte, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		return os.ReadFile(name)
	}
	lt, err := localplay.Run(g, src, load, !o.noKeys)
	if err != nil {
		var se *games.ScriptError
		if errors.As(err, &se) {
			err = fmt.Errorf("%s:%d: %w", o.file, se.Line, se.Err)
		}
		// Keep what was played: the transcript up to the illegal line.
		if lt != nil && o.transcript != "" {
			_ = writeTranscript(lt, o.transcript)
		}
		return &exitError{code: 2, err: err}
	}
	if o.transcript != "" {
		if err := writeTranscript(lt, o.transcript); err != nil {
			return err
		}
	}
	sum, ok := g.Summarize(lt.View().Rules())
	if !ok {
		return errors.New("the table never dealt")
	}
	return printSummary(a, sum, o.asJSON)
}

// scriptGame returns the game named by a script's header line.
func scriptGame(src []byte) string {
	for _, line := range strings.Split(strings.TrimPrefix(string(src), "\ufeff"), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if strings.EqualFold(f[0], "game") && len(f) > 1 {
			return strings.ToLower(f[1])
		}
		return ""
	}
	return ""
}

func writeTranscript(lt *local.Table, path string) error {
	enc, err := lt.Transcript().MarshalBinary()
	if err != nil {
		return err
	}
	return safefile.Write(path, enc, 0o644)
}

// printSummary prints a game's public result: as JSON, or the headline,
// each player's tally in seat order and the winners.
func printSummary(a *app, sum games.Summary, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(a.stdout).Encode(sum)
	}
	fmt.Fprintln(a.stdout, sum.Head)
	if sum.Tally != "" {
		fmt.Fprintln(a.stdout, "  "+sum.Tally)
	}
	for _, sc := range sum.Scores {
		if sum.Tally != "" {
			break
		}
		unit := sum.Unit
		if sc.Value == 1 {
			unit = strings.TrimSuffix(unit, "s") // "1 coin"
		}
		fmt.Fprintf(a.stdout, "  %-12s %2d %s\n", sc.Name, sc.Value, unit)
	}
	if sum.Over {
		w := slices.Clone(sum.Winners)
		sort.Strings(w)
		fmt.Fprintf(a.stdout, "game over: %s won\n", games.ListAnd(w, "nobody"))
	} else {
		fmt.Fprintln(a.stdout, "the game goes on")
	}
	return nil
}

// scriptFormats is each game's script format, from the game
// (games.About.Script), for 'masque script --help'.
func (a *app) scriptFormats() string {
	var parts []string
	for _, g := range a.list {
		if sc := games.AboutOf(g).Script; sc != "" {
			parts = append(parts, wrapText(g.Title()+" (--game "+g.Name()+", "+playersRange(g)+"): "+sc, "", helpWidth))
		}
	}
	return strings.Join(parts, "\n\n")
}
