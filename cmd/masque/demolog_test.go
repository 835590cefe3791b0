package main

import (
	"crypto/ed25519"
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/store"
)

// sameLog reads a peer's log back from its state directory a chunk at a
// time and finds an entry that differs from the kept log by one byte, in
// any chunk, and a log of another length.
func TestDemoSameLogReadsBackInChunks(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &ledger.Roster{TableID: [16]byte{7}, Game: "mafia", Options: []byte{1},
		Seats: []ledger.SeatInfo{{Name: "ann", PeerID: []byte("ann"), SignKey: pub, Keys: []byte("keys")}}}
	st, err := store.Create(t.TempDir(), store.Table{Roster: r, Sigs: make([][64]byte, 1), Addrs: make([][][]byte, 1)}, []byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := 2*sameLogChunk + 5
	var log []*ledger.Entry
	for i := range n {
		e := &ledger.Entry{Pos: uint64(i), Body: []byte(strings.Repeat("b", 1+i%7))}
		e.Sig[0] = byte(i)
		if err := st.Write(e); err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
	}
	if err := sameLog(log, st); err != nil {
		t.Fatalf("the same log: %v", err)
	}
	for _, at := range []int{0, sameLogChunk - 1, sameLogChunk, n - 1} {
		bad := *log[at]
		bad.Body = append([]byte(nil), bad.Body...)
		bad.Body[0] ^= 1
		other := append([]*ledger.Entry(nil), log...)
		other[at] = &bad
		if err := sameLog(other, st); err == nil || err.Error() != "entry "+strconv.Itoa(at) {
			t.Errorf("entry %d changed: got %v", at, err)
		}
	}
	if err := sameLog(log[:n-1], st); err == nil || !strings.Contains(err.Error(), "entries against") {
		t.Errorf("a shorter log: got %v", err)
	}
}
