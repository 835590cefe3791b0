package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/seatview"
)

// At a finished table of The Grimm Masquerade whose players published
// their card keys, an unmasked player's hidden hand is public: every
// screen draws it face up, named, like the other revealed cards (it was
// drawn face down). Seat 0 plays the first choice each time; the seeds
// are tried until one ends with an unmasked player holding a hidden hand.
func TestOpenedHiddenHandFaceUpAtTheEnd(t *testing.T) {
	t.Parallel() // its own local game: CPU and the bots' goroutines, nothing shared
	for seed := uint64(1); seed <= 40; seed++ {
		names := []string{"Anna", "Boris", "Sasha", "Dima"}
		setup, err := grimm.Game{}.Configure(len(names), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		ls, err := localsession.New(names, seed, localsession.Options{Game: "grimm", Setup: setup, PublishKeys: true})
		if err != nil {
			t.Fatal(err)
		}
		m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 120, Height: 40})
		snap := waitTurn(t, ls)
		for moves := 0; !snap.Over && moves < 2000; moves++ {
			m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
			if m.tv == nil || m.tv.Question == nil || len(m.tv.Question.Choices) == 0 {
				t.Fatalf("seed %d: my turn, but no choices:\n%s", seed, m.View())
			}
			if err := ls.Submit(m.tv.Question.Choices[0].Move, nil); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			snap = waitTurn(t, ls)
		}
		ls.Close()
		if !snap.Over || snap.Verdict != "" {
			t.Fatalf("seed %d: the game did not end: %q", seed, snap.Verdict)
		}
		// Every key is published once the game is over.
		for range 100 {
			if snap.Opened != nil {
				break
			}
			snap = waitTurn(t, ls)
		}
		if snap.Opened == nil {
			t.Fatalf("seed %d: no card opened with the published keys", seed)
		}
		s := snap.Rules.(*grimm.State)
		m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
		v := m.View()
		// The result and the rounds speak to the seat: "you won", never
		// its own name.
		for _, l := range append(slices.Clone(m.tv.Result), m.tv.Memory...) {
			if strings.Contains(l, "Anna won") || strings.Contains(l, "Anna and ") || strings.Contains(l, "roses: Anna") {
				t.Errorf("seed %d: the seat reads of itself in the third person: %q", seed, l)
			}
		}
		if !strings.Contains(strings.Join(m.tv.Result, "\n"), "roses: you ") {
			t.Errorf("seed %d: the result does not give your roses to you: %q", seed, m.tv.Result)
		}
		checked := 0
		for p := range engine.Seat(s.Players()) {
			unmasked := false
			for _, sl := range s.CharSlotsOf(p) {
				unmasked = unmasked || s.Known(sl) != 0 && !slices.Contains(s.MaskedSlots(p), sl)
			}
			if !unmasked || len(s.Hand(p)) == 0 || int(p) == snap.Seat {
				continue
			}
			var want, got []string
			for _, sl := range s.Hand(p) {
				want = append(want, grimm.DisplayName(snap.Opened[sl]))
			}
			for _, c := range m.tv.Seats[p].Cards {
				if c.Note != "hand" {
					continue
				}
				if c.Face != seatview.FaceUp || c.Name == "" {
					t.Errorf("seed %d: %s's hidden hand at the end, keys published: %+v, want face up", seed, s.Name(p), c)
				}
				got = append(got, c.Name)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("seed %d: %s's hand drawn as %v, opened %v", seed, s.Name(p), got, want)
			}
			if row, hand := seatRowText(m.tv.Seats[p]), "hand: "+strings.Join(countedNames(want), ", "); !strings.Contains(row, hand) {
				t.Errorf("seed %d: %s's row lacks %q: %s", seed, s.Name(p), hand, row)
			}
			if !strings.Contains(v, s.Name(p)+" ") || strings.Contains(v, "face-down hand card") {
				t.Errorf("seed %d: the screen still draws a hand face down:\n%s", seed, v)
			}
			checked++
		}
		if checked > 0 {
			t.Logf("seed %d: %d unmasked players' hands checked", seed, checked)
			return
		}
	}
	t.Fatal("no seed ended with another player unmasked and holding a hidden hand")
}

// A seat's row counts equal cards in every group, as it does the items in
// front of it: a hand opened at the end read "Disguise, Disguise, Glass
// Slipper, Treats, Glass Slipper" (a line more at 80 columns, and hard to
// count) where "Disguise ×2, Glass Slipper ×2, Treats" says the same.
func TestCardsTextCountsEqualCards(t *testing.T) {
	up := func(name, note string) seatview.Card {
		return seatview.Card{Name: name, Face: seatview.FaceUp, Note: note}
	}
	known := func(name, note string) seatview.Card {
		return seatview.Card{Name: name, Face: seatview.KnownToYou, Note: note}
	}
	for _, tc := range []struct {
		name  string
		cards []seatview.Card
		want  string
	}{
		{"items", []seatview.Card{up("Crown", ""), up("Mirror", ""), up("Crown", "")}, "Crown ×2, Mirror"},
		{"opened hand", []seatview.Card{up("Disguise", "hand"), up("Disguise", "hand"), up("Glass Slipper", "hand"), up("Treats", "hand"), up("Glass Slipper", "hand")},
			"hand: Disguise ×2, Glass Slipper ×2, Treats"},
		{"own hand", []seatview.Card{known("Mirror", "hand"), known("Clock", "hand"), known("Mirror", "hand")}, "your hand (only you know): Mirror ×2, Clock"},
		{"items and an opened hand", []seatview.Card{up("Spindle", ""), up("Crown", "hand"), up("Crown", "hand")}, "Spindle, hand: Crown ×2"},
		{"face down", []seatview.Card{{Face: seatview.FaceDown, Note: "hand"}, {Face: seatview.FaceDown, Note: "hand"}}, "2 face-down hand cards"},
	} {
		if got := cardsText(tc.cards); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
