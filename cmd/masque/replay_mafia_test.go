package main

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mafia"
)

// A 12-player Mafia bot game with every special: replay --reveal opens
// each night's ballots and checks with the published keys and tells
// every choice the bots made (the Don's kill, the Madman's victim, the
// Nurse's save, the Butterfly's date, the answer of the Commissar's
// check, whose target stays hidden); plain replay tells none of them.
func TestReplayMafiaNights(t *testing.T) {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Clara", "Dima", "Egor", "Fedor", "Galya", "Igor", "Katya", "Lena", "Misha", "Nina"}, NoIncidents: true}
	type choice struct {
		seat, target engine.Seat
		power        uint8
		joined       bool
	}
	var choices []choice
	lt := mafiaBotPlay(t, "replay-mafia-12", o, 4, func(s engine.State, seat engine.Seat, power uint8, target engine.Seat) {
		choices = append(choices, choice{seat, target, power, s.(*mafia.State).Joined()})
	})
	st := lt.View().Rules().(*mafia.State)
	if !st.Over() {
		t.Fatal("the bots did not finish")
	}
	role := func(p engine.Seat) engine.Card {
		r, ok := st.Revealed(p)
		if !ok {
			t.Fatalf("%s's role is not revealed at the end", st.Name(p))
		}
		return r
	}
	path := saveTranscript(t, lt.Transcript(), "mafia.masque")
	code, revealed, errOut := runCmd(t, "replay", path, "--reveal")
	if code != 0 {
		t.Fatalf("replay --reveal: exit %d\n%s%s", code, revealed, errOut)
	}
	code, plain, errOut := runCmd(t, "replay", path)
	if code != 0 {
		t.Fatalf("replay: exit %d\n%s%s", code, plain, errOut)
	}
	powers := map[uint8]int{}
	for _, c := range choices {
		powers[c.power]++
		var want string
		if c.power == mafia.PowerCheck {
			team := "not of the mafia"
			if r := role(c.target); r == mafia.Don || r == mafia.Mafioso || (r == mafia.Madman && c.joined) {
				team = "of the mafia"
			}
			want = st.Name(c.seat) + " (Commissar) checks a player " + team
		} else {
			want = mafia.SayBallot(st, c.power, c.seat, c.target, role(c.seat))
		}
		if !strings.Contains(revealed, "secretly, "+want) {
			t.Errorf("replay --reveal does not tell %q\n%s", want, revealed)
		}
		if strings.Contains(plain, want) {
			t.Errorf("plain replay tells the secret %q", want)
		}
	}
	for _, p := range []uint8{mafia.PowerKill, mafia.PowerMadman, mafia.PowerSave, mafia.PowerDate, mafia.PowerCheck} {
		if powers[p] == 0 {
			t.Errorf("the game has no %s choice: choose another seed", mafia.PowerName(p))
		}
	}
	if n, want := strings.Count(revealed, "secretly, "), len(choices); n != want {
		t.Errorf("replay --reveal tells %d secret choices, the bots made %d", n, want)
	}
	for _, secret := range []string{"secretly", "votes to kill", "as his own victim", "spends the night with", "checks a player"} {
		if strings.Contains(plain, secret) {
			t.Errorf("plain replay says %q", secret)
		}
	}
}

// verify tells a finished Mafia game's survivors by name ("alive: Boris and
// Dima"), not as a tally of ones and zeros ("alive: Anna 0, Boris 1").
func TestVerifyMafiaNamesTheLiving(t *testing.T) {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Clara", "Dima", "Egor"}, NoIncidents: true}
	lt := mafiaBotPlay(t, "verify-mafia-alive", o, 2, nil)
	st := lt.View().Rules().(*mafia.State)
	if !st.Over() {
		t.Fatal("the bots did not finish")
	}
	var alive []string
	for _, p := range st.Living() {
		alive = append(alive, st.Name(p))
	}
	path := saveTranscript(t, lt.Transcript(), "mafia.masque")
	code, out, errOut := runCmd(t, "verify", path)
	if code != 0 {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	if want := "\nalive: " + games.ListAnd(alive, "nobody") + ";"; !strings.Contains(out, want) {
		t.Errorf("verify says\n%s\nwant the line %q", out, want)
	}
}
