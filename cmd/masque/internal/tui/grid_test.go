package tui

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/seatview"
)

// On a small terminal the seats of a crowded Mafia table are drawn in
// columns; each keeps what the seat knows of them in a few words: your
// own role, and for a player out of the game that they are out and the
// role their elimination showed. Without it an 80x24 screen told nobody
// who was dead.
func TestMafiaSeatGridSaysWhoIsOut(t *testing.T) {
	t.Parallel() // its own local game: CPU and the bots' goroutines, nothing shared
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya"}
	ls, err := localsession.New(names, 4, localsession.Options{Game: "mafia", PublishKeys: true, NightFloor: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer ls.Close()
	rng := rand.New(rand.NewPCG(4, 4))
	m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
	sawOut := false
	for moves := 0; moves < 400 && !sawOut; moves++ {
		snap := waitTurn(t, ls)
		m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
		v := m.View()
		checkFits(t, v, 80, 24)
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "whose turn") && !strings.Contains(l, "who answers") {
				t.Fatalf("the grid's legend is cut:\n%s", v)
			}
		}
		s := snap.Rules.(*mafia.State)
		if !m.compactSeats(len(names)) {
			t.Fatalf("7 seats at 80x24 are not in columns:\n%s", v)
		}
		k := snap.Private.(*mafia.Knowledge)
		// Your cell names your role, after what else is known of you
		// ("Anna (you) · votes for Dima · Civilian"), or "out: Mafioso"
		// once you are out; a cell ends at the gap before the next column.
		var you string
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, "Anna (you) "); i >= 0 {
				you = l[i:]
				if j := strings.Index(you, "   "); j >= 0 {
					you = you[:j]
				}
			}
		}
		role := mafia.CardWords(k.Role)
		if !strings.HasSuffix(you, " · "+role) && !strings.HasSuffix(you, " · out: "+role) {
			t.Fatalf("the grid does not show your role %s:\n%s", mafia.CardWords(k.Role), v)
		}
		for p := range engine.Seat(len(names)) {
			if s.Alive(p) {
				continue
			}
			role, _ := s.Revealed(p)
			want := names[p] + " · out: " + mafia.CardWords(role)
			if s.Left(p) {
				want = names[p] + " · left: " + mafia.CardWords(role)
			}
			if p == 0 {
				want = "Anna (you) · out: " + mafia.CardWords(role)
			}
			if !strings.Contains(v, want) {
				t.Fatalf("the grid does not say %q:\n%s", want, v)
			}
			sawOut = true
		}
		if snap.Over {
			break
		}
		n := rng.IntN(len(m.labels))
		for range n {
			m, _ = press(t, m, "down")
		}
		var cmd tea.Cmd
		m, cmd = press(t, m, "enter")
		if cmd == nil {
			t.Fatalf("enter on %q did nothing", m.labels[n])
		}
		m = step(t, m, cmd())
	}
	if !sawOut {
		t.Fatal("nobody was out")
	}
}

// The grid's legend fits one line of 80 columns with both a vote and what
// the seat knows after the names.
func TestSeatGridLegendFits(t *testing.T) {
	m := Model{st: newStyles(true), width: 80, height: 24}
	m.tv = &seatview.Table{Seats: []seatview.Seat{
		{Name: "ann", You: true, Attrs: []seatview.Attr{{Name: "vote", Value: "bob"}}, Brief: "Mafioso"},
		{Name: "bob", Turn: true}, {Name: "cat", Brief: "out: Civilian"}, {Name: "dan"}, {Name: "eve"}, {Name: "fox"}, {Name: "gus"},
	}}
	var b strings.Builder
	m.viewSeatGrid(&b)
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if ansi.StringWidth(l) > 78 {
			t.Errorf("a line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
	if !strings.Contains(b.String(), "ann (you) · vote bob · Mafioso") || !strings.Contains(b.String(), "cat · out: Civilian") {
		t.Errorf("the grid:\n%s", b.String())
	}
}

// During Mafia's vote the grid at 80x24 says who votes for whom in words,
// in columns: never two names side by side that read as a pair.
func TestSeatGridVotesInWords(t *testing.T) {
	m := Model{st: newStyles(true), width: 80, height: 24}
	vote := func(whom string) []seatview.Attr {
		return []seatview.Attr{{Name: "vote", Value: whom, Words: "votes for " + whom}}
	}
	m.tv = &seatview.Table{Seats: []seatview.Seat{
		{Name: "Anna", You: true, Attrs: vote("Boris"), Brief: "Civilian"}, {Name: "Boris", Attrs: vote("Sasha")},
		{Name: "Sasha", Attrs: []seatview.Attr{{Name: "vote", Value: "abstains", Words: "abstains"}}}, {Name: "Dima", Attrs: vote("Anna")},
		{Name: "Egor", Turn: true}, {Name: "Fedya"}, {Name: "Gosha"}, {Name: "Katya"}, {Name: "Lena"}, {Name: "Misha"}, {Name: "Nina"}, {Name: "Oleg"},
	}}
	var b strings.Builder
	m.viewSeatGrid(&b)
	g := b.String()
	for _, want := range []string{"Anna (you) · votes for Boris · Civilian", "Boris · votes for Sasha", "Sasha · abstains", "Dima · votes for Anna"} {
		if !strings.Contains(g, want) {
			t.Errorf("the grid lacks %q:\n%s", want, g)
		}
	}
	for _, pair := range []string{"Boris Sasha", "Dima Anna", "Anna (you) Boris"} {
		if strings.Contains(g, pair) {
			t.Errorf("the grid reads %q as a pair:\n%s", pair, g)
		}
	}
	if strings.Contains(g, "vote after each name") {
		t.Errorf("the legend names a vote after each name:\n%s", g)
	}
	for _, l := range strings.Split(strings.TrimRight(g, "\n"), "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
}
