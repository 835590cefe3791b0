package seatview

import "testing"

// The last step of a step menu says only what is new, not the path
// above it; a choice outside a step menu keeps its whole words.
func TestMenuLabelsAfterPath(t *testing.T) {
	cs := []Choice{
		{Words: "Exchange gifts with Dima, giving the Mirror", Steps: []string{"Exchange gifts", "with Dima"}},
		{Words: "Exchange gifts with Dima, giving the Apple", Steps: []string{"Exchange gifts", "with Dima"}},
		{Words: "Exchange gifts with Anna, giving the Rose", Steps: []string{"Exchange gifts", "with Anna"}},
		{Words: "Exchange gifts with Anna, giving the Key", Steps: []string{"Exchange gifts", "with Anna"}},
		{Words: "Mask off! on Boris: the Wolf?", Steps: []string{"Mask off!", "on Boris", "the Wolf?"}},
		{Words: "Mask off! on Boris: the Fox?", Steps: []string{"Mask off!", "on Boris", "the Fox?"}},
		{Words: "pass", Pass: true},
	}
	items, _ := Menu(cs, []string{"Exchange gifts", "with Dima"})
	want := []string{"giving the Mirror", "giving the Apple"}
	if len(items) != len(want) {
		t.Fatalf("items %+v", items)
	}
	for i, w := range want {
		if items[i].Label != w {
			t.Errorf("item %d: %q, want %q", i, items[i].Label, w)
		}
	}
	// Top: the pass keeps its words.
	top, _ := Menu(cs, nil)
	if l := top[len(top)-1].Label; l != "pass" {
		t.Errorf("top pass %q", l)
	}
	// The Mask off! choices with one choice per third step collapse: the
	// choice is shown under "Mask off!" › "on Boris".
	mo, _ := Menu(cs, []string{"Mask off!", "on Boris"})
	if len(mo) != 2 || mo[0].Label != "the Wolf?" {
		t.Errorf("mask off items %+v", mo)
	}
	// The tree too (the web page).
	for _, p := range MenuTree(cs, "123456789") {
		for _, l := range p.Lines {
			if l.Label == cs[0].Words {
				t.Errorf("page %v repeats the path: %q", p.Path, l.Label)
			}
		}
	}
}
