package main

import (
	"context"
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
	"github.com/masque-games/masque/cmd/masque/internal/web"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/seatview"
)

type playOptions struct {
	game       string
	scenario   string
	players    int
	name       string
	seed       uint64
	seeded     bool
	delay      time.Duration
	window     time.Duration
	transcript string
	noKeys     bool
	noMemory   bool
	noBell     bool
	logPath    string
	table      string
	host       string
	nameSet    bool // --player (or the old --name) was given
	relays     []string
	web        webOptions
}

func newPlayCmd(a *app) *cobra.Command {
	var o playOptions
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Play against bots or at a table, in the terminal or a browser",
		Long: `Sit down at a table and play in an interactive terminal screen: the seats
and what is known of them, whose turn it is, only the legal moves (a hidden
swap asks "really exchange the cards? y/n" separately), the questions only
you can answer with a countdown, the public log (which never tells a
secret) and your own memory: what you saw and when, and what could have
moved since.

'masque play' seats you against bots on this machine; every move still
goes through the real stack (keys, proofs, signatures). With --host NAME it
opens a LAN table called NAME instead (as 'masque host --name NAME'), with
--table NAME|CODE|INVITE it joins one (as 'masque join'): the same screen,
at a networked table.

` + a.gamesList() + `

Each game shows its own table: the seats and what you know of them, its
counters and the questions only you can answer.

--web shows the same table on a page in your browser instead (cards as
pictures), served by this masque on 127.0.0.1 only with a secret token in
its address; the terminal then shows a one-line status. --no-open prints
the address without opening a browser, --web-addr chooses a loopback
address (see docs/playing.md).

At the end the transcript is saved (replay it with 'masque replay FILE
--reveal': the players' keys are published at the end unless
--no-key-release). Logs go to a file, never to the screen.`,
		Example: `  masque play
  masque play --players 6 --player Kim --seed 7
` + a.gameExamples("play", "") + `
  masque play --transcript game.masque && masque replay game.masque --reveal
  masque play --host friday --players 5
  masque play --table friday`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			o.nameSet = cmd.Flags().Changed("player") || cmd.Flags().Changed("name")
			if err := o.web.check(); err != nil {
				return err
			}
			if o.table != "" || o.host != "" {
				return runPlayNet(cmd, a, o)
			}
			if len(o.relays) > 0 {
				return &exitError{code: exitUsage, err: errors.New("play: --relay is for a networked table"),
					hint: "add --host NAME to open one, or --table INVITE to join one"}
			}
			return runPlay(a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.game, "game", registry.Default, a.gameFlagHelp())
	f.StringVar(&o.scenario, "scenario", "", a.scenarioFlagHelp())
	f.IntVar(&o.players, "players", 4, a.playersFlagHelp("players at the table, you included"))
	f.StringVar(&o.name, "player", defaultPlayerName(a.list), "your `NAME` at the table (as for 'masque host' and 'masque join')")
	// --name was the player's name here and the table's in 'masque host':
	// kept, hidden, so old command lines still work.
	f.StringVar(&o.name, "name", defaultPlayerName(a.list), "your name at the table")
	f.MarkDeprecated("name", "use --player for your name (--name is a table's name in 'masque host')")
	f.Uint64Var(&o.seed, "seed", 0, "seed of the bots' decisions (default: random)")
	f.DurationVar(&o.delay, "bot-delay", 700*time.Millisecond, "how long each bot thinks")
	f.DurationVar(&o.window, "challenge-window", 30*time.Second, "time to answer a claim before passing automatically (0: no limit)")
	f.StringVar(&o.transcript, "transcript", "", "save the transcript to `PATH` (default: a new file in STATE/games, STATE being $XDG_STATE_HOME/masque or ~/.local/state/masque)")
	f.BoolVar(&o.noKeys, "no-key-release", false, "do not publish the players' keys at the end (replay --reveal then cannot show the cards)")
	f.BoolVar(&o.noMemory, "no-memory", false, "hide the memory panel: remember what you saw yourself")
	f.BoolVar(&o.noBell, "no-bell", false, "no terminal bell when it becomes your turn or a claim waits for your answer")
	f.StringVar(&o.logPath, "log", "", "write logs to `FILE` (default: a new file in STATE/logs)")
	f.StringVar(&o.table, "table", "", "join the table `NAME|CODE|INVITE` and play there (as 'masque join')")
	f.StringVar(&o.host, "host", "", "open a LAN table called `NAME` and play there (as 'masque host --name NAME')")
	addRelayFlag(cmd, &o.relays)
	addWebFlags(cmd, &o.web)
	return cmd
}

// fallbackPlayerName is the player's name when the environment gives
// none: a name, since the others and the transcript speak of the player
// in the third person ("Alex votes to eliminate Anna"); it is none of the
// bots' [demoNames].
const fallbackPlayerName = "Alex"

func defaultPlayerName(list []games.Game) string {
	for _, v := range []string{"MASQUE_NAME", "USER", "LOGNAME"} {
		if n := os.Getenv(v); n != "" && nameForAll(list, n) && !strings.EqualFold(n, "you") {
			return n
		}
	}
	return fallbackPlayerName
}

// nameForAll reports whether n may be a player's name in every game of
// list (each game's rule, games.CheckName): the default name is set
// before the game is chosen.
func nameForAll(list []games.Game, n string) bool {
	if games.CheckNameForm(n) != nil {
		return false
	}
	for _, g := range list {
		if games.CheckName(g, n) != nil {
			return false
		}
	}
	return true
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

// runPlayNet is 'masque play --host NAME' ('masque host --name NAME') and
// 'masque play --table NAME|CODE|INVITE' ('masque join'), with the
// defaults of those commands.
func runPlayNet(cmd *cobra.Command, a *app, o playOptions) error {
	if o.table != "" && o.host != "" {
		return &exitError{code: 2, err: errors.New("play: --host and --table are exclusive")}
	}
	if err := checkTableName("--host", o.host); err != nil {
		return err
	}
	no := netOptions{transcript: o.transcript, timeout: 2 * time.Minute, linger: 2 * time.Second,
		window: o.window, noMemory: o.noMemory, noBell: o.noBell, seed: o.seed, relays: o.relays, web: o.web}
	if o.nameSet {
		no.player = o.name
	}
	r, err := newNetRun(a, no, o.seeded)
	if err != nil {
		return err
	}
	if o.host != "" {
		return runHost(cmd.Context(), r, hostOptions{netOptions: no, game: o.game, scenario: o.scenario, noKeys: o.noKeys,
			players: o.players, name: o.host, moveTime: defaultMoveTime})
	}
	if cmd.Flags().Changed("game") || cmd.Flags().Changed("scenario") || cmd.Flags().Changed("players") || o.noKeys {
		return &exitError{code: 2, err: errors.New("play --table: the table decides the game, its players and the key release"),
			hint: "drop --game, --scenario, --players and --no-key-release, or open a table with --host NAME"}
	}
	jo := joinOptions{netOptions: no, wait: 30 * time.Second}
	if strings.HasPrefix(o.table, "/") {
		jo.addr = o.table
	} else {
		jo.table = o.table
	}
	return runJoin(cmd.Context(), r, jo)
}

func runPlay(a *app, o playOptions) error {
	setup, err := gameSetup(a.list, &o.game, o.scenario, o.players, len(demoNames))
	if err != nil {
		return err
	}
	g, err := findGame(a.list, o.game)
	if err != nil {
		return err
	}
	if err := games.CheckName(g, o.name); err != nil {
		return &exitError{code: 2, err: fmt.Errorf("--player %q: not a valid player name: %w", o.name, err),
			hint: "choose another name with --player"}
	}
	if !o.seeded {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return err
		}
		o.seed = binary.BigEndian.Uint64(b[:])
	}
	if !o.web.on && !a.outTerminal() {
		return &exitError{code: 2, err: errors.New("masque play needs a terminal"),
			hint: "run it in a terminal; for a game with no screen try 'masque demo'"}
	}

	logFile, logPath, err := openLog(o.logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: slog.LevelDebug}))
	logger.Info("masque play", "version", buildVersion(), "game", o.game, "scenario", o.scenario, "players", o.players, "name", o.name, "seed", o.seed)

	names := tableNames(o.name, o.players)
	ls, err := localsession.New(names, o.seed, localsession.Options{Game: o.game, Games: a.list, Setup: setup, Delay: o.delay, PublishKeys: !o.noKeys, Logger: logger,
		NightFloor: session.NightFloor})
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	var sess session.Session = ls
	topts := tui.Options{
		Title:           fmt.Sprintf("local table against %d %s", o.players-1, bots(o.players-1)),
		NoMemory:        o.noMemory,
		ChallengeWindow: o.window,
		NoColor:         a.noColor,
		Logger:          logger,
	}
	if !o.noBell {
		topts.Bell = a.stdout
	}
	var quitting bool
	if o.web.on {
		if o.transcript == "" {
			// The page's result names the transcript: its file is chosen now.
			f, err := createStateFile("games", "game-*.masque")
			if err != nil {
				return fmt.Errorf("transcript: %w", err)
			}
			o.transcript = f.Name()
			f.Close()
		}
		path, publish := o.transcript, !o.noKeys
		left, _, err := runWeb(context.Background(), a.stdout, sess, o.web, web.Options{Title: topts.Title, NoMemory: o.noMemory,
			ChallengeWindow: o.window, Logger: logger, EndNotes: func() []string { return transcriptNotes(path, publish, "when you leave this page") }})
		sess.Close()
		if err != nil {
			logger.Error("screen", "err", err)
			return err
		}
		quitting = left
	} else {
		screen := a.screen
		if screen == nil {
			screen = func(sess session.Session, opts tui.Options) (tui.Model, error) {
				return tui.Run(sess, opts, a.stdin, a.stdout)
			}
		}
		final, runErr := screen(sess, topts)
		sess.Close()
		if runErr != nil {
			logger.Error("screen", "err", runErr)
			return fmt.Errorf("play screen: %w", runErr)
		}
		quitting = final.Quitting()
	}

	snap := sess.Snapshot()
	if quitting && !snap.Over {
		fmt.Fprintln(a.stdout, "you left the table")
	}
	if t, ok := seatview.Build(snap.Viewer, snap.Input()); ok && t.Ending != "" {
		fmt.Fprintln(a.stdout, t.Ending)
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

// outTerminal reports whether stdout is a terminal (the local play
// screen's need); a test's app says so with its terminal hook.
func (a *app) outTerminal() bool {
	if a.terminal != nil {
		return a.terminal()
	}
	out, ok := a.stdout.(*os.File)
	return ok && term.IsTerminal(out.Fd())
}

func openLog(path string, pattern ...string) (*os.File, string, error) {
	if path == "" {
		name := "play-*.log"
		if len(pattern) > 0 {
			name = pattern[0]
		}
		f, err := createStateFile("logs", name)
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

// bots is the noun for n bots: "bot" or "bots".
func bots(n int) string {
	if n == 1 {
		return "bot"
	}
	return "bots"
}
