package tui

import (
	"fmt"
	"io"

	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/paginator"
	tea "github.com/charmbracelet/bubbletea"
)

// choice is one legal move in the list of choices, said in words.
type choice string

// FilterValue implements list.Item (the list is never filtered).
func (c choice) FilterValue() string { return string(c) }

// choiceDelegate draws one choice per line: the selected one reversed and
// marked "> ".
type choiceDelegate struct{ st styles }

func (d choiceDelegate) Height() int                         { return 1 }
func (d choiceDelegate) Spacing() int                        { return 0 }
func (d choiceDelegate) Update(tea.Msg, *list.Model) tea.Cmd { return nil }

func (d choiceDelegate) Render(w io.Writer, l list.Model, index int, it list.Item) {
	c, _ := it.(choice)
	if index == l.Index() {
		fmt.Fprintf(w, "  %s", d.st.cursor.Render("> "+string(c)))
		return
	}
	fmt.Fprintf(w, "    %s", c)
}

// newChoices returns the list of a decision's choices, on the first one
// (the safe choice: pass, or the first option). It is a bare list: no
// title, filter, status bar or help of its own; the screen's keys drive
// it (see [Model.onKey]).
func newChoices(st styles, labels []string) list.Model {
	items := make([]list.Item, len(labels))
	for i, l := range labels {
		items[i] = choice(l)
	}
	l := list.New(items, choiceDelegate{st}, 0, 0)
	l.SetShowTitle(false)
	l.SetShowFilter(false)
	l.SetFilteringEnabled(false)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.DisableQuitKeybindings()
	l.InfiniteScrolling = false
	// "page 1 of 2" rather than dots, which read the same without colour.
	l.Paginator.Type = paginator.Arabic
	l.Paginator.ArabicFormat = "page %d of %d (↑/↓)"
	return l
}

// maxChoiceRows is how many choices show at once at most; more are paged.
const maxChoiceRows = 10
