package roomcore

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestEchoWaitsForQuietAndOwnEntryReplacesIt: at a table of 13 where
// the other seats' entries come every 40 ms, a seat holds its echo while
// they keep coming, and sends it EchoMaxDelay after the first one held
// (not every EchoDelay); its own entry replaces the echo it holds (no
// echo goes out before it); once the table is quiet for EchoDelay the
// echo goes out. Before (issue 28) the echo went out EchoDelay after the
// first one held and again before the seat's own entry: 3.2 frames per
// entry per receiver at 13 seats instead of 1.1 (TestSimFramesPerEntry).
func TestEchoWaitsForQuietAndOwnEntryReplacesIt(t *testing.T) {
	const n, self = 13, 12
	b := newBench(t, n, self, 0, 40)
	c := b.core
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	type event struct {
		at time.Time
		in Input
	}
	var events []event
	at := func(d time.Duration, in Input) {
		in.Now = t0.Add(d)
		events = append(events, event{t0.Add(d), in})
	}
	for p := range uint64(12) {
		// Entries 0..8 every 40 ms, 9..11 after a pause of 80 ms.
		d := time.Duration(p) * 40 * time.Millisecond
		if p >= 9 {
			d += 80 * time.Millisecond
		}
		at(d, Input{Kind: InMsg, Seat: uint8(p), Msg: &Msg{Type: MsgEntry, Entry: b.log[p]}, At: t0.Add(d)})
	}
	// The seat authors entry 12 10 ms after it is asked for; entry 13, by
	// seat 0, comes 50 ms later.
	var got []string
	carry := func(rd Ready, now time.Time) {
		for _, f := range rd.Frames {
			m, err := Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			pos := m.Pos
			if m.Type == MsgEntry {
				pos = m.Entry.Pos
			}
			got = append(got, fmt.Sprintf("%s %d at %v", MsgName(m.Type), pos, now.Sub(t0)))
		}
		for _, tm := range rd.Timers {
			at(now.Sub(t0)+tm.After, Input{Kind: InTimer, Timer: tm})
		}
		if rd.Author {
			d := now.Sub(t0) + 10*time.Millisecond
			at(d, Input{Kind: InAuthored, Pos: rd.AuthorPos, Body: body(rd.AuthorPos)})
			e := b.log[rd.AuthorPos+1]
			at(d+50*time.Millisecond, Input{Kind: InMsg, Seat: e.Seat, Msg: &Msg{Type: MsgEntry, Entry: e}, At: t0.Add(d + 50*time.Millisecond)})
		}
	}
	carry(c.Start(t0), t0)
	for len(events) > 0 {
		slices.SortStableFunc(events, func(a, b event) int { return a.at.Compare(b.at) })
		ev := events[0]
		events = events[1:]
		if ev.at.After(t0.Add(2 * time.Second)) {
			break
		}
		c.Step(ev.in)
		carry(c.Ready(), ev.at)
	}
	want := []string{
		"echo 6 at 250ms",   // held from 0 ms while entries kept coming: EchoMaxDelay
		"echo 8 at 370ms",   // entry 8 at 320 ms, then 120 ms of quiet: EchoDelay
		"entry 12 at 530ms", // the own entry, with no echo of 11 before it
		"echo 13 at 630ms",  // the table quiet for EchoDelay after entry 13
	}
	if !slices.Equal(got, want) {
		t.Errorf("frames sent:\n%v\nwant\n%v", got, want)
	}
}

// TestFreshSeatDoesNotSyncAtStart: a seat with an empty log that never
// signed asks nobody for entries when its run starts (at a table of 13,
// 156 sync streams and the connections they dialed, a third of a short
// game's packets: the peers' log streams, which keep what they could not
// deliver, bring it the entries); a seat back with a log, or one that
// signed before, asks every other seat (issue 29's rules need their
// answers).
func TestFreshSeatDoesNotSyncAtStart(t *testing.T) {
	const n = 4
	for _, tc := range []struct {
		name   string
		stored uint64
		signed bool
		want   int
	}{
		{"fresh", 0, false, 0},
		{"signed before, its log lost", 0, true, n - 1},
		{"back with a log", 2, false, n - 1},
	} {
		b := newBench(t, n, 3, tc.stored, 12)
		c := b.open(t, Config{Signed: tc.signed})
		if got := len(c.Start(time.Now()).Syncs); got != tc.want {
			t.Errorf("%s: %d sync requests at the start; want %d", tc.name, got, tc.want)
		}
	}
}
