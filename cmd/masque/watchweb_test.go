package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// 'masque watch INVITE --web --no-open': the spectator's page follows a
// live networked game read-only: no seat is the page's, no card is known
// to it, nothing is asked and a play is refused; it shows the end with
// the transcript's path, stays up until left, and the command then ends
// with the verified transcript, byte-identical to the host's.
func TestWatchWeb(t *testing.T) {
	for _, tc := range []struct {
		game    string
		players int
	}{{"mascarade", 3}, {"mafia", 4}} {
		t.Run(tc.game, func(t *testing.T) { watchOnPage(t, tc.game, tc.players) })
	}
}

// watchOnPage is TestWatchWeb for one game.
func watchOnPage(t *testing.T, game string, players int) {
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprintf("cfg%d", i)) }
	state := func(i int) string { return filepath.Join(dir, fmt.Sprintf("state%d", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	watched := filepath.Join(dir, "watched.masque")
	hostErr := &syncBuffer{}
	var wg sync.WaitGroup
	codes := make([]int, players)
	wg.Go(func() {
		var out bytes.Buffer
		codes[0] = run([]string{"host", "--bot", "--game", game, "--players", fmt.Sprint(players), "--name", "webwatched", "--seed", "1",
			"--no-mdns", "--wait", "60s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, hostErr)
	})
	invite := pollFor(inviteRE, 20*time.Second, hostErr.String)
	if invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no invite:\n%s", hostErr.String())
	}
	var wout, werr syncBuffer
	wcode := make(chan int, 1)
	go func() {
		wcode <- run([]string{"watch", invite, "--web", "--no-open", "--transcript", watched, "--listen", "/ip4/127.0.0.1/tcp/0"}, nil, &wout, &werr)
	}()
	time.Sleep(300 * time.Millisecond)
	for i := 1; i < players; i++ {
		wg.Go(func() {
			codes[i], _, _ = runOut("join", "--bot", invite, "--seed", fmt.Sprint(i),
				"--config", cfg(i), "--state", state(i), "--transcript", tr(i), "--listen", "/ip4/127.0.0.1/tcp/0")
		})
	}
	page := waitPage(t, &wout, &werr, 30*time.Second)
	post := page.post
	events, stop := page.events(90 * time.Second)
	defer stop()
	var notes []string
	states, maxLog, at := 0, 0, 0
	for data := range events {
		var st struct {
			At       int             `json:"at"`
			Me       string          `json:"me"`
			Over     bool            `json:"over"`
			Question json.RawMessage `json:"question"`
			Seats    []struct {
				You   bool `json:"you"`
				Cards []struct {
					Name string `json:"name"`
					Face string `json:"face"`
				} `json:"cards"`
			} `json:"seats"`
			Log      []json.RawMessage `json:"log"`
			EndNotes []string          `json:"endNotes"`
			Verdict  string            `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		states++
		if st.Question != nil || st.Me != "" {
			t.Fatalf("the spectator's page asks %s, is %q", st.Question, st.Me)
		}
		for _, s := range st.Seats {
			for _, c := range s.Cards {
				if s.You || c.Face == "known" || c.Face == "down" && c.Name != "" {
					t.Fatalf("the spectator's page shows a seat's secret: %s", data)
				}
			}
		}
		maxLog, at = max(maxLog, len(st.Log)), st.At
		if st.Over {
			notes = st.EndNotes
			if st.Verdict != "" {
				t.Fatalf("the table stopped: %s", st.Verdict)
			}
			break
		}
	}
	if len(notes) == 0 || !strings.Contains(notes[0], watched) || maxLog < 5 || states < 3 {
		t.Fatalf("%d states, %d log lines, end notes %q:\n%s\n%s", states, maxLog, notes, wout.String(), werr.String())
	}
	if c := post(fmt.Sprintf(`{"op":"play","at":%d,"choice":0}`, at)); c != http.StatusConflict {
		t.Errorf("a spectator's play: %d, want %d", c, http.StatusConflict)
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Fatalf("peer %d: exit %d", i, c)
		}
	}
	// The page stays up after the game until its spectator leaves it.
	select {
	case c := <-wcode:
		t.Fatalf("watch --web ended (exit %d) before its page was left:\n%s", c, werr.String())
	case <-time.After(300 * time.Millisecond):
	}
	page.leave(wcode, 30*time.Second, "watch --web", &wout, &werr)
	if !strings.Contains(werr.String(), "verified: ") {
		t.Errorf("watch did not verify:\n%s", werr.String())
	}
	seat, _ := os.ReadFile(tr(0))
	got, err := os.ReadFile(watched)
	if err != nil || !bytes.Equal(seat, got) {
		t.Fatalf("the spectator's transcript differs from the host's (%v)", err)
	}
}
