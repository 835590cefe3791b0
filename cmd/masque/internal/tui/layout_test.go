package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"github.com/masque-games/masque/engine/table"
)

// A 13-player table fits the common terminal sizes: never taller than the
// terminal, the title and whose turn it is on top, no line wider than the
// terminal, the log wrapped and scrollable.
func TestLayoutThirteenPlayers(t *testing.T) {
	names := "Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg,Petya"
	lt, err := scriptplay1Run(t, "game mascarade players="+names+"\nAnna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\nEgor claim King\nGosha challenge\n")
	if err != nil {
		t.Fatal(err)
	}
	snap, moves := lt.snap, lt.moves
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {120, 40}, {200, 60}} {
		m := New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{NoColor: true})
		m = step(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
		v := m.View()
		if strings.HasSuffix(v, "\n") {
			t.Errorf("%dx%d: the view ends in a newline: the terminal scrolls the title off", sz[0], sz[1])
		}
		lines := strings.Split(strings.TrimRight(v, "\n"), "\n")
		if len(lines) > sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		if !strings.HasPrefix(lines[0], "masque · Mascarade") || !strings.HasPrefix(lines[1], "turn 6 · your turn") {
			t.Errorf("%dx%d: the top is\n%s\n%s", sz[0], sz[1], lines[0], lines[1])
		}
		for _, l := range lines {
			if n := ansi.StringWidth(l); n > sz[0] {
				t.Errorf("%dx%d: a line of %d columns: %q", sz[0], sz[1], n, l)
			}
		}
		if !strings.Contains(v, "Your move") || !strings.Contains(v, "Petya") {
			t.Errorf("%dx%d: the moves or a seat are missing:\n%s", sz[0], sz[1], v)
		}
		// What the seat knows of its own card stays on the screen.
		if !strings.Contains(v, "your card: the ") {
			t.Errorf("%dx%d: the seat's own card is off the screen:\n%s", sz[0], sz[1], v)
		}
		if sz[1] >= 40 && !strings.Contains(v, "passed:") {
			t.Errorf("%dx%d: the log is missing:\n%s", sz[0], sz[1], v)
		}
	}
	// pgup scrolls the log back, pgdown forward.
	m := New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{NoColor: true})
	m = step(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
	m, _ = press(t, m, "pgup")
	if !strings.Contains(m.View(), "Log (scrolled back") {
		t.Errorf("pgup does not scroll the log:\n%s", m.View())
	}
	m, _ = press(t, m, "pgdown")
	if strings.Contains(m.View(), "scrolled back") {
		t.Errorf("pgdown does not come back:\n%s", m.View())
	}
}

type played1 struct {
	snap  session.Snapshot
	moves []masqview.Moved
}

// scriptplay1Run plays a 1st-edition script through the real stack and
// returns the screen's view of the seat whose move is due.
func scriptplay1Run(t *testing.T, src string) (*played1, error) {
	t.Helper()
	lt, err := localplay.Run(mascarade.Game{}, []byte(src), nil, false)
	if err != nil {
		return nil, err
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mascarade.Game{})
	if err != nil {
		return nil, err
	}
	f := masqview.First().Follower()
	f.Start(rt)
	for _, e := range tr.Entries {
		if err := rt.Apply(e); err != nil {
			return nil, err
		}
		if _, err := f.Follow(rt, e); err != nil {
			return nil, err
		}
	}
	s := rt.Rules().(*mascarade.State)
	seat := int(s.Next().Seat)
	snap := session.Snapshot{Seat: seat, Rules: s, Memory: lt.Seats[seat].Player.Memory, SwapBits: lt.Seats[seat].Player.SwapBits(),
		Log: f.Lines, Entries: int(rt.Pos()), MyTurn: true}
	for _, st := range lt.Seats {
		snap.Names = append(snap.Names, st.Name)
	}
	return &played1{snap: snap, moves: f.Moves}, nil
}

// The log scrolled back stays where the player put it when new entries
// arrive, and follows the newest again once scrolled to the bottom; a
// long list of choices is paged, and end reaches the last page.
func TestLogScrollAndPagedChoices(t *testing.T) {
	names := "Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg,Petya"
	lt, err := scriptplay1Run(t, "game mascarade players="+names+"\nAnna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\n")
	if err != nil {
		t.Fatal(err)
	}
	snap, moves := lt.snap, lt.moves
	m := New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{NoColor: true})
	m = step(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
	m, _ = press(t, m, "enter") // the swaps
	page := regexp.MustCompile(`page (\d+) of (\d+)`)
	pg := page.FindStringSubmatch(m.View())
	if pg == nil || pg[1] != "1" || pg[2] == "1" {
		t.Fatalf("%d choices at 80x24 are not paged:\n%s", len(m.labels), m.View())
	}
	m, _ = press(t, m, "end")
	last := m.labels[len(m.labels)-1]
	if v := m.View(); !strings.Contains(v, "page "+pg[2]+" of "+pg[2]) || !strings.Contains(v, "> "+last) {
		t.Errorf("end does not reach the last choice (%s) on the last page:\n%s", last, v)
	}
	m, _ = press(t, m, "home")
	if v := m.View(); !strings.Contains(v, "page 1 of") || m.choices.Index() != 0 {
		t.Errorf("home does not come back to the first choice:\n%s", v)
	}

	// The log, at a size that leaves it room.
	m = New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{NoColor: true})
	m = step(t, m, tea.WindowSizeMsg{Width: 100, Height: 44})
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
	m, _ = press(t, m, "pgup")
	before := m.logView.YOffset
	if before == 0 && m.logView.TotalLineCount() > m.logView.Height+5 {
		t.Fatalf("pgup left the log at the top: %d lines, %d shown", m.logView.TotalLineCount(), m.logView.Height)
	}
	more := snap
	more.Log = append(append([]string(nil), snap.Log...), "turn 9  a new line", "turn 9  another")
	m = step(t, m, SnapshotMsg{Snap: recorded(more, moves), At: t0})
	if m.logView.YOffset != before {
		t.Errorf("a new entry moved the scrolled-back log from %d to %d", before, m.logView.YOffset)
	}
	for range 20 {
		m, _ = press(t, m, "pgdown")
	}
	if !strings.Contains(m.View(), "another") {
		t.Errorf("pgdown to the bottom does not show the newest line:\n%s", m.View())
	}
	more.Log = append(more.Log, "turn 10  the newest")
	m = step(t, m, SnapshotMsg{Snap: recorded(more, moves), At: t0})
	if !strings.Contains(m.View(), "the newest") {
		t.Errorf("back at the bottom, the log does not follow new lines:\n%s", m.View())
	}
}

// At 80x24, on the player's own turn with a full list of moves and a
// memory panel, the log keeps minLogRows lines (the list pages and the
// memory panel give way), and long lines wrap instead of being cut.
func TestLayoutKeepsTheLogAt80x24(t *testing.T) {
	lt, err := scriptplay1Run(t, "game mascarade players=Anna,Boris,Sasha,Dima,Egor\n"+
		"Anna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\nEgor swap Anna yes\n"+
		"Anna peek\nBoris swap Egor yes\nSasha claim King\nDima challenge\nEgor pass\nAnna pass\nBoris pass\n"+
		"Dima swap Boris yes\nEgor swap Sasha no\n")
	if err != nil {
		t.Fatal(err)
	}
	m := New(&fakeSession{snap: lt.snap, upd: make(chan struct{})}, Options{NoColor: true})
	m = step(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = step(t, m, SnapshotMsg{Snap: recorded(lt.snap, lt.moves), At: t0})
	v := m.View()
	lines := strings.Split(v, "\n")
	if len(lines) > 24 {
		t.Fatalf("%d lines at 80x24:\n%s", len(lines), v)
	}
	if !strings.Contains(v, "Your move") {
		t.Fatalf("not the player's turn:\n%s", v)
	}
	logAt := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Log") {
			logAt = i
		}
		if ansi.StringWidth(l) > 80 || strings.HasSuffix(l, "…") {
			t.Errorf("a line cut or too wide: %q", l)
		}
	}
	if logAt < 0 || len(lines)-logAt-1 < minLogRows {
		t.Errorf("the log has %d lines at 80x24 on the player's turn, want %d:\n%s", len(lines)-logAt-1, minLogRows, v)
	}
}
