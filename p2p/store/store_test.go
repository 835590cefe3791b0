package store

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

func testTable(t *testing.T) (Table, []ed25519.PrivateKey) {
	t.Helper()
	r := &ledger.Roster{Game: "counter", Options: []byte{1}}
	var keys []ed25519.PrivateKey
	for i, name := range []string{"ann", "bob"} {
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, priv)
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: name, PeerID: []byte{byte(i)}, SignKey: pub, Keys: []byte("ck")})
	}
	gid, err := r.GameID()
	if err != nil {
		t.Fatal(err)
	}
	tb := Table{Roster: r}
	for _, k := range keys {
		var sig [64]byte
		copy(sig[:], ed25519.Sign(k, ledger.RosterSigningBytes(gid)))
		tb.Sigs = append(tb.Sigs, sig)
		tb.Addrs = append(tb.Addrs, [][]byte{[]byte("addr")})
	}
	return tb, keys
}

func TestStoreRoundTripAndTruncation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "table")
	tb, keys := testTable(t)
	s, err := Create(dir, tb, []byte("secret key"))
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := tb.Roster.GameID()
	prev := gid
	var want []*ledger.Entry
	for i := range 5 {
		e := &ledger.Entry{Pos: uint64(i), Seat: uint8(i % 2), Prev: prev, Body: []byte{byte(i)}}
		e.Sign(gid, keys[i%2])
		if err := s.Append(e); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash()
		want = append(want, e)
	}
	if err := s.Append(want[2]); err == nil {
		t.Fatal("Append accepted an out-of-order entry")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, SecretFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v %v", st, err)
	}

	// Tear the last record: every cut inside it must drop exactly it.
	path := filepath.Join(dir, LogFile)
	full, _ := os.ReadFile(path)
	lastLen := len(full) - recordOffset(splitAll(full), 4)
	for _, cut := range []int{1, 7, 8, lastLen - 1} {
		if err := os.WriteFile(path, full[:len(full)-cut], 0o600); err != nil {
			t.Fatal(err)
		}
		s2, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s2.Entries()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 4 || s2.Dropped() != int64(lastLen-cut) {
			t.Fatalf("cut %d: %d entries, dropped %d", cut, len(got), s2.Dropped())
		}
		// The log goes on after the repair.
		if err := s2.Append(want[4]); err != nil {
			t.Fatal(err)
		}
		s2.Close()
		s3, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if int(s3.Len()) != 5 || s3.Dropped() != 0 {
			t.Fatalf("cut %d: after repair %d entries, dropped %d", cut, int(s3.Len()), s3.Dropped())
		}
		s3.Close()
	}
	// A flipped byte in the last record fails its checksum.
	bad := bytes.Clone(full)
	bad[len(bad)-3] ^= 1
	os.WriteFile(path, bad, 0o600)
	s4, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s4.Close()
	if int(s4.Len()) != 4 {
		t.Fatalf("corrupt tail: %d entries", int(s4.Len()))
	}
	sec, err := s4.Secret()
	if err != nil || string(sec) != "secret key" {
		t.Fatalf("secret %q %v", sec, err)
	}
	if gotT := s4.Table(); len(gotT.Sigs) != 2 || gotT.Sigs[1] != tb.Sigs[1] || string(gotT.Addrs[0][0]) != "addr" {
		t.Fatal("table record changed")
	}
	if v, err := s4.Verdict(); v != nil || err != nil {
		t.Fatal("verdict before any was saved")
	}
	if err := s4.SaveVerdict([]byte("v")); err != nil {
		t.Fatal(err)
	}
	if v, err := s4.Verdict(); string(v) != "v" || err != nil {
		t.Fatal("verdict not saved")
	}
	if _, err := Create(dir, tb, nil); err == nil {
		t.Fatal("Create overwrote a table")
	}
}

func splitAll(b []byte) [][]byte { r, _ := splitRecords(b); return r }

// A state directory is open in one process at a time: a second Open fails
// with ErrInUse until the first is closed (the kernel also releases the
// lock when a process dies, kill -9 included).
func TestStoreLocked(t *testing.T) {
	tb, _ := testTable(t)
	dir := filepath.Join(t.TempDir(), "table")
	st, err := Create(dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	// flock locks are per open file description: a second open in this
	// process conflicts as another process's would.
	if _, err := Open(dir); !errors.Is(err, ErrInUse) {
		if runtime.GOOS != "windows" {
			t.Fatalf("second Open: %v, want ErrInUse", err)
		}
	}
	st.Close()
	again, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	again.Close()
}

// TestStoreWriteThenSync: a batch written with Write and made durable by
// one Sync reads back like appended entries; Write refuses an
// out-of-order entry, and both refuse a closed store.
func TestStoreWriteThenSync(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "table")
	tb, keys := testTable(t)
	s, err := Create(dir, tb, []byte("secret key"))
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := tb.Roster.GameID()
	prev := gid
	for i := range 4 {
		e := &ledger.Entry{Pos: uint64(i), Seat: uint8(i % 2), Prev: prev, Body: []byte{byte(i)}}
		e.Sign(gid, keys[i%2])
		if err := s.Write(e); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash()
	}
	if err := s.Write(&ledger.Entry{Pos: 9}); err == nil || !strings.Contains(err.Error(), "entry 9 appended after 4 entries") {
		t.Fatalf("out-of-order Write: %v", err)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Sync(); err == nil {
		t.Fatal("Sync of a closed store succeeded")
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if n := int(s2.Len()); n != 4 {
		t.Fatalf("%d entries after reopening, want 4", n)
	}
}

// TestDurableCountsSyncedEntries: Write leaves an entry out of Durable
// until Sync; Append and Open count theirs.
func TestDurableCountsSyncedEntries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "table")
	tb, keys := testTable(t)
	s, err := Create(dir, tb, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := tb.Roster.GameID()
	prev := gid
	var es []*ledger.Entry
	for i := range 3 {
		e := &ledger.Entry{Pos: uint64(i), Seat: uint8(i % 2), Prev: prev, Body: []byte{byte(i)}}
		e.Sign(gid, keys[i%2])
		prev = e.Hash()
		es = append(es, e)
	}
	if err := s.Append(es[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(es[1]); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(es[2]); err != nil {
		t.Fatal(err)
	}
	if got := s.Durable(); got != 1 {
		t.Errorf("after Append and two Writes: Durable %d, want 1", got)
	}
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	if got := s.Durable(); got != 3 {
		t.Errorf("after Sync: Durable %d, want 3", got)
	}
	s.Close()
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Durable(); got != 3 {
		t.Errorf("after Open: Durable %d, want 3", got)
	}
}
