package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade2"
)

// replayScript2 is a whole 2nd-edition game: two real swaps, two
// pretended ones, Boris's Princess shows Dima's card to all but Dima,
// Egor's Puppeteer makes Sasha and Fedya change chairs, and Sasha's bluff
// costs her last coin.
const replayScript2 = `game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya deal=Princess,King,Empress,Judge,Puppeteer,Swindler coins=2
Anna swap Boris yes
Boris swap Sasha no
Sasha swap Dima yes
Dima swap Anna no
Egor peek
Fedya peek
Anna claim King
Boris claim Princess
Boris use target=Dima
Sasha peek
Dima peek
Egor claim Puppeteer
Egor use between=Sasha,Fedya
Sasha claim Empress
Dima challenge
`

// scriptTranscript2 plays a 2nd-edition script through the real stack and
// writes its transcript.
func scriptTranscript2(t *testing.T, src string, publishKeys bool) string {
	t.Helper()
	lt, err := localplay.Run(mascarade2.Game{}, []byte(src), nil, publishKeys)
	if err != nil {
		t.Fatal(err)
	}
	return saveTranscript(t, lt.Transcript(), "game2.masque")
}

func TestReplaySecondEditionReveal(t *testing.T) {
	path := scriptTranscript2(t, replayScript2, true)
	code, out, errOut := runCmd(t, "replay", path, "--reveal")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for swap, want := range map[string]string{
		"Anna swaps cards with Boris":  "real swap: Anna now holds the King, Boris the Princess",
		"Boris swaps cards with Sasha": "pretended swap: nothing moved (Boris keeps the Princess, Sasha the Empress)",
		"Sasha swaps cards with Dima":  "real swap: Sasha now holds the Judge, Dima the Empress",
		"Dima swaps cards with Anna":   "pretended swap",
	} {
		if l := lineWith(out, swap); !strings.Contains(l, want) {
			t.Errorf("%s: line %q lacks %q\n%s", swap, l, want, out)
		}
	}
	for _, want := range []string{
		"replay of a game of Mascarade (2nd edition): Anna, Boris, Sasha, Dima, Egor and Fedya",
		"dealt face up: Anna Princess, Boris King, Sasha Empress, Dima Judge, Egor Puppeteer, Fedya Swindler",
		"turn 8  Boris uses the Princess's power on Dima\n  Dima's card is shown to everyone but Dima\n  everyone but Dima saw: Dima is the Empress",
		"Fedya and Sasha changed chairs (cards and purses stay on the table); clockwise now: Anna, Boris, Fedya, Dima, Egor, Sasha",
		// Cards stay with the chairs: Fedya now holds the Judge Sasha left.
		"cards after turn 11: Anna King, Boris Princess, Fedya Judge, Dima Empress, Egor Puppeteer, Sasha Swindler",
		"revealed: Sasha's card is the Swindler, Dima's card is the Empress",
		"game over after 12 turns: Dima won",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = runCmd(t, "replay", path, "--reveal", "--json")
	if code != 0 {
		t.Fatalf("--json exit %d\n%s%s", code, out, errOut)
	}
	var res replayResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var outcomes, shown []string
	for _, st := range res.Steps {
		for _, sw := range st.Swaps {
			outcomes = append(outcomes, st.Move+"="+sw.Outcome)
		}
		for _, c := range st.Shown {
			shown = append(shown, st.Move+": "+c.Slot+"="+c.Card)
		}
	}
	want := "Anna swap Boris=real,Boris swap Sasha=pretended,Sasha swap Dima=real,Dima swap Anna=pretended"
	if got := strings.Join(outcomes, ","); got != want {
		t.Errorf("swap outcomes %s, want %s", got, want)
	}
	if got := strings.Join(shown, ","); got != "Boris use target=Dima: Dima=Empress" {
		t.Errorf("shown %s", got)
	}
	if res.Game != "mascarade2" || !res.Keys || !res.Revealed || !res.Complete || res.Final == nil || !res.Final.Over ||
		strings.Join(res.Final.Winners, ",") != "Dima" {
		t.Errorf("result %+v", res)
	}
}

// Without --reveal the narration of a 2nd-edition game never tells whether
// a swap was real, nor which card the Princess showed.
func TestReplaySecondEditionPublic(t *testing.T) {
	path := scriptTranscript2(t, replayScript2, true)
	for _, args := range [][]string{{"replay", path}, {"replay", path, "--json"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		for _, leak := range []string{"real", "pretend", "same-card", "outcome", "now holds", "nothing moved", "cards after",
			" yes", " no\n", "saw:", "Dima is the Empress, ", "shown\":", "Dima=Empress"} {
			if strings.Contains(out, leak) {
				t.Errorf("%v tells a secret (%q):\n%s", args, leak, out)
			}
		}
		if len(args) == 2 {
			for _, want := range []string{
				"turn 1  Anna swaps cards with Boris  (swapped or not: only Anna knows)",
				"  Dima's card is shown to everyone but Dima",
				"Fedya and Sasha changed chairs",
				"game over after 12 turns: Dima won",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if l := lineWith(out, "shown to everyone"); strings.Contains(l, "Empress") {
				t.Errorf("the show names the card: %q", l)
			}
		}
	}
}

// --scenario: a built-in name or a file, checked against the book's
// constraints with one line per broken constraint (exit 2 and a hint),
// before the screen needs a terminal.
func TestPlayScenarioChecked(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("name: bad\nplayers: 6\nmasks: King, Empress, Peasant, Fool, Spy, Thief, Beggar, Widow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "play", "--game", "mascarade2", "--players", "5", "--scenario", bad)
	if code != 2 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{
		"scenario bad breaks 5 of the book's constraints for 5 players:",
		"\n  - scenario-players: the scenario is for 6 players, not 5",
		"\n  - set-size: ",
		"\n  - judge-required: the Judge must always be in play",
		"\n  - peasants-pair: ",
		"\n  - min-players: Peasant needs at least 8 players, not 5",
		"masque: hint: ",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	syntax := filepath.Join(dir, "syntax.txt")
	if err := os.WriteFile(syntax, []byte("masks: Judge, Dragon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", syntax}, "line 1"},
		{[]string{"--scenario", filepath.Join(dir, "missing.txt")}, "no built-in scenario and no such file"},
		{[]string{"--scenario", "default-7"}, "scenario-players: the scenario is for 7 players, not 6"},
		{[]string{"--players", "3"}, "--players 3: mascarade2 is for 4..12"},
	} {
		args := append([]string{"play", "--game", "mascarade2", "--players", "6"}, tc.args...)
		code, _, errOut := runCmd(t, args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", tc.args, code, tc.want, errOut)
		}
	}
	// A good scenario gets as far as wanting a terminal.
	good := filepath.Join(dir, "good.txt")
	if err := os.WriteFile(good, []byte("masks: Judge, Empress, King, Princess, Puppeteer, Swindler\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sc := range []string{good, "default-6"} {
		code, _, errOut = runCmd(t, "play", "--game", "mascarade2", "--players", "6", "--scenario", sc)
		if code != 2 || !strings.Contains(errOut, "needs a terminal") {
			t.Errorf("%s: exit %d\n%s", sc, code, errOut)
		}
	}
	for _, args := range [][]string{{"--scenario", "default-4"}, {"--game", "chess"}} {
		code, _, errOut = runCmd(t, append([]string{"play"}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
	}
}

// The purses stay with the chairs: when the Puppeteer makes Anna (4
// coins) and Fedya (2) change chairs after taking a coin from each, the
// replay tells what moved (a coin from each purse to Egor), not "Anna
// 4→1", which reads as Anna losing 3 coins.
func TestReplayPuppeteerCoinsStayWithChairs(t *testing.T) {
	src := strings.Replace(replayScript2, "Egor use between=Sasha,Fedya\nSasha claim Empress\nDima challenge\n", "Egor use between=Anna,Fedya\n", 1)
	path := scriptTranscript2(t, src, true)
	code, out, errOut := runCmd(t, "replay", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"  coins: Anna's purse 4→3, Egor 2→4, Fedya's purse 2→1\n",
		"  purses after changing chairs: Anna 1, Fedya 3\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Anna 4→1") {
		t.Errorf("the coins are told as Anna's loss:\n%s", out)
	}
}
