package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/bot"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/store"
)

// maxDemoTurns stops bots that would play forever (in practice they
// finish within a hundred turns).
const maxDemoTurns = 1000

// demoNames are the bots' names, in seat order.
var demoNames = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya", "Roma"}

type demoOptions struct {
	players    int
	seed       uint64
	seeded     bool // --seed was given
	transcript string
	asJSON     bool
	keep       bool
	timeout    time.Duration
}

// demoResult is the --json output of 'masque demo'.
type demoResult struct {
	Players    int          `json:"players"`
	Seed       uint64       `json:"seed"`
	Transcript string       `json:"transcript"`
	Entries    int          `json:"entries"`
	Seconds    float64      `json:"seconds"`
	StateDir   string       `json:"state_dir,omitempty"`
	Verify     verifyResult `json:"verify"`
}

func newDemoCmd(a *app) *cobra.Command {
	var o demoOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Bots play a full game peer to peer on this machine, then it is verified",
		Long: `Seat N bots at a table on this machine, each one a real libp2p peer on
127.0.0.1 with its own keys, replica and state directory, and let them play
a full game of Mascarade: hidden swaps with proofs, peeks and reveals made of
decryption shares, every entry signed, persisted, echoed and checked by every
peer. The game is narrated with public information only (nobody learns
whether a swap was real), then the transcript is verified exactly as
'masque verify' does.

--seed makes the bots' decisions reproducible; the cards stay
cryptographically random.`,
		Example: `  masque demo
  masque demo --players 13 --seed 7 --transcript game.masque && masque verify game.masque
  masque demo --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			return runDemo(cmd.Context(), a, o)
		},
	}
	cmd.Flags().IntVar(&o.players, "players", 4, "number of bots (2..13)")
	cmd.Flags().Uint64Var(&o.seed, "seed", 0, "seed of the bots' decisions (default: random)")
	cmd.Flags().StringVar(&o.transcript, "transcript", "", "write the transcript to `PATH` (default: a temporary file)")
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the result as JSON instead of narrating")
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the peers' state directories")
	cmd.Flags().DurationVar(&o.timeout, "timeout", 10*time.Minute, "give up after this long")
	return cmd
}

// demoPeer is one bot's peer: its libp2p node, keys and state directory.
type demoPeer struct {
	name    string
	id      *identity.Identity
	node    *p2p.Node
	cardKey *mental.SecretKey
	pubKey  []byte // the card key's public key and proof, for the roster
	dir     string
	seating *p2p.Seating
}

func runDemo(ctx context.Context, a *app, o demoOptions) error {
	if o.players < 2 || o.players > len(demoNames) {
		return &exitError{code: 2, err: fmt.Errorf("--players %d: want 2..%d", o.players, len(demoNames))}
	}
	if !o.seeded {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return fmt.Errorf("demo: seed: %w", err)
		}
		o.seed = binary.BigEndian.Uint64(b[:])
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()

	out := a.stdout
	if o.asJSON {
		out = io.Discard
	}
	start := time.Now()
	root, err := os.MkdirTemp("", "masque-demo-")
	if err != nil {
		return fmt.Errorf("demo: state directory: %w", err)
	}
	if !o.keep {
		defer os.RemoveAll(root)
	}

	names := demoNames[:o.players]
	peers, err := startDemoPeers(names, root)
	defer func() {
		for _, p := range peers {
			p.node.Close()
		}
	}()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "masque demo: %d bots, seed %d, each a libp2p peer on 127.0.0.1\n", o.players, o.seed)
	for _, p := range peers {
		fmt.Fprintf(out, "  %-6s %s\n", p.name, p.node.Addrs()[0])
	}

	tableID, err := seatDemoPeers(ctx, peers, names)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "seated: table %x, roster signed by all %d seats\n", tableID[:4], len(peers))

	logs, err := playDemo(ctx, peers, o.seed, out)
	if err != nil {
		return err
	}

	// Every peer must hold the same log, byte for byte.
	first, err := encodeLog(logs[0])
	if err != nil {
		return err
	}
	for i, l := range logs[1:] {
		got, err := encodeLog(l)
		if err != nil {
			return err
		}
		if !bytes.Equal(first, got) {
			return fmt.Errorf("demo: %s's log differs from %s's", peers[i+1].name, peers[0].name)
		}
	}
	s0 := peers[0].seating
	tr := &ledger.Transcript{Roster: s0.Roster, RosterSigs: s0.Table.Sigs, Entries: logs[0]}
	path, err := writeDemoTranscript(tr, o.transcript)
	if err != nil {
		return err
	}
	res, fault := verifyTranscript(a.games, tr)
	elapsed := time.Since(start)
	if o.asJSON {
		r := demoResult{Players: o.players, Seed: o.seed, Transcript: path, Entries: len(tr.Entries),
			Seconds: elapsed.Seconds(), Verify: res}
		if o.keep {
			r.StateDir = root
		}
		if err := json.NewEncoder(a.stdout).Encode(r); err != nil {
			return err
		}
		if fault != nil {
			return &exitError{code: 1, err: fmt.Errorf("demo transcript rejected: %w", fault)}
		}
		return nil
	}
	fmt.Fprintf(out, "all %d peers hold the same log of %d entries (%v)\n", len(peers), len(tr.Entries), elapsed.Round(time.Millisecond))
	fmt.Fprintf(out, "transcript: %s\n", path)
	if o.keep {
		fmt.Fprintf(out, "state directories: %s\n", root)
	}
	fmt.Fprintf(out, "verifying as 'masque verify %s':\n", path)
	return reportVerify(a, res, false, fault)
}

// startDemoPeers starts one libp2p node per name on loopback TCP, with a
// fresh identity and card key each. It returns the peers started so far
// even on error, for the caller to close.
func startDemoPeers(names []string, root string) ([]*demoPeer, error) {
	var peers []*demoPeer
	for i, name := range names {
		id, err := identity.Generate()
		if err != nil {
			return peers, fmt.Errorf("demo: %s's identity: %w", name, err)
		}
		node, err := p2p.NewNode(p2p.Config{Identity: id, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			return peers, fmt.Errorf("demo: %s's node: %w", name, err)
		}
		peers = append(peers, &demoPeer{name: name, id: id, node: node, cardKey: mental.GenerateKey(),
			dir: filepath.Join(root, fmt.Sprintf("%02d-%s", i, name))})
	}
	return peers, nil
}

// seatDemoPeers runs the join protocol: peer 0 creates the table, the
// others join one after another (so each knows its seat, which its card
// key proof is bound to), and every seat signs the roster.
func seatDemoPeers(ctx context.Context, peers []*demoPeer, names []string) ([16]byte, error) {
	var tableID [16]byte
	if _, err := crand.Read(tableID[:]); err != nil {
		return tableID, fmt.Errorf("demo: table id: %w", err)
	}
	gameOpts, err := mascarade.Options{Players: names}.MarshalBinary()
	if err != nil {
		return tableID, fmt.Errorf("demo: %w", err)
	}
	opts, err := (&table.Options{Game: gameOpts, PublishKeys: true}).MarshalBinary()
	if err != nil {
		return tableID, fmt.Errorf("demo: table options: %w", err)
	}
	for i, p := range peers {
		pk := p.cardKey.ProvePublic(table.KeyContext(tableID, i, []byte(p.id.PeerID())))
		if p.pubKey, err = pk.MarshalBinary(); err != nil {
			return tableID, fmt.Errorf("demo: %s's card key: %w", p.name, err)
		}
	}
	// Every seat checks every other seat's card key proof.
	checkSeat := func(seat int, si ledger.SeatInfo) error {
		pk, err := mental.UnmarshalPublicKey(si.CardKey)
		if err != nil {
			return err
		}
		return pk.Verify(table.KeyContext(tableID, seat, si.PeerID))
	}
	tbl, err := peers[0].node.CreateTable(p2p.TableConfig{ID: tableID, Game: mascarade.GameName, Options: opts,
		Seats: len(peers), Name: peers[0].name, CardKey: peers[0].pubKey,
		Validate: func(_ string, card []byte) error {
			_, err := mental.UnmarshalPublicKey(card)
			return err
		}})
	if err != nil {
		return tableID, fmt.Errorf("demo: create table: %w", err)
	}
	creator := peer.AddrInfo{ID: peers[0].id.PeerID(), Addrs: peers[0].node.Host().Addrs()}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(peers))
	var wg sync.WaitGroup
	wg.Go(func() { peers[0].seating, errs[0] = tbl.Seat(ctx) })
	for i := 1; i < len(peers); i++ {
		p := peers[i]
		accepted := make(chan struct{})
		done := make(chan struct{})
		wg.Go(func() {
			defer close(done)
			p.seating, errs[i] = p.node.Join(ctx, p2p.JoinConfig{Creator: creator, TableID: tableID,
				Name: p.name, CardKey: p.pubKey, Validate: checkSeat,
				OnAccepted: func(int, int) { close(accepted) }})
		})
		// Wait for this seat before asking for the next: seats are given
		// in the order joiners are accepted.
		select {
		case <-accepted:
			continue
		case <-done:
		}
		cancel() // this join failed: stop the others
		break
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			tbl.Close()
			return tableID, fmt.Errorf("demo: seating %s: %w", peers[i].name, err)
		}
	}
	for i, p := range peers {
		if p.seating.Seat != uint8(i) || p.seating.GameID != peers[0].seating.GameID {
			return tableID, fmt.Errorf("demo: %s got seat %d of another roster", p.name, p.seating.Seat)
		}
	}
	return tableID, nil
}

// playDemo opens every peer's state directory and room and runs them all
// to the end of the game. It returns every peer's log.
func playDemo(ctx context.Context, peers []*demoPeer, seed uint64, out io.Writer) ([][]*ledger.Entry, error) {
	game := mascarade.Game{}
	seats := make([]*demoSeat, len(peers))
	rooms := make([]*p2p.Room, len(peers))
	stores := make([]*store.Store, len(peers))
	defer func() {
		for i := range peers {
			if rooms[i] != nil {
				rooms[i].Close()
			}
			if stores[i] != nil {
				stores[i].Close()
			}
		}
	}()
	for i, p := range peers {
		st, err := store.Create(p.dir, p.seating.Table, p.cardKey.Bytes())
		if err != nil {
			return nil, fmt.Errorf("demo: %s's state directory: %w", p.name, err)
		}
		stores[i] = st
		rep, err := table.New(p.seating.Roster, game)
		if err != nil {
			return nil, fmt.Errorf("demo: %s's replica: %w", p.name, err)
		}
		seats[i] = &demoSeat{seat: i, tab: rep, seed: seed,
			player: table.NewPlayer(i, p.id.SigningKey(), p.cardKey)}
		if i == 0 {
			seats[i].narr = &narrator{w: out}
		}
		rooms[i], err = p.node.OpenRoom(p2p.RoomConfig{Store: st, Replica: seats[i], Author: seats[i].author,
			Timeout: time.Minute, Tick: 100 * time.Millisecond})
		if err != nil {
			return nil, fmt.Errorf("demo: %s's room: %w", p.name, err)
		}
	}

	// The first peer to fail stops everyone (instead of leaving the others
	// to wait for its entries until their timeout), and is the one blamed.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	var wg sync.WaitGroup
	for i, p := range peers {
		wg.Go(func() {
			out, err := rooms[i].Run(ctx)
			switch {
			case seats[i].failure() != nil:
				fail(fmt.Errorf("demo: %s: %w", p.name, seats[i].failure()))
			case err != nil:
				fail(fmt.Errorf("demo: %s: %w", p.name, err))
			case out.Verdict != nil:
				fail(fmt.Errorf("demo: %s: the table stopped: %v", p.name, out.Verdict))
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	var logs [][]*ledger.Entry
	for _, r := range rooms {
		logs = append(logs, r.Log())
	}
	return logs, nil
}

func encodeLog(log []*ledger.Entry) ([]byte, error) {
	var b []byte
	for _, e := range log {
		enc, err := e.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("demo: entry %d: %w", e.Pos, err)
		}
		b = binary.BigEndian.AppendUint32(b, uint32(len(enc)))
		b = append(b, enc...)
	}
	return b, nil
}

// writeDemoTranscript writes tr to path, or to a new temporary file when
// path is empty, and returns where it went.
func writeDemoTranscript(tr *ledger.Transcript, path string) (string, error) {
	enc, err := tr.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("demo: transcript: %w", err)
	}
	if path == "" {
		f, err := os.CreateTemp("", "masque-demo-*.masque")
		if err != nil {
			return "", fmt.Errorf("demo: transcript: %w", err)
		}
		path = f.Name()
		f.Close()
	}
	if err := writeFileAtomic(path, enc, 0o644); err != nil {
		return "", fmt.Errorf("demo: transcript: %w", err)
	}
	return path, nil
}

// demoSeat is one bot's replica and private side. It satisfies
// p2p.Replica: after each applied entry it records what its seat saw
// (table.Player.Observe) and feeds the bot each completed step. Its author
// method is the seat's p2p.Author.
type demoSeat struct {
	seat   int
	tab    *table.Table
	player *table.Player
	seed   uint64
	narr   *narrator // nil except on the narrating seat

	mu      sync.Mutex
	bot     *bot.Bot  // created at the deal
	step    *demoStep // the move being carried out, until its last share
	swapBit bool      // the secret bit of this seat's last move
	err     error     // a local failure: this seat cannot follow its game
}

// demoStep is one move and everything that follows from it.
type demoStep struct {
	obs    bot.Observation
	before *mascarade.State
}

// Next implements p2p.Replica.
func (d *demoSeat) Next() (uint64, uint8, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.Next()
}

// StateHash implements p2p.Replica.
func (d *demoSeat) StateHash() ledger.Hash {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.tab.StateHash()
}

// Apply implements p2p.Replica: the table checks and applies e, then the
// seat follows what happened. A failure to follow is the seat's own (its
// next author call reports it), not the entry's author's.
func (d *demoSeat) Apply(e *ledger.Entry) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	prior, _ := d.tab.Rules().(*mascarade.State)
	_, kind, _ := d.tab.Expect()
	mem := len(d.player.Memory)
	if err := d.tab.Apply(e); err != nil {
		return err
	}
	if d.err == nil {
		if err := d.follow(e, prior, kind, mem); err != nil {
			d.err = fmt.Errorf("after entry %d: %w", e.Pos, err)
		}
	}
	return nil
}

func (d *demoSeat) failure() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

// follow updates the seat's memory, its bot's knowledge and the narration
// after entry e (of the given kind) was applied; prior is the rules state
// before it and mem the length of the memory before it.
func (d *demoSeat) follow(e *ledger.Entry, prior *mascarade.State, kind table.BodyKind, mem int) error {
	if err := d.player.Observe(d.tab); err != nil {
		return err
	}
	s, _ := d.tab.Rules().(*mascarade.State)
	if s == nil {
		return nil
	}
	if prior == nil { // just dealt
		d.bot = bot.New(s, engine.Seat(d.seat), d.seed)
		d.narr.deal(s)
		return nil
	}
	switch kind {
	case table.BodyMove:
		b, err := table.UnmarshalBody(e.Body, d.tab.Slot(0).Width())
		if err != nil {
			return err
		}
		m := b.Move
		m.Seat = engine.Seat(e.Seat)
		_, effects, err := prior.Apply(m)
		if err != nil {
			return err
		}
		d.step = &demoStep{obs: bot.Observation{Effects: effects}, before: prior}
		if int(e.Seat) == d.seat {
			d.step.obs.Swap = d.swapBit
		}
		d.narr.move(prior, m)
	case table.BodyShares:
		c := d.tab.Completed()
		if c == nil || d.step == nil {
			break
		}
		var facts []engine.Fact
		for _, sg := range d.player.Memory[mem:] {
			switch {
			case sg.Public:
				facts = append(facts, engine.Fact{Slot: sg.Slot, Card: sg.Card})
			case c.Kind == engine.EffectPeek:
				d.step.obs.Seen = append(d.step.obs.Seen, engine.Fact{Slot: sg.Slot, Card: sg.Card})
			}
		}
		if c.Kind == engine.EffectReveal {
			_, more, err := prior.Learn(facts)
			if err != nil {
				return err
			}
			d.step.obs.Effects = append(d.step.obs.Effects, more...)
			d.step.obs.Facts = append(d.step.obs.Facts, facts...)
			d.narr.reveal(s, facts)
		}
	}
	// The step ends when no more shares are due.
	if _, k, ok := d.tab.Expect(); d.step != nil && (!ok || k != table.BodyShares) {
		d.bot.Observe(d.step.obs)
		d.narr.stepEnd(d.step.before, s)
		d.step = nil
	}
	return nil
}

// author is the seat's p2p.Author: the bot's move when the table waits
// for one from this seat, else the automatic entry (deal coin, shares,
// key).
func (d *demoSeat) author(ctx context.Context, pos uint64) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	if d.tab.Pos() != pos {
		return nil, fmt.Errorf("asked for entry %d, the table is at %d", pos, d.tab.Pos())
	}
	var body *table.Body
	if _, kind, ok := d.tab.Expect(); ok && kind == table.BodyMove {
		s, _ := d.tab.Rules().(*mascarade.State)
		if s == nil || d.bot == nil {
			return nil, errors.New("a move is expected before the deal")
		}
		if s.Turn() > maxDemoTurns {
			return nil, fmt.Errorf("the bots did not finish the game in %d turns", maxDemoTurns)
		}
		m, swap, ok := d.bot.Choose(s)
		if !ok {
			return nil, errors.New("the bot has no legal move")
		}
		_, effects, err := s.Apply(m)
		if err != nil {
			return nil, fmt.Errorf("the bot chose %s: %w", mascarade.FormatMove(s, m), err)
		}
		var swaps []bool
		for _, ef := range effects {
			if ef.Kind == engine.EffectSwap {
				swaps = append(swaps, swap)
			}
		}
		d.swapBit = swap
		if body, err = d.player.MoveBody(d.tab, m, swaps); err != nil {
			return nil, fmt.Errorf("move %s: %w", mascarade.FormatMove(s, m), err)
		}
	} else {
		b, auto, err := d.player.AutoBody(d.tab)
		if err != nil {
			return nil, err
		}
		if !auto {
			return nil, fmt.Errorf("entry %d is not this seat's to write", pos)
		}
		body = b
	}
	return body.MarshalBinary()
}

// narrator tells the game as everyone at the table sees it: the deal, each
// move (never whether a swap was real), reveals, coins and the end.
// A nil narrator says nothing.
type narrator struct {
	w io.Writer
}

func (n *narrator) deal(s *mascarade.State) {
	if n == nil {
		return
	}
	var cards []string
	for sl, c := range s.Deal() {
		cards = append(cards, fmt.Sprintf("%s %s", s.SlotName(engine.Slot(sl)), mascarade.CardName(c)))
	}
	fmt.Fprintf(n.w, "dealt face up (joint coin of every seat): %s\n", strings.Join(cards, ", "))
	fmt.Fprintf(n.w, "every player has %d coins\n", s.Coins(0))
}

func (n *narrator) move(s *mascarade.State, m engine.Move) {
	if n == nil {
		return
	}
	line := mascarade.FormatMove(s, m)
	if mascarade.HasSecretSwap(s, m) {
		line += "   (swapped or not: only they know)"
	}
	fmt.Fprintf(n.w, "turn %3d  %s\n", s.Turn(), line)
}

func (n *narrator) reveal(s *mascarade.State, facts []engine.Fact) {
	if n == nil {
		return
	}
	var out []string
	for _, f := range facts {
		out = append(out, fmt.Sprintf("%s is the %s", s.SlotName(f.Slot), mascarade.CardName(f.Card)))
	}
	fmt.Fprintf(n.w, "          revealed: %s\n", strings.Join(out, ", "))
}

func (n *narrator) stepEnd(before, after *mascarade.State) {
	if n == nil {
		return
	}
	var ch []string
	for p := range engine.Seat(after.Players()) {
		if b, a := before.Coins(p), after.Coins(p); a != b {
			ch = append(ch, fmt.Sprintf("%s %d→%d", after.Name(p), b, a))
		}
	}
	if b, a := before.Court(), after.Court(); a != b {
		ch = append(ch, fmt.Sprintf("court %d→%d", b, a))
	}
	if len(ch) > 0 {
		fmt.Fprintf(n.w, "          coins: %s\n", strings.Join(ch, ", "))
	}
	if after.Over() {
		var ws []string
		for _, w := range after.Winners() {
			ws = append(ws, after.Name(w))
		}
		sort.Strings(ws)
		fmt.Fprintf(n.w, "game over after %d turns: %s won\n", after.Turn(), strings.Join(ws, ", "))
	}
}
