package p2p

import (
	"bytes"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
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
			ps, room, buf := loggedRoom(t, 3, 5, order)
			frame, e := entryFrame(t, ps[1], room.GameID(), 0, 1, room.GameID(), body(0))
			// Seat 2's state after the entry, from a replica of its own.
			other := &counter{seats: 3, limit: 5, order: order}
			if err := other.Apply(e); err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			echo := mustDecode(t, encodeEcho(0, e.Hash(), other.StateHash()))
			if v, err := room.handle(inbound{seat: 2, msg: echo, at: now.Add(-tc.before)}); v != nil || err != nil {
				t.Fatalf("echo: %v %v", v, err)
			}
			if v, err := room.handle(inbound{seat: 1, msg: mustDecode(t, frame), at: now}); v != nil || err != nil {
				t.Fatalf("entry: %v %v", v, err)
			}
			if got := len(room.Log()); got != 1 {
				t.Fatalf("%d entries applied, want 1", got)
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

// loggedRoom opens peer 0's room at a table of seats mock peers, on a new
// store, its replica a counter to limit with order, and returns the peers,
// the room and the buffer its node logs to. The room and the store are
// closed when the test ends.
func loggedRoom(t *testing.T, seats int, limit uint64, order func(uint64) uint8) ([]*tpeer, *Room, *bytes.Buffer) {
	t.Helper()
	_, ps := mockPeers(t, seats)
	tb := signedTable(t, ps)
	buf := new(bytes.Buffer)
	ps[0].node.log = slog.New(slog.NewTextHandler(buf, nil))
	st, err := store.Create(ps[0].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	room, err := ps[0].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: seats, limit: limit, order: order}, Author: countAuthor})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { room.Close() })
	return ps, room, buf
}

// TestMissingDoneLogged: when EndWait runs out, each seat whose done did
// not come is logged with the cause this seat can see, and a seat whose
// done came is not.
func TestMissingDoneLogged(t *testing.T) {
	ps, room, buf := loggedRoom(t, 4, 1, func(uint64) uint8 { return 1 })
	frame, _ := entryFrame(t, ps[1], room.GameID(), 0, 1, room.GameID(), body(0))
	if v, err := room.handle(inbound{seat: 1, msg: mustDecode(t, frame)}); v != nil || err != nil {
		t.Fatalf("entry: %v %v", v, err)
	}
	final := room.cfg.Replica.StateHash()
	// Seat 1 said done; seat 2 said done with another log; seat 3 never did.
	if err := room.onDone(1, 1, final); err != nil {
		t.Fatal(err)
	}
	if err := room.onDone(2, 1, ledger.Hash{9}); err != nil {
		t.Log(err) // a divergence is reported too; not what is tested here
	}
	for _, tc := range []struct {
		missing []uint8
		want    string
	}{
		{nil, "its done never arrived"},
		{[]uint8{3}, "no state hash after the last entry from it either"},
	} {
		buf.Reset()
		room.logMissingDones(tc.missing)
		out := buf.String()
		if strings.Contains(out, "seat=1 ") {
			t.Errorf("seat 1 said done, but is logged:\n%s", out)
		}
		if !strings.Contains(out, "seat=2 ") || !strings.Contains(out, "said done with 1 entries and another final state") {
			t.Errorf("seat 2's other end not logged:\n%s", out)
		}
		if !strings.Contains(out, "seat=3 ") || !strings.Contains(out, tc.want) {
			t.Errorf("seat 3 (missing %v) not logged with %q:\n%s", tc.missing, tc.want, out)
		}
	}
}
