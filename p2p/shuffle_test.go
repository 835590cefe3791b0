package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/p2p/store"
)

// hiddenTable turns the peers' test roster into one for a game dealt face
// down by shuffles (tabletest.HiddenGame), with card keys, re-signed.
func hiddenTable(t *testing.T, ps []*tpeer) (store.Table, []table.SeatSecrets) {
	t.Helper()
	tb := signedTable(t, ps)
	opts, _ := (&table.Options{Game: []byte{byte(len(ps))}}).MarshalBinary()
	tb.Roster.Game, tb.Roster.Options = tabletest.HiddenGame{}.Name(), opts
	secrets := make([]table.SeatSecrets, len(ps))
	for i := range ps {
		secrets[i] = table.GenerateSeatSecrets()
		tb.Roster.Seats[i].Keys = secrets[i].PublicKeys(tb.Roster.TableID, i, tb.Roster.Seats[i].PeerID)
	}
	gid, _ := tb.Roster.GameID()
	for i, p := range ps {
		copy(tb.Sigs[i][:], ed25519.Sign(p.id.SigningKey(), ledger.RosterSigningBytes(gid)))
	}
	return tb, secrets
}

// hiddenAuthor plays HiddenGame: automatic entries (shuffles, shares),
// then its peek, and the final reveal for seat 0. onShuffle, if set, runs
// before the seat's shuffle is made.
func hiddenAuthor(rep *table.Table, player *table.Player, onShuffle func(ctx context.Context) error) Author {
	return func(ctx context.Context, pos uint64) ([]byte, error) {
		if _, k, _ := rep.Expect(); k == table.BodyShuffle && onShuffle != nil {
			if err := onShuffle(ctx); err != nil {
				return nil, err
			}
		}
		if b, ok, err := player.AutoBody(rep); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return b.MarshalBinary()
		}
		s := rep.Rules().(*tabletest.HiddenState)
		kind := tabletest.HiddenPeek
		if s.Peeked == s.Seats {
			kind = tabletest.HiddenReveal
		}
		seat, _, _ := rep.Expect()
		b, err := player.MoveBody(rep, engineMove(seat, kind), nil)
		if err != nil {
			return nil, err
		}
		return b.MarshalBinary()
	}
}

// A seat killed in the middle of its shuffle (before it sent anything)
// restarts on its state directory with a fresh process, shuffles anew, and
// the game finishes with every log identical and the transcript valid.
func TestCrashMidShuffleRestart(t *testing.T) {
	const n, victim = 3, 1
	_, ps := mockPeers(t, n)
	tb, secrets := hiddenTable(t, ps)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newSeat := func(i int, onShuffle func(context.Context) error) (*table.Table, Author) {
		rep, err := table.New(tb.Roster, tabletest.HiddenGame{})
		if err != nil {
			t.Fatal(err)
		}
		return rep, hiddenAuthor(rep, table.NewPlayer(i, ps[i].id.SigningKey(), secrets[i]), onShuffle)
	}
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		if i == victim {
			continue
		}
		rep, author := newSeat(i, nil)
		wg.Go(func() { res[i] = play(ctx, t, ps[i], tb, rep, RoomConfig{Author: author, Timeout: 20 * time.Second}) })
	}
	// First life: the process dies while shuffling.
	crashCtx, crash := context.WithCancel(ctx)
	rep, author := newSeat(victim, func(ctx context.Context) error {
		crash()
		<-ctx.Done()
		return ctx.Err()
	})
	first := play(crashCtx, t, ps[victim], tb, rep, RoomConfig{Author: author})
	if !errors.Is(first.err, context.Canceled) {
		t.Fatalf("first life: %v", first.err)
	}
	if len(first.log) != victim {
		t.Fatalf("the victim died after %d entries, want %d (just before its shuffle)", len(first.log), victim)
	}
	// Second life: a fresh replica on the same state directory.
	rep, author = newSeat(victim, nil)
	res[victim] = play(ctx, t, ps[victim], tb, rep, RoomConfig{Author: author, Timeout: 20 * time.Second})
	wg.Wait()
	for i, r := range res {
		if r.err != nil || r.out.Verdict != nil {
			t.Fatalf("peer %d: %v %+v", i, r.err, r.out)
		}
	}
	sameLogs(t, res, len(res[0].log))
	tr := &ledger.Transcript{Roster: tb.Roster, RosterSigs: tb.Sigs, Entries: res[0].log}
	if _, err := table.Replay(tr, tabletest.HiddenGame{}); err != nil {
		t.Fatalf("transcript: %v", err)
	}
}

// A seat silent at its shuffle is named in a timeout verdict.
func TestSilenceAtShuffle(t *testing.T) {
	const n, silent = 3, 2
	_, ps := mockPeers(t, n)
	tb, secrets := hiddenTable(t, ps)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := make([]result, n)
	var wg sync.WaitGroup
	for i := range n {
		rep, err := table.New(tb.Roster, tabletest.HiddenGame{})
		if err != nil {
			t.Fatal(err)
		}
		var hook func(context.Context) error
		cctx := ctx
		if i == silent {
			hook = func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
			var c context.CancelFunc
			cctx, c = context.WithTimeout(ctx, 2*time.Second)
			defer c()
		}
		author := hiddenAuthor(rep, table.NewPlayer(i, ps[i].id.SigningKey(), secrets[i]), hook)
		wg.Go(func() {
			res[i] = play(cctx, t, ps[i], tb, rep, RoomConfig{Author: author, Timeout: 400 * time.Millisecond})
		})
	}
	wg.Wait()
	for i, r := range res {
		if i == silent {
			continue
		}
		if r.err != nil {
			t.Fatalf("peer %d: %v", i, r.err)
		}
		v := r.out.Verdict
		if v == nil || v.Kind != VerdictTimeout || v.Seat != silent || v.Pos != silent {
			t.Fatalf("peer %d: verdict %+v, want a timeout naming seat %d at its shuffle (position %d)", i, v, silent, silent)
		}
	}
}
