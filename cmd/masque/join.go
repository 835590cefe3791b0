package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

type joinOptions struct {
	netOptions
	table string
	code  string
	addr  string
	wait  time.Duration
	// creator picks among several creators advertising the same table:
	// a peer id or a fingerprint prefix.
	creator string
	// settle overrides settleTime (tests).
	settle time.Duration
	phones phoneOptions
}

func newJoinCmd(a *app) *cobra.Command {
	var o joinOptions
	cmd := &cobra.Command{
		Use:   "join [NAME|CODE|TABLE-ID|MULTIADDR]",
		Short: "Sit down at a table, found by name or code (LAN, relay) or invite",
		Long: `Find a table and take a seat. On the LAN the table is found by mDNS with no
address: give its name (as 'masque lobby' lists it), its join code
(4F7Q-ZK2M-8XPA) or its table id. Across the internet, give the code and
the relay the host uses (--relay ADDR, or the relays of your config file):
the table is looked up in the relay's directory, and you reach the host
through the relay. Or give the invite multiaddr the host printed
(/ip4/203.0.113.7/tcp/4001/p2p/12D3KooW...). The game starts when every
seat is taken.

A relay's directory is not trusted: the join code is a hash of the table
id and the creator's peer id, so an entry that answers to your code names
the creator the host's masque made it for; libp2p proves that peer id
when you connect, and you check the signed roster as on a LAN. When
several creators answer to a code or name, you are told and choose.

Anyone on the LAN can advertise a table under the same name, or copy a
table's id (a copied id gets another join code). When more than one
creator matches, join lists them with their creator fingerprints (the host
prints its own) and asks which one you mean; with --bot it refuses and
lists them: pick one with --creator FINGERPRINT (its first characters are
enough) or --creator PEER-ID, or join by the host's invite multiaddr.

The table decides the game, its setup and whether the players' card keys
are published at the end (the host chose): all are stated once you are
seated. In a terminal you play your seat on the play screen (as in
'masque play').

` + a.gamesList() + `

Headless with --bot (automation, tests): a bot plays your seat, the game is
narrated, and at the end the transcript is written and verified; the exit
status is 0 for a valid finished game.

If the program is killed mid-game, run the same command again (with the same
--state DIR if you gave one): it reloads the log and the secret card key
from the state directory and rejoins; the others wait for it.

With --phones, phones on this network take seats at the same table through
this machine, as with 'masque host --phones': it prints a URL and its QR
code; a phone that opens it makes its own keys and plays its own seat, and
this machine only carries its frames (docs/phones.md). Keep it running
until the game is over: it is the phones' path to the table.` + "\n\n" + configHelp,
		Example: `  masque join friday
  masque join friday --bot
  masque join --bot --table friday \
      --transcript t.masque --state st --config cfg
  masque join 4F7Q-ZK2M-8XPA --bot
  masque join friday --phones
  masque join 4F7Q-ZK2M-8XPA --relay /ip4/198.51.100.4/tcp/4001/p2p/12D3KooW...
  masque join friday --bot --creator 7KQ3-M0ZB
  masque join /ip4/203.0.113.7/tcp/4001/p2p/12D3KooW... --bot`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &exitError{code: 2, err: fmt.Errorf("join: at most one table, got %d", len(args)), hint: "usage: " + c.UseLine()}
			}
			return nil
		},
		ValidArgsFunction: completeTables,
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
			if o.creator != "" && o.addr != "" {
				return &exitError{code: 2, err: errors.New("join: --creator picks among tables found on the LAN; an invite already names its creator")}
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
	cmd.Flags().StringVar(&o.code, "code", "", "the table's join `CODE` (found on the LAN by mDNS; with --relay, in the relays' directories)")
	cmd.Flags().DurationVar(&o.wait, "wait", 30*time.Second, "how long to look for the table on the LAN (with --relay: in the relays' directories)")
	o.phones.addFlags(cmd)
	cmd.Flags().StringVar(&o.creator, "creator", "", "when several creators advertise the table's name, code or id: join the one whose fingerprint starts with `FINGERPRINT` (at least 4 characters; the host prints it) or whose peer id it is")
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
	game    string // the game as the table's advertisement says ("" by invite)
	// online: found in the relays' directories (which say, while the
	// join tries to reach the creator, whether a seat is still open).
	online bool
}

func runJoin(ctx context.Context, r *netRun, o joinOptions) error {
	defer r.closeLog()
	ctx, stop := signalContext(ctx)
	defer stop()
	if o.addr != "" {
		if _, err := lobby.ParseInvite(o.addr); err != nil {
			return &exitError{code: 2, err: err, hint: "an invite is the host's multiaddr ending in /p2p/<peer id>, as 'masque host' prints it"}
		}
	}
	if o.code != "" {
		if _, err := lobby.ParseCode(o.code); err != nil {
			hint := "a join code is 12 letters and digits, like 4F7Q-ZK2M-8XPA, as 'masque host' and 'masque lobby' print it"
			if errors.Is(err, lobby.ErrOldCode) {
				hint = "the host runs an older masque: ask it to upgrade, or ask for the invite multiaddr it printed and run 'masque join MULTIADDR'"
			}
			return &exitError{code: 2, err: err, hint: hint}
		}
	}
	if hasTable(r.o.state) {
		return r.rejoin(ctx, r.o.state, o.phones)
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
		code := o.code
		if _, err := lobby.ParseCode(o.table); err == nil && code == "" {
			code = o.table // 'masque join CODE': the argument is the join code
		}
		switch dirs := r.unfinished(label, code); {
		case len(dirs) == 1:
			r.printf("resuming your unfinished game from %s", dirs[0])
			return r.rejoin(ctx, dirs[0], o.phones)
		case len(dirs) > 1:
			return &exitError{code: 2, err: fmt.Errorf("you were seated at %d unfinished games of %s: say which to resume with --state", len(dirs), termsafe.String(label+o.code)),
				hint: "resume one: " + strings.Join(stateChoices(dirs), "; ")}
		}
		if out := r.outOf(label, code); len(out) > 0 {
			// Out of that game (left, or eliminated): it goes on without
			// this seat, so the same command does not resume it.
			r.printf("you are out of the game you played at %s (it goes on without you; its state is in %s): looking for a new table by that name",
				termsafe.String(label+o.code), out[len(out)-1])
		}
	}
	var t target
	if o.addr != "" {
		info, _ := lobby.ParseInvite(o.addr)
		t = target{creator: info, name: o.addr, label: o.addr}
		r.inviteRelays(info)
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
	if t.creator.ID == p.ID.PeerID() {
		return &exitError{code: exitUsage, err: fmt.Errorf("%s was opened with your own identity (%s): the host and you share the config directory %s",
			termsafe.String(t.name), lobby.Fingerprint(p.ID.PeerID()), r.config),
			hint: "two players on one machine need an identity each: give one of them another directory with --config DIR"}
	}
	phones, err := r.startPhones(o.phones, p, "", r.o.timeout, "")
	if err != nil {
		return err
	}
	defer phones.close()
	player := r.playerName(p)
	keys := table.GenerateSeatSecrets()
	signedDir, err := stateSubdir("signed", lobby.Fingerprint(p.ID.PeerID()))
	if err != nil {
		return &exitError{code: exitFault, err: err, hint: "masque records there the roster you sign at each table, so that a host run again cannot get your signature on a second one"}
	}
	r.printf("asking %s for a seat as %s", t.name, player)
	// The phones' URL once the table's code is known (by invite: once
	// the creator names its table), while this machine asks for its seat.
	go phones.remote(ctx, p, t, t.seat+1)
	var told time.Time
	seating, err := p.Join(ctx, netsession.JoinConfig{Creator: t.creator, TableID: t.id, Player: player,
		AutoName: r.o.player == "", Keys: keys, Seat: t.seat, Patience: r.o.timeout, DialPatience: r.dialPatience(t.creator), SignedDir: signedDir,
		OnRetry: func(attempt int, elapsed, left time.Duration, err error) {
			// The first failure, then one line every 15 s at most.
			if attempt > 1 && time.Since(told) < 15*time.Second {
				return
			}
			told = time.Now()
			line := fmt.Sprintf("the host does not answer yet (%s, attempt %d, %ds): asking again for up to %ds",
				dialCause(err), attempt, int(elapsed.Seconds()), int(left.Seconds()))
			if attempt == 1 && onLAN(t.creator.Addrs, r.localNets()) && !hasQUIC(t.creator.Addrs) {
				line += "; on a lossy network the host's QUIC invite (/udp/…/quic-v1) connects far sooner than TCP"
			}
			r.printf("%s", line)
		},
		StillOpen: r.stillOpen(t),
		OnAccepted: func(seat, taken, total int) {
			r.printf("seated at %s as seat %d; waiting for players: %d/%d seated", t.name, seat, taken, total)
			phones.accepted(total)
		},
		OnLost: func(err error) {
			patience := r.o.timeout
			if patience <= 0 {
				patience = p2p.DefaultPatience
			}
			r.printf("lost contact with the host of %s before the game began: asking again for up to %ds (your seat is held if its masque comes back: run again, it resumes the table)",
				t.name, int(patience.Seconds()))
		},
		OnBack: func(seat, taken, total int) {
			r.printf("the host is back: %s, you keep seat %d; waiting for players: %d/%d seated", t.name, seat, taken, total)
			phones.accepted(total)
		}})
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return &exitError{code: 130, err: errors.New("interrupted while waiting for the table to fill")}
		case errors.Is(err, netsession.ErrTableGone):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "your seat there is lost: join the host's new table ('masque lobby' shows it; by table name or invite, the same command finds it if the host's address did not change)"}
		case errors.Is(err, netsession.ErrHostLost):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "if its masque stopped and did not come back in time, the table is gone with your seat: a host that runs the same command again reopens the table with the same code, where you join again with this command; with --new or other options it opens a new table instead; 'masque lobby' shows it"}
		case errors.Is(err, netsession.ErrRefused):
			return &exitError{code: 1, err: err, hint: "'masque lobby' shows the tables with free seats"}
		case errors.Is(err, netsession.ErrTableClosed):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "its host could not be reached, and the table is no longer listed with a seat open; 'masque lobby --relay ADDR' shows the tables with free seats"}
		case errors.Is(err, netsession.ErrSecondRoster):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "you signed another roster for this table before: its host (run again?) changed the table's options or seats under the same table id; do not play at this table, ask the host to open a new one"}
		case errors.Is(err, netsession.ErrFixedDeal):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "the host (or its masque) tried to choose the cards: a fair table draws the deal from every player's coins; do not play at this table"}
		case errors.Is(err, netsession.ErrRosterRefused):
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
				hint: "the roster the host offered was refused and not signed (the error says why); the game did not start for you"}
		}
		if hint, ok := r.unreachableHint(err, t.creator); ok {
			return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err), hint: hint}
		}
		return &exitError{code: 1, err: fmt.Errorf("join %s: %w", t.name, err),
			hint: "the host may have left; if its address is unreachable, see 'masque doctor' (firewalls, Wi-Fi client isolation, VPNs)"}
	}
	r.printf("seated: %s, roster signed by all %d seats: %s", tableLabel(seating.Roster), len(seating.Roster.Seats), seatNames(seating))
	if int(seating.Seat) < len(seating.Roster.Seats) {
		if got := seating.Roster.Seats[seating.Seat].Name; got != player {
			r.printf("the name %s was taken at this table: you play as %s (choose your own name with --player NAME)", player, got)
		}
	}
	r.printf("game: %s", r.a.rosterGame(seating.Roster))
	r.printf("%s", keysLine(netsession.PublishesKeys(seating.Roster), "the host's choice, for every player"))
	phones.seated(seating)
	r.phones = phones
	return r.create(ctx, p, seating, keys, t.label)
}

// stillOpen, for a table found in the relays' directories, asks them
// whether it is still listed with a seat open, for a join that cannot
// reach its creator: open, the join keeps trying past its usual
// patience; missing from two answers in a row (a relay that restarted
// lists it again within a second), it is closed. Nil for other tables.
func (r *netRun) stillOpen(t target) func(ctx context.Context) (open, known bool) {
	if !t.online || len(r.relays) == 0 {
		return nil
	}
	code := lobby.Code(t.id, t.creator.ID)
	missing := 0
	return func(ctx context.Context) (bool, bool) {
		tables, errs := listDirectories(ctx, r.relays, code)
		if len(errs) == len(r.relays) {
			return false, false // no directory answered
		}
		for _, lt := range tables {
			if lt.ID == t.id && lt.Peer == t.creator.ID {
				missing = 0
				return lt.Taken < lt.Total, true
			}
		}
		if missing++; missing < 2 {
			return false, false
		}
		r.printf("%s is no longer listed in the directory of %s (full, started or gone)", t.name, relayNames(r.relays))
		return false, true
	}
}

// rejoin reopens a state directory and plays on; with --phones it
// serves the phones seated through it again, at their URL (STATE/phones).
func (r *netRun) rejoin(ctx context.Context, dir string, po phoneOptions) error {
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
	phones, err := r.startPhones(po, p, "", r.o.timeout, dir)
	if err != nil {
		st.Close()
		return err
	}
	defer phones.close()
	phones.resumed(st)
	return r.play(ctx, p, st, true)
}

// settleTime is how long find keeps listening after the first matching
// advertisement before it decides: every creator answering the same mDNS
// query (a genuine host and one copying its name, code or table id) is
// heard within it, so a faster fake cannot win the race unseen.
const settleTime = 1500 * time.Millisecond

// find browses the LAN until a table matches the name or code, listens a
// little longer for other creators of the same table, then picks it:
// asking the player when several creators match (headless: refusing).
func (r *netRun) find(ctx context.Context, o joinOptions) (target, error) {
	what := fmt.Sprintf("table %q", o.table)
	if o.code != "" {
		what = "table " + o.code
	}
	if len(r.relays) > 0 {
		if r.relaysFrom == "--relay" {
			return r.findOnline(ctx, o, what)
		}
		// Relays of the config file: their directories, then the LAN,
		// half the wait each.
		half := o
		half.wait = o.wait / 2
		t, err := r.findOnline(ctx, half, what)
		if !errors.Is(err, errNotListed) && !errors.Is(err, errNoDirectory) {
			return t, err
		}
		r.printf("%v; looking on the LAN", err)
		o.wait -= half.wait
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
	settle := o.settle
	if settle == 0 {
		settle = settleTime
	}
	var last []lobby.Table
	var decide <-chan time.Time
loop:
	for {
		select {
		case tables, ok := <-ch:
			if !ok {
				break loop
			}
			last = tables
			if decide == nil && len(matchTables(tables, o)) > 0 {
				decide = time.After(settle)
			}
		case <-decide:
			break loop
		}
	}
	if ctx.Err() != nil {
		return target{}, &exitError{code: 130, err: errors.New("interrupted")}
	}
	t, ok, err := pickTable(last, o)
	var amb *ambiguousError
	if errors.As(err, &amb) && !r.o.bot {
		t, err = r.chooseTable(amb)
	}
	if err != nil {
		return target{}, err
	}
	if ok {
		return r.found(t), nil
	}
	hint := "check the name with 'masque lobby'; if no table shows up, run 'masque doctor', or ask the host for the join code or invite multiaddr"
	if len(last) > 0 {
		var names []string
		for _, t := range last {
			names = append(names, fmt.Sprintf("%q (%s)", t.Name, t.Code()))
		}
		hint = "tables seen: " + strings.Join(names, ", ")
		if o.creator != "" {
			hint += fmt.Sprintf("; --creator %q matched none of their creators", o.creator)
		}
	}
	return target{}, &exitError{code: 1, err: fmt.Errorf("no %s on this network after %v", what, o.wait), hint: hint}
}

// found says which table was found, with what the player must compare
// with the host (one advertisement proves nothing: anyone can advertise
// any name), and makes it the target.
func (r *netRun) found(t lobby.Table) target {
	r.printf("found %q (%s, %d/%d seated), creator fingerprint %s (%s)", t.Name, t.Code(), t.Taken, t.Total, t.Fingerprint(), t.Peer)
	r.printf("%s", compareLine(t))
	return target{creator: t.AddrInfo(), id: t.ID, name: fmt.Sprintf("%q (%s)", t.Name, t.Code()), label: t.Name,
		seat: t.Taken, total: t.Total, game: t.Game}
}

// compareLine tells a joiner what to compare with the host before the
// game starts: anyone on the network (or a directory) can advertise a
// table under any name, and a lookup that sees only the impostor's
// advertisement finds just one table.
func compareLine(t lobby.Table) string {
	return fmt.Sprintf("check with the host before the game starts: its 'masque host' shows join code %s and creator fingerprint %s; "+
		"anyone can advertise a table called %q, so if either differs, stop now (Ctrl-C): it is not the host's table", t.Code(), t.Fingerprint(), t.Name)
}

// findOnline looks the table up in the directories of the relays (--relay),
// asking again every second until --wait: one answer lists every
// creator a directory holds for the code, so there is nothing to settle.
// Directories are untrusted: entries whose code is not the hash of their
// table id and creator are dropped (directory.List), the creator's peer id
// is proven when it is dialled, and the roster is checked as on a LAN.
func (r *netRun) findOnline(ctx context.Context, o joinOptions, what string) (target, error) {
	r.printf("looking for %s in the directory of %s...", what, relayNames(r.relays))
	// Each round may take its full time (a round cut by the deadline
	// would report a directory that answers as silent); rounds start
	// until --wait has passed.
	deadline := time.Now().Add(o.wait)
	code := ""
	if o.code != "" {
		code = o.code
	} else if c, err := lobby.ParseCode(o.table); err == nil {
		code = c
	}
	var last []lobby.Table
	var errs []error
	for ctx.Err() == nil {
		last, errs = listDirectories(ctx, r.relays, code)
		if len(matchTables(last, o)) > 0 || !time.Now().Add(time.Second).Before(deadline) {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
	if ctx.Err() != nil {
		return target{}, &exitError{code: 130, err: errors.New("interrupted")}
	}
	t, ok, err := pickTable(last, o)
	var amb *ambiguousError
	if errors.As(err, &amb) {
		amb.where = "in the relays' directories"
		if !r.o.bot {
			t, err = r.chooseTable(amb)
			ok = err == nil
		}
	}
	if err != nil {
		return target{}, err
	}
	if ok {
		r.inviteRelays(t.AddrInfo())
		found := r.found(t)
		found.online = true
		return found, nil
	}
	if len(errs) < len(r.relays) {
		// Not open: maybe its game is under way (listed for spectators).
		playing, _ := listDirectoriesPlaying(ctx, r.relays, code)
		if t, ok, _ := pickTable(playing, o); ok {
			return target{}, joinable(t)
		}
	}
	if len(errs) == len(r.relays) {
		return target{}, &exitError{code: 1, err: fmt.Errorf("%w: %w", errNoDirectory, errors.Join(errs...)),
			hint: "check that 'masque relay' runs at the --relay address (and that it was not started with --no-directory)"}
	}
	hint := "check the code with the host: 'masque host --relay' prints it and says when the table is listed; 'masque lobby --relay ADDR' lists the tables"
	if len(last) > 0 && code == "" {
		var names []string
		for _, t := range last {
			names = append(names, fmt.Sprintf("%q (%s)", t.Name, t.Code()))
		}
		hint = "tables listed: " + strings.Join(names, ", ")
	}
	return target{}, &exitError{code: 1, err: fmt.Errorf("no %s in the directory of %s after %v (%w)", what, relayNames(r.relays), o.wait, errNotListed), hint: hint}
}

// errNotListed is wrapped by findOnline's error when the directories
// answered but list no such table; errNoDirectory when none answered.
var (
	errNotListed   = errors.New("not listed")
	errNoDirectory = errors.New("no directory answered")
)

// ambiguousError is pickTable's answer when more than one creator
// advertises a table matching the name, code or table id asked for.
// Anyone can advertise any name or table id, so only the player, who can
// ask the host for its fingerprint, can tell which one is meant.
type ambiguousError struct {
	what   string
	tables []lobby.Table
	where  string // "on this network" (empty) or "in the relays' directories"
}

// place is where the tables were found, for messages.
func (e *ambiguousError) place() string {
	if e.where == "" {
		return "on this network"
	}
	return e.where
}

func (e *ambiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d different creators advertise %s %s (anyone can copy a table's name, code or id):", lobby.Creators(e.tables), e.what, e.place())
	for _, t := range e.tables {
		fmt.Fprintf(&b, "\n  %s", candidateLine(t))
	}
	return b.String()
}

// candidateLine describes a table for the player to choose by its
// creator's fingerprint.
func candidateLine(t lobby.Table) string {
	return fmt.Sprintf("%q  code %s  %d/%d seated  creator fingerprint %s  (peer %s)", t.Name, t.Code(), t.Taken, t.Total, t.Fingerprint(), t.Peer)
}

// ambiguityHint tells how to choose among the creators of an ambiguous
// lookup.
const ambiguityHint = "ask the host for its creator fingerprint ('masque host' prints it) and add --creator FINGERPRINT " +
	"(its first characters are enough) or --creator PEER-ID; or join by the invite multiaddr the host printed"

// chooseTable lists the candidates of an ambiguous lookup with their
// creators' fingerprints and asks the player which one to join.
func (r *netRun) chooseTable(amb *ambiguousError) (lobby.Table, error) {
	r.printf("%d different creators advertise %s %s: anyone can copy a table's name, code or id,", lobby.Creators(amb.tables), amb.what, amb.place())
	r.printf("so check with the host which creator fingerprint is theirs ('masque host' prints it):")
	for i, t := range amb.tables {
		r.printf("  %d) %s", i+1, candidateLine(t))
	}
	for {
		fmt.Fprintf(r.out, "Join which one? [1-%d, empty: none] ", len(amb.tables))
		line, err := readLine(r.a.stdin)
		line = strings.TrimSpace(line)
		var n int
		if _, perr := fmt.Sscan(line, &n); perr == nil && n >= 1 && n <= len(amb.tables) && fmt.Sprint(n) == line {
			t := amb.tables[n-1]
			return t, joinable(t)
		}
		if line == "" || err != nil {
			if err != nil {
				fmt.Fprintln(r.out)
			}
			return lobby.Table{}, &exitError{code: 1, err: fmt.Errorf("%d creators advertise %s and none was chosen", lobby.Creators(amb.tables), amb.what), hint: ambiguityHint}
		}
		r.printf("please answer with a number from 1 to %d", len(amb.tables))
	}
}

// matchTables returns the tables o names, among those of the creator it
// names with --creator if any: by join code; else by name (ignoring case),
// by table id (32 hex digits) or by the name read as a join code, all at
// once, so that an attacker cannot shadow a table by calling its own after
// the other's code, or by changing the case of its name.
func matchTables(tables []lobby.Table, o joinOptions) []lobby.Table {
	if o.creator != "" {
		var mine []lobby.Table
		for _, t := range tables {
			if lobby.MatchCreator(t.Peer, o.creator) {
				mine = append(mine, t)
			}
		}
		tables = mine
	}
	if o.code != "" {
		found, _ := lobby.Find(tables, o.code)
		return found
	}
	code, codeErr := lobby.ParseCode(o.table)
	var id [16]byte
	idErr := errors.New("not a table id")
	if b, err := hex.DecodeString(o.table); err == nil && len(b) == len(id) {
		copy(id[:], b)
		idErr = nil
	}
	var out []lobby.Table
	for _, t := range tables {
		if strings.EqualFold(t.Name, o.table) || codeErr == nil && t.Code() == code || idErr == nil && t.ID == id {
			out = append(out, t)
		}
	}
	return out
}

// pickTable finds the table o names among tables (see matchTables). More
// than one creator among the matches is ambiguous (an *ambiguousError).
// Of one creator's tables, an exact name beats one that differs in case;
// a full table (or one speaking another protocol) is an error; several
// open tables with the name are ambiguous.
func pickTable(tables []lobby.Table, o joinOptions) (lobby.Table, bool, error) {
	match := matchTables(tables, o)
	if len(match) == 0 {
		return lobby.Table{}, false, nil
	}
	if lobby.Creators(match) > 1 {
		what := fmt.Sprintf("table %q", o.table)
		if o.code != "" {
			what = "the code " + o.code
		}
		return lobby.Table{}, false, &exitError{code: 1, err: &ambiguousError{what: what, tables: match}, hint: ambiguityHint}
	}
	if exact := slices.DeleteFunc(slices.Clone(match), func(t lobby.Table) bool { return t.Name != o.table }); len(exact) > 0 {
		match = exact
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
	}
	return match[0], true, joinable(match[0])
}

// joinable says why t cannot be joined: its game is under way, another
// protocol version, or no free seat.
func joinable(t lobby.Table) error {
	if t.Playing {
		return &exitError{code: 1, err: fmt.Errorf("the game at table %q (%s) has started: it can be watched, not joined", t.Name, t.Code()),
			hint: fmt.Sprintf("follow it with 'masque watch %s' (add the same --relay for a table found in a relay's directory)", t.Code())}
	}
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
