// Package tui is the play screen: one seat at a running table, drawn with
// Bubble Tea. A game with a view model (cmd/masque/internal/view: The
// Grimm Masquerade) is drawn from its [view.Table] by the generic path in
// table.go: seats, shared areas, the question with its choices, the log,
// the result and the help, exactly what the view says the seat may see.
// Mascarade (either edition) is still drawn from [narrate.Rules] by the
// code below; folding it onto a view builder is the next step. It
// drives a [session.Session] and nothing else: it shows the seats with
// their coins in chair order (the 2nd edition's Puppeteer moves players
// between chairs), the court, the centre cards and whose turn it is,
// offers only the legal moves (asking separately whether a hidden swap is
// real), counts down the challenge window, shows the public log (which
// never tells whether a swap was real), the seat's own memory (what it
// peeked, what was revealed, what a Princess showed it) and the result.
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

	"github.com/masque-games/masque/cmd/masque/internal/narrate"
	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/view"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
)

// History is implemented by sessions that list the moves so far with the
// hidden swaps they caused (public information). With it the memory panel
// tells which swaps since a sighting could have moved the card.
type History interface {
	Moves() []narrate.Moved
}

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
		Snap  session.Snapshot
		Moves []narrate.Moved
		Chat  []session.ChatLine // the table chat so far (a session.Chatter's)
		At    time.Time
	}
	// TickMsg is the clock.
	TickMsg time.Time
	// SubmittedMsg reports the outcome of a submitted move.
	SubmittedMsg struct {
		Err  error
		Pos  int  // the entry the move was expected at
		Swap bool // its secret bit, if it had one
		Bits int  // how many secret bits it had
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

	snap  session.Snapshot
	moves []narrate.Moved
	have  bool
	now   time.Time

	width, height int

	legal   []engine.Move
	labels  []string
	choices list.Model   // the moves on offer, in words (bubbles/list)
	confirm *engine.Move // a swap-like move waiting for "really swap?"
	quitAsk bool
	help    bool // the help page is shown (the ? key)
	busy    bool
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

	window   int // the Entries of the response window the deadline is for, or -1
	deadline time.Time
	passed   int // the window the screen passed in automatically

	mySwaps map[uint64]bool // the local seat's secret bits, by entry
	rung    int             // the entry count of the last decision the bell rang for
	warned  int             // the entry count of the last decision warned of its deadline
	quit    bool

	// The generic path (table.go): the view of a game with a view model.
	tv    *view.Table
	picks []view.Choice // the choices on offer, as m.legal
	ask   *view.Choice  // a choice waiting for its confirmation
	salt  [32]byte      // seals the seat's sealed choices (view.Input.Salt)

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
	return Model{sess: sess, salt: salt, opts: opts, log: lg, st: st, window: -1, passed: -1,
		chatter: chatter, chatIn: newChatInput(st),
		mySwaps: map[uint64]bool{}, rung: -1, warned: -1,
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
	if h, ok := sess.(History); ok {
		msg.Moves = h.Moves()
	}
	if c, ok := sess.(session.Chatter); ok {
		msg.Chat = c.ChatLog()
	}
	return msg
}

// warnBefore is how long before the deadline of its move a seat is
// warned (and the bell rings again).
const warnBefore = 30 * time.Second

// timeLeft is the time left for this seat's move, when the table sets one.
func (m Model) timeLeft() (time.Duration, bool) {
	if !m.snap.MyTurn || m.snap.MyDeadline.IsZero() {
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

// rules returns the rules of the last snapshot, or nil.
func (m Model) rules() narrate.Rules {
	s, ok := narrate.RulesOf(m.snap.Rules)
	if !ok || s == nil {
		return nil
	}
	return safeRules{s}
}

// safeRules is the rules as the screen draws them: the player names (from
// the roster: others chose them) and the texts quoting them are escaped
// (termsafe), so that no peer's name can drive the terminal.
type safeRules struct{ narrate.Rules }

// Name is the player's name, escaped.
func (s safeRules) Name(p engine.Seat) string { return termsafe.String(s.Rules.Name(p)) }

// SlotName names a slot (a player's name or a centre card), escaped.
func (s safeRules) SlotName(x engine.Slot) string { return termsafe.String(s.Rules.SlotName(x)) }

// FormatMove is a move's script text (it names players), escaped.
func (s safeRules) FormatMove(mv engine.Move) string { return termsafe.String(s.Rules.FormatMove(mv)) }

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
		if cmd := m.autoPass(); cmd != nil {
			m.busy = true
			return m, tea.Batch(cmd, tick())
		}
		if left, ok := m.timeLeft(); ok && left <= warnBefore && m.warned != m.snap.Entries && m.opts.Bell != nil {
			m.warned = m.snap.Entries
			return m, tea.Batch(tick(), ring(m.opts.Bell))
		}
		return m, tick()
	case SubmittedMsg:
		m.busy = false
		if msg.Err != nil {
			m.status = "refused: " + termsafe.String(msg.Err.Error())
			m.log.Warn("move refused", "err", msg.Err)
		} else {
			m.status = ""
			if msg.Bits > 0 {
				m.mySwaps[uint64(msg.Pos)] = msg.Swap
			}
		}
		sess := m.sess
		return m, func() tea.Msg { return Snapshot(sess) }
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
	old := m.snap
	m.snap, m.moves, m.have = sanitize(msg.Snap), msg.Moves, true
	m.noteChat(msg.Chat)
	if m.now.IsZero() || msg.At.After(m.now) {
		m.now = msg.At
	}
	m.tv = m.buildView()
	if !m.snap.MyTurn || old.Entries != m.snap.Entries || !old.MyTurn {
		m.legal, m.labels, m.confirm, m.picks, m.ask = nil, nil, nil, nil, nil
		if m.tv != nil && m.tv.Question != nil {
			m.picks = m.tv.Question.Choices
			for _, c := range m.picks {
				m.legal = append(m.legal, c.Move)
				m.labels = append(m.labels, c.Words)
			}
		}
		if m.snap.MyTurn {
			if s := m.rules(); s != nil {
				m.legal = s.LegalMoves(engine.Seat(m.snap.Seat))
				for _, mv := range m.legal {
					m.labels = append(m.labels, Choice(s, mv))
				}
			}
		}
		// Every decision opens on the safe choice (pass, or the first
		// option): at a network table the turn often arrives in a
		// snapshot of its own, after the entry that opened it.
		m.choices = newChoices(m.st, m.labels)
	}
	if s := m.rules(); s != nil && m.snap.MyTurn && s.InChallengeWindow() && m.opts.ChallengeWindow > 0 {
		if m.window != m.snap.Entries {
			m.window, m.deadline = m.snap.Entries, msg.At.Add(m.opts.ChallengeWindow)
		}
	} else {
		m.window = -1
	}
	if m.snap.MyTurn && !m.snap.Over && m.opts.Bell != nil && m.rung != m.snap.Entries {
		m.rung = m.snap.Entries
		return m, tea.Batch(waitUpdate(m.sess), ring(m.opts.Bell))
	}
	return m, waitUpdate(m.sess)
}

// autoPass passes when the challenge window ran out.
func (m *Model) autoPass() tea.Cmd {
	if m.window < 0 || m.passed == m.window || m.busy || !m.snap.MyTurn || m.now.Before(m.deadline) {
		return nil
	}
	for _, mv := range m.legal {
		if mv.Kind == masquerade.KindPass {
			m.status = "time is up: you pass"
			m.passed = m.window
			return m.submit(mv, nil)
		}
	}
	return nil
}

func (m Model) submitting(cmd tea.Cmd) (tea.Model, tea.Cmd) {
	m.busy = true
	return m, cmd
}

func (m *Model) submit(mv engine.Move, bits []bool) tea.Cmd {
	sess, pos := m.sess, m.snap.Entries
	m.confirm = nil
	if s := m.rules(); s != nil {
		m.log.Info("submit", "move", s.FormatMove(mv), "bits", len(bits))
	} else {
		m.log.Info("submit", "kind", mv.Kind, "args", mv.Args, "bits", len(bits))
	}
	return func() tea.Msg {
		err := sess.Submit(mv, bits)
		msg := SubmittedMsg{Err: err, Pos: pos, Bits: len(bits)}
		if len(bits) > 0 {
			msg.Swap = bits[0]
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
	if m.ask != nil {
		c := *m.ask
		switch {
		case key.Matches(k, keys.Yes):
			m.ask = nil
			return m.submitting(m.submit(c.Move, nil))
		case key.Matches(k, keys.No, keys.Back):
			m.ask = nil
		}
		return m, nil
	}
	if m.confirm != nil {
		mv := *m.confirm
		switch {
		case key.Matches(k, keys.Yes):
			return m.submitting(m.submit(mv, []bool{true}))
		case key.Matches(k, keys.No):
			return m.submitting(m.submit(mv, []bool{false}))
		case key.Matches(k, keys.Back):
			m.confirm = nil
		}
		return m, nil
	}
	switch {
	case key.Matches(k, keys.Quit):
		if m.over() || !m.have {
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
		m.choices.Select(max(0, len(m.legal)-1))
	case key.Matches(k, keys.Pass):
		for _, mv := range m.legal {
			if mv.Kind == masquerade.KindPass && !m.busy {
				return m.submitting(m.submit(mv, nil))
			}
		}
	case key.Matches(k, keys.Play):
		i := m.choices.Index()
		if m.busy || !m.snap.MyTurn || i < 0 || i >= len(m.legal) {
			return m, nil
		}
		mv := m.legal[i]
		if i < len(m.picks) {
			c := m.picks[i]
			switch {
			case c.Secret:
				m.confirm = &mv
				return m, nil
			case c.Confirm != "":
				m.ask = &c
				return m, nil
			}
			return m.submitting(m.submit(mv, nil))
		}
		if s := m.rules(); s != nil && s.HasSecretSwap(mv) {
			m.confirm = &mv
			return m, nil
		}
		return m.submitting(m.submit(mv, nil))
	}
	return m, nil
}

func (m Model) over() bool {
	if s := m.rules(); s != nil && s.Over() {
		return true
	}
	if m.tv != nil && m.tv.Over {
		return true
	}
	return m.snap.Over
}

// Choice says mv in words for the player who makes it (narrate.Choice):
// what the screen lists, never the script syntax.
func Choice(st engine.State, mv engine.Move) string {
	s, ok := narrate.RulesOf(st)
	if !ok {
		return Label(st, mv)
	}
	return termsafe.String(narrate.Choice(s, mv))
}

// Label is a legal move in the script verbs, without the player's name:
// "swap Boris", "claim King", "use between=Anna,Dima" (for logs and
// tests; the screen shows Choice). st is a rules state of either edition.
func Label(st engine.State, mv engine.Move) string {
	s, ok := narrate.RulesOf(st)
	if !ok {
		return fmt.Sprintf("%s %v", masquerade.KindName(mv.Kind), mv.Args)
	}
	text := s.FormatMove(mv)
	if mv.Seat >= 0 && int(mv.Seat) < s.Players() {
		text = strings.TrimPrefix(text, s.Name(mv.Seat)+" ")
	}
	return text
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
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	if m.tv != nil {
		return m.viewTopTable()
	}
	s := m.rules()
	title := "masque · Mascarade"
	if s != nil {
		title = "masque · " + s.Title()
	}
	if m.opts.Title != "" {
		title += " · " + termsafe.String(m.opts.Title)
	}
	if !m.have || s == nil {
		line("%s", m.st.title.Render(title))
		line("")
		if m.snap.Verdict != "" {
			line("%s", m.st.warn.Render("the table stopped: "+m.snap.Verdict))
		} else {
			line("shuffling and dealing…")
		}
		line("")
		line("%s", m.st.dim.Render("q quit"))
		return b.String(), false
	}
	me := engine.Seat(m.snap.Seat)
	if m.help {
		b.WriteString(m.st.title.Render(title + " · help"))
		b.WriteString("\n\n")
		return b.String(), true
	}
	line("%s", m.st.title.Render(fmt.Sprintf("%s · you are %s", title, s.Name(me))))
	turnLine := fmt.Sprintf("turn %d · %s's turn", s.Turn(), s.Name(s.TurnSeat()))
	if s.TurnSeat() == me {
		turnLine = fmt.Sprintf("turn %d · your turn", s.Turn())
	}
	if s.Preparatory() {
		turnLine += fmt.Sprintf(" · preparatory (%d of %d): swap only", s.Turn(), s.PreparatoryTurns())
	}
	if s.Over() {
		turnLine = fmt.Sprintf("turn %d · game over", s.Turn())
	}
	line("%s   court %d · bank %d", turnLine, s.Court(), s.Bank())
	line("")
	seating := s.Seating()
	if m.compactSeats(len(seating)) {
		m.viewSeatGrid(&b, s, me)
	}
	for chair, p := range seating {
		if m.compactSeats(len(seating)) {
			break
		}
		mark := "  "
		if !s.Over() && p == s.TurnSeat() {
			mark = "▶ "
		}
		name := s.Name(p)
		if p == me {
			name += " (you)"
		}
		row := fmt.Sprintf("%s%-16s %2d coins", mark, name, s.Coins(p))
		if s.Players() <= 3 {
			var sl []string
			for _, x := range s.SlotsOf(p) {
				if _, pos, ok := strings.Cut(s.SlotName(x), "."); ok {
					sl = append(sl, pos)
				}
			}
			row += "   cards: " + strings.Join(sl, ", ")
		}
		if need := s.Next(); !s.Over() && need.Kind == engine.NeedMove && need.Seat == p && p != s.TurnSeat() {
			row += "   ← to answer"
		}
		if int(p) != chair {
			row += fmt.Sprintf("   (in %s's chair)", s.Name(engine.Seat(chair)))
		}
		if p == s.TurnSeat() && !s.Over() {
			row = m.st.turn.Render(row)
		}
		line("%s", row)
	}
	if moved(seating) {
		var now []string
		for _, p := range seating {
			now = append(now, s.Name(p))
		}
		line("  seating (clockwise, moved by the Puppeteer): %s", strings.Join(now, " → "))
	}
	switch cs := s.CenterSlots(); len(cs) {
	case 0:
	case 1:
		line("  centre: 1 card, face down")
	default:
		line("  centre: %d cards, face down", len(cs))
	}
	if lr := s.LastRevealed(); len(lr) > 0 {
		var out []string
		for _, f := range lr {
			// Once the Puppeteer has moved players, the card of a chair
			// is in front of whoever sits there now.
			out = append(out, fmt.Sprintf("%s was the %s", slotNowYours(s, me, f.Slot), s.CardName(f.Card)))
		}
		line("  last reveal: %s", strings.Join(out, ", "))
	}
	line("")
	m.viewSituation(&b, s, me)
	if !m.opts.NoMemory {
		m.viewMemory(&b, s, me)
	}
	v := b.String()
	if m.compact {
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\n\n", "\n"), "\n\n", "\n")
	}
	return m.wrapLines(v), true
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
		m.choices.SetSize(width, rows+1) // and the page line
	}
}

// memoryLines is how many lines the memory panel takes in full.
func (m Model) memoryLines() int {
	if m.tv != nil {
		var b strings.Builder
		m.memRows = 0
		m.viewTableMemory(&b)
		return strings.Count(b.String(), "\n")
	}
	s := m.rules()
	if s == nil {
		return 0
	}
	var b strings.Builder
	m.memRows = 0
	m.viewMemory(&b, s, engine.Seat(m.snap.Seat))
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
	// gives way first (down to 3 a page), then the memory panel (down to
	// 3 lines).
	rows := maxChoiceRows
	if m.height > 0 {
		rows = max(4, min(rows, m.height/4))
	}
	m.memRows, m.compact = 0, false
	var top string
	for {
		m.sizeChoices(width, rows)
		var table bool
		top, table = m.viewTop()
		if !table {
			return
		}
		short := m.height > 0 && !m.help && m.height-strings.Count(top, "\n")-1 < minLogRows
		switch {
		case short && rows > 3 && len(m.labels) > rows:
			rows--
			continue
		case short && !m.compact:
			m.compact = true
			continue
		case short && !m.opts.NoMemory && (m.memRows == 0 || m.memRows > 2):
			if m.memRows == 0 {
				m.memRows = m.memoryLines()
			}
			m.memRows--
			if m.memRows >= 2 {
				continue
			}
			m.memRows = 2
			top, _ = m.viewTop()
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

// viewSeatGrid draws the seats in columns: "▶" marks whose turn it is,
// "←" who must answer a claim.
func (m Model) viewSeatGrid(b *strings.Builder, s narrate.Rules, me engine.Seat) {
	width := m.width
	if width <= 0 {
		width = 100
	}
	const cellWidth = 24
	cols := max(1, (width-2)/cellWidth)
	seating := s.Seating()
	need := s.Next()
	var row strings.Builder
	for i, p := range seating {
		mark := "  "
		switch {
		case s.Over():
		case p == s.TurnSeat():
			mark = "▶ "
		case need.Kind == engine.NeedMove && need.Seat == p:
			mark = "← "
		}
		name := s.Name(p)
		if p == me {
			name += " (you)"
		}
		cell := fmt.Sprintf("%s%s %d", mark, name, s.Coins(p))
		if pad := cellWidth - len([]rune(cell)); pad > 0 && (i+1)%cols != 0 {
			cell += strings.Repeat(" ", pad)
		}
		if p == s.TurnSeat() && !s.Over() {
			cell = m.st.turn.Render(cell)
		}
		row.WriteString(cell)
		if (i+1)%cols == 0 || i == len(seating)-1 {
			b.WriteString(strings.TrimRight(row.String(), " "))
			b.WriteByte('\n')
			row.Reset()
		}
	}
	b.WriteString(m.st.dim.Render("  coins after each name; ▶ whose turn, ← who answers"))
	b.WriteByte('\n')
}

// viewSituation draws the claim, the challenge window, the moves or who
// the table waits for, and the result.
func (m Model) viewSituation(b *strings.Builder, s narrate.Rules, me engine.Seat) {
	line := func(format string, args ...any) {
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	if c, cont, ok := s.Claim(); ok && len(cont) > 0 {
		text := fmt.Sprintf("%s claims to be the %s", s.Name(cont[0].Seat), s.CardName(c))
		if len(cont) > 1 {
			var ch []string
			for _, x := range cont[1:] {
				ch = append(ch, s.Name(x.Seat))
			}
			text += "; challenged by " + strings.Join(ch, ", ")
		}
		line("%s", m.st.head.Render("Claim")+" "+text)
		if s.InChallengeWindow() {
			who := s.Name(s.Next().Seat)
			if s.Next().Seat == me {
				left := ""
				if m.window >= 0 {
					d := max(0, m.deadline.Sub(m.now))
					left = fmt.Sprintf(" (%ds left, then you pass)", int((d+time.Second-1)/time.Second))
				}
				line("%s", m.st.warn.Render("challenge window: your answer"+left))
			} else {
				line("challenge window: %s to answer", who)
			}
		}
		line("")
	}
	switch {
	case m.over():
		line("%s", m.st.head.Render("Result"))
		if s.Over() {
			line("game over after %d turns: %s won", s.Turn(), strings.Join(narrate.Winners(s), ", "))
			won := false
			for _, w := range s.Winners() {
				won = won || w == me
			}
			if won {
				line("%s", m.st.turn.Render("you won!"))
			} else {
				line("%s", m.st.warn.Render(fmt.Sprintf("you lost, with %d coins", s.Coins(me))))
			}
		}
		if m.snap.Verdict != "" {
			line("%s", m.st.warn.Render("the table stopped: "+m.snap.Verdict))
		}
		line("%s", m.helpLine(bar{m.keys.Older, m.keys.Help, key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "leave"))}))
	case m.snap.MyTurn:
		head := "Your move"
		if left, ok := m.timeLeft(); ok {
			head += fmt.Sprintf(" · %s left", clock(left))
		}
		line("%s", m.st.head.Render(head))
		if left, ok := m.timeLeft(); ok && left <= warnBefore {
			line("%s", m.st.warn.Render(fmt.Sprintf("hurry: %s left, then the others stop the table and name you", clock(left))))
		}
		if len(m.labels) > 0 {
			line("%s", m.choices.View())
		}
		switch {
		case m.confirm != nil:
			line("%s", m.st.warn.Render(fmt.Sprintf("%s: really exchange the cards? y/n (esc: back)", Choice(s, *m.confirm))))
		case m.quitAsk:
			line("%s", m.st.warn.Render("leave the table? y/n"))
		case m.busy:
			line("playing…")
		default:
			keys := bar{m.keys.Up, m.keys.Play}
			if s.InChallengeWindow() {
				keys = append(keys, m.keys.Pass)
			}
			if m.choices.Paginator.TotalPages > 1 {
				keys = append(keys, m.keys.Home)
			}
			keys = append(keys, m.keys.Help, m.keys.Quit)
			line("%s", m.helpLine(keys))
		}
	default:
		name := ""
		if w := m.snap.Waiting; w != nil {
			name = w.Name
		}
		m.viewWaiting(b, name)
	}
	if m.status != "" {
		line("%s", m.st.warn.Render(m.status))
	}
	line("")
}

// viewWaiting draws whom the table waits for (name; "" when it does not
// say), the time before the timeout, whether that seat is connected, and
// the keys.
func (m Model) viewWaiting(b *strings.Builder, name string) {
	text := "waiting…"
	if name != "" {
		text = "waiting for " + name + " " + m.spin.View()
	}
	if w := m.snap.Waiting; w != nil {
		left := w.Left
		if !w.Deadline.IsZero() {
			left = max(0, w.Deadline.Sub(m.now))
		}
		if left > 0 {
			text += fmt.Sprintf(" (%s before the timeout)", clock(left))
		}
		if w.Offline {
			text += "\n" + m.st.warn.Render(fmt.Sprintf("%s is not connected: their masque may have stopped (they rejoin by running the same command again)", w.Name))
		}
	}
	b.WriteString(text + "\n")
	if m.quitAsk {
		b.WriteString(m.st.warn.Render("leave the table? y/n") + "\n")
	} else {
		b.WriteString(m.helpLine(bar{m.keys.Older, m.keys.Help, m.keys.Quit}) + "\n")
	}
}

// viewMemory draws what the seat saw and when, and for each of its own
// cards which swaps since could have moved it.
func (m Model) viewMemory(out *strings.Builder, s narrate.Rules, me engine.Seat) {
	var b strings.Builder
	defer func() {
		lines := strings.SplitAfter(b.String(), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if m.memRows > 0 && len(lines) > m.memRows {
			// A small terminal: the first lines (your card), then a mark.
			lines = append(lines[:m.memRows-1], m.st.dim.Render("  … (a taller terminal shows all you remember)")+"\n")
		}
		out.WriteString(strings.Join(lines, ""))
	}()
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("%s", m.st.head.Render("Your memory"))
	beliefs := narrate.Beliefs(s, m.snap.Memory, m.moves, m.swapBits(), me)
	for _, own := range s.SlotsOf(me) {
		if int(own) >= len(beliefs) {
			continue
		}
		bl := beliefs[own]
		which := "your card"
		if len(s.SlotsOf(me)) > 1 {
			which = narrate.SlotWords(s, own, me)
		}
		var names []string
		for _, c := range bl.Cards {
			names = append(names, "the "+s.CardName(c))
		}
		seen := "seen " + m.seenWhen(s, bl)
		switch {
		case !bl.Known():
			line("  %s: %s (each was here or was swapped in since you knew)", which, strings.Join(names, " or "))
		case len(bl.MovedIn) > 0:
			last := bl.MovedIn[len(bl.MovedIn)-1]
			line("  %s: %s, which you swapped in at turn %d (%s)", which, names[0], last.Turn, seen)
		default:
			line("  %s: %s, %s", which, names[0], seen)
		}
		if first := engine.Seat(own); len(s.SlotsOf(me)) == 1 && int(first) < s.Players() && first != me {
			line("    you sit where %s sat at the start (the Puppeteer moved you): its card and purse are yours", s.Name(first))
		}
		if m.moves == nil {
			continue // no record of the swaps: nothing more to say
		}
		since := bl.Uncertain
		if len(since) == 0 {
			line("    no swap since could have moved it")
			continue
		}
		line("    swaps since that could have moved it:")
		if n := len(since); n > 5 {
			line("      … %d earlier", n-4)
			since = since[n-4:]
		}
		for _, sw := range since {
			note := ""
			if sw.By == me {
				note = "  (yours: this screen does not know whether you exchanged)"
			}
			line("      turn %d  %s%s", sw.Turn, sw.Words, note)
		}
	}
	// What else the seat saw, most recent last.
	var seen []string
	for _, sg := range m.snap.Memory {
		if owner, ok := s.SlotOwner(sg.Slot); ok && owner == me {
			continue
		}
		how := "you saw"
		if sg.Public {
			how = "revealed"
		} else if sh, ok := m.shown(sg); ok {
			how = shownBy(s, sh)
		}
		seen = append(seen, fmt.Sprintf("%s  %s: %s was the %s", m.when(sg.Pos), how, slotNow(s, sg.Slot), s.CardName(sg.Card)))
	}
	// Cards of this seat shown to everyone else: it never learns which.
	for _, mv := range m.moves {
		for _, sh := range mv.Shows {
			if sh.Except == me {
				seen = append(seen, fmt.Sprintf("turn %d  %s's %s showed your card to everyone but you", sh.Turn, s.Name(sh.By), power(sh)))
			}
		}
	}
	if n := len(seen); n > 4 {
		seen = seen[n-4:]
	}
	for _, l := range seen {
		line("  %s", l)
	}
	line("")
}

// slotNowYours names a revealed slot: "your card", or the card now in
// front of a player once the Puppeteer has moved players (a reveal names
// the chair's card, and the player there may have changed since).
func slotNowYours(s narrate.Rules, me engine.Seat, slot engine.Slot) string {
	if owner, ok := s.SlotOwner(slot); ok && owner == me {
		return narrate.SlotWords(s, slot, me)
	}
	return slotNow(s, slot)
}

// personal speaks to the player in a public log line: "only you know"
// where the line names the player as the swapper.
func personal(line, me string) string {
	return strings.Replace(line, "(swapped or not: only "+me+" knows)", "(swapped or not: only you know)", 1)
}

// swapBits are the secret bits of the seat's own swaps: the session's
// record (kept across restarts) and what this screen submitted.
func (m Model) swapBits() map[uint64][]bool {
	out := make(map[uint64][]bool, len(m.snap.SwapBits)+len(m.mySwaps))
	for pos, bit := range m.mySwaps {
		out[pos] = []bool{bit}
	}
	for pos, bits := range m.snap.SwapBits {
		out[pos] = bits
	}
	return out
}

// seenWhen says when and how the seat last knew a card for sure.
func (m Model) seenWhen(s narrate.Rules, bl narrate.Belief) string {
	if bl.Source == narrate.FromDeal || bl.Pos < 0 {
		return "at the deal"
	}
	how := "you peeked"
	switch bl.Source {
	case narrate.FromReveal:
		how = "revealed to all"
	case narrate.FromShown:
		if sh, ok := m.shown(table.Sighting{Pos: uint64(bl.Pos), Slot: bl.Seen}); ok {
			how = shownBy(s, sh)
		}
	}
	return fmt.Sprintf("%s (%s)", m.when(uint64(bl.Pos)), how)
}

// shown returns the show (the Princess) a sighting came from, if the
// session lists the moves.
func (m Model) shown(sg table.Sighting) (narrate.Show, bool) {
	for _, mv := range m.moves {
		for _, sh := range mv.Shows {
			if sh.Pos == sg.Pos && sh.Slot == sg.Slot {
				return sh, true
			}
		}
	}
	return narrate.Show{}, false
}

func power(sh narrate.Show) string {
	if sh.Power == "" {
		return "power"
	}
	return sh.Power
}

func shownBy(s narrate.Rules, sh narrate.Show) string {
	return fmt.Sprintf("%s's %s showed you", s.Name(sh.By), power(sh))
}

// slotNow names a slot for a sighting: once the Puppeteer has moved
// players, the card a player sits before may be another than when it was
// seen, so it says so.
func slotNow(s narrate.Rules, slot engine.Slot) string {
	if _, ok := s.SlotOwner(slot); ok && moved(s.Seating()) {
		return "the card now in front of " + s.SlotName(slot)
	}
	return narrate.SlotWords(s, slot, -1)
}

// moved reports whether anyone sits on another chair than at the start.
func moved(seating []engine.Seat) bool {
	for c, p := range seating {
		if int(p) != c {
			return true
		}
	}
	return false
}

// when names the moment of entry pos: its turn when the session lists the
// moves, else the entry.
func (m Model) when(pos uint64) string {
	if m.moves == nil {
		return fmt.Sprintf("entry %d", pos)
	}
	return fmt.Sprintf("turn %d", narrate.TurnAt(m.moves, pos))
}

// logLines is the public log wrapped to width, oldest first.
func (m Model) logLines(width int) []string {
	var l []string
	me := ""
	if names := m.snap.Names; m.snap.Seat >= 0 && m.snap.Seat < len(names) {
		me = names[m.snap.Seat]
	}
	c := 0
	chat := func(upTo int) {
		for ; c < len(m.chat) && m.chatAt[c] <= upTo; c++ {
			for _, w := range wrap(m.chatLine(m.chat[c]), width, 6) {
				l = append(l, w)
			}
		}
	}
	for i, x := range m.snap.Log {
		chat(i)
		for _, w := range wrap("  "+personal(x, me), width, 6) {
			l = append(l, m.st.dim.Render(w))
		}
	}
	chat(len(m.snap.Log) + len(m.chat))
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
		for len(cur)+len(w) > width {
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

// helpLines is the help page wrapped to width: what applies right now,
// every character in play with its power, and how to play (what a
// challenge means). The help viewport scrolls it (↑/↓).
func (m Model) helpLines(width int) []string {
	if m.tv != nil {
		return m.tableHelpLines(width)
	}
	s := m.rules()
	if s == nil {
		return nil
	}
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	add("Right now")
	switch c, contenders, ok := s.Claim(); {
	case s.Over():
		add("  The game is over.")
	case ok && s.InChallengeWindow() && len(contenders) > 0:
		add("  %s claims to be the %s (%s).", s.Name(contenders[0].Seat), s.CardName(c), narrate.Power(s, c))
		if m.snap.MyTurn {
			add("  Challenge only if you believe your card is the %s: if it is not, you pay 1 coin.", s.CardName(c))
		}
	case s.Preparatory():
		add("  A preparatory turn: the only move is a swap (real or pretended).")
	case m.snap.MyTurn:
		add("  Your turn: swap, look at your card, or claim a character.")
	default:
		add("  %s's turn.", s.Name(s.TurnSeat()))
	}
	add("")
	add("Characters in play")
	for _, c := range narrate.InPlay(s) {
		add("  %-11s %s", s.CardName(c), narrate.Power(s, c))
	}
	add("")
	add("How to play")
	for _, l := range narrate.HowToPlay(s) {
		add("  %s", l)
	}
	add("")
	add("Keys")
	add("  ↑/↓ or j/k choose a move, home/end the first or last, enter plays it")
	add("  p passes (when a claim waits for your answer)")
	add("  y/n answer a question (really exchange the cards? leave the table?)")
	add("  pgup/pgdown scroll the log; ? this help (↑/↓ scroll it); q leaves (q twice, or q then y)")
	if m.chatter != nil {
		add("  %s", chatHelp)
	}
	var body []string
	for _, l := range lines {
		for _, w := range wrap(l, width, 4) {
			if w == "Right now" || w == "Characters in play" || w == "How to play" || w == "Keys" {
				w = m.st.head.Render(w)
			}
			body = append(body, w)
		}
	}
	return body
}

// plural picks the singular or plural noun for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
