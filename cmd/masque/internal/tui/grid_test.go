package tui

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// On a small terminal the seats of a crowded Mafia table are drawn in
// columns; each keeps what the seat knows of them in a few words: your
// own role, and for a player out of the game that they are out and the
// role their elimination showed. Without it an 80x24 screen told nobody
// who was dead.
func TestMafiaSeatGridSaysWhoIsOut(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya"}
	ls, err := localsession.New(names, 4, localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	rng := rand.New(rand.NewPCG(4, 4))
	m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
	sawOut := false
	for moves := 0; moves < 400 && !sawOut; moves++ {
		snap := waitTurn(t, ls)
		m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
		v := m.View()
		checkFits(t, v, 80, 24)
		s := snap.Rules.(*mafia.State)
		if !m.compactSeats(len(names)) {
			t.Fatalf("7 seats at 80x24 are not in columns:\n%s", v)
		}
		k := snap.Private.(*mafia.Knowledge)
		if !strings.Contains(v, "Anna (you) ") || !strings.Contains(v, "· "+mafia.CardWords(k.Role)) {
			t.Fatalf("the grid does not show your role %s:\n%s", mafia.CardWords(k.Role), v)
		}
		for p := range engine.Seat(len(names)) {
			if s.Alive(p) {
				continue
			}
			role, _ := s.Revealed(p)
			want := names[p] + " · out: " + mafia.CardWords(role)
			if s.Left(p) {
				want = names[p] + " · left: " + mafia.CardWords(role)
			}
			if p == 0 {
				want = "Anna (you) · out: " + mafia.CardWords(role)
			}
			if !strings.Contains(v, want) {
				t.Fatalf("the grid does not say %q:\n%s", want, v)
			}
			sawOut = true
		}
		if snap.Over {
			break
		}
		n := rng.IntN(len(m.labels))
		for range n {
			m, _ = press(t, m, "down")
		}
		m, cmd := press(t, m, "enter")
		if cmd == nil {
			t.Fatalf("enter on %q did nothing", m.labels[n])
		}
		m = step(t, m, cmd())
	}
	if !sawOut {
		t.Fatal("nobody was out")
	}
}
