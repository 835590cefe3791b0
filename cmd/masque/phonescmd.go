package main

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phone"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// phonesTableDir is where 'masque phones' keeps the signed table its
// phones were seated at (a restart serves them again).
const phonesTableDir = "table"

func newPhonesCmd(a *app) *cobra.Command {
	var o joinOptions
	cmd := &cobra.Command{
		Use:   "phones [NAME|CODE|TABLE-ID|MULTIADDR]",
		Short: "Serve phones their seats at a table from this machine (no seat)",
		Long: `Let phones on this network take seats at a table that is seating players,
served from this machine: it prints a URL and its QR code; a phone that opens
it makes its own keys, asks the table's host for a seat through this machine
and plays its own seat. This machine holds no seat: it carries the phones'
frames, which are signed by the phones, and can only delay or drop them.

Why: a phone runs the code of the page it is served. 'masque host --phones'
and 'masque join --phones' serve the page from the host's or a player's
machine; a player who does not want to trust that machine serves it to their
own phone from their own laptop with this command (docs/security.md, Phones).
The page shows a hash of its code; 'masque version' on a machine you trust
prints the hash of the same release.

The table is found as 'masque join' finds it: its name or join code on the
LAN, the code with --relay, or the host's invite multiaddr.

This machine must stay up until the game is over (it ends then): it is the
phones' path to the table. Killed, run the same command again (the same
--state DIR if you gave one): it serves the phones at the same URL, and they
resume their seats from their own storage.`,
		Example: `  masque phones friday
  masque phones 4F7Q-ZK2M-8XPA
  masque phones /ip4/192.168.1.20/tcp/4001/p2p/12D3KooW...
  masque phones friday --phones-addr 192.168.1.30:8080`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.table != "" || o.code != "" {
					return &exitError{code: 2, err: errors.New("phones: give the table either as an argument or with --table/--code")}
				}
				if strings.HasPrefix(args[0], "/") {
					o.addr = args[0]
				} else {
					o.table = args[0]
				}
			}
			if o.table != "" && o.code != "" {
				return &exitError{code: 2, err: errors.New("phones: --table and --code are exclusive")}
			}
			o.bot = true // no screen: this machine plays no seat
			r, err := newNetRun(a, o.netOptions, false)
			if err != nil {
				return err
			}
			if o.table == "" && o.code == "" && o.addr == "" && (r.o.state == "" || !hasTable(filepath.Join(r.o.state, phonesTableDir))) {
				return &exitError{code: 2, err: errors.New("phones: which table?"),
					hint: "give its name or code ('masque lobby' lists the tables on this network) or the host's invite multiaddr"}
			}
			o.phones.on = true
			return runPhones(cmd.Context(), r, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.table, "table", "", "the table's `NAME` or join code (found on the LAN by mDNS)")
	f.StringVar(&o.code, "code", "", "the table's join `CODE` (found on the LAN by mDNS; with --relay, in the relays' directories)")
	f.DurationVar(&o.wait, "wait", 30*time.Second, "how long to look for the table on the LAN (with --relay: in the relays' directories)")
	f.StringVar(&o.state, "state", "", "this server's state `DIR`: its own identity, the phones' URL, the table (default: STATE/phones/HASH); the same command resumes after a restart")
	f.StringSliceVar(&o.listen, "listen", nil, "libp2p listen `MULTIADDR` (repeatable; default: every IPv4 address, TCP and QUIC, random ports)")
	f.DurationVar(&o.timeout, "timeout", 2*time.Minute, "the patience the phones play by: how long a silent player is waited for")
	f.DurationVar(&o.window, "challenge-window", 30*time.Second, "on the phones: time to answer a claim before passing automatically (0: no limit)")
	f.StringVar(&o.logPath, "log", "", "write diagnostics (network) to `FILE`")
	addRelayFlag(cmd, &o.relays)
	cmd.Flags().StringVar(&o.phones.addr, "phones-addr", "", "the `HOST:PORT` to serve phones on (default: this machine's LAN address, a free port)")
	return cmd
}

// runPhones serves phones their seats at another peer's table, holding no
// seat: a node of its own identity (kept in the state directory, so that
// a restart is the same path for the phones), the phones' server, and,
// once the table is signed, a spectator's watch of a seat to learn the
// end of the game.
func runPhones(ctx context.Context, r *netRun, o joinOptions) error {
	defer r.closeLog()
	ctx, stop := signalContext(ctx)
	defer stop()
	if r.o.state == "" {
		label := o.table + o.code + o.addr
		sum := sha256.Sum256([]byte(label))
		dir, err := stateSubdir("phones", hex.EncodeToString(sum[:8]))
		if err != nil {
			return &exitError{code: exitFault, err: err, hint: "give a state directory with --state DIR"}
		}
		r.o.state = dir
	}
	// Its own identity: a player running 'masque join' on this machine
	// holds a seat under the config directory's.
	r.config = r.o.state
	tableDir := filepath.Join(r.o.state, phonesTableDir)
	var signed *store.Table
	if hasTable(tableDir) {
		st, err := store.Open(tableDir)
		if err != nil {
			return &exitError{code: 1, err: err}
		}
		tb := st.Table()
		st.Close()
		signed = &tb
	}
	var t target
	switch {
	case signed != nil:
	case o.addr != "":
		info, err := lobby.ParseInvite(o.addr)
		if err != nil {
			return &exitError{code: 2, err: err, hint: "an invite is the host's multiaddr ending in /p2p/<peer id>, as 'masque host' prints it"}
		}
		t = target{creator: info, name: o.addr, label: o.addr}
		r.inviteRelays(info)
	default:
		var err error
		if t, err = r.find(ctx, o); err != nil {
			return err
		}
	}
	p, err := r.startPeer(r.o.state)
	if err != nil {
		return err
	}
	defer p.Close()
	rememberListen(p, r.o.state)
	done := make(chan *p2p.Seating, 1)
	phones, err := r.startPhonesWith(o.phones, p, "", r.o.timeout, r.o.state, phone.RoleForwarder, func(s *p2p.Seating) {
		select {
		case done <- s:
		default:
		}
	})
	if err != nil {
		return err
	}
	defer phones.close()
	var seating *p2p.Seating
	if signed != nil {
		gid, err := signed.Roster.GameID()
		if err != nil {
			return &exitError{code: 1, err: err}
		}
		seating = &p2p.Seating{Roster: signed.Roster, GameID: gid, Table: *signed}
		r.printf("serving the phones of %s again", tableLabel(signed.Roster))
		phones.hub.SetSeating(seating)
		phones.show(rosterCode(signed.Roster))
	} else {
		phones.keep(r.o.state)
		r.printf("phones take seats at %s through this machine (it holds no seat)", t.name)
		if err := phones.remote(ctx, p, t, t.seat); err != nil {
			return &exitError{code: 130, err: errors.New("interrupted before the table's creator named its table")}
		}
		select {
		case seating = <-done:
		case <-ctx.Done():
			return &exitError{code: 130, err: errors.New("interrupted while phones were taking seats")}
		}
		st, err := store.Create(tableDir, seating.Table, nil)
		if err != nil {
			return &exitError{code: 1, err: fmt.Errorf("keep the table: %w", err)}
		}
		st.Close()
		r.printf("seated: %s, roster signed by all %d seats: %s", tableLabel(seating.Roster), len(seating.Roster.Seats), seatNames(seating))
	}
	return r.followEnd(ctx, p, seating, phones)
}

// followEnd watches the table's seats in turn (as 'masque watch' does)
// until one says the game is over, then serves the phones a little
// longer, while any is connected, so that they see the end.
func (r *netRun) followEnd(ctx context.Context, p *netsession.Peer, s *p2p.Seating, phones *phoneServer) error {
	for i := 0; ctx.Err() == nil; i++ {
		seat := i % len(s.Roster.Seats)
		id, err := peer.IDFromBytes(s.Roster.Seats[seat].PeerID)
		if err != nil || seat >= len(s.Table.Addrs) {
			continue
		}
		info := peer.AddrInfo{ID: id}
		for _, b := range s.Table.Addrs[seat] {
			if a, err := ma.NewMultiaddrBytes(b); err == nil {
				info.Addrs = append(info.Addrs, a)
			}
		}
		if len(info.Addrs) > 0 && len(ma.Split(info.Addrs[0])) == 1 {
			continue // a forwarded seat (a phone): no node to watch
		}
		res, err := p.Node.Watch(ctx, p2p.WatchConfig{Seat: info, TableID: s.Roster.TableID,
			OnTable: func(*ledger.Roster, [][ed25519.SignatureSize]byte) error { return nil },
			OnEntry: func(*ledger.Entry) error { return nil }})
		if err == nil && res != nil {
			r.printf("the game is over (%d entries): the phones hold its transcript", res.Entries)
			phones.drain(ctx, 30*time.Second)
			return nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	return &exitError{code: 130, err: errors.New("interrupted: the phones seated through this machine lost their path to the table (run the same command again)")}
}
