package mental

import (
	"errors"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

func TestCoinShare(t *testing.T) {
	tt := newTestTable(t, 3)
	table := [32]byte{7}
	Q := CoinPoint(table, 12)
	var shares []*CoinShare
	for i, sk := range tt.sks {
		ctx := Context{Table: table, Pos: 12 + uint64(i), Seat: uint32(i)}
		s, err := sk.CoinShare(ctx, Q)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyCoinShare(ctx, tt.jk.Keys[i], Q, s); err != nil {
			t.Fatalf("seat %d: honest share rejected: %v", i, err)
		}
		enc := mustMarshal(t, s)
		if len(enc) != CoinShareSize {
			t.Fatalf("coin share of %d bytes, want %d", len(enc), CoinShareSize)
		}
		d, err := UnmarshalCoinShare(enc)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyCoinShare(ctx, tt.jk.Keys[i], Q, d); err != nil {
			t.Fatalf("seat %d: decoded share rejected: %v", i, err)
		}
		shares = append(shares, d)
	}
	// The coin is x_joint·Q hashed: the same whatever the shares' proofs,
	// and it moves with the table, the position and any share.
	v, err := CoinValue(table, 12, shares)
	if err != nil {
		t.Fatal(err)
	}
	var x *Scalar = ristretto.NewScalar()
	for _, sk := range tt.sks {
		x.Add(x, sk.x)
	}
	joint := &CoinShare{D: ristretto.NewIdentityElement().ScalarMult(x, Q)}
	if w, _ := CoinValue(table, 12, []*CoinShare{joint}); w != v {
		t.Fatal("the coin is not a hash of x_joint·Q")
	}
	if w, _ := CoinValue(table, 13, shares); w == v {
		t.Fatal("the coin does not depend on the position")
	}
	if w, _ := CoinValue([32]byte{8}, 12, shares); w == v {
		t.Fatal("the coin does not depend on the game")
	}
	if w, _ := CoinValue(table, 12, shares[:2]); w == v {
		t.Fatal("the coin does not depend on every share")
	}
	if _, err := CoinValue(table, 12, nil); err == nil {
		t.Fatal("a coin of no shares")
	}
	if CoinPoint(table, 12).Equal(CoinPoint(table, 13)) == 1 || CoinPoint(table, 12).Equal(CoinPoint([32]byte{8}, 12)) == 1 {
		t.Fatal("two coins share a point")
	}
	// Every element of the statement and the context is bound.
	ctx := Context{Table: table, Pos: 12, Seat: 0}
	s := shares[0]
	forged := &CoinShare{D: ristretto.NewIdentityElement().Add(s.D, Base()), proof: s.proof}
	for name, err := range map[string]error{
		"another seat":     VerifyCoinShare(Context{Table: table, Pos: 12, Seat: 1}, tt.jk.Keys[0], Q, s),
		"another position": VerifyCoinShare(Context{Table: table, Pos: 13, Seat: 0}, tt.jk.Keys[0], Q, s),
		"another table":    VerifyCoinShare(Context{Table: [32]byte{8}, Pos: 12, Seat: 0}, tt.jk.Keys[0], Q, s),
		"another key":      VerifyCoinShare(ctx, tt.jk.Keys[1], Q, s),
		"another point":    VerifyCoinShare(ctx, tt.jk.Keys[0], CoinPoint(table, 13), s),
		"another D":        VerifyCoinShare(ctx, tt.jk.Keys[0], Q, forged),
		"identity point":   VerifyCoinShare(ctx, tt.jk.Keys[0], ristretto.NewIdentityElement(), s),
		"missing":          VerifyCoinShare(ctx, tt.jk.Keys[0], Q, nil),
	} {
		if !errors.Is(err, ErrProof) {
			t.Errorf("%s: %v, want ErrProof", name, err)
		}
	}
	// A decryption share of the card (Q, Q) carries the same D but not
	// under the coin share's label.
	plain, err := tt.sks[0].Share(ctx, Card{{A: Q, B: Q}})
	if err != nil {
		t.Fatal(err)
	}
	if plain.D[0].Equal(s.D) != 1 {
		t.Fatal("the plain share differs")
	}
	if err := VerifyCoinShare(ctx, tt.jk.Keys[0], Q, &CoinShare{D: plain.D[0], proof: plain.proof}); !errors.Is(err, ErrProof) {
		t.Fatalf("a plain decryption share passes as a coin share: %v", err)
	}
	// Batches: honest shares pass, a forged one is named.
	var b Batch
	for i := range shares {
		b.AddCoinShare("coin share", Context{Table: table, Pos: 12 + uint64(i), Seat: uint32(i)}, tt.jk.Keys[i], Q, shares[i])
	}
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	b.AddCoinShare("forged", ctx, tt.jk.Keys[0], Q, forged)
	var be *BatchError
	if err := b.Verify(); !errors.As(err, &be) || be.Index != 3 {
		t.Fatalf("batch with a forged share: %v", err)
	}
	// Strict decoding.
	enc := mustMarshal(t, s)
	for name, b := range map[string][]byte{
		"short":    enc[:len(enc)-1],
		"trailing": append(append([]byte{}, enc...), 0),
		"bad D":    append(append([]byte{}, make32(0xff)...), enc[32:]...),
	} {
		if _, err := UnmarshalCoinShare(b); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: %v, want ErrEncoding", name, err)
		}
	}
}

func make32(v byte) []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = v
	}
	return b
}

// A viewed-holding proof decodes from its number of kinds alone, and both
// it and a not-held proof batch.
func TestStatementProofsDecodeAndBatch(t *testing.T) {
	tt := newTestTable(t, 3)
	c := tt.jk.Encrypt(CardPoint(4))
	view := GenerateKey()
	sent := tt.viewed(t, c, 1, view)
	ctx := Context{Table: [32]byte{3}, Pos: 5, Seat: 1}
	X, Y := tt.jk.Keys[1], view.Public()
	for _, kinds := range [][]int{{4}, {1, 4}, {0, 2, 4, 6}} {
		p, err := ProveViewedHolding(ctx, tt.sks[1], view, c, 0, sent, kinds)
		if err != nil {
			t.Fatal(err)
		}
		enc := mustMarshal(t, p)
		if len(enc) != ViewedHoldingProofSize(len(kinds)) {
			t.Fatalf("%d kinds: %d bytes, want %d", len(kinds), len(enc), ViewedHoldingProofSize(len(kinds)))
		}
		d, err := UnmarshalViewedHoldingProof(enc, len(kinds))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := UnmarshalViewedHoldingProof(enc, len(kinds)+1); err == nil {
			t.Fatal("decoded for another number of kinds")
		}
		var b Batch
		b.AddViewedHolding("holding", ctx, X, Y, c, 0, sent, kinds, d)
		if err := b.Verify(); err != nil {
			t.Fatalf("%v: %v", kinds, err)
		}
		b.AddViewedHolding("holding, other kinds", ctx, X, Y, c, 0, sent, append([]int{9}, kinds[1:]...), d)
		if err := b.Verify(); err == nil {
			t.Fatalf("%v: a proof passes for another set", kinds)
		}
	}
	for _, n := range []int{0, MaxHoldingKinds + 1} {
		if _, err := UnmarshalViewedHoldingProof(nil, n); !errors.Is(err, ErrEncoding) {
			t.Errorf("%d kinds: %v", n, err)
		}
	}
	p, err := ProveNotHeld(ctx, tt.sks[1], view, c, 0, sent, 2)
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	b.AddNotHeld("not 2", ctx, X, Y, c, 0, sent, 2, p)
	if err := b.Verify(); err != nil {
		t.Fatal(err)
	}
	b.AddNotHeld("not 3 (proof of not 2)", ctx, X, Y, c, 0, sent, 3, p)
	var be *BatchError
	if err := b.Verify(); !errors.As(err, &be) || be.Index != 1 {
		t.Fatalf("batch with a misapplied not-held proof: %v", err)
	}
	var m Batch
	m.AddNotHeld("missing", ctx, X, Y, c, 0, sent, 3, nil)
	if err := m.Verify(); !errors.Is(err, ErrProof) {
		t.Fatalf("batch with a missing not-held proof: %v", err)
	}
}
