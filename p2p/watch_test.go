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
	"github.com/masque-games/masque/p2p/watchproto"
)

// slowAuthor is countAuthor with a pause, so that a spectator joins a
// game in progress.
func slowAuthor(ctx context.Context, pos uint64) ([]byte, error) {
	select {
	case <-time.After(5 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return body(pos), nil
}

// watchGame plays a 3-seat game of limit entries among ps[:3] while
// ps[3], a spectator, watches seat 1; it returns the seats' results and
// the watch's.
func watchGame(t *testing.T, ps []*tpeer, limit uint64, cfg RoomConfig) ([]result, *WatchResult, []*ledger.Entry, *counter, error) {
	t.Helper()
	seats := ps[:3]
	tb := signedTable(t, seats)
	game, _ := tb.Roster.GameID()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]result, len(seats))
	var wg sync.WaitGroup
	for i, p := range seats {
		wg.Go(func() {
			c := cfg
			c.Author = slowAuthor
			res[i] = play(ctx, t, p, tb, &counter{seats: len(seats), limit: limit}, c)
		})
	}
	for ps[1].node.room(game) == nil && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	var got []*ledger.Entry
	rep := &counter{seats: len(seats), limit: limit}
	w, err := ps[3].node.Watch(ctx, WatchConfig{
		Seat:    peer.AddrInfo{ID: ps[1].id.PeerID(), Addrs: ps[1].node.Host().Addrs()},
		TableID: tb.Roster.TableID,
		OnTable: func(r *ledger.Roster, sigs [][ed25519.SignatureSize]byte) error {
			if g, _ := r.GameID(); g != game || len(sigs) != 3 {
				t.Errorf("watched roster: game %x, %d signatures", g[:4], len(sigs))
			}
			return nil
		},
		OnEntry: func(e *ledger.Entry) error { got = append(got, e); return rep.Apply(e) },
	})
	wg.Wait()
	return res, w, got, rep, err
}

// TestSpectatorFollowsLive: a spectator (no seat, no key in the roster)
// follows a game in progress from its first entry to the end, through a
// real libp2p stream; every entry's signature and chain are checked, and
// its own replica reaches the seats' final state. It cannot write to the
// table: a log stream it opens claiming a seat is refused.
func TestSpectatorFollowsLive(t *testing.T) {
	_, ps := mockPeers(t, 4)
	res, w, got, rep, err := watchGame(t, ps, 60, RoomConfig{})
	if err != nil {
		t.Fatalf("watch: %v", err)
	}
	sameLogs(t, res, 60)
	if w.Entries != 60 || w.Verdict != nil || len(got) != 60 {
		t.Fatalf("watch: %d entries (%d given), verdict %v; want 60, none", w.Entries, len(got), w.Verdict)
	}
	for i, b := range marshalLog(t, got) {
		if want, _ := res[0].log[i].MarshalBinary(); string(b) != string(want) {
			t.Fatalf("watched entry %d differs from the seats'", i)
		}
	}
	if rep.StateHash() != res[0].out.StateHash {
		t.Fatal("the spectator's replica ends in another state than the seats'")
	}
}

// TestSpectatorCannotWrite: a spectator that opens a log stream to a
// seat, claiming a seat of the roster, is refused and reported.
func TestSpectatorCannotWrite(t *testing.T) {
	_, ps := mockPeers(t, 4)
	tb := signedTable(t, ps[:3])
	game, _ := tb.Roster.GameID()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan result, 1)
	go func() { done <- play(ctx, t, ps[0], tb, &counter{seats: 3, limit: 3}, RoomConfig{}) }()
	for ps[0].node.room(game) == nil && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	f, _ := entryFrame(t, ps[3], game, 0, 1, game, body(0))
	s, err := ps[3].node.Host().NewStream(ctx, ps[0].id.PeerID(), ProtocolLog)
	if err != nil {
		t.Fatal(err)
	}
	WriteFrame(s, encodeHello(game, 1))
	WriteFrame(s, f)
	select {
	case err := <-ps[0].errs:
		if !strings.Contains(err.Error(), "not seat 1") {
			t.Fatalf("peer error %v, want a refusal of the claimed seat", err)
		}
	case <-ctx.Done():
		t.Fatal("the spectator's log stream was not refused")
	}
	s.Reset()
	cancel()
	<-done
}

// TestSpectatorLimit: a seat that takes no spectators (MaxSpectators < 0)
// refuses the watch; the game is not disturbed.
func TestSpectatorLimit(t *testing.T) {
	_, ps := mockPeers(t, 4)
	res, _, _, _, err := watchGame(t, ps, 12, RoomConfig{MaxSpectators: -1})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("watch of a seat that takes no spectators: %v", err)
	}
	sameLogs(t, res, 12)
}

// TestStalledSpectator: a spectator that asks to watch and then never
// reads does not hold the table: the game (with 32 KiB entries, more than
// a stream's buffers hold) finishes, and the room closes at once.
func TestStalledSpectator(t *testing.T) {
	_, ps := mockPeers(t, 4)
	seats := ps[:3]
	tb := signedTable(t, seats)
	game, _ := tb.Roster.GameID()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	big := func(ctx context.Context, pos uint64) ([]byte, error) {
		return body(pos, make([]byte, 32<<10)...), nil
	}
	res := make([]result, 3)
	var wg sync.WaitGroup
	for i, p := range seats {
		wg.Go(func() {
			res[i] = play(ctx, t, p, tb, &counter{seats: 3, limit: 90}, RoomConfig{Author: big})
		})
	}
	for ps[0].node.room(game) == nil && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	s, err := ps[3].node.Host().NewStream(ctx, ps[0].id.PeerID(), ProtocolWatch)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Reset()
	if err := WriteFrame(s, watchproto.EncodeRequest(tb.Roster.TableID, 0)); err != nil {
		t.Fatal(err)
	}
	wg.Wait() // the seats' context would end the game with an error
	sameLogs(t, res, 90)
}

// TestSpectatorBeforeTheGame: a spectator that asks before the seat's game
// has opened (seating) is parked until it opens, then follows it whole.
func TestSpectatorBeforeTheGame(t *testing.T) {
	_, ps := mockPeers(t, 4)
	tb := signedTable(t, ps[:3])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type watched struct {
		res *WatchResult
		err error
	}
	done := make(chan watched, 1)
	go func() {
		w, err := ps[3].node.Watch(ctx, WatchConfig{
			Seat:    peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()},
			OnTable: func(*ledger.Roster, [][ed25519.SignatureSize]byte) error { return nil },
			OnEntry: func(*ledger.Entry) error { return nil },
		})
		done <- watched{w, err}
	}()
	time.Sleep(100 * time.Millisecond) // the request is parked by now
	res := playAll(t, ps[:3], tb, 20, nil)
	sameLogs(t, res, 20)
	w := <-done
	if w.err != nil || w.res.Entries != 20 {
		t.Fatalf("watch: %+v, %v; want 20 entries", w.res, w.err)
	}
}
