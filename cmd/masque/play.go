package main

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/tui"
	"github.com/masque-games/masque/engine/mascarade"
)

type playOptions struct {
	players    int
	name       string
	seed       uint64
	seeded     bool
	delay      time.Duration
	window     time.Duration
	transcript string
	noKeys     bool
	noMemory   bool
	logPath    string
	table      string
	host       bool
}

func newPlayCmd(a *app) *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play Mascarade in an interactive terminal screen",
		Long: `Sit down at a table and play in an interactive terminal screen: the seats
with their coins, the court, whose turn it is, only the legal moves (a hidden
swap asks "really swap? y/n" separately), the challenge window with a
countdown, the public log (which never tells whether a swap was real) and
your own memory: what you saw and when, and which swaps since could have
moved your card.

For now 'masque play' seats you against bots on this machine; every move
still goes through the real stack (keys, proofs, signatures). LAN tables
come with 'masque host' and 'masque join'.

At the end the transcript is saved (replay it with 'masque replay FILE
--reveal': the players' keys are published at the end unless
--no-key-release). Logs go to a file, never to the screen.`,
		Example: `  masque play
  masque play --players 6 --name Kim --seed 7
  masque play --transcript game.masque && masque replay game.masque --reveal`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			return runPlay(a, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.players, "players", 4, "players at the table, you included (2..13)")
	f.StringVar(&o.name, "name", defaultPlayerName(), "your name at the table")
	f.Uint64Var(&o.seed, "seed", 0, "seed of the bots' decisions (default: random)")
	f.DurationVar(&o.delay, "bot-delay", 700*time.Millisecond, "how long each bot thinks")
	f.DurationVar(&o.window, "challenge-window", 30*time.Second, "time to answer a claim before passing automatically (0: no limit)")
	f.StringVar(&o.transcript, "transcript", "", "save the transcript to `PATH` (default: a temporary file)")
	f.BoolVar(&o.noKeys, "no-key-release", false, "do not publish the players' keys at the end (replay --reveal then cannot show the cards)")
	f.BoolVar(&o.noMemory, "no-memory", false, "hide the memory panel: remember what you saw yourself")
	f.StringVar(&o.logPath, "log", "", "write logs to `FILE` (default: a temporary file)")
	f.StringVar(&o.table, "table", "", "join the LAN table `NAME` (not yet available here: use 'masque join')")
	f.BoolVar(&o.host, "host", false, "host a LAN table (not yet available here: use 'masque host')")
	return cmd
}

func defaultPlayerName() string {
	for _, v := range []string{"MASQUE_NAME", "USER", "LOGNAME"} {
		if n := os.Getenv(v); n != "" && validName(n) {
			return n
		}
	}
	return "You"
}

func validName(n string) bool {
	return (mascarade.Options{Players: []string{n, "x1", "x2", "x3"}}).Normalize().Validate() == nil
}

// tableNames seats the player first, then bots with names unlike theirs.
func tableNames(name string, players int) []string {
	names := []string{name}
	for _, n := range demoNames {
		if len(names) == players {
			break
		}
		if !strings.EqualFold(n, name) {
			names = append(names, n)
		}
	}
	return names
}

func runPlay(a *app, o playOptions) error {
	if o.table != "" || o.host {
		return &exitError{code: 2, err: errors.New("playing at a LAN table from 'masque play' is not yet available"),
			hint: "use 'masque host' and 'masque join' for LAN tables, or run 'masque play' without --table/--host to play against bots"}
	}
	if o.players < 2 || o.players > len(demoNames) {
		return &exitError{code: 2, err: fmt.Errorf("--players %d: want 2..%d", o.players, len(demoNames))}
	}
	if !validName(o.name) {
		return &exitError{code: 2, err: fmt.Errorf("--name %q: not a valid player name", o.name),
			hint: "a name is 1..32 letters, digits, '_' or '-'"}
	}
	if !o.seeded {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return err
		}
		o.seed = binary.BigEndian.Uint64(b[:])
	}
	out, ok := a.stdout.(*os.File)
	if !ok || !term.IsTerminal(out.Fd()) {
		return &exitError{code: 2, err: errors.New("masque play needs a terminal"),
			hint: "run it in a terminal; for a game with no screen try 'masque demo'"}
	}

	logFile, logPath, err := openLog(o.logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelDebug}))
	logger.Info("masque play", "version", version, "players", o.players, "name", o.name, "seed", o.seed)

	names := tableNames(o.name, o.players)
	ls, err := localsession.New(names, o.seed, localsession.Options{Delay: o.delay, PublishKeys: !o.noKeys, Logger: logger})
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	var sess session.Session = ls
	final, runErr := tui.Run(sess, tui.Options{
		Title:           fmt.Sprintf("local table against %d bots", o.players-1),
		NoMemory:        o.noMemory,
		ChallengeWindow: o.window,
		NoColor:         a.noColor,
		Logger:          logger,
	}, a.stdin, a.stdout)
	sess.Close()
	if runErr != nil {
		logger.Error("screen", "err", runErr)
		return fmt.Errorf("play screen: %w", runErr)
	}

	snap := sess.Snapshot()
	if final.Quitting() && !snap.Over {
		fmt.Fprintln(a.stdout, "you left the table")
	}
	if s, ok := snap.Rules.(*mascarade.State); ok && s.Over() {
		fmt.Fprintf(a.stdout, "game over after %d turns: %s won\n", s.Turn(), strings.Join(winnerNames(s), ", "))
	}
	if snap.Verdict != "" {
		fmt.Fprintf(a.stdout, "the table stopped: %s\n", snap.Verdict)
	}
	path, err := savePlayTranscript(ls, o.transcript)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "played locally against bots (seed %d)\n", o.seed)
	fmt.Fprintf(a.stdout, "transcript: %s\n", path)
	fmt.Fprintf(a.stdout, "  check it:  masque verify %s\n", path)
	if snap.Over && !o.noKeys {
		fmt.Fprintf(a.stdout, "  every card: masque replay %s --reveal\n", path)
	} else {
		fmt.Fprintf(a.stdout, "  replay it: masque replay %s\n", path)
	}
	fmt.Fprintf(a.stdout, "log: %s\n", logPath)
	return nil
}

func winnerNames(s *mascarade.State) []string {
	var ws []string
	for _, w := range s.Winners() {
		ws = append(ws, s.Name(w))
	}
	return ws
}

func openLog(path string) (*os.File, string, error) {
	if path == "" {
		f, err := os.CreateTemp("", "masque-play-*.log")
		if err != nil {
			return nil, "", fmt.Errorf("log file: %w", err)
		}
		return f, f.Name(), nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("log file: %w", err)
	}
	return f, path, nil
}

func savePlayTranscript(ls *localsession.Session, path string) (string, error) {
	return writeDemoTranscript(ls.Transcript(), path)
}
