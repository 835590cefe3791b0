package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// 'masque host --web --game mafia': a person plays a networked Mafia game
// on the page against three bots that joined, through the real network
// session: the day's moves and the night's choices, and the table chat,
// which the page offers while the seat lives (its message comes back in
// the log) and closes once it is out, the screen refusing a message.
func TestHostWebMafia(t *testing.T) {
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, fmt.Sprintf("cfg%d", i)) }
	state := func(i int) string { return filepath.Join(dir, fmt.Sprintf("state%d", i)) }
	tr := func(i int) string { return filepath.Join(dir, fmt.Sprintf("t%d.masque", i)) }
	var hout, herr syncBuffer
	hcode := make(chan int, 1)
	go func() {
		hcode <- run([]string{"host", "--web", "--no-open", "--game", "mafia", "--players", "4", "--name", "webmafia", "--seed", "1",
			"--no-mdns", "--wait", "60s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0"}, nil, &hout, &herr)
	}()
	invite := pollFor(inviteRE, 20*time.Second, func() string { return hout.String() + herr.String() })
	if invite == "" {
		t.Fatalf("the host printed no invite:\n%s\n%s", hout.String(), herr.String())
	}
	var wg sync.WaitGroup
	codes := make([]int, 4)
	for i := 1; i < 4; i++ {
		wg.Go(func() {
			codes[i], _, _ = runOut("join", "--bot", invite, "--seed", fmt.Sprint(i),
				"--config", cfg(i), "--state", state(i), "--transcript", tr(i), "--listen", "/ip4/127.0.0.1/tcp/0")
		})
	}
	defer wg.Wait()
	page := waitPage(t, &hout, &herr, 30*time.Second)
	post := page.post
	events, stop := page.events(2 * time.Minute)
	defer stop()
	played := uint64(0)
	chatted, heard, barred, nights, answered := false, false, false, 0, 0
	over, racedEnd := false, false
	for data := range events {
		var st struct {
			At       int    `json:"at"`
			Ask      uint64 `json:"ask"`
			Busy     bool   `json:"busy"`
			Over     bool   `json:"over"`
			Dealt    bool   `json:"dealt"`
			Phase    string `json:"phase"`
			Chat     bool   `json:"chat"`
			Barred   string `json:"chatBarred"`
			Question *struct {
				Forced  bool              `json:"forced"`
				Choices []json.RawMessage `json:"choices"`
			} `json:"question"`
			Seats []struct {
				You bool `json:"you"`
				Out bool `json:"out"`
			} `json:"seats"`
			Log []struct {
				Who  string `json:"who"`
				Text string `json:"text"`
			} `json:"log"`
		}
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		if st.Over {
			over = true
			break
		}
		if racedEnd {
			t.Fatal("a dead seat's chat was accepted, and the game did not end")
		}
		if !st.Dealt {
			continue
		}
		out := false
		for _, s := range st.Seats {
			out = out || s.You && s.Out
		}
		if !st.Chat || (st.Barred != "") != out {
			t.Fatalf("chat %v, barred %q, the seat out %v", st.Chat, st.Barred, out)
		}
		for _, l := range st.Log {
			heard = heard || l.Who == "you" && l.Text == "good evening"
		}
		switch {
		case !out && !chatted:
			if c := post(`{"op":"chat","text":"good evening"}`); c != http.StatusNoContent {
				t.Fatalf("a living seat's chat: %d", c)
			}
			chatted = true
		case out && !barred:
			switch c := post(`{"op":"chat","text":"I was the Don"}`); c {
			case http.StatusConflict:
			case http.StatusNoContent:
				racedEnd = true // only if the game ended meanwhile: the next state says
			default:
				t.Fatalf("a dead seat's chat: %d, want %d", c, http.StatusConflict)
			}
			barred = true
		}
		if q := st.Question; q != nil && !st.Busy && st.Ask != played {
			if st.Phase == "night" {
				nights++
			}
			answered++
			i := 0
			if q.Forced && st.Phase == "day" {
				i = len(q.Choices) - 1 // accept the vote: the seat may go out
			}
			post(fmt.Sprintf(`{"op":"play","at":%d,"ask":%d,"choice":%d}`, st.At, st.Ask, i))
			played = st.Ask
		}
	}
	if !over || !chatted || !heard || answered == 0 {
		t.Fatalf("over %v, chatted %v, heard back %v, questions answered %d:\n%s", over, chatted, heard, answered, hout.String())
	}
	page.leave(hcode, 30*time.Second, "host --web", &hout, &herr)
	wg.Wait()
	for i, c := range codes {
		if i > 0 && c != 0 {
			t.Fatalf("joiner %d: exit %d", i, c)
		}
	}
	t.Logf("questions answered %d (%d at night); the seat went out before the end: %v (its chat refused then)", answered, nights, barred)
}
