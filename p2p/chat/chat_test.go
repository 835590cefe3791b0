package chat

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestClean(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"hello", "hello"},
		{"  two\n\nlines\t ", "two lines"},
		{"esc\x1b[2Jape", "esc[2Jape"},
		{"bell\a", "bell"},
		{"rtl \u202eevil\u202c", "rtl evil"},
		{"iso\u2066late\u2069", "isolate"},
		{"nbsp\u00a0space", "nbsp space"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"émoji 🎭", "émoji 🎭"},
		{strings.Repeat("é", 200), strings.Repeat("é", 140)}, // 280 bytes, cut on a character
	} {
		got, err := Clean(c.in)
		if err != nil || got != c.want {
			t.Errorf("Clean(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "   ", "\x00\x01\n", "\u202e"} {
		if _, err := Clean(in); !errors.Is(err, ErrEmpty) {
			t.Errorf("Clean(%q): %v", in, err)
		}
	}
}

func newKey(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

func TestSignVerify(t *testing.T) {
	pub, priv := newKey(t)
	other, _ := newKey(t)
	m := &Message{Game: [32]byte{7}, Seat: 2, Seq: 1, Time: time.UnixMilli(1_800_000_000_123), Text: "good luck"}
	if err := m.Sign(priv); err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(m.Marshal())
	if err != nil || got.Verify(pub) != nil || got.Text != m.Text || !got.Time.Equal(m.Time) || got.Seq != 1 || got.Seat != 2 {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if got.Verify(other) == nil {
		t.Fatal("verified with another seat's key")
	}
	for name, mutate := range map[string]func(*Message){
		"text":  func(m *Message) { m.Text = "bad luck" },
		"seat":  func(m *Message) { m.Seat = 3 },
		"seq":   func(m *Message) { m.Seq = 2 },
		"game":  func(m *Message) { m.Game[0] = 8 },
		"time":  func(m *Message) { m.Time = m.Time.Add(time.Millisecond) },
		"dirty": func(m *Message) { m.Text = "a\x1bb" },
	} {
		c := *got
		mutate(&c)
		if c.Verify(pub) == nil {
			t.Errorf("%s changed: still verifies", name)
		}
	}
	if err := (&Message{Seq: 1, Text: "a\nb"}).Sign(priv); err == nil {
		t.Error("signed unclean text")
	}
	if err := (&Message{Seq: 0, Text: "a"}).Sign(priv); err == nil {
		t.Error("signed sequence number 0")
	}
}

func TestUnmarshalRefuses(t *testing.T) {
	_, priv := newKey(t)
	m := &Message{Seq: 1, Time: time.UnixMilli(5), Text: "hi"}
	m.Sign(priv)
	b := m.Marshal()
	long := append([]byte(nil), b[:45]...)
	long = append(long, 0x01, 0x19) // 281 bytes of text
	for name, bad := range map[string][]byte{
		"short":     b[:50],
		"trailing":  append(append([]byte(nil), b...), 0),
		"long text": append(long, make([]byte, 281+64)...),
		"too big":   make([]byte, MaxMessage+1),
		"not utf8":  func() []byte { c := append([]byte(nil), b...); c[47] = 0xff; return c }(),
	} {
		if _, err := Unmarshal(bad); !errors.Is(err, ErrDecode) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	m := &Message{Seq: 1, Time: time.UnixMilli(5), Text: "hi"}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	m.Sign(priv)
	f.Add(m.Marshal())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Marshal(), b) {
			t.Fatal("re-encoding differs")
		}
	})
}

func TestFile(t *testing.T) {
	pub0, priv0 := newKey(t)
	pub1, priv1 := newKey(t)
	game := [32]byte{9}
	var msgs []*Message
	for i, s := range []struct {
		seat uint8
		key  ed25519.PrivateKey
	}{{0, priv0}, {1, priv1}, {0, priv0}} {
		m := &Message{Game: game, Seat: s.seat, Seq: uint32(i/2 + 1), Time: time.UnixMilli(int64(i)), Text: "m"}
		m.Sign(s.key)
		msgs = append(msgs, m)
	}
	f := &File{Game: game, Messages: msgs}
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	g, err := UnmarshalFile(b)
	if err != nil || len(g.Messages) != 3 {
		t.Fatalf("round trip: %v", err)
	}
	keys := [][]byte{pub0, pub1}
	if good, err := g.Verify(keys); err != nil || len(good) != 3 {
		t.Fatalf("verify: %d %v", len(good), err)
	}
	// A replayed message and a forged one are named, the rest kept.
	forged := *msgs[1]
	forged.Text = "n"
	g.Messages = append(g.Messages, msgs[0], &forged)
	good, err := g.Verify(keys)
	if len(good) != 3 || err == nil || !strings.Contains(err.Error(), "message 3: seat 0's message 1 again") || !strings.Contains(err.Error(), "message 4: chat: seat 1 message 1: bad signature") {
		t.Fatalf("verify: %d %v", len(good), err)
	}
	for name, bad := range map[string][]byte{
		"magic":    append([]byte("masque chat v2\n"), b[15:]...),
		"trailing": append(append([]byte(nil), b...), 0),
		"short":    b[:len(b)-1],
		"count":    func() []byte { c := append([]byte(nil), b...); c[15+32+3] = 4; return c }(),
	} {
		if _, err := UnmarshalFile(bad); !errors.Is(err, ErrDecode) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestLimiter(t *testing.T) {
	l := SendLimiter()
	now := time.Unix(1000, 0)
	for i := range 5 {
		if !l.Allow(1, now) {
			t.Fatalf("message %d refused", i)
		}
	}
	if l.Allow(1, now) || l.Wait(1, now) != 3*time.Second {
		t.Fatalf("6th allowed, or wait %v", l.Wait(1, now))
	}
	if !l.Allow(2, now) {
		t.Fatal("another seat's budget is its own")
	}
	if !l.Allow(1, now.Add(3*time.Second)) {
		t.Fatal("refill")
	}
}
