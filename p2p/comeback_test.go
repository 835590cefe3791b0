package p2p

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// gateSync makes p hold every sync request from the peers in from until
// open is closed (a sync that was dialling through a network outage and
// is answered late), then answer it as usual.
func gateSync(p *tpeer, open <-chan struct{}, from ...*tpeer) {
	p.node.Host().SetStreamHandler(ProtocolSync, func(s network.Stream) {
		for _, f := range from {
			if s.Conn().RemotePeer() == f.id.PeerID() {
				<-open
			}
		}
		p.node.handleSync(s)
	})
}

// TestBlackoutReturnsBlamesNobody is issue 29's first case: seat 3 is cut
// off from every seat while seat 0 is due; seat 0 takes longer than seat
// 3's timeout (but not the others') and authors its entry while seat 3 is
// away. Seat 3's timer runs out while it is cut off, so it blames nobody;
// then its network comes back: it hears seats 1 and 2 (their echoes of
// seat 0's entry), but its sync requests are answered late (they were
// dialling through the outage) and seat 0 is still out of reach. Seat 3
// used to declare seat 0 silent at the first tick after that contact, and
// stop, while the others went on with seat 0's entry and then timed seat
// 3 out. Now the echoes tell seat 3 the entry exists: it declares nothing
// and fetches it, and every seat finishes the game with the same log.
func TestBlackoutReturnsBlamesNobody(t *testing.T) {
	mn, ps := mockPeers(t, 4)
	tb := signedTable(t, ps)
	const limit, due = 16, 8 // seat 0 authors entry 8
	open := make(chan struct{})
	for i := range 3 {
		gateSync(ps[i], open, ps[3])
	}
	link := func(i int, up bool) {
		a, b := ps[3].id.PeerID(), ps[i].id.PeerID()
		if up {
			mn.LinkPeers(a, b)
			return
		}
		mn.UnlinkPeers(a, b)
		mn.DisconnectPeers(a, b)
	}
	var cut, back atomic.Bool
	contact := make(chan struct{})
	var once, contactOnce sync.Once
	blackout := func() {
		for i := range 3 {
			link(i, false)
		}
		cut.Store(true)
		// Seat 3's timer (2 s) runs out while it is cut off (no contact
		// for more than 20 ticks, 1 s).
		time.Sleep(2500 * time.Millisecond)
		back.Store(true)
		link(1, true)
		link(2, true)
		// Seat 3 hears seats 1 and 2 again; its syncs stay unanswered and
		// seat 0 unreachable for 15 more ticks, long enough for any tick
		// to declare a timeout.
		select {
		case <-contact:
		case <-time.After(10 * time.Second):
		}
		time.Sleep(750 * time.Millisecond)
		close(open)
		link(0, true)
	}
	res := playAll(t, ps, tb, limit, func(i int) RoomConfig {
		c := RoomConfig{Timeout: 10 * time.Second}
		switch i {
		case 0:
			c.Author = func(ctx context.Context, pos uint64) ([]byte, error) {
				if pos == 0 {
					// Seat 3's sync requests are held until after the
					// blackout: entries lost before its room opened
					// would never reach it (the seats start together,
					// and a frame sent to a seat whose room is not open
					// yet is dropped, for sync to repair).
					waitRooms(ctx, ps, tb)
				}
				if pos == due {
					once.Do(func() { go blackout() })
					select {
					case <-time.After(3 * time.Second):
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
				return countAuthor(ctx, pos)
			}
		case 3:
			c.Timeout = 2 * time.Second
			c.OnWait = func(w Wait) {
				if back.Load() && w.Pos == due && w.NoContactSince.IsZero() {
					contactOnce.Do(func() { close(contact) })
				}
			}
		}
		return c
	})
	if !cut.Load() {
		t.Fatal("the blackout never happened")
	}
	select {
	case <-contact:
	default:
		t.Fatal("seat 3 never heard from another seat while waiting for entry 8 after the blackout")
	}
	sameLogs(t, res, limit)
}

// cutLog truncates p's state directory's log to its first n entries: the
// writes of the others were lost (a disk that lost flushed writes, a
// virtual machine rolled back, a directory restored from a backup).
func cutLog(t *testing.T, p *tpeer, n int) {
	t.Helper()
	st, err := store.Open(p.dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := st.Entries()
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, b := range marshalLog(t, entries[:n]) {
		size += 8 + len(b)
	}
	if err := os.Truncate(filepath.Join(p.dir, store.LogFile), int64(size)); err != nil {
		t.Fatal(err)
	}
}

// lostWrite plays a 4-seat game in which seat 2 stops when asked for
// entry 14, after its entry 10 reached every seat, loses every entry of
// its log from 10 on, and starts again. Its author now writes another
// body for the same position (a player's other choice, a bot's other
// draw), after think; an author asked for a position the table has passed
// fails, as the command's does ("asked for entry 10, the table is at
// 14"). With isolated, seat 2 starts again cut off from every seat, for a
// second. Every seat must finish the game with the same log, seat 2's
// entry 10 its first one; the restarted seat's waits are returned.
func lostWrite(t *testing.T, think time.Duration, isolated bool) []Wait {
	return lostWriteAt(t, 10, 14, think, isolated)
}

// lostWriteAt is lostWrite with seat 2's log cut before its entry lost
// (a position of seat 2's), and its first run stopped when asked for
// entry stop (one of its later positions).
func lostWriteAt(t *testing.T, lost, stop uint64, think time.Duration, isolated bool) []Wait {
	mn, ps := mockPeers(t, 4)
	tb := signedTable(t, ps)
	const limit = 24
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	res := make([]result, 4)
	var wg sync.WaitGroup
	for _, i := range []int{0, 1, 3} {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{seats: 4, limit: limit}, RoomConfig{Timeout: 10 * time.Second})
		})
	}
	crashCtx, crash := context.WithCancel(ctx)
	first := play(crashCtx, t, ps[2], tb, &counter{seats: 4, limit: limit}, RoomConfig{Timeout: 10 * time.Second,
		Author: func(ctx context.Context, pos uint64) ([]byte, error) {
			if pos == stop {
				crash()
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return body(pos, 'a'), nil
		}})
	if uint64(len(first.log)) != stop {
		t.Fatalf("seat 2's first run ended with %d entries (%v), want %d", len(first.log), first.err, stop)
	}
	cutLog(t, ps[2], int(lost))
	if isolated {
		for _, i := range []int{0, 1, 3} {
			mn.UnlinkPeers(ps[2].id.PeerID(), ps[i].id.PeerID())
			mn.DisconnectPeers(ps[2].id.PeerID(), ps[i].id.PeerID())
		}
		time.AfterFunc(time.Second, func() {
			for _, i := range []int{0, 1, 3} {
				mn.LinkPeers(ps[2].id.PeerID(), ps[i].id.PeerID())
			}
		})
	}
	var at atomic.Uint64
	at.Store(lost)
	var mu sync.Mutex
	var waits []Wait
	rep := &counter{seats: 4, limit: limit, onApply: func(pos uint64) { at.Store(pos + 1) }}
	res[2] = play(ctx, t, ps[2], tb, rep, RoomConfig{Timeout: 10 * time.Second,
		OnWait: func(w Wait) { mu.Lock(); waits = append(waits, w); mu.Unlock() },
		Author: func(ctx context.Context, pos uint64) ([]byte, error) {
			select {
			case <-time.After(think):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if now := at.Load(); now != pos {
				return nil, fmt.Errorf("asked for entry %d, the table is at %d", pos, now)
			}
			return body(pos, 'b'), nil
		}})
	wg.Wait()
	if res[2].err != nil {
		t.Fatalf("restarted seat 2: %v", res[2].err)
	}
	sameLogs(t, res, limit)
	if e := res[2].log[lost]; e.Seat != 2 || string(e.Body) != string(body(lost, 'a')) {
		t.Errorf("entry %d by seat %d, body %x: not seat 2's first one", lost, e.Seat, e.Body)
	}
	mu.Lock()
	defer mu.Unlock()
	return waits
}

// TestLostWriteNoEquivocation is issue 29's second case: a seat whose log
// lost its own published entry 10 starts again and must not sign another
// entry 10 (every seat used to stop with "equivocation: seat 2 at
// position 10", an honest player branded a cheater): it learns its entry
// from the others before it signs anything.
func TestLostWriteNoEquivocation(t *testing.T) { lostWrite(t, 0, false) }

// TestLostWriteOldEntryWhileChoosing is issue 29's third case: the same
// restart with an author that thinks 250 ms. The others send the seat
// its old entry 10 while it chooses, and the author then fails ("asked
// for entry 10, the table is at 14"): the seat used to exit on that error
// (and be timed out); it takes its entry from the others and goes on.
func TestLostWriteOldEntryWhileChoosing(t *testing.T) {
	lostWrite(t, 250*time.Millisecond, false)
}

// TestLostWriteAloneWaits: the same restart cut off from every seat for a
// second. The seat must not sign entry 10 before a seat has told it what
// it signed: it waits, saying so (Wait.Checking), then learns its entry
// and goes on.
func TestLostWriteAloneWaits(t *testing.T) {
	waits := lostWrite(t, 0, true)
	for _, w := range waits {
		if w.Local && w.Pos == 10 && w.Checking {
			return
		}
	}
	t.Errorf("the restarted seat never said it was checking what it signed before (waits %+v)", waits)
}

// TestMootAuthorError: while the local seat's author chooses entry 1, a
// peer sends it that entry, signed by this seat before (in an earlier
// run); the author then fails, as the command's does when the table has
// moved on. The room takes the peer's entry and goes on: the author's
// error is moot (it used to end the run: "p2p: author of position 1:
// ...", and the seat was timed out).
func TestMootAuthorError(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	e0 := &ledger.Entry{Pos: 0, Seat: 0, Prev: game, Body: body(0)}
	e0.Sign(game, ps[0].id.SigningKey())
	f1, _ := entryFrame(t, ps[1], game, 1, 1, e0.Hash(), body(1))
	asked := make(chan struct{})
	var once sync.Once
	var at atomic.Uint64
	res := make([]result, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i := range 3 {
		rep := &counter{seats: 3, limit: 9}
		cfg := RoomConfig{Timeout: 10 * time.Second}
		if i == 1 {
			rep.onApply = func(pos uint64) { at.Store(pos + 1) }
			cfg.Author = func(ctx context.Context, pos uint64) ([]byte, error) {
				if pos == 1 {
					once.Do(func() { close(asked) })
					for at.Load() == pos && ctx.Err() == nil {
						time.Sleep(5 * time.Millisecond)
					}
				}
				if now := at.Load(); now != pos {
					return nil, fmt.Errorf("asked for entry %d, the table is at %d", pos, now)
				}
				return body(pos), nil
			}
		}
		wg.Go(func() { res[i] = play(ctx, t, ps[i], tb, rep, cfg) })
	}
	<-asked
	s := inject(t, ps[0], ps[1], game, 0, f1)
	defer s.Reset()
	wg.Wait()
	sameLogs(t, res, 9)
}

// TestFalseEchoDelaysTimeoutOnce: a silent seat (seat 1, whose program
// plays nothing) keeps echoing to both other seats that it holds its own
// entry 1, which it never serves, to hold back the timeout verdict
// against it for ever. A seat that hears an echo of the entry it waits
// for fetches it instead of declaring, but only for one timeout: both
// honest seats then stop the table with a timeout verdict naming seat 1,
// within about twice the timeout.
func TestFalseEchoDelaysTimeoutOnce(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	// Seat 1's program never opens the game's room: its node does not
	// hold the peers' log streams waiting for it (Node.awaitLogRoom),
	// which would hold their drain at the end.
	ps[1].node.mu.Lock()
	delete(ps[1].node.expected, game)
	ps[1].node.mu.Unlock()
	const timeout = 600 * time.Millisecond
	echo := encodeEcho(1, ledger.Hash{1}, ledger.Hash{2})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, 3)
	var wg sync.WaitGroup
	start := time.Now()
	for _, i := range []int{0, 2} {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{seats: 3, limit: 9}, RoomConfig{Timeout: timeout})
		})
	}
	lie, stop := context.WithCancel(ctx)
	defer stop()
	for _, i := range []int{0, 2} {
		s := inject(t, ps[1], ps[i], game, 1)
		defer s.Reset()
		go func() {
			for lie.Err() == nil && WriteFrame(s, echo) == nil {
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	for _, i := range []int{0, 2} {
		r := res[i]
		if r.err != nil {
			t.Fatalf("seat %d: %v", i, r.err)
		}
		if v := r.out.Verdict; v == nil || v.Kind != VerdictTimeout || v.Seat != 1 || v.Pos != 1 {
			t.Fatalf("seat %d: verdict %v, want seat 1's timeout at 1", i, v)
		}
	}
	if took > 4*timeout {
		t.Errorf("the verdict took %v, more than twice the timeout (%v) and slack", took, timeout)
	}
}

// waitRooms waits until every peer in ps has its room for tb open.
func waitRooms(ctx context.Context, ps []*tpeer, tb store.Table) {
	game, _ := tb.Roster.GameID()
	for _, p := range ps {
		for p.node.room(game) == nil && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
	}
}
