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
	width   int    // the terminal's columns; the last column wraps to fit (0: no limit)
	indent  string // before every aligned row
	rows    [][]string
	notes   []string // an aligned row's line below it ("" for none)
}

// newGrid returns a grid for w: aligned when w is a terminal.
func newGrid(w io.Writer) *grid {
	return &grid{aligned: isTerminal(w), width: terminalWidth(w)}
}

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
		lead := utf8.RuneCountInString(g.indent)
		for i, c := range r {
			if i < len(r)-1 {
				b.WriteString(c)
				b.WriteString(strings.Repeat(" ", width[i]-utf8.RuneCountInString(c)+2))
				lead += width[i] + 2
				continue
			}
			for j, line := range wrapWords(c, g.width-lead) {
				if j > 0 {
					b.WriteByte('\n')
					b.WriteString(strings.Repeat(" ", lead))
				}
				b.WriteString(line)
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

// wrapWords splits s into lines of at most room runes, breaking between
// words (or after the commas of a word longer than room). room < 16
// (no terminal width known, or too little left) means no wrapping.
func wrapWords(s string, room int) []string {
	if room < 16 || utf8.RuneCountInString(s) <= room {
		return []string{s}
	}
	type piece struct {
		text  string
		glued bool // continues the word before it: no space between
	}
	var pieces []piece
	for _, w := range strings.Fields(s) {
		if utf8.RuneCountInString(w) <= room {
			pieces = append(pieces, piece{text: w})
			continue
		}
		// A long list (Commissar,Nurse,…) breaks after its commas.
		for j, part := range strings.SplitAfter(w, ",") {
			pieces = append(pieces, piece{text: part, glued: j > 0})
		}
	}
	var lines []string
	line := ""
	for _, p := range pieces {
		glue := " "
		if p.glued {
			glue = ""
		}
		switch {
		case line == "":
			line = p.text
		case utf8.RuneCountInString(line)+len(glue)+utf8.RuneCountInString(p.text) <= room:
			line += glue + p.text
		default:
			lines = append(lines, line)
			line = p.text
		}
	}
	return append(lines, line)
}

// wrapLine breaks line at spaces so that no line is wider than width
// (a terminal's columns: the terminal would break a word in two, "thi"
// and "s fingerprint"), continuing under a two-space indent; a word
// wider than a line (an invite, a URL) stays whole on a line of its own,
// so that it is copied whole. width 0: line unchanged.
func wrapLine(line string, width int) string {
	if width <= 0 || utf8.RuneCountInString(line) <= width {
		return line
	}
	const indent = "  "
	var b strings.Builder
	col := 0
	for i, w := range strings.Split(line, " ") {
		n := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case col+1+n <= width:
			b.WriteByte(' ')
			col++
		default:
			b.WriteString("\n" + indent)
			col = len(indent)
		}
		b.WriteString(w)
		col += n
	}
	return b.String()
}
