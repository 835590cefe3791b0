package mental

import (
	"bytes"
	"testing"
)

// TestMadeValuesKeepEncodings: a share, an encrypted share and a coin share
// keep the encodings their prover computed for the transcript, so that
// sending them and absorbing them again (every ballot, check and not-held
// proof absorbs the encrypted shares its voter received) costs no second
// square root; and each kept encoding is the element's own, so a kept value
// verifies, encodes and decodes exactly as one computed afresh.
func TestMadeValuesKeepEncodings(t *testing.T) {
	tt := newTestTable(t, 3)
	ctx := Context{Table: [32]byte{9}, Pos: 4, Seat: 1}
	sk := tt.sks[1]
	c := FaceUp(CardPoint(3), CardPoint(4))
	view := GenerateKey()
	check := func(what string, known encodings, want int, marshal func() ([]byte, error), verify func() error) {
		t.Helper()
		if len(known) != want {
			t.Errorf("%s keeps %d encodings, want %d", what, len(known), want)
		}
		for e, b := range known {
			if !bytes.Equal(b[:], e.AppendBytes(nil)) {
				t.Errorf("%s keeps a wrong encoding", what)
			}
		}
		if err := verify(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
		if _, err := marshal(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	s, err := sk.Share(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	check("share", s.known, len(c), s.MarshalBinary, func() error { return VerifyShare(ctx, tt.jk.Keys[1], c, s) })
	es, err := sk.EncryptShare(ctx, c, view.Public())
	if err != nil {
		t.Fatal(err)
	}
	check("encrypted share", es.known, 2*len(c), es.MarshalBinary, func() error {
		return VerifyEncryptedShare(ctx, tt.jk.Keys[1], view.Public(), c, es)
	})
	Q := CoinPoint(ctx.Table, 4)
	cs, err := sk.CoinShare(ctx, Q)
	if err != nil {
		t.Fatal(err)
	}
	check("coin share", cs.known, 1, cs.MarshalBinary, func() error { return VerifyCoinShare(ctx, tt.jk.Keys[1], Q, cs) })

	// The bytes sent are the elements' own: decoding them gives the same
	// elements, and encoding the decoded value gives the same bytes.
	for what, v := range map[string]interface{ MarshalBinary() ([]byte, error) }{"share": s, "encrypted share": es, "coin share": cs} {
		enc, _ := v.MarshalBinary()
		var again []byte
		switch what {
		case "share":
			d, err := UnmarshalShare(enc)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			for i := range d.D {
				if d.D[i].Equal(s.D[i]) != 1 {
					t.Errorf("%s: D[%d] differs after a round trip", what, i)
				}
			}
			d.known = nil
			again, _ = d.MarshalBinary()
		case "encrypted share":
			d, err := UnmarshalEncryptedShare(enc)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			d.known = nil
			again, _ = d.MarshalBinary()
		case "coin share":
			d, err := UnmarshalCoinShare(enc)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			d.known = nil
			again, _ = d.MarshalBinary()
		}
		if !bytes.Equal(enc, again) {
			t.Errorf("%s: kept encodings differ from fresh ones", what)
		}
	}
}
