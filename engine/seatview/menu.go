package seatview

import (
	"slices"
	"strings"
)

// MenuItem is one line of a question's menu ([Menu]): a choice, or a step
// that opens the choices under it.
type MenuItem struct {
	// Label is the line: the choice's words, or the step's ("Mask off! …").
	Label string
	// Choice is the index of the choice among the question's choices, or
	// -1 for a step.
	Choice int
	// Step is the step a step line opens (the next element of the path);
	// "" for a choice.
	Step string
	// Count is how many choices lie under a step.
	Count int
}

// Menu lists what a question offers at path, a sequence of steps the seat
// took into its menu (nil: the top): its choices without Steps, or whose
// Steps are path, as themselves, and those with longer Steps starting
// with path grouped by their next step, in the order of their first
// choice. A step with a single choice under it is that choice; a menu
// that would hold a single step is that step's menu. It returns the
// items and the path they are at: path itself, longer when a single step
// was taken for the seat, or nil when no choice lies under path (the
// choices changed).
func Menu(cs []Choice, path []string) ([]MenuItem, []string) {
	path = slices.Clip(path)
	for {
		items, members := menuAt(cs, path)
		if len(items) == 0 && len(path) > 0 {
			path = nil
			continue
		}
		for i, it := range items {
			if it.Choice < 0 && it.Count == 1 {
				c := members[i][0]
				items[i] = MenuItem{Label: cs[c].Words, Choice: c}
			}
			if items[i].Choice >= 0 {
				items[i].Label = afterPath(items[i].Label, path)
			}
		}
		if len(items) == 1 && items[0].Choice < 0 {
			path = append(path, items[0].Step)
			continue
		}
		return items, path
	}
}

// menuAt is the menu at path, steps not yet collapsed, with the indexes
// of the choices under each item.
func menuAt(cs []Choice, path []string) ([]MenuItem, [][]int) {
	var items []MenuItem
	var members [][]int
	at := map[string]int{}
	for i, c := range cs {
		if len(c.Steps) < len(path) || !slices.Equal(c.Steps[:len(path)], path) {
			continue
		}
		if len(c.Steps) == len(path) {
			items = append(items, MenuItem{Label: c.Words, Choice: i})
			members = append(members, []int{i})
			continue
		}
		s := c.Steps[len(path)]
		if j, ok := at[s]; ok {
			items[j].Count++
			members[j] = append(members[j], i)
			continue
		}
		at[s] = len(items)
		items = append(items, MenuItem{Label: s + " …", Choice: -1, Step: s, Count: 1})
		members = append(members, []int{i})
	}
	return items, members
}

// MenuPage is one step of a question's menu laid out for a screen that
// walks it on its own (a web page): the menu at a path, its lines, and
// the page a back key returns to. A screen only draws a page and follows
// its lines: what is offered where is [Menu]'s.
type MenuPage struct {
	// Path is the steps taken to reach the page, outermost first (those
	// taken for the seat included); empty at the top.
	Path []string `json:"path,omitempty"`
	// Back is the page a back key returns to, or -1 at the top.
	Back  int        `json:"back"`
	Lines []MenuLine `json:"lines"`
}

// MenuLine is one line of a [MenuPage].
type MenuLine struct {
	Label string `json:"label"`
	// Key is the key the screen plays the line on ("" when the line has
	// none: the keys ran out).
	Key string `json:"key,omitempty"`
	// Choice is the index of the choice the line plays among the
	// question's choices, or -1 for a step.
	Choice int `json:"choice"`
	// Step is the step a step line takes and Next the page it opens;
	// "" and 0 for a choice.
	Step string `json:"step,omitempty"`
	Next int    `json:"next,omitempty"`
	// Pass: the line plays the choice that lets the decision go
	// ([Choice.Pass]).
	Pass bool `json:"pass,omitempty"`
}

// MenuTree lays out the whole menu of choices cs ([Menu]) as pages, the
// top first: each step line names the page it opens, each page the page
// it was opened from. keys are the keys a screen offers on the lines of
// a page, one character each, in order. It returns nil when cs is empty.
func MenuTree(cs []Choice, keys string) []MenuPage {
	if len(cs) == 0 {
		return nil
	}
	ks := []rune(keys)
	var pages []MenuPage
	var walk func(path []string, back int) int
	walk = func(path []string, back int) int {
		items, at := Menu(cs, path)
		me := len(pages)
		pages = append(pages, MenuPage{Path: at, Back: back})
		lines := make([]MenuLine, len(items))
		for j, it := range items {
			l := MenuLine{Label: it.Label, Choice: it.Choice, Step: it.Step}
			if j < len(ks) {
				l.Key = string(ks[j])
			}
			if it.Choice >= 0 {
				l.Pass = cs[it.Choice].Pass
			} else {
				l.Next = walk(append(slices.Clip(at), it.Step), me)
			}
			lines[j] = l
		}
		pages[me].Lines = lines
		return me
	}
	walk(nil, -1)
	return pages
}

// afterPath is a choice's words shown under the steps of path, without
// the path they repeat: "Exchange gifts with Dima, giving the Mirror"
// under "Exchange gifts" › "with Dima" is "giving the Mirror". Each step
// is taken off the front while the words start with it (case aside, its
// "?" or " …" dropped); words that do not start with the path, or that
// are nothing but the path, stay whole.
func afterPath(words string, path []string) string {
	rest := words
	for _, st := range path {
		st = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(st), "?…"))
		r := strings.TrimLeft(rest, " ,;:")
		if st == "" || len(r) < len(st) || !strings.EqualFold(r[:len(st)], st) {
			break
		}
		if len(r) > len(st) && !strings.ContainsAny(r[len(st):len(st)+1], " ,;:") {
			break // a step that ends inside a word ("on Di" of "on Dima")
		}
		rest = r[len(st):]
	}
	rest = strings.TrimLeft(rest, " ,;:")
	if rest == "" || len(rest) == len(words) {
		return words
	}
	return rest
}
