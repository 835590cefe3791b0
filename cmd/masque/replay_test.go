package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
)

// replayScript is a whole game: two real swaps, two pretended ones, then
// Anna claims the Widow, Boris challenges, and Boris's last coin ends it.
const replayScript = `game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=1
Anna swap Boris yes
Boris swap centre1 no
Sasha swap Dima yes
Dima swap Anna no
Anna claim Widow
Boris challenge
`

// scriptTranscript plays src through the real stack and writes its
// transcript.
func scriptTranscript(t *testing.T, src string, publishKeys bool) string {
	t.Helper()
	lt, err := localplay.Run(mascarade.Game{}, []byte(src), nil, publishKeys)
	if err != nil {
		t.Fatal(err)
	}
	return saveTranscript(t, lt.Transcript(), "game.masque")
}

// saveTranscript writes tr as file in a temporary directory and returns
// its path.
func saveTranscript(t *testing.T, tr *ledger.Transcript, file string) string {
	t.Helper()
	enc, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), file)
	if err := os.WriteFile(path, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// lineWith returns the first line of out containing s.
func lineWith(out, s string) string {
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func TestReplayReveal(t *testing.T) {
	path := scriptTranscript(t, replayScript, true)
	code, out, errOut := runCmd(t, "replay", path, "--reveal")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for swap, want := range map[string]string{
		"Anna swaps cards with Boris":               "real swap: Anna now holds the Widow, Boris the Queen",
		"Boris swaps their card with centre card 1": "pretended swap: nothing moved",
		"Sasha swaps cards with Dima":               "real swap: Sasha now holds the King, Dima the Judge",
		"Dima swaps cards with Anna":                "pretended swap",
	} {
		if l := lineWith(out, swap); !strings.Contains(l, want) {
			t.Errorf("%s: line %q lacks %q\n%s", swap, l, want, out)
		}
	}
	for _, want := range []string{
		"dealt face up: Anna Queen, Boris Widow, Sasha Judge, Dima King, centre1 Bishop, centre2 Thief",
		"cards after turn 1: Anna Widow, Boris Queen, Sasha Judge, Dima King",
		"cards after turn 3: Anna Widow, Boris Queen, Sasha King, Dima Judge",
		"revealed: Anna's card is the Widow, Boris's card is the Queen",
		"game over after 5 turns: Anna won",
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
	var outcomes []string
	for _, st := range res.Steps {
		for _, sw := range st.Swaps {
			outcomes = append(outcomes, st.Move+"="+sw.Outcome)
		}
	}
	want := "Anna swap Boris=real,Boris swap centre1=pretended,Sasha swap Dima=real,Dima swap Anna=pretended"
	if got := strings.Join(outcomes, ","); got != want {
		t.Errorf("swap outcomes %s, want %s", got, want)
	}
	if !res.Keys || !res.Revealed || !res.Complete || res.Final == nil || !res.Final.Over {
		t.Errorf("result %+v", res)
	}
}

// Without --reveal the narration never says whether a swap was real.
func TestReplayPublic(t *testing.T) {
	path := scriptTranscript(t, replayScript, true)
	for _, args := range [][]string{{"replay", path}, {"replay", path, "--json"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		for _, leak := range []string{"real", "pretend", "same-card", "outcome", "now holds", "nothing moved", "cards after", " yes", " no\n", "Widow, Boris the Queen"} {
			if strings.Contains(out, leak) {
				t.Errorf("%v tells a secret (%q):\n%s", args, leak, out)
			}
		}
		if len(args) == 2 {
			for _, want := range []string{"turn 1  Anna swaps cards with Boris  (swapped or not: only Anna knows)",
				"turn 2  Boris swaps their card with centre card 1  (swapped or not: only Boris knows)", "game over after 5 turns: Anna won"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		}
	}
}

// Without published keys --reveal fails with a hint; the public replay
// still works.
func TestReplayRevealNeedsKeys(t *testing.T) {
	path := scriptTranscript(t, replayScript, false)
	code, out, errOut := runCmd(t, "replay", path, "--reveal")
	if code != 1 || !strings.Contains(errOut, "masque: error: --reveal: no published key for Anna, Boris, Sasha, Dima") ||
		!strings.Contains(errOut, "masque: hint: replay without --reveal") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// An unfinished game never reaches the key publication.
	unfinished := scriptTranscript(t, "game mascarade players=Anna,Boris,Sasha,Dima\nAnna swap Boris yes\n", true)
	code, _, errOut = runCmd(t, "replay", unfinished, "--reveal")
	if code != 1 || !strings.Contains(errOut, "did not reach its end") {
		t.Fatalf("unfinished: exit %d\n%s", code, errOut)
	}
	code, out, errOut = runCmd(t, "replay", unfinished)
	if code != 0 || !strings.Contains(out, "dealt face up") || !strings.Contains(out, "not finished") {
		t.Fatalf("public replay of an unfinished game: exit %d\n%s%s", code, out, errOut)
	}
}

// A tampered transcript is rejected, as by verify: a flipped signature
// bit is damage (or forgery), exit 3, blaming nobody.
func TestReplayRejectsTampering(t *testing.T) {
	path := scriptTranscript(t, replayScript, true)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-10] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCmd(t, "replay", path)
	if code != exitDamaged || !strings.Contains(errOut, "no roster key signed it") || !strings.Contains(errOut, "nobody is blamed") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
}

func TestPlayNeedsTerminalAndSaysNetIsLater(t *testing.T) {
	code, _, errOut := runCmd(t, "play")
	if code != 2 || !strings.Contains(errOut, "needs a terminal") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	code, _, errOut = runCmd(t, "play", "--players", "1")
	if code != 2 || !strings.Contains(errOut, "--players 1") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	code, _, errOut = runCmd(t, "play", "--player", "no spaces")
	if code != 2 || !strings.Contains(errOut, "--player \"no spaces\": not a valid player name") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	// The old --name still works, with a note to use --player.
	code, out, errOut := runCmd(t, "play", "--name", "no spaces")
	if code != 2 || !strings.Contains(errOut, "not a valid player name") || !strings.Contains(out+errOut, "use --player") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
}
