package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/tui"
	"github.com/masque-games/masque/cmd/masque/internal/web"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// netOptions are the flags 'masque host' and 'masque join' share.
type netOptions struct {
	bot        bool
	player     string
	transcript string
	state      string
	config     string
	ifaces     []string
	listen     []string
	timeout    time.Duration
	seed       uint64
	seeded     bool
	asJSON     bool
	quiet      bool
	linger     time.Duration
	window     time.Duration
	noMemory   bool
	noBell     bool
	logPath    string
	relays     []string
	relayWait  time.Duration
	say        []string
	web        webOptions
	botDelay   time.Duration
}

func (o *netOptions) addFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.bot, "bot", false, "let a bot play this seat, with no terminal (automation, tests); without it you play on the screen")
	f.StringVar(&o.player, "player", "", "your `NAME` at the table (default: your user name; a bot's is bot-XXXX)")
	f.StringVar(&o.transcript, "transcript", "", "write the transcript to `PATH` at the end (default: STATE/transcript.masque)")
	f.StringVar(&o.state, "state", "", "the table's state `DIR` (default: STATE/tables/FINGERPRINT/TABLE-ID, STATE being $XDG_STATE_HOME/masque or ~/.local/state/masque); the same command rejoins after a crash")
	f.StringVar(&o.config, "config", "", "configuration `DIR` holding your identity key (default: the user config dir + /masque)")
	f.StringSliceVar(&o.ifaces, "interface", nil, "use only this network `INTERFACE` for mDNS (repeatable; default: all)")
	f.StringSliceVar(&o.listen, "listen", nil, "libp2p listen `MULTIADDR` (repeatable; default: every IPv4 address, TCP and QUIC, random ports)")
	f.DurationVar(&o.timeout, "timeout", 2*time.Minute, "how long a silent player is waited for before the table stops with a timeout verdict")
	f.Uint64Var(&o.seed, "seed", 0, "seed of the bot's decisions (default: random)")
	f.DurationVar(&o.botDelay, "bot-delay", 0, "with --bot: how long the bot thinks before each move or night choice (benchmarks at a person's pace; 0: at once)")
	f.BoolVar(&o.asJSON, "json", false, "print the result as JSON (progress goes to stderr)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not narrate the game")
	f.DurationVar(&o.linger, "linger", 2*time.Second, "when some seat never confirmed the end of the game (the done exchange), keep answering peers this long, so that late ones catch up")
	f.DurationVar(&o.window, "challenge-window", 30*time.Second, "on the screen: time to answer a claim before passing automatically (0: no limit)")
	f.StringVar(&o.logPath, "log", "", "write diagnostics (network, screen) to `FILE` (default: a new file in STATE/logs when you play on the screen, none with --bot)")
	f.BoolVar(&o.noBell, "no-bell", false, "on the screen: no terminal bell when it becomes your turn or a claim waits for your answer")
	f.BoolVar(&o.noMemory, "no-memory", false, "hide the memory panel (host: on every player's screen at the table)")
	cmd.Flags().MarkHidden("linger")
	addRelayFlag(cmd, &o.relays)
	f.StringArrayVar(&o.say, "say", nil, "post `TEXT` in the table chat when the game starts (repeatable; at most 280 bytes each, 5 at once); on the screen, press c to chat")
	f.DurationVar(&o.relayWait, "relay-wait", relayWait, "how long to wait for the relays' reservations (and hole punching's readiness) before going on")
	cmd.Flags().MarkHidden("relay-wait")
	addWebFlags(cmd, &o.web)
}

// netResult is the --json output of 'masque host' and 'masque join'.
type netResult struct {
	Table      string       `json:"table"`
	TableID    string       `json:"table_id"`
	Code       string       `json:"code"`
	Seat       int          `json:"seat"`
	Player     string       `json:"player"`
	Players    []string     `json:"players"`
	Restarted  bool         `json:"restarted"`
	Replayed   int          `json:"replayed"`
	StateDir   string       `json:"state_dir"`
	Transcript string       `json:"transcript"`
	Entries    int          `json:"entries"`
	Seconds    float64      `json:"seconds"`
	Verdict    string       `json:"verdict,omitempty"`
	Verify     verifyResult `json:"verify"`
	// Chat is the table chat's file beside the transcript, and how many
	// messages it holds (none: no file).
	Chat         string `json:"chat,omitempty"`
	ChatMessages int    `json:"chat_messages"`
}

// netRun is one host or join run: options, output streams, identity.
type netRun struct {
	a        *app
	o        netOptions
	out      io.Writer // narration and progress
	mu       sync.Mutex
	config   string
	lobbyOpt lobby.Options
	start    time.Time
	// logger, if set, receives the network's and the screen's diagnostics
	// (--log, or a file in STATE/logs on the screen); logFile is closed by
	// the command.
	logger  *slog.Logger
	logFile *os.File
	logPath string
	// relays are --relay's, parsed (none: no relay at all, as on a LAN).
	relays []peer.AddrInfo
	// relaysFrom is where relays came from: "--relay", the config file's
	// path, or "" (none).
	relaysFrom string
	// lan, if set, are the networks counted as this machine's LAN instead
	// of its interfaces' (tests of the hints; see onLAN).
	lan []*net.IPNet
	// phones is the phones' server of a table hosted with --phones.
	phones *phoneServer
	// onScreen is set while the terminal play screen is up: printf then
	// holds its lines (and logs them), printed once the screen is gone,
	// since a line written over the screen garbles it (the phones'
	// server's messages did).
	onScreen bool
	held     []string
}

func newNetRun(a *app, o netOptions, seeded bool) (*netRun, error) {
	o.seeded = seeded
	r := &netRun{a: a, o: o, out: a.stdout, start: time.Now()}
	if o.asJSON {
		r.out = a.stderr
	}
	r.config = o.config
	if r.config == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return nil, &exitError{code: 1, err: fmt.Errorf("no configuration directory: %w", err), hint: "give one with --config DIR"}
		}
		r.config = filepath.Join(dir, "masque")
	}
	relays, from, err := resolveRelays(o.relays, r.config)
	if err != nil {
		return nil, err
	}
	r.relays, r.relaysFrom = relays, from
	if from != "" && from != "--relay" {
		r.printf("using the relays of %s (--relay replaces them): %s", from, relayNames(relays))
	}
	if err := o.web.check(); err != nil {
		return nil, err
	}
	if o.bot && o.web.on {
		return nil, &exitError{code: exitUsage, err: errors.New("--bot and --web are exclusive: a bot plays headless"), hint: "drop --bot to play in your browser"}
	}
	if !o.bot && !o.web.on && !a.isTerminal() {
		return nil, &exitError{code: 2, err: errors.New("interactive play needs a terminal"),
			hint: "run it in a terminal to play on the screen, or add --bot to let a bot play this seat headless ('masque play' plays against bots on this machine)"}
	}
	if o.window < 0 {
		return nil, &exitError{code: 2, err: fmt.Errorf("--challenge-window %v: want a positive duration (0: no limit)", o.window)}
	}
	if o.timeout < 0 {
		return nil, &exitError{code: 2, err: fmt.Errorf("--timeout %v: want a positive duration (0: wait forever)", o.timeout)}
	}
	if o.player != "" && !netsession.ValidName(o.player) {
		return nil, &exitError{code: 2, err: fmt.Errorf("--player %q: want 1..32 letters, digits, '_' or '-'", o.player)}
	}
	if len(o.ifaces) > 0 {
		ifs, err := lobby.Interfaces(o.ifaces...)
		if err != nil {
			return nil, &exitError{code: 2, err: err, hint: "list the interfaces with 'masque doctor'"}
		}
		r.lobbyOpt.Interfaces = ifs
	}
	if !r.o.seeded {
		var b [8]byte
		crand.Read(b[:])
		r.o.seed = binary.BigEndian.Uint64(b[:])
	}
	if o.logPath != "" || !o.bot {
		f, path, err := openLog(o.logPath, "net-*.log")
		if err != nil {
			return nil, &exitError{code: exitUsage, err: err, hint: "give a writable file with --log FILE"}
		}
		r.logFile, r.logPath = f, path
		r.logger = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
		r.logger.Info("masque", "version", buildVersion(), "args", os.Args[1:])
	}
	return r, nil
}

// isTerminal reports whether stdin and stdout are a terminal (the play
// screen's need).
func (a *app) isTerminal() bool {
	if a.terminal != nil {
		return a.terminal()
	}
	return isTerminal(a.stdin) && isTerminal(a.stdout)
}

// isTerminal reports whether stream (a reader or a writer) is an *os.File
// open on a terminal.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	// A character device is not enough: /dev/null is one, and a host
	// reading it would wait for a player who can never type.
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the number of columns of the terminal stream is, or 0
// when it is not a terminal or its size is unknown.
func terminalWidth(stream any) int {
	f, ok := stream.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return w
}

// printf prints one line of progress or narration. Lines quote what peers
// wrote (names, reasons), so control characters are escaped (termsafe).
func (r *netRun) printf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := termsafe.String(fmt.Sprintf(format, args...))
	if r.onScreen {
		r.held = append(r.held, line)
		if r.logger != nil {
			r.logger.Info("held while the play screen is up", "line", line)
		}
		return
	}
	fmt.Fprintln(r.out, wrapLine(line, terminalWidth(r.out)))
}

// screenUp says whether the play screen is up: while it is, printf holds
// its lines; when it goes, they are printed.
func (r *netRun) screenUp(up bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.onScreen = up
	if !up {
		w := terminalWidth(r.out)
		for _, line := range r.held {
			fmt.Fprintln(r.out, wrapLine(line, w))
		}
		r.held = nil
	}
}

// playerName is --player, or a default: the user's name for a person, a
// bot name derived from the peer id for a bot.
func (r *netRun) playerName(p *netsession.Peer) string {
	if r.o.player != "" {
		return r.o.player
	}
	if !r.o.bot {
		if u, err := user.Current(); err == nil && netsession.ValidName(u.Username) {
			return u.Username
		}
	}
	id := p.ID.PeerID().String()
	return "bot-" + id[len(id)-4:]
}

// signalContext is ctx cancelled on SIGINT and SIGTERM.
func signalContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx == nil {
		ctx = context.Background()
	}
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// hasTable reports whether dir is a state directory holding a table.
func hasTable(dir string) bool {
	if dir == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(dir, store.TableFile))
	return err == nil
}

// listenFile keeps the addresses a peer listened on, beside its state, so
// that a restarted peer listens where the others remember it.
const listenFile = "listen"

// games are the games the run plays: its app's (nil: the registry's, for
// a run a test made without an app).
func (r *netRun) games() []games.Game {
	if r.a == nil {
		return nil
	}
	return r.a.list
}

// startPeer starts the node: on the addresses remembered in stateDir when
// rejoining (if they are still free), else on --listen or the defaults. A
// --listen address with port 0 (any port) is taken as the one remembered
// for it: the others, and the invite, know the port it got the first time.
func (r *netRun) startPeer(stateDir string) (*netsession.Peer, error) {
	if stateDir != "" {
		if data, err := os.ReadFile(filepath.Join(stateDir, listenFile)); err == nil {
			if addrs := rememberedListen(r.o.listen, strings.Fields(string(data))); len(addrs) > 0 && !slices.Equal(addrs, r.o.listen) {
				if p, err := netsession.NewRelayedPeer(r.config, addrs, r.relays, r.logger); err == nil {
					p.Games = r.games()
					r.awaitRelays(p)
					return p, nil
				}
			}
		}
	}
	p, err := netsession.NewRelayedPeer(r.config, r.o.listen, r.relays, r.logger)
	if err != nil {
		return nil, &exitError{code: 1, err: err, hint: "check --listen and --config; 'masque doctor' tests the network"}
	}
	p.Games = r.games()
	r.awaitRelays(p)
	return p, nil
}

// anyPort matches a multiaddr's TCP or UDP port.
var anyPort = regexp.MustCompile(`/(tcp|udp)/[0-9]+`)

// rememberedListen is where a restarted peer listens: the remembered
// addresses without --listen; with it, each --listen address, except that
// one with port 0 becomes the remembered address it was bound to (same
// IP and transport, port 0 aside).
func rememberedListen(listen, remembered []string) []string {
	if len(listen) == 0 {
		return remembered
	}
	out := make([]string, 0, len(listen))
	for _, l := range listen {
		got := l
		if anyPort.ReplaceAllString(l, "/$1/0") == l {
			for _, m := range remembered {
				if anyPort.ReplaceAllString(m, "/$1/0") == l {
					got = m
					break
				}
			}
		}
		out = append(out, got)
	}
	return out
}

// rememberListen writes the node's listen addresses into the state dir.
func rememberListen(p *netsession.Peer, dir string) {
	var s []string
	for _, a := range p.Node.Host().Network().ListenAddresses() {
		s = append(s, a.String())
	}
	os.WriteFile(filepath.Join(dir, listenFile), []byte(strings.Join(s, "\n")+"\n"), 0o600)
}

// defaultStateDir is STATE/tables/FINGERPRINT/TABLE-ID: the state of this
// identity's games (stateHome), one directory per identity so that two
// players on one machine (two --config) never mix theirs.
func (r *netRun) defaultStateDir(id peer.ID, tableID [16]byte) (string, error) {
	dir, err := stateSubdir("tables", lobby.Fingerprint(id))
	if err != nil {
		return "", &exitError{code: exitFault, err: err, hint: "give the game's state directory with --state DIR"}
	}
	return filepath.Join(dir, hex.EncodeToString(tableID[:])), nil
}

// tableRoots are the directories holding this identity's games' state
// directories: STATE/tables/FINGERPRINT, and CONFIG/tables where earlier
// versions kept them.
func (r *netRun) tableRoots() []string {
	roots := []string{filepath.Join(r.config, "tables")}
	if id, err := identity.Load(r.config); err == nil {
		if home, err := stateHome(); err == nil {
			roots = append([]string{filepath.Join(home, "tables", lobby.Fingerprint(id.PeerID()))}, roots...)
		}
	}
	return roots
}

// play runs the game on an open state directory to its end, then writes
// and verifies the transcript. restarted says the store was reopened.
func (r *netRun) play(ctx context.Context, p *netsession.Peer, st *store.Store, restarted bool) error {
	tbl := st.Table()
	rememberListen(p, st.Dir())
	defer recordHolePunches(ctx, p.Node, st.Dir(), tbl)()
	cfg := netsession.GameConfig{Node: p.Node, Games: r.games(), Store: st, Bot: r.o.bot, Seed: r.o.seed, BotDelay: r.o.botDelay, Timeout: r.o.timeout}
	interactive := !r.o.bot
	if interactive {
		// A person's seat holding no secret choice in a round of secret
		// choices does not post at once: its timing would tell.
		cfg.NightFloor = session.NightFloor
	}
	if !r.o.quiet && !r.o.asJSON && !interactive {
		cfg.Narrate = func(line string) { r.printf("%s", line) }
	}
	lastWait := time.Time{}
	cfg.OnWait = func(w p2p.Wait, name string) {
		if interactive {
			return // the screen shows whom the table waits for
		}
		// A countdown line every 5 s once a peer has been silent for 3 s.
		if (w.Local && !w.Checking) || w.Waited < 3*time.Second || time.Since(lastWait) < 5*time.Second {
			return
		}
		lastWait = time.Now()
		if w.Checking {
			r.printf("your turn at entry %d, but first the other seats must tell this restarted seat what it already signed (its state directory may have lost entries): no seat reached yet", w.Pos)
			return
		}
		if !w.NoContactSince.IsZero() {
			r.printf("no contact with any seat since %s: waiting for %s (seat %d) at entry %d, no timeout verdict while cut off (the silence may be this network's)",
				w.NoContactSince.Format(time.TimeOnly), name, w.Seat, w.Pos)
			return
		}
		if w.Left > 0 {
			r.printf("waiting for %s (seat %d) at entry %d: %v left before the timeout verdict", name, w.Seat, w.Pos, w.Left.Round(time.Second))
		} else {
			r.printf("waiting for %s (seat %d) at entry %d for %v", name, w.Seat, w.Pos, w.Waited.Round(time.Second))
		}
	}
	if !r.o.quiet && !r.o.asJSON && !interactive {
		cfg.OnChat = func(l session.ChatLine) { r.printf("chat: %s (seat %d): %s", l.Name, l.Seat, l.Text) }
	}
	g, err := netsession.Start(ctx, cfg)
	if err != nil {
		st.Close()
		return &exitError{code: 1, err: err}
	}
	defer g.Close()
	for _, text := range r.o.say {
		if err := g.Chat(text); err != nil {
			r.printf("warning: --say %q: %v", text, err)
		}
	}
	if restarted {
		r.printf("rejoined %s as %s (seat %d): %d entries replayed from %s, catching up with the others",
			tableLabel(tbl.Roster), g.Names()[g.Seat()], g.Seat(), g.Replayed(), st.Dir())
	} else {
		r.printf("the game is saved in %s after every entry: if masque stops, run the same command again to rejoin", st.Dir())
	}
	if interactive {
		if err := r.screen(ctx, g, st.Dir()); errors.Is(err, errOutOfGame) {
			return nil // out of the game: the others play on without this seat
		} else if err != nil {
			return err
		}
	}
	out, err := g.Result()
	r.trace("run returned")
	if err != nil {
		if ctx.Err() != nil {
			return &exitError{code: 130, err: errors.New("interrupted"),
				hint: fmt.Sprintf("to rejoin this game, run the same command again (it finds %s)", st.Dir())}
		}
		if errors.Is(err, p2p.ErrTimedOut) {
			return &exitError{code: 1, err: err, hint: "the other seats ended the table without this seat: they timed it out before its entry reached them"}
		}
		return &exitError{code: 1, err: err, hint: fmt.Sprintf("the state is in %s; run again with --state %s to rejoin", st.Dir(), st.Dir())}
	}
	// Every seat that said done has the end (p2p's done exchange): keep
	// answering peers for a moment only when some seat never confirmed
	// it, since it may still be fetching the end.
	if out.Verdict == nil && len(out.Unconfirmed) > 0 && r.o.linger > 0 && !interactive {
		select {
		case <-time.After(r.o.linger):
		case <-ctx.Done():
		}
	}
	path := r.o.transcript
	if path == "" {
		path = filepath.Join(st.Dir(), "transcript.masque")
	}
	tr, err := g.Transcript()
	var enc []byte
	if err == nil {
		enc, err = tr.MarshalBinary()
	}
	if err == nil {
		err = safefile.Write(path, enc, 0o644)
	}
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("transcript: %w", err)}
	}
	r.trace("transcript written")
	chatPath, chatCount, err := writeChat(g, path)
	if err != nil {
		r.printf("warning: the table chat was not saved: %v", err)
	}
	if err := keepVerdict(path, out.Verdict); err != nil {
		return &exitError{code: 1, err: fmt.Errorf("verdict: %w", err)}
	}
	// The seat's replica checked every entry as it came (p2p the
	// signatures, the table the proofs and rules): its state is the
	// verification; the transcript is not replayed a second time.
	res := replicaResult(r.a.list, tr, g.Table())
	nr := netResult{Table: tableLabel(tbl.Roster), TableID: hex.EncodeToString(tbl.Roster.TableID[:]),
		Code: rosterCode(tbl.Roster), Seat: g.Seat(), Player: g.Names()[g.Seat()], Players: g.Names(),
		Restarted: restarted, Replayed: g.Replayed(), StateDir: st.Dir(), Transcript: path, Entries: len(tr.Entries),
		Seconds: time.Since(r.start).Seconds(), Verify: res, Chat: chatPath, ChatMessages: chatCount}
	if out.Verdict != nil {
		nr.Verdict = out.Verdict.String()
	}
	for _, v := range out.Later {
		r.printf("found after the game's last entry (the game's outcome stands): %v", v)
	}
	if r.o.asJSON {
		if err := json.NewEncoder(r.a.stdout).Encode(nr); err != nil {
			return err
		}
	} else {
		r.printf("transcript: %s (%d entries)", path, len(tr.Entries))
		if chatPath != "" {
			r.printf("table chat: %s (%d %s; 'masque replay %s' shows them)", chatPath, chatCount, plural(chatCount, "message", "messages"), path)
		}
	}
	switch {
	case out.Verdict != nil:
		return &exitError{code: 1, err: fmt.Errorf("the table stopped: %v", out.Verdict),
			hint: fmt.Sprintf("the transcript up to the verdict is in %s, the signed verdict in %s; 'masque verify %s' audits both", path, path+verdictSuffix, path)}
	case !res.Done:
		return &exitError{code: 1, err: errors.New("the game is not finished")}
	}
	if !r.o.asJSON {
		r.printf("verified: %d entries of %s, every signature, proof and rule checked", res.Entries, res.Game)
		if res.Final != nil {
			r.printf("winners: %s", strings.Join(res.Final.Winners, ", "))
		}
	}
	return nil
}

// ChatSuffix names a transcript's chat file: TRANSCRIPT.chat.
const chatSuffix = ".chat"

// keepVerdict writes the verdict that stopped the table beside its
// transcript at path, or removes one an earlier game left there.
func keepVerdict(path string, v *p2p.Verdict) error {
	if v == nil {
		if err := os.Remove(path + verdictSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	_, err := writeVerdictFile(path, v)
	return err
}

// writeChat writes g's chat beside the transcript at path (nothing when
// nobody wrote) and returns the file and its message count.
func writeChat(g *netsession.Game, path string) (string, int, error) {
	f := g.ChatFile()
	if f == nil {
		return "", 0, nil
	}
	enc, err := f.Marshal()
	if err != nil {
		return "", 0, err
	}
	if err := safefile.Write(path+chatSuffix, enc, 0o644); err != nil {
		return "", 0, err
	}
	return path + chatSuffix, len(f.Messages), nil
}

// screen shows the play screen for the local seat of g until the player
// leaves it. Leaving before the end of the game is an error telling how to
// rejoin.
func (r *netRun) screen(ctx context.Context, g *netsession.Game, dir string) error {
	keys := "card keys kept secret"
	if g.PublishesKeys() {
		keys = "card keys published at the end"
	}
	title := screenTitle(g.Roster(), keys, g.Replayed())
	opts := tui.Options{
		Title:           title,
		NoMemory:        r.o.noMemory || netsession.HidesMemory(g.Roster()),
		ChallengeWindow: r.o.window,
		NoColor:         r.a.noColor,
		Logger:          r.logger,
	}
	if !r.o.noBell {
		opts.Bell = r.a.stdout
	}
	if r.o.web.on {
		path := r.o.transcript
		if path == "" {
			path = filepath.Join(dir, "transcript.masque")
		}
		publish := g.PublishesKeys()
		_, over, err := runWeb(ctx, r.a.stdout, g, r.o.web, web.Options{Title: title, NoMemory: opts.NoMemory,
			ChallengeWindow: r.o.window, Logger: r.logger,
			EndNotes: func() []string {
				return transcriptNotes(path, publish, "when the game is over and you leave this page")
			}})
		if err != nil {
			return err
		}
		if over && !g.Snapshot().Over {
			// The page showed the end of the rules; the table still
			// finishes (the keys published at the end): wait for it.
			select {
			case <-g.Done():
			case <-ctx.Done():
			}
		}
		return r.afterScreen(ctx, g, dir)
	}
	screen := r.a.screen
	if screen == nil {
		screen = func(sess session.Session, opts tui.Options) (tui.Model, error) {
			return tui.Run(sess, opts, r.a.stdin, r.a.stdout)
		}
	}
	r.screenUp(true)
	_, err := screen(g, opts)
	r.screenUp(false)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("play screen: %w", err),
			hint: fmt.Sprintf("the game goes on without you; run again with --state %s to rejoin", dir)}
	}
	return r.afterScreen(ctx, g, dir)
}

// errOutOfGame is afterScreen's word that the seat is out of a game that
// goes on (it left, or was eliminated, and published its card key): the
// command ends without waiting for the others.
var errOutOfGame = errors.New("out of the game")

// afterScreen waits, once the player left the screen, for the end of a
// finished game; leaving before the end is an error telling how to
// rejoin.
func (r *netRun) afterScreen(ctx context.Context, g *netsession.Game, dir string) error {
	if g.Snapshot().Over {
		// The game is over (the room may still be finishing): wait for it.
		select {
		case <-g.Done():
		case <-ctx.Done():
		}
	}
	select {
	case <-g.Done():
		return nil
	default:
	}
	if s := g.Snapshot(); s.Retired {
		// Out of the game (left, or eliminated), with the card key
		// published and held by every seat: nobody waits for this seat,
		// and the same command must not resume it (nor 'masque host'
		// take it for the table to resume).
		if err := os.WriteFile(filepath.Join(dir, outFile), []byte("out of the game: nothing to resume\n"), 0o600); err != nil {
			r.printf("warning: %v", err)
		}
		r.printf("you are out of the game; the others play on without you")
		// The creator announces the table in play (by its join code)
		// until it leaves: when the creator is the one leaving, give a
		// seat still playing, by the address this peer reaches it at.
		if g.Seat() != 0 {
			r.printf("to follow the rest of it: masque watch %s", rosterCode(g.Roster()))
		} else if addrs := g.WatchAddrs(); len(addrs) > 0 {
			r.printf("to follow the rest of it: masque watch %s", addrs[0])
		}
		return errOutOfGame
	}
	if ctx.Err() != nil {
		return &exitError{code: 130, err: errors.New("interrupted"),
			hint: fmt.Sprintf("to rejoin this game, run the same command again with --state %s", dir)}
	}
	return &exitError{code: 1, err: errors.New("you left the table before the end of the game"),
		hint: fmt.Sprintf("the game is not over and the others wait for you: when your move is due and its time runs out, they stop the table and name you. To come back, run the same command again (it finds the game in %s)", dir)}
}

// screenTitle is a network table's title on the play screen and page
// (after "masque · GAME"): its host's name, the players, what becomes of
// the card keys, and a restart's entries. Not its join code: a table
// announced nowhere (--unlisted, --no-mdns) has none its players saw,
// and the host's name is how a first-time player knows the table.
func screenTitle(r *ledger.Roster, keys string, replayed int) string {
	host := "the host"
	if len(r.Seats) > 0 {
		host = r.Seats[0].Name
	}
	title := fmt.Sprintf("%s's table · %d players · %s", host, len(r.Seats), keys)
	if replayed > 0 {
		// A restart: say so, so that nobody thinks a new game began.
		title += fmt.Sprintf(" · resumed after %d entries", replayed)
	}
	return title
}

// tableLabel is how a table is named in messages: its join code.
func tableLabel(r *ledger.Roster) string { return "table " + rosterCode(r) }

// rosterCode is the join code of a roster's table: its id and its
// creator, seat 0.
func rosterCode(r *ledger.Roster) string {
	var creator peer.ID
	if len(r.Seats) > 0 {
		creator = peer.ID(r.Seats[0].PeerID)
	}
	return lobby.Code(r.TableID, creator)
}

// --- masque host ---

type hostOptions struct {
	netOptions
	game      string
	scenario  string
	noKeys    bool
	players   int
	name      string
	noAdvert  bool
	unlisted  bool
	waitSeats time.Duration
	fresh     bool // --new: never resume an unfinished table
	moveTime  time.Duration
	moveSet   bool // --move-time was given
	phones    phoneOptions
}

func newHostCmd(a *app) *cobra.Command {
	var o hostOptions
	cmd := &cobra.Command{
		Use:   "host",
		Short: "Open a table on the LAN and play when it is full",
		Long: `Open a table, announce it on the local network by mDNS (service
_masque._tcp), seat the players who join until every seat is taken, then
play. There is no server: from the first move every peer holds the whole
log and checks every entry, and the table goes on without its creator's
help once seated.

Joiners find the table by its name ('masque join NAME'), by its join code
(printed here, e.g. 4F7Q-ZK2M-8XPA) or, beyond the LAN, by the invite
multiaddr printed here. A table announced nowhere (--no-mdns with no
relay, or --unlisted) has no code to look up: only the invite joins it.
Your creator fingerprint is printed too: anyone on the LAN can advertise
a table with your table's name or id, and a joiner shown several
creators picks the one with your fingerprint.

In a terminal you play your seat on the play screen (as in 'masque play'):
first you are asked whether every player's card keys are published at the
end of the game (so that 'masque replay --reveal' shows every card); the
answer is the table's option and holds for every player; the default is
yes, --no-key-release answers no without asking.

` + a.gamesList() + `
Joiners learn the game and its setup from the table.

Headless with --bot (automation, tests): a bot plays your seat, the game is
narrated, and at the end the transcript is written and verified; the exit
status is 0 for a valid finished game.

If the program is killed mid-game, run the same command again: it finds
the unfinished table you host (in the config directory, or the --state DIR
you gave), reloads the log and your secret keys, and rejoins. With several
unfinished tables it lists them and asks for --state; --new opens a new
table instead. Killed while seating, the same command resumes the table
of that name (same code, the seats taken kept: the seated players
reconnect on their own); --new, or other options, opens a new table.` + "\n\n" + configHelp,
		Example: `  masque host --players 5 --name friday
  masque host --players 6 --name friday --no-key-release
` + a.gameExamples("host", " --name tales") + `
  masque host --bot --players 4 --name friday --state /tmp/friday
  masque host --bot --game mascarade --players 4 --name T \
      --transcript t.masque --state st --config cfg`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkTableName("--name", o.name); err != nil {
				return err
			}
			r, err := newNetRun(a, o.netOptions, cmd.Flags().Changed("seed"))
			if err != nil {
				return err
			}
			o.moveSet = cmd.Flags().Changed("move-time")
			return runHost(cmd.Context(), r, o)
		},
	}
	o.addFlags(cmd)
	cmd.Flags().StringVar(&o.game, "game", registry.Default, a.gameFlagHelp())
	cmd.Flags().StringVar(&o.scenario, "scenario", "", a.scenarioFlagHelp())
	cmd.Flags().BoolVar(&o.noKeys, "no-key-release", false, "do not publish the players' card keys at the end (a table option: it holds for everyone); without it a player on the screen is asked")
	cmd.Flags().IntVar(&o.players, "players", 4, a.playersFlagHelp("seats at the table, yours included"))
	cmd.Flags().StringVar(&o.name, "name", "", "the table's `NAME` in the lobby (default: PLAYER's table)")
	cmd.Flags().BoolVar(&o.noAdvert, "no-mdns", false, "do not announce the table by mDNS (joiners use the invite)")
	cmd.Flags().BoolVar(&o.unlisted, "unlisted", false, "announce the table nowhere: not by mDNS, not in the relays' directories, for players nor spectators; "+
		"only those you give the invite can join or watch (an announced table is open to anyone who sees it)")
	cmd.Flags().DurationVar(&o.moveTime, "move-time", defaultMoveTime, "how long every player at the table gets for a move before the others stop the table and name them (a table option; with --bot the default is none: each peer's --timeout)")
	cmd.Flags().BoolVar(&o.fresh, "new", false, "open a new table even if you host an unfinished one, or were seating one (by default the same command resumes it)")
	cmd.Flags().DurationVar(&o.waitSeats, "wait", defaultWaitSeats, "give up if the table is not full after this long (0: wait until interrupted)")
	o.phones.addFlags(cmd)
	return cmd
}

// defaultWaitSeats is how long 'masque host' waits for its table to fill
// before it gives up, saying who came: long enough to fetch friends, not
// for ever (a forgotten host would keep its table listed).
const defaultWaitSeats = 30 * time.Minute

// defaultMoveTime is the table's time for a move when people play: long
// enough to think, read the help and talk, short enough that a player who
// left does not hold the table for ever.
const defaultMoveTime = 5 * time.Minute

// checkTableName checks a table's name given with flag: at most 64 bytes
// of printable text (it is shown in every lobby and on every screen).
func checkTableName(flag, name string) error {
	switch {
	case len(name) > 64:
		return &exitError{code: 2, err: fmt.Errorf("%s: at most 64 bytes, got %d", flag, len(name))}
	case !utf8.ValidString(name):
		return &exitError{code: 2, err: fmt.Errorf("%s %q: not UTF-8 text", flag, name)}
	}
	for _, r := range name {
		if !unicode.IsPrint(r) && r != ' ' {
			return &exitError{code: 2, err: fmt.Errorf("%s %q: a table's name is one line of printable text (%U is not)", flag, name, r),
				hint: "choose a name of letters, digits, spaces and punctuation"}
		}
	}
	return nil
}

// noArgs is cobra.NoArgs with a usage exit status.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("%s: unexpected argument %q", c.Name(), args[0]), hint: fmt.Sprintf("usage: %s", c.UseLine())}
	}
	return nil
}

// closeLog closes the run's log file, if it has one.
func (r *netRun) closeLog() {
	if r.logFile != nil {
		r.trace("exit")
		r.logFile.Close()
	}
}

// trace logs, at debug level, a step of the end of the run with the time
// (Unix microseconds): where the time from the game's last entry to the
// process's exit goes (.ci/lanstats).
func (r *netRun) trace(what string) {
	if r.logger != nil {
		r.logger.Debug(what, "t_us", time.Now().UnixMicro())
	}
}

func runHost(ctx context.Context, r *netRun, o hostOptions) error {
	defer r.closeLog()
	setup, err := gameSetup(r.a.list, &o.game, o.scenario, o.players, len(demoNames))
	if err != nil {
		return err
	}
	ctx, stop := signalContext(ctx)
	defer stop()

	restart := hasTable(r.o.state)
	if !restart && r.o.state == "" && !o.fresh {
		// The same command after a crash: resume the table this identity
		// hosts and has not finished.
		dirs, err := r.hostedUnfinished(o.name)
		if err != nil {
			return err
		}
		switch {
		case len(dirs) == 1:
			r.o.state, restart = dirs[0], true
			r.printf("resuming your unfinished table from %s (--new opens a new table instead)", dirs[0])
		case len(dirs) > 1:
			return &exitError{code: 2, err: fmt.Errorf("you host %d unfinished tables%s: say which to resume with --state", len(dirs), map[bool]string{true: fmt.Sprintf(" named %q", o.name)}[o.name != ""]),
				hint: "resume one: " + strings.Join(stateChoices(dirs), "; ") + "; or open a new table with --new"}
		}
	}
	p, err := r.startPeer(map[bool]string{true: r.o.state}[restart])
	if err != nil {
		return err
	}
	defer p.Close()
	p.Node.OnSlowInbound(r.slowInbound())
	phones, err := r.startPhones(o.phones, p, o.game, r.o.timeout, map[bool]string{true: r.o.state}[restart])
	if err != nil {
		return err
	}
	defer phones.close()
	if restart {
		st, err := store.Open(r.o.state)
		if err != nil {
			return &exitError{code: 1, err: err}
		}
		// The game goes on: it is announced again for spectators, as
		// before the restart ('masque lobby', 'masque watch CODE').
		if ro := st.Table().Roster; ro != nil && (!o.noAdvert || len(r.relays) > 0) {
			n, _ := os.ReadFile(filepath.Join(r.o.state, nameFile))
			name := strings.TrimSpace(string(n))
			if name == "" && len(ro.Seats) > 0 {
				name = ro.Seats[0].Name + "'s table"
			}
			if err := p.AnnouncePlaying(ro, name, !o.noAdvert, r.lobbyOpt, r.relays); err != nil {
				r.printf("warning: cannot announce the table in play again: %v (spectators can use a seat's invite)", err)
			} else {
				r.printf("the game in play is announced again for spectators: masque watch %s", rosterCode(ro))
			}
		}
		phones.resumed(st)
		return r.play(ctx, p, st, true)
	}
	if r.o.state != "" {
		if err := checkStateDir(r.o.state); err != nil {
			return err
		}
	}

	player := r.playerName(p)
	name := o.name
	if name == "" {
		name = player + "'s table"
	}
	moveTime := o.moveTime
	if r.o.bot && !o.moveSet {
		moveTime = 0 // automation: each peer's --timeout
	}
	if moveTime != 0 && (moveTime < time.Second || moveTime > table.MaxMoveTime) {
		return &exitError{code: exitUsage, err: fmt.Errorf("--move-time %v: want 1s..%v", moveTime, table.MaxMoveTime)}
	}
	moveTime = moveTime.Truncate(time.Second)
	// Killed while seating, the same command opens the same table again
	// (its record, written before the code is shown).
	recPath, err := seatingPath(p.ID.PeerID(), name)
	if err != nil {
		return &exitError{code: exitFault, err: err}
	}
	want := seatingRecord{Version: seatingRecordVersion, Name: name, Player: player, Game: o.game, Scenario: o.scenario,
		Players: o.players, PublishKeys: !o.noKeys, HideMemory: o.noMemory, MoveTime: moveTime}
	var resume *seatingRecord
	if !o.fresh {
		rec, err := loadSeating(recPath)
		switch {
		case err != nil:
			r.printf("warning: %v: opening a new table", err)
		case rec != nil:
			if d := rec.differs(&want); d != "" {
				id, _ := rec.tableID()
				r.printf("the table %s you were seating (%d/%d seated) cannot be resumed (%s): opening a new table; its seated players are told it is gone",
					lobby.Code(id, p.ID.PeerID()), len(rec.Seats)+1, rec.Players, d)
			} else {
				resume = rec
			}
		}
	}
	var keys table.SeatSecrets
	var publish bool
	var tableID [16]byte
	var cardKey []byte
	var held []p2p.HeldSeat
	if resume != nil {
		tableID, _ = resume.tableID()
		keys, _ = table.UnmarshalSeatSecrets(resume.Keys)
		publish, cardKey, held = resume.PublishKeys, resume.CardKey, resume.held()
		// Until the table is open again, a seated player asking for its
		// seat asks again rather than being told the table is gone.
		p.Node.ExpectTable(tableID)
		r.printf("resuming table %s with %d/%d seated (%s): the seated players' programs reconnect on their own (--new opens a new table instead)",
			lobby.Code(tableID, p.ID.PeerID()), len(held)+1, o.players, strings.Join(resume.names(), ", "))
	} else {
		publish = !o.noKeys
		if publish && !r.o.bot {
			publish = r.askKeyRelease()
		}
		keys = table.GenerateSeatSecrets()
	}
	want.PublishKeys = publish
	if want.Keys, err = keys.MarshalBinary(); err != nil {
		return &exitError{code: exitFault, err: err}
	}
	recorder := &seatingWriter{path: recPath, rec: want, warn: func(err error) {
		r.printf("warning: cannot record the seating (%v): if this program stops before the game starts, running it again opens a new table", err)
	}}
	seatCtx := ctx
	if o.waitSeats > 0 {
		var cancel context.CancelFunc
		seatCtx, cancel = context.WithTimeout(ctx, o.waitSeats)
		defer cancel()
	}
	var lastTaken int
	lastNames := []string{player}
	// The relays' directories the table is listed in (none: --unlisted,
	// which announces it nowhere).
	dirRelays := r.relays
	if o.unlisted {
		dirRelays, o.noAdvert = nil, true
	}
	seating, err := p.Host(seatCtx, netsession.HostConfig{Game: o.game, Setup: setup, PublishKeys: publish, HideMemory: o.noMemory, MoveTime: moveTime,
		Table: name, Player: player, Players: o.players, Keys: keys,
		TableID: tableID, CardKey: cardKey, Held: held, OnSeating: recorder.write,
		Advertise: !o.noAdvert, Lobby: r.lobbyOpt,
		Directory: dirRelays, Patience: r.o.timeout, OnTable: phones.onTable,
		OnDirectory: func(relay peer.ID, code string, err error) {
			if err != nil {
				r.printf("warning: relay %s: cannot list the table in its directory: %v (joiners can use the invite)", shortPeer(relay), err)
				return
			}
			r.printf("listed in the directory of relay %s: others run 'masque join %s --relay %s'", shortPeer(relay), code, relayAddr(r.relays, relay))
		},
		OnOpen: func(t lobby.Table, advErr error) {
			if o.noAdvert && len(dirRelays) == 0 {
				// No mDNS, no directory: joiners cannot look the code up; they use the invite.
				r.printf("table %q open for %d players (%s)", name, o.players, r.a.gameTitle(o.game))
			} else {
				r.printf("table %q open for %d players (%s): join code %s", name, o.players, r.a.gameTitle(o.game), t.Code())
				r.printf("your creator fingerprint: %s (tell joiners the join code or this fingerprint: 'masque join' shows both, and anyone can advertise a table under your table's name)", t.Fingerprint())
			}
			whose := "your choice"
			if r.o.bot {
				whose = map[bool]string{true: "the default", false: "--no-key-release"}[publish]
			}
			r.printf("%s", keysLine(publish, whose))
			switch {
			case o.unlisted:
				r.printf("not announced by mDNS nor in any directory (--unlisted): only those you give the invite can join or watch")
			case o.noAdvert && len(dirRelays) == 0:
				// No code to look up: say what the joiners type instead.
				join := "'masque join INVITE' with an invite below"
				if inv := inviteAddrs(p); len(inv) > 0 {
					join = "'masque join " + inv[0] + "'"
				}
				r.printf("not announced by mDNS (--no-mdns) nor in a relay's directory, so there is no join code to look up: others run %s", join)
			case o.noAdvert:
				r.printf("not announced by mDNS (--no-mdns)")
			case advErr != nil:
				r.printf("warning: cannot announce the table by mDNS: %v (joiners can use the invite below; see 'masque doctor')", advErr)
			default:
				r.printf("announced on the LAN by mDNS: others run 'masque join %q' or 'masque join %s'", name, t.Code())
			}
			for _, a := range inviteAddrs(p) {
				r.printf("invite: %s", a)
			}
			r.printf("you are %s (seat 0); waiting for players: %d/%d seated", player, t.Taken, o.players)
			phones.printURL()
		},
		OnSeats: func(names []string, total int) {
			r.mu.Lock()
			changed := len(names) != lastTaken
			lastTaken = len(names)
			lastNames = append([]string(nil), names...)
			r.mu.Unlock()
			if changed {
				r.printf("waiting for players: %d/%d seated (%s)", len(names), total, strings.Join(names, ", "))
			}
		}})
	// Seating is over (or given up): the game's state directory takes
	// over from the record.
	recorder.remove()
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return &exitError{code: 130, err: errors.New("interrupted while waiting for players")}
		case seatCtx.Err() != nil:
			r.mu.Lock()
			seated := lastNames
			r.mu.Unlock()
			return &exitError{code: 1, err: fmt.Errorf("the table was not full after %v (--wait): %d of %d seats taken (%s), waiting for %d more",
				o.waitSeats, len(seated), o.players, strings.Join(seated, ", "), o.players-len(seated)),
				hint: "joiners find the table with 'masque lobby'; if they do not see it, run 'masque doctor' or give them the invite"}
		}
		return &exitError{code: 1, err: fmt.Errorf("seating: %w", err)}
	}
	r.printf("seated: %s, roster signed by all %d seats: %s", tableLabel(seating.Roster), len(seating.Roster.Seats), seatNames(seating))
	phones.seated(seating)
	r.phones = phones
	return r.create(ctx, p, seating, keys, name)
}

// askKeyRelease asks the player whether every card key is published at
// the end of the game (yes by default).
func (r *netRun) askKeyRelease() bool {
	// Progress lines that come while the question waits (the phones'
	// page being built) are held until it is answered: written at once
	// they ran on after "[Y/n] ", where the answer is typed.
	r.screenUp(true)
	defer r.screenUp(false)
	for {
		// Lines short enough for an 80-column terminal.
		fmt.Fprint(r.out, "Publish every player's card keys at the end of the game, so that\n"+
			"'masque replay --reveal' shows every card? This is the table's option: it holds\n"+
			"for every player. [Y/n] ")
		line, err := readLine(r.a.stdin)
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "y", "yes":
			if err != nil && line == "" {
				fmt.Fprintln(r.out)
			}
			return true
		case "n", "no":
			return false
		}
		if err != nil {
			fmt.Fprintln(r.out)
			return true
		}
		fmt.Fprintln(r.out, "please answer y or n")
	}
}

// readLine reads one line from in, byte by byte (the play screen reads
// what follows).
func readLine(in io.Reader) (string, error) {
	if in == nil {
		return "", io.EOF
	}
	var b []byte
	var c [1]byte
	for {
		n, err := in.Read(c[:])
		if n == 1 {
			if c[0] == '\n' {
				return string(b), nil
			}
			b = append(b, c[0])
		}
		if err != nil {
			return string(b), err
		}
	}
}

// keysLine tells whether the card keys are published at the end, and whose
// choice it was.
func keysLine(publish bool, whose string) string {
	if publish {
		return fmt.Sprintf("card keys: every player's are published at the end of the game (%s), so 'masque replay --reveal' shows every card", whose)
	}
	return fmt.Sprintf("card keys: kept secret after the game (%s); replays show only the public cards", whose)
}

// create makes the state directory for a new seating and plays. name is
// the table's lobby name, kept beside the state so that 'masque join NAME'
// finds the game again after a crash.
func (r *netRun) create(ctx context.Context, p *netsession.Peer, seating *p2p.Seating, keys table.SeatSecrets, name string) error {
	dir := r.o.state
	if dir == "" {
		var err error
		if dir, err = r.defaultStateDir(p.ID.PeerID(), seating.Roster.TableID); err != nil {
			return err
		}
	}
	secret, err := keys.MarshalBinary()
	if err != nil {
		return err
	}
	st, err := store.Create(dir, seating.Table, secret)
	if err != nil {
		return &exitError{code: 1, err: err, hint: "give an empty or new directory with --state"}
	}
	os.WriteFile(filepath.Join(dir, nameFile), []byte(name), 0o600)
	r.phones.keep(dir)
	return r.play(ctx, p, st, false)
}

// nameFile keeps the table's lobby name in its state directory.
const nameFile = "name"

// outFile marks a state directory whose seat is out of the game (it left,
// or was eliminated, and closed its screen): the game goes on without it,
// so it is not an unfinished game to resume.
const outFile = "out"

// unfinishedDirs lists the state directories (tableRoots) of games this
// player was seated at and has not finished (no transcript written, no
// verdict).
func (r *netRun) unfinishedDirs() []string {
	var out []string
	for _, root := range r.tableRoots() {
		out = append(out, unfinishedIn(root)...)
	}
	return out
}

// unfinishedIn lists the unfinished games' state directories in root.
func unfinishedIn(root string) []string {
	var out []string
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if !hasTable(dir) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "transcript.masque")); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, store.VerdictFile)); err == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, outFile)); err == nil {
			continue // this seat is out of the game, which goes on without it
		}
		out = append(out, dir)
	}
	return out
}

// hostedUnfinished lists the unfinished games whose seat 0 (the creator)
// is this identity, at the table called name (any name if empty).
func (r *netRun) hostedUnfinished(name string) ([]string, error) {
	dirs := r.unfinishedDirs()
	if len(dirs) == 0 {
		return nil, nil
	}
	id, err := identity.Load(r.config)
	if err != nil {
		return nil, &exitError{code: 1, err: err, hint: "check --config"}
	}
	var out []string
	for _, dir := range dirs {
		if n, _ := os.ReadFile(filepath.Join(dir, nameFile)); name != "" && string(n) != name {
			continue
		}
		st, err := store.Open(dir)
		if errors.Is(err, store.ErrInUse) {
			return nil, &exitError{code: exitFault, err: fmt.Errorf("a table of yours is still running in another masque (state %s)", dir),
				hint: "go back to that terminal, or open a new table with --new"}
		}
		if err != nil {
			continue
		}
		seats := st.Table().Roster.Seats
		st.Close()
		if len(seats) > 0 && string(seats[0].PeerID) == string(id.PeerID()) {
			out = append(out, dir)
		}
	}
	return out, nil
}

// stateChoices describes each state directory for a player choosing one:
// its table's name and code, then the --state that resumes it.
func stateChoices(dirs []string) []string {
	var out []string
	for _, dir := range dirs {
		n, _ := os.ReadFile(filepath.Join(dir, nameFile))
		desc := termsafe.String(string(n))
		if st, err := store.Open(dir); err == nil {
			desc += " (" + tableLabel(st.Table().Roster) + fmt.Sprintf(", %d entries)", st.Len())
			st.Close()
		}
		out = append(out, fmt.Sprintf("%s: --state %s", desc, dir))
	}
	return out
}

// unfinished lists the state directories of games this player was seated
// at and has not finished, at the table called name or with the join code
// code.
func (r *netRun) unfinished(name, code string) []string {
	return matchDirs(r.unfinishedDirs(), name, code)
}

// outOf lists the state directories of games this player is out of
// (outFile) and that went on without it, at the table called name or with
// the join code code.
func (r *netRun) outOf(name, code string) []string {
	var dirs []string
	for _, root := range r.tableRoots() {
		ents, _ := os.ReadDir(root)
		for _, e := range ents {
			dir := filepath.Join(root, e.Name())
			if _, err := os.Stat(filepath.Join(dir, outFile)); err == nil && hasTable(dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	return matchDirs(dirs, name, code)
}

// matchDirs keeps the state directories of the table called name or with
// the join code code.
func matchDirs(dirs []string, name, code string) []string {
	want, codeErr := lobby.ParseCode(code)
	var out []string
	for _, dir := range dirs {
		n, _ := os.ReadFile(filepath.Join(dir, nameFile))
		switch {
		case name != "" && string(n) == name:
			out = append(out, dir)
		case code != "" && codeErr == nil:
			st, err := store.Open(dir)
			if err != nil {
				continue
			}
			got := rosterCode(st.Table().Roster)
			st.Close()
			if got == want {
				out = append(out, dir)
			}
		}
	}
	return out
}

func seatNames(s *p2p.Seating) string {
	var out []string
	for i, si := range s.Roster.Seats {
		out = append(out, fmt.Sprintf("%d %s", i, si.Name))
	}
	return strings.Join(out, ", ")
}

// checkStateDir refuses a --state that exists and is neither empty nor a
// state directory.
func checkStateDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		return nil
	}
	for _, e := range ents {
		if e.Name() == listenFile {
			continue
		}
		return &exitError{code: 2, err: fmt.Errorf("--state %s: the directory is not empty and holds no table", dir),
			hint: "give a new directory, or the state directory of the game to rejoin"}
	}
	return nil
}

// relayAddr is the first address of relay id among relays, with its
// /p2p/ suffix, as --relay takes it.
func relayAddr(relays []peer.AddrInfo, id peer.ID) string {
	for _, rl := range relays {
		if rl.ID == id && len(rl.Addrs) > 0 {
			return rl.Addrs[0].String() + "/p2p/" + id.String()
		}
	}
	return "/p2p/" + id.String()
}

// slowInbound says on the host's screen that a player's connection is
// slow to open (its handshake has not completed after 5 s): on a network
// losing packets, the joiner keeps trying, and the host otherwise sees
// nothing until it is seated; on loopback nothing is lost, and the
// machine is busy. Once per address every 30 s at most.
func (r *netRun) slowInbound() func(ma.Multiaddr) {
	var mu sync.Mutex
	told := map[string]time.Time{}
	return func(remote ma.Multiaddr) {
		who := remote.String()
		if first, _ := ma.SplitFirst(remote); first != nil {
			who = first.Value()
		}
		mu.Lock()
		if time.Since(told[who]) < 30*time.Second {
			mu.Unlock()
			return
		}
		told[who] = time.Now()
		mu.Unlock()
		if ip := net.ParseIP(who); ip != nil && ip.IsLoopback() {
			// No network between: nothing is lost on loopback.
			r.printf("a player on this machine (%s) is still connecting after 5s: this machine may be very busy; it keeps trying", who)
			return
		}
		r.printf("a player at %s is still connecting after 5s: the network may be losing packets (or a firewall is in the way); it keeps trying", who)
	}
}

// inviteAddrs are the node's addresses with /p2p/, non-loopback first,
// QUIC before TCP (at 25% packet loss a QUIC dial took 1.4–5.4 s, a TCP
// one 8–104 s, or failed: the first line is the one people copy).
func inviteAddrs(p *netsession.Peer) []string {
	addrs := p.Node.Addrs()
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int {
		q := func(m ma.Multiaddr) int {
			if hasQUIC([]ma.Multiaddr{m}) {
				return 0
			}
			return 1
		}
		return q(a) - q(b)
	})
	var lan, lo []string
	for _, a := range addrs {
		s := a.String()
		if strings.HasPrefix(s, "/ip4/127.") || strings.HasPrefix(s, "/ip6/::1/") {
			lo = append(lo, s)
		} else {
			lan = append(lan, s)
		}
	}
	if len(lan) == 0 {
		return lo
	}
	return lan
}
