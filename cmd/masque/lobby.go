package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/lobby"
)

type lobbyOptions struct {
	asJSON bool
	wait   time.Duration
	ifaces []string
	relays []string
	config string
	// where the tables were listed from, for messages ("" : this network).
	where string
	// aligned: stdout is a terminal; the tables are printed with aligned
	// columns and the advice under them. Otherwise (piped) each table is
	// a line of tab-separated cells and the advice goes to notes.
	aligned bool
	notes   io.Writer // nil: the advice goes with the tables
}

// lobbyEntry is one table in 'masque lobby --json'.
type lobbyEntry struct {
	Name    string   `json:"name"`
	Game    string   `json:"game"`
	Options string   `json:"options,omitempty"`
	Taken   int      `json:"taken"`
	Total   int      `json:"total"`
	Players []string `json:"players"`
	Code    string   `json:"code"`
	TableID string   `json:"table_id"`
	Creator string   `json:"creator"`
	// Fingerprint is the creator's lobby.Fingerprint.
	Fingerprint string `json:"fingerprint"`
	// Duplicate: another creator advertises this table's name, code or
	// table id (one of them is not the table it claims to be).
	Duplicate bool     `json:"duplicate"`
	Addrs     []string `json:"addrs"`
	Version   int      `json:"version"`
	// Playing: the table's game is under way; it can be watched
	// ('masque watch CODE'), not joined.
	Playing bool `json:"playing"`
}

func newLobbyCmd(a *app) *cobra.Command {
	var o lobbyOptions
	cmd := &cobra.Command{
		Use:   "lobby",
		Short: "List the tables on the LAN (mDNS) or in a relay's directory",
		Long: `Listen for tables announced on the local network by mDNS (service
_masque._tcp) for a few seconds and list them: name, game, seats taken,
who is seated, the join code and the creator's fingerprint (a digest of its
peer id; 'masque host' prints its own).

On a terminal the columns are aligned, with who is seated on a line of its
own; piped, each table is one line of tab-separated cells (TABLE, GAME,
SEATS, CODE, CREATOR FINGERPRINT, SEATED, SHARED: "!" when another creator
shares its name, code or id) after a header line, and the advice goes to
standard error; --json gives everything.

With --relay ADDR (repeatable), list instead the open tables in that
relay's directory: tables whose host runs 'masque host --relay' with it.
The relays of the config file (CONFIG/config, see 'masque help join')
are asked too when no --relay is given, beside the LAN. Join one with
'masque join CODE --relay ADDR'. A directory is not trusted: each table
is shown with its creator's fingerprint, and a join checks the creator
and the roster itself.

Anyone can advertise a table under any name, or copy a table's id: when
two creators advertise the same name, code or table id, both are listed,
marked with "!" and a warning; ask the host which fingerprint is theirs.

Tables whose game has started are listed too, at "play" instead of a
seat count: watch one with 'masque watch CODE' (they cannot be joined).

Join one with 'masque join NAME' or 'masque join CODE'. If none shows up
while someone is hosting, 'masque doctor' checks multicast on each
interface and says what to try.

` + a.gamesList(),
		Example: `  masque lobby
  masque lobby --wait 10s --json
  masque lobby --interface wlan0
  masque lobby --relay /ip4/198.51.100.4/tcp/4001/p2p/12D3KooW...`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runLobby(cmd.Context(), a, o) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the tables as a JSON array")
	cmd.Flags().DurationVar(&o.wait, "wait", 3*time.Second, "how long to listen")
	cmd.Flags().StringSliceVar(&o.ifaces, "interface", nil, "listen only on this network `INTERFACE` (repeatable)")
	cmd.Flags().StringArrayVar(&o.relays, "relay", nil, "list the tables in the directory of the relay at `MULTIADDR` instead of the LAN (repeatable; default: the relays of CONFIG/config, if any, as well as the LAN)")
	cmd.Flags().StringVar(&o.config, "config", "", "configuration `DIR` whose config file may name relays (default: the user config dir + /masque)")
	return cmd
}

func runLobby(ctx context.Context, a *app, o lobbyOptions) error {
	if o.wait <= 0 || o.wait > 10*time.Minute {
		return &exitError{code: 2, err: fmt.Errorf("--wait %v: want more than 0 and at most 10m", o.wait)}
	}
	config := o.config
	if config == "" {
		if d, err := defaultConfigDir(); err == nil {
			config = d
		}
	}
	var relays []peer.AddrInfo
	from := ""
	if len(o.relays) > 0 || config != "" {
		var err error
		if relays, from, err = resolveRelays(o.relays, config); err != nil {
			return err
		}
	}
	ctx, stop := signalContext(ctx)
	defer stop()
	// --relay: the directories only. Relays of the config file: the
	// directories and the LAN.
	var online []lobby.Table
	var onlineErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if len(relays) > 0 {
			online, onlineErr = listOnline(ctx, a, o, relays)
		}
	}()
	var lan []lobby.Table
	if from != "--relay" {
		var err error
		if lan, err = browseLAN(ctx, o); err != nil && len(relays) == 0 {
			return err
		}
	}
	<-done
	if onlineErr != nil && (from == "--relay" || len(lan) == 0) {
		return onlineErr
	}
	if len(relays) > 0 {
		o.where = "in the directory of " + relayNames(relays)
		if from != "--relay" {
			o.where = "on this network and " + o.where
		}
	}
	o.aligned, o.notes = isTerminal(a.stdout), a.stderr
	return printLobby(a.stdout, directory.Merge(lan, online), o)
}

// browseLAN lists the tables announced on the LAN for o.wait.
func browseLAN(ctx context.Context, o lobbyOptions) ([]lobby.Table, error) {
	var opts lobby.Options
	if len(o.ifaces) > 0 {
		ifs, err := lobby.Interfaces(o.ifaces...)
		if err != nil {
			return nil, &exitError{code: 2, err: err, hint: "'masque doctor' lists the interfaces"}
		}
		opts.Interfaces = ifs
	}
	// One browse round as long as the wait, so that every answer is kept.
	opts.Interval = o.wait
	bctx, cancel := context.WithTimeout(ctx, o.wait)
	defer cancel()
	ch, err := lobby.Browse(bctx, opts)
	if err != nil {
		return nil, &exitError{code: 1, err: err, hint: "mDNS cannot start here; 'masque doctor' says why"}
	}
	var tables []lobby.Table
	for s := range ch {
		if len(s) >= len(tables) {
			tables = s
		}
	}
	return tables, nil
}

// listOnline lists the tables in the relays' directories; a relay that
// does not answer is a warning unless none does.
func listOnline(ctx context.Context, a *app, o lobbyOptions, relays []peer.AddrInfo) ([]lobby.Table, error) {
	lctx, cancel := context.WithTimeout(ctx, max(o.wait, 10*time.Second))
	defer cancel()
	var playing []lobby.Table
	done := make(chan struct{})
	go func() {
		defer close(done)
		playing, _ = listDirectoriesPlaying(lctx, relays, "") // the open list's errors say enough
	}()
	tables, errs := listDirectories(lctx, relays, "")
	<-done
	tables = append(tables, playing...)
	if len(errs) == len(relays) {
		return nil, &exitError{code: 1, err: fmt.Errorf("lobby: no directory answered: %w", errors.Join(errs...)),
			hint: "check that 'masque relay' runs at the --relay address (and was not started with --no-directory)"}
	}
	for _, e := range errs {
		fmt.Fprintf(a.stderr, "warning: %v\n", termsafe.String(e.Error()))
	}
	return tables, nil
}

// printLobby lists tables as 'masque lobby' does: a table, or JSON.
func printLobby(w io.Writer, tables []lobby.Table, o lobbyOptions) error {
	entries := []lobbyEntry{}
	dup := duplicates(tables)
	for i, t := range tables {
		e := lobbyEntry{Name: t.Name, Game: t.Game, Options: t.Options, Taken: t.Taken, Total: t.Total,
			Players: t.Players, Code: t.Code(), TableID: hex.EncodeToString(t.ID[:]), Creator: t.Peer.String(),
			Fingerprint: t.Fingerprint(), Duplicate: dup[i], Version: t.Version, Addrs: []string{}, Playing: t.Playing}
		if e.Players == nil {
			e.Players = []string{}
		}
		for _, ad := range t.Addrs {
			e.Addrs = append(e.Addrs, ad.String())
		}
		entries = append(entries, e)
	}
	if o.asJSON {
		return json.NewEncoder(w).Encode(entries)
	}
	// Prose (no tables, the advice, the warnings) goes with an aligned
	// table; piped, it goes to notes, so that stdout holds only the rows.
	notes := w
	if !o.aligned && o.notes != nil {
		notes = o.notes
	}
	if len(entries) == 0 {
		if o.where != "" {
			fmt.Fprintf(notes, "no open tables %s\n", o.where)
			fmt.Fprintln(notes, "host one with 'masque host --relay ADDR' (it lists the table in that relay's directory while seats are free)")
			return nil
		}
		fmt.Fprintf(notes, "no tables on this network (listened %v)\n", o.wait)
		fmt.Fprintln(notes, "host one with 'masque host'; if a table should be there, try 'masque lobby --wait 10s' or 'masque doctor'")
		return nil
	}
	// Names come from others' advertisements: escaped, never printed raw
	// (termsafe.String also escapes tabs and newlines, so a cell stays one
	// cell). Aligned, the seated players go on a line of their own.
	g := &grid{aligned: o.aligned}
	if o.aligned {
		g.row("", "TABLE", "GAME", "SEATS", "CODE", "CREATOR FINGERPRINT")
	} else {
		g.row("TABLE", "GAME", "SEATS", "CODE", "CREATOR FINGERPRINT", "SEATED", "SHARED")
	}
	warn, playing := false, false
	for _, e := range entries {
		mark := ""
		if e.Duplicate {
			mark, warn = "!", true
		}
		seats := fmt.Sprintf("%d/%d", e.Taken, e.Total)
		if e.Playing {
			seats, playing = "play", true
		}
		name, game, seated := termsafe.String(e.Name), termsafe.String(e.Game), termsafe.String(strings.Join(e.Players, ", "))
		if !o.aligned {
			g.row(name, game, seats, e.Code, e.Fingerprint, seated, mark)
			continue
		}
		g.row(mark, name, game, seats, e.Code, e.Fingerprint)
		if len(e.Players) > 0 {
			g.note("seated: " + seated)
		}
	}
	if err := g.write(w); err != nil {
		return err
	}
	if playing {
		fmt.Fprintln(notes, "(tables at 'play' have started: watch one with 'masque watch CODE', they cannot be joined)")
	}
	// One advertisement proves nothing: anyone can advertise any name.
	fmt.Fprintln(notes, "check a table's code or creator fingerprint with its host before you join")
	fmt.Fprintln(notes, "('masque host' prints both): anyone can advertise a table under any name")
	if warn {
		fmt.Fprintln(notes, "warning: tables marked ! share a name, code or table id with another creator's: one of them may be an impostor;")
		fmt.Fprintln(notes, "ask the host which creator fingerprint is theirs ('masque host' prints it) and join with --creator FINGERPRINT")
	}
	if o.where != "" {
		fmt.Fprintf(notes, "(listed %s; join with 'masque join CODE --relay ADDR')\n", o.where)
	}
	return nil
}

// duplicates marks the tables whose name (ignoring case), join code or
// table id another creator's table has too.
func duplicates(tables []lobby.Table) []bool {
	out := make([]bool, len(tables))
	for i, a := range tables {
		for j, b := range tables {
			if i != j && a.Peer != b.Peer && (strings.EqualFold(a.Name, b.Name) || a.ID == b.ID || a.Code() == b.Code()) {
				out[i] = true
			}
		}
	}
	return out
}
