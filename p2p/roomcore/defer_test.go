package roomcore

import (
	"crypto/ed25519"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// proofCounter is the counter game with a "proof": a body whose ninth
// byte is badProof carries a proof that does not verify, which only a
// proof check finds (checked before the rules, as the table checks an
// entry's proofs as it applies it).
type proofCounter struct {
	counter
}

const badProof = 0xBA

func proofFails(e *ledger.Entry) bool { return len(e.Body) > 8 && e.Body[8] == badProof }

func (p *proofCounter) strict(e *ledger.Entry) error {
	if proofFails(e) {
		return fmt.Errorf("counter: entry %d by seat %d: the proof does not verify", e.Pos, e.Seat)
	}
	return p.counter.Apply(e)
}

func (p *proofCounter) Apply(e *ledger.Entry) error         { return p.strict(e) }
func (p *proofCounter) ApplyVerified(e *ledger.Entry) error { return p.strict(e) }

// deferCounter is proofCounter as a DeferredApplier: ApplyDeferred runs
// the rules only and keeps the entry; Settle checks the kept entries'
// proofs and, if one fails, goes back to before them and applies them
// one by one with their proofs (engine/table's ApplyDeferred and Settle
// in small).
type deferCounter struct {
	proofCounter
	base counter
	run  []struct {
		e     *ledger.Entry
		state ledger.Hash
	}
	settles []int // the number of entries each Settle that held settled
}

func (d *deferCounter) Apply(e *ledger.Entry) error {
	if len(d.run) > 0 {
		return fmt.Errorf("counter: applied on unsettled entries")
	}
	return d.strict(e)
}
func (d *deferCounter) ApplyVerified(e *ledger.Entry) error { return d.Apply(e) }

func (d *deferCounter) ApplyBatch(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	for range max {
		pos, seat, ok := d.Next()
		if !ok {
			return nil, nil
		}
		e := next(pos, seat)
		if e == nil {
			return nil, nil
		}
		if err := d.Apply(e); err != nil {
			return e, err
		}
		applied(e, d.StateHash())
	}
	return nil, nil
}

func (d *deferCounter) DefersProofs() bool { return true }

func (d *deferCounter) ApplyDeferred(e *ledger.Entry, settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	if len(d.run) == 0 {
		d.base = d.counter
	}
	if err := d.counter.Apply(e); err != nil {
		return d.settleEach(e, settled)
	}
	d.run = append(d.run, struct {
		e     *ledger.Entry
		state ledger.Hash
	}{e, d.StateHash()})
	return nil, nil
}

func (d *deferCounter) Settle(settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	for _, s := range d.run {
		if proofFails(s.e) {
			return d.settleEach(nil, settled)
		}
	}
	run := d.run
	d.run = nil
	if len(run) > 0 {
		d.settles = append(d.settles, len(run))
	}
	for _, s := range run {
		settled(s.e, s.state)
	}
	return nil, nil
}

func (d *deferCounter) settleEach(extra *ledger.Entry, settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	var es []*ledger.Entry
	for _, s := range d.run {
		es = append(es, s.e)
	}
	if extra != nil {
		es = append(es, extra)
	}
	d.run = nil
	d.counter = d.base
	for _, e := range es {
		if err := d.strict(e); err != nil {
			return e, err
		}
		settled(e, d.StateHash())
	}
	return nil, nil
}

// liveSeat plays seat 0 of a 4-seat counter game whose entries reach it
// one at a time, as at a live table: each entry of log (up to the end or
// the table's end) is stepped alone, with its author's state hash, and
// followed by a Ready; the local seat's own entries are authored when
// the core asks; a wake (an input that is neither an entry, an echo nor
// a done) follows the entries at the positions in wakeAfter; echo
// timers run out 50 ms after they are asked for, entries come 10 ms
// apart. check, if set, sees every Ready with the replica's unsettled
// entries after it. It returns the entries the Readys wrote (the store),
// the outcome and the core.
func liveSeat(t *testing.T, replica Replica, log []*ledger.Entry, states []ledger.Hash, keys []ed25519.PrivateKey, roster *ledger.Roster, wakeAfter map[uint64]bool, check func(rd Ready)) ([]*ledger.Entry, *Outcome, *Core) {
	t.Helper()
	c, err := New(Config{Roster: roster, Self: 0, SignKey: keys[0], Replica: replica, Tick: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_700_000_000, 0)
	var store []*ledger.Entry
	var echoAt []time.Time
	var out *Outcome
	take := func(rd Ready) bool {
		if check != nil {
			check(rd)
		}
		store = append(store, rd.Entries...)
		for _, tm := range rd.Timers {
			if tm.Kind == TimerEchoFlush {
				echoAt = append(echoAt, now.Add(tm.After))
			}
		}
		if rd.Err != nil {
			t.Fatalf("the run ended with %v", rd.Err)
		}
		if rd.Outcome != nil {
			out = rd.Outcome
		}
		if rd.Author {
			c.Step(Input{Kind: InAuthored, Now: now, Pos: rd.AuthorPos, Body: log[rd.AuthorPos].Body})
			return false
		}
		return true
	}
	authored := func(rd Ready) {
		for !take(rd) {
			rd = c.Ready()
		}
	}
	authored(c.Start(now))
	for _, e := range log {
		if c.Done() {
			break
		}
		now = now.Add(10 * time.Millisecond)
		for len(echoAt) > 0 && !echoAt[0].After(now) {
			echoAt = echoAt[1:]
			c.Step(Input{Kind: InTimer, Now: now, Timer: Timer{Kind: TimerEchoFlush}})
			authored(c.Ready())
		}
		if e.Seat == 0 || e.Pos < c.next() {
			continue // authored here
		}
		c.Step(Input{Kind: InMsg, Now: now, Seat: e.Seat, At: now, Msg: &Msg{Type: MsgEntry, Entry: e, State: states[e.Pos]}})
		authored(c.Ready())
		if wakeAfter[e.Pos] && !c.Done() {
			c.Step(Input{Kind: InWake, Now: now})
			authored(c.Ready())
		}
	}
	return store, out, c
}

// proofGame is a 4-seat counter game of 40 entries in which seat 0 (the
// seat under test) authors every ninth entry (8, 17, 26, 35) and seats
// 1–3 the others in turn; forge changes entries (a bad proof, a broken
// rule) and re-signs and re-chains the log after them. It returns the
// log and the state hash each author reports after its entry (its
// replica runs the rules without the proofs, as a forger's does).
func proofGame(t *testing.T, forge map[uint64]func(b []byte) []byte) ([]*ledger.Entry, []ledger.Hash, []ed25519.PrivateKey, *ledger.Roster, func() *counter) {
	t.Helper()
	const n, limit = 4, 40
	keys := seatKeys(n)
	roster := testRoster(keys)
	game, _ := roster.GameID()
	order := func(p uint64) uint8 {
		if p%9 == 8 {
			return 0
		}
		return uint8(1 + p%3)
	}
	log := honestLog(keys, game, limit, order)
	for i := range log {
		if f := forge[uint64(i)]; f != nil {
			log[i].Body = f(slices.Clone(log[i].Body))
		}
		if i > 0 {
			log[i].Prev = log[i-1].Hash()
		}
		log[i].Sign(game, keys[log[i].Seat])
	}
	rules := &counter{seats: n, limit: limit, order: order}
	var states []ledger.Hash
	for _, e := range log {
		rules.Apply(e) // a broken rule leaves the state: the author reports it anyway
		states = append(states, rules.StateHash())
	}
	return log, states, keys, roster, func() *counter { return &counter{seats: n, limit: limit, order: order} }
}

func withBadProof(b []byte) []byte { return append(b[:8], badProof) }
func withBadCount(b []byte) []byte {
	b[7]++
	return b
}

// A bot seat checks the proofs of the entries it receives across
// entries, settling before it acts. A forged proof in the middle of a
// deferred run (the bad entry first, in the middle or last of its run; a
// run that ends at the seat's own turn; a bad proof followed by an entry
// that breaks a rule; a bad proof in an entry that also breaks a rule)
// ends the table with the verdict a seat checking entry by entry gives:
// the same entry, seat and reason, and the same log, store (the entries
// written) and final state.
func TestDeferredProofsBlamedExactly(t *testing.T) {
	cases := []struct {
		name  string
		bad   uint64
		forge map[uint64]func([]byte) []byte
		wake  []uint64
	}{
		// Seat 0 authors 8 and 17: the run after 8 lasts to 16.
		{name: "first of its run", bad: 11, forge: map[uint64]func([]byte) []byte{11: withBadProof}, wake: []uint64{10, 15}},
		{name: "in the middle of its run", bad: 13, forge: map[uint64]func([]byte) []byte{13: withBadProof}},
		{name: "last of its run", bad: 14, forge: map[uint64]func([]byte) []byte{14: withBadProof}, wake: []uint64{10, 14}},
		{name: "the run ends at the seat's own turn", bad: 16, forge: map[uint64]func([]byte) []byte{16: withBadProof}},
		{name: "a bad proof, then a broken rule", bad: 11, forge: map[uint64]func([]byte) []byte{11: withBadProof, 14: withBadCount}},
		{name: "a bad proof in an entry that also breaks a rule", bad: 12, forge: map[uint64]func([]byte) []byte{12: func(b []byte) []byte { return withBadProof(withBadCount(b)) }}},
		{name: "a broken rule alone", bad: 13, forge: map[uint64]func([]byte) []byte{13: withBadCount}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			log, states, keys, roster, fresh := proofGame(t, tc.forge)
			wake := make(map[uint64]bool)
			for _, p := range tc.wake {
				wake[p] = true
			}
			strict := &proofCounter{counter: *fresh()}
			wantStore, want, wc := liveSeat(t, strict, log, states, keys, roster, wake, nil)
			deferred := &deferCounter{proofCounter: proofCounter{counter: *fresh()}}
			gotStore, got, gc := liveSeat(t, deferred, log, states, keys, roster, wake, nil)
			if want == nil || want.Verdict == nil || want.Verdict.Pos != tc.bad || want.Verdict.Seat != log[tc.bad].Seat {
				t.Fatalf("entry by entry: %+v; want entry %d blamed", want, tc.bad)
			}
			if got == nil || got.Verdict == nil {
				t.Fatalf("checked across entries: outcome %+v; entry by entry: %v", got, want.Verdict)
			}
			gv, wv := got.Verdict, want.Verdict
			if gv.Kind != wv.Kind || gv.Pos != wv.Pos || gv.Seat != wv.Seat || gv.Reason != wv.Reason ||
				len(gv.Evidence) != 1 || gv.Evidence[0].Hash() != wv.Evidence[0].Hash() {
				t.Fatalf("checked across entries: %v (%q); entry by entry: %v (%q)", gv, gv.Reason, wv, wv.Reason)
			}
			if got.Entries != want.Entries || got.StateHash != want.StateHash || deferred.StateHash() != strict.StateHash() {
				t.Fatalf("outcome %d entries, state %x; entry by entry %d, %x", got.Entries, got.StateHash[:4], want.Entries, want.StateHash[:4])
			}
			if len(gotStore) != len(wantStore) {
				t.Fatalf("%d entries written; entry by entry %d", len(gotStore), len(wantStore))
			}
			for i := range gotStore {
				if gotStore[i].Hash() != wantStore[i].Hash() {
					t.Fatalf("entry %d written differs", i)
				}
			}
			ge, gs := gc.Log()
			we, ws := wc.Log()
			if len(ge) != len(we) || !slices.Equal(gs, ws) || len(gc.entries) != len(wc.entries) {
				t.Fatalf("log of %d entries (%d held); entry by entry %d", len(ge), len(gc.entries), len(we))
			}
			if slices.Max(append(deferred.settles, 0)) < 2 {
				// The runs before the bad entry's held: one settled whole.
				t.Fatalf("no run of entries was settled together: %v", deferred.settles)
			}
		})
	}
}

// A seat whose proofs are checked across entries never acts on an
// unchecked proof: no Ready that writes an entry, sends a frame (an
// echo, its own entry, a done, a verdict), records that it signs, asks
// its author for an entry or ends the table leaves an entry unsettled,
// and every entry written is settled. Over a whole honest game the
// entries were settled in runs (the check is not idle), and the game
// ends as a seat checking entry by entry ends it.
func TestNoActOnUncheckedProofs(t *testing.T) {
	log, states, keys, roster, fresh := proofGame(t, nil)
	deferred := &deferCounter{proofCounter: proofCounter{counter: *fresh()}}
	held := 0
	check := func(rd Ready) {
		unsettled := len(deferred.run)
		if unsettled > 0 {
			held++
		}
		acts := len(rd.Entries) > 0 || len(rd.Frames) > 0 || rd.MarkSigned || rd.Author || rd.Save != nil || rd.Outcome != nil
		if acts && unsettled > 0 {
			t.Fatalf("a Ready acts (%d entries written, %d frames, author %v, outcome %v) with %d entries unsettled",
				len(rd.Entries), len(rd.Frames), rd.Author, rd.Outcome != nil, unsettled)
		}
	}
	store, _, c := liveSeat(t, deferred, log, states, keys, roster, nil, check)
	strict := &proofCounter{counter: *fresh()}
	wantStore, _, wc := liveSeat(t, strict, log, states, keys, roster, nil, nil)
	_, got := c.Log()
	_, want := wc.Log()
	if len(store) != len(log) || len(wantStore) != len(log) || !slices.Equal(got, want) || deferred.StateHash() != strict.StateHash() {
		t.Fatalf("%d entries written, %d in the log; entry by entry %d, %d", len(store), len(got), len(wantStore), len(want))
	}
	// The end: every other seat's echo of the last entry, then their
	// dones: the seat says done, and the game is over.
	now := time.Unix(1_800_000_000, 0)
	last := uint64(len(log) - 1)
	for s := uint8(1); s < 4; s++ {
		c.Step(Input{Kind: InMsg, Now: now, Seat: s, At: now, Msg: &Msg{Type: MsgDone, Pos: last + 1, State: got[last]}})
	}
	rd := c.Ready()
	check(rd)
	if rd.Outcome == nil || rd.Outcome.Verdict != nil || rd.Outcome.StateHash != want[last] {
		t.Fatalf("the end: %+v", rd.Outcome)
	}
	if held == 0 || len(deferred.settles) == 0 || slices.Max(deferred.settles) < 2 {
		t.Fatalf("proofs were not checked across entries: %d Readys held entries, runs settled %v", held, deferred.settles)
	}
}
