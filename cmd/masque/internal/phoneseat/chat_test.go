package phoneseat

import (
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/p2p/chat"
)

// TestChatSigned: a phone's chat line leaves it signed by its seat's key
// as its seat's next message (a reloaded page goes on after the last
// number it used); a line from the server is shown only if its author's
// key signed it for this table: one rewritten on the way, one of
// another table, one of a seat the table does not have, one not signed
// by the seat it names are refused saying why, and a replay is shown once.
func TestChatSigned(t *testing.T) {
	now := time.Now()
	opts := Options{Timeout: time.Minute}
	p, kv, hostKey := startedPhoneHost(t, now, opts)
	gid, _ := p.roster.GameID()

	eff, err := p.Chat(now, "  hello\ntable ")
	if err != nil {
		t.Fatal(err)
	}
	if len(eff.Control) != 1 || eff.Control[0].T != "chat" {
		t.Fatalf("a chat line sends %+v, want one chat message", eff.Control)
	}
	m, err := chat.Unmarshal(eff.Control[0].Chat)
	if err != nil {
		t.Fatal(err)
	}
	if m.Seat != 1 || m.Seq != 1 || m.Game != gid || m.Text != "hello table" || m.Verify(p.Key()) != nil {
		t.Errorf("the phone's line: seat %d seq %d %q, signature %v; want seat 1's first, signed by its key", m.Seat, m.Seq, m.Text, m.Verify(p.Key()))
	}
	for _, put := range eff.Puts {
		kv[put.Key] = put.Value
	}

	host := func(seq uint32, text string) *chat.Message {
		m := &chat.Message{Game: gid, Seat: 0, Seq: seq, Time: now, Text: text}
		if err := m.Sign(hostKey); err != nil {
			t.Fatal(err)
		}
		return m
	}
	good := host(1, "hi mila")
	rewritten := good.Marshal()
	copy(rewritten[len(rewritten)-64-len("hi mila"):], "hi bill")
	other := *good
	other.Game[0] ^= 1
	otherSeat := host(2, "who am I")
	otherSeat.Seat = 5
	_, phonesKey, _ := ed25519.GenerateKey(nil)
	forged := &chat.Message{Game: gid, Seat: 0, Seq: 3, Time: now, Text: "alice never said this"}
	forged.Sign(phonesKey)
	for _, c := range []struct {
		name string
		enc  []byte
		want string
	}{
		{"rewritten on the way", rewritten, "bad signature"},
		{"of another table", other.Marshal(), "another table"},
		{"of a seat the table does not have", otherSeat.Marshal(), "seat 5"},
		{"signed by another key than its seat's", forged.Marshal(), "bad signature"},
		{"cut short", good.Marshal()[:40], "malformed"},
	} {
		if _, err := p.OnControl(now, Control{T: "chat", Chat: c.enc}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("a chat message %s: %v, want refused (%q)", c.name, err, c.want)
		}
	}
	for range 2 {
		eff, err := p.OnControl(now, Control{T: "chat", Chat: good.Marshal()})
		if err != nil {
			t.Fatalf("alice's line: %v", err)
		}
		for _, put := range eff.Puts {
			kv[put.Key] = put.Value
		}
	}
	got, _ := json.Marshal(p.View().Chat)
	want := `[{"name":"mila","text":"hello table","you":true},{"name":"alice","text":"hi mila"}]`
	if string(got) != want {
		t.Errorf("the page shows the chat %s, want %s", got, want)
	}
	if !p.View().MayChat {
		t.Error("a seated phone may not write in Mascarade's chat")
	}

	// The page reloads: its next line is its second.
	back, err := Restore(kv, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(back.View().Chat); string(got) != want {
		t.Errorf("after a reload the page shows the chat %s, want %s (as stored)", got, want)
	}
	eff, err = back.Chat(now.Add(time.Second), "again")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := chat.Unmarshal(eff.Control[0].Chat); err != nil || m.Seq != 2 {
		t.Errorf("after a reload the phone's line is number %d (%v), want 2 (number 1 was used: the table would drop it as seen)", m.Seq, err)
	}
}

// TestChatRate: a phone writes at the author's rate (5 lines, then one
// every 3 s), saying how long to wait, and never before its table starts.
func TestChatRate(t *testing.T) {
	fresh, _, err := New("mila", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Chat(time.Now(), "hi"); err == nil {
		t.Error("a phone with no table wrote in a chat")
	}
	now := time.Now()
	p, _ := startedPhone(t, now, Options{Timeout: time.Minute})
	for i := range 5 {
		if _, err := p.Chat(now, "line"); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	eff, err := p.Chat(now, "one too many")
	if err == nil || !strings.Contains(err.Error(), "wait 3 s") || len(eff.Control) != 0 || p.View().ChatErr == "" {
		t.Errorf("a sixth line at once: %v (%d sent, page says %q), want refused: wait 3 s", err, len(eff.Control), p.View().ChatErr)
	}
	if _, err := p.Chat(now.Add(3*time.Second), "later"); err != nil || p.View().ChatErr != "" {
		t.Errorf("a line 3 s later: %v (page says %q)", err, p.View().ChatErr)
	}
}
