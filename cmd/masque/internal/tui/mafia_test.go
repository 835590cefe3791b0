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

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// checkMafiaSecrets checks that seat me's screen never shows another
// seat's hidden role or incident card: no card of another seat is known
// to it, and another seat's row names its role only once revealed.
func checkMafiaSecrets(t *testing.T, m Model, ls *localsession.Session, me int, v string) {
	t.Helper()
	s := m.snap.Rules.(*mafia.State)
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
			if m.compactSeats(len(m.tv.Seats)) {
				// Columns: the seat's own cell (cells are apart by two
				// spaces or more, a cell's words by one).
				for _, cell := range regexp.MustCompile(`\s{2,}`).Split(l, -1) {
					if c := strings.TrimLeft(cell, " ▶←"); c == vs.Name || strings.HasPrefix(c, vs.Name+" ") {
						row = c
					}
				}
				if row != "" {
					break
				}
				continue
			}
			if strings.HasPrefix(strings.TrimLeft(l, " ▶←"), vs.Name+" ") {
				row = l
				break // the seats come before the log
			}
		}
		truth := ls.SeatKnown(int(p))
		if _, revealed := s.Revealed(p); !revealed && m.snap.Opened == nil {
			if c, ok := truth[s.RoleSlot(p)]; ok && strings.Contains(row, mafia.CardWords(c)) {
				t.Fatalf("seat %d sees %s's hidden role %s:\n%s", me, vs.Name, mafia.CardWords(c), v)
			}
		}
		if m.snap.Opened == nil {
			for _, sl := range s.Hand(p) {
				if c, ok := truth[sl]; ok && strings.Contains(row, mafia.CardWords(c)) {
					t.Fatalf("seat %d sees %s's incident card %s:\n%s", me, vs.Name, mafia.CardWords(c), v)
				}
			}
		}
	}
}

// A person plays whole local games of Mafia on the screen, always
// choosing one of the choices the screen offers (seeded), through the
// real stack: day moves and the night's secret choices (a target for a
// power, or sleep) are accepted, the screen fits 80x24 and 120x40, shows
// the person's role and never another seat's hidden role or incident
// card, and the log is in words.
//
// The deal is random (the seats' keys are), so games are played until
// the person slept through a night without a power and chose a target
// with one (at most 12 games).
func TestMafiaPlayedToTheEndOnTheScreen(t *testing.T) {
	t.Parallel() // its own local game: CPU and the bots' goroutines, nothing shared
	slept, chose := 0, 0
	for i, tc := range []struct {
		players int
		seed    uint64
	}{{4, 1}, {7, 2}, {9, 5}, {6, 6}, {8, 7}, {5, 8}, {7, 9}, {6, 10}, {9, 11}, {8, 12}, {7, 13}, {6, 14}} {
		if i >= 3 && slept > 0 && chose > 0 {
			break
		}
		t.Run(fmt.Sprintf("%dp-seed%d", tc.players, tc.seed), func(t *testing.T) {
			names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya", "Igor", "Kira"}[:tc.players]
			// A floor of an hour: a night without a power waits for sleep.
			ls, err := localsession.New(names, tc.seed, localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			defer ls.Close()
			rng := rand.New(rand.NewPCG(tc.seed, 99))
			nights, sleeps, moves := 0, 0, 0
			big := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 120, Height: 40})
			m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
			for moves < 1000 {
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
					checkMafiaSecrets(t, x.m, ls, 0, v)
				}
				if moves == 0 {
					// The help page: every role and incident card, in a
					// page that fits.
					h, _ := press(t, big, "?")
					hv := h.View()
					checkFits(t, hv, 120, 40)
					for _, want := range []string{"Night Butterfly", "Madman", "Roles"} {
						if !strings.Contains(hv, want) {
							t.Fatalf("the help page lacks %q:\n%s", want, hv)
						}
					}
					// No key of another game: Mafia has no claim to pass
					// and no hidden swap to confirm.
					all := strings.Join(h.helpLines(120), "\n")
					for _, not := range []string{"p passes", "exchange the cards"} {
						if strings.Contains(all, not) {
							t.Fatalf("the help page lists %q:\n%s", not, all)
						}
					}
				}
				if k, ok := snap.Private.(*mafia.Knowledge); !ok || k.Role < 0 {
					t.Fatalf("the person does not know their role: %+v", snap.Private)
				} else if !strings.Contains(big.View(), mafia.CardWords(k.Role)) {
					t.Fatalf("the screen does not show your role %s:\n%s", mafia.CardWords(k.Role), big.View())
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
					if !strings.Contains(big.View(), "Game over") {
						t.Errorf("the end shows no result:\n%s", big.View())
					}
					break
				}
				if m.tv == nil || m.tv.Question == nil || len(m.labels) == 0 {
					t.Fatalf("my turn, but no choices:\n%s", m.View())
				}
				if snap.Night {
					nights++
					if len(snap.Decisions) > 0 {
						chose++
					}
					if len(snap.Decisions) == 0 {
						sleeps++
						slept++
						if m.labels[0] != "sleep" {
							t.Fatalf("a night without a power offers %q", m.labels)
						}
					}
				}
				n := rng.IntN(len(m.labels))
				for range n {
					m, _ = press(t, m, "down")
				}
				var cmd tea.Cmd
				m, cmd = press(t, m, "enter")
				if cmd == nil {
					t.Fatalf("enter on %q did nothing", m.labels[n])
				}
				msg, ok := cmd().(SubmittedMsg)
				if !ok || msg.Err != nil {
					t.Fatalf("%q refused: %v", m.labels[n], msg.Err)
				}
				m = step(t, m, msg)
				moves++
			}
			k, _ := ls.Snapshot().Private.(*mafia.Knowledge)
			t.Logf("%d choices by the person (%s), %d nights (%d asleep)", moves, mafia.CardWords(k.Role), nights, sleeps)
		})
	}
	if slept == 0 || chose == 0 {
		t.Errorf("in all the games the person slept %d times and chose a night target %d times", slept, chose)
	}
}
