package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// chatSession is a fakeSession with a table chat.
type chatSession struct {
	*fakeSession
	mu    sync.Mutex
	lines []session.ChatLine
	sent  []string
	err   error
}

func (c *chatSession) Chat(text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	c.sent = append(c.sent, text)
	c.lines = append(c.lines, session.ChatLine{Seat: c.snap.Seat, Name: "Boris", Text: text, Seq: uint32(len(c.sent))})
	return nil
}

func (c *chatSession) ChatLog() []session.ChatLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]session.ChatLine(nil), c.lines...)
}

// TestChatKey: c opens the input line, enter sends, the message shows in
// the log after the lines it followed, another seat's message shows by
// name with its control characters escaped, esc closes without sending, a
// refusal shows in the status line; a session without chat has no c.
func TestChatKey(t *testing.T) {
	m, f := screen(t, stateAfter(t, "Anna swap Boris yes\n"), 1, Options{}, nil)
	if strings.Contains(m.View(), "c chat") {
		t.Fatal("a session without chat offers the c key")
	}
	if m2, _ := press(t, m, "c"); m2.chatting {
		t.Fatal("c opened a chat on a session without one")
	}
	cs := &chatSession{fakeSession: f}
	m = New(cs, Options{})
	m = step(t, m, tea.WindowSizeMsg{Width: 100, Height: 60})
	m = step(t, m, Snapshot(cs))
	if !strings.Contains(m.View(), "c chat") {
		t.Fatalf("no c key in the help line:\n%s", m.View())
	}
	m, _ = press(t, m, "c", "h", "i", " ", "a", "l", "l")
	if !m.chatting || !strings.Contains(m.View(), "chat> hi all") {
		t.Fatalf("input line:\n%s", m.View())
	}
	m, cmd := press(t, m, "enter")
	if m.chatting || cmd == nil {
		t.Fatal("enter did not send")
	}
	m = step(t, m, cmd())
	if len(cs.sent) != 1 || cs.sent[0] != "hi all" {
		t.Fatalf("sent %q", cs.sent)
	}
	// The refreshed snapshot carries the message: it shows as ours, before
	// the log's later lines; Anna's, which came with turn 2, after it.
	m = step(t, m, Snapshot(cs))
	cs.mu.Lock()
	cs.lines = append(cs.lines, session.ChatLine{Seat: 0, Name: "Anna", Text: "gl\x1b[2J"})
	cs.mu.Unlock()
	cs.snap.Log = append(cs.snap.Log, "turn 2  Boris looks")
	m = step(t, m, Snapshot(cs))
	v := m.View()
	mine, theirs, turn2 := strings.Index(v, "» you: hi all"), strings.Index(v, "» Anna: gl\\x1b[2J"), strings.Index(v, "turn 2  Boris looks")
	if mine < 0 || theirs < 0 || turn2 < 0 || !(mine < turn2 && turn2 < theirs) {
		t.Fatalf("chat in the log (mine %d, Anna's %d, turn 2 %d):\n%s", mine, theirs, turn2, v)
	}
	if strings.Contains(v, "\x1b[2J") {
		t.Fatal("a control sequence from the chat reached the screen")
	}
	// esc closes without sending; moves keys do not type while closed.
	m, _ = press(t, m, "c", "x", "esc")
	if m.chatting || len(cs.sent) != 1 {
		t.Fatalf("esc: chatting %v, sent %q", m.chatting, cs.sent)
	}
	// A refusal (rate, a barred seat) is said.
	cs.err = errors.New("too many messages: wait 3 s")
	m, cmd = press(t, m, "c", "y", "enter")
	m = step(t, m, cmd())
	if !strings.Contains(m.View(), "chat: too many messages: wait 3 s") {
		t.Fatalf("refusal not shown:\n%s", m.View())
	}
	// q typed into the chat does not leave the table.
	cs.err = nil
	m, _ = press(t, m, "c", "q")
	if m.quitAsk || m.quit || !strings.Contains(m.View(), "chat> q") {
		t.Fatal("q in the chat line asked to leave")
	}
}

// A resumed screen shows each chat message where it came in the log (the
// session keeps its place), not after the whole replayed log; a message
// whose place is unknown goes at the end.
func TestChatKeepsItsPlaceAfterRestart(t *testing.T) {
	_, f := screen(t, stateAfter(t, "Anna swap Boris yes\n"), 1, Options{}, nil)
	cs := &chatSession{fakeSession: f, lines: []session.ChatLine{
		{Seat: 0, Name: "Anna", Text: "good luck", Seq: 1, After: 2}, // after the first log line
		{Seat: 2, Name: "Sasha", Text: "late", Seq: 1},               // place unknown
	}}
	m := New(cs, Options{NoColor: true})
	m = step(t, m, tea.WindowSizeMsg{Width: 100, Height: 60})
	m = step(t, m, Snapshot(cs))
	v := m.View()
	deal, luck, turn, late := strings.Index(v, "dealt face up"), strings.Index(v, "Anna: good luck"), strings.Index(v, "turn 1  Anna swap"), strings.Index(v, "Sasha: late")
	if deal < 0 || luck < 0 || turn < 0 || late < 0 || !(deal < luck && luck < turn && turn < late) {
		t.Fatalf("the chat is not where it came (deal %d, message %d, turn %d, late %d):\n%s", deal, luck, turn, late, v)
	}
}
