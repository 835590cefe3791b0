package table_test

import (
	"bytes"
	"testing"

	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// The share counts of a body: each is one byte on the wire, and the total
// is limited. The encoder must never write a count that wraps, and the
// decoder must accept only what the encoder can write back.
func TestBodyShareCountLimits(t *testing.T) {
	k := tabletest.DeriveCardKey("limits", "k")
	card := mental.FaceUp(mental.CardPoint(1))
	ctx := mental.Context{Pos: 1}
	sh, err := k.Share(ctx, card)
	if err != nil {
		t.Fatal(err)
	}
	es, err := k.EncryptShare(ctx, card, tabletest.DeriveCardKey("limits", "y").Public())
	if err != nil {
		t.Fatal(err)
	}
	rep := func(n int) []*mental.Share {
		out := make([]*mental.Share, n)
		for i := range out {
			out[i] = sh
		}
		return out
	}
	repE := func(n int) []*mental.EncryptedShare {
		out := make([]*mental.EncryptedShare, n)
		for i := range out {
			out[i] = es
		}
		return out
	}
	// 256 plain shares: the count byte would wrap to 0.
	b := &table.Body{Kind: table.BodyShares, Shares: rep(256)}
	if enc, err := b.MarshalBinary(); err == nil {
		if _, err := table.UnmarshalBody(enc, 1); err != nil {
			t.Errorf("256 shares encode to a body that does not decode (count byte %d): %v", enc[1], err)
		} else {
			t.Errorf("256 shares encoded with count byte %d", enc[1])
		}
	}
	// 255 plain and 2 encrypted shares: over the total limit; a decoder
	// that accepts it returns a body that does not encode.
	b = &table.Body{Kind: table.BodyShares, Shares: rep(255), EncShares: repE(2)}
	if _, err := b.MarshalBinary(); err == nil {
		t.Fatal("257 shares encode")
	}
	var raw bytes.Buffer
	raw.WriteByte(byte(table.BodyShares))
	raw.WriteByte(255)
	one, _ := sh.MarshalBinary()
	for range 255 {
		raw.Write([]byte{byte(len(one) >> 8), byte(len(one))})
		raw.Write(one)
	}
	raw.WriteByte(2)
	oneE, _ := es.MarshalBinary()
	for range 2 {
		raw.Write([]byte{byte(len(oneE) >> 8), byte(len(oneE))})
		raw.Write(oneE)
	}
	if got, err := table.UnmarshalBody(raw.Bytes(), 1); err == nil {
		if _, err := got.MarshalBinary(); err != nil {
			t.Errorf("the decoder accepts a body the encoder refuses: %v", err)
		}
	}
	// At the limits, everything round-trips.
	for _, b := range []*table.Body{
		{Kind: table.BodyShares, Shares: rep(255)},
		{Kind: table.BodyShares, Shares: rep(255), EncShares: repE(1)},
		{Kind: table.BodyShares, EncShares: repE(255)},
	} {
		enc, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := table.UnmarshalBody(enc, 1)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := got.MarshalBinary()
		if !bytes.Equal(enc, again) {
			t.Fatal("no round trip at the limit")
		}
	}
}

// A move argument outside the 32-bit range cannot be encoded faithfully:
// the encoder must refuse it rather than sign a different move.
func TestBodyArgumentRange(t *testing.T) {
	for _, a := range []int{1 << 31, -1<<31 - 1, 1 << 40} {
		b := &table.Body{Kind: table.BodyMove}
		b.Move.Kind = 1
		b.Move.Args = []int{0, a}
		enc, err := b.MarshalBinary()
		if err != nil {
			continue
		}
		got, err := table.UnmarshalBody(enc, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got.Move.Args[1] != a {
			t.Errorf("argument %d encodes as %d", a, got.Move.Args[1])
		}
	}
}
