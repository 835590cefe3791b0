package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestChatHeadless: a host and a joiner each post a chat message (--say);
// both narrate both messages, save them beside their transcripts, and
// 'masque replay' shows them checked against the roster's keys; a message
// altered in the file is left out with a warning.
func TestChatHeadless(t *testing.T) {
	dir := t.TempDir()
	p := func(s string) string { return filepath.Join(dir, s) }
	hostErr := &syncBuffer{}
	var hostOut bytes.Buffer
	var hostCode int
	var wg sync.WaitGroup
	wg.Go(func() {
		hostCode = run([]string{"host", "--bot", "--players", "2", "--name", "chat", "--no-mdns", "--wait", "60s", "--seed", "1",
			"--config", p("hc"), "--state", p("hs"), "--transcript", p("h.masque"), "--listen", "/ip4/127.0.0.1/tcp/0",
			"--say", "hello from the host", "--json"}, nil, &hostOut, hostErr)
	})
	invite := pollFor(inviteRE, 20*time.Second, hostErr.String)
	if invite == "" {
		t.Fatalf("no invite:\n%s", hostErr.String())
	}
	code, out, errOut := runOut("join", invite, "--bot", "--config", p("jc"), "--state", p("js"), "--transcript", p("j.masque"),
		"--listen", "/ip4/127.0.0.1/tcp/0", "--say", "good\x1b[2J  luck")
	wg.Wait()
	if code != 0 || hostCode != 0 {
		t.Fatalf("join exit %d:\n%s%s\nhost exit %d:\n%s", code, out, errOut, hostCode, hostErr.String())
	}
	for _, want := range []string{"): hello from the host", "(seat 1): good[2J luck", "table chat: " + p("j.masque.chat") + " (2 messages"} {
		if !strings.Contains(out, want) {
			t.Errorf("the joiner's narration lacks %q:\n%s", want, out)
		}
	}
	var res netResult
	if err := json.Unmarshal(hostOut.Bytes(), &res); err != nil || res.Chat != p("h.masque.chat") || res.ChatMessages != 2 {
		t.Fatalf("host --json: %+v %v", res, err)
	}
	code, out, _ = runOut("replay", p("h.masque"), "--json")
	var rep replayResult
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Chat) != 2 {
		t.Fatalf("replay --json: exit %d\n%s", code, out)
	}
	texts := rep.Chat[0].Text + "|" + rep.Chat[1].Text
	if texts != "hello from the host|good[2J luck" && texts != "good[2J luck|hello from the host" {
		t.Fatalf("replayed chat: %q", texts)
	}
	code, out, _ = runOut("replay", p("h.masque"))
	if code != 0 || !strings.Contains(out, "Table chat (2 messages, each signed by its author):") {
		t.Fatalf("replay: exit %d\n%s", code, out)
	}
	// Alter one message's text: it no longer verifies.
	data, _ := os.ReadFile(p("h.masque.chat"))
	i := bytes.Index(data, []byte("hello from the host"))
	data[i] = 'j'
	os.WriteFile(p("h.masque.chat"), data, 0o644)
	code, out, errOut = runOut("replay", p("h.masque"))
	if code != 0 || !strings.Contains(out, "Table chat (1 message,") || strings.Contains(out, "jello") ||
		!strings.Contains(errOut, "bad signature") {
		t.Fatalf("replay of an altered chat: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ = runOut("replay", p("h.masque"), "--no-chat"); code != 0 || strings.Contains(out, "Table chat") {
		t.Fatalf("--no-chat: %d\n%s", code, out)
	}
	// Another game's chat file is refused.
	code, _, errOut = runOut("replay", p("h.masque"), "--chat", p("h.masque"))
	if code == 0 || !strings.Contains(errOut, "not a chat file") {
		t.Fatalf("--chat of a transcript: exit %d\n%s", code, errOut)
	}
}
