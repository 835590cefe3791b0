package seatview

import "slices"

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
