package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// --web's flags are checked before anything is done: a non-loopback
// address, --web-addr or --no-open without --web, and --bot with --web
// are usage errors.
func TestWebFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--web", "--web-addr", "0.0.0.0:8080"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "192.168.1.2:8080"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "example.com:80"}, "loopback address only"},
		{[]string{"play", "--web", "--web-addr", "127.0.0.1"}, "missing port"},
		{[]string{"play", "--web-addr", "127.0.0.1:0"}, "go with --web"},
		{[]string{"play", "--no-open"}, "go with --web"},
		{[]string{"host", "--web", "--web-addr", "[::]:80", "--config", t.TempDir()}, "loopback address only"},
		{[]string{"join", "--web", "--bot", "x", "--config", t.TempDir()}, "--bot and --web are exclusive"},
		{[]string{"join", "--no-open", "x", "--config", t.TempDir()}, "go with --web"},
		{[]string{"watch", "--web", "--web-addr", "0.0.0.0:80", "/ip4/127.0.0.1/tcp/1/p2p/x"}, "loopback address only"},
		{[]string{"watch", "--no-open", "/ip4/127.0.0.1/tcp/1/p2p/x"}, "go with --web"},
		{[]string{"watch", "--web", "--json", "/ip4/127.0.0.1/tcp/1/p2p/x"}, "--web and --json"},
	} {
		code, _, errOut := runOut(c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("masque %s: exit %d (want %d)\n%s", strings.Join(c.args, " "), code, exitUsage, errOut)
		}
	}
}

func TestTranscriptNotes(t *testing.T) {
	got := transcriptNotes("g.masque", true, "when you leave")
	if len(got) != 3 || !strings.Contains(got[2], "masque replay g.masque --reveal") {
		t.Errorf("with keys published: %q", got)
	}
	got = transcriptNotes("g.masque", false, "when you leave")
	if len(got) != 3 || strings.Contains(got[2], "--reveal") {
		t.Errorf("with keys kept: %q", got)
	}
}

// 'masque play --web --no-open' with no terminal: it prints the page's
// address and a status line per change, the game is played to its end
// through the page's event stream and actions, leaving from the page
// ends the command, and the transcript named on the page is written and
// verifies.
func TestPlayWeb(t *testing.T) {
	playWeb(t, "play", "--web", "--no-open", "--players", "4", "--bot-delay", "0", "--seed", "3")
}

// 'masque play --web --game mafia': the same through Mafia's day moves
// and night choices (a seat without a power sleeps from the page rather
// than waiting out the night's floor delay).
func TestPlayWebMafia(t *testing.T) {
	playWeb(t, "play", "--web", "--no-open", "--game", "mafia", "--players", "5", "--bot-delay", "0", "--seed", "3")
}

// playWeb runs masque with args (a play --web --no-open), plays the
// first choice of every question through the page's stream and actions
// to the end, leaves from the page, and checks the terminal's lines and
// the transcript.
func playWeb(t *testing.T, args ...string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var out, errOut syncBuffer
	code := make(chan int, 1)
	go func() {
		code <- run(args, nil, &out, &errOut)
	}()
	page := waitPage(t, &out, &errOut, 20*time.Second)
	post := page.post
	events, stop := page.events(time.Minute)
	defer stop()
	played := uint64(0)
	var notes []string
	for data := range events {
		var st struct {
			At       int    `json:"at"`
			Ask      uint64 `json:"ask"`
			Busy     bool   `json:"busy"`
			Over     bool   `json:"over"`
			Question *struct {
				Choices []struct {
					Secret bool `json:"secret"`
				} `json:"choices"`
			} `json:"question"`
			EndNotes []string `json:"endNotes"`
		}
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		if st.Over {
			notes = st.EndNotes
			break
		}
		if st.Question != nil && !st.Busy && st.Ask != played {
			post(fmt.Sprintf(`{"op":"play","at":%d,"ask":%d,"choice":0,"answer":"yes"}`, st.At, st.Ask))
			played = st.Ask
		}
	}
	if len(notes) == 0 {
		t.Fatalf("the game did not end on the page:\n%s", out.String())
	}
	page.leave(code, 20*time.Second, "masque play --web", &out, &errOut)
	path := strings.Fields(strings.TrimPrefix(notes[0], "transcript: "))[0]
	if !strings.Contains(out.String(), "transcript: "+path) || !strings.Contains(out.String(), "table: your move") ||
		!strings.Contains(out.String(), "table: game over") {
		t.Errorf("the terminal says:\n%s", out.String())
	}
	if c, vout, verr := runOut("verify", path); c != 0 {
		t.Fatalf("verify %s: exit %d\n%s%s", path, c, vout, verr)
	}
}
