package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/engine/seatview"
)

// This file draws a [seatview.Table], the game-neutral view model of what
// the seat may see, for every game. It knows nothing of a game's rules:
// the game's viewer decides what the seat sees, this file how it looks.

// buildView returns the view of the last snapshot, escaped for the
// terminal, or nil when there is none yet (or no game draws it).
func (m Model) buildView() *seatview.Table {
	if m.snap.Rules == nil {
		return nil
	}
	in := m.snap.Input()
	in.SwapBits, in.Salt = m.swapBits(), m.salt
	t, ok := seatview.Build(m.snap.Viewer, in)
	if !ok {
		return nil
	}
	safe := safeTable(t)
	return &safe
}

// safeTable escapes every string of a view (termsafe): names come from
// the roster, which peers wrote, and the view quotes them everywhere.
func safeTable(t seatview.Table) seatview.Table {
	e := termsafe.String
	t.Game, t.Status, t.Waiting, t.Outcome = e(t.Game), e(t.Status), e(t.Waiting), e(t.Outcome)
	t.Result, t.Memory, t.Log, t.Notes = termsafe.Strings(t.Result), termsafe.Strings(t.Memory), termsafe.Strings(t.Log), termsafe.Strings(t.Notes)
	card := func(cs []seatview.Card) []seatview.Card {
		out := make([]seatview.Card, len(cs))
		for i, c := range cs {
			out[i] = seatview.Card{Name: e(c.Name), Face: c.Face, Note: e(c.Note), Place: e(c.Place)}
		}
		return out
	}
	attrs := func(as []seatview.Attr) []seatview.Attr {
		out := make([]seatview.Attr, len(as))
		for j, a := range as {
			out[j] = seatview.Attr{Name: e(a.Name), Value: e(a.Value), Words: e(a.Words)}
		}
		return out
	}
	t.Counters = attrs(t.Counters)
	seats := make([]seatview.Seat, len(t.Seats))
	for i, s := range t.Seats {
		s.Name, s.Status, s.Moved, s.Tokens, s.Cards = e(s.Name), e(s.Status), e(s.Moved), termsafe.Strings(s.Tokens), card(s.Cards)
		s.Attrs = attrs(s.Attrs)
		seats[i] = s
	}
	t.Seats = seats
	areas := make([]seatview.Area, len(t.Areas))
	for i, a := range t.Areas {
		a.Name, a.Note, a.Words, a.Cards = e(a.Name), e(a.Note), e(a.Words), card(a.Cards)
		areas[i] = a
	}
	t.Areas = areas
	notices := make([]seatview.Notice, len(t.Notices))
	for i, n := range t.Notices {
		n.Title, n.Text, n.Window = e(n.Title), e(n.Text), e(n.Window)
		notices[i] = n
	}
	t.Notices = notices
	if q := t.Question; q != nil {
		nq := *q
		nq.Text = e(q.Text)
		nq.Choices = make([]seatview.Choice, len(q.Choices))
		for i, c := range q.Choices {
			c.Words, c.Confirm, c.Steps = e(c.Words), e(c.Confirm), termsafe.Strings(c.Steps)
			nq.Choices[i] = c
		}
		t.Question = &nq
	}
	help := make([]seatview.Section, len(t.Help))
	for i, h := range t.Help {
		help[i] = seatview.Section{Title: e(h.Title), Lines: termsafe.Strings(h.Lines)}
	}
	t.Help = help
	return t
}

// cardsText lists cards in words: face-up cards with equal ones counted
// ("Crown ×2"), face-up cards with a note grouped by it ("hand: Mirror
// ×2, Clock": a hidden hand opened at the end), the cards only the seat
// knows grouped by what they are ("your hand (only you know): Mirror,
// Clock"), equal ones counted in each group, face-down ones counted ("3
// face-down hand cards").
func cardsText(cs []seatview.Card) string {
	var up, open, known, down []string
	count := map[string]int{}
	opened := map[string][]string{}
	mine := map[string][]string{}
	downs := map[string]int{}
	for _, c := range cs {
		switch {
		case c.Face == seatview.FaceUp && c.Note != "":
			if len(opened[c.Note]) == 0 {
				open = append(open, c.Note)
			}
			opened[c.Note] = append(opened[c.Note], c.Name)
		case c.Face == seatview.FaceUp:
			if count[c.Name] == 0 {
				up = append(up, c.Name)
			}
			count[c.Name]++
		case c.Face == seatview.KnownToYou:
			if len(mine[c.Note]) == 0 {
				known = append(known, c.Note)
			}
			mine[c.Note] = append(mine[c.Note], c.Name)
		default:
			if downs[c.Note] == 0 {
				down = append(down, c.Note)
			}
			downs[c.Note]++
		}
	}
	var out []string
	out = append(out, counted(up, count)...)
	for _, n := range open {
		if allSay(opened[n], n) { // "bet on the Beast", not "bet: bet on the Beast"
			out = append(out, countedNames(opened[n])...)
			continue
		}
		out = append(out, n+": "+strings.Join(countedNames(opened[n]), ", "))
	}
	for _, n := range known {
		what := "only you know"
		if n != "" {
			what = "your " + n + " (only you know)"
		}
		out = append(out, what+": "+strings.Join(countedNames(mine[n]), ", "))
	}
	for _, n := range down {
		what := "card"
		if n != "" {
			what = n + " card"
		}
		out = append(out, fmt.Sprintf("%d face-down %s", downs[n], plural(downs[n], what, what+"s")))
	}
	return strings.Join(out, ", ")
}

// allSay reports whether every name already starts with the word note.
func allSay(names []string, note string) bool {
	for _, n := range names {
		if !strings.HasPrefix(strings.ToLower(n), strings.ToLower(note)+" ") {
			return false
		}
	}
	return true
}

// counted names each of names once, in order, with its count when more
// than one ("Crown ×2").
func counted(names []string, count map[string]int) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if count[n] > 1 {
			n = fmt.Sprintf("%s ×%d", n, count[n])
		}
		out = append(out, n)
	}
	return out
}

// countedNames is names with equal ones counted, in the order each first
// appears ("Mirror, Clock, Mirror" is "Mirror ×2, Clock").
func countedNames(names []string) []string {
	var first []string
	count := map[string]int{}
	for _, n := range names {
		if count[n] == 0 {
			first = append(first, n)
		}
		count[n]++
	}
	return counted(first, count)
}

// seatRowText is a seat's row after the name: its attributes, its
// status, the cards in front of it, whether it must answer and where it
// sits when moved.
func seatRowText(s seatview.Seat) string {
	var attrs []string
	for _, a := range s.Attrs {
		if a.Words != "" {
			attrs = append(attrs, a.Words)
		} else {
			attrs = append(attrs, a.Name+" "+a.Value)
		}
	}
	var parts []string
	if len(attrs) > 0 {
		parts = append(parts, strings.Join(attrs, ", "))
	}
	if s.Status != "" {
		parts = append(parts, s.Status)
	}
	// A card told apart by its place is named by it ("cards: 1, 2"); a
	// single face-down card with nothing to say about it goes without
	// saying; the character (or role) a status tells is not repeated.
	var rest []seatview.Card
	var places []string
	for _, c := range s.Cards {
		switch {
		case c.Place != "" && c.Face != seatview.FaceUp:
			places = append(places, c.Place)
		case c.Note == "character" || c.Note == "your character", c.Note == "role" || c.Note == "your role":
		case c.Face == seatview.FaceDown && c.Note == "":
		default:
			rest = append(rest, c)
		}
	}
	if len(places) > 0 {
		parts = append(parts, "cards: "+strings.Join(places, ", "))
	}
	if txt := cardsText(rest); txt != "" {
		parts = append(parts, txt)
	}
	if s.Answers {
		parts = append(parts, "← to answer")
	}
	if s.Moved != "" {
		parts = append(parts, "("+s.Moved+")")
	}
	return strings.Join(parts, " · ")
}

// viewTopTable draws everything above the log from the view.
func (m Model) viewTopTable() (string, bool) {
	t := m.tv
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	title := "masque · " + t.Game
	if m.opts.Title != "" {
		title += " · " + termsafe.String(m.opts.Title)
	}
	if m.help {
		b.WriteString(m.st.title.Render(title + " · help"))
		b.WriteString("\n\n")
		return b.String(), true
	}
	me := "?"
	for _, s := range t.Seats {
		if s.You {
			me = s.Name
		}
	}
	line("%s", m.st.title.Render(fmt.Sprintf("%s · you are %s", title, me)))
	status := t.Status
	if len(t.Counters) > 0 {
		var cs []string
		for _, c := range t.Counters {
			cs = append(cs, c.Words)
		}
		status += "   " + strings.Join(cs, " · ")
	}
	line("%s", status)
	line("")
	if m.compactSeats(len(t.Seats)) {
		m.viewSeatGrid(&b)
	} else {
		// The names in a column as wide as the longest.
		nameOf := func(s seatview.Seat) string {
			if s.You {
				return s.Name + " (you)"
			}
			return s.Name
		}
		wide := 0
		for _, s := range t.Seats {
			wide = max(wide, ansi.StringWidth(nameOf(s)))
		}
		for _, s := range t.Seats {
			mark := "  "
			if s.Turn {
				mark = "▶ "
			}
			name := nameOf(s)
			name += strings.Repeat(" ", wide-ansi.StringWidth(name))
			row := fmt.Sprintf("%s%s  %s", mark, name, seatRowText(s))
			if !s.You {
				row = m.cut(row)
			}
			if s.Turn {
				row = m.st.turn.Render(row)
			}
			line("%s", strings.TrimRight(row, " "))
		}
	}
	for _, l := range m.tableLines() {
		if m.overRows {
			l = m.cutAlways(l)
		}
		line("%s", m.cut(l))
	}
	line("")
	m.viewNotices(&b)
	m.viewTableSituation(&b)
	if !m.opts.NoMemory && !m.overRows {
		m.viewTableMemory(&b)
	}
	v := b.String()
	if m.compact {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\n\n", "\n"), "\n\n", "\n")
	}
	return m.wrapLines(v), true
}

// tableLines are the lines under the seats: the table's notes, its areas
// and piles, each indented by 2.
func (m Model) tableLines() []string {
	var lines []string
	for _, n := range m.tv.Notes {
		lines = append(lines, "  "+n)
	}
	var piles []string
	for _, a := range m.tv.Areas {
		switch {
		case a.Words != "":
			lines = append(lines, "  "+a.Words)
		case a.Marked:
			var marked []string
			for _, c := range a.Cards {
				if c.Note != "" {
					marked = append(marked, c.Name+" ("+c.Note+")")
				}
			}
			if len(marked) == 0 {
				marked = append(marked, "no hint tokens yet")
			}
			lines = append(lines, fmt.Sprintf("  %s: %s", a.Name, strings.Join(marked, " · ")))
		case a.Count < 0:
			text := "  " + a.Name
			if a.Note != "" {
				text += " (" + a.Note + ")"
			}
			var names []string
			for _, c := range a.Cards {
				names = append(names, c.Name)
			}
			lines = append(lines, fmt.Sprintf("%s: %s", text, strings.Join(names, " · ")))
		case a.Pile || len(a.Cards) == 0:
			piles = append(piles, fmt.Sprintf("%s %d", a.Name, a.Count))
		default:
			piles = append(piles, fmt.Sprintf("%s: %s", a.Name, cardsText(a.Cards)))
		}
	}
	if len(piles) > 0 {
		lines = append(lines, "  "+strings.Join(piles, " · "))
	}
	return lines
}

// cut cuts line l to the terminal's width, with an ellipsis, on a brief
// screen (the help page shows it in full).
func (m Model) cut(l string) string {
	if !m.brief || m.width <= 0 || ansi.StringWidth(l) <= m.width {
		return l
	}
	return ansi.Truncate(l, m.width, "…")
}

// cutAlways cuts line l to the terminal's width, with an ellipsis.
func (m Model) cutAlways(l string) string {
	if m.width <= 0 || ansi.StringWidth(l) <= m.width {
		return l
	}
	return ansi.Truncate(l, m.width, "…")
}

// viewSeatGrid draws the seats in columns, each with its first attribute
// (coins) and its status in a few words (seatview.Seat.Brief: "out:
// Civilian", "your mate"): "▶" marks whose turn it is, "←" who must answer.
func (m Model) viewSeatGrid(b *strings.Builder) {
	width := m.width
	if width <= 0 {
		width = 100
	}
	seats := m.tv.Seats
	cells := make([]string, len(seats))
	cellWidth, brief := 24, false
	for i, s := range seats {
		mark := "  "
		switch {
		case s.Turn:
			mark = "▶ "
		case s.Answers:
			mark = "← "
		}
		name := s.Name
		if s.You {
			name += " (you)"
		}
		cell := mark + name
		if len(s.Attrs) > 0 {
			// A number after the name (coins); anything else in words
			// ("votes for Anna"), or two names side by side read as a pair.
			switch a := s.Attrs[0]; {
			case numeric(a.Value):
				cell += " " + a.Value
			case a.Words != "":
				cell += " · " + a.Words
			default:
				cell += " · " + a.Name + " " + a.Value
			}
		}
		if s.Brief != "" {
			cell += " · " + s.Brief
			brief = true
		}
		cells[i] = cell
		cellWidth = max(cellWidth, ansi.StringWidth(cell)+2)
	}
	cols := max(1, (width-2)/cellWidth)
	if m.brief && cols < 2 && width >= 40 {
		// A brief screen takes two columns, each cell cut to leave 3
		// spaces between them (the help page shows every seat in full).
		cols, cellWidth = 2, (width-2)/2
		for i, c := range cells {
			if ansi.StringWidth(c) > cellWidth-3 {
				cells[i] = ansi.Truncate(c, cellWidth-3, "…")
			}
		}
	}
	var row strings.Builder
	for i, s := range seats {
		cell := cells[i]
		if pad := cellWidth - ansi.StringWidth(cell); pad > 0 && (i+1)%cols != 0 {
			cell += strings.Repeat(" ", pad)
		}
		if s.Turn {
			cell = m.st.turn.Render(cell)
		}
		row.WriteString(cell)
		if (i+1)%cols == 0 || i == len(seats)-1 {
			b.WriteString(strings.TrimRight(row.String(), " "))
			b.WriteByte('\n')
			row.Reset()
		}
	}
	attr := ""
	for _, s := range seats {
		if len(s.Attrs) > 0 && numeric(s.Attrs[0].Value) {
			attr = s.Attrs[0].Name
			break
		}
	}
	legend := attr + " after each name; ▶ whose turn, ← who answers"
	switch {
	case brief && attr != "":
		legend = "after each name: " + attr + " · what you know; ▶ whose turn, ← who answers"
	case brief:
		legend = "after each name: · what you know; ▶ whose turn, ← who answers"
	case attr == "":
		legend = "▶ whose turn, ← who answers"
	}
	b.WriteString(m.st.dim.Render("  " + legend))
	b.WriteByte('\n')
}

// numeric reports whether v is a number (coins), which the seat grid
// writes bare after a name.
func numeric(v string) bool {
	if v == "" {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// viewNotices draws what the table is in the middle of (a claim), with
// the seat's answer window counting down.
func (m Model) viewNotices(b *strings.Builder) {
	for _, n := range m.tv.Notices {
		// "This morning: You were attacked.", but "Vote today? 2 of 6
		// answered": the title and its text read as one line.
		title := n.Title
		if title != "" && !strings.ContainsAny(title[len(title)-1:], "?!.:") {
			title += ":"
		}
		b.WriteString(m.st.head.Render(title) + " " + n.Text + "\n")
		switch {
		case n.Window == "":
		case n.Yours:
			left := ""
			if deadline, ok := m.ctl.Window(); ok {
				d := max(0, deadline.Sub(m.now))
				left = fmt.Sprintf(" (%ds left, then you pass)", int((d+time.Second-1)/time.Second))
			}
			b.WriteString(m.st.warn.Render(n.Window+left) + "\n")
		default:
			b.WriteString(n.Window + "\n")
		}
		b.WriteString("\n")
	}
}

// viewTableSituation draws the question and its choices, whom the table
// waits for, or the result.
func (m Model) viewTableSituation(b *strings.Builder) {
	t := m.tv
	line := func(format string, args ...any) {
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	switch {
	case m.over():
		line("%s", m.st.head.Render("Result"))
		for _, r := range t.Result {
			line("%s", r)
		}
		switch {
		case t.Outcome != "" && t.Won:
			line("%s", m.st.turn.Render(t.Outcome))
		case t.Outcome != "":
			line("%s", m.st.warn.Render(t.Outcome))
		}
		if m.snap.Verdict != "" {
			line("%s", m.st.warn.Render("the table stopped: "+m.snap.Verdict))
		}
		line("%s", m.helpLine(bar{m.keys.Older, m.keys.Help, key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "leave"))}))
	case m.snap.MyTurn && t.Question != nil:
		head := "Your move"
		if t.Question.Forced {
			head = "Only you can answer"
		}
		if left, ok := m.timeLeft(); ok {
			head += fmt.Sprintf(" · %s left", clock(left))
		}
		line("%s", m.st.head.Render(head))
		if left, ok := m.timeLeft(); ok && left <= warnBefore {
			line("%s", m.st.warn.Render(fmt.Sprintf("hurry: %s left, then the others stop the table and name you", clock(left))))
		}
		if t.Question.Text != "" {
			line("%s", t.Question.Text)
		}
		if path := m.menuPath(); len(path) > 0 {
			line("%s", m.st.title.Render(strings.Join(path, " › ")+" ›"))
		}
		if len(m.labels) > 0 {
			line("%s", m.choices.View())
		}
		switch {
		case m.ctl.Asking() != nil:
			ask := m.ctl.Asking()
			line("%s", m.st.warn.Render(ask.Words+": "+ask.Confirm+" y/n (esc: back)"))
		case m.quitAsk:
			line("%s", m.quitQuestion())
		case m.ctl.Busy():
			line("playing…")
		default:
			keys := bar{m.keys.Up, m.keys.Play}
			if seatview.PassIndex(m.ctl.Choices()) >= 0 {
				keys = append(keys, m.keys.Pass)
			}
			if m.choices.Paginator.TotalPages > 1 {
				keys = append(keys, m.keys.Home)
			}
			if len(m.menuPath()) > 0 {
				keys = append(keys, m.keys.Back)
			}
			keys = append(keys, m.keys.Help, m.keys.Quit)
			line("%s", m.helpLine(keys))
		}
	default:
		name := t.Waiting
		if w := m.snap.Waiting; w != nil && w.What != "" {
			name = w.What // the table's own work: "bob's shuffle"
		} else if name == "" && w != nil {
			name = w.Name
		}
		m.viewWaiting(b, name)
	}
	if m.status != "" {
		line("%s", m.st.warn.Render(m.status))
	}
	line("")
}

// viewTableMemory draws what the seat knows that the table does not
// show; on a small terminal its first lines, then a mark.
func (m Model) viewTableMemory(out *strings.Builder) {
	if len(m.tv.Memory) == 0 {
		return
	}
	lines := []string{m.st.head.Render("Your memory") + "\n"}
	for _, l := range m.tv.Memory {
		lines = append(lines, "  "+l+"\n")
	}
	lines = append(lines, "\n")
	// On a small terminal the panel gives way, but its first line (the
	// seat's own card, character or role) stays.
	switch {
	case m.memRows == 1:
		lines = []string{m.st.head.Render("Your memory:") + " " + strings.TrimSpace(m.tv.Memory[0]) + "\n"}
	case m.memRows > 0 && len(lines) > m.memRows:
		lines = append(lines[:max(2, m.memRows-1)], m.st.dim.Render("  … (? shows all you remember)")+"\n")
	}
	out.WriteString(strings.Join(lines, ""))
}

// helpLines is the help page of the view wrapped to width: its sections,
// what you remember, then the keys. The help viewport scrolls it (↑/↓).
func (m Model) helpLines(width int) []string {
	t := m.tv
	if t == nil {
		return nil
	}
	var heads []string
	var lines []string
	add := func(l string) { lines = append(lines, l) }
	for i, sec := range t.Help {
		heads = append(heads, sec.Title)
		add(sec.Title)
		for _, l := range sec.Lines {
			add("  " + l)
		}
		add("")
		if i == 0 {
			// The table in full, which a short screen cuts to a line a
			// seat (brief).
			heads = append(heads, "The table")
			add("The table")
			for _, s := range t.Seats {
				name := s.Name
				if s.You {
					name += " (you)"
				}
				add("  " + name + ": " + seatRowText(s))
			}
			for _, l := range m.tableLines() {
				add(l)
			}
			add("")
		}
	}
	if len(t.Memory) > 0 {
		heads = append(heads, "Your memory")
		add("Your memory")
		for _, l := range t.Memory {
			add("  " + l)
		}
		add("")
	}
	heads = append(heads, "Keys")
	add("Keys")
	add("  ↑/↓ or j/k choose a move, home/end the first or last, enter plays it")
	// The example is one of this game's own menus, when the question
	// has one (a Mascarade screen showed Grimm's "Mask off! › on Boris").
	example := ""
	if q := t.Question; q != nil {
		for _, c := range q.Choices {
			if len(c.Steps) > 0 {
				example = " (" + strings.Join(c.Steps, " › ") + " ›)"
				break
			}
		}
	}
	add("  a line ending in … opens the moves under it" + example + "; esc goes back a step")
	if !t.NoPass {
		add("  p passes (when you may let a decision go: a claim waiting for your answer)")
		add("  y/n answer a question (really exchange the cards? leave the table?)")
	} else {
		add("  y/n answer a question (leave the table?)")
	}
	add("  pgup/pgdown scroll the log; ? this help (↑/↓ scroll it); q leaves (q twice, or q then y)")
	if _, ok := m.sess.(session.Leaver); ok && (m.snap.CanLeave || m.snap.Leaving) {
		add("  q then l leaves the game for good: you are out at your next move and your role is shown; the others play on without you, and your screen closes")
	}
	if m.chatter != nil {
		add("  " + chatHelp)
	}
	var body []string
	for _, l := range lines {
		for _, w := range wrap(l, width, 4) {
			for _, h := range heads {
				if w == h {
					w = m.st.head.Render(w)
					break
				}
			}
			body = append(body, w)
		}
	}
	return body
}
