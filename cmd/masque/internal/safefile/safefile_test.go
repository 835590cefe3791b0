package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole, with the mode asked for, and leaves no
// temporary file behind; a directory that does not exist is an error
// naming the path.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for _, tc := range []struct {
		data string
		mode os.FileMode
	}{{"first, longer than the second", 0o600}, {"second", 0o600}} {
		if err := Write(path, []byte(tc.data), tc.mode); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != tc.data {
			t.Fatalf("read %q, %v; want %q", got, err, tc.data)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != tc.mode {
			t.Fatalf("mode %v, %v; want %v", fi.Mode(), err, tc.mode)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory holds %d files, want 1", len(ents))
	}
	if err := Write(filepath.Join(dir, "no", "f"), []byte("x"), 0o600); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
