package p2p

import (
	"context"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// bench is a room at seat self of an n-seat counter game (seats take
// turns) of limit entries, opened on a state directory holding its first
// stored entries, with nothing running: the tests call the room's
// decisions directly, from this goroutine, as its Run goroutine would.
type bench struct {
	ps   []*tpeer // the seats, and a last peer with no seat (a spectator)
	tb   store.Table
	game ledger.Hash
	log  []*ledger.Entry // the whole game's entries, as honest seats sign them
	st   *store.Store
	room *Room
}

// honestLog is the log of a counter game of limit entries authored in
// order by ps, as countAuthor's seats sign it (Ed25519 is deterministic).
func honestLog(ps []*tpeer, game ledger.Hash, limit uint64, order func(uint64) uint8) []*ledger.Entry {
	var out []*ledger.Entry
	prev := game
	for p := range limit {
		e := &ledger.Entry{Pos: p, Seat: order(p), Prev: prev, Body: body(p)}
		e.Sign(game, ps[e.Seat].id.SigningKey())
		out = append(out, e)
		prev = e.Hash()
	}
	return out
}

// newBench makes the state directory of seat self, with the first
// stored entries and, if v is not nil, v as its stored verdict, and opens
// a room on it.
func newBench(t *testing.T, n, self int, stored, limit uint64, v func(b *bench) *Verdict) *bench {
	t.Helper()
	_, ps := mockPeers(t, n+1)
	b := &bench{ps: ps, tb: signedTable(t, ps[:n])}
	b.game, _ = b.tb.Roster.GameID()
	b.log = honestLog(ps, b.game, limit, func(p uint64) uint8 { return uint8(p % uint64(n)) })
	st, err := store.Create(ps[self].dir, b.tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, e := range b.log[:stored] {
		if err := st.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if v != nil {
		enc, err := v(b).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SaveVerdict(enc); err != nil {
			t.Fatal(err)
		}
	}
	b.st = st
	b.room, err = ps[self].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: n, limit: limit}, Author: countAuthor})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.room.Close() })
	return b
}

// verdict is v signed by its declarer.
func (b *bench) verdict(t *testing.T, v Verdict) *Verdict {
	t.Helper()
	v.Game = b.game
	if v.Reason == "" {
		v.Reason = "forged"
	}
	if err := v.Sign(b.ps[v.Declarer].id.SigningKey()); err != nil {
		t.Fatal(err)
	}
	return &v
}

// TestStoredVerdictChecked performs issue 23's item 7: a state directory
// whose verdict was altered is refused on restart with an error naming
// the directory and what is wrong (it used to be taken as it was), while
// every verdict a seat stores itself is accepted.
func TestStoredVerdictChecked(t *testing.T) {
	equivocation := func(b *bench, declarer uint8) *Verdict {
		e := &ledger.Entry{Pos: 1, Seat: 1, Prev: b.log[0].Hash(), Body: body(1, 'x')}
		e.Sign(b.game, b.ps[1].id.SigningKey())
		return &Verdict{Kind: VerdictEquivocation, Pos: 1, Seat: 1, Evidence: sortEvidence(b.log[1], e), Declarer: declarer}
	}
	for _, c := range []struct {
		name          string
		stored, limit uint64
		v             func(t *testing.T, b *bench) *Verdict
		refused       string // "" when accepted
	}{
		{"own timeout of the seat due", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 0})
		}, ""},
		{"a late timeout declared by one other seat alone", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 2, Seat: 2, Declarer: 3})
		}, "only 1 of the 5 seats declared it"},
		{"an equivocation", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, *equivocation(b, 3))
		}, ""},
		{"an equivocation after the end", 5, 5, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, *equivocation(b, 0))
		}, ""},
		{"own invalid-entry verdict", 4, 100, func(t *testing.T, b *bench) *Verdict {
			bad := &ledger.Entry{Pos: 4, Seat: 4, Prev: b.log[3].Hash(), Body: body(9)}
			bad.Sign(b.game, b.ps[4].id.SigningKey())
			return b.verdict(t, Verdict{Kind: VerdictInvalidEntry, Pos: 4, Seat: 4, Evidence: []*ledger.Entry{bad}, Declarer: 0})
		}, ""},
		{"the statement of the seat due", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictDivergence, Pos: 2, Seat: 4, Declarer: 4})
		}, ""},
		{"a signature altered", 4, 100, func(t *testing.T, b *bench) *Verdict {
			v := b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 0})
			v.Sig[5] ^= 1
			return v
		}, "bad signature by declarer seat 0"},
		{"the position altered", 4, 100, func(t *testing.T, b *bench) *Verdict {
			v := b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 0})
			v.Pos = 3
			return v
		}, "bad signature"},
		{"another game's verdict", 4, 100, func(t *testing.T, b *bench) *Verdict {
			v := Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 0, Reason: "x", Game: ledger.Hash{1}}
			v.Sign(b.ps[0].id.SigningKey())
			return &v
		}, "for another game"},
		{"a timeout naming this seat (the forged late timeout)", 8, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 5, Seat: 0, Declarer: 1})
		}, "adopts no verdict naming its own seat"},
		{"a timeout after the end", 5, 5, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 2, Seat: 2, Declarer: 1})
		}, "no timeout is adopted after its last entry"},
		{"own timeout of a seat not due", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 2, Declarer: 0})
		}, "not a verdict this seat could have stored after 4 entries"},
		{"another seat's invalid-entry verdict", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictInvalidEntry, Pos: 4, Seat: 4, Evidence: []*ledger.Entry{b.log[4]}, Declarer: 1})
		}, "not a verdict this seat could have stored"},
		{"a divergence naming another seat", 4, 100, func(t *testing.T, b *bench) *Verdict {
			return b.verdict(t, Verdict{Kind: VerdictDivergence, Pos: 2, Seat: 4, Declarer: 1})
		}, "not a verdict this seat could have stored"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want *Verdict
			b := newBench(t, 5, 0, c.stored, c.limit, func(b *bench) *Verdict { want = c.v(t, b); return want })
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // Run must decide on the stored verdict alone
			out, err := b.room.Run(ctx)
			if c.refused == "" {
				if err != nil || out.Verdict == nil || out.Verdict.Kind != want.Kind || out.Verdict.Pos != want.Pos {
					t.Fatalf("refused: %v, %+v", err, out)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), b.st.Dir()) {
				t.Fatalf("got %v, %+v; want an error naming the directory and %q", err, out, c.refused)
			}
		})
	}
}

// TestStoredLateTimeoutNeedsItsMajority is the second outside review's
// attack on a state directory: someone who can write a seat's state
// directory (not its identity key, kept in the config directory) and
// holds one colluder's signature stores that colluder's timeout of an
// honest seat at a past position. Restarted, the peer took it as a late
// timeout it had adopted (checkStored could not recount the declarers)
// and reported the honest seat silent, cutting the log there. A stored
// late timeout must carry the declarations of more than half the table
// (the named seat and this one left out), as when it was adopted; so
// must one adopted at the position this peer waited at (declared by the
// others before its own timer ran out).
func TestStoredLateTimeoutNeedsItsMajority(t *testing.T) {
	// Five seats, this peer seat 0; seat 2 authored entry 2, which it
	// holds (4 entries stored). More than half the table is 3 seats:
	// the declarers can only be seats 1, 3 and 4.
	late := func(b *bench, declarer uint8) *Verdict {
		return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 2, Seat: 2, Declarer: declarer})
	}
	due := func(b *bench, declarer uint8) *Verdict {
		return b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: declarer})
	}
	for _, c := range []struct {
		name    string
		vs      func(b *bench) []*Verdict
		refused string // "" when accepted
	}{
		{"one colluder's declaration (the attack)", func(b *bench) []*Verdict {
			return []*Verdict{late(b, 3)}
		}, "1 of the 5 seats declared it"},
		{"two declarations", func(b *bench) []*Verdict {
			return []*Verdict{late(b, 3), late(b, 1)}
		}, "2 of the 5 seats declared it"},
		{"one declarer repeated", func(b *bench) []*Verdict {
			return []*Verdict{late(b, 3), late(b, 1), late(b, 3)}
		}, "declared twice by seat 3"},
		{"a declaration of another position", func(b *bench) []*Verdict {
			return []*Verdict{late(b, 3), late(b, 1), b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 3, Seat: 3, Declarer: 4})}
		}, "another verdict than the one adopted"},
		{"a declaration's signature altered", func(b *bench) []*Verdict {
			v := late(b, 4)
			v.Sig[3] ^= 1
			return []*Verdict{late(b, 3), late(b, 1), v}
		}, "bad signature by declarer seat 4"},
		{"declarations beside a verdict of this seat", func(b *bench) []*Verdict {
			return []*Verdict{b.verdict(t, Verdict{Kind: VerdictTimeout, Pos: 4, Seat: 4, Declarer: 0}), late(b, 3)}
		}, "only a timeout declared by other seats is stored with declarations"},
		{"the majority's declarations", func(b *bench) []*Verdict {
			return []*Verdict{late(b, 3), late(b, 1), late(b, 4)}
		}, ""},
		// Seat 4 is due at entry 4, the position this peer waits at: a
		// timeout there declared by other seats is adopted, and stored,
		// on the same majority.
		{"two declarations of the position due", func(b *bench) []*Verdict {
			return []*Verdict{due(b, 1), due(b, 3)}
		}, "2 of the 5 seats declared it"},
		{"the majority's declarations of the position due", func(b *bench) []*Verdict {
			return []*Verdict{due(b, 1), due(b, 2), due(b, 3)}
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t, 5, 0, 4, 100, nil)
			vs := c.vs(b)
			var raw []byte
			for _, v := range vs {
				enc, err := v.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				raw = append(raw, enc...)
			}
			if err := b.st.SaveVerdict(raw); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // Run must decide on the stored verdict alone
			out, err := b.room.Run(ctx)
			if c.refused == "" {
				want := vs[0]
				if err != nil || out.Verdict == nil || out.Verdict.Pos != want.Pos || out.Verdict.Seat != want.Seat || out.Entries != want.Pos {
					t.Fatalf("refused: %v, %+v; want the timeout of seat %d at entry %d", err, out, want.Seat, want.Pos)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.refused) || !strings.Contains(err.Error(), b.st.Dir()) {
				t.Fatalf("got %v, %+v; want an error naming the directory and %q", err, out, c.refused)
			}
		})
	}
}
