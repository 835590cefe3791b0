package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

type joinOptions struct {
	netOptions
	table string
	code  string
	addr  string
	wait  time.Duration
}

func newJoinCmd(a *app) *cobra.Command {
	var o joinOptions
	cmd := &cobra.Command{
		Use:   "join [NAME|CODE|MULTIADDR]",
		Short: "Sit down at a table: found on the LAN by name or code, or online by invite",
		Long: `Find a table and take a seat. On the LAN the table is found by mDNS with no
address: give its name (as 'masque lobby' lists it) or its join code
(4F7Q-ZK2M). Beyond the LAN give the invite multiaddr the host printed
(/ip4/203.0.113.7/tcp/4001/p2p/12D3KooW...). The game starts when every
seat is taken.

The table decides the game (Mascarade or its 2nd edition) and whether the
players' card keys are published at the end (the host chose): both are
stated once you are seated. In a terminal you play your seat on the play
screen (as in 'masque play').

Headless with --bot (automation, tests): a bot plays your seat, the game is
narrated, and at the end the transcript is written and verified; the exit
status is 0 for a valid finished game.

If the program is killed mid-game, run the same command again (with the same
--state DIR if you gave one): it reloads the log and the secret card key
from the state directory and rejoins; the others wait for it.`,
		Example: `  masque join friday
  masque join friday --bot
  masque join --bot --table friday --transcript t.masque --state st --config cfg
  masque join 4F7Q-ZK2M --bot
  masque join /ip4/203.0.113.7/tcp/4001/p2p/12D3KooW... --bot`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &exitError{code: 2, err: fmt.Errorf("join: at most one table, got %d", len(args)), hint: "usage: " + c.UseLine()}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if o.table != "" || o.code != "" {
					return &exitError{code: 2, err: errors.New("join: give the table either as an argument or with --table/--code")}
				}
				if strings.HasPrefix(args[0], "/") {
					o.addr = args[0]
				} else {
					o.table = args[0]
				}
			}
			if o.table != "" && o.code != "" {
				return &exitError{code: 2, err: errors.New("join: --table and --code are exclusive")}
			}
			r, err := newNetRun(a, o.netOptions, cmd.Flags().Changed("seed"))
			if err != nil {
				return err
			}
			if o.table == "" && o.code == "" && o.addr == "" && !hasTable(r.o.state) {
				return &exitError{code: 2, err: errors.New("join: which table?"),
					hint: "give its name or code ('masque lobby' lists the tables on this network) or the host's invite multiaddr"}
			}
			return runJoin(cmd.Context(), r, o)
		},
	}
	o.addFlags(cmd)
	cmd.Flags().StringVar(&o.table, "table", "", "the table's `NAME` (found on the LAN by mDNS)")
	cmd.Flags().StringVar(&o.code, "code", "", "the table's join `CODE` (found on the LAN by mDNS)")
	cmd.Flags().DurationVar(&o.wait, "wait", 30*time.Second, "how long to look for the table on the LAN")
	return cmd
}

// target is where to ask for a seat.
type target struct {
	creator peer.AddrInfo
	id      [16]byte // zero when joining by invite
	name    string   // for messages
	label   string   // the table's lobby name, or the invite
	seat    int      // the expected seat (seats taken), 0 if unknown
	total   int
}

func runJoin(ctx context.Context, r *netRun, o joinOptions) error {
	ctx, stop := signalContext(ctx)
	defer stop()
	if o.addr != "" {
		if _, err := lobby.ParseInvite(o.addr); err != nil {
			return &exitError{code: 2, err: err, hint: "an invite is the host's multiaddr ending in /p2p/<peer id>, as 'masque host' prints it"}
		}
	}
	if o.code != "" {
		if _, err := lobby.ParseCode(o.code); err != nil {
			return &exitError{code: 2, err: err, hint: "a join code is 8 letters and digits, like 4F7Q-ZK2M"}
		}
	}
	if hasTable(r.o.state) {
		return r.rejoin(ctx, r.o.state)
	}
	if r.o.state != "" {
		if err := checkStateDir(r.o.state); err != nil {
			return err
		}
	}
	if r.o.state == "" {
		// Seated at this table before, in the default state directory?
		label := o.table
		if o.addr != "" {
			label = o.addr
		}
		if dir := r.unfinished(label, o.code); dir != "" {
			return r.rejoin(ctx, dir)
		}
	}
	var t target
	if o.addr != "" {
		info, _ := lobby.ParseInvite(o.addr)
		t = target{creator: info, name: o.addr, label: o.addr}
	} else {
		var err error
		if t, err = r.find(ctx, o); err != nil {
			return err
		}
	}
	p, err := r.startPeer("")
	if err != nil {
		return err
	}
	defer p.Close()
	player := r.playerName(p)
	keys := table.GenerateSeatSecrets()
	r.printf("asking %s for a seat as %s", t.name, player)
	seating, err := p.Join(ctx, netsession.JoinConfig{Creator: t.creator, TableID: t.id, Player: player,
		AutoName: r.o.player == "", Keys: keys, Seat: t.seat,
		OnAccepted: func(seat, taken, total int) {
			r.printf("seated at %s as seat %d; waiting for players: %d/%d seated", t.name, seat, taken, total)
		}})
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return &exitError{code: 130, err: errors.New("interrupted while waiting for the table to fill")}
		case errors.Is(err, netsession.ErrRefused):
			return &exitError{code: 1, err: err, hint: "'masque lobby' shows the tables with free seats"}
		}
		return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
			hint: "the host may have left; if its address is unreachable, see 'masque doctor' (firewalls, Wi-Fi client isolation, VPNs)"}
	}
	r.printf("seated: %s, roster signed by all %d seats: %s", tableLabel(seating.Roster.TableID), len(seating.Roster.Seats), seatNames(seating))
	r.printf("game: %s", gameTitle(seating.Roster.Game))
	r.printf("%s", keysLine(netsession.PublishesKeys(seating.Roster), "the host's choice, for every player"))
	return r.create(ctx, p, seating, keys, t.label)
}

// rejoin reopens a state directory and plays on.
func (r *netRun) rejoin(ctx context.Context, dir string) error {
	st, err := store.Open(dir)
	if err != nil {
		return &exitError{code: 1, err: err}
	}
	p, err := r.startPeer(dir)
	if err != nil {
		st.Close()
		return err
	}
	defer p.Close()
	return r.play(ctx, p, st, true)
}

// find browses the LAN until a table matches the name or code.
func (r *netRun) find(ctx context.Context, o joinOptions) (target, error) {
	what := fmt.Sprintf("table %q", o.table)
	if o.code != "" {
		what = "table " + o.code
	}
	r.printf("looking for %s on the LAN (mDNS)...", what)
	bctx, cancel := context.WithTimeout(ctx, o.wait)
	defer cancel()
	ch, err := lobby.Browse(bctx, r.lobbyOpt)
	if err != nil {
		return target{}, &exitError{code: 1, err: err,
			hint: "mDNS does not work here ('masque doctor' says why); ask the host for the invite multiaddr and run 'masque join MULTIADDR'"}
	}
	defer func() {
		cancel()
		for range ch { // drain to the close
		}
	}()
	var last []lobby.Table
	for tables := range ch {
		last = tables
		t, ok, err := pickTable(tables, o)
		if err != nil {
			return target{}, err
		}
		if ok {
			r.printf("found %q (%s, %d/%d seated) at %s", t.Name, t.Code(), t.Taken, t.Total, t.Peer.ShortString())
			return target{creator: t.AddrInfo(), id: t.ID, name: fmt.Sprintf("%q (%s)", t.Name, t.Code()), label: t.Name,
				seat: t.Taken, total: t.Total}, nil
		}
	}
	if ctx.Err() != nil {
		return target{}, &exitError{code: 130, err: errors.New("interrupted")}
	}
	hint := "check the name with 'masque lobby'; if no table shows up, run 'masque doctor', or ask the host for the join code or invite multiaddr"
	if len(last) > 0 {
		var names []string
		for _, t := range last {
			names = append(names, fmt.Sprintf("%q (%s)", t.Name, t.Code()))
		}
		hint = "tables seen: " + strings.Join(names, ", ")
	}
	return target{}, &exitError{code: 1, err: fmt.Errorf("no %s on this network after %v", what, o.wait), hint: hint}
}

// pickTable finds the table o names among tables: by code, else by name
// (exact, then ignoring case), else the name read as a code. A full table
// (or one speaking another protocol) is an error; several open tables with
// the name are ambiguous.
func pickTable(tables []lobby.Table, o joinOptions) (lobby.Table, bool, error) {
	if o.code != "" {
		t, err := lobby.Find(tables, o.code)
		if err != nil {
			return t, false, nil
		}
		return t, true, joinable(t)
	}
	for _, fold := range []bool{false, true} {
		var match []lobby.Table
		for _, t := range tables {
			if t.Name == o.table || fold && strings.EqualFold(t.Name, o.table) {
				match = append(match, t)
			}
		}
		var open []lobby.Table
		for _, t := range match {
			if t.Taken < t.Total {
				open = append(open, t)
			}
		}
		switch {
		case len(open) == 1:
			return open[0], true, joinable(open[0])
		case len(open) > 1:
			var codes []string
			for _, t := range open {
				codes = append(codes, t.Code())
			}
			return lobby.Table{}, false, &exitError{code: 1, err: fmt.Errorf("%d open tables are called %q", len(open), o.table),
				hint: "join one by its code: " + strings.Join(codes, ", ")}
		case len(match) > 0:
			return match[0], true, joinable(match[0])
		}
	}
	if _, err := lobby.ParseCode(o.table); err == nil {
		if t, err := lobby.Find(tables, o.table); err == nil {
			return t, true, joinable(t)
		}
	}
	return lobby.Table{}, false, nil
}

// joinable says why t cannot be joined: another protocol version, or no
// free seat.
func joinable(t lobby.Table) error {
	if t.Version != lobby.Version {
		return &exitError{code: 1, err: fmt.Errorf("table %q (%s) speaks masque's table protocol v%d, this masque speaks v%d", t.Name, t.Code(), t.Version, lobby.Version),
			hint: "everyone at a table needs a masque that speaks the same protocol: compare 'masque version' with the host's and upgrade the older one"}
	}
	if t.Taken >= t.Total {
		return &exitError{code: 1, err: fmt.Errorf("table %q (%s) is full: %d/%d seated", t.Name, t.Code(), t.Taken, t.Total),
			hint: "if you were seated there, run again with the same --state DIR to rejoin"}
	}
	return nil
}
