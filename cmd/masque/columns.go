package main

import (
	"io"
	"strings"
	"unicode/utf8"
)

// grid is a table of text that commands print (lobby, help games): on a
// terminal its columns are aligned with spaces; piped, each row is one
// line of tab-separated cells, for cut, awk and spreadsheets. Cells must
// hold no tab or newline (escape peer text before, with termsafe).
type grid struct {
	aligned bool   // a terminal: pad the columns
	indent  string // before every aligned row
	rows    [][]string
	notes   []string // an aligned row's line below it ("" for none)
}

// newGrid returns a grid for w: aligned when w is a terminal.
func newGrid(w io.Writer) *grid { return &grid{aligned: isTerminal(w)} }

// row adds a row.
func (g *grid) row(cells ...string) {
	g.rows = append(g.rows, cells)
	g.notes = append(g.notes, "")
}

// note adds a line under the last row when aligned, indented to its
// second column (the seated players of a lobby table); piped, notes are
// left out: give the same data as a cell for programs.
func (g *grid) note(s string) {
	if len(g.notes) > 0 {
		g.notes[len(g.notes)-1] = s
	}
}

// write prints the grid to w.
func (g *grid) write(w io.Writer) error {
	var b strings.Builder
	if !g.aligned {
		for _, r := range g.rows {
			b.WriteString(strings.Join(r, "\t"))
			b.WriteByte('\n')
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	var width []int
	for _, r := range g.rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for k, r := range g.rows {
		b.WriteString(g.indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteByte('\n')
		if n := g.notes[k]; n != "" {
			b.WriteString(g.indent)
			if len(width) > 1 {
				b.WriteString(strings.Repeat(" ", width[0]+2))
			}
			b.WriteString(n)
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
