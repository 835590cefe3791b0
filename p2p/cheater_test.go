package p2p

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// cheatReplica is the cheater's own replica: it accepts its own forged
// entry without checking it (a modified client), so the room sends it.
type cheatReplica struct {
	*table.Table
	seat    uint8
	cheated bool
	at      uint64
}

func (c *cheatReplica) Next() (uint64, uint8, bool) {
	if c.cheated {
		// Wait for the others forever: they must stop on the forgery.
		return c.at + 1, (c.seat + 1) % uint8(c.Seats()), true
	}
	return c.Table.Next()
}

// ApplyVerified is Apply: the embedded table's would check the forged
// entry.
func (c *cheatReplica) ApplyVerified(e *ledger.Entry) error { return c.Apply(e) }

func (c *cheatReplica) Apply(e *ledger.Entry) error {
	if c.cheated {
		return errors.New("cheater: stopped")
	}
	if err := c.Table.Apply(e); err != nil {
		if e.Seat == c.seat {
			c.cheated, c.at = true, e.Pos
			return nil
		}
		return err
	}
	return nil
}

// A real Mascarade game over the network among four peers, where seat 1
// substitutes a card in its first swap: every honest peer stops with the
// same invalid-entry verdict naming seat 1, the forged entry as evidence,
// and an auditor replaying the evidence on the honest log reaches the same
// fault.
func TestCheaterSubstitutesCardOverNetwork(t *testing.T) {
	const n, cheater = 4, 1
	_, ps := mockPeers(t, n)
	tb, secrets := mascaradeTable(t, ps, false)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	type outcome struct {
		res result
		rep *table.Table
	}
	outs := make([]outcome, n)
	done := make(chan int, n)
	for i, p := range ps {
		rep, err := table.New(tb.Roster, mascarade.Game{})
		if err != nil {
			t.Fatal(err)
		}
		player := table.NewPlayer(i, p.id.SigningKey(), secrets[i])
		var replica Replica = rep
		if i == cheater {
			replica = &cheatReplica{Table: rep, seat: cheater}
		}
		var tamper func(*table.Body)
		if i == cheater {
			tamper = func(b *table.Body) {
				if len(b.Swaps) > 0 {
					// Substitute: the second output is a fresh King.
					b.Swaps[0].Out1 = rep.Joint().Encrypt(mental.CardPoint(int(mascarade.King)))
				}
			}
		}
		author := firstMoveAuthor(rep, player, tamper)
		go func() {
			cctx := ctx
			if i == cheater {
				var c context.CancelFunc
				cctx, c = context.WithTimeout(ctx, 1500*time.Millisecond)
				defer c()
			}
			outs[i] = outcome{play(cctx, t, p, tb, replica, RoomConfig{Author: author, Timeout: 20 * time.Second}), rep}
			done <- i
		}()
	}
	for range n {
		<-done
	}
	var evidence *ledger.Entry
	for i, o := range outs {
		if i == cheater {
			continue
		}
		if o.res.err != nil {
			t.Fatalf("peer %d: %v", i, o.res.err)
		}
		v := o.res.out.Verdict
		if v == nil || v.Kind != VerdictInvalidEntry || v.Seat != cheater || len(v.Evidence) != 1 {
			t.Fatalf("peer %d: verdict %+v, want invalid entry by seat %d", i, v, cheater)
		}
		if err := v.Verify(tb.Roster); err != nil {
			t.Fatalf("peer %d: verdict does not verify: %v", i, err)
		}
		enc, _ := v.Evidence[0].MarshalBinary()
		if evidence == nil {
			evidence = v.Evidence[0]
		} else if prev, _ := evidence.MarshalBinary(); string(prev) != string(enc) {
			t.Fatalf("peer %d holds other evidence", i)
		}
		if o.rep.StateHash() != outs[0].rep.StateHash() {
			t.Fatalf("peer %d: honest states diverge", i)
		}
	}
	// The auditor: the honest log plus the evidence stops on the same seat.
	tr := &ledger.Transcript{Roster: tb.Roster, RosterSigs: tb.Sigs, Entries: append(append([]*ledger.Entry{}, outs[0].res.log...), evidence)}
	_, err := table.Replay(tr, mascarade.Game{})
	var f *table.Fault
	if !errors.As(err, &f) || f.Seat != cheater || f.Reason != "bad-swap-proof" {
		t.Fatalf("audit: %v, want a bad-swap-proof fault by seat %d", err, cheater)
	}
}
