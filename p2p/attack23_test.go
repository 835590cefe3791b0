package p2p

import (
	"context"
	"crypto/ed25519"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
)

// injectEntries sends a fake seat's entries of log, as relayed entries
// (no state hash), from `from` to `to`.
func injectEntries(t *testing.T, from, to *tpeer, game ledger.Hash, seat uint8, log []*ledger.Entry) {
	t.Helper()
	var frames [][]byte
	for _, e := range log {
		if e.Seat != seat {
			continue
		}
		f, err := encodeEntryMsg(e, ledger.Hash{})
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f)
	}
	s := inject(t, from, to, game, seat, frames...)
	t.Cleanup(func() { s.Reset() })
}

// TestForgedTimeoutAfterEndTwoSeats is issue 23's item 2 as reported: at
// a two-seat table, once seat 0 has the game's last entry (8 entries),
// seat 1 alone signs "seat 0 silent at position 4" and sends it. Seat 0
// used to adopt it, cut the finished game to 4 entries and store the
// verdict, kept across restarts. Now the finished game stands, on the
// first run and after a restart.
func TestForgedTimeoutAfterEndTwoSeats(t *testing.T) {
	const limit = 8
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	log := honestLog(ps, game, limit, func(p uint64) uint8 { return uint8(p % 2) })
	over := make(chan struct{})
	rep := &counter{seats: 2, limit: limit, onApply: func(p uint64) {
		if p == limit-1 {
			close(over)
		}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan result, 1)
	go func() {
		done <- play(ctx, t, ps[0], tb, rep, RoomConfig{Timeout: 5 * time.Second, EndWait: time.Second})
	}()
	injectEntries(t, ps[1], ps[0], game, 1, log) // seat 1 plays its part
	<-over
	forged := &Verdict{Kind: VerdictTimeout, Game: game, Pos: 4, Seat: 0, Reason: "silent", Declarer: 1}
	if err := forged.Sign(ps[1].id.SigningKey()); err != nil {
		t.Fatal(err)
	}
	frame, err := encodeVerdictMsg(forged)
	if err != nil {
		t.Fatal(err)
	}
	s := inject(t, ps[1], ps[0], game, 1, frame)
	defer s.Reset()
	for run, r := range []result{<-done, play(ctx, t, ps[0], tb, &counter{seats: 2, limit: limit}, RoomConfig{Timeout: time.Second})} {
		if r.err != nil || r.out.Verdict != nil || r.out.Entries != limit || len(r.log) != limit {
			t.Fatalf("run %d: %v, %+v with %d entries; want the finished game of %d", run, r.err, r.out, len(r.log), limit)
		}
	}
}

// TestColludersFalseStateReports is issue 23's item 3 as reported: at a
// four-seat table, colluding seats 2 and 3 both re-send entry 3 to
// honest peer 0 with a bogus state hash. Peer 0 used to stop (two of
// three other seats disagreeing with it) and peer 1 then timed it out by
// name. Now two seats of four are not more than half the table: both
// honest peers play the game to its end with the same log and no verdict.
func TestColludersFalseStateReports(t *testing.T) {
	const n, pos, limit = 4, 3, 40
	_, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	order := func(p uint64) uint8 { return uint8(p % 2) } // seats 0 and 1 play
	frame := wrongHashFrame(t, ps, game, pos, order)
	lied := make(chan struct{})
	author := heldAuthor(lied)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, &counter{limit: limit, order: order},
				RoomConfig{Author: author, Timeout: time.Second, EndWait: 300 * time.Millisecond})
		})
	}
	for _, bad := range []uint8{2, 3} {
		s := inject(t, ps[bad], ps[0], game, bad, frame)
		defer s.Reset()
	}
	time.Sleep(100 * time.Millisecond)
	close(lied)
	wg.Wait()
	if v := checkHonest(t, res, tb, []int{0, 1}); v != nil {
		t.Fatalf("the honest peers stopped: %v", v)
	}
	for i := range 2 {
		if len(res[i].log) != limit {
			t.Fatalf("peer %d: %d entries, want the whole game (%d)", i, len(res[i].log), limit)
		}
	}
}

// TestLoserEquivocatesAfterEnd is issue 23's item 5: once peer 0 has the
// game's last entry, seat 2 (which has lost) signs another version of its
// entry 5 and sends it to peer 0. Peer 0 used to end the finished game
// with an equivocation verdict; now the game's outcome stands on both
// honest peers, and peer 0 reports the equivocation beside it.
func TestLoserEquivocatesAfterEnd(t *testing.T) {
	const n, limit = 3, 9
	_, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	log := honestLog(ps, game, limit, func(p uint64) uint8 { return uint8(p % n) })
	over := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		rep := &counter{seats: n, limit: limit}
		if i == 0 {
			rep.onApply = func(p uint64) {
				if p == limit-1 {
					close(over)
				}
			}
		}
		wg.Go(func() {
			res[i] = play(ctx, t, ps[i], tb, rep, RoomConfig{Timeout: 5 * time.Second, EndWait: time.Second})
		})
	}
	for i := range 2 {
		injectEntries(t, ps[2], ps[i], game, 2, log) // seat 2 plays its part
	}
	<-over
	alt := &ledger.Entry{Pos: 5, Seat: 2, Prev: log[4].Hash(), Body: body(5, 'x')}
	alt.Sign(game, ps[2].id.SigningKey())
	frame, err := encodeEntryMsg(alt, ledger.Hash{})
	if err != nil {
		t.Fatal(err)
	}
	s := inject(t, ps[2], ps[0], game, 2, frame)
	defer s.Reset()
	wg.Wait()
	if v := checkHonest(t, res, tb, []int{0, 1}); v != nil {
		t.Fatalf("the finished game ended with a verdict: %v", v)
	}
	for i := range 2 {
		if len(res[i].log) != limit {
			t.Fatalf("peer %d: %d entries, want %d", i, len(res[i].log), limit)
		}
	}
	later := res[0].out.Later
	if len(later) != 1 || later[0].Kind != VerdictEquivocation || later[0].Seat != 2 || later[0].Pos != 5 || later[0].Verify(tb.Roster) != nil {
		t.Fatalf("peer 0 reports %v beside the outcome; want seat 2's equivocation at 5", later)
	}
}

// TestSpectatorAppliesSeatRule is issue 23's item 9: the seat a spectator
// watches ends its table with a verdict signed by itself alone. A
// timeout it declared is its word only: the spectator reports it as the
// seat's claim, not the table's verdict (it used to accept it). An
// invalid-entry verdict whose evidence the rules accept is refused with
// an error. A self-proving equivocation is accepted.
func TestSpectatorAppliesSeatRule(t *testing.T) {
	for _, c := range []struct {
		name    string
		v       func(b *bench) Verdict
		verdict bool   // accepted as the table's verdict
		refused string // the watch's error
	}{
		{"a timeout", func(b *bench) Verdict {
			return Verdict{Kind: VerdictTimeout, Pos: 2, Seat: 2, Declarer: 1}
		}, false, ""},
		{"an invalid entry the rules accept", func(b *bench) Verdict {
			return Verdict{Kind: VerdictInvalidEntry, Pos: 2, Seat: 2, Evidence: []*ledger.Entry{b.log[2]}, Declarer: 1}
		}, false, "calls entry 2 by seat 2 invalid, and the rules accept it"},
		{"an equivocation", func(b *bench) Verdict {
			e := &ledger.Entry{Pos: 0, Seat: 0, Prev: b.game, Body: body(0, 'x')}
			e.Sign(b.game, b.ps[0].id.SigningKey())
			return Verdict{Kind: VerdictEquivocation, Pos: 0, Seat: 0, Evidence: sortEvidence(b.log[0], e), Declarer: 1}
		}, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Seat 1 of three holds entries 0 and 1 and its verdict.
			b := newBench(t, 3, 1, 2, 6, func(b *bench) *Verdict { return b.verdict(t, c.v(b)) })
			if _, err := b.room.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			spec := &counter{seats: 3, limit: 6}
			w, err := b.ps[3].node.Watch(ctx, WatchConfig{
				Seat:    peer.AddrInfo{ID: b.ps[1].id.PeerID(), Addrs: b.ps[1].node.Host().Addrs()},
				TableID: b.tb.Roster.TableID,
				OnTable: func(*ledger.Roster, [][ed25519.SignatureSize]byte) error { return nil },
				OnEntry: spec.Apply,
			})
			if c.refused != "" {
				if err == nil || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("watch: %v, %+v; want an error: %s", err, w, c.refused)
				}
				return
			}
			if err != nil || w.Entries != 2 {
				t.Fatalf("watch: %v, %+v", err, w)
			}
			if c.verdict && (w.Verdict == nil || w.Claim != nil) || !c.verdict && (w.Verdict != nil || w.Claim == nil) {
				t.Fatalf("verdict %v, claim %v; want it accepted as the table's verdict: %v", w.Verdict, w.Claim, c.verdict)
			}
		})
	}
}

// TestStatementReachesEveryPeer: seat 3 signs its statement that it
// stopped and sends it to peer 0 only, then stays silent where it is due.
// Every honest peer ends alike with that statement, none with a timeout
// naming seat 3 (peer 0 passes the statement on).
func TestStatementReachesEveryPeer(t *testing.T) {
	const n, due = 4, 6
	_, ps := mockPeers(t, n)
	tb := signedTable(t, ps)
	game, _ := tb.Roster.GameID()
	order := func(p uint64) uint8 {
		if p == due {
			return 3
		}
		return uint8(p % 3)
	}
	st := &Verdict{Kind: VerdictDivergence, Game: game, Pos: 2, Seat: 3, Declarer: 3, Reason: "stopped"}
	if err := st.Sign(ps[3].id.SigningKey()); err != nil {
		t.Fatal(err)
	}
	frame, err := encodeVerdictMsg(st)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			// Each peer ends when its wait for seat 3 runs out, with the
			// statement if it has arrived by then: the move time bounds
			// how long peer 0 may take to pass it on (1 s was too short
			// on a loaded machine).
			res[i] = play(ctx, t, ps[i], tb, &counter{limit: 20, order: order}, RoomConfig{Timeout: 5 * time.Second})
		})
	}
	// Every honest room open first: a frame peer 0 passes on to a seat
	// whose room is not open yet is dropped (for sync to repair, and a
	// statement is not in sync answers).
	ictx, icancel := context.WithTimeout(ctx, 5*time.Second)
	waitRooms(ictx, ps[:3], tb)
	icancel()
	s := inject(t, ps[3], ps[0], game, 3, frame)
	defer s.Reset()
	wg.Wait()
	v := checkHonest(t, res, tb, []int{0, 1, 2})
	if v == nil || v.Kind != VerdictDivergence || v.Seat != 3 || v.Declarer != 3 {
		t.Fatalf("honest verdict %v; want seat 3's statement", v)
	}
}
