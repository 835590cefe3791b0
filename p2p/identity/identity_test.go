package identity

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadCreatesAndReloads(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "masque")
	a, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", st.Mode().Perm())
	}
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if a.PeerID() != b.PeerID() || !a.PublicKey().Equal(b.PublicKey()) {
		t.Fatal("reloaded identity differs")
	}
	// The signing key and the peer id are one key.
	pub, err := b.PeerID().ExtractPublicKey()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := pub.Raw()
	if !ed25519.PublicKey(raw).Equal(b.PublicKey()) {
		t.Fatal("peer id does not embed the signing key")
	}
	msg := []byte("hello")
	if !ed25519.Verify(a.PublicKey(), msg, ed25519.Sign(b.SigningKey(), msg)) {
		t.Fatal("signature does not verify")
	}
}

func TestLoadRefusesOpenPermissions(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, FileName), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Fatal("Load accepted a world-readable key")
	}
}
