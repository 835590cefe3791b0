package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
)

// chatLimit is the chat input's length in characters (a message is cut
// to 280 bytes when it is sent).
const chatLimit = 280

// ChatSentMsg reports the outcome of a chat message sent from the input
// line.
type ChatSentMsg struct{ Err error }

// newChatInput is the chat's input line.
func newChatInput(st styles) textinput.Model {
	in := textinput.New()
	in.Prompt = "chat> "
	in.CharLimit = chatLimit
	in.Placeholder = "a message to everyone at the table (enter sends, esc closes)"
	in.PlaceholderStyle = st.dim
	return in
}

// onChatKey handles a key while the chat input line is open: enter sends
// the line, esc closes it, anything else edits it.
func (m Model) onChatKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(k, m.keys.Back):
		m.chatting = false
		m.chatIn.Blur()
		return m, nil
	case k.Type == tea.KeyEnter:
		text := strings.TrimSpace(m.chatIn.Value())
		m.chatting = false
		m.chatIn.Blur()
		m.chatIn.SetValue("")
		if text == "" {
			return m, nil
		}
		c := m.chatter
		return m, func() tea.Msg { return ChatSentMsg{Err: c.Chat(text)} }
	}
	var cmd tea.Cmd
	m.chatIn, cmd = m.chatIn.Update(k)
	return m, cmd
}

// openChat opens the chat input line.
func (m Model) openChat() (tea.Model, tea.Cmd) {
	m.chatting = true
	m.chatIn.Width = max(10, m.width-len(m.chatIn.Prompt)-1)
	return m, m.chatIn.Focus()
}

// noteChat records the chat lines of a new snapshot: each is placed in
// the log after the lines the log had when it first came.
func (m *Model) noteChat(lines []session.ChatLine) {
	for i := len(m.chat); i < len(lines); i++ {
		l := lines[i]
		l.Name, l.Text = termsafe.String(l.Name), termsafe.String(l.Text)
		m.chat = append(m.chat, l)
		at := len(m.snap.Log)
		if l.After > 0 && l.After-1 < at {
			at = l.After - 1 // where it came (a resumed screen), not after the replayed log
		}
		if n := len(m.chatAt); n > 0 && at < m.chatAt[n-1] {
			at = m.chatAt[n-1] // in the order they came
		}
		m.chatAt = append(m.chatAt, at)
	}
}

// chatLine is how a chat message shows in the log.
func (m Model) chatLine(l session.ChatLine) string {
	who := l.Name
	if l.Seat == m.snap.Seat {
		who = "you"
	}
	return fmt.Sprintf("  » %s: %s", who, l.Text)
}

// viewChatInput is the chat's input line, when it is open.
func (m Model) viewChatInput() string {
	if !m.chatting {
		return ""
	}
	return m.chatIn.View() + "\n"
}

// chatHelp is the help page's line about the chat.
const chatHelp = "c opens the chat line: a message to everyone at the table (signed by you, shown in the log with », kept beside the transcript), enter sends it, esc closes it; at most 280 bytes, 5 messages at once then one every 3 s"
