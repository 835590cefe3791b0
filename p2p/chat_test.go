package p2p

import (
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/store"
)

// chatRooms opens (without running) a room per peer, each collecting the
// chat messages it is handed; seat barred may not write.
func chatRooms(t *testing.T, ps []*tpeer, barred int) ([]*Room, []*chatBox) {
	t.Helper()
	tb := signedTable(t, ps)
	var rooms []*Room
	var boxes []*chatBox
	for _, p := range ps {
		st, err := store.Create(p.dir, tb, []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		box := &chatBox{}
		room, err := p.node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: len(ps), limit: 4}, Author: countAuthor,
			OnChat:  box.add,
			MayChat: func(seat uint8) bool { return int(seat) != barred }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { room.Close() })
		rooms, boxes = append(rooms, room), append(boxes, box)
	}
	return rooms, boxes
}

type chatBox struct {
	mu  sync.Mutex
	got []*chat.Message
}

func (b *chatBox) add(m *chat.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.got = append(b.got, m)
}

func (b *chatBox) texts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.got {
		out = append(out, m.Text)
	}
	return out
}

// waitTexts waits until b holds the messages of want (|-separated), in
// any order (messages of different authors may cross).
func waitTexts(t *testing.T, b *chatBox, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	sorted := func(s []string) string { s = slices.Clone(s); slices.Sort(s); return strings.Join(s, "|") }
	for sorted(b.texts()) != sorted(strings.Split(want, "|")) {
		if time.Now().After(deadline) {
			t.Fatalf("chat: got %q, want %q", strings.Join(b.texts(), "|"), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestChat: a message reaches every seat in order, signed by its author
// and cleaned; a barred seat may not write (nor be accepted when it
// does); the author's rate is limited; a forged or replayed message is
// refused.
func TestChat(t *testing.T) {
	_, ps := mockPeers(t, 3)
	rooms, boxes := chatRooms(t, ps, 2)
	if _, err := rooms[0].Chat("hello\x1b[31m  world\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := rooms[1].Chat("hi"); err != nil {
		t.Fatal(err)
	}
	waitTexts(t, boxes[2], "hello[31m world|hi")
	waitTexts(t, boxes[0], "hello[31m world|hi")
	if _, err := rooms[2].Chat("I am dead"); !errors.Is(err, ErrChatBarred) {
		t.Fatalf("barred seat: %v", err)
	}
	if _, err := rooms[0].Chat(" \t\x00 "); !errors.Is(err, chat.ErrEmpty) {
		t.Fatalf("empty: %v", err)
	}
	// Rate: 5 at once, then refused.
	var rateErr error
	for i := range 6 {
		if _, err := rooms[1].Chat(strings.Repeat("x", i+1)); err != nil {
			rateErr = err
		}
	}
	if !errors.Is(rateErr, ErrChatRate) {
		t.Fatalf("rate: %v", rateErr)
	}
	// A message forged for seat 1 by seat 2's peer, one replayed, one of
	// the barred seat: peer 0 keeps none of them.
	waitTexts(t, boxes[0], "hello[31m world|hi|x|xx|xxx|xxxx")
	forged := &chat.Message{Game: rooms[0].GameID(), Seat: 1, Seq: 99, Time: time.Now(), Text: "forged"}
	forged.Sign(ps[2].id.SigningKey())
	barred := &chat.Message{Game: rooms[0].GameID(), Seat: 2, Seq: 1, Time: time.Now(), Text: "boo"}
	barred.Sign(ps[2].id.SigningKey())
	replay := boxes[0].got[1]
	for _, m := range []*chat.Message{forged, barred, replay} {
		if err := sendRaw(ps[2], ps[0], m.Marshal()); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond)
	if got := boxes[0].texts(); len(got) != 6 {
		t.Fatalf("after forged, barred and replayed messages: %q", got)
	}
	var reported []string
	for len(ps[0].errs) > 0 {
		reported = append(reported, (<-ps[0].errs).Error())
	}
	all := strings.Join(reported, "\n")
	if !strings.Contains(all, "bad signature") || !strings.Contains(all, "may not write") {
		t.Fatalf("peer errors: %s", all)
	}
	// Oversize frames are refused before reading them.
	_ = sendRaw(ps[2], ps[0], make([]byte, chat.MaxMessage+1)) // reset by the receiver
	time.Sleep(100 * time.Millisecond)
	if e := <-ps[0].errs; !strings.Contains(e.Error(), "at most") {
		t.Fatalf("oversize: %v", e)
	}
}

// sendRaw sends one chat frame from a to b.
func sendRaw(a, b *tpeer, enc []byte) error {
	st, err := a.node.Host().NewStream(context.Background(), b.id.PeerID(), ProtocolChat)
	if err != nil {
		return err
	}
	st.Write(append(binary.BigEndian.AppendUint16(nil, uint16(len(enc))), enc...))
	return st.Close()
}

// A restarted seat goes on numbering after the messages it kept.
func TestChatRestoredSeq(t *testing.T) {
	_, ps := mockPeers(t, 2)
	tb := signedTable(t, ps)
	st, err := store.Create(ps[0].dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	gid, _ := tb.Roster.GameID()
	kept := &chat.Message{Game: gid, Seat: 0, Seq: 7, Time: time.Now(), Text: "before"}
	kept.Sign(ed25519.PrivateKey(ps[0].id.SigningKey()))
	room, err := ps[0].node.OpenRoom(RoomConfig{Store: st, Replica: &counter{seats: 2, limit: 4}, Author: countAuthor, Chat: []*chat.Message{kept}})
	if err != nil {
		t.Fatal(err)
	}
	defer room.Close()
	m, err := room.Chat("after")
	if err != nil || m.Seq != 8 {
		t.Fatalf("seq after restart: %v %v", m, err)
	}
}
