package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/cmd/masque/internal/spectate"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/web"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
)

type watchOptions struct {
	invite     string
	transcript string
	relays     []string
	listen     []string
	asJSON     bool
	quiet      bool
	refresh    time.Duration
	wait       time.Duration
	ifaces     []string
	web        webOptions
}

// watchResult is the --json output of 'masque watch'.
type watchResult struct {
	Game       string       `json:"game"`
	TableID    string       `json:"table_id"`
	Players    []string     `json:"players"`
	Entries    int          `json:"entries"`
	Verdict    string       `json:"verdict,omitempty"`
	Transcript string       `json:"transcript"`
	Verify     verifyResult `json:"verify"`
}

func newWatchCmd(a *app) *cobra.Command {
	var o watchOptions
	cmd := &cobra.Command{
		Use:   "watch CODE|INVITE",
		Short: "Follow a table's game live as a spectator (no seat, no key)",
		Long: `Follow a game in progress as a spectator: a read-only peer that holds no
seat and no key, so it sees exactly what an auditor sees. INVITE is a
seat's multiaddr ending in /p2p/<peer id>, as 'masque host' prints it
("invite: ..."). CODE is the table's join code, found like a table to
join: on the LAN by mDNS, or with --relay in the relays' directories; a
table is listed there while it seats (a spectator then waits for the
game to start) and, once seated, as a table in play until its host
leaves. The code names the table and its creator: the creator must hold
seat 0 of the roster it sends. The seat sends the roster with every
seat's signature and then every entry as it is accepted; each is checked
as it arrives (roster signatures, the author's signature, the hash chain,
every proof and rule), and the public log is shown as 'masque replay' shows it,
growing as the game goes on. At the end the transcript is written
(--transcript) and verified, as 'masque verify' would.

A spectator cannot write to the table; a seat serves a few spectators
at most and drops one that cannot keep up, so watching never slows the
players. The identity used is a fresh one, forgotten at exit.

With --web the table is drawn on a page in your browser, as a player's
page draws it but read-only: what an auditor sees (no seat's hidden
card, no action), served on 127.0.0.1 only with a secret token in its
address. The page stays up after the game until you leave it.

` + a.gamesList(),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.invite = args[0]
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			return runWatch(ctx, a, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.ifaces, "interface", nil, "use only this network `INTERFACE` for mDNS (repeatable; default: all)")
	f.StringVar(&o.transcript, "transcript", "", "write the transcript to `PATH` at the end (default: watch-TABLE.masque in the current directory)")
	addRelayFlag(cmd, &o.relays)
	f.StringArrayVar(&o.listen, "listen", nil, "libp2p listen `MULTIADDR` (repeatable; default: every IPv4 address, TCP and QUIC, random ports)")
	f.BoolVar(&o.asJSON, "json", false, "print the result as JSON at the end instead of the live log")
	f.BoolVar(&o.quiet, "quiet", false, "do not show the log, only the result")
	f.DurationVar(&o.refresh, "refresh", time.Second, "show new entries at most this often")
	f.DurationVar(&o.wait, "wait", time.Minute, "how long to wait for the seat to start its game (it may still be seating) or to take a spectator")
	addWebFlags(cmd, &o.web)
	f.Lookup("web").Usage = "follow the table on a read-only page in your browser (served on 127.0.0.1 only, with a secret token in its address)"
	return cmd
}

// watchTarget finds the seat to follow: an invite, or a join code looked
// up on the LAN or in the relays' directories.
func watchTarget(ctx context.Context, o watchOptions, relays []peer.AddrInfo) (peer.AddrInfo, [16]byte, error) {
	if strings.HasPrefix(strings.TrimSpace(o.invite), "/") {
		info, err := lobby.ParseInvite(o.invite)
		if err != nil {
			return info, [16]byte{}, &exitError{code: 2, err: err, hint: "give a seat's invite, e.g. /ip4/192.0.2.7/tcp/4001/p2p/12D3KooW... (the host prints it)"}
		}
		return info, [16]byte{}, nil
	}
	code, err := lobby.ParseCode(o.invite)
	if err != nil {
		return peer.AddrInfo{}, [16]byte{}, &exitError{code: 2, err: fmt.Errorf("%q is neither an invite (a multiaddr) nor a join code: %w", o.invite, err)}
	}
	var tables []lobby.Table
	where := "on this network (mDNS)"
	if len(relays) > 0 {
		// A game under way is in the directories' in-play list; a table
		// still seating in the open list (the spectator then waits for
		// its game to start).
		where = "in the relays' directories"
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		var playing, open []lobby.Table
		var errs, errsOpen []error
		done := make(chan struct{})
		go func() {
			defer close(done)
			playing, errs = listDirectoriesPlaying(lctx, relays, code)
		}()
		open, errsOpen = listDirectories(lctx, relays, code)
		<-done
		cancel()
		if len(errs) == len(relays) && len(errsOpen) == len(relays) {
			return peer.AddrInfo{}, [16]byte{}, &exitError{code: 1, err: fmt.Errorf("no directory answered: %w", errors.Join(append(errs, errsOpen...)...))}
		}
		tables = directory.Merge(playing, open)
	} else if tables, err = browseLAN(ctx, lobbyOptions{wait: 3 * time.Second, ifaces: o.ifaces}); err != nil {
		return peer.AddrInfo{}, [16]byte{}, err
	}
	found, err := lobby.Find(tables, code)
	switch {
	case err != nil:
		return peer.AddrInfo{}, [16]byte{}, &exitError{code: 2, err: err}
	case len(found) == 0:
		return peer.AddrInfo{}, [16]byte{}, &exitError{code: 1, err: fmt.Errorf("no table with code %s %s", code, where),
			hint: "a table is listed while it seats and while its game goes on, as long as its host runs; check the code, or ask a player for an invite ('masque host' prints it)"}
	case len(found) > 1:
		var fps []string
		for _, t := range found {
			fps = append(fps, lobby.Fingerprint(t.Peer))
		}
		return peer.AddrInfo{}, [16]byte{}, &exitError{code: 1, err: fmt.Errorf("code %s is advertised by %d creators (fingerprints %s): one is not the table it claims to be", code, len(found), strings.Join(fps, ", ")),
			hint: "ask the host for its invite"}
	}
	return found[0].AddrInfo(), found[0].ID, nil
}

func runWatch(ctx context.Context, a *app, o watchOptions) error {
	relays, err := parseRelayFlag(o.relays)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := o.web.check(); err != nil {
		return err
	}
	if o.web.on && o.asJSON {
		return &exitError{code: exitUsage, err: errors.New("--web and --json do not go together"), hint: "drop one of them"}
	}
	info, tableID, err := watchTarget(ctx, o, relays)
	if err != nil {
		return err
	}
	id, err := identity.Generate()
	if err != nil {
		return err
	}
	node, err := p2p.NewNode(p2p.Config{Identity: id, ListenAddrs: o.listen, Relays: relays})
	if err != nil {
		return err
	}
	defer node.Close()

	var tr ledger.Transcript
	var tab *table.Table
	var game games.Game
	// --web: the page follows a spectator's session fed from the checked
	// table; leaving the page stops the watch as Ctrl-C does.
	var sp *spectate.Session
	page := &watchWeb{done: make(chan error, 1)}
	ctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	progress := a.stderr
	var printed []string // the lines on the screen
	lastShow := time.Time{}
	cost := time.Duration(0)
	show := func(final bool) {
		if o.asJSON || o.quiet || sp != nil || game == nil {
			return
		}
		if !final && (time.Since(lastShow) < o.refresh || time.Since(lastShow) < 2*cost) {
			return
		}
		start := time.Now()
		var buf bytes.Buffer
		if _, err := replayTranscript(&tr, game, nil, &buf); err != nil {
			return
		}
		// The replay of the log so far, less what is on the screen. The
		// header (its entry count) is not repeated; the last line of a
		// game in progress may still change (a move whose effects are to
		// come), so it waits for the next render; a line shown that the
		// longer log tells otherwise is shown again from there.
		lines := strings.SplitAfter(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if !final {
			lines = lines[:len(lines)-1]
		}
		from := 1
		for from < len(lines) && from < len(printed) && lines[from] == printed[from] {
			from++
		}
		if len(printed) == 0 {
			from = 0
		}
		if from < len(lines) {
			out := strings.Join(lines[from:], "")
			if !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			fmt.Fprint(a.stdout, out)
			printed = append(printed[:min(from, len(printed))], lines[from:]...)
		}
		lastShow, cost = time.Now(), time.Since(start)
	}
	// fatal is set when what the seat sent is wrong (not a broken
	// stream): then the spectator does not ask again.
	var fatal error
	// seats are the seats to ask: the one found first, then, once the
	// roster is known and with relays, every other seat through them (a
	// spectator that lost its seat, say at a relay's restart, gets the
	// rest of the log from another; each answer is checked the same way).
	seats, cur := []peer.AddrInfo{info}, 0
	watch := func() (*p2p.WatchResult, error) {
		var prev ledger.Hash
		if n := len(tr.Entries); n > 0 {
			prev = tr.Entries[n-1].Hash()
		}
		return node.Watch(ctx, p2p.WatchConfig{
			Seat: seats[cur], TableID: tableID, From: uint64(len(tr.Entries)), Prev: prev,
			OnTable: func(r *ledger.Roster, sigs [][ed25519.SignatureSize]byte) error {
				if tr.Roster != nil {
					// Following again after a broken stream: the same table.
					old, _ := tr.Roster.GameID()
					if now, _ := r.GameID(); now != old {
						fatal = fmt.Errorf("the seat now sends another table (game %x, was %x)", now[:4], old[:4])
						return fatal
					}
					return nil
				}
				if tableID != ([16]byte{}) {
					// Found by code: the code names the table id (checked
					// by p2p.Watch) and its creator, who must hold seat 0
					// of the roster every seat signed.
					if len(r.Seats) == 0 {
						fatal = errors.New("the roster has no seats")
						return fatal
					}
					if c, err := peer.IDFromBytes(r.Seats[0].PeerID); err != nil || c != info.ID {
						fatal = fmt.Errorf("the roster's seat 0 is not the creator the code %s names (%s)", o.invite, info.ID)
						return fatal
					}
				}
				g, err := games.Lookup(a.list, r.Game)
				if err != nil {
					return fmt.Errorf("the table plays %q: %w", r.Game, err)
				}
				if tab, err = table.New(r, g.Table()); err != nil {
					return fmt.Errorf("the table's roster: %w", err)
				}
				game, tr.Roster, tr.RosterSigs = g, r, sigs
				seats = append(seats, otherSeats(r, info.ID, relays)...)
				tableID = r.TableID // the other seats are asked for this table
				var names []string
				for _, s := range r.Seats {
					names = append(names, s.Name)
				}
				fmt.Fprintf(progress, "watching table %x: %s among %s\n", r.TableID[:4], g.Title(), games.ListAnd(names, "nobody"))
				if o.web.on {
					rg, err := games.Lookup(a.list, r.Game)
					if err != nil {
						return fmt.Errorf("the table plays %q: %w", r.Game, err)
					}
					sp = spectate.New(rg)
					if err := sp.Follow(tab, nil); err != nil {
						return err
					}
					path := watchPath(o, r)
					title := fmt.Sprintf("watching table %x (read-only)", r.TableID[:4])
					page.start(func() (bool, bool, error) {
						return runWeb(ctx, a.stdout, sp, o.web, web.Options{Title: title,
							EndNotes: func() []string {
								return []string{fmt.Sprintf("transcript: %s (written when the game ends)", path), "check it: masque verify " + path}
							}})
					}, stopWatch)
				}
				return nil
			},
			OnEntry: func(e *ledger.Entry) error {
				if err := tab.Apply(e); err != nil {
					fatal = fmt.Errorf("entry %d by seat %d is invalid: %w", e.Pos, e.Seat, err)
					return fatal
				}
				tr.Entries = append(tr.Entries, e)
				show(false)
				if sp != nil {
					if err := sp.Follow(tab, e); err != nil {
						fmt.Fprintf(progress, "the page cannot tell entry %d: %v\n", e.Pos, err)
					}
				}
				return nil
			},
		})
	}
	// A seat that has no game open yet (seating), or enough spectators,
	// refuses; a stream may break mid-game: ask again (from the entry
	// after the last one checked) until --wait passes with no progress.
	// A seat that stops (its program interrupted, to be restarted) ends
	// the stream as at the game's end: short of the end and of a
	// verdict, the spectator follows again, at that seat or another.
	follow := func() (*p2p.WatchResult, error) {
		res, err := watch()
		if err == nil && fatal == nil && tab != nil && tab.Phase() != table.PhaseDone && (res == nil || res.Verdict == nil) {
			err = errors.New("the seat stopped serving before the game's end")
		}
		return res, err
	}
	res, werr := follow()
	deadline, had := time.Now().Add(o.wait), 0
	// A log that reached the game's end is whole, even if the stream
	// broke before the seat said so.
	over := func() bool { return tab != nil && tab.Phase() == table.PhaseDone }
	said := time.Now()
	var looked time.Time
	for werr != nil && fatal == nil && !over() && ctx.Err() == nil && time.Now().Before(deadline) {
		if len(tr.Entries) > had {
			had, deadline, said = len(tr.Entries), time.Now().Add(o.wait), time.Now()
			fmt.Fprintf(progress, "the stream broke after %d entries (%v); following again\n", had, shortErr(werr))
		} else {
			cur = (cur + 1) % len(seats) // no progress: ask the next seat
			if cur == 0 && tr.Roster != nil && time.Since(looked) >= 5*time.Second {
				// Every seat asked in vain: the creator may have
				// restarted elsewhere (another port). Its table in play
				// is announced again: look its code up anew.
				looked = time.Now()
				lookup := func(ctx context.Context, code string) (peer.AddrInfo, error) {
					info, _, err := watchTarget(ctx, watchOptions{invite: code, ifaces: o.ifaces}, relays)
					return info, err
				}
				var moved bool
				if seats, moved = refreshCreator(ctx, seats, tr.Roster, lookup); moved {
					fmt.Fprintf(progress, "found the table's creator again (%s); following again\n", lobby.Fingerprint(peer.ID(tr.Roster.Seats[0].PeerID)))
				}
			}
			if had > 0 && time.Since(said) >= 10*time.Second {
				said = time.Now()
				fmt.Fprintf(progress, "still asking the seats again (until %s, --wait): %v\n", deadline.Format(time.TimeOnly), shortErr(werr))
			}
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
		res, werr = follow()
	}
	if werr != nil && fatal == nil && over() {
		werr = nil
	}
	if tr.Roster == nil {
		if werr == nil {
			werr = errors.New("no table")
		}
		return &exitError{code: 1, err: fmt.Errorf("watch: %s", shortErr(werr)), hint: "is the game still going on at that seat? ('masque host' prints its invite)"}
	}
	show(true)
	if sp != nil {
		verdict := ""
		if res != nil && res.Verdict != nil {
			verdict = res.Verdict.String()
		} else if res != nil && res.Claim != nil {
			verdict = "the seat watched says: " + res.Claim.String() + " (its word alone)"
		} else if werr != nil && !over() {
			verdict = "the watch stopped: " + werr.Error()
		}
		sp.End(verdict)
		// The page stays up until its spectator leaves it (or Ctrl-C).
		defer page.wait()
	}
	path := watchPath(o, tr.Roster)
	enc, err := tr.MarshalBinary()
	if err == nil {
		err = safefile.Write(path, enc, 0o644)
	}
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("transcript: %w", err)}
	}
	vres, fault := verifyTranscript(a.list, &tr)
	out := watchResult{Game: tr.Roster.Game, TableID: hex.EncodeToString(tr.Roster.TableID[:]), Entries: len(tr.Entries), Transcript: path, Verify: vres}
	for _, s := range tr.Roster.Seats {
		out.Players = append(out.Players, s.Name)
	}
	if res != nil && res.Verdict != nil {
		out.Verdict = res.Verdict.String()
	}
	if res != nil && res.Claim != nil {
		fmt.Fprintln(progress, termsafe.String("the seat watched says: "+res.Claim.String()+" (its word alone, which a spectator cannot check)"))
	}
	if o.asJSON {
		if err := json.NewEncoder(a.stdout).Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(progress, "transcript: %s (%d entries)\n", path, len(tr.Entries))
	}
	switch {
	case werr != nil:
		return &exitError{code: 1, err: fmt.Errorf("watch stopped after %d entries: %w", len(tr.Entries), werr),
			hint: fmt.Sprintf("the transcript so far is in %s", path)}
	case out.Verdict != "":
		return &exitError{code: 1, err: fmt.Errorf("the table stopped: %s", out.Verdict)}
	case fault != nil:
		return &exitError{code: 1, err: fmt.Errorf("transcript rejected: %w", fault)}
	case !vres.Done:
		return &exitError{code: 1, err: errors.New("the game is not finished")}
	}
	if !o.asJSON {
		fmt.Fprintf(progress, "verified: %d entries of %s, every signature, proof and rule checked\n", vres.Entries, vres.Game)
	}
	return nil
}

// watchPath is where the spectator writes the transcript of r.
func watchPath(o watchOptions, r *ledger.Roster) string {
	if o.transcript != "" {
		return o.transcript
	}
	return fmt.Sprintf("watch-%x.masque", r.TableID[:4])
}

// watchWeb runs a spectator's page beside the watch.
type watchWeb struct {
	started bool
	done    chan error
}

// start runs the page (run: runWeb) once; leaving it calls stop.
func (w *watchWeb) start(run func() (left, over bool, err error), stop func()) {
	if w.started {
		return
	}
	w.started = true
	go func() {
		left, _, err := run()
		if left {
			stop()
		}
		w.done <- err
	}()
}

// wait waits for the page to end, if it was started.
func (w *watchWeb) wait() {
	if w.started {
		<-w.done
	}
}

// refreshCreator looks the code of r's table up again (lookup: the
// lobby, by mDNS or the relays' directories) and, when it names the
// roster's creator, puts the addresses found in the creator's place of
// seats (added when it has none: a watch begun at another seat's
// invite): it may have restarted on another port. It returns the seats
// and whether the creator's addresses changed.
func refreshCreator(ctx context.Context, seats []peer.AddrInfo, r *ledger.Roster, lookup func(context.Context, string) (peer.AddrInfo, error)) ([]peer.AddrInfo, bool) {
	if len(r.Seats) == 0 {
		return seats, false
	}
	creator := peer.ID(r.Seats[0].PeerID)
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	info, err := lookup(lctx, rosterCode(r))
	if err != nil || info.ID != creator || len(info.Addrs) == 0 {
		return seats, false
	}
	i := slices.IndexFunc(seats, func(s peer.AddrInfo) bool { return s.ID == creator })
	if i < 0 {
		return append(seats, info), true
	}
	same := slices.EqualFunc(info.Addrs, seats[i].Addrs, func(a, b ma.Multiaddr) bool { return a.Equal(b) })
	seats[i] = info
	return seats, !same
}

// shortErr is err's first line: a failed dial lists every address it
// tried, a line each, which says nothing more to a spectator.
func shortErr(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimRight(s[:i], " :") + " (…)"
	}
	return s
}

// otherSeats are the seats of r other than skip, each reachable through
// every relay (its circuit addresses: a seat holds a reservation on the
// relays it plays through); none without relays.
func otherSeats(r *ledger.Roster, skip peer.ID, relays []peer.AddrInfo) []peer.AddrInfo {
	if len(relays) == 0 {
		return nil
	}
	var out []peer.AddrInfo
	for _, s := range r.Seats {
		id, err := peer.IDFromBytes(s.PeerID)
		if err != nil || id == skip {
			continue
		}
		out = append(out, peer.AddrInfo{ID: id, Addrs: p2p.CircuitAddrs(relays)})
	}
	return out
}
