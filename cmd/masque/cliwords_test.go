package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A person's mistake on the command line gets an error that names the
// flag and the value in words (no parser's function names), and a hint:
// the nearest game's name, or the list; game names in any case.
func TestCommandLineMistakes(t *testing.T) {
	for _, c := range []struct {
		args     []string
		want     []string
		notWants []string
	}{
		{[]string{"play", "--game", "chess"}, []string{`--game "chess": no such game`, "hint: choose --game mascarade, mascarade2, grimm or mafia"}, nil},
		{[]string{"play", "--game", "mascarad"}, []string{"did you mean --game mascarade?"}, nil},
		{[]string{"play", "--game", "mafai"}, []string{"did you mean --game mafia?"}, nil},
		// "Mafia" is mafia: the next check, the player count, answers.
		{[]string{"play", "--game", "Mafia", "--players", "99"}, []string{"--players 99: mafia is for 4..18"}, []string{"--game"}},
		{[]string{"play", "--players", "abc"}, []string{`--players "abc": not a whole number`}, []string{"strconv", "ParseInt"}},
		{[]string{"play", "--seed", "-1"}, []string{`--seed "-1": not a whole number of 0 or more`}, []string{"strconv"}},
		{[]string{"play", "--bot-delay", "soon"}, []string{`--bot-delay "soon": not a duration`}, []string{"time:"}},
		{[]string{"host", "--name", "bad\nname", "--bot"}, []string{`--name "bad\nname": a table's name is one line of printable text`}, nil},
		{[]string{"play", "--host", "bad\tname"}, []string{`--host "bad\tname": a table's name is one line`}, nil},
	} {
		code, _, errOut := runOut(c.args...)
		if code != exitUsage {
			t.Errorf("masque %q: exit %d, want %d\n%s", c.args, code, exitUsage, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("masque %q: stderr lacks %q:\n%s", c.args, w, errOut)
			}
		}
		for _, w := range c.notWants {
			if strings.Contains(errOut, w) {
				t.Errorf("masque %q: stderr says %q:\n%s", c.args, w, errOut)
			}
		}
	}
}

// A truncated transcript: verify, verify --json and replay word the fault
// the same way, saying why and how many entries were readable, and
// --json carries both.
func TestDamagedTranscriptSaysWhy(t *testing.T) {
	path := filepath.Join("testdata", "vectors", "damaged-truncated.masque")
	var msgs []string
	for _, args := range [][]string{{"verify", path}, {"verify", "--json", path}, {"replay", path}} {
		code, out, errOut := runOut(args...)
		if code != exitDamaged {
			t.Fatalf("%q: exit %d\n%s", args, code, errOut)
		}
		msgs = append(msgs, strings.TrimSpace(errOut))
		if args[1] == "--json" {
			var res verifyResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.Valid || res.Damaged == "" || res.Readable == nil || res.Announced == nil || *res.Readable >= *res.Announced || res.Entries != 0 {
				t.Errorf("--json says %s", out)
			}
		}
	}
	if msgs[0] != msgs[1] || msgs[1] != msgs[2] {
		t.Errorf("verify and replay word the same fault differently:\n%s", strings.Join(msgs, "\n"))
	}
	if !strings.Contains(msgs[0], "cut short") || !strings.Contains(msgs[0], "readable") {
		t.Errorf("the fault does not say why or what was readable: %s", msgs[0])
	}
}

// verify's result reads as words: Mafia's tally names who is alive and
// who is out (not "Anna 1"), and the end is said once ("the mafia win.
// Won by Boris.", not "the mafia win: game over, won by Boris").
func TestVerifySummaryWords(t *testing.T) {
	code, out, errOut := runOut("verify", filepath.Join("testdata", "vectors", "honest-mafia-4-bots.masque"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, want := range []string{"Mafia, over on day 3: the mafia win. Won by Boris.\n", "alive: Boris and Sasha; out: Anna and Dima\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"game over, won by", "Anna 0", "Boris 1"} {
		if strings.Contains(out, bad) {
			t.Errorf("verify output says %q:\n%s", bad, out)
		}
	}
	// Mascarade's end is said as the other games' ("turn 6, court 0. Won
	// by Boris." said neither the game nor what the court is).
	for _, tc := range []struct{ file, want string }{
		{"honest-mascarade-4-coins.masque", "Mascarade, over after turn 6, no coins in the court. Won by Boris.\n"},
		{"honest-mascarade2-4-coins.masque", "Mascarade (2nd edition), over after turn 6, no coins in the court. Won by Boris.\n"},
	} {
		code, out, errOut := runOut("verify", filepath.Join("testdata", "vectors", tc.file))
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("verify %s: exit %d, output lacks %q:\n%s%s", tc.file, code, tc.want, out, errOut)
		}
	}
}

// A game two players win says so in words everywhere ("Dima and Sasha
// won", not "Dima, Sasha won"), and script's tally says "1 coin".
func TestTwoWinnersInWords(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "tie.txt")
	tr := filepath.Join(dir, "tie.masque")
	// Anna and Boris go broke at turn 5: Sasha and Dima, 1 coin each,
	// are the richest.
	os.WriteFile(src, []byte("game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat coins=1\n"+
		"Anna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\nAnna claim King\nBoris challenge\n"), 0o644)
	code, out, errOut := runOut("script", src, "--transcript", tr)
	if code != 0 {
		t.Fatalf("script: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"Sasha         1 coin\n", "game over: Dima and Sasha won\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("script output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runOut("replay", tr)
	if !strings.HasPrefix(out, "replay of a game of Mascarade: Anna, Boris, Sasha and Dima (") {
		t.Errorf("replay's first line names the game by its name, not its title, or the players as a list:\n%s", out)
	}
	if code != 0 || !strings.Contains(out, "game over after 5 turns: Dima and Sasha won\n") {
		t.Errorf("replay: exit %d, no 'Dima and Sasha won':\n%s%s", code, out, errOut)
	}
}
