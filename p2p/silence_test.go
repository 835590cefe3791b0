package p2p

import (
	"context"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// silenceTimeout is TestSilenceAtEachStep's countdown.
const silenceTimeout = 2 * time.Second

// claimingAuthor plays the first claim it may make (so challenge windows
// open), passes (or, with challenge, challenges, so cards are revealed)
// when asked to respond, and otherwise the first legal move.
// It stays silent, until its context ends, at the first position where
// silent(rep) is true.
func claimingAuthor(rep *table.Table, player *table.Player, challenge bool, silent func(*table.Table) bool) Author {
	return func(ctx context.Context, pos uint64) ([]byte, error) {
		if silent != nil && silent(rep) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		if b, ok, err := player.AutoBody(rep); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return b.MarshalBinary()
		}
		s := rep.Rules().(*mascarade.State)
		seat, _, _ := rep.Expect()
		legal := s.LegalMoves(seat)
		m := legal[0]
		respond := mascarade.KindPass
		if challenge {
			respond = mascarade.KindChallenge
		}
		for _, k := range []uint8{respond, mascarade.KindClaim} {
			for _, l := range legal {
				if l.Kind == k {
					m = l
					goto chosen
				}
			}
		}
	chosen:
		var bits []bool
		if mascarade.HasSecretSwap(s, m) {
			bits = []bool{false}
		}
		b, err := player.MoveBody(rep, m, bits)
		if err != nil {
			return nil, err
		}
		return b.MarshalBinary()
	}
}

// A seat that goes silent at any kind of step — its deal coin, its turn,
// its answer in a challenge window, its decryption share — is waited for
// with a countdown, then named by every other peer in a signed timeout
// verdict for that very position.
//
// The countdown is long enough for an honest seat's step on a loaded
// machine: at 400 ms (as it was) an honest seat slow to write (load 29
// on two cores: 437 ms) was timed out instead of the silent one.
func TestSilenceAtEachStep(t *testing.T) {
	const n, silentSeat = 4, 2
	rules := func(t *table.Table) *mascarade.State { s, _ := t.Rules().(*mascarade.State); return s }
	steps := []struct {
		name      string
		dealt     bool
		challenge bool
		silent    func(*table.Table) bool
	}{
		{"deal coin reveal", false, false, func(t *table.Table) bool { _, k, _ := t.Expect(); return k == table.BodyReveal }},
		{"turn", true, false, func(t *table.Table) bool {
			_, k, _ := t.Expect()
			return k == table.BodyMove && !rules(t).InChallengeWindow() && rules(t).Turn() > mascarade.PreparatoryTurns
		}},
		{"challenge window", true, false, func(t *table.Table) bool {
			_, k, _ := t.Expect()
			return k == table.BodyMove && rules(t).InChallengeWindow()
		}},
		{"decryption share", true, true, func(t *table.Table) bool { _, k, _ := t.Expect(); return k == table.BodyShares }},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			// The steps run side by side: most of each is the wait for
			// the silent seat.
			t.Parallel()
			_, ps := mockPeers(t, n)
			tb, secrets := mascaradeTable(t, ps, st.dealt)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			type outcome struct {
				res    result
				rep    *table.Table
				waited bool
			}
			outs := make([]outcome, n)
			done := make(chan struct{}, n)
			// The silent seat stays until every other peer has its
			// verdict: a fixed 2 s (as it was) ran out on a loaded
			// machine before the game reached the step, and the seat
			// fell silent at another one.
			silentCtx, stopSilent := context.WithCancel(ctx)
			defer stopSilent()
			silentDone := make(chan struct{})
			for i, p := range ps {
				rep, err := table.New(tb.Roster, mascarade.Game{})
				if err != nil {
					t.Fatal(err)
				}
				var silent func(*table.Table) bool
				if i == silentSeat {
					silent = st.silent
				}
				author := claimingAuthor(rep, table.NewPlayer(i, p.id.SigningKey(), secrets[i]), st.challenge, silent)
				go func() {
					cctx := ctx
					if i == silentSeat {
						cctx = silentCtx
						defer close(silentDone)
					} else {
						defer func() { done <- struct{}{} }()
					}
					o := &outs[i]
					o.rep = rep
					o.res = play(cctx, t, p, tb, rep, RoomConfig{Author: author, Timeout: silenceTimeout,
						OnWait: func(w Wait) {
							if int(w.Seat) == silentSeat && w.Left > 0 {
								o.waited = true
							}
						}})
				}()
			}
			for range n - 1 {
				<-done
			}
			stopSilent()
			<-silentDone
			var pos uint64
			for i, o := range outs {
				if i == silentSeat {
					continue
				}
				if o.res.err != nil {
					t.Fatalf("peer %d: %v", i, o.res.err)
				}
				v := o.res.out.Verdict
				if v == nil || v.Kind != VerdictTimeout || v.Seat != silentSeat {
					t.Fatalf("peer %d: verdict %+v, want a timeout naming seat %d", i, v, silentSeat)
				}
				if err := v.Verify(tb.Roster); err != nil {
					t.Fatalf("peer %d: %v", i, err)
				}
				if !o.waited {
					t.Errorf("peer %d showed no countdown for the silent seat", i)
				}
				// The verdict is for the position where the seat fell silent:
				// every honest replica stopped there, expecting that seat.
				if s, _, ok := o.rep.Next(); !ok || s != v.Pos {
					t.Errorf("peer %d stopped at %d, verdict for %d", i, s, v.Pos)
				}
				if seat, _, _ := o.rep.Expect(); seat != engine.Seat(silentSeat) || !st.silent(o.rep) {
					_, k, _ := o.rep.Expect()
					t.Errorf("peer %d: the table waits for seat %d (%v, pending %v), not the silent seat at its silent step", i, seat, k, o.rep.Pending())
				}
				if i != 0 && v.Pos != pos {
					t.Errorf("peers disagree on the position: %d and %d", pos, v.Pos)
				}
				pos = v.Pos
			}
		})
	}
}
