package roomcore

import (
	"container/heap"
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// A deterministic simulation of a table: n seats, each a Core, wired by a
// simulated network (delay, jitter that reorders, loss, partitions), with
// crashes and restarts from what each seat persisted, all on one fake
// clock in one goroutine. A run is reproducible from its seed: a failure
// names the seed, and
//
//	go test ./p2p/roomcore -run TestSim -sim.seed=N -v
//
// replays that seed alone (with -v, its trace).

var (
	simSeed = flag.Uint64("sim.seed", 0, "run only this seed of each simulation test (0: every seed)")
	simRuns = flag.Int("sim.runs", 0, "seeds per simulation test (0: the test's default)")
)

// simEvent is something that happens at a time; seq breaks ties in the
// order events were scheduled, so that a run is deterministic.
type simEvent struct {
	at  time.Time
	seq uint64
	fn  func()
}

type simQueue []*simEvent

func (q simQueue) Len() int { return len(q) }
func (q simQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q simQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)   { *q = append(*q, x.(*simEvent)) }
func (q *simQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// simConfig is a scenario's table and network.
type simConfig struct {
	seats   int
	limit   uint64        // entries in the game
	timeout time.Duration // the move time
	tick    time.Duration
	// think returns how long seat thinks over the entry at pos.
	think func(rng *rand.Rand, seat uint8, pos uint64) time.Duration
	// delay and jitter of every frame (jitter reorders frames on a
	// link when reorder is set; otherwise a link delivers in order, as
	// a stream does), and the chance that a frame or a sync answer is
	// lost (a stream reset).
	delay, jitter time.Duration
	reorder       bool
	loss          float64
	// setup schedules the scenario's faults.
	setup func(s *sim)
}

// simDisk is what a seat's state directory holds.
type simDisk struct {
	entries []*ledger.Entry
	signed  bool
	verdict []byte
}

type simSeat struct {
	id    uint8
	core  *Core
	disk  simDisk
	up    bool // the program runs
	epoch int  // bumped by a crash: events of an earlier run are dropped
	// done: the run returned (out or err); the program keeps serving
	// syncs until gone.
	done bool
	gone bool
	out  *Outcome
	err  error
	runs int
	// ended is when the run returned.
	ended time.Time
	// heardTimeout: another seat's timeout verdict reached this seat (a
	// frame, or a sync answer).
	heardTimeout bool
	// syncing[s]: when the sync request to seat s in flight was made
	// (zero: none).
	syncing []time.Time
	// author is the token of the author request out (0: none), cancelled
	// when StopAuthor came.
	author uint64
	// lastArrival[s] is when the last frame from this seat to seat s
	// arrives (frames on a link keep their order).
	lastArrival []time.Time
}

// sim is one run of a scenario.
type sim struct {
	t      testing.TB
	seed   uint64
	cfg    simConfig
	rng    *rand.Rand
	now    time.Time
	q      simQueue
	seq    uint64
	keys   []ed25519.PrivateKey
	roster *ledger.Roster
	game   ledger.Hash
	seats  []*simSeat
	// cuts are the partitions: seat a cannot reach seat b (b = -1: any
	// seat) from from until to.
	cuts  []simCut
	trace []string
	// onAuthored, if set, is called when a seat's author answers pos.
	onAuthored func(seat uint8, pos uint64)
	// onApplied, if set, is called when a seat has applied and persisted
	// an entry (a Ready's Entries).
	onApplied func(seat uint8, e *ledger.Entry)
	// honest[s]: the seat is never to be blamed in this scenario.
	steps int
	// sent counts what the seats sent, by kind (simTraffic).
	sent simTraffic
}

// simTraffic counts the frames (and their bytes) the seats sent, by
// message type (a log stream's frames, one per receiver; a sync answer's
// entries and its end count as the server's; a sync request as the
// asker's).
type simTraffic struct {
	// frames[typ], bytes[typ] by message type; simSyncedEntry: the
	// entries of sync answers.
	frames, bytes [8]int
}

// simSyncedEntry counts the entries of sync answers apart from the log
// streams'.
const simSyncedEntry = 0

// add counts one frame of type typ, size bytes.
func (t *simTraffic) add(typ byte, size int) {
	if int(typ) < len(t.frames) {
		t.frames[typ]++
		t.bytes[typ] += size
	}
}

// perEntry describes the traffic per entry per receiver: total frames,
// then each kind sent.
func (t *simTraffic) perEntry(entries, receivers int) (float64, string) {
	d := float64(entries * receivers)
	total := 0
	var parts []string
	for typ := range t.frames {
		if t.frames[typ] == 0 {
			continue
		}
		total += t.frames[typ]
		name := MsgName(byte(typ))
		if typ == simSyncedEntry {
			name = "synced entry"
		}
		parts = append(parts, fmt.Sprintf("%s %.3f (%.0f B)", name, float64(t.frames[typ])/d, float64(t.bytes[typ])/d))
	}
	return float64(total) / d, strings.Join(parts, ", ")
}

type simCut struct {
	a, b     int
	from, to time.Time
}

const simSyncAnswerWait = 5 * time.Second

func newSim(t testing.TB, seed uint64, cfg simConfig) *sim {
	s := &sim{t: t, seed: seed, cfg: cfg, rng: rand.New(rand.NewPCG(seed, 0x5eed)),
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s.keys = seatKeys(cfg.seats)
	s.roster = testRoster(s.keys)
	s.game, _ = s.roster.GameID()
	for i := range cfg.seats {
		s.seats = append(s.seats, &simSeat{id: uint8(i), syncing: make([]time.Time, cfg.seats),
			lastArrival: make([]time.Time, cfg.seats)})
	}
	return s
}

func (s *sim) logf(format string, args ...any) {
	s.trace = append(s.trace, fmt.Sprintf("%8.3fs ", s.now.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)).Seconds())+fmt.Sprintf(format, args...))
}

func (s *sim) at(t time.Time, fn func()) {
	s.seq++
	heap.Push(&s.q, &simEvent{at: t, seq: s.seq, fn: fn})
}

func (s *sim) after(d time.Duration, fn func()) { s.at(s.now.Add(d), fn) }

// onSeat schedules fn for seat's current run: dropped if it crashed since.
func (s *sim) onSeat(seat *simSeat, d time.Duration, fn func()) {
	epoch := seat.epoch
	s.after(d, func() {
		if seat.up && seat.epoch == epoch {
			fn()
		}
	})
}

// linkUp says whether seat a reaches seat b at t.
func (s *sim) linkUp(a, b int, t time.Time) bool {
	for _, c := range s.cuts {
		if (c.a == a && (c.b == b || c.b == -1) || c.a == b && (c.b == a || c.b == -1)) && !t.Before(c.from) && t.Before(c.to) {
			return false
		}
	}
	return true
}

// upAgain is when the link between a and b, down at t, is up again.
func (s *sim) upAgain(a, b int, t time.Time) time.Time {
	for !s.linkUp(a, b, t) {
		next := t
		for _, c := range s.cuts {
			if (c.a == a && (c.b == b || c.b == -1) || c.a == b && (c.b == a || c.b == -1)) && !t.Before(c.from) && t.Before(c.to) && c.to.After(next) {
				next = c.to
			}
		}
		t = next
	}
	return t
}

// cut cuts seat a off from seat b (-1: every seat) for d from now.
func (s *sim) cut(a, b int, d time.Duration) {
	s.cuts = append(s.cuts, simCut{a: a, b: b, from: s.now, to: s.now.Add(d)})
	s.logf("seat %d cut off from %d for %v", a, b, d)
}

func (s *sim) delay() time.Duration {
	d := s.cfg.delay
	if s.cfg.jitter > 0 {
		d += time.Duration(s.rng.Int64N(int64(s.cfg.jitter)))
	}
	return d
}

// send carries a frame from seat a to seat b, as a's log stream to b
// does: in order (unless the scenario reorders), lost at random or when
// the link is down on arrival; a frame sent while the link is down waits
// in the sender's queue until it is up (retried with a backoff of up to
// 2 s), and dies with its sender.
func (s *sim) send(from *simSeat, b int, frame []byte) {
	to := s.seats[b]
	arrive := s.now.Add(s.delay())
	held := false
	if !s.linkUp(int(from.id), b, s.now) {
		held = true
		arrive = s.upAgain(int(from.id), b, s.now).Add(time.Duration(s.rng.Int64N(int64(2 * time.Second)))).Add(s.delay())
	}
	if !s.cfg.reorder && arrive.Before(from.lastArrival[b]) {
		arrive = from.lastArrival[b]
	}
	from.lastArrival[b] = arrive
	s.sent.add(frame[0], len(frame))
	if s.rng.Float64() < s.cfg.loss {
		return
	}
	epoch, fromEpoch := to.epoch, from.epoch
	s.at(arrive, func() {
		if !to.up || to.epoch != epoch || to.done || held && from.epoch != fromEpoch || !s.linkUp(int(from.id), b, s.now) {
			return
		}
		m, err := Decode(frame)
		if err != nil {
			s.t.Fatalf("seed %d: seat %d sent a frame that does not decode: %v", s.seed, from.id, err)
		}
		if m.Type == MsgVerdict && m.Verdict.Kind == VerdictTimeout {
			to.heardTimeout = true
		}
		s.step(to, Input{Kind: InMsg, Now: s.now, Seat: from.id, Msg: m, At: s.now})
	})
}

// syncReq carries a sync request from seat a to seat b and its answer
// back: b's durable log from pos from, its verdict, its log length. A
// request is lost (or the path is dark) at random or when the link is
// down either way: it then fails after simSyncAnswerWait, as the
// driver's does when no answer starts.
func (s *sim) syncReq(a *simSeat, b int, from uint64) {
	if t := a.syncing[b]; !t.IsZero() && s.now.Sub(t) < simSyncAnswerWait {
		return
	}
	asked := s.now
	a.syncing[b] = asked
	s.sent.add(MsgSyncReq, 1+32+8+4)
	free := func() {
		if a.syncing[b].Equal(asked) {
			a.syncing[b] = time.Time{}
		}
	}
	server := s.seats[b]
	d1, d2 := s.delay(), s.delay()
	if !s.linkUp(int(a.id), b, s.now) || s.rng.Float64() < s.cfg.loss {
		s.onSeat(a, simSyncAnswerWait, free)
		return
	}
	s.after(d1, func() {
		if !server.up || server.gone || !s.linkUp(int(a.id), b, s.now) {
			s.onSeat(a, simSyncAnswerWait-d1, free)
			return
		}
		var entries []*ledger.Entry
		var states []ledger.Hash
		n := uint64(len(server.disk.entries))
		if server.core != nil {
			all, st := server.core.Log()
			n = min(n, uint64(len(all)))
			if from < n {
				entries = all[from:min(n, from+MaxSyncBatch)]
				states = st[from:min(n, from+MaxSyncBatch)]
			}
		}
		var v *Verdict
		if server.core != nil {
			v = server.core.Verdict()
		}
		for _, e := range entries {
			enc, _ := e.MarshalBinary()
			s.sent.add(simSyncedEntry, 1+4+len(enc)+32)
		}
		if v != nil {
			s.sent.add(MsgVerdict, 1)
		}
		s.sent.add(MsgSyncEnd, 1+8)
		s.onSeat(a, d2, func() {
			free()
			if a.done || !s.linkUp(int(a.id), b, s.now) {
				return
			}
			for i, e := range entries {
				s.stepOnly(a, Input{Kind: InMsg, Now: s.now, Seat: uint8(b), At: s.now,
					Msg: &Msg{Type: MsgEntry, Entry: e, State: states[i]}})
				if a.done {
					return
				}
			}
			if v != nil {
				a.heardTimeout = a.heardTimeout || v.Kind == VerdictTimeout
				s.stepOnly(a, Input{Kind: InMsg, Now: s.now, Seat: uint8(b), At: s.now, Msg: &Msg{Type: MsgVerdict, Verdict: v}})
			}
			s.step(a, Input{Kind: InSynced, Now: s.now, Seat: uint8(b), At: s.now, Asked: asked, Length: n})
		})
	})
}

// stepOnly steps in without Ready unless the core says the batch must
// end (a verdict or an error): a sync answer's entries are one batch.
func (s *sim) stepOnly(seat *simSeat, in Input) {
	if seat.done || seat.core == nil {
		return
	}
	s.steps++
	if !seat.core.Step(in) {
		s.carry(seat, seat.core.Ready())
	}
}

func (s *sim) step(seat *simSeat, in Input) {
	if seat.done || seat.core == nil {
		return
	}
	s.steps++
	seat.core.Step(in)
	s.carry(seat, seat.core.Ready())
}

// carry carries out a Ready as the driver does.
func (s *sim) carry(seat *simSeat, rd Ready) {
	if rd.MarkSigned {
		seat.disk.signed = true
	}
	seat.disk.entries = append(seat.disk.entries, rd.Entries...)
	if s.onApplied != nil {
		for _, e := range rd.Entries {
			s.onApplied(seat.id, e)
		}
	}
	if rd.Save != nil {
		seat.disk.verdict = rd.Save
	}
	for _, f := range rd.Frames {
		for b := range s.seats {
			if b != int(seat.id) {
				s.send(seat, b, f)
			}
		}
	}
	for _, r := range rd.Syncs {
		s.syncReq(seat, int(r.Seat), r.From)
	}
	for _, t := range rd.Timers {
		s.onSeat(seat, t.After, func() { s.step(seat, Input{Kind: InTimer, Now: s.now, Timer: t}) })
	}
	if rd.StopAuthor && seat.author != 0 {
		tok := seat.author
		seat.author = 0
		s.onSeat(seat, time.Millisecond, func() {
			s.step(seat, Input{Kind: InAuthored, Now: s.now, Pos: ^uint64(0), Err: context.Canceled})
		})
		_ = tok
	}
	if rd.Author {
		s.seq++
		tok := s.seq
		seat.author = tok
		pos := rd.AuthorPos
		s.onSeat(seat, s.cfg.think(s.rng, seat.id, pos), func() {
			if seat.author != tok {
				return
			}
			seat.author = 0
			if s.onAuthored != nil {
				s.onAuthored(seat.id, pos)
			}
			// The body names the run: a seat restarted signs another
			// entry than it did before (a player choosing anew).
			s.step(seat, Input{Kind: InAuthored, Now: s.now, Pos: pos, Body: body(pos, byte(seat.runs))})
		})
	}
	if rd.Err != nil || rd.Outcome != nil {
		seat.done, seat.out, seat.err = true, rd.Outcome, rd.Err
		seat.ended = s.now
		s.logf("seat %d ends: %v %s", seat.id, rd.Err, outcomeString(rd.Outcome))
		// The program answers syncs a moment longer, then exits.
		s.onSeat(seat, 2*time.Second, func() { seat.gone = true })
	}
}

func outcomeString(o *Outcome) string {
	if o == nil {
		return ""
	}
	if o.Verdict != nil {
		return fmt.Sprintf("%d entries, %v", o.Entries, o.Verdict)
	}
	return fmt.Sprintf("%d entries, unconfirmed %v, later %d", o.Entries, o.Unconfirmed, len(o.Later))
}

// start runs seat's program: a core on its disk, then Start.
func (s *sim) start(seat *simSeat) {
	seat.up, seat.done, seat.gone, seat.out, seat.err = true, false, false, nil, nil
	seat.author = 0
	seat.runs++
	clear(seat.syncing)
	c, err := New(Config{Roster: s.roster, Self: seat.id, SignKey: s.keys[seat.id],
		Replica: &counter{seats: s.cfg.seats, limit: s.cfg.limit},
		Timeout: s.cfg.timeout, Tick: s.cfg.tick, Signed: seat.disk.signed}, seat.disk.entries)
	if err != nil {
		s.t.Fatalf("seed %d: seat %d restarts: %v", s.seed, seat.id, err)
	}
	seat.core = c
	if out, err := c.CheckStored(seat.disk.verdict); err != nil || out != nil {
		seat.done, seat.out, seat.err = true, out, err
		return
	}
	s.carry(seat, c.Start(s.now))
	var tick func()
	tick = func() {
		s.step(seat, Input{Kind: InTick, Now: s.now})
		if !seat.done {
			s.onSeat(seat, s.cfg.tick, tick)
		}
	}
	s.onSeat(seat, time.Duration(s.rng.Int64N(int64(s.cfg.tick))), tick)
}

// crash stops seat's program now; it restarts after down, on its disk
// with the last lose entries lost (a write lost with the crash).
func (s *sim) crash(seat *simSeat, down time.Duration, lose int) {
	seat.up = false
	seat.epoch++
	seat.core = nil
	lose = min(lose, len(seat.disk.entries))
	seat.disk.entries = seat.disk.entries[:len(seat.disk.entries)-lose]
	s.logf("seat %d crashes, down %v, %d entries lost", seat.id, down, lose)
	s.after(down, func() {
		s.logf("seat %d restarts with %d entries", seat.id, len(seat.disk.entries))
		s.start(seat)
	})
}

// run plays the game until every seat's run has ended, or until limit.
func (s *sim) run(limit time.Duration) {
	for _, seat := range s.seats {
		s.start(seat)
	}
	if s.cfg.setup != nil {
		s.cfg.setup(s)
	}
	end := s.now.Add(limit)
	for s.q.Len() > 0 {
		if s.allDone() {
			return
		}
		e := heap.Pop(&s.q).(*simEvent)
		if e.at.After(end) {
			break
		}
		s.now = e.at
		e.fn()
	}
	if !s.allDone() {
		s.fail("the table did not finish within %v", limit)
	}
}

func (s *sim) allDone() bool {
	for _, seat := range s.seats {
		if !seat.done {
			return false
		}
	}
	return true
}

func (s *sim) fail(format string, args ...any) {
	s.t.Helper()
	msg := fmt.Sprintf(format, args...)
	if testing.Verbose() || *simSeed != 0 {
		s.t.Logf("trace of seed %d:\n%s", s.seed, strings.Join(s.trace, "\n"))
	}
	s.t.Errorf("seed %d: %s (replay: go test ./p2p/roomcore -run '%s' -sim.seed=%d -v)", s.seed, msg, s.t.Name(), s.seed)
}

// finalLog is seat's game log: its entries up to the outcome's end.
func (s *sim) finalLog(seat *simSeat) []ledger.Hash {
	if seat.core == nil {
		return nil
	}
	entries, _ := seat.core.Log()
	n := End(seat.core.Verdict(), len(entries))
	var out []ledger.Hash
	for _, e := range entries[:n] {
		out = append(out, e.Hash())
	}
	return out
}

// checkFinishedAlike checks that every seat finished the whole game, with
// no verdict and no error, and that all hold the same log.
func (s *sim) checkFinishedAlike() {
	s.t.Helper()
	first := s.finalLog(s.seats[0])
	for _, seat := range s.seats {
		if seat.err != nil || seat.out == nil || seat.out.Verdict != nil || seat.out.Entries != s.cfg.limit {
			s.fail("seat %d ended with %v, %s; want the whole game of %d entries, no verdict", seat.id, seat.err, outcomeString(seat.out), s.cfg.limit)
			return
		}
		if got := s.finalLog(seat); !slices.Equal(got, first) {
			s.fail("seat %d's log (%d entries) differs from seat 0's (%d)", seat.id, len(got), len(first))
			return
		}
	}
}

// forSeeds runs f for each seed of a simulation test (or the one given
// with -sim.seed), and reports the runs and the simulated time.
func forSeeds(t *testing.T, runs int, f func(t *testing.T, seed uint64) *sim) {
	if *simRuns > 0 {
		runs = *simRuns
	}
	seeds := make([]uint64, 0, runs)
	if *simSeed != 0 {
		seeds = append(seeds, *simSeed)
	} else {
		for i := range runs {
			seeds = append(seeds, uint64(i+1))
		}
	}
	began := time.Now()
	var simulated time.Duration
	steps := 0
	for _, seed := range seeds {
		s := f(t, seed)
		simulated += s.now.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		steps += s.steps
		if t.Failed() && *simSeed == 0 {
			return
		}
	}
	t.Logf("%d seeds, %v simulated, %d steps, in %v", len(seeds), simulated.Round(time.Second), steps, time.Since(began).Round(time.Millisecond))
}

// humanThink: a seat thinks between lo and hi over each entry.
func humanThink(lo, hi time.Duration) func(*rand.Rand, uint8, uint64) time.Duration {
	return func(rng *rand.Rand, _ uint8, _ uint64) time.Duration {
		return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
	}
}

// TestSimLossyNetwork: over links that lose 0 to 10% of frames and of
// sync answers, and reorder frames (a jitter of up to 300 ms), with no
// other fault, every seat finishes the whole game with the same log and
// no verdict. (A loss here is a whole frame or answer, not a packet that
// the transport sends again: with up to 20%, 1 seed of 1000, at two
// seats, lost an entry and every sync answer for it for 20 s, and its
// author was timed out.)
func TestSimLossyNetwork(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 1))
		cfg := simConfig{seats: 2 + rng.IntN(6), limit: 30, timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			think: humanThink(100*time.Millisecond, 3*time.Second), delay: 5 * time.Millisecond,
			jitter: time.Duration(rng.IntN(300)) * time.Millisecond, reorder: true, loss: rng.Float64() * 0.1}
		s := newSim(t, seed, cfg)
		s.run(time.Hour)
		s.checkFinishedAlike()
		return s
	})
}

// TestSimBlackoutShorterThanMoveTime is issue 29's first case, over many
// seeds: a seat is cut off from every other seat for 5 s up to the move
// time, 1 to 10 s after its own move (once the others have it), while the others think 12 to 15 s
// each (so it is not due while away), over links losing up to 5% of
// frames. Its timer runs out while it is away; when it comes back it
// hears echoes of entries it misses, fetches them and plays on: a
// blackout shorter than the move time gives no verdict, and every seat
// ends the whole game with the same log.
func TestSimBlackoutShorterThanMoveTime(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 2))
		n := 3 + rng.IntN(4)
		const timeout = 20 * time.Second
		victim := uint8(rng.IntN(n))
		first := uint64(n) + uint64(victim) // the victim's second entry
		// After its entry reached the others (as in the issue: 8 s after).
		start := time.Second + time.Duration(rng.Int64N(int64(9*time.Second)))
		length := 5*time.Second + time.Duration(rng.Int64N(int64(timeout-5*time.Second)))
		cfg := simConfig{seats: n, limit: uint64(4 * n), timeout: timeout, tick: 500 * time.Millisecond,
			think: humanThink(12*time.Second, 15*time.Second), delay: 10 * time.Millisecond,
			jitter: 50 * time.Millisecond, loss: rng.Float64() * 0.05}
		s := newSim(t, seed, cfg)
		s.onAuthored = func(seat uint8, pos uint64) {
			if seat == victim && pos == first {
				s.after(start, func() { s.cut(int(victim), -1, length) })
			}
		}
		s.run(time.Hour)
		s.checkFinishedAlike()
		return s
	})
}

// TestSimComebackBlamesNobody: as TestSimBlackoutShorterThanMoveTime,
// with blackouts up to twice the move time, at tables of 4 to 7 seats
// whose other seats, thinking 14 to 15 s each, do not reach the seat cut
// off before it is back: the seat that comes back never blames an honest
// seat (it declares nothing while away, and fetches what it missed), and
// no seat blames it; every seat ends the whole game with the same log.
func TestSimComebackBlamesNobody(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 4 + rng.IntN(4)
		const timeout = 20 * time.Second
		victim := uint8(rng.IntN(n))
		first := uint64(n) + uint64(victim)
		start := time.Second + time.Duration(rng.Int64N(int64(time.Second)))
		// Back before it is due again: the n-1 others think at least 14 s.
		longest := min(2*timeout, time.Duration(n-1)*14*time.Second-start-time.Second)
		length := 5*time.Second + time.Duration(rng.Int64N(int64(longest-5*time.Second)))
		cfg := simConfig{seats: n, limit: uint64(3 * n), timeout: timeout, tick: 500 * time.Millisecond,
			think: humanThink(14*time.Second, 15*time.Second), delay: 10 * time.Millisecond,
			jitter: 50 * time.Millisecond, loss: rng.Float64() * 0.05}
		s := newSim(t, seed, cfg)
		s.onAuthored = func(seat uint8, pos uint64) {
			if seat == victim && pos == first {
				s.after(start, func() { s.cut(int(victim), -1, length) })
			}
		}
		s.run(time.Hour)
		s.checkFinishedAlike()
		return s
	})
}

// TestSimCrashRestart: a seat crashes within 2 s after its own move and
// restarts from its state directory 1 to 20 s later, having lost up to
// three of its last writes (its own entry among them: a disk that lost a
// flushed write), at tables of 3 to 6 seats whose others think 8 to 10 s
// each; restarted, it answers within 100 ms, before the others' answers
// may have come. It asks the others what it signed before it signs again, so it
// never equivocates, and nobody is blamed: every seat ends the whole game
// with the same log.
func TestSimCrashRestart(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 4))
		n := 3 + rng.IntN(4)
		const timeout = 30 * time.Second
		victim := uint8(rng.IntN(n))
		first := uint64(n) + uint64(victim)
		at := time.Duration(rng.Int64N(int64(2 * time.Second)))
		down := time.Second + time.Duration(rng.Int64N(int64(19*time.Second)))
		lose := rng.IntN(4)
		var s *sim
		human := humanThink(8*time.Second, 10*time.Second)
		think := func(rng *rand.Rand, seat uint8, pos uint64) time.Duration {
			if seat == victim && s.seats[victim].runs > 1 {
				// Restarted, a bot answers at once: before the others
				// can tell it what it signed (issue 29, item 3).
				return time.Duration(rng.Int64N(int64(100 * time.Millisecond)))
			}
			return human(rng, seat, pos)
		}
		cfg := simConfig{seats: n, limit: uint64(3 * n), timeout: timeout, tick: 500 * time.Millisecond,
			think: think, delay: 10 * time.Millisecond, jitter: 50 * time.Millisecond, loss: rng.Float64() * 0.05}
		s = newSim(t, seed, cfg)
		crashed := false
		s.onAuthored = func(seat uint8, pos uint64) {
			if seat == victim && pos == first && !crashed {
				crashed = true
				s.after(at, func() { s.crash(s.seats[victim], down, lose) })
			}
		}
		s.run(time.Hour)
		if !crashed {
			s.fail("seat %d never authored entry %d: no crash", victim, first)
		}
		s.checkFinishedAlike()
		return s
	})
}

// TestSimPairPartitions: at tables of 3 to 7 seats, one to four pairs of
// seats, one pair after another, cannot reach each other for 1 s up to
// three times the move time (a partition between two seats, not around
// one), over links losing up to 10% of frames. Each seat of a pair learns the
// other's entries from the other seats (their echoes, then a sync), so
// nobody is blamed: every seat ends the whole game with the same log.
func TestSimPairPartitions(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 5))
		n := 3 + rng.IntN(5)
		const timeout = 20 * time.Second
		cfg := simConfig{seats: n, limit: uint64(5 * n), timeout: timeout, tick: 500 * time.Millisecond,
			think: humanThink(100*time.Millisecond, 3*time.Second), delay: 5 * time.Millisecond,
			jitter: 30 * time.Millisecond, loss: rng.Float64() * 0.1}
		s := newSim(t, seed, cfg)
		// One partition at a time: two at once could cut a seat off
		// from every other (a blackout, TestSimComebackBlamesNobody).
		at := time.Duration(0)
		for range 1 + rng.IntN(4) {
			a := rng.IntN(n)
			b := (a + 1 + rng.IntN(n-1)) % n
			at += time.Duration(rng.Int64N(int64(20 * time.Second)))
			length := time.Second + time.Duration(rng.Int64N(int64(3*timeout-time.Second)))
			s.after(at, func() { s.cut(a, b, length) })
			at += length
		}
		s.run(time.Hour)
		s.checkFinishedAlike()
		return s
	})
}

// stopForGood makes victim stop for good when it is asked for its entry
// at due (its program killed before it authors): it does not come back,
// and is not waited for. It returns the scenario's think function, which
// otherwise thinks 100 ms to 3 s; stopped, if set, is called then.
func stopForGood(s **sim, victim uint8, due uint64, stopped func()) func(*rand.Rand, uint8, uint64) time.Duration {
	return func(rng *rand.Rand, seat uint8, pos uint64) time.Duration {
		if seat == victim && pos == due {
			(*s).after(0, func() {
				(*s).crash((*s).seats[victim], 365*24*time.Hour, 0)
				(*s).seats[victim].done = true // not waited for: it does not come back
				if stopped != nil {
					stopped()
				}
			})
		}
		return time.Duration(100+rng.IntN(2900)) * time.Millisecond
	}
}

// checkTimedOutAlike checks that every seat but victim ended with a
// timeout verdict naming victim at entry due and the same log before it,
// but for a seat that ended with an error wrapping ErrNoContact, blaming
// nobody, when noContact allows it for that seat. It returns how many
// did.
func (s *sim) checkTimedOutAlike(victim uint8, due uint64, noContact func(seat *simSeat) bool) int {
	s.t.Helper()
	var first []ledger.Hash
	lost := 0
	for _, seat := range s.seats {
		if seat.id == victim {
			continue
		}
		if errors.Is(seat.err, ErrNoContact) && noContact(seat) {
			lost++
			continue
		}
		v := seat.core.Verdict()
		if seat.err != nil || v == nil || v.Kind != VerdictTimeout || v.Seat != victim || v.Pos != due {
			s.fail("seat %d ended with %v, %s; want a timeout of seat %d at entry %d", seat.id, seat.err, outcomeString(seat.out), victim, due)
			return lost
		}
		got := s.finalLog(seat)
		if first == nil {
			first = got
		}
		if uint64(len(got)) != due || !slices.Equal(got, first) {
			s.fail("seat %d's log (%d entries) differs from the others' (%d), or does not end before entry %d", seat.id, len(got), len(first), due)
			return lost
		}
	}
	return lost
}

// TestSimSilentSeatTimedOutAlike: a seat stops for good when it is due
// (its program killed before it authors), at tables of 2 to 7 seats over
// links losing up to 10% of frames, the others leaving 2 s after their
// game ends (as the command does): every other seat ends with a timeout
// verdict naming it at that position and the same log before it. The
// one exception is a seat that no frame carrying another seat's timeout
// verdict reached (lost, as were its syncs, until those seats had left):
// its own timer ran out as the others left and it could not check with
// any of them that the entry is missing; it ends with an error wrapping
// ErrNoContact, blaming nobody (3 seats of about 3,550 over 1,000 seeds;
// 50, most at three seats, before a seat counted the others' timeout
// verdicts for the position it waits at). No seat blames another.
func TestSimSilentSeatTimedOutAlike(t *testing.T) {
	noContact := 0
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 6))
		n := 2 + rng.IntN(6)
		victim := uint8(rng.IntN(n))
		due := uint64(n)*uint64(1+rng.IntN(3)) + uint64(victim)
		cfg := simConfig{seats: n, limit: uint64(5 * n), timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			delay: 5 * time.Millisecond, jitter: 30 * time.Millisecond, loss: rng.Float64() * 0.1}
		var s *sim
		cfg.think = stopForGood(&s, victim, due, nil)
		s = newSim(t, seed, cfg)
		s.run(time.Hour)
		noContact += s.checkTimedOutAlike(victim, due, func(seat *simSeat) bool { return !seat.heardTimeout })
		return s
	})
	t.Logf("%d seats ended with ErrNoContact, no other seat's timeout verdict having reached them", noContact)
}

// TestSimSilentSeatLateTimers: a seat stops for good when it is due, at
// tables of 3 to 7 seats, and the entry before reached some of the other
// seats late: they were cut off from every seat for 1 to 7 s from the
// moment it was authored (over links losing up to 10% of frames until the
// seat stops; none after, so that every verdict sent arrives). Their
// timers started up to 9 s after the others', which declared the seat
// silent and left 2 s later, before the late seats' timers ran out and
// with nobody left to answer their syncs. They ended with ErrNoContact
// (about half the seeds); every seat must end with the same timeout
// verdict naming the stopped seat, and the same log.
func TestSimSilentSeatLateTimers(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 3 + rng.IntN(5)
		victim := uint8(rng.IntN(n))
		due := uint64(n)*uint64(1+rng.IntN(3)) + uint64(victim)
		before := uint8((int(victim) + n - 1) % n) // the author of entry due-1
		var late []int
		for seat := range n {
			if uint8(seat) != victim && uint8(seat) != before && rng.IntN(2) == 0 {
				late = append(late, seat)
			}
		}
		if len(late) == 0 {
			late = append(late, (int(victim)+1)%n)
		}
		lengths := make([]time.Duration, len(late))
		for i := range late {
			lengths[i] = time.Second + time.Duration(rng.Int64N(int64(6*time.Second)))
		}
		cfg := simConfig{seats: n, limit: uint64(5 * n), timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			delay: 5 * time.Millisecond, jitter: 30 * time.Millisecond, loss: rng.Float64() * 0.1}
		var s *sim
		cfg.think = stopForGood(&s, victim, due, func() { s.cfg.loss = 0 })
		s = newSim(t, seed, cfg)
		s.onAuthored = func(seat uint8, pos uint64) {
			if pos == due-1 {
				for i, l := range late {
					s.cut(l, -1, lengths[i])
				}
			}
		}
		s.run(time.Hour)
		s.checkTimedOutAlike(victim, due, func(*simSeat) bool { return false })
		return s
	})
}

// TestSimSilentSeatLongLate: as TestSimSilentSeatLateTimers at tables
// of 5 to 7 seats, but one seat got the entry before the stopped seat's
// 11 to 17 s late (cut off from every seat from the moment it was
// authored): the others declared and left more than the contact window
// (20 ticks) before its own timer ran out, so that by then it counts
// itself cut off and declares nothing; it ended with ErrNoContact. Every
// other seat declared, more than half the table: it adopts their verdict
// at once, its own timer not yet run out.
func TestSimSilentSeatLongLate(t *testing.T) {
	forSeeds(t, 100, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 8))
		n := 5 + rng.IntN(3)
		victim := uint8(rng.IntN(n))
		due := uint64(n)*uint64(1+rng.IntN(3)) + uint64(victim)
		late := (int(victim) + 1 + rng.IntN(n-2)) % n // neither the victim nor the author of entry due-1
		length := 11*time.Second + time.Duration(rng.Int64N(int64(6*time.Second)))
		cfg := simConfig{seats: n, limit: uint64(5 * n), timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			delay: 5 * time.Millisecond, jitter: 30 * time.Millisecond, loss: rng.Float64() * 0.1}
		var s *sim
		cfg.think = stopForGood(&s, victim, due, func() { s.cfg.loss = 0 })
		s = newSim(t, seed, cfg)
		s.onAuthored = func(seat uint8, pos uint64) {
			if pos == due-1 {
				s.cut(late, -1, length)
			}
		}
		s.run(time.Hour)
		s.checkTimedOutAlike(victim, due, func(*simSeat) bool { return false })
		return s
	})
}

// TestSimLostEntryFetchedSoon: at a fast table (bots: 1 to 20 ms a move)
// over links that lose 2% of frames, in order (streams), an entry whose
// copy from its author is lost reaches every seat through the echoes'
// fetch within a few fetch delays of its authoring (under 0.9 s; 0.48 s
// over 100 seeds), not a tick's sync a second later: the next author, whom the table waits for (so no other
// echo comes), used to wait for that sync when the echo of the missing
// entry came while the fetch check of the one before was armed (issue
// 28's late entries at the next author).
func TestSimLostEntryFetchedSoon(t *testing.T) {
	var worst time.Duration
	forSeeds(t, 50, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 9))
		cfg := simConfig{seats: 4 + rng.IntN(3), limit: 80, timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			think: humanThink(time.Millisecond, 20*time.Millisecond), delay: 2 * time.Millisecond,
			jitter: 3 * time.Millisecond, loss: 0.02}
		s := newSim(t, seed, cfg)
		authored := map[uint64]time.Time{}
		s.onAuthored = func(_ uint8, pos uint64) {
			if _, ok := authored[pos]; !ok {
				authored[pos] = s.now
			}
		}
		late := time.Duration(0)
		s.onApplied = func(seat uint8, e *ledger.Entry) {
			if at, ok := authored[e.Pos]; ok && s.now.Sub(at) > late {
				late = s.now.Sub(at)
				s.logf("LATE: seat %d applied entry %d %v after it was authored", seat, e.Pos, late)
			}
		}
		s.run(time.Hour)
		s.checkFinishedAlike()
		worst = max(worst, late)
		if late > 900*time.Millisecond {
			s.fail("an entry reached a seat %v after it was authored: it waited for a tick's sync", late)
		}
		return s
	})
	t.Logf("the latest entry reached its last seat %v after it was authored", worst)
}

// TestSimFramesPerEntry: at a fast table of 13 seats (bots moving in 1
// to 8 ms, a LAN's delay), with no fault, the seats send at most 1.5
// frames per entry per receiver, all kinds counted (the entry, echoes,
// dones, syncs and their answers): each entry reaches each receiver once
// and the acknowledgements are batched (issue 28: 4.1 packets per entry
// per receiver).
func TestSimFramesPerEntry(t *testing.T) {
	var worst float64
	forSeeds(t, 10, func(t *testing.T, seed uint64) *sim {
		const n = 13
		cfg := simConfig{seats: n, limit: 300, timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			think: humanThink(time.Millisecond, 8*time.Millisecond), delay: 300 * time.Microsecond,
			jitter: 400 * time.Microsecond}
		s := newSim(t, seed, cfg)
		s.run(time.Hour)
		s.checkFinishedAlike()
		per, kinds := s.sent.perEntry(int(cfg.limit), n-1)
		if testing.Verbose() || seed == 1 {
			t.Logf("seed %d: %.3f frames per entry per receiver: %s", seed, per, kinds)
		}
		worst = max(worst, per)
		if per > 1.5 {
			s.fail("%.3f frames per entry per receiver (%s); want at most 1.5", per, kinds)
		}
		return s
	})
	t.Logf("at most %.3f frames per entry per receiver", worst)
}

// TestSimEndIsPrompt: at a fast table (4 to 13 seats, bots moving in 1
// to 8 ms, a LAN's delay), with no fault, every seat's run ends within
// 25 ms of the game's last entry reaching the last seat: a seat sends
// its echo of the last entry at once (its state hash after it, which
// every other seat needs before it says done), not after EchoDelay as
// during play, where the echo waits for later ones to replace it (issue
// 28: every seat of the 13-process LAN waited 57–99 ms at the end).
func TestSimEndIsPrompt(t *testing.T) {
	var worst time.Duration
	forSeeds(t, 20, func(t *testing.T, seed uint64) *sim {
		rng := rand.New(rand.NewPCG(seed, 28))
		cfg := simConfig{seats: 4 + rng.IntN(10), limit: 60, timeout: 20 * time.Second, tick: 500 * time.Millisecond,
			think: humanThink(time.Millisecond, 8*time.Millisecond), delay: 300 * time.Microsecond,
			jitter: 400 * time.Microsecond}
		s := newSim(t, seed, cfg)
		var last time.Time // the last entry applied by the last seat
		s.onApplied = func(_ uint8, e *ledger.Entry) {
			if e.Pos == cfg.limit-1 {
				last = s.now
			}
		}
		s.run(time.Hour)
		s.checkFinishedAlike()
		for _, seat := range s.seats {
			wait := seat.ended.Sub(last)
			worst = max(worst, wait)
			if wait > 25*time.Millisecond {
				s.fail("seat %d ended %v after the last entry reached every seat; want at most 25ms", seat.id, wait)
				break
			}
		}
		return s
	})
	t.Logf("the last seat ended %v after the last entry reached every seat", worst)
}
