package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
)

// keyMap is every key the screen knows, with the help text the help line
// shows for it (bubbles/key and bubbles/help).
type keyMap struct {
	Up, Down, Home, End key.Binding // the list of choices
	Play, Pass          key.Binding // decide
	Yes, No, Back       key.Binding // answer a question ("really swap?", "leave?")
	Older, Newer        key.Binding // scroll the log, or the help page
	Help, Quit          key.Binding
	ForceQuit           key.Binding
	Chat                key.Binding // open the chat input line (networked tables)
	LeaveGame           key.Binding // after q: leave the game for good (session.Leaver)
}

func newKeyMap() keyMap {
	return keyMap{
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "choose")),
		Down:      key.NewBinding(key.WithKeys("down", "j")),
		Home:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/end", "first/last")),
		End:       key.NewBinding(key.WithKeys("end", "G")),
		Play:      key.NewBinding(key.WithKeys("enter", " "), key.WithHelp("enter", "play")),
		Pass:      key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pass")),
		Yes:       key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:        key.NewBinding(key.WithKeys("n", "N"), key.WithHelp("n", "no")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Older:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdown", "log")),
		Newer:     key.NewBinding(key.WithKeys("pgdown")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c")),
		Chat:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chat")),
		LeaveGame: key.NewBinding(key.WithKeys("l", "L"), key.WithHelp("l", "leave the game")),
	}
}

// bar is one help line: the bindings that apply in one state of the
// screen. It implements help.KeyMap.
type bar []key.Binding

func (b bar) ShortHelp() []key.Binding  { return b }
func (b bar) FullHelp() [][]key.Binding { return [][]key.Binding{b} }

// newHelpLine returns the help-line renderer: the screen's dim style, and
// " · " between keys as everywhere else on the screen.
func newHelpLine(st styles) help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey = st.dim
	h.Styles.ShortDesc = st.dim
	h.Styles.ShortSeparator = st.dim
	h.Styles.Ellipsis = st.dim
	return h
}

// helpLine renders the keys of b, cut to the screen's width.
func (m Model) helpLine(b bar) string {
	if m.chatter != nil && !m.chatting {
		b = append(append(bar(nil), b...), m.keys.Chat)
	}
	h := m.helpBar
	h.Width = m.width
	return h.ShortHelpView(b)
}
