package tui

import (
	"math/rand/v2"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
	"github.com/masque-games/masque/engine/grimm/grimmview"
	"github.com/masque-games/masque/engine/seatview"
)

// TestGrimmGameOverFitsSmallScreen: at the end of a 5-player Grimm game
// an 80x24 screen shows every seat's row in full (its roses and its
// characters: the final score) and the result; the rows were cut to one
// line each ("unmasked: Sleeping Beaut…") to keep the log and the
// memory, which matter no more.
func TestGrimmGameOverFitsSmallScreen(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}
	for seed := uint64(1); seed <= 4; seed++ {
		tab, err := grimmtest.New(grimm.Options{Players: names}, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 7))
		for !tab.State.Over() {
			p := tab.State.Next().Seat
			ms := tab.State.LegalMoves(p, tab.Known(p))
			if err := tab.Play(ms[r.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		snap := session.Snapshot{Seat: 0, Names: names, Rules: tab.State, Viewer: grimmview.Viewer{}, Known: tab.Known(0), Over: true,
			Log: []string{"You published your card key.", "Boris published their card key."}}
		tv, _ := seatview.Build(grimmview.Viewer{}, snap.Input())
		f := &fakeSession{snap: snap, upd: make(chan struct{})}
		m := New(f, Options{Title: "Anna's table · 5 players · card keys published at the end"})
		m = step(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
		m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
		v := ansi.Strip(m.View())
		if n := strings.Count(v, "\n") + 1; n > 24 {
			t.Fatalf("seed %d: %d lines on a 24-line screen", seed, n)
		}
		flat := strings.Join(strings.Fields(v), " ")
		for _, s := range tv.Seats {
			if !strings.Contains(flat, strings.Join(strings.Fields(seatRowText(s)), " ")) {
				t.Errorf("seed %d: %s's row is not shown in full at 80x24:\n%s", seed, s.Name, v)
			}
		}
		for _, l := range append(tv.Result, tv.Outcome) {
			if !strings.Contains(flat, strings.Join(strings.Fields(l), " ")) {
				t.Errorf("seed %d: the result %q is not on the 80x24 screen:\n%s", seed, l, v)
			}
		}
	}
}
