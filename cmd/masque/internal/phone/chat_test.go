package phone

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/p2p/chat"
)

// TestPhoneChat: a phone at a table with a host and a joiner (each in
// its own node) reads the table chat and writes in it: its line, signed
// by its own seat's key, reaches the host and, carried on by the host,
// the joiner, under its name; the host's and the joiner's lines reach
// the phone. The host, which carries the phone's messages, cannot make
// the table take a line the phone did not sign: one it rewrites, or
// writes in the phone's name, is refused by its own room and reaches
// nobody.
func TestPhoneChat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr := startGame(ctx, t, mascarade.GameName, 3)
	_, _, d := newPhone(ctx, t, tr.hub, tr.code())
	go d.Run(ctx)
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	games := map[int]*netsession.Game{}
	for range 2 {
		select {
		case r := <-tr.results:
			if r.err != nil {
				t.Fatal(r.err)
			}
			games[r.seat] = r.g
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}
	host, joiner := games[0], games[2]
	if host == nil || joiner == nil {
		t.Fatalf("seats %v, want the host's 0 and the joiner's 2", games)
	}
	page := func() phoneseat.Page {
		var pg phoneseat.Page
		json.Unmarshal(d.Page(), &pg)
		return pg
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %v", what, ctx.Err())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	waitFor("the phone's table", func() bool { return page().Table != nil })
	saw := func(g *netsession.Game, seat int, text string) bool {
		for _, l := range g.ChatLog() {
			if l.Seat == seat && l.Text == text {
				return true
			}
		}
		return false
	}

	d.Chat("hello from   mila")
	waitFor("the phone's line at the host", func() bool { return saw(host, 1, "hello from mila") })
	waitFor("the phone's line at the joiner", func() bool { return saw(joiner, 1, "hello from mila") })
	if err := host.Chat("hi mila"); err != nil {
		t.Fatal(err)
	}
	if err := joiner.Chat("hi all"); err != nil {
		t.Fatal(err)
	}
	shown := func(name, text string) bool {
		for _, l := range page().Chat {
			if l.Name == name && l.Text == text {
				return true
			}
		}
		return false
	}
	waitFor("the host's line on the phone", func() bool { return shown("alice", "hi mila") })
	waitFor("the joiner's line on the phone", func() bool { return shown("bob", "hi all") })
	if !shown("mila", "hello from mila") {
		t.Errorf("the phone does not show its own line: %+v", page().Chat)
	}

	// The host carries the phone's messages: a line it rewrites, or
	// writes in the phone's name, is refused by its own room.
	var mine *chat.Message
	for _, m := range host.ChatFile().Messages {
		if m.Seat == 1 {
			mine = m
		}
	}
	if mine == nil {
		t.Fatal("the host kept no message of the phone's")
	}
	fw, err := tr.host.Node.Forward(tr.hub.seating.Table, 1, func([]byte) {})
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	rewritten := *mine
	rewritten.Text, rewritten.Seq = "mila resigns", mine.Seq+1
	hostKey := tr.host.ID.SigningKey()
	inName := &chat.Message{Game: mine.Game, Seat: 1, Seq: mine.Seq + 2, Time: time.Now(), Text: "mila resigns"}
	inName.Sign(hostKey)
	for name, m := range map[string]*chat.Message{"rewritten": &rewritten, "written in the phone's name": inName} {
		if err := fw.Chat(m.Marshal()); err == nil || !strings.Contains(err.Error(), "bad signature") {
			t.Errorf("a line of the phone's %s by its forwarder: %v, want refused (bad signature)", name, err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	for seat, g := range games {
		if saw(g, 1, "mila resigns") {
			t.Errorf("seat %d shows a line the phone never wrote", seat)
		}
	}
}
