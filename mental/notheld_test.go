package mental

import (
	"errors"
	"testing"

	"github.com/gtank/ristretto255"
)

func TestNotHeld(t *testing.T) {
	tt := newTestTable(t, 4)
	c := tt.jk.Encrypt(CardPoint(1), CardPoint(5))
	view := GenerateKey()
	sent := tt.viewed(t, c, 2, view)
	ctx := Context{Table: [32]byte{1}, Pos: 7, Seat: 2}
	X, Y := tt.jk.Keys[2], view.Public()
	// The card's component 1 is kind 5: every other kind is provable.
	for kind := range 12 {
		p, err := ProveNotHeld(ctx, tt.sks[2], view, c, 1, sent, kind)
		if kind == 5 {
			if err == nil {
				t.Fatal("proved that the card is not what it is")
			}
			continue
		}
		if err != nil {
			t.Fatalf("kind %d: %v", kind, err)
		}
		if err := VerifyNotHeld(ctx, X, Y, c, 1, sent, kind, p); err != nil {
			t.Fatalf("kind %d: honest proof rejected: %v", kind, err)
		}
		enc, _ := p.MarshalBinary()
		if len(enc) != 224 {
			t.Fatalf("proof of %d bytes", len(enc))
		}
		q, err := UnmarshalNotHeldProof(enc)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyNotHeld(ctx, X, Y, c, 1, sent, kind, q); err != nil {
			t.Fatalf("decoded proof rejected: %v", err)
		}
	}
	// Every element of the statement is bound.
	p, err := ProveNotHeld(ctx, tt.sks[2], view, c, 1, sent, 3)
	if err != nil {
		t.Fatal(err)
	}
	other := tt.viewed(t, tt.jk.Encrypt(CardPoint(1), CardPoint(5)), 2, view)
	identity := ristretto255.NewIdentityElement()
	for name, err := range map[string]error{
		"another kind (the held one)": VerifyNotHeld(ctx, X, Y, c, 1, sent, 5, p),
		"another kind":                VerifyNotHeld(ctx, X, Y, c, 1, sent, 4, p),
		"another component":           VerifyNotHeld(ctx, X, Y, c, 0, sent, 3, p),
		"another seat":                VerifyNotHeld(Context{Table: ctx.Table, Pos: 7, Seat: 1}, X, Y, c, 1, sent, 3, p),
		"another position":            VerifyNotHeld(Context{Table: ctx.Table, Pos: 8, Seat: 2}, X, Y, c, 1, sent, 3, p),
		"another card key":            VerifyNotHeld(ctx, tt.jk.Keys[1], Y, c, 1, sent, 3, p),
		"another viewing key":         VerifyNotHeld(ctx, X, GenerateKey().Public(), c, 1, sent, 3, p),
		"another card":                VerifyNotHeld(ctx, X, Y, tt.jk.Encrypt(CardPoint(1), CardPoint(5)), 1, sent, 3, p),
		"other shares":                VerifyNotHeld(ctx, X, Y, c, 1, other, 3, p),
		"a share dropped":             VerifyNotHeld(ctx, X, Y, c, 1, sent[1:], 3, p),
		"T replaced":                  VerifyNotHeld(ctx, X, Y, c, 1, sent, 3, &NotHeldProof{T: GenerateKey().Public(), proof: p.proof}),
		"T the identity":              VerifyNotHeld(ctx, X, Y, c, 1, sent, 3, &NotHeldProof{T: identity, proof: p.proof}),
	} {
		if !errors.Is(err, ErrProof) {
			t.Errorf("verified under %s: %v", name, err)
		}
	}
}

// A holder of kind k cannot show "not k": the honest T would be the
// identity (refused), and witnesses that make the first equation hold for
// another T break the two that tie them to the holder's keys.
func TestNotHeldForgeries(t *testing.T) {
	tt := newTestTable(t, 3)
	c := tt.jk.Encrypt(CardPoint(4))
	view := GenerateKey()
	sent := tt.viewed(t, c, 0, view)
	ctx := Context{Pos: 3}
	X, Y := tt.jk.Keys[0], view.Public()
	if _, err := ProveNotHeld(ctx, tt.sks[0], view, c, 0, sent, 4); err == nil {
		t.Fatal("proved not holding the held card")
	}
	// Forge: any r, a, b; T chosen to satisfy the first equation.
	for i := range 8 {
		r, a, b := randomScalar(), randomScalar(), randomScalar()
		if i == 0 {
			a = ristretto255.NewScalar().Multiply(r, tt.sks[0].x) // a right, b wrong
		}
		C := ristretto255.NewElement().Subtract(c[0].B, CardPoint(4))
		E := ristretto255.NewIdentityElement()
		for _, es := range sent {
			C.Subtract(C, es.E2[0])
			E.Add(E, es.E1[0])
		}
		negA := ristretto255.NewElement().Negate(c[0].A)
		T := ristretto255.NewElement().MultiScalarMult([]*Scalar{r, a, b}, []*Element{C, negA, E})
		tr, f, err := notHeldStatement(ctx, X, Y, c, 0, sent, 4, T)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := proveSigma(tr, f, Assignment{Leaves: [][]*Scalar{{r, a, b}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyNotHeld(ctx, X, Y, c, 0, sent, 4, &NotHeldProof{T: T, proof: pf}); !errors.Is(err, ErrProof) {
			t.Fatalf("forgery %d verified: %v", i, err)
		}
	}
	// Another seat's keys, for a card it never viewed.
	if _, err := ProveNotHeld(ctx, tt.sks[1], view, c, 0, sent, 2); err != nil {
		// It may or may not open to some point; either way its proof must
		// not verify for seat 0's keys.
		return
	}
	p, _ := ProveNotHeld(ctx, tt.sks[1], view, c, 0, sent, 2)
	if err := VerifyNotHeld(ctx, X, Y, c, 0, sent, 2, p); !errors.Is(err, ErrProof) {
		t.Fatalf("another seat's proof verified for seat 0: %v", err)
	}
}
