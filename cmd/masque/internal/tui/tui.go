// Package tui is the play screen: one seat at a running table, drawn with
// Bubble Tea from the game-neutral view model of what the seat may see
// (engine/seatview, which the game's viewer fills: one place decides, the
// screen draws): the
// seats in the order they sit (the 2nd edition's Puppeteer moves players
// between chairs) with what is public about them, the shared areas (the
// centre, the portraits, the decks), what the table is in the middle of
// (a claim, with its challenge window counting down), the question with
// its legal choices in words (asking separately whether a hidden swap is
// real), whom the table waits for, the public log (which never tells
// whether a swap was real), the seat's memory and the result; table.go
// draws it. It drives a [session.Session] and nothing else.
//
// The model is pure: [Model.Update] takes messages (keys, snapshots,
// ticks) and returns commands; sessions are only called from commands.
package tui

import (
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
)

// Options set up the screen.
type Options struct {
	Title string // what kind of table, e.g. "local table against 3 bots"
	// NoMemory hides the seat's memory panel (a table may switch it off).
	NoMemory bool
	// ChallengeWindow is how long the seat has to challenge or pass before
	// it passes automatically; 0 means no limit.
	ChallengeWindow time.Duration
	NoColor         bool
	Logger          *slog.Logger // nil: discard
	// Bell, if set, receives a terminal bell (BEL) when a decision opens
	// for the seat: its turn, or a claim to answer.
	Bell io.Writer
}

// Messages.
type (
	// SnapshotMsg carries a new view of the table, taken at At.
	SnapshotMsg struct {
		Snap session.Snapshot
		Chat []session.ChatLine // the table chat so far (a session.Chatter's)
		At   time.Time
	}
	// TickMsg is the clock.
	TickMsg time.Time
	// SubmittedMsg reports the outcome of a submitted move.
	SubmittedMsg struct {
		Err  error
		Pos  int  // the entry the move was expected at
		Swap bool // its secret bit, if it had one
		Bits int  // how many secret bits it had
		// Night: it was a secret night choice (session.Actor), whose
		// refusal the log does not record.
		Night bool
		act   seatview.Action // what was played, for the controller
	}
	// ClosedMsg says the session's updates ended.
	ClosedMsg struct{}
)

// Model is the play screen's state.
type Model struct {
	sess session.Session
	opts Options
	log  *slog.Logger
	st   styles

	snap session.Snapshot
	have bool
	now  time.Time

	width, height int

	legal   []engine.Move
	labels  []string
	choices list.Model // the moves on offer, in words (bubbles/list)
	quitAsk bool
	help    bool // the help page is shown (the ? key)
	status  string

	keys      keyMap
	helpBar   help.Model     // the line of keys at the bottom (bubbles/help)
	logView   viewport.Model // the public log: follows the newest, pgup/pgdown scroll it
	logFollow bool           // the log shows its newest lines
	helpView  viewport.Model // the help page, scrolled with ↑/↓
	spin      spinner.Model  // shown while the table waits for another seat
	// memRows, if not 0, is how many lines the memory panel may take: on
	// a small terminal it gives way so that the log keeps a few lines.
	memRows int
	// compact drops the blank lines between the parts of the screen, for
	// the same reason.
	compact bool
	// brief cuts the other seats' rows and the table's lines to one line
	// each (the help page shows them in full): the last resort of a
	// screen too short for its question, its keys and the seat's own
	// card.
	brief bool
	// overRows is a finished game's screen too short for it: the memory
	// panel gives way entirely (the end shows every card) and the table's
	// lines are cut to one line each before the seats' rows, which hold
	// the final score (each seat's roses and characters), are.
	overRows bool

	// ctl is the seat's interaction, as every screen's: the choices on
	// offer and the menu step the seat is at (seatview.Menu), a choice
	// waiting for its confirmation, the answer window and its automatic
	// pass, a move under way, the seat's secret bits, leaving the game
	// for good (a session.Leaver: the screen closes once the seat is out).
	ctl seatview.Controller

	rung   int // the entry count of the last decision the bell rang for
	warned int // the entry count of the last decision warned of its deadline
	quit   bool

	tv   *seatview.Table // the view of the last snapshot (table.go), nil before the deal
	salt [32]byte        // seals the seat's sealed choices (seatview.Input.Salt)

	// The table chat, at a networked table (the session is a
	// session.Chatter): its messages, each with the log's length when
	// it came (it shows after those lines), and the input line (c).
	chatter  session.Chatter
	chat     []session.ChatLine
	chatAt   []int
	chatIn   textinput.Model
	chatting bool
}

type styles struct {
	title, turn, cursor, dim, warn, head lipgloss.Style
}

func newStyles(noColor bool) styles {
	if noColor {
		p := lipgloss.NewStyle()
		return styles{p, p, p, p, p, p}
	}
	return styles{
		title:  lipgloss.NewStyle().Bold(true),
		turn:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("3")),
		cursor: lipgloss.NewStyle().Reverse(true),
		dim:    lipgloss.NewStyle().Foreground(lipgloss.Color("8")),
		warn:   lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("1")),
		head:   lipgloss.NewStyle().Bold(true).Underline(true),
	}
}

// New returns the screen for sess.
func New(sess session.Session, opts Options) Model {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	st := newStyles(opts.NoColor)
	var salt [32]byte
	if sl, ok := sess.(session.Sealer); ok {
		salt = sl.SealSalt()
	} else if _, err := rand.Read(salt[:]); err != nil {
		lg.Error("salt", "err", err)
	}
	chatter, _ := sess.(session.Chatter)
	return Model{sess: sess, salt: salt, opts: opts, log: lg, st: st, ctl: seatview.NewController(),
		chatter: chatter, chatIn: newChatInput(st),
		rung: -1, warned: -1,
		choices: newChoices(st, nil), keys: newKeyMap(), helpBar: newHelpLine(st),
		logView: viewport.New(0, 0), logFollow: true, helpView: viewport.New(0, 0),
		spin: spinner.New(spinner.WithSpinner(spinner.Points), spinner.WithStyle(st.dim))}
}

// Run shows the screen on a terminal (in and out) until the player leaves
// and returns the final model. It does not close sess.
func Run(sess session.Session, opts Options, in io.Reader, out io.Writer) (Model, error) {
	prog := tea.NewProgram(New(sess, opts), tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out))
	final, err := prog.Run()
	fm, _ := final.(Model)
	return fm, err
}

// Snapshot takes a view of sess now.
func Snapshot(sess session.Session) SnapshotMsg {
	msg := SnapshotMsg{Snap: sess.Snapshot(), At: time.Now()}
	if c, ok := sess.(session.Chatter); ok {
		msg.Chat = c.ChatLog()
	}
	return msg
}

// warnBefore is how long before the deadline of its move a seat is
// warned (and the bell rings again).
const warnBefore = 30 * time.Second

// timeLeft is the time left for this seat's move, when the table sets one.
//
// An answer in its window (a claim's) passes by itself when the window
// runs out: the move time only counts when it runs out first.
func (m Model) timeLeft() (time.Duration, bool) {
	if !m.snap.MyTurn || m.snap.MyDeadline.IsZero() {
		return 0, false
	}
	if win, ok := m.ctl.Window(); ok && m.tv != nil && m.tv.Question != nil && m.tv.Question.Window && !win.After(m.snap.MyDeadline) {
		return 0, false
	}
	return max(0, m.snap.MyDeadline.Sub(m.now)), true
}

// clock formats a countdown: "4:32", "0:07".
func clock(d time.Duration) string {
	secs := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%d:%02d", secs/60, secs%60)
}

// ring writes a terminal bell to w.
func ring(w io.Writer) tea.Cmd {
	return func() tea.Msg {
		w.Write([]byte("\a"))
		return nil
	}
}

func waitUpdate(sess session.Session) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-sess.Updates(); !ok {
			return ClosedMsg{}
		}
		return Snapshot(sess)
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second/2, func(t time.Time) tea.Msg { return TickMsg(t) })
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd {
	sess := m.sess
	return tea.Batch(func() tea.Msg { return Snapshot(sess) }, waitUpdate(sess), tick(), m.spin.Tick)
}

// Quitting reports whether the player left.
func (m Model) Quitting() bool { return m.quit }

// Snap returns the last snapshot the screen has.
func (m Model) Snap() session.Snapshot { return m.snap }

// sanitize escapes everything in a snapshot that peers may have written:
// names, the public log (it quotes names), whom the table waits for and
// the verdict (a peer's reason).
func sanitize(s session.Snapshot) session.Snapshot {
	s.Names = termsafe.Strings(s.Names)
	s.Log = termsafe.Strings(s.Log)
	s.Verdict = termsafe.String(s.Verdict)
	if s.Waiting != nil {
		w := *s.Waiting
		w.Name = termsafe.String(w.Name)
		s.Waiting = &w
	}
	return s
}

// Update implements tea.Model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if nm, ok := next.(Model); ok {
		nm.relayout()
		return nm, cmd
	}
	return next, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case SnapshotMsg:
		return m.onSnapshot(msg)
	case TickMsg:
		m.now = time.Time(msg)
		if a, ok := m.ctl.Tick(m.now); ok {
			// The answer window ran out: the seat passes, once.
			m.status = "time is up: you pass"
			return m, tea.Batch(m.run(a), tick())
		}
		if left, ok := m.timeLeft(); ok && left <= warnBefore && m.warned != m.snap.Entries && m.opts.Bell != nil {
			m.warned = m.snap.Entries
			return m, tea.Batch(tick(), ring(m.opts.Bell))
		}
		return m, tick()
	case SubmittedMsg:
		m.ctl.Done(msg.act, msg.Err)
		if msg.Err != nil {
			m.status = "refused: " + termsafe.String(msg.Err.Error())
			if msg.Night {
				// Why says whether the seat holds a power.
				m.log.Warn("night choice refused")
			} else {
				m.log.Warn("move refused", "err", msg.Err)
			}
		} else {
			m.status = ""
		}
		sess := m.sess
		return m, func() tea.Msg { return Snapshot(sess) }
	case LeaveMsg:
		m.ctl.LeaveRefused()
		m.status = "cannot leave: " + termsafe.String(msg.Err.Error())
		return m, nil
	case ChatSentMsg:
		if msg.Err != nil {
			m.status = "chat: " + termsafe.String(msg.Err.Error())
		} else if strings.HasPrefix(m.status, "chat: ") {
			m.status = ""
		}
		sess := m.sess
		return m, func() tea.Msg { return Snapshot(sess) }
	case ClosedMsg:
		m.snap.Over = true
		if m.snap.Verdict == "" && !m.over() {
			m.snap.Verdict = "the session ended"
		}
		return m, nil
	case tea.KeyMsg:
		return m.onKey(msg)
	}
	if m.chatting { // the input line's own messages (its cursor's blink)
		var cmd tea.Cmd
		m.chatIn, cmd = m.chatIn.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m Model) onSnapshot(msg SnapshotMsg) (tea.Model, tea.Cmd) {
	m.snap, m.have = sanitize(msg.Snap), true
	m.noteChat(msg.Chat)
	if m.now.IsZero() || msg.At.After(m.now) {
		m.now = msg.At
	}
	m.tv = m.buildView()
	if m.snap.Leaving {
		m.ctl.SetLeaving()
		m.status = leavingNote
	}
	if m.snap.Retired && m.ctl.Leaving() {
		// Out of the game, and every seat holds the entry with the
		// seat's card key: the others play on without it.
		m.quit = true
		return m, tea.Quit
	}
	if m.ctl.Offer(m.question(), m.snap.Entries, m.snap.AskedSince(msg.At), m.opts.ChallengeWindow) {
		m.legal = nil
		for _, c := range m.ctl.Choices() {
			m.legal = append(m.legal, c.Move)
		}
		// Every decision opens on the safe choice (pass, or the first
		// option): at a network table the turn often arrives in a
		// snapshot of its own, after the entry that opened it.
		m.showMenu("")
	}
	if m.snap.MyTurn && !m.snap.Over && m.opts.Bell != nil && m.rung != m.snap.Entries {
		m.rung = m.snap.Entries
		return m, tea.Batch(waitUpdate(m.sess), ring(m.opts.Bell))
	}
	return m, waitUpdate(m.sess)
}

// question is the question the seat must answer now, or nil.
func (m Model) question() *seatview.Question {
	if !m.snap.MyTurn || m.tv == nil {
		return nil
	}
	return m.tv.Question
}

// run plays a, an action of the seat's controller, on the session: a
// move, or a secret night choice (session.Actor).
func (m *Model) run(a seatview.Action) tea.Cmd {
	sess, night := m.sess, a.Play.Night != nil
	if night {
		// The log file is not secret: it says that a choice was made,
		// never what (a target, or sleep: that alone tells a civilian
		// from a power holder), nor why one was refused.
		m.log.Info("night choice")
	} else {
		m.log.Info("submit", "kind", a.Play.Move.Kind, "args", a.Play.Move.Args, "bits", len(a.Play.Bits))
	}
	return func() tea.Msg {
		msg := SubmittedMsg{Err: a.Run(sess), Pos: a.At, Bits: len(a.Play.Bits), Night: night, act: a}
		if len(a.Play.Bits) > 0 {
			msg.Swap = a.Play.Bits[0]
		}
		return msg
	}
}

func (m Model) onKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	keys := m.keys
	if key.Matches(k, keys.ForceQuit) {
		m.quit = true
		return m, tea.Quit
	}
	if m.chatting {
		return m.onChatKey(k)
	}
	if m.quitAsk {
		m.quitAsk = false
		if key.Matches(k, keys.Yes, keys.Quit) { // q, q leaves too
			m.quit = true
			return m, tea.Quit
		}
		if key.Matches(k, keys.LeaveGame) && m.snap.CanLeave {
			return m.leaveGame()
		}
		m.status = ""
		return m, nil
	}
	if m.help {
		switch {
		case key.Matches(k, keys.Help, keys.Back, keys.Quit):
			m.help = false
			m.helpView.GotoTop()
		case key.Matches(k, keys.Down):
			m.helpView.ScrollDown(1)
		case key.Matches(k, keys.Up):
			m.helpView.ScrollUp(1)
		case key.Matches(k, keys.Newer):
			m.helpView.PageDown()
		case key.Matches(k, keys.Older):
			m.helpView.PageUp()
		}
		return m, nil
	}
	switch {
	case key.Matches(k, keys.Help):
		m.help = true
		return m, nil
	case key.Matches(k, keys.Chat) && m.chatter != nil && m.have:
		return m.openChat()
	case key.Matches(k, keys.Older):
		m.logView.ScrollUp(5)
		m.logFollow = false
		return m, nil
	case key.Matches(k, keys.Newer):
		m.logView.ScrollDown(5)
		m.logFollow = m.logView.AtBottom()
		return m, nil
	}
	if c := m.ctl.Asking(); c != nil {
		answer := ""
		switch {
		case key.Matches(k, keys.Yes):
			answer = seatview.Yes
		case key.Matches(k, keys.No) && c.Secret:
			answer = seatview.No
		case key.Matches(k, keys.No, keys.Back):
		default:
			return m, nil
		}
		if a, ok := m.ctl.Answer(answer); ok {
			return m, m.run(a)
		}
		return m, nil
	}
	switch {
	case key.Matches(k, keys.Quit):
		if m.over() || !m.have || m.snap.Retired {
			m.quit = true
			return m, tea.Quit
		}
		m.quitAsk = true
		return m, nil
	case key.Matches(k, keys.Up):
		m.choices.CursorUp()
	case key.Matches(k, keys.Down):
		m.choices.CursorDown()
	case key.Matches(k, keys.Home):
		m.choices.Select(0)
	case key.Matches(k, keys.End):
		m.choices.Select(max(0, len(m.labels)-1))
	case key.Matches(k, keys.Back):
		if from, ok := m.ctl.Back(); ok {
			m.showMenu(from)
		}
	case key.Matches(k, keys.Pass):
		if a, ok := m.ctl.Pass(); ok {
			return m, m.run(a)
		}
	case key.Matches(k, keys.Play):
		if !m.snap.MyTurn {
			return m, nil
		}
		_, path := m.ctl.Menu()
		a, ok := m.ctl.Pick(m.choices.Index())
		if ok {
			return m, m.run(a)
		}
		if _, p := m.ctl.Menu(); len(p) != len(path) {
			m.showMenu("") // a step taken
		}
	}
	return m, nil
}

func (m Model) over() bool {
	return m.snap.Over || m.tv != nil && m.tv.Over
}

// View implements tea.Model.
func (m Model) View() string {
	if m.quit {
		return ""
	}
	top, table := m.viewTop()
	if !table {
		return top
	}
	if m.help {
		keys := "? or esc: back to the table"
		if !m.helpView.AtTop() || !m.helpView.AtBottom() {
			keys = "↑/↓ scroll · " + keys
		}
		return m.fit(top + m.helpView.View() + "\n" + m.st.dim.Render(keys) + "\n")
	}
	return m.fit(top + m.viewLog())
}

// viewTop draws everything above the log (or, with the help page open,
// the help page's title). table is false when there is no table to draw
// yet: top is then the whole view.
func (m Model) viewTop() (top string, table bool) {
	top, table = m.viewTopInner()
	if table && !m.help {
		top += m.viewChatInput()
	}
	return top, table
}

// viewTopInner draws everything above the log but the chat input line.
func (m Model) viewTopInner() (top string, table bool) {
	if m.tv != nil {
		return m.viewTopTable()
	}
	var b strings.Builder
	title := "masque"
	if m.opts.Title != "" {
		title += " · " + termsafe.String(m.opts.Title)
	}
	b.WriteString(m.st.title.Render(title) + "\n\n")
	if m.snap.Verdict != "" {
		b.WriteString(m.st.warn.Render("the table stopped: "+m.snap.Verdict) + "\n")
	} else {
		b.WriteString("shuffling and dealing…\n")
	}
	b.WriteString("\n" + m.st.dim.Render("q quit") + "\n")
	return b.String(), false
}

// wrapLines wraps every line wider than the terminal at spaces (a word
// longer than a line is broken), continuing it indented by 4: a line cut
// with an ellipsis may lose what it says ("the Judge or the King (each
// was h…").
func (m Model) wrapLines(v string) string {
	if m.width <= 20 {
		return v
	}
	lines := strings.SplitAfter(v, "\n")
	var out strings.Builder
	for _, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		if ansi.StringWidth(body) <= m.width {
			out.WriteString(l)
			continue
		}
		indent := 4 + len(body) - len(strings.TrimLeft(body, " "))
		indent = min(indent, m.width/3)
		parts := strings.Split(ansi.Wrap(body, m.width, ""), "\n")
		out.WriteString(parts[0])
		if rest := strings.Join(parts[1:], " "); rest != "" {
			for _, p := range strings.Split(ansi.Wrap(strings.TrimLeft(rest, " "), m.width-indent, ""), "\n") {
				out.WriteString("\n" + strings.Repeat(" ", indent) + p)
			}
		}
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// minLogRows is how many lines of the log the screen keeps where it can.
const minLogRows = 4

// maxPages is how many pages a list of choices takes at most where it
// can: a longer one takes lines from the log (the player must see what
// is on offer to choose; the log scrolls).
const maxPages = 3

// sizeChoices sizes the list of choices to pages of rows.
func (m *Model) sizeChoices(width, rows int) {
	n := len(m.labels)
	if n == 0 {
		return
	}
	if n <= rows {
		m.choices.SetShowPagination(false)
		m.choices.SetSize(width, n)
	} else {
		m.choices.SetShowPagination(true)
		// rows choices, then the page line and the blank line the list
		// puts above it.
		m.choices.SetSize(width, rows+2)
	}
}

// memoryLines is how many lines the memory panel takes in full.
func (m Model) memoryLines() int {
	if m.tv == nil {
		return 0
	}
	var b strings.Builder
	m.memRows = 0
	m.viewTableMemory(&b)
	return strings.Count(b.String(), "\n")
}

// relayout sizes the bubbles the view is built of to the terminal and to
// what is above them: the list of choices, the log (which follows its
// newest line unless scrolled back) and the help page.
func (m *Model) relayout() {
	width := m.width
	if width <= 0 {
		width = 100
	}
	// The log keeps minLogRows lines where it can: the list of choices
	// gives way first (down to a third of its lines a page: never more
	// than maxPages pages), then the blank lines, then the memory panel
	// (down to 2 lines), then the list again (down to 3 a page) and, for
	// a list that would be more than maxPages pages, the log (down to 1
	// line); a screen still taller than the terminal cuts the other
	// seats' rows and the table's lines to one line each (brief), and only
	// then takes the list past maxPages pages.
	rows := maxChoiceRows
	if m.height > 0 {
		rows = max(4, min(rows, m.height/4))
	}
	need := min(maxChoiceRows, (len(m.labels)+maxPages-1)/maxPages)
	rows = max(rows, need)
	m.memRows, m.compact, m.brief, m.overRows = 0, false, false, false
	var top string
	for {
		m.sizeChoices(width, rows)
		var table bool
		top, table = m.viewTop()
		if !table {
			return
		}
		left := m.height - strings.Count(top, "\n") - 1
		short := m.height > 0 && !m.help && left < minLogRows
		switch {
		case short && rows > max(3, need) && len(m.labels) > rows:
			rows--
			continue
		case short && !m.compact:
			m.compact = true
			continue
		case short && !m.opts.NoMemory && (m.memRows == 0 || m.memRows > 1):
			if m.memRows == 0 {
				m.memRows = m.memoryLines()
			}
			m.memRows--
			if m.memRows >= 1 {
				continue
			}
			m.memRows = 1
			continue
		case short && rows > 3 && len(m.labels) > rows && rows > need:
			rows--
			continue
		case m.height > 0 && !m.help && left < 0 && !m.overRows && m.tv != nil && m.tv.Over:
			// The end: the final rows before the log and the memory.
			m.overRows = true
			continue
		case m.height > 0 && !m.help && left < 0 && !m.brief:
			// Still taller than the terminal: the question, its keys
			// and the seat's own card (the memory's first line) would
			// go off the bottom.
			m.brief = true
			continue
		case short && rows > 3 && len(m.labels) > rows && left < 0:
			rows--
			continue
		}
		break
	}
	used := strings.Count(top, "\n")
	if m.help {
		m.helpView.Width = width
		m.helpView.Height = max(1, m.height-used-1)
		if m.height <= 0 {
			m.helpView.Height = 1 << 20
		}
		m.helpView.SetContent(strings.Join(m.helpLines(width), "\n"))
		return
	}
	logRows := 8
	if m.height > 0 {
		logRows = max(0, m.height-used-1)
	}
	m.logView.Width = width
	m.logView.Height = logRows
	m.logView.SetContent(strings.Join(m.logLines(width), "\n"))
	if m.logFollow {
		m.logView.GotoBottom()
	}
}

// fit cuts a view to the terminal's height: the screen is never taller
// than the terminal (the title and whose turn it is stay on top).
func (m Model) fit(v string) string {
	if m.height <= 0 && m.width <= 0 {
		return v
	}
	lines := strings.SplitAfter(v, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if m.width > 0 {
		// A line wider than the terminal would wrap and push the top of
		// the screen off: it is cut, with an ellipsis.
		for i, l := range lines {
			body := strings.TrimSuffix(l, "\n")
			if ansi.StringWidth(body) > m.width {
				lines[i] = ansi.Truncate(body, m.width, "…") + "\n"
			}
		}
	}
	if m.height > 0 && len(lines) > m.height {
		lines = lines[:m.height]
	}
	// No newline after the last line: the terminal would scroll a line.
	return strings.TrimSuffix(strings.Join(lines, ""), "\n")
}

// compactSeats reports whether the seats are drawn as a grid: when one
// row each would take more than a quarter of the screen.
func (m Model) compactSeats(n int) bool {
	return m.height > 0 && n > 4 && n > m.height/4
}

// viewWaiting draws whom the table waits for (name; "" when it does not
// say), the time before the timeout, whether that seat is connected, and
// the keys.
func (m Model) viewWaiting(b *strings.Builder, name string) {
	text := "waiting…"
	if name != "" {
		text = "waiting for " + name + " " + m.spin.View()
	}
	if w := m.snap.Waiting; w != nil && w.Checking {
		text = "checking with the other seats what you already played " + m.spin.View() + "\n" +
			m.st.warn.Render("this game was restarted: you play once a seat has told this one its moves (none reached yet)")
	} else if w != nil {
		left := w.Left
		if !w.Deadline.IsZero() {
			left = max(0, w.Deadline.Sub(m.now))
		}
		if win, ok := m.othersWindow(w); ok && m.now.Before(win) && !w.Offline {
			// A claim's answerer: its screen passes for it when its
			// answer window runs out, long before the table's timeout
			// (not when it is not connected: nothing passes for it).
			text += fmt.Sprintf(" (%s left to answer, then %s passes)", clock(win.Sub(m.now)), w.Name)
		} else if left > 0 {
			text += fmt.Sprintf(" (%s before the timeout)", clock(left))
		}
		if !w.NoContactSince.IsZero() {
			text += "\n" + m.st.warn.Render(fmt.Sprintf("no contact with any seat since %s: your connection may be down; nobody is blamed until it is back",
				w.NoContactSince.Format("15:04:05")))
		} else if w.Offline {
			text += "\n" + m.st.warn.Render(fmt.Sprintf("%s is not connected: their masque may have stopped, or their phone's page closed (they rejoin by running the same command again, or by reopening the page)", w.Name))
		}
	}
	b.WriteString(text + "\n")
	if m.quitAsk {
		b.WriteString(m.quitQuestion() + "\n")
	} else {
		b.WriteString(m.helpLine(bar{m.keys.Older, m.keys.Help, m.keys.Quit}) + "\n")
	}
}

// othersWindow returns when the answer window of the seat the table
// waits for (w) runs out, if it answers a claim.
func (m Model) othersWindow(w *session.Wait) (time.Time, bool) {
	if m.tv == nil || w == nil {
		return time.Time{}, false
	}
	return seatview.OthersWindow(*m.tv, w.Since, m.opts.ChallengeWindow)
}

// swapBits are the secret bits of the seat's own swaps: the session's
// record (kept across restarts) and what this screen submitted.
func (m Model) swapBits() map[uint64][]bool {
	mine := m.ctl.Swaps()
	out := make(map[uint64][]bool, len(m.snap.SwapBits)+len(mine))
	for pos, bit := range mine {
		out[pos] = []bool{bit}
	}
	for pos, bits := range m.snap.SwapBits {
		out[pos] = bits
	}
	return out
}

// logLines is the public log wrapped to width, oldest first.
func (m Model) logLines(width int) []string {
	if m.tv == nil {
		return nil
	}
	var l []string
	c := 0
	chat := func(upTo int) {
		for ; c < len(m.chat) && m.chatAt[c] <= upTo; c++ {
			l = append(l, wrap(m.chatLine(m.chat[c]), width, 6)...)
		}
	}
	for i, x := range m.tv.Log {
		chat(i)
		for _, w := range wrap("  "+x, width, 6) {
			l = append(l, m.st.dim.Render(w))
		}
	}
	chat(len(m.tv.Log) + len(m.chat))
	return l
}

// viewLog draws the log's heading and the part of it the viewport shows.
func (m Model) viewLog() string {
	if m.logView.Height < 1 {
		return ""
	}
	head := "Log"
	back := max(0, m.logView.TotalLineCount()-m.logView.YOffset-m.logView.Height)
	switch {
	case back > 0:
		head = fmt.Sprintf("Log (scrolled back %d %s: pgdown for newer)", back, plural(back, "line", "lines"))
	case m.logView.TotalLineCount() > m.logView.Height:
		head = "Log (pgup for older)"
	}
	return m.st.head.Render(head) + "\n" + m.logView.View() + "\n"
}

// wrap breaks s into lines of at most width runes at spaces; continuation
// lines are indented by indent spaces. A word longer than a line is cut.
func wrap(s string, width, indent int) []string {
	if width <= indent+10 || len([]rune(s)) <= width {
		return []string{s}
	}
	var out []string
	cur := []rune{}
	for _, word := range strings.SplitAfter(s, " ") {
		w := []rune(word)
		if len(cur)+len(strings.TrimRight(word, " ")) > width && len(strings.TrimSpace(string(cur))) > 0 {
			out = append(out, strings.TrimRight(string(cur), " "))
			cur = []rune(strings.Repeat(" ", indent))
		}
		// A word that ends at the width keeps its space on this line
		// (trimmed when the line is flushed), not at the next one's start.
		for len(cur)+len([]rune(strings.TrimRight(string(w), " "))) > width {
			n := width - len(cur)
			out = append(out, string(cur)+string(w[:n]))
			cur, w = []rune(strings.Repeat(" ", indent)), w[n:]
		}
		cur = append(cur, w...)
	}
	if strings.TrimSpace(string(cur)) != "" {
		out = append(out, strings.TrimRight(string(cur), " "))
	}
	return out
}

// plural picks the singular or plural noun for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// leavingNote is the status line of a seat on its way out of the game.
const leavingNote = "leaving the game at your next move; your night is played for you till then"

// quitQuestion is the question q asks: at a table whose game lets a
// player leave for good (a session.Leaver), whether to leave the game or
// only close the screen.
func (m Model) quitQuestion() string {
	if !m.snap.CanLeave {
		return m.st.warn.Render("leave the table? y/n")
	}
	return m.st.warn.Render("l: leave the game for good (you are out, your role is shown)") + "\n" +
		m.st.warn.Render("y: close the screen only (the table waits for you to come back) · n: stay")
}

// LeftGame says whether the player left the game for good from this
// screen (the screen closed once the seat was out).
func (m Model) LeftGame() bool { return m.ctl.Leaving() && m.snap.Retired }

// leaveGame asks the session to leave the game for good.
func (m Model) leaveGame() (tea.Model, tea.Cmd) {
	leave, err := m.ctl.Leave(m.sess)
	if err != nil {
		m.status = err.Error()
		return m, nil
	}
	m.status = leavingNote
	m.log.Info("leave the game")
	sess := m.sess
	return m, func() tea.Msg {
		if err := leave(); err != nil {
			return LeaveMsg{Err: err}
		}
		return Snapshot(sess)
	}
}

// LeaveMsg reports a refused request to leave the game.
type LeaveMsg struct{ Err error }

// showMenu shows the menu step the seat is at (seatview.Controller),
// with the cursor on the step named at, or on the first line.
func (m *Model) showMenu(at string) {
	items, _ := m.ctl.Menu()
	m.labels = nil
	sel := 0
	for i, it := range items {
		m.labels = append(m.labels, it.Label)
		if at != "" && it.Choice < 0 && it.Step == at {
			sel = i
		}
	}
	m.choices = newChoices(m.st, m.labels)
	m.choices.Select(sel)
}

// menuPath is the steps the seat took into the menu of its choices.
func (m Model) menuPath() []string {
	_, p := m.ctl.Menu()
	return p
}
