package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/p2p/lobby"
)

type lobbyOptions struct {
	asJSON bool
	wait   time.Duration
	ifaces []string
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
}

func newLobbyCmd(a *app) *cobra.Command {
	var o lobbyOptions
	cmd := &cobra.Command{
		Use:   "lobby",
		Short: "List the tables on the local network (mDNS)",
		Long: `Listen for tables announced on the local network by mDNS (service
_masque._tcp) for a few seconds and list them: name, game, seats taken,
who is seated, the join code and the creator's fingerprint (a digest of its
peer id; 'masque host' prints its own).

Anyone can advertise a table under any name, or copy a table's id: when
two creators advertise the same name, code or table id, both are listed,
marked with "!" and a warning; ask the host which fingerprint is theirs.

Join one with 'masque join NAME' or 'masque join CODE'. If none shows up
while someone is hosting, 'masque doctor' checks multicast on each
interface and says what to try.`,
		Example: `  masque lobby
  masque lobby --wait 10s --json
  masque lobby --interface wlan0`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runLobby(cmd.Context(), a, o) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the tables as a JSON array")
	cmd.Flags().DurationVar(&o.wait, "wait", 3*time.Second, "how long to listen")
	cmd.Flags().StringSliceVar(&o.ifaces, "interface", nil, "listen only on this network `INTERFACE` (repeatable)")
	return cmd
}

func runLobby(ctx context.Context, a *app, o lobbyOptions) error {
	if o.wait <= 0 || o.wait > 10*time.Minute {
		return &exitError{code: 2, err: fmt.Errorf("--wait %v: want more than 0 and at most 10m", o.wait)}
	}
	var opts lobby.Options
	if len(o.ifaces) > 0 {
		ifs, err := lobby.Interfaces(o.ifaces...)
		if err != nil {
			return &exitError{code: 2, err: err, hint: "'masque doctor' lists the interfaces"}
		}
		opts.Interfaces = ifs
	}
	// One browse round as long as the wait, so that every answer is kept.
	opts.Interval = o.wait
	ctx, stop := signalContext(ctx)
	defer stop()
	bctx, cancel := context.WithTimeout(ctx, o.wait)
	defer cancel()
	ch, err := lobby.Browse(bctx, opts)
	if err != nil {
		return &exitError{code: 1, err: err, hint: "mDNS cannot start here; 'masque doctor' says why"}
	}
	var tables []lobby.Table
	for s := range ch {
		if len(s) >= len(tables) {
			tables = s
		}
	}
	return printLobby(a.stdout, tables, o)
}

// printLobby lists tables as 'masque lobby' does: a table, or JSON.
func printLobby(w io.Writer, tables []lobby.Table, o lobbyOptions) error {
	entries := []lobbyEntry{}
	dup := duplicates(tables)
	for i, t := range tables {
		e := lobbyEntry{Name: t.Name, Game: t.Game, Options: t.Options, Taken: t.Taken, Total: t.Total,
			Players: t.Players, Code: t.Code(), TableID: hex.EncodeToString(t.ID[:]), Creator: t.Peer.String(),
			Fingerprint: t.Fingerprint(), Duplicate: dup[i], Version: t.Version, Addrs: []string{}}
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
	if len(entries) == 0 {
		fmt.Fprintf(w, "no tables on this network (listened %v)\n", o.wait)
		fmt.Fprintln(w, "host one with 'masque host'; if a table should be there, try 'masque lobby --wait 10s' or 'masque doctor'")
		return nil
	}
	// Names come from others' advertisements: escaped, never printed raw.
	fmt.Fprintf(w, "  %-20s %-11s %-6s %-15s %-20s %s\n", "TABLE", "GAME", "SEATS", "CODE", "CREATOR", "SEATED")
	warn := false
	for _, e := range entries {
		mark := " "
		if e.Duplicate {
			mark, warn = "!", true
		}
		fmt.Fprintf(w, "%s %-20s %-11s %-6s %-15s %-20s %s\n", mark, termsafe.String(e.Name), termsafe.String(e.Game),
			fmt.Sprintf("%d/%d", e.Taken, e.Total), e.Code, e.Fingerprint, termsafe.String(strings.Join(e.Players, ", ")))
	}
	if warn {
		fmt.Fprintln(w, "warning: tables marked ! share a name, code or table id with another creator's: one of them may be an impostor;")
		fmt.Fprintln(w, "ask the host which creator fingerprint is theirs ('masque host' prints it) and join with --creator FINGERPRINT")
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
