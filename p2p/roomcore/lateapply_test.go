package roomcore

import (
	"bytes"
	"crypto/ed25519"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// TestLateApplyLogged: an entry applied more than lateApply after this
// seat first learnt it exists (another seat's echo of it) is logged with
// the timestamps that say where it was held; one applied promptly is not.
func TestLateApplyLogged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before time.Duration // the echo reached this node this long before the entry
		late   bool
	}{
		{"echo 1.5 s before the entry", 1500 * time.Millisecond, true},
		{"echo 100 ms before the entry", 100 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order := func(uint64) uint8 { return 1 }
			keys, c, buf := loggedCore(t, 3, 5, order)
			e := &ledger.Entry{Pos: 0, Seat: 1, Prev: c.Game(), Body: body(0)}
			e.Sign(c.Game(), keys[1])
			// Seat 2's state after the entry, from a replica of its own.
			other := &counter{seats: 3, limit: 5, order: order}
			if err := other.Apply(e); err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			echo := &Msg{Type: MsgEcho, Pos: 0, Hash: e.Hash(), State: other.StateHash()}
			if v, err := c.handle(Input{Kind: InMsg, Seat: 2, Msg: echo, At: now.Add(-tc.before)}); v != nil || err != nil {
				t.Fatalf("echo: %v %v", v, err)
			}
			c.now = now
			if v, err := c.handle(Input{Kind: InMsg, Seat: 1, Msg: &Msg{Type: MsgEntry, Entry: e, State: other.StateHash()}, At: now}); v != nil || err != nil {
				t.Fatalf("entry: %v %v", v, err)
			}
			if got, _ := c.Log(); len(got) != 1 {
				t.Fatalf("%d entries applied, want 1", len(got))
			}
			logged := strings.Contains(buf.String(), "entry applied late")
			if logged != tc.late {
				t.Fatalf("logged late: %v, want %v; log:\n%s", logged, tc.late, buf.String())
			}
			if tc.late {
				for _, want := range []string{"pos=0", "seat=1", "first_via=echo", "first_from=2", "received_from=1", "prev_applied_us=0", "received_us=" + strconv.FormatInt(now.UnixMicro(), 10)} {
					if !strings.Contains(buf.String(), want) {
						t.Errorf("late log lacks %q:\n%s", want, buf.String())
					}
				}
			}
		})
	}
}

// loggedCore makes seat 0's core at a table of seats, its replica a
// counter to limit with order, logging to the buffer it returns.
func loggedCore(t *testing.T, seats int, limit uint64, order func(uint64) uint8) ([]ed25519.PrivateKey, *Core, *bytes.Buffer) {
	t.Helper()
	keys := seatKeys(seats)
	buf := new(bytes.Buffer)
	c, err := New(Config{Roster: testRoster(keys), Self: 0, SignKey: keys[0],
		Replica: &counter{seats: seats, limit: limit, order: order},
		Log:     slog.New(slog.NewTextHandler(buf, nil))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return keys, c, buf
}

// TestMissingDoneReasons: when EndWait runs out, each seat whose done did
// not come is listed with the cause this seat can see, and a seat whose
// done came is not.
func TestMissingDoneReasons(t *testing.T) {
	keys, c, _ := loggedCore(t, 4, 1, func(uint64) uint8 { return 1 })
	e := &ledger.Entry{Pos: 0, Seat: 1, Prev: c.Game(), Body: body(0)}
	e.Sign(c.Game(), keys[1])
	if v, err := c.handle(Input{Kind: InMsg, Seat: 1, Msg: &Msg{Type: MsgEntry, Entry: e}}); v != nil || err != nil {
		t.Fatalf("entry: %v %v", v, err)
	}
	final := c.cfg.Replica.StateHash()
	// Seat 1 said done; seat 2 said done with another log; seat 3 never did.
	if err := c.onDone(1, 1, final); err != nil {
		t.Fatal(err)
	}
	if err := c.onDone(2, 1, ledger.Hash{9}); err != nil {
		t.Log(err) // a divergence is reported too; not what is tested here
	}
	for _, tc := range []struct {
		missing []uint8
		want    string
	}{
		{nil, "its done never arrived"},
		{[]uint8{3}, "no state hash after the last entry from it either"},
	} {
		why := map[uint8]string{}
		for _, m := range c.MissingDones(tc.missing) {
			why[m.Seat] = m.Why
		}
		if _, ok := why[1]; ok {
			t.Errorf("seat 1 said done, but is listed: %v", why)
		}
		if !strings.Contains(why[2], "said done with 1 entries and another final state") {
			t.Errorf("seat 2's other end not listed: %v", why)
		}
		if !strings.Contains(why[3], tc.want) {
			t.Errorf("seat 3 (missing %v) not listed with %q: %v", tc.missing, tc.want, why)
		}
	}
}

// TestExitWaitLogged: a seat that leaves more than a second after the
// game was over here (the last dones late) logs the wait, with when the
// game was over and when it left; one whose peers said done at once
// does not.
func TestExitWaitLogged(t *testing.T) {
	for _, tc := range []struct {
		after time.Duration // the dones came this long after the last entry
		late  bool
	}{{200 * time.Millisecond, false}, {1500 * time.Millisecond, true}} {
		t.Run(tc.after.String(), func(t *testing.T) {
			keys, c, buf := loggedCore(t, 3, 1, func(uint64) uint8 { return 1 })
			e := &ledger.Entry{Pos: 0, Seat: 1, Prev: c.Game(), Body: body(0)}
			e.Sign(c.Game(), keys[1])
			now := time.Now()
			c.Start(now)
			c.Step(Input{Kind: InMsg, Now: now, Seat: 1, At: now, Msg: &Msg{Type: MsgEntry, Entry: e}})
			if rd := c.Ready(); rd.Outcome != nil || len(rd.Entries) != 1 {
				t.Fatalf("after the last entry: outcome %v, %d entries", rd.Outcome, len(rd.Entries))
			}
			final := c.cfg.Replica.StateHash()
			at := now.Add(tc.after)
			for _, s := range []uint8{1, 2} {
				c.Step(Input{Kind: InMsg, Now: at, Seat: s, At: at, Msg: &Msg{Type: MsgDone, Pos: 1, State: final}})
			}
			rd := c.Ready()
			if rd.Outcome == nil || rd.Outcome.Verdict != nil || len(rd.Outcome.Unconfirmed) != 0 {
				t.Fatalf("the dones did not end the run: %+v", rd.Outcome)
			}
			logged := strings.Contains(buf.String(), "game over; left late")
			if logged != tc.late {
				t.Fatalf("logged the exit wait: %v, want %v; log:\n%s", logged, tc.late, buf.String())
			}
			if tc.late && !strings.Contains(buf.String(), "waited=1.5s") {
				t.Fatalf("the wait is not logged:\n%s", buf.String())
			}
		})
	}
}
