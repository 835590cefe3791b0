package phoneseat

import (
	"testing"
	"time"

	"github.com/masque-games/masque/engine/seatview"
)

// Another seat answering a claim has its answer window, not the table's
// patience: the page counts down to the end of that window (from when
// this seat began waiting at the position), then to the timeout.
func TestOthersAnswerWindow(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	claim := &seatview.Table{Notices: []seatview.Notice{{Title: "Claim", Text: "alice claims to be the King", Window: "challenge window: bob to answer"}}}
	mine := &seatview.Table{Notices: []seatview.Notice{{Title: "Claim", Text: "alice claims to be the King", Window: "challenge window: your answer", Yours: true}}}
	mark := waitMark{Pos: 9, Since: t0.UnixMilli()}
	for _, tc := range []struct {
		name   string
		t      *seatview.Table
		mark   waitMark
		window time.Duration
		now    time.Time
		want   time.Time
	}{
		{"another's claim answer", claim, mark, 30 * time.Second, t0.Add(5 * time.Second), t0.Add(30 * time.Second)},
		{"the window ran out", claim, mark, 30 * time.Second, t0.Add(31 * time.Second), time.Time{}},
		{"no window", claim, mark, 0, t0, time.Time{}},
		{"the seat's own answer", mine, mark, 30 * time.Second, t0, time.Time{}},
		{"no claim", &seatview.Table{}, mark, 30 * time.Second, t0, time.Time{}},
		{"a mark of another position", claim, waitMark{Pos: 8, Since: t0.UnixMilli()}, 30 * time.Second, t0, time.Time{}},
	} {
		got, ok := othersWindow(tc.t, tc.mark, 9, tc.window, tc.now)
		if ok != !tc.want.IsZero() || ok && !got.Equal(tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, ok, tc.want)
		}
	}
}
