package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/store"
)

// demoNames are the bots' names, in seat order.
var demoNames = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya", "Roma", "Sveta", "Tolya", "Ulya", "Vera", "Yura", "Zhenya"}

type demoOptions struct {
	game       string
	scenario   string
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
	Game       string       `json:"game"`
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
		Short: "Bots play a game peer to peer on this machine; it is then verified",
		Long: `Seat N bots at a table on this machine, each one a real libp2p peer on
127.0.0.1 with its own keys, replica and state directory, and let them play
a full game: hidden cards with proofs, peeks and reveals made of
decryption shares, every entry signed, persisted, echoed and checked by every
peer. The game is narrated with public information only (nobody learns a
secret), then the transcript is verified exactly as 'masque verify' does.

` + a.gamesList() + `

--seed makes the bots' decisions reproducible; the cards stay
cryptographically random.`,
		Example: `  masque demo
` + a.gameExamples("demo", "") + `
  masque demo --players 13 --seed 7 --transcript game.masque
  masque verify game.masque
  masque demo --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.seeded = cmd.Flags().Changed("seed")
			return runDemo(cmd.Context(), a, o)
		},
	}
	cmd.Flags().StringVar(&o.game, "game", registry.Default, a.gameFlagHelp())
	cmd.Flags().StringVar(&o.scenario, "scenario", "", a.scenarioFlagHelp())
	cmd.Flags().IntVar(&o.players, "players", 4, a.playersFlagHelp("number of bots"))
	cmd.Flags().Uint64Var(&o.seed, "seed", 0, "seed of the bots' decisions (default: random)")
	cmd.Flags().StringVar(&o.transcript, "transcript", "", "write the transcript to `PATH` (default: a new file in STATE/games, STATE being $XDG_STATE_HOME/masque or ~/.local/state/masque)")
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
	keys    table.SeatSecrets
	pubKey  []byte // the card key's public key and proof, for the roster
	dir     string
	seating *p2p.Seating
}

func runDemo(ctx context.Context, a *app, o demoOptions) error {
	setup, err := gameSetup(a.list, &o.game, o.scenario, o.players, len(demoNames))
	if err != nil {
		return err
	}
	g, err := games.Lookup(a.list, o.game)
	if err != nil {
		return err
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
	closePeers := sync.OnceFunc(func() {
		for _, p := range peers {
			p.node.Close()
		}
	})
	defer closePeers()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "masque demo: %s, %d bots, seed %d, each a libp2p peer on 127.0.0.1\n", g.Title(), o.players, o.seed)
	for _, p := range peers {
		fmt.Fprintf(out, "  %-6s %s\n", p.name, p.node.Addrs()[0])
	}

	tableID, err := seatDemoPeers(ctx, peers, names, g, setup)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "seated: table %x, roster signed by all %d seats\n", tableID[:4], len(peers))

	// Every peer must hold the same log, byte for byte (playDemo checks
	// it). Only one copy is returned, and the peers are closed before the
	// audit (with 18 peers in this process, their logs and the audit's
	// batch would otherwise be in memory together).
	log, err := playDemo(ctx, a.list, peers, o.seed, out)
	if err != nil {
		return err
	}
	closePeers()
	s0 := peers[0].seating
	tr := &ledger.Transcript{Roster: s0.Roster, RosterSigs: s0.Table.Sigs, Entries: log}
	path, err := writeDemoTranscript(tr, o.transcript)
	if err != nil {
		return err
	}
	res, fault := verifyTranscript(a.list, tr)
	elapsed := time.Since(start)
	if o.asJSON {
		r := demoResult{Game: o.game, Players: o.players, Seed: o.seed, Transcript: path, Entries: len(tr.Entries),
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
		peers = append(peers, &demoPeer{name: name, id: id, node: node, keys: table.GenerateSeatSecrets(),
			dir: filepath.Join(root, fmt.Sprintf("%02d-%s", i, name))})
	}
	return peers, nil
}

// seatDemoPeers runs the join protocol: peer 0 creates the table, the
// others join one after another (so each knows its seat, which its card
// key proof is bound to), and every seat signs the roster.
func seatDemoPeers(ctx context.Context, peers []*demoPeer, names []string, g games.Game, setup games.Setup) ([16]byte, error) {
	game := g.Name()
	var tableID [16]byte
	if _, err := crand.Read(tableID[:]); err != nil {
		return tableID, fmt.Errorf("demo: table id: %w", err)
	}
	opts, err := netsession.TableOptionsOf(g, names, setup, true, false, 0)
	if err != nil {
		return tableID, fmt.Errorf("demo: table options: %w", err)
	}
	for i, p := range peers {
		p.pubKey = p.keys.PublicKeys(tableID, i, []byte(p.id.PeerID()))
	}
	// Every seat checks every other seat's key proofs.
	checkSeat := func(seat int, si ledger.SeatInfo) error {
		_, err := table.VerifySeatKeys(tableID, seat, si)
		return err
	}
	tbl, err := peers[0].node.CreateTable(p2p.TableConfig{ID: tableID, Game: game, Options: opts,
		Seats: len(peers), Name: peers[0].name, CardKey: peers[0].pubKey,
		Validate: func(_ string, card []byte) error {
			_, err := table.DecodeSeatKeys(card)
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
func playDemo(ctx context.Context, list []games.Game, peers []*demoPeer, seed uint64, out io.Writer) ([]*ledger.Entry, error) {
	seats := make([]*netsession.Seat, len(peers))
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
	// The peers apply entries at most GOMAXPROCS at a time: applying
	// is CPU work, and each peer part-way through an entry holds its
	// decoded points and proof batch (netsession.SeatConfig.Gate).
	gate := make(chan struct{}, runtime.GOMAXPROCS(0))
	// Their tables keep one copy of the shares and ballots they all keep
	// from the same entries (table.Shared).
	shared := table.NewShared()
	for i, p := range peers {
		secret, err := p.keys.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("demo: %s's keys: %w", p.name, err)
		}
		st, err := store.Create(p.dir, p.seating.Table, secret)
		if err != nil {
			return nil, fmt.Errorf("demo: %s's state directory: %w", p.name, err)
		}
		stores[i] = st
		cfg := netsession.SeatConfig{Seat: i, Roster: p.seating.Roster, Sign: p.id.SigningKey(), Keys: p.keys,
			Games: list, Bot: true, Seed: seed, Gate: gate, Shared: shared, DeferProofs: true}
		if i == 0 {
			cfg.Narrate = func(line string) { fmt.Fprintln(out, line) }
		}
		seats[i], err = netsession.NewSeat(cfg)
		if err != nil {
			return nil, fmt.Errorf("demo: %s's replica: %w", p.name, err)
		}
		rooms[i], err = p.node.OpenRoom(p2p.RoomConfig{Store: st, Replica: seats[i], Author: seats[i].Author,
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
			case seats[i].Failure() != nil:
				fail(fmt.Errorf("demo: %s: %w", p.name, seats[i].Failure()))
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
	// One copy of the log is kept (the transcript's); the rooms are
	// closed and the replicas dropped, and each other peer's log is read
	// back from its state directory a few entries at a time and compared
	// with it, byte for byte: with 18 peers in this process, their tables
	// and two whole logs were the end of the game's memory (issue 28).
	first, err := rooms[0].Log()
	if err != nil {
		return nil, fmt.Errorf("demo: %s's log: %w", peers[0].name, err)
	}
	for i := range rooms {
		rooms[i].Close()
		rooms[i], seats[i] = nil, nil
	}
	for i, st := range stores[1:] {
		if err := sameLog(first, st); err != nil {
			return nil, fmt.Errorf("demo: %s's log differs from %s's: %w", peers[i+1].name, peers[0].name, err)
		}
	}
	return first, nil
}

// sameLogChunk is how many entries of a peer's log sameLog reads at once.
const sameLogChunk = 64

// sameLog reports the first entry where st's log differs from log, byte
// for byte, reading st's entries a chunk at a time.
func sameLog(log []*ledger.Entry, st *store.Store) error {
	n := uint64(len(log))
	if got := st.Len(); got != n {
		return fmt.Errorf("%d entries against %d", got, n)
	}
	for from := uint64(0); from < n; from += sameLogChunk {
		chunk, err := st.Read(from, min(n, from+sameLogChunk))
		if err != nil {
			return err
		}
		for k, b := range chunk {
			a := log[from+uint64(k)]
			ea, err := a.MarshalBinary()
			if err != nil {
				return fmt.Errorf("entry %d: %w", a.Pos, err)
			}
			eb, err := b.MarshalBinary()
			if err != nil {
				return fmt.Errorf("entry %d: %w", b.Pos, err)
			}
			if !bytes.Equal(ea, eb) {
				return fmt.Errorf("entry %d", a.Pos)
			}
		}
	}
	return nil
}

// writeDemoTranscript writes tr to path, or to a new file in STATE/games when
// path is empty, and returns where it went.
func writeDemoTranscript(tr *ledger.Transcript, path string) (string, error) {
	enc, err := tr.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("demo: transcript: %w", err)
	}
	if path == "" {
		f, err := createStateFile("games", "game-*.masque")
		if err != nil {
			return "", fmt.Errorf("demo: transcript: %w", err)
		}
		path = f.Name()
		f.Close()
	}
	if err := safefile.Write(path, enc, 0o644); err != nil {
		return "", fmt.Errorf("demo: transcript: %w", err)
	}
	return path, nil
}
