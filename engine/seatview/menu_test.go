package seatview

import (
	"slices"
	"testing"
)

// The menu tree a page walks is Menu's: each step line opens the page
// Menu gives for its path (a step with a single step under it taken for
// the seat), a step of one choice is that choice, back goes to the page
// the step was on, and the keys go to the lines in order.
func TestMenuTree(t *testing.T) {
	cs := []Choice{
		{Words: "pass", Pass: true},
		{Words: "swap with Boris", Steps: []string{"swap"}},
		{Words: "swap with Sasha", Steps: []string{"swap"}},
		{Words: "Boris is the Beast", Steps: []string{"Mask off!", "on Boris", "the Beast?"}},
		{Words: "Boris is the Witch", Steps: []string{"Mask off!", "on Boris", "the Witch?"}},
		{Words: "look", Steps: []string{"look"}},
	}
	pages := MenuTree(cs, "12")
	type line struct {
		label  string
		key    string
		choice int
		next   int
	}
	want := []struct {
		path  []string
		back  int
		lines []line
	}{
		{nil, -1, []line{{"pass", "1", 0, 0}, {"swap …", "2", -1, 1}, {"Mask off! …", "", -1, 2}, {"look", "", 5, 0}}},
		{[]string{"swap"}, 0, []line{{"with Boris", "1", 1, 0}, {"with Sasha", "2", 2, 0}}},
		// "on Boris" is the only step under "Mask off!": taken for the seat.
		{[]string{"Mask off!", "on Boris"}, 0, []line{{"Boris is the Beast", "1", 3, 0}, {"Boris is the Witch", "2", 4, 0}}},
	}
	if len(pages) != len(want) {
		t.Fatalf("%d pages, want %d: %+v", len(pages), len(want), pages)
	}
	for i, w := range want {
		p := pages[i]
		if !slices.Equal(p.Path, w.path) || p.Back != w.back || len(p.Lines) != len(w.lines) {
			t.Fatalf("page %d: %+v, want %+v", i, p, w)
		}
		for j, l := range w.lines {
			g := p.Lines[j]
			if g.Label != l.label || g.Key != l.key || g.Choice != l.choice || g.Next != l.next {
				t.Errorf("page %d line %d: %+v, want %+v", i, j, g, l)
			}
		}
	}
	if !pages[0].Lines[0].Pass || pages[0].Lines[3].Pass {
		t.Errorf("pass marks: %+v", pages[0].Lines)
	}
	if MenuTree(nil, "12") != nil {
		t.Error("a tree for no choices")
	}
}
