package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"github.com/masque-games/masque/engine/table"
)

// header2 deals a 6-player 2nd-edition table with the Princess and the
// Puppeteer; prep2 plays the four preparatory turns (two real swaps).
const (
	header2 = "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya deal=Princess,King,Empress,Judge,Puppeteer,Swindler coins=6\n"
	prep2   = "Anna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Anna no\nEgor peek\nFedya peek\n"
	// Boris (holding the Princess after Anna's swap) shows Dima's card
	// (the Empress, after Sasha's swap) to everyone but Dima.
	princess2 = "Anna claim King\nBoris claim Princess\nBoris use target=Dima\n"
	// Egor's Puppeteer makes Sasha and Fedya change chairs.
	puppeteer2 = "Sasha peek\nDima peek\nEgor claim Puppeteer\nEgor use between=Sasha,Fedya\n"
)

// played2 plays lines through the real stack (every seat's memory is the
// table's) and follows the log as a session does.
type played2 struct {
	lt     *local.Table
	follow *masqview.Follower
}

func play2(t *testing.T, lines string) *played2 {
	t.Helper()
	lt, err := localplay.Run(mascarade2.Game{}, []byte(header2+lines), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p := &played2{lt: lt, follow: masqview.Second().Follower()}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mascarade2.Game{})
	if err != nil {
		t.Fatal(err)
	}
	p.follow.Start(rt) // a scripted deal is dealt before the first entry
	for _, e := range tr.Entries {
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
		if _, err := p.follow.Follow(rt, e); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// screen2 is the screen of seat at the table p.
func (p *played2) screen(t *testing.T, seat int) Model {
	t.Helper()
	v := p.lt.View()
	s := v.Rules().(*mascarade2.State)
	snap := session.Snapshot{Seat: seat, Rules: s, Memory: p.lt.Seats[seat].Player.Memory, SwapBits: p.lt.Seats[seat].Player.SwapBits(),
		Log: p.follow.Lines, Entries: int(v.Pos())}
	for _, st := range p.lt.Seats {
		snap.Names = append(snap.Names, st.Name)
	}
	if need := s.Next(); need.Kind == engine.NeedMove && int(need.Seat) == seat {
		snap.MyTurn = true
	} else if need.Kind == engine.NeedMove {
		snap.Waiting = &session.Wait{Seat: int(need.Seat), Name: s.Name(need.Seat)}
	}
	m := New(&fakeSession{snap: snap, upd: make(chan struct{})}, Options{})
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, p.follow.Moves), At: t0})
	return m
}

// section returns the part of a view from the line starting with head to
// the next blank line.
func section(v, head string) string {
	i := strings.Index(v, head)
	if i < 0 {
		return ""
	}
	rest := v[i:]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// The Princess's show is in the memory of every seat but the owner's; the
// owner only learns that its card was shown. The public log never names
// the card.
func TestScreenSecondEditionPrincess(t *testing.T) {
	p := play2(t, prep2+princess2)
	for seat, name := range []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"} {
		v := p.screen(t, seat).View()
		mem := section(v, "Your memory")
		if mem == "" {
			t.Fatalf("%s: no memory panel:\n%s", name, v)
		}
		saw := "Boris's Princess showed you: Dima's card was the Empress"
		if name == "Dima" {
			// Dima may reason from the public deal that its card is one of
			// several (the Empress among them), never which one was shown.
			if strings.Contains(mem, "showed you:") || strings.Contains(mem, "your card: the Empress,") {
				t.Errorf("Dima's memory has the card the Princess showed:\n%s", mem)
			}
			if !strings.Contains(mem, "turn 8  Boris's Princess showed your card to everyone but you") {
				t.Errorf("Dima's memory does not say the card was shown:\n%s", mem)
			}
		} else if !strings.Contains(mem, "turn 8  "+saw) {
			t.Errorf("%s's memory lacks %q:\n%s", name, saw, mem)
		}
		if !strings.Contains(v, "masque · Mascarade (2nd edition)") || !strings.Contains(v, "you are "+name) {
			t.Errorf("%s: title:\n%s", name, v)
		}
	}
	log := strings.Join(p.follow.Lines, "\n")
	if !strings.Contains(log, "turn 8  Boris uses the Princess's power on Dima\n  Dima's card is shown to everyone but Dima") {
		t.Errorf("the log does not tell the show:\n%s", log)
	}
	for _, l := range p.follow.Lines {
		if strings.Contains(l, "shown") && strings.Contains(l, "Empress") {
			t.Errorf("the log tells the shown card: %q", l)
		}
	}
}

// The Puppeteer's move changes the seating on the screen: rows follow the
// chairs, the moved players are marked, and the player who moved owns the
// card and purse of the chair.
func TestScreenSecondEditionPuppeteer(t *testing.T) {
	before := p2rows(t, play2(t, prep2+princess2+"Sasha peek\nDima peek\n").screen(t, 2).View())
	if want := "Anna Boris Sasha Dima Egor Fedya"; before != want {
		t.Fatalf("rows before the Puppeteer: %s, want %s", before, want)
	}
	p := play2(t, prep2+princess2+puppeteer2)
	s := p.lt.View().Rules().(*mascarade2.State)
	v := p.screen(t, 2).View()
	if got, want := p2rows(t, v), "Anna Boris Fedya Dima Egor Sasha"; got != want {
		t.Errorf("rows after the Puppeteer: %s, want %s\n%s", got, want, v)
	}
	for _, w := range []string{
		"Sasha (you)", "(in Fedya's chair)", "(in your chair)",
		"seating (clockwise, moved by the Puppeteer): Anna → Boris → Fedya → Dima → Egor → Sasha",
		"turn 12 · your turn", "Your move",
		"you sit where Fedya sat at the start (the Puppeteer moved you)",
		"Fedya and Sasha changed chairs",
	} {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "in Sasha's chair") {
		t.Errorf("Sasha reads of her own chair in the third person:\n%s", v)
	}
	// Sasha's card is now the one in front of chair 5: swapping with
	// "Fedya" is swapping with chair 2's card.
	m := p.screen(t, 2)
	for i, mv := range m.legal {
		if label(s, mv) == "swap Fedya" {
			if mv.Args[0] != 5 || mv.Args[1] != 2 {
				t.Errorf("swap Fedya is %v", mv.Args)
			}
			break
		}
		if i == len(m.legal)-1 {
			t.Errorf("no swap Fedya among %v", m.labels)
		}
	}
	// Sasha's memory: her card is now the one in front of Fedya's first
	// chair (dealt the Swindler, never swapped since); the peek of turn 9
	// was of the card she left behind, now in front of Fedya.
	mem := section(v, "Your memory")
	if !strings.Contains(mem, "your card: the Swindler, seen at the deal") || !strings.Contains(mem, "no swap since then could have moved it") {
		t.Errorf("memory:\n%s", mem)
	}
	if !strings.Contains(mem, "turn 9  you saw: the card now in front of Fedya was the Judge") {
		t.Errorf("memory lacks Sasha's peek, now in front of Fedya:\n%s", mem)
	}
	// Dima never moved: the card the Princess showed is still Dima's.
	if !strings.Contains(mem, "turn 8  Boris's Princess showed you: Dima's card was the Empress") {
		t.Errorf("memory lacks the Princess's show of Dima's card, in words for a player who never moved:\n%s", mem)
	}
}

var seatRow = regexp.MustCompile(`^(?:▶ |  )(\S+)(?: \(you\))?\s+\d+ coins`)

// p2rows returns the names of the seat rows, top to bottom.
func p2rows(t *testing.T, v string) string {
	t.Helper()
	var names []string
	for _, l := range strings.Split(v, "\n") {
		if m := seatRow.FindStringSubmatch(l); m != nil {
			names = append(names, m[1])
		}
	}
	return strings.Join(names, " ")
}
