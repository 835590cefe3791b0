package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/tui"

	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/table"
)

// version is set at build time with -ldflags "-X main.version=..."; when
// it is not, buildVersion reads the module's build information.
var version = ""

// buildVersion returns the release version set at build time, else the
// module version (go install ...@v1.2.3), else the VCS revision the build
// was stamped with (a build in a git checkout, "+dirty" when it had local
// changes), else "devel".
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionOf(version, bi)
}

// versionOf is buildVersion given the release constant and the build
// information (nil: none).
func versionOf(release string, bi *debug.BuildInfo) string {
	if release != "" {
		return release
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return "devel-" + rev + dirty
	}
	return "devel"
}

// app holds what every command needs: its streams and the games it knows.
// Commands get it explicitly; there are no command globals.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// list is the games this masque plays (registry.All(); a test adds
	// its own), games the same as the table layer sees them.
	list    []games.Game
	games   table.Games
	noColor bool
	// screen runs the play screen for a session; nil: tui.Run on stdin
	// and stdout. Tests drive the screen's model with messages instead.
	screen func(sess session.Session, opts tui.Options) (tui.Model, error)
	// terminal reports whether stdin and stdout are a terminal; nil:
	// they are checked.
	terminal func() bool
}

// Exit statuses, the same for every command (root --help lists them).
const (
	exitOK      = 0 // done; for verify, the transcript is valid
	exitFault   = 1 // the command failed; for verify and replay, a seat is to blame (named)
	exitUsage   = 2 // bad command line: unknown command or flag, wrong arguments
	exitDamaged = 3 // a file is unreadable, damaged or not a transcript, or an entry no roster key signed (damage or forgery: nobody is blamed)
)

// errDamaged marks an error as exitDamaged's.
var errDamaged = errors.New("the file may be damaged")

// exitError carries an exit status and an optional hint.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return newApp(stdin, stdout, stderr).run(context.Background(), args)
}

// runContext is run with a context: cancelling it stops the command as
// an interrupt would (tests that must not outlive their deadline).
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return newApp(stdin, stdout, stderr).run(ctx, args)
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return newAppGames(stdin, stdout, stderr, registry.All())
}

// newAppGames is newApp playing the games in list instead of the
// registry's: the one seam through which a test adds a game.
func newAppGames(stdin io.Reader, stdout, stderr io.Writer, list []games.Game) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr,
		list: list, games: tableGames(list),
		noColor: os.Getenv("NO_COLOR") != ""}
}

func (a *app) run(ctx context.Context, args []string) int {
	stdin, stdout, stderr := a.stdin, a.stdout, a.stderr
	root := newRootCmd(a)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{code: 2, err: plainFlagError(err), hint: fmt.Sprintf("run '%s --help' for the flags", c.CommandPath())}
	})
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	code := exitFault
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		code = ee.code
	case strings.HasPrefix(err.Error(), "unknown command"):
		code, ee = exitUsage, &exitError{code: exitUsage, err: err, hint: "'masque --help' lists the commands"}
	case errors.Is(err, errDamaged):
		code = exitDamaged
	}
	// Errors quote what peers and files said (a creator's refusal, a
	// verdict's reason, names): escaped, never printed raw.
	fmt.Fprintf(stderr, "masque: error: %s\n", termsafe.Lines(err.Error()))
	if ee != nil && ee.hint != "" {
		fmt.Fprintf(stderr, "masque: hint: %s\n", termsafe.Lines(ee.hint))
	}
	return code
}

// exactArgs is cobra.ExactArgs with a usage exit status (2) and a hint.
func exactArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(c, args); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("%s: %w", c.Name(), err), hint: fmt.Sprintf("usage: %s", c.UseLine())}
		}
		return nil
	}
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "masque",
		Short: "Hidden-role card games peer to peer, where nobody can cheat unseen",
		Long: `masque plays hidden-role card games on a LAN with no host, or online
with no trusted server and no moderator. Cards are hidden with mental poker
on ristretto255: every hidden swap, peek and reveal carries a zero-knowledge
proof, and every peer checks every move with the same rules engine.
A finished game is a transcript anyone can audit with 'masque verify'.

Start here:
  masque demo                bots play a game on this machine; it is verified
  masque play                you against bots, in the terminal
  masque host / masque join  a table on the LAN (mDNS) or online (by invite)
  masque lobby               the tables on the LAN
  masque relay               a relay for friends behind home routers
  masque script game.txt     play a scripted game through the real stack
  masque verify game.masque  audit a transcript; masque replay narrates it
  masque help games          the games, what each one hides, their options

` + a.gamesList() + `

Exit status, for every command:
  0  done (verify: the transcript is valid)
  1  failed: what was asked cannot be done (no such table, the table stopped,
     replay --reveal of a game whose keys were not published); verify and
     replay of a transcript with an invalid entry name the seat to blame
  2  bad command line: an unknown command or flag, missing or extra arguments
  3  a file is unreadable, damaged or not a transcript, or holds an entry that
     no player signed (damage or forgery: nobody is blamed)`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints what 'masque version' prints.
		Version: buildVersion(),
	}
	// Flag help wraps to 80 columns, each flag's text in its own column,
	// so that no line runs off an 80-column screen.
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(), ".FlagUsages", fmt.Sprintf(".FlagUsagesWrapped %d", helpWidth+4)))
	// The phone page's hash is computed only when --version is given
	// (a template function): it reads the page's WebAssembly.
	root.SetVersionTemplate(strings.ReplaceAll(versionLine(), "{{", "{{\"{{\"}}") + "\nphone page: {{masquePhonePage}}\n")
	root.AddCommand(newPlayCmd(a), newHostCmd(a), newJoinCmd(a), newPhonesCmd(a), newLobbyCmd(a), newRelayCmd(a), newDoctorCmd(a), newDemoCmd(a), newScriptCmd(a), newVerifyCmd(a), newReplayCmd(a), newWatchCmd(a), newBenchCmd(a), newVersionCmd(a), newGamesCmd(a), newManCmd(a))
	for _, c := range root.Commands() {
		if c.Flags().Lookup("game") != nil {
			c.RegisterFlagCompletionFunc("game", a.completeGames)
		}
		if c.Flags().Lookup("scenario") != nil {
			c.RegisterFlagCompletionFunc("scenario", a.completeScenarios)
		}
	}
	return root
}

// badFlagValue matches the flag package's error for a value that does not
// parse: `invalid argument "abc" for "--players" flag: strconv.ParseInt:
// parsing "abc": invalid syntax`.
var badFlagValue = regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: (.*)$`)

// plainFlagError says a flag's bad value in words, without the parser's
// function names: `--players "abc": not a whole number`.
func plainFlagError(err error) error {
	m := badFlagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, flag, why := m[1], m[2], m[3]
	for _, w := range flagWhyWords {
		if strings.Contains(why, w.parser) {
			why = w.words
			break
		}
	}
	return fmt.Errorf("%s %q: %s", flag, value, why)
}

// flagWhyWords are the words for a flag parser's reason, by a part of it;
// the first that the reason contains wins.
var flagWhyWords = []struct{ parser, words string }{
	{"value out of range", "out of range"},
	{"strconv.ParseUint", "not a whole number of 0 or more"},
	{"strconv.ParseInt", "not a whole number"},
	{"strconv.ParseBool", "not true or false"},
	{"strconv.ParseFloat", "not a number"},
	{"time: invalid duration", "not a duration (such as 700ms, 30s or 2m)"},
}
