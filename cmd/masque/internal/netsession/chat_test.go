package netsession

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/masque-games/masque/p2p/chat"
)

// The state directory's chat file: messages come back in order, and a
// record torn by a crash is ignored with what follows it.
func TestChatFileInStateDir(t *testing.T) {
	dir := t.TempDir()
	if got, err := loadChat(dir); err != nil || got != nil {
		t.Fatalf("no file: %v %v", got, err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	for i, text := range []string{"one", "two"} {
		m := &chat.Message{Game: [32]byte{1}, Seat: 0, Seq: uint32(i + 1), Time: time.Now(), Text: text}
		if err := m.Sign(priv); err != nil {
			t.Fatal(err)
		}
		if err := appendChat(dir, m); err != nil {
			t.Fatal(err)
		}
	}
	f, _ := os.OpenFile(filepath.Join(dir, chatFile), os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte{0, 90, 1, 2, 3}) // a torn record
	f.Close()
	got, err := loadChat(dir)
	if err != nil || len(got) != 2 || got[0].Text != "one" || got[1].Seq != 2 {
		t.Fatalf("loaded %v %v", got, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, chatFile)); st.Mode().Perm() != 0o600 {
		t.Fatalf("chat file mode %v", st.Mode())
	}
}

// Where each chat message came in the log is kept beside the chat file,
// so that a restarted screen shows it there.
func TestChatPlacesInStateDir(t *testing.T) {
	dir := t.TempDir()
	if got, err := loadChatAt(dir); err != nil || got != nil {
		t.Fatalf("no file: %v %v", got, err)
	}
	for _, n := range []int{0, 7, 42} {
		if err := appendChatAt(dir, n); err != nil {
			t.Fatal(err)
		}
	}
	got, err := loadChatAt(dir)
	if err != nil || len(got) != 3 || got[0] != 0 || got[1] != 7 || got[2] != 42 {
		t.Fatalf("loaded %v %v", got, err)
	}
	if st, _ := os.Stat(filepath.Join(dir, chatAtFile)); st.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", st.Mode())
	}
}
