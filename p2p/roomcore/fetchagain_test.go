package roomcore

import (
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// TestFetchCheckRearmsForTheNextMissingEntry is the stall of issue 28
// (the next author received entries 1.2–1.4 s late while every other
// seat had them at once): an echo of entry p arms the fetch check; entry
// p comes, and seat 3's echo of entry p+1 arrives while the check is
// still armed (so it arms nothing); entry p+1's own copy is held up on
// its author's stream. When the check runs, p is there and it did
// nothing: with this seat due next, no other echo comes (the table waits
// for it), and p+1 was fetched only by the tick's sync of a stalled
// position, two ticks (1 s) later. The check now fetches p+1 from the
// seat that reported it, one FetchDelay later.
func TestFetchCheckRearmsForTheNextMissingEntry(t *testing.T) {
	const n, limit = 4, 8
	keys := seatKeys(n)
	roster := testRoster(keys)
	game, _ := roster.GameID()
	order := func(p uint64) uint8 { return [...]uint8{1, 2, 0, 3, 1, 2, 0, 3}[p] }
	log := honestLog(keys, game, limit, order)
	other := &counter{seats: n, limit: limit, order: order}
	var states []ledger.Hash
	for _, e := range log[:2] {
		if err := other.Apply(e); err != nil {
			t.Fatal(err)
		}
		states = append(states, other.StateHash())
	}
	c, err := New(Config{Roster: roster, Self: 0, SignKey: keys[0], Replica: &counter{seats: n, limit: limit, order: order},
		Tick: 500 * time.Millisecond, Timeout: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	c.Start(now)
	step := func(in Input) Ready {
		in.Now, in.At = now, now
		c.Step(in)
		return c.Ready()
	}
	echo := func(pos uint64) Input {
		return Input{Kind: InMsg, Seat: 3, Msg: &Msg{Type: MsgEcho, Pos: pos, Hash: log[pos].Hash(), State: states[pos]}}
	}
	rd := step(echo(0))
	if len(rd.Timers) != 1 || rd.Timers[0].Kind != TimerFetchCheck || rd.Timers[0].Pos != 0 {
		t.Fatalf("the echo of entry 0 armed %+v", rd.Timers)
	}
	check := rd.Timers[0]
	now = now.Add(10 * time.Millisecond)
	if rd := step(Input{Kind: InMsg, Seat: 1, Msg: &Msg{Type: MsgEntry, Entry: log[0]}}); len(rd.Entries) != 1 {
		t.Fatal("entry 0 not applied")
	}
	now = now.Add(10 * time.Millisecond)
	if rd := step(echo(1)); len(rd.Timers) != 0 || len(rd.Syncs) != 0 {
		t.Fatalf("the echo of entry 1, while the check is armed: timers %+v, syncs %+v", rd.Timers, rd.Syncs)
	}
	now = now.Add(FetchDelay)
	rd = step(Input{Kind: InTimer, Timer: check})
	if len(rd.Syncs) != 0 {
		t.Fatalf("the check for entry 0, which came: syncs %+v", rd.Syncs)
	}
	if len(rd.Timers) != 1 || rd.Timers[0].Kind != TimerFetchCheck || rd.Timers[0].Pos != 1 || rd.Timers[0].Seat != 3 {
		t.Fatalf("entry 1, reported by seat 3, is still missing: the check armed %+v; want a check of entry 1 from seat 3", rd.Timers)
	}
	now = now.Add(FetchDelay)
	rd = step(Input{Kind: InTimer, Timer: rd.Timers[0]})
	if len(rd.Syncs) != 1 || rd.Syncs[0] != (SyncRequest{Seat: 3, From: 1}) {
		t.Fatalf("the second check: syncs %+v; want entry 1 fetched from seat 3", rd.Syncs)
	}
}

// TestFetchAsksTheAuthorAndEntriesAhead: with echoes rare at a fast
// table (EchoDelay), a seat missing entry 0 learns it exists from the
// one seat that echoed it, or from entry 1 (which chains onto it). The
// echo's fetch goes to that seat, and when it does not answer in
// RefetchDelay (its sync request lost, or still in flight) to entry 0's
// author, which signed it and echoes none of its own entries: before,
// no other seat had reported it, and the entry waited for the tick's
// sync of a stalled position. Entry 1 arriving ahead arms the fetch
// check too, RefetchDelay later (entries of different authors cross on
// a busy machine).
func TestFetchAsksTheAuthorAndEntriesAhead(t *testing.T) {
	const n, limit = 4, 8
	b := newBench(t, n, 3, 0, limit)
	c := b.core
	now := time.Now()
	c.Start(now)
	step := func(in Input) Ready {
		in.Now, in.At = now, now
		c.Step(in)
		return c.Ready()
	}
	other := &counter{seats: n, limit: limit}
	if err := other.Apply(b.log[0]); err != nil {
		t.Fatal(err)
	}
	rd := step(Input{Kind: InMsg, Seat: 1, Msg: &Msg{Type: MsgEcho, Pos: 0, Hash: b.log[0].Hash(), State: other.StateHash()}})
	if len(rd.Timers) != 1 || rd.Timers[0].Kind != TimerFetchCheck || rd.Timers[0].Seat != 1 {
		t.Fatalf("the echo of entry 0 armed %+v", rd.Timers)
	}
	now = now.Add(FetchDelay)
	rd = step(Input{Kind: InTimer, Timer: rd.Timers[0]})
	if len(rd.Syncs) != 1 || rd.Syncs[0] != (SyncRequest{Seat: 1, From: 0}) {
		t.Fatalf("the check: syncs %+v; want entry 0 fetched from seat 1", rd.Syncs)
	}
	if len(rd.Timers) != 1 || rd.Timers[0].Kind != TimerFetchCheck || rd.Timers[0].Seat != 0 || rd.Timers[0].After != RefetchDelay {
		t.Fatalf("the check armed %+v; want a check from seat 0, entry 0's author, in RefetchDelay", rd.Timers)
	}
	now = now.Add(RefetchDelay)
	rd = step(Input{Kind: InTimer, Timer: rd.Timers[0]})
	if len(rd.Syncs) != 1 || rd.Syncs[0] != (SyncRequest{Seat: 0, From: 0}) {
		t.Fatalf("the second check: syncs %+v; want entry 0 fetched from its author, seat 0", rd.Syncs)
	}

	// Entry 1 ahead, no echo.
	b = newBench(t, n, 3, 0, limit)
	c = b.core
	c.Start(now)
	rd = step(Input{Kind: InMsg, Seat: 1, Msg: &Msg{Type: MsgEntry, Entry: b.log[1]}})
	if len(rd.Timers) != 1 || rd.Timers[0] != (Timer{Kind: TimerFetchCheck, After: RefetchDelay, Seat: 1, Pos: 0}) {
		t.Fatalf("entry 1 ahead of the missing entry 0 armed %+v; want a check of entry 0 from seat 1 in RefetchDelay", rd.Timers)
	}
}
