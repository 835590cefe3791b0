package tui

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/seatview"
)

// decide plays one decision on the 80x24 screen m, choosing at random
// among what the screen offers (stepping into a menu of choices in
// steps), and fails when a menu has more than 3 pages.
func decide(t *testing.T, m Model, rng *rand.Rand) Model {
	t.Helper()
	var cmd tea.Cmd
	for depth := 0; cmd == nil; depth++ {
		if p := m.choices.Paginator.TotalPages; p > 3 {
			t.Fatalf("a menu of %d pages at 80x24 (%d lines):\n%s", p, len(m.labels), m.View())
		}
		screenKeeps(t, m)
		if depth > 4 || len(m.labels) == 0 {
			t.Fatalf("nothing to play at %v:\n%s", m.menuPath(), m.View())
		}
		n := rng.IntN(len(m.labels))
		for range n {
			m, _ = press(t, m, "down")
		}
		label := m.labels[n]
		m, cmd = press(t, m, "enter")
		if m.ctl.Asking() != nil {
			m, cmd = press(t, m, "y")
		}
		if cmd == nil && len(m.menuPath()) == 0 {
			t.Fatalf("enter on %q did nothing:\n%s", label, m.View())
		}
	}
	return step(t, m, cmd())
}

// screenKeeps fails when the 80x24 screen m, asking its seat a
// question, is taller than the terminal or has lost the question, the
// keys line or the first line of the seat's memory (its own card,
// character or role).
func screenKeeps(t *testing.T, m Model) {
	t.Helper()
	v := m.View()
	flat := strings.Join(strings.Fields(v), " ")
	lines := strings.Split(v, "\n")
	if len(lines) > 24 {
		t.Fatalf("%d lines at 80x24:\n%s", len(lines), v)
	}
	checkSaidOnce(t, v, m.labels...)
	if !strings.Contains(v, "enter play") {
		t.Fatalf("the keys line is off the screen:\n%s", v)
	}
	if q := m.tv.Question; q != nil && !strings.Contains(flat, strings.Join(strings.Fields(q.Text), " ")) {
		t.Fatalf("the question %q is off the screen:\n%s", q.Text, v)
	}
	if m.brief {
		// A row cut short on the screen is whole on the help page.
		help := strings.Join(strings.Fields(strings.Join(m.helpLines(80), " ")), " ")
		for _, seat := range m.tv.Seats {
			name := seat.Name
			if seat.You {
				name += " (you)"
			}
			if row := strings.Join(strings.Fields(name+": "+seatRowText(seat)), " "); !strings.Contains(help, row) {
				t.Fatalf("the help page lacks %q:\n%s", row, strings.Join(m.helpLines(80), "\n"))
			}
		}
	}
	if len(m.tv.Memory) > 0 {
		// The seat's own card is the line that says "you are" or "your
		// card", else the first.
		own := strings.Fields(m.tv.Memory[0])
		for _, l := range m.tv.Memory {
			if l := strings.ToLower(l); strings.HasPrefix(l, "you are ") || strings.HasPrefix(l, "your card") {
				own = strings.Fields(l)
				break
			}
		}
		if !strings.Contains(strings.ToLower(flat), strings.ToLower(strings.Join(own[:min(len(own), 8)], " "))) {
			t.Fatalf("the seat's own card (%q of %q) is off the screen:\n%s", own, m.tv.Memory, v)
		}
	}
}

// No menu of choices is longer than 3 pages at 80x24 in any game: a long
// one (Grimm's Mask off! on every opponent and character, a Mascarade
// swap or claim at 13 players) is chosen in steps.
func TestMenusFitThreePagesAt80x24(t *testing.T) {
	t.Parallel() // its own local game: CPU and the bots' goroutines, nothing shared
	names := strings.Split("Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg,Petya,Raya,Stas,Tanya,Ulya,Vera", ",")
	for _, tc := range []struct {
		game string
		g    interface {
			Configure(int, string, games.Loader) (games.Setup, error)
		}
		players  int
		scenario string
		moves    int
	}{
		{"mascarade", mascarade.Game{}, 13, "", 60},
		{"mascarade", mascarade.Game{}, 6, "", 60},
		{"mascarade2", mascarade2.Game{}, 12, "", 60},
		{"grimm", grimm.Game{}, 5, "bets,jewels,abilities", 60},
		{"grimm", grimm.Game{}, 5, "bets", 200},
		{"grimm", grimm.Game{}, 4, "bets,jewels", 200},
		{"mafia", nil, 12, "", 15},
	} {
		t.Run(fmt.Sprintf("%s-%d", tc.game, tc.players), func(t *testing.T) {
			t.Parallel()
			var setup games.Setup
			if tc.g != nil {
				var err error
				if setup, err = tc.g.Configure(tc.players, tc.scenario, nil); err != nil {
					t.Fatal(err)
				}
			}
			ls, err := localsession.New(names[:tc.players], 7, localsession.Options{Game: tc.game, Setup: setup, NightFloor: time.Hour, PublishKeys: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ls.Close()
			rng := rand.New(rand.NewPCG(7, 99))
			m := step(t, New(ls, Options{NoColor: true}), tea.WindowSizeMsg{Width: 80, Height: 24})
			for moves := 0; moves < tc.moves; moves++ {
				snap := waitTurn(t, ls)
				if snap.Over {
					break
				}
				m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
				m = decide(t, m, rng)
			}
		})
	}
}

// A Mascarade seat's own card shows its face, marked "only you know",
// when only the seat knows it (it swapped it in for real); a card
// everyone saw at the deal and no swap touched stays face down.
func TestMascaradeOwnKnownCard(t *testing.T) {
	lt, err := scriptplay1Run(t, "game mascarade players=Anna,Boris,Sasha,Dima,Egor deal=Queen,Widow,Judge,King,Bishop,Thief\n"+
		"Anna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\nEgor swap Dima yes\n")
	if err != nil {
		t.Fatal(err)
	}
	// Anna's turn: she swapped Boris's Widow in for real.
	tv := func(seat int) *seatview.Table {
		snap := lt.snap
		snap.Seat = seat
		m := New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{NoColor: true})
		m = step(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
		m = step(t, m, SnapshotMsg{Snap: recorded(snap, lt.moves), At: t0})
		return m.tv
	}
	anna := tv(0)
	var own, boris seatview.Card
	for _, s := range anna.Seats {
		switch s.Name {
		case "Anna":
			own = s.Cards[0]
		case "Boris":
			boris = s.Cards[0]
		}
	}
	if own.Face != seatview.KnownToYou || own.Name != "Widow" {
		t.Errorf("Anna's own card %+v, want the Widow known to her", own)
	}
	if boris.Face != seatview.FaceDown || boris.Name != "" {
		t.Errorf("Boris's card in Anna's view %+v, want face down", boris)
	}
}

// saidOnceSplit cuts a screen into the clauses checkSaidOnce compares.
var saidOnceSplit = regexp.MustCompile(`[.,;:?!()·]`)

// checkSaidOnce fails when the screen v, above its log, says one thing
// twice: a clause of 7 words or more (numbers aside) in two places, as a
// notice repeating the question. The lines of the menu's options (labels)
// count as one place: options that end alike, as Grimm's Mask off! lines
// with one payment, "(pay the jewel and a Glass Slipper)", are choices,
// not a thing said twice, but an option may not repeat the rest of the
// screen.
func checkSaidOnce(t *testing.T, v string, labels ...string) {
	t.Helper()
	if k := saidTwice(v, labels); k != "" {
		t.Fatalf("the screen says %q twice:\n%s", k, v)
	}
}

// saidTwice is the first clause checkSaidOnce finds twice on v, or "".
func saidTwice(v string, labels []string) string {
	top, _, _ := strings.Cut(v, "\nLog")
	var rest, options []string
	for _, line := range strings.Split(top, "\n") {
		if isOptionLine(line, labels) {
			options = append(options, line)
		} else {
			rest = append(rest, line)
		}
	}
	clauses := saidOnceSplit.Split(strings.ToLower(strings.Join(strings.Fields(strings.Join(rest, " ")), " ")), -1)
	inOptions := map[string]bool{}
	for _, line := range options {
		for _, c := range saidOnceSplit.Split(strings.ToLower(strings.Join(strings.Fields(line), " ")), -1) {
			if !inOptions[c] {
				inOptions[c] = true
				clauses = append(clauses, c)
			}
		}
	}
	seen := map[string]bool{}
	for _, c := range clauses {
		var words []string
		for _, w := range strings.Fields(c) {
			if !numeric(strings.Trim(w, ",")) {
				words = append(words, w)
			}
		}
		if len(words) < 7 {
			continue
		}
		k := strings.Join(words, " ")
		if seen[k] {
			return k
		}
		seen[k] = true
	}
	return ""
}

// Options that end alike are one place; an option or a notice that
// repeats another part of the screen is still said twice.
func TestSaidTwice(t *testing.T) {
	question := "Anna, what do you play? Choose what to do on your turn now"
	grimm := []string{
		"Mask off! on Boris: the Beast? (pay the jewel and a Glass Slipper)",
		"Mask off! on Sasha: the Wolf? (pay the jewel and a Glass Slipper)",
	}
	screen := question + "\n> " + grimm[0] + "\n  " + grimm[1] + "\nLog\nBoris plays."
	for _, tc := range []struct {
		name   string
		screen string
		labels []string
		want   string
	}{
		{"options ending alike", screen, grimm, ""},
		{"the same lines not known as options", screen, nil, "pay the jewel and a glass slipper"},
		{"a notice repeating the question", "choose what to do on your turn now, Anna\n" + screen, grimm, "choose what to do on your turn now"},
		{"an option repeating the screen", "pay the jewel and a Glass Slipper, said a notice\n" + screen, grimm, "pay the jewel and a glass slipper"},
		{"the log is not compared", screen + "\nMask off! on Boris: the Beast? (pay the jewel and a Glass Slipper)", grimm, ""},
	} {
		if got := saidTwice(tc.screen, tc.labels); got != tc.want {
			t.Errorf("%s: said twice %q, want %q", tc.name, got, tc.want)
		}
	}
}

// isOptionLine reports whether a screen line shows one of the menu's
// labels (its first 24 characters: a long label is cut at 80 columns).
func isOptionLine(line string, labels []string) bool {
	flat := strings.Join(strings.Fields(line), " ")
	for _, l := range labels {
		l = strings.Join(strings.Fields(l), " ")
		if len(l) > 24 {
			l = l[:24]
		}
		if l != "" && strings.Contains(flat, l) {
			return true
		}
	}
	return false
}
