package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/masque-games/masque/cmd/masque/internal/narrate"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/view"
	"github.com/masque-games/masque/engine"
)

// This file is the screen's generic path: it draws a [view.Table], the
// game-neutral view model of what the seat may see, for any game with a
// view builder (The Grimm Masquerade). It knows nothing of a game's
// rules: the builder decides what the seat sees, this file how it looks.

// buildView returns the view of the last snapshot, escaped for the
// terminal, or nil when no view builder draws its game (Mascarade).
func (m Model) buildView() *view.Table {
	if m.snap.Rules == nil {
		return nil
	}
	if _, mascarade := narrate.RulesOf(m.snap.Rules); mascarade {
		return nil // drawn by the Mascarade path (tui.go)
	}
	t, ok := view.Build(view.Input{Rules: m.snap.Rules, Seat: engine.Seat(m.snap.Seat), Names: m.snap.Names,
		Known: m.snap.Known, Memory: m.snap.Memory, Log: m.snap.Log, MyTurn: m.snap.MyTurn, Over: m.snap.Over, Salt: m.salt})
	if !ok {
		return nil
	}
	safe := safeTable(t)
	return &safe
}

// safeTable escapes every string of a view (termsafe): names come from
// the roster, which peers wrote, and the view quotes them everywhere.
func safeTable(t view.Table) view.Table {
	e := termsafe.String
	t.Game, t.Status, t.Waiting = e(t.Game), e(t.Status), e(t.Waiting)
	t.Result, t.Memory, t.Log = termsafe.Strings(t.Result), termsafe.Strings(t.Memory), termsafe.Strings(t.Log)
	card := func(cs []view.Card) []view.Card {
		out := make([]view.Card, len(cs))
		for i, c := range cs {
			out[i] = view.Card{Name: e(c.Name), Face: c.Face, Note: e(c.Note)}
		}
		return out
	}
	seats := make([]view.Seat, len(t.Seats))
	for i, s := range t.Seats {
		s.Name, s.Status, s.Tokens, s.Cards = e(s.Name), e(s.Status), termsafe.Strings(s.Tokens), card(s.Cards)
		attrs := make([]view.Attr, len(s.Attrs))
		for j, a := range s.Attrs {
			attrs[j] = view.Attr{Name: e(a.Name), Value: e(a.Value), Words: e(a.Words)}
		}
		s.Attrs = attrs
		seats[i] = s
	}
	t.Seats = seats
	areas := make([]view.Area, len(t.Areas))
	for i, a := range t.Areas {
		a.Name, a.Note, a.Cards = e(a.Name), e(a.Note), card(a.Cards)
		areas[i] = a
	}
	t.Areas = areas
	if q := t.Question; q != nil {
		nq := *q
		nq.Text = e(q.Text)
		nq.Choices = make([]view.Choice, len(q.Choices))
		for i, c := range q.Choices {
			c.Words, c.Confirm = e(c.Words), e(c.Confirm)
			nq.Choices[i] = c
		}
		t.Question = &nq
	}
	help := make([]view.Section, len(t.Help))
	for i, h := range t.Help {
		help[i] = view.Section{Title: e(h.Title), Lines: termsafe.Strings(h.Lines)}
	}
	t.Help = help
	return t
}

// cardsText lists cards in words: face-up cards with equal ones counted
// ("Crown ×2"), the cards only the seat knows grouped by what they are
// ("your hand: Mirror, Clock"), face-down ones counted ("3 face-down hand
// cards").
func cardsText(cs []view.Card) string {
	var up, known, down []string
	count := map[string]int{}
	mine := map[string][]string{}
	downs := map[string]int{}
	for _, c := range cs {
		switch c.Face {
		case view.FaceUp:
			if count[c.Name] == 0 {
				up = append(up, c.Name)
			}
			count[c.Name]++
		case view.KnownToYou:
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
	for _, n := range up {
		if count[n] > 1 {
			n = fmt.Sprintf("%s ×%d", n, count[n])
		}
		out = append(out, n)
	}
	for _, n := range known {
		what := "only you know"
		if n != "" {
			what = "your " + n + " (only you know)"
		}
		out = append(out, what+": "+strings.Join(mine[n], ", "))
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
	if t.You >= 0 && t.You < len(t.Seats) {
		me = t.Seats[t.You].Name
	}
	line("%s", m.st.title.Render(fmt.Sprintf("%s · you are %s", title, me)))
	line("%s", t.Status)
	line("")
	for _, s := range t.Seats {
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
		parts := []string{fmt.Sprintf("%s%-12s", mark, name)}
		var attrs []string
		for _, a := range s.Attrs {
			if a.Words != "" {
				attrs = append(attrs, a.Words)
			} else {
				attrs = append(attrs, a.Name+" "+a.Value)
			}
		}
		parts = append(parts, strings.Join(attrs, ", "))
		if s.Status != "" {
			parts = append(parts, s.Status)
		}
		var rest []view.Card
		for _, c := range s.Cards {
			if c.Note == "character" || c.Note == "your character" {
				continue // the status says it
			}
			rest = append(rest, c)
		}
		if txt := cardsText(rest); txt != "" {
			parts = append(parts, txt)
		} else {
			parts = append(parts, "no items")
		}
		row := parts[0] + " " + strings.Join(parts[1:], " · ")
		if s.Turn {
			row = m.st.turn.Render(row)
		}
		line("%s", row)
	}
	var piles []string
	for _, a := range t.Areas {
		switch {
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
			line("  %s: %s", a.Name, strings.Join(marked, " · "))
		case a.Count < 0:
			text := "  " + a.Name
			if a.Note != "" {
				text += " (" + a.Note + ")"
			}
			var names []string
			for _, c := range a.Cards {
				names = append(names, c.Name)
			}
			line("%s: %s", text, strings.Join(names, " · "))
		case a.Pile || len(a.Cards) == 0:
			piles = append(piles, fmt.Sprintf("%s %d", a.Name, a.Count))
		default:
			piles = append(piles, fmt.Sprintf("%s: %s", a.Name, cardsText(a.Cards)))
		}
	}
	if len(piles) > 0 {
		line("  %s", strings.Join(piles, " · "))
	}
	line("")
	m.viewTableSituation(&b)
	if !m.opts.NoMemory {
		m.viewTableMemory(&b)
	}
	v := b.String()
	if m.compact {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\n\n", "\n"), "\n\n", "\n")
	}
	return m.wrapLines(v), true
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
		if len(t.Result) > 0 {
			if t.Won {
				line("%s", m.st.turn.Render("you won!"))
			} else {
				line("%s", m.st.warn.Render("you did not win this time"))
			}
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
		line("%s", t.Question.Text)
		if len(m.labels) > 0 {
			line("%s", m.choices.View())
		}
		switch {
		case m.ask != nil:
			line("%s", m.st.warn.Render(m.ask.Confirm+" y/n (esc: back)"))
		case m.quitAsk:
			line("%s", m.st.warn.Render("leave the table? y/n"))
		case m.busy:
			line("playing…")
		default:
			keys := bar{m.keys.Up, m.keys.Play}
			if m.choices.Paginator.TotalPages > 1 {
				keys = append(keys, m.keys.Home)
			}
			keys = append(keys, m.keys.Help, m.keys.Quit)
			line("%s", m.helpLine(keys))
		}
	default:
		m.viewWaiting(b, t.Waiting)
	}
	if m.status != "" {
		line("%s", m.st.warn.Render(m.status))
	}
	line("")
}

// viewTableMemory draws what the seat knows that the table does not show.
func (m Model) viewTableMemory(out *strings.Builder) {
	if len(m.tv.Memory) == 0 || (m.memRows > 0 && m.memRows <= 2) {
		return // a small terminal: the help page (?) shows it
	}
	lines := []string{m.st.head.Render("You know") + "\n"}
	for _, l := range m.tv.Memory {
		lines = append(lines, "  "+l+"\n")
	}
	if m.memRows > 0 && len(lines) > m.memRows {
		lines = append(lines[:m.memRows-1], m.st.dim.Render("  … (? shows all you know)")+"\n")
	}
	out.WriteString(strings.Join(lines, ""))
	out.WriteString("\n")
}

// tableHelpLines is the help page of a view: its sections, what you
// know, then the keys.
func (m Model) tableHelpLines(width int) []string {
	t := m.tv
	var heads []string
	var lines []string
	add := func(l string) { lines = append(lines, l) }
	for _, sec := range t.Help {
		heads = append(heads, sec.Title)
		add(sec.Title)
		for _, l := range sec.Lines {
			add("  " + l)
		}
		add("")
	}
	if len(t.Memory) > 0 {
		heads = append(heads, "What you know")
		add("What you know")
		for _, l := range t.Memory {
			add("  " + l)
		}
		add("")
	}
	heads = append(heads, "Keys")
	add("Keys")
	add("  ↑/↓ or j/k choose a move, home/end the first or last, enter plays it")
	add("  y/n answer a question (leave the table?)")
	add("  pgup/pgdown scroll the log; ? this help (↑/↓ scroll it); q leaves (q twice, or q then y)")
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
