package ledger_test

import (
	"bytes"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// seedGame is a short real game: its roster and entries seed the corpora.
func seedGame(tb testing.TB) *tabletest.Harness {
	names := []string{"Anna", "Boris", "Clara", "Dmitri"}
	g, err := mascarade.Options{Players: names}.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	h := tabletest.New(tb, mascarade.Game{}, "ledger-fuzz", names, table.Options{Game: g, PublishKeys: true})
	for i := range 4 {
		h.Move(i, mascarade.KindSwap, []int{i, (i + 1) % 4}, i%2 == 0)
	}
	h.Move(0, mascarade.KindPeek, []int{0})
	return h
}

// FuzzEntry: the entry decoder never panics, and what it accepts is the
// canonical encoding of what it returns.
func FuzzEntry(f *testing.F) {
	h := seedGame(f)
	for _, e := range h.Entries {
		enc, _ := e.MarshalBinary()
		f.Add(enc)
	}
	f.Add([]byte{})
	f.Add(make([]byte, 8+1+32+4+64))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ledger.UnmarshalEntry(data)
		if err != nil {
			return
		}
		enc, err := e.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded entry does not encode: %v", err)
		}
		if !bytes.Equal(enc, data) {
			t.Fatal("decode∘encode is not the identity")
		}
		_ = e.Hash()
		_ = e.VerifySignature(h.GameID(), h.Roster.Seats[0].SignKey)
	})
}

// FuzzRoster: the roster decoder never panics, accepts only canonical
// encodings, and a table built on any decoded roster either starts or
// refuses cleanly.
func FuzzRoster(f *testing.F) {
	h := seedGame(f)
	enc, err := h.Roster.MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	f.Add(enc[:len(enc)-1])
	f.Add(append(bytes.Clone(enc), 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ledger.UnmarshalRoster(data)
		if err != nil {
			return
		}
		again, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded roster does not encode: %v", err)
		}
		if !bytes.Equal(again, data) {
			t.Fatal("decode∘encode is not the identity")
		}
		if _, err := r.GameID(); err != nil {
			t.Fatal(err)
		}
		if tb, err := table.New(r, mascarade.Game{}); err == nil {
			_, _, _ = tb.Expect()
		}
	})
}
