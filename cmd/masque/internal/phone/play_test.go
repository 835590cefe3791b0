package phone

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// memConn is one end of an in-memory message connection.
type memConn struct {
	in, out chan memMsg
}

type memMsg struct {
	b   []byte
	bin bool
}

func memPair() (*memConn, *memConn) {
	a, b := make(chan memMsg, 4096), make(chan memMsg, 4096)
	return &memConn{in: a, out: b}, &memConn{in: b, out: a}
}

func (c *memConn) Read(ctx context.Context) ([]byte, bool, error) {
	select {
	case m, ok := <-c.in:
		if !ok {
			return nil, false, errors.New("closed")
		}
		return m.b, m.bin, nil
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

func (c *memConn) Write(ctx context.Context, b []byte, bin bool) error {
	select {
	case c.out <- memMsg{append([]byte(nil), b...), bin}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// memStore is the phone's storage in a test.
type memStore struct {
	mu sync.Mutex
	kv map[string][]byte
}

func (s *memStore) Put(puts []phoneseat.Put) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kv == nil {
		s.kv = map[string][]byte{}
	}
	for _, p := range puts {
		s.kv[p.Key] = append([]byte(nil), p.Value...)
	}
	return nil
}

func testPeer(t *testing.T) *netsession.Peer {
	t.Helper()
	id, err := identity.Generate()
	if err != nil {
		t.Fatal(err)
	}
	p, err := netsession.NewPeerWithIdentity(id, []string{"/ip4/127.0.0.1/tcp/0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// netGameTimeout runs a bot's seat on the signed table until the game
// ends, timing out a seat silent for timeout.
func netGameTimeout(ctx context.Context, t *testing.T, p *netsession.Peer, tb store.Table, keys table.SeatSecrets, seed uint64, timeout time.Duration) (*netsession.Game, error) {
	sec, err := keys.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st, err := store.Create(filepath.Join(t.TempDir(), "seat"), tb, sec)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { st.Close() })
	return netsession.Start(ctx, netsession.GameConfig{Node: p.Node, Store: st, Bot: true, Seed: seed, Timeout: timeout})
}

// pageChecks collects what the player found wrong on the page.
type pageChecks struct {
	mu  sync.Mutex
	bad []string
}

func (c *pageChecks) add(format string, args ...any) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bad) < 5 {
		c.bad = append(c.bad, fmt.Sprintf(format, args...))
	}
}

func (c *pageChecks) check(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, b := range c.bad {
		t.Error(b)
	}
}

// player taps the phone's page as a person would, at random: a line of
// the menu, yes or no to a confirmation. It checks, into chk (if not
// nil), what a person needs on the page: the time left on every move
// of the seat's own, a confirmation that names the move it is about,
// and, while it waits for a seat answering on another's turn, that it
// waits for that seat's answer.
func player(ctx context.Context, d *phoneseat.Driver, rng *rand.Rand, chk *pageChecks) {
	var last []byte
	picked := ""
	for ctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
		raw := d.Page()
		if bytes.Equal(raw, last) {
			continue
		}
		var pg phoneseat.Page
		if json.Unmarshal(raw, &pg) != nil {
			continue
		}
		if pg.Waiting != "" && pg.Table != nil {
			// Waiting for a seat that answers on another's turn (a
			// claim, a forced response): the page says it is its answer.
			for _, s := range pg.Table.Seats {
				if s.Answers && !s.You && pg.Waiting == s.Name {
					chk.add("the page waits for %q while %s answers on another's turn (%q), want %q", pg.Waiting, s.Name, pg.Table.Status, s.Name+"'s answer")
				}
			}
		}
		if !pg.MyTurn || pg.Over {
			continue
		}
		last = raw
		if pg.LeftMS <= 0 {
			chk.add("the seat's own move (menu %v) shows no time left (leftMs %d)", pg.Menu, pg.LeftMS)
		}
		switch {
		case pg.Asking != "":
			if !strings.HasPrefix(pg.Asking, picked+": ") {
				chk.add("the confirmation %q does not name the move tapped, %q", pg.Asking, picked)
			}
			d.Answer([]string{seatview.Yes, seatview.No}[rng.IntN(2)])
		case len(pg.Menu) > 0:
			j := rng.IntN(len(pg.Menu))
			picked = pg.Menu[j].Label
			d.Pick(j)
		}
	}
}

// tableRun is a table hosted by a bot, with a hub for phones and
// joiners' bots.
type tableRun struct {
	game    string
	players int
	hub     *Hub
	host    *netsession.Peer
	results chan seatRes
	opened  chan struct{}
	tbl     *p2p.Table
	joiners int
	timeout time.Duration // every seat's patience with a silent seat
}

type seatRes struct {
	seat int
	g    *netsession.Game
	err  error
}

// startHost opens a 3-seat Mascarade table hosted by a bot.
func startHost(ctx context.Context, t *testing.T) *tableRun {
	return startGame(ctx, t, mascarade.GameName, 3)
}

// startGame opens a table of game for players seats, hosted by a bot.
func startGame(ctx context.Context, t *testing.T, game string, players int) *tableRun {
	return startGameTimeout(ctx, t, game, players, 30*time.Second)
}

// startGameTimeout is startGame with every seat's patience with a silent
// seat.
func startGameTimeout(ctx context.Context, t *testing.T, game string, players int, timeout time.Duration) *tableRun {
	tr := &tableRun{game: game, players: players, host: testPeer(t), results: make(chan seatRes, players), opened: make(chan struct{}), timeout: timeout}
	tr.hub = NewHub(Config{Node: tr.host.Node, Token: "secret-token", Game: game, Timeout: timeout})
	go func() {
		keys := table.GenerateSeatSecrets()
		s, err := tr.host.Host(ctx, netsession.HostConfig{Game: game, Player: "alice", Players: players, Keys: keys, PublishKeys: true,
			OnTable: func(tb *p2p.Table) { tr.tbl = tb; tr.hub.SetTable(tb); close(tr.opened) }})
		if err != nil {
			tr.results <- seatRes{err: err}
			return
		}
		tr.hub.SetSeating(s)
		g, err := netGameTimeout(ctx, t, tr.host, s.Table, keys, 1, tr.timeout)
		tr.results <- seatRes{0, g, err}
	}()
	<-tr.opened
	return tr
}

// code is the table's join code, as the phones' URL carries it.
func (tr *tableRun) code() string { return lobby.Code(tr.tbl.ID(), tr.host.ID.PeerID()) }

// waitTaken waits until n seats are taken.
func (tr *tableRun) waitTaken(ctx context.Context, t *testing.T, n int) {
	for {
		if taken, _ := tr.tbl.Taken(); taken >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("seats taken: want %d: %v", n, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// startJoiner seats the joiners' bots (the seats after the phone's), one
// after the other, and plays them.
func (tr *tableRun) startJoiner(ctx context.Context, t *testing.T) {
	names := []string{"bob", "cat", "dan", "eve", "fay", "gus", "hal"}
	for i := 0; i < tr.players-2; i++ {
		tr.joiners++
		tr.waitTaken(ctx, t, 2+i)
		joiner := testPeer(t)
		go func() {
			keys := table.GenerateSeatSecrets()
			s, err := joiner.Join(ctx, netsession.JoinConfig{Creator: peer.AddrInfo{ID: tr.host.ID.PeerID(), Addrs: tr.host.Node.Host().Addrs()},
				Player: names[i], Keys: keys, Seat: 2 + i})
			if err != nil {
				tr.results <- seatRes{err: err}
				return
			}
			g, err := netGameTimeout(ctx, t, joiner, s.Table, keys, uint64(3+i), tr.timeout)
			tr.results <- seatRes{int(s.Seat), g, err}
		}()
	}
}

// finish waits for the native seats' games and checks they ended with
// no verdict.
func (tr *tableRun) finish(ctx context.Context, t *testing.T) []*netsession.Game {
	var games []*netsession.Game
	for range 1 + tr.joiners {
		var r seatRes
		select {
		case r = <-tr.results:
		case <-ctx.Done():
			t.Fatalf("seating: %v", ctx.Err())
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
		games = append(games, r.g)
	}
	for i, g := range games {
		select {
		case <-g.Done():
		case <-ctx.Done():
			t.Fatalf("seat %d: the game did not end: %v", i, ctx.Err())
		}
		if out, err := g.Result(); err != nil || out.Verdict != nil {
			t.Fatalf("native seat %d: %v %+v", i, err, out)
		}
	}
	return games
}

// checkTranscript checks the phone's transcript against the native
// seats' and replays it (masque verify's check); it returns how many
// entries the phone (seat 1) wrote.
func checkTranscript(t *testing.T, got []byte, games []*netsession.Game) int {
	t.Helper()
	for i, g := range games {
		tr, err := g.Transcript()
		if err != nil {
			t.Fatal(err)
		}
		want, err := tr.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the phone's transcript (%d bytes) differs from native seat %d's (%d bytes)", len(got), i, len(want))
		}
	}
	tr, err := ledger.UnmarshalTranscript(got)
	if err != nil {
		t.Fatal(err)
	}
	g, err := registry.Lookup(tr.Roster.Game)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.Replay(tr, g.Table()); err != nil {
		t.Fatalf("the phone's transcript does not replay: %v", err)
	}
	n := 0
	for _, e := range tr.Entries {
		if e.Seat == 1 {
			n++
		}
	}
	t.Logf("%d entries, %d of them the phone's", len(tr.Entries), n)
	if n == 0 {
		t.Fatal("the phone wrote no entry")
	}
	return n
}

// TestPhonePlays: a phone seat (the seat the page's WebAssembly runs,
// here natively over an in-memory WebSocket) is seated by the host
// through its hub, signs the roster, and plays a whole game with its own
// keys, entries and proofs against the host's bot and joiners' bots, its
// frames forwarded by the host; every transcript is the same and
// replays (masque verify's check). Every game: Mascarade's two editions,
// The Grimm Masquerade, Mafia (its nights: the phone's secret choices).
func TestPhonePlays(t *testing.T) {
	for _, c := range []struct {
		game    string
		players int
	}{
		{mascarade.GameName, 3},
		{"mascarade2", 4},
		{"grimm", 3},
		{"mafia", 5},
	} {
		t.Run(c.game, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			tr := startGame(ctx, t, c.game, c.players)
			// The phone first (seat 1), the joiners after it.
			ph, _, d := newPhone(ctx, t, tr.hub, tr.code())
			phoneDone := make(chan error, 1)
			go func() { phoneDone <- d.Run(ctx) }()
			chk := &pageChecks{}
			go player(ctx, d, rand.New(rand.NewPCG(7, 7)), chk)
			tr.waitTaken(ctx, t, 2)
			tr.startJoiner(ctx, t)
			games := tr.finish(ctx, t)
			if err := <-phoneDone; err != nil {
				t.Fatalf("phone: %v", err)
			}
			out, err := ph.Outcome()
			if err != nil || out == nil || out.Verdict != nil {
				t.Fatalf("phone: %v %+v", err, out)
			}
			got, err := ph.Transcript()
			if err != nil {
				t.Fatal(err)
			}
			checkTranscript(t, got, games)
			chk.check(t)
		})
	}
}

// snapshot copies the phone's stored records.
func (s *memStore) snapshot() map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]byte, len(s.kv))
	for k, v := range s.kv {
		out[k] = append([]byte(nil), v...)
	}
	return out
}

func (s *memStore) entries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.kv {
		if len(k) > 2 && k[:2] == "e/" {
			n++
		}
	}
	return n
}

// TestPhoneResumes: the phone's tab is killed mid-game (its seat and
// connection gone) and reopened: the seat comes back from the phone's
// storage alone (its keys, the signed table, the entries it held, its
// secret swaps), says hello with its game, and plays to the end; every
// transcript is the same.
func TestPhoneResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tr := startHost(ctx, t)
	ph, eff, err := phoneseat.New("mila", phoneseat.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ph.SetToken("secret-token")
	ph.SetCode(tr.code())
	st := &memStore{}
	st.Put(eff.Puts)
	phoneEnd, serverEnd := memPair()
	d := phoneseat.NewDriver(ph, phoneEnd, st, nil)
	go tr.hub.Serve(ctx, serverEnd)
	tabCtx, killTab := context.WithCancel(ctx)
	phoneDone := make(chan error, 1)
	go func() { phoneDone <- d.Run(tabCtx) }()
	go player(tabCtx, d, rand.New(rand.NewPCG(8, 8)), nil)
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	for st.entries() < 25 {
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
	killTab()
	<-phoneDone
	close(phoneEnd.out) // the WebSocket closes with the tab
	stored := st.snapshot()
	t.Logf("the tab is killed after %d stored entries", st.entries())
	time.Sleep(200 * time.Millisecond)

	back, err := phoneseat.Restore(stored, phoneseat.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	back.SetToken("secret-token")
	back.SetCode(tr.code())
	phoneEnd, serverEnd = memPair()
	d = phoneseat.NewDriver(back, phoneEnd, st, nil)
	go tr.hub.Serve(ctx, serverEnd)
	go func() { phoneDone <- d.Run(ctx) }()
	go player(ctx, d, rand.New(rand.NewPCG(9, 9)), nil)
	games := tr.finish(ctx, t)
	if err := <-phoneDone; err != nil {
		t.Fatalf("phone: %v", err)
	}
	out, err := back.Outcome()
	if err != nil || out == nil || out.Verdict != nil {
		t.Fatalf("phone: %v %+v", err, out)
	}
	got, err := back.Transcript()
	if err != nil {
		t.Fatal(err)
	}
	checkTranscript(t, got, games)
}

// TestPhoneRemoteSeat: a hub on a node that holds no seat ('masque
// phones', or any joiner's 'join --phones') seats a phone at another
// peer's table: knowing neither the table id nor the next seat, it
// learns both from the creator's refusal, the phone proves its card keys
// again for them, is seated through a forwarded join request, signs the
// roster, and plays a whole game with its frames forwarded by that node;
// every transcript is the same and replays; the hub tells the signed
// table (OnTable).
func TestPhoneRemoteSeat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tr := startGame(ctx, t, mascarade.GameName, 3)
	fwd := testPeer(t)
	told := make(chan *p2p.Seating, 1)
	hub := NewHub(Config{Node: fwd.Node, Token: "secret-token", Timeout: 30 * time.Second,
		OnTable: func(s *p2p.Seating) { told <- s }})
	hub.SetCreator(peer.AddrInfo{ID: tr.host.ID.PeerID(), Addrs: tr.host.Node.Host().Addrs()}, [16]byte{}, 0)
	ph, _, d := newPhone(ctx, t, hub, tr.code())
	phoneDone := make(chan error, 1)
	go func() { phoneDone <- d.Run(ctx) }()
	go player(ctx, d, rand.New(rand.NewPCG(9, 9)), nil)
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	games := tr.finish(ctx, t)
	if err := <-phoneDone; err != nil {
		t.Fatalf("phone: %v", err)
	}
	got, err := ph.Transcript()
	if err != nil {
		t.Fatal(err)
	}
	checkTranscript(t, got, games)
	s := <-told
	if s.Table.Roster.TableID != tr.tbl.ID() || len(s.Table.Addrs) != 3 || string(s.Table.Addrs[1][0]) != string(p2p.ForwardAddr(fwd.ID.PeerID()).Bytes()) {
		t.Fatalf("the table told: %x, seat 1's path %x", s.Table.Roster.TableID, s.Table.Addrs[1])
	}
}

// newPhone makes the phone seat "mila" with the table's token and code
// (its page's address), its
// storage in memory, and connects it to hub over an in-memory WebSocket
// (hub serves its end until ctx ends); the caller runs the driver.
func newPhone(ctx context.Context, t *testing.T, hub *Hub, code string) (*phoneseat.Phone, *memStore, *phoneseat.Driver) {
	t.Helper()
	ph, eff, err := phoneseat.New("mila", phoneseat.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ph.SetToken("secret-token")
	ph.SetCode(code)
	st := &memStore{}
	st.Put(eff.Puts)
	phoneEnd, serverEnd := memPair()
	go hub.Serve(ctx, serverEnd)
	return ph, st, phoneseat.NewDriver(ph, phoneEnd, st, nil)
}
