package tui

import (
	"fmt"
	"github.com/masque-games/masque/engine/seatview"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// waitTurn waits until the local seat must move or the game is over. It
// fails when the bots make no progress (no new entry) for 60 s:
// a loaded machine slows a 12-seat night's proofs, a stalled table stops.
func waitTurn(t *testing.T, ls *localsession.Session) session.Snapshot {
	t.Helper()
	const stall = 60 * time.Second
	seen, last := -1, time.Now()
	for {
		snap := ls.Snapshot()
		if snap.MyTurn || snap.Over {
			return snap
		}
		if snap.Entries != seen {
			seen, last = snap.Entries, time.Now()
		}
		if time.Since(last) > stall {
			t.Fatalf("the bots made no progress in %v: %+v", stall, snap.Waiting)
		}
		select {
		case <-ls.Updates():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// scriptSyntax is what the log must never show: script verbs before a
// name or a card, script card names, slot numbers, key=value.
var scriptSyntax = regexp.MustCompile(`\b(pick|keep|give|act|hint|unmask|win|commit|bet|choose) [A-Z]|EvilQueen|BigBadWolf|GlassSlipper|RedRidingHood|SleepingBeauty|slot|=`)

// checkSecrets checks that the view of seat me never shows another
// seat's masked character or hidden hand: its row names neither, and no
// card of another seat is "known to you".
func checkSecrets(t *testing.T, m Model, ls *localsession.Session, me int, v string) {
	t.Helper()
	s := m.snap.Rules.(*grimm.State)
	for p := range engine.Seat(s.Players()) {
		if int(p) == me {
			continue
		}
		vs := m.tv.Seats[p]
		for _, c := range vs.Cards {
			if c.Face == seatview.KnownToYou || (c.Face == seatview.FaceDown && c.Name != "") {
				t.Fatalf("seat %d's view shows %s's card %+v", me, vs.Name, c)
			}
		}
		row := ""
		for _, l := range strings.Split(v, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, " ▶←"), vs.Name+" ") {
				row = l
				break // the seats come before the log
			}
		}
		truth := ls.SeatKnown(int(p))
		for _, sl := range s.CharSlotsOf(p) {
			if s.Known(sl) != 0 {
				continue // public: unmasked, or shown at the round's end
			}
			if c, ok := truth[sl]; ok && strings.Contains(row, grimm.DisplayName(c)) {
				t.Fatalf("seat %d sees %s's masked character %s:\n%s", me, vs.Name, grimm.DisplayName(c), v)
			}
		}
		for _, sl := range s.Hand(p) {
			if c, ok := truth[sl]; ok && strings.Contains(row, grimm.DisplayName(c)) {
				t.Fatalf("seat %d sees %s's hidden hand (%s):\n%s", me, vs.Name, grimm.DisplayName(c), v)
			}
		}
	}
}

// checkFits checks that a view fits its terminal.
func checkFits(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) > h {
		t.Fatalf("%dx%d: %d lines:\n%s", w, h, len(lines), v)
	}
	for _, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Fatalf("%dx%d: a line of %d columns: %q", w, h, n, l)
		}
	}
}

// A person plays a whole local game of The Grimm Masquerade on the
// screen, always choosing one of the choices the screen offers (seeded),
// through the real stack: every move is accepted, the screen fits 80x24
// and 120x40, never shows another seat's masked character or hidden hand,
// shows a forced response only to the seat that owes it, and the log is
// in words.
func TestGrimmPlayedToTheEndOnTheScreen(t *testing.T) {
	t.Parallel() // its own local game: CPU and the bots' goroutines, nothing shared
	for _, tc := range []struct {
		players  int
		scenario string
		seed     uint64
	}{{3, "", 1}, {5, "", 2}, {4, "bets,jewels,abilities", 3}, {2, "jewels", 4}} {
		t.Run(fmt.Sprintf("%dp-%s", tc.players, tc.scenario), func(t *testing.T) {
			t.Parallel()
			names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor"}[:tc.players]
			setup, err := grimm.Game{}.Configure(tc.players, tc.scenario, nil)
			if err != nil {
				t.Fatal(err)
			}
			ls, err := localsession.New(names, tc.seed, localsession.Options{Game: "grimm", Setup: setup})
			if err != nil {
				t.Fatal(err)
			}
			defer ls.Close()
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			forced, moves := 0, 0
			// The screens persist across the game, as on a terminal: the
			// 80x24 one plays, the 120x40 one only draws.
			big := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 120, Height: 40})
			m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
			for moves < 2000 {
				snap := waitTurn(t, ls)
				big = step(t, big, SnapshotMsg{Snap: snap, At: t0})
				m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
				for _, x := range []struct {
					m    Model
					w, h int
				}{{big, 120, 40}, {m, 80, 24}} {
					v := x.m.View()
					checkFits(t, v, x.w, x.h)
					checkSaidOnce(t, v)
					checkSecrets(t, x.m, ls, 0, v)
				}
				for _, l := range snap.Log {
					if scriptSyntax.MatchString(l) {
						t.Fatalf("a log line in script syntax: %q", l)
					}
				}
				if snap.Over {
					if snap.Verdict != "" {
						t.Fatalf("the table stopped: %s", snap.Verdict)
					}
					if !strings.Contains(m.View(), "Result") {
						t.Errorf("the end shows no result:\n%s", m.View())
					}
					break
				}
				if m.tv == nil || m.tv.Question == nil || len(m.labels) == 0 {
					t.Fatalf("my turn, but no choices:\n%s", m.View())
				}
				s := snap.Rules.(*grimm.State)
				if seat, _, ok := s.Pending(); ok && seat == 0 && grimm.Forced(s, 0) {
					forced++
					if !strings.Contains(m.View(), "Only you can answer") {
						t.Fatalf("a forced response not shown as such:\n%s", m.View())
					}
					// Another seat sees whom the table waits for, not the question.
					other := snap
					other.Seat, other.MyTurn, other.Known = 1, false, ls.SeatKnown(1)
					om := New(ls, Options{NoColor: true})
					om = step(t, om, tea.WindowSizeMsg{Width: 80, Height: 24})
					om = step(t, om, SnapshotMsg{Snap: other, At: t0})
					if ov := om.View(); strings.Contains(ov, "Only you can answer") || om.tv.Question != nil || !strings.Contains(ov, "waiting for Anna") {
						t.Fatalf("Boris's screen while Anna owes an answer:\n%s", ov)
					}
				}
				// The list opens on the first (safe) choice; pick one.
				if m.choices.Index() != 0 {
					t.Fatalf("the choices open on %d", m.choices.Index())
				}
				// A long menu is chosen in steps (the action, whom it is
				// on, the character), each at most 3 pages at 80x24.
				var cmd tea.Cmd
				var label string
				for depth := 0; cmd == nil; depth++ {
					if p := m.choices.Paginator.TotalPages; len(m.labels) > 0 && p > 3 {
						t.Fatalf("a menu of %d pages at 80x24 (%d lines):\n%s", p, len(m.labels), m.View())
					}
					if depth > 4 {
						t.Fatalf("still stepping into the menu at %v:\n%s", m.menuPath(), m.View())
					}
					n := rng.IntN(len(m.labels))
					for range n {
						m, _ = press(t, m, "down")
					}
					label = m.labels[n]
					m, cmd = press(t, m, "enter")
					if m.ctl.Asking() != nil {
						m, cmd = press(t, m, "y")
					}
					if cmd == nil && (len(m.menuPath()) == 0 || !strings.Contains(m.View(), strings.Join(m.menuPath(), " › "))) {
						t.Fatalf("enter on %q did nothing", label)
					}
				}
				msg, ok := cmd().(SubmittedMsg)
				if !ok || msg.Err != nil {
					t.Fatalf("%q refused: %v", label, msg.Err)
				}
				m = step(t, m, msg)
				moves++
			}
			if moves == 0 {
				t.Error("the person never moved")
			}
			t.Logf("%d moves by the person, %d forced responses", moves, forced)
		})
	}
}
