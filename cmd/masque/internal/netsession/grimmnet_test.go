package netsession

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// grimmTable is a Grimm table seated among n libp2p peers on loopback
// TCP, as 'masque host --game grimm' and 'masque join' seat it, each
// seat with a state directory.
type grimmTable struct {
	peers    []*Peer
	seatings []*p2p.Seating
	keys     []table.SeatSecrets
	dirs     []string
}

func seatGrimm(t *testing.T, n int) *grimmTable { t.Helper(); return seatGame(t, "grimm", n) }

// seatGame seats a table of game among n libp2p peers on loopback TCP,
// with the game's default setup, as seatGrimm does.
func seatGame(t *testing.T, game string, n int) *grimmTable {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	g, err := registry.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := g.Configure(n, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	gt := &grimmTable{peers: make([]*Peer, n), seatings: make([]*p2p.Seating, n), keys: make([]table.SeatSecrets, n)}
	root := t.TempDir()
	for i := range n {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if gt.peers[i], err = NewPeerWithIdentity(id, []string{"/ip4/127.0.0.1/tcp/0"}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { gt.peers[i].Close() })
		gt.keys[i] = table.GenerateSeatSecrets()
		gt.dirs = append(gt.dirs, filepath.Join(root, fmt.Sprint("seat", i)))
	}
	errs := make([]error, n)
	opened := make(chan lobby.Table, 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		gt.seatings[0], errs[0] = gt.peers[0].Host(ctx, HostConfig{Game: game, Setup: setup, PublishKeys: true, Table: game,
			Player: "p0", Players: n, Keys: gt.keys[0], OnOpen: func(t lobby.Table, _ error) { opened <- t }})
	})
	lt := <-opened
	for i := 1; i < n; i++ {
		wg.Go(func() {
			gt.seatings[i], errs[i] = gt.peers[i].Join(ctx, JoinConfig{Creator: lt.AddrInfo(), TableID: lt.ID,
				Player: fmt.Sprint("p", i), Keys: gt.keys[i], Seat: i})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", i, err)
		}
	}
	for i, s := range gt.seatings {
		st, err := store.Create(gt.dirs[i], s.Table, secretBytes(gt.keys[i]))
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	return gt
}

// TestGrimmNetworkRestartKnowsHiddenHand plays a 3-seat Grimm bot game
// among peers on loopback (Start on each seat's state directory, as
// 'masque host/join --bot'); every log is identical and verifies. Then
// every seat is restarted, as after kill -9, at every position of the
// game: a fresh seat on its state directory replaying the stored log. An
// unmasked seat must still know every card of its hidden hand (drawn
// privately, then shuffled by it alone: what the shuffle's proof hides
// comes from the seat's shuffles file). Without that file it would not
// (the control: a game is played until one seat shows it).
func TestGrimmNetworkRestartKnowsHiddenHand(t *testing.T) {
	const n = 3
	lone, forgets := 0, 0
	for attempt := 0; attempt < 6 && forgets == 0; attempt++ {
		gt := seatGrimm(t, n)
		games := make([]*Game, n)
		for i := range n {
			st, err := store.Open(gt.dirs[i])
			if err != nil {
				t.Fatal(err)
			}
			if games[i], err = Start(context.Background(), GameConfig{Node: gt.peers[i].Node, Store: st, Bot: true,
				Seed: uint64(attempt*n + i + 1), Timeout: 30 * time.Second}); err != nil {
				t.Fatal(err)
			}
		}
		var logs [][]*ledger.Entry
		for i, g := range games {
			out, err := g.Result()
			if err != nil || out.Verdict != nil {
				t.Fatalf("seat %d: %v %v", i, err, out)
			}
			tr, err := g.Transcript()
			if err != nil {
				t.Fatalf("seat %d's transcript: %v", i, err)
			}
			if _, err := table.Replay(tr, grimm.Game{}); err != nil {
				t.Fatalf("seat %d's transcript: %v", i, err)
			}
			logs = append(logs, tr.Entries)
			g.Close()
		}
		sameEntries(t, logs)
		for i := range n {
			shuffles, err := loadShuffles(gt.dirs[i])
			if err != nil {
				t.Fatal(err)
			}
			lone += len(shuffles)
			if missing := restartedHandKnowledge(t, gt, i, shuffles, logs[0]); missing != "" {
				t.Fatalf("peer %d restarted: %s", i, missing)
			}
			if len(shuffles) > 0 && restartedHandKnowledge(t, gt, i, nil, logs[0]) != "" {
				forgets++ // the control: without the file the seat forgets
			}
		}
	}
	if lone == 0 || forgets == 0 {
		t.Fatalf("%d lone shuffles in 6 games, %d seats forgetting their hand without the file: the test proved nothing", lone, forgets)
	}
}

// restartedHandKnowledge replays log into a fresh seat i on its state
// directory's secrets (as Start does after a restart) and returns, at the
// first position where the seat is unmasked and does not know a card of
// its hidden hand, what it misses ("" if it always knows).
func restartedHandKnowledge(t *testing.T, gt *grimmTable, i int, shuffles []table.LoneShuffle, log []*ledger.Entry) string {
	t.Helper()
	bits, err := loadSwapBits(gt.dirs[i])
	if err != nil {
		t.Fatal(err)
	}
	me := engine.Seat(gt.seatings[i].Seat)
	d, err := NewSeat(SeatConfig{Seat: int(me), Roster: gt.seatings[i].Roster, Sign: gt.peers[i].ID.SigningKey(), Keys: gt.keys[i],
		Bot: true, SwapBits: bits, Shuffles: shuffles})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		if err := d.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		if err := d.Failure(); err != nil {
			t.Fatal(err)
		}
		if _, kind, more := d.tab.Expect(); more && kind != table.BodyMove {
			continue // a step in progress (a draw not yet seen, a shuffle to come)
		}
		s, ok := d.tab.Rules().(*grimm.State)
		if !ok || !s.Unmasked(me) {
			continue
		}
		known := d.player.Known(d.tab)
		for _, sl := range s.Hand(me) {
			if _, ok := known[sl]; !ok {
				var recs []string
				for _, ls := range shuffles {
					recs = append(recs, fmt.Sprint(ls.Pos, ls.Slots, ls.Cards))
				}
				var kinds []string
				for _, x := range log[max(0, int(e.Pos)-6) : e.Pos+1] {
					b, _ := table.UnmarshalBody(x.Body, 1)
					if b != nil {
						kinds = append(kinds, fmt.Sprintf("%d:s%d:%v", x.Pos, x.Seat, b.Kind))
					}
				}
				return fmt.Sprintf("after entry %d: slot %d of the hidden hand %v is unknown (known %v; shuffles %v; entries %v)", e.Pos, sl, s.Hand(me), known, recs, kinds)
			}
		}
	}
	return ""
}

// sameEntries fails unless every log is the same.
func sameEntries(t *testing.T, logs [][]*ledger.Entry) {
	t.Helper()
	for i := 1; i < len(logs); i++ {
		if !slices.EqualFunc(logs[0], logs[i], func(a, b *ledger.Entry) bool { return a.Hash() == b.Hash() }) {
			t.Fatalf("peer %d's log (%d entries) differs from peer 0's (%d)", i, len(logs[i]), len(logs[0]))
		}
	}
}

// TestGrimmForcedResponseTimesOut: through the real network stack, the
// first seat the rules force to answer (a hint or an unmasking) never
// authors its answer. The table does not go on without it: every other
// peer stops with a timeout verdict naming that seat at that position,
// with identical logs ending just before it.
//
// The game is played up to that answer with a patient table (a minute),
// then every peer is restarted on its state directory with a 3 s
// timeout: only the silent seat is due then. The first version played
// the whole game with the 3 s timeout, and under load (three peers in
// one process, GOMAXPROCS=1, load 25 to 34) an honest seat computing its
// shuffle of the deal took longer than 3 s by the clock, was declared
// silent before any seat was forced to answer, and the test waited a
// minute (4 in about 250 runs).
func TestGrimmForcedResponseTimesOut(t *testing.T) {
	const n = 3
	gt := seatGrimm(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var silent atomic.Int32
	silent.Store(-1)
	var silentPos atomic.Uint64
	var silentSeat atomic.Int32 // the silent peer's seat
	stores := make([]*store.Store, n)
	for i := range n {
		st, err := store.Open(gt.dirs[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stores[i] = st
	}
	// open opens every peer's room with timeout, its seat a fresh
	// replica of its state directory.
	open := func(timeout time.Duration) ([]*p2p.Room, []*Seat) {
		rooms, seats := make([]*p2p.Room, n), make([]*Seat, n)
		for i := range n {
			me := int(gt.seatings[i].Seat)
			seat, err := NewSeat(SeatConfig{Seat: me, Roster: gt.seatings[i].Roster, Sign: gt.peers[i].ID.SigningKey(), Keys: gt.keys[i],
				Bot: true, Seed: uint64(i + 1)})
			if err != nil {
				t.Fatal(err)
			}
			seats[i] = seat
			author := func(ctx context.Context, pos uint64) ([]byte, error) {
				seat.mu.Lock()
				s, _ := seat.tab.Rules().(*grimm.State)
				forced := s != nil && seat.tab.Pos() == pos && grimm.Forced(s, engine.Seat(me))
				seat.mu.Unlock()
				if forced && (silent.CompareAndSwap(-1, int32(i)) || silent.Load() == int32(i)) {
					silentSeat.Store(int32(me))
					silentPos.Store(pos)
					<-ctx.Done() // ignores the question
					return nil, ctx.Err()
				}
				return seat.Author(ctx, pos)
			}
			if rooms[i], err = gt.peers[i].Node.OpenRoom(p2p.RoomConfig{Store: stores[i], Replica: seat, Author: author, Timeout: timeout}); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { rooms[i].Close() })
		}
		return rooms, seats
	}
	// run runs every room until until says the table is where the test
	// wants it; it then stops them all.
	run := func(rooms []*p2p.Room, until func(done []int) bool) ([]*p2p.Outcome, []error) {
		outs, errs := make([]*p2p.Outcome, n), make([]error, n)
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		stopped := make(chan int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				outs[i], errs[i] = rooms[i].Run(runCtx)
				stopped <- i
			})
		}
		var done []int
		for !until(done) {
			select {
			case i := <-stopped:
				done = append(done, i)
				if len(done) == n && !until(done) {
					wg.Wait()
					t.Fatalf("every peer stopped (silent peer %d): %s", silent.Load(), outcomes(outs, errs))
				}
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				stop()
				wg.Wait()
				t.Fatalf("the table did not stop (silent peer %d): %s", silent.Load(), outcomes(outs, errs))
			}
		}
		stop()
		wg.Wait()
		return outs, errs
	}

	// The game, patient, until a seat is forced to answer and every peer
	// holds every entry before that answer.
	rooms, seats := open(time.Minute)
	run(rooms, func([]int) bool {
		if silent.Load() < 0 {
			return false
		}
		for _, seat := range seats {
			seat.mu.Lock()
			at := seat.tab.Pos()
			seat.mu.Unlock()
			if at != silentPos.Load() {
				return false
			}
		}
		return true
	})
	for _, r := range rooms {
		r.Close()
	}
	peer := int(silent.Load())
	s := int(silentSeat.Load())
	pos := silentPos.Load()

	// Every peer again, impatient: only the silent seat is due.
	rooms, _ = open(3 * time.Second)
	outs, errs := run(rooms, func(done []int) bool { return allBut(done, peer, n) })
	var logs [][]*ledger.Entry
	for i := range n {
		if i == peer {
			continue
		}
		v := outs[i]
		if errs[i] != nil || v == nil || v.Verdict == nil {
			t.Fatalf("peer %d: %v %+v, want a timeout verdict", i, errs[i], v)
		}
		if v.Verdict.Kind != p2p.VerdictTimeout || int(v.Verdict.Seat) != s || v.Verdict.Pos != pos {
			t.Fatalf("peer %d: verdict %v, want a timeout of seat %d at position %d", i, v.Verdict, s, pos)
		}
		if v.Entries != pos {
			t.Errorf("peer %d: %d entries, want %d (the log stops before the answer)", i, v.Entries, pos)
		}
		log, err := rooms[i].Log()
		if err != nil {
			t.Fatalf("peer %d's log: %v", i, err)
		}
		logs = append(logs, log)
	}
	sameEntries(t, logs)
	t.Logf("seat %d silent at its forced response, position %d: %v", s, pos, outs[(peer+1)%n].Verdict)
}

// allBut reports whether done holds every one of n peers but skip
// (skip >= 0), whether or not skip has stopped too (the silent peer may
// stop first, timed out: the loop then waited for ever).
func allBut(done []int, skip, n int) bool {
	others := 0
	for _, i := range done {
		if i != skip {
			others++
		}
	}
	return skip >= 0 && others == n-1
}

// outcomes says how each peer's room ended, for a failure message.
func outcomes(outs []*p2p.Outcome, errs []error) string {
	var b []string
	for i, o := range outs {
		switch {
		case errs[i] != nil:
			b = append(b, fmt.Sprintf("peer %d: %v", i, errs[i]))
		case o == nil:
			b = append(b, fmt.Sprintf("peer %d: running", i))
		case o.Verdict != nil:
			b = append(b, fmt.Sprintf("peer %d: %d entries, %v", i, o.Entries, o.Verdict))
		default:
			b = append(b, fmt.Sprintf("peer %d: %d entries, over", i, o.Entries))
		}
	}
	return strings.Join(b, "; ")
}
