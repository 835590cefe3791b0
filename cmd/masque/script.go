package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/scriptplay"
	"github.com/masque-games/masque/engine/mascarade2"
	scriptplay2 "github.com/masque-games/masque/engine/mascarade2/scriptplay"
	"github.com/masque-games/masque/engine/masquerade"
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

The script format:

  # comments start with '#'
  game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat
  Anna swap Boris yes
  Boris swap centre1 no
  Sasha swap Dima no
  Dima swap Anna no
  Anna claim King
  Boris challenge

Header options: deal= (face up, seat order, then centre1, centre2), set=
(a custom set), coins=N. Verbs: swap TARGET yes|no, peek, claim CHARACTER,
challenge, pass (responders not listed pass), use target=NAME |
between=NAME,NAME | with=SLOT | swap=yes|no, guess CHARACTER.

An illegal line stops the script with exit status 2, naming the line.`,
		Example: `  masque script game.txt
  masque script game.txt --json --transcript game.masque && masque verify game.masque`,
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
		return &exitError{code: 2, err: err}
	}
	var lt *local.Table
	var state func(*local.Table) scoreboard
	switch game := scriptGame(src); game {
	case mascarade.GameName:
		lt, err = scriptplay.Run(src, !o.noKeys)
		state = func(lt *local.Table) scoreboard { return nilIfNoState(scriptplay.State(lt)) }
	case mascarade2.GameName:
		dir := filepath.Dir(o.file)
		load := func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return os.ReadFile(name)
		}
		lt, err = scriptplay2.Run(src, load, !o.noKeys)
		state = func(lt *local.Table) scoreboard { return nilIfNoState(scriptplay2.State(lt)) }
	default:
		return &exitError{code: 2, err: fmt.Errorf("%s: unknown game %q", o.file, game),
			hint: "the first line of a script is 'game mascarade ...' or 'game mascarade2 ...'"}
	}
	if err != nil {
		var se *masquerade.ScriptError
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
	return printState(a, state(lt), o.asJSON)
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

// nilIfNoState turns a typed nil state into a nil scoreboard.
func nilIfNoState[S interface {
	comparable
	scoreboard
}](s S) scoreboard {
	var zero S
	if s == zero {
		return nil
	}
	return s
}

func writeTranscript(lt *local.Table, path string) error {
	enc, err := lt.Transcript().MarshalBinary()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, enc, 0o644)
}

// writeFileAtomic writes data to a temporary file beside path, syncs it,
// and renames it into place, so a crash never leaves half a file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

type publicState struct {
	Over    bool           `json:"over"`
	Winners []string       `json:"winners"`
	Coins   map[string]int `json:"coins"`
	Court   int            `json:"court"`
	Turn    int            `json:"turn"`
}

// scoreboard is the public state every Mascarade-family game exposes.
type scoreboard interface {
	Over() bool
	Winners() []engine.Seat
	Coins(engine.Seat) int
	Court() int
	Turn() int
	Name(engine.Seat) string
	Players() int
}

func summarize(s scoreboard) publicState {
	ps := publicState{Over: s.Over(), Winners: []string{}, Coins: map[string]int{}, Court: s.Court(), Turn: s.Turn()}
	for _, w := range s.Winners() {
		ps.Winners = append(ps.Winners, s.Name(w))
	}
	for i := range s.Players() {
		ps.Coins[s.Name(engineSeat(i))] = s.Coins(engineSeat(i))
	}
	return ps
}

func printState(a *app, s scoreboard, asJSON bool) error {
	if s == nil {
		return errors.New("the table never dealt")
	}
	ps := summarize(s)
	if asJSON {
		return json.NewEncoder(a.stdout).Encode(ps)
	}
	names := make([]string, 0, len(ps.Coins))
	for i := range s.Players() {
		names = append(names, s.Name(engineSeat(i)))
	}
	fmt.Fprintf(a.stdout, "turn %d, court %d\n", ps.Turn, ps.Court)
	for _, n := range names {
		fmt.Fprintf(a.stdout, "  %-12s %2d coins\n", n, ps.Coins[n])
	}
	if ps.Over {
		sort.Strings(ps.Winners)
		fmt.Fprintf(a.stdout, "game over: %s won\n", strings.Join(ps.Winners, ", "))
	} else {
		fmt.Fprintln(a.stdout, "the game goes on")
	}
	return nil
}
