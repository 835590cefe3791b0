package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine/grimm"
)

// The help's keys speak of the game on the screen: a Mascarade screen
// gives one of its own menus as the example of a line ending in … (it
// showed Grimm's "Mask off! › on Boris"), and a Grimm screen, where no
// decision is let go with p and no swap is confirmed, lists neither.
func TestHelpKeysOfThisGame(t *testing.T) {
	turn5 := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n")
	m, _ := screen(t, turn5, 0, Options{}, nil)
	help := strings.Join(m.helpLines(200), "\n")
	if strings.Contains(help, "Mask off!") || !strings.Contains(help, "opens the moves under it (swap your card with another ›)") {
		t.Errorf("Mascarade's help:\n%s", help)
	}
	setup, err := grimm.Game{}.Configure(3, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := localsession.New([]string{"Anna", "Boris", "Sasha"}, 1, localsession.Options{Game: "grimm", Setup: setup})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	g := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 200, Height: 60})
	g = step(t, g, SnapshotMsg{Snap: waitTurn(t, ls), At: t0})
	help = strings.Join(g.helpLines(200), "\n")
	if strings.Contains(help, "p passes") || strings.Contains(help, "really exchange the cards") {
		t.Errorf("Grimm's help:\n%s", help)
	}
}
