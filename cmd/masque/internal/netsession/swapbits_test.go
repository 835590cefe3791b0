package netsession

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A seat's secret swap bits survive a restart: written before the move
// leaves, read back whole; a torn last line is dropped, a damaged earlier
// one is an error naming the file and line.
func TestSwapBitsFile(t *testing.T) {
	dir := t.TempDir()
	if got, err := loadSwapBits(dir); err != nil || len(got) != 0 {
		t.Fatalf("no file: %v, %v", got, err)
	}
	for _, w := range []struct {
		pos  uint64
		bits []bool
	}{{4, []bool{true}}, {9, []bool{false}}, {17, []bool{true, false}}, {9, []bool{true}}} {
		if err := appendSwapBits(dir, w.pos, w.bits); err != nil {
			t.Fatal(err)
		}
	}
	want := map[uint64][]bool{4: {true}, 9: {true}, 17: {true, false}}
	got, err := loadSwapBits(dir)
	if err != nil || !maps.EqualFunc(got, want, slices.Equal[[]bool]) {
		t.Fatalf("read %v, %v; want %v", got, err, want)
	}
	if st, err := os.Stat(filepath.Join(dir, SwapBitsFile)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the file is not private: %v %v", st.Mode(), err)
	}
	// A crash while writing: the torn line is dropped.
	f, _ := os.OpenFile(filepath.Join(dir, SwapBitsFile), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("23 1")
	f.Close()
	if got, err := loadSwapBits(dir); err != nil || !maps.EqualFunc(got, want, slices.Equal[[]bool]) {
		t.Fatalf("after a torn line: %v, %v", got, err)
	}
	// Damage before the end is reported.
	os.WriteFile(filepath.Join(dir, SwapBitsFile), []byte("4 1\nx 1\n9 0\n"), 0o600)
	if _, err := loadSwapBits(dir); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("damaged file: %v", err)
	}
	for _, bad := range [][]bool{nil, make([]bool, maxSwapBits+1)} {
		if err := appendSwapBits(dir, 1, bad); err == nil {
			t.Errorf("%d bits written", len(bad))
		}
	}
}
