package mental

import (
	"bytes"
	"errors"
	"testing"
	"testing/cryptotest"

	"github.com/masque-games/masque/mental/internal/ristretto"
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
	identity := ristretto.NewIdentityElement()
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
			a = ristretto.NewScalar().Multiply(r, tt.sks[0].x) // a right, b wrong
		}
		C := ristretto.NewIdentityElement().Subtract(c[0].B, CardPoint(4))
		E := ristretto.NewIdentityElement()
		for _, es := range sent {
			C.Subtract(C, es.E2[0])
			E.Add(E, es.E1[0])
		}
		negA := ristretto.NewIdentityElement().Negate(c[0].A)
		T := ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{r, a, b}, []*Element{C, negA, E})
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

// proveNotHeldByOpening is ProveNotHeld as it was first written (SPEC.md
// §3.11, before the prover's shortcuts): decrypt every share, open the card
// with the holder's own share, refuse M = M_k, T = r·(M − M_k) by a
// variable-base multiplication, and the commitments from the statement's
// bases alone (no known discrete logs). The test below holds the fast
// prover to it, byte for byte.
func proveNotHeldByOpening(ctx Context, card, view *SecretKey, c Card, comp int, sent []*EncryptedShare, kind int) (*NotHeldProof, error) {
	var others [][]*Element
	for _, es := range sent {
		others = append(others, view.Decrypt(es))
	}
	m, err := card.Peek(c, others)
	if err != nil {
		return nil, err
	}
	diff := ristretto.NewIdentityElement().Subtract(m[comp], CardPoint(kind))
	if isIdentity(diff) {
		return nil, errors.New("the card is kind k")
	}
	r := randomScalar()
	T := ristretto.NewIdentityElement().ScalarMult(r, diff)
	tr, f, err := notHeldStatement(ctx, card.pub, view.pub, c, comp, sent, kind, T)
	if err != nil {
		return nil, err
	}
	a := ristretto.NewScalar().Multiply(r, card.x)
	b := ristretto.NewScalar().Multiply(r, view.x)
	p, err := proveSigma(tr, f, Assignment{Leaves: [][]*Scalar{{r, a, b}}})
	if err != nil {
		return nil, err
	}
	return &NotHeldProof{T: T, proof: p}, nil
}

// The prover that never opens the card (T as one 3-point multiplication,
// the key equations' commitments on G) makes exactly the proofs of the one
// that does, under the same randomness; they verify, alone, decoded and in
// a batch, at every table size up to Grimm's 5 seats, card width and
// component; and it still refuses the held kind, as does any other pair of
// keys (whose proofs then fail against the holder's keys).
func TestNotHeldProver(t *testing.T) {
	seed := uint64(1)
	for seats := 1; seats <= 5; seats++ {
		for width := 1; width <= MaxWidth; width++ {
			tt := newTestTable(t, seats)
			kinds := []int{2, 7, 0, 11, 4}[:width]
			var pts []*Element
			for _, k := range kinds {
				pts = append(pts, CardPoint(k))
			}
			c := tt.jk.Encrypt(pts...)
			holder := seats - 1
			view := GenerateKey()
			sent := tt.viewed(t, c, holder, view)
			ctx := Context{Table: [32]byte{byte(seats)}, Pos: uint64(width), Seat: uint32(holder)}
			X, Y := tt.jk.Keys[holder], view.Public()
			var bt Batch
			for comp := range width {
				for _, kind := range []int{0, 1, 2, 7, 40} {
					seed++
					cryptotest.SetGlobalRandom(t, seed)
					want, werr := proveNotHeldByOpening(ctx, tt.sks[holder], view, c, comp, sent, kind)
					cryptotest.SetGlobalRandom(t, seed)
					p, err := ProveNotHeld(ctx, tt.sks[holder], view, c, comp, sent, kind)
					if kind == kinds[comp] {
						if err == nil || werr == nil {
							t.Fatalf("seats %d, width %d, comp %d: proved not holding the held kind %d", seats, width, comp, kind)
						}
						// Other keys cannot show it either: their T is not
						// the identity, but the proof fails for X, Y.
						for name, keys := range map[string][2]*SecretKey{
							"another viewing key": {tt.sks[holder], GenerateKey()},
							"another card key":    {GenerateKey(), view},
							"both":                {tt.sks[0], tt.sks[0]},
						} {
							q, err := ProveNotHeld(ctx, keys[0], keys[1], c, comp, sent, kind)
							if err != nil {
								continue
							}
							if err := VerifyNotHeld(ctx, X, Y, c, comp, sent, kind, q); !errors.Is(err, ErrProof) {
								t.Fatalf("seats %d: %s showed the held kind is not held: %v", seats, name, err)
							}
						}
						continue
					}
					if err != nil || werr != nil {
						t.Fatalf("seats %d, width %d, comp %d, kind %d: %v / %v", seats, width, comp, kind, err, werr)
					}
					enc, _ := p.MarshalBinary()
					wenc, _ := want.MarshalBinary()
					if !bytes.Equal(enc, wenc) {
						t.Fatalf("seats %d, width %d, comp %d, kind %d: the proof differs from the opening prover's", seats, width, comp, kind)
					}
					if err := VerifyNotHeld(ctx, X, Y, c, comp, sent, kind, p); err != nil {
						t.Fatalf("seats %d, width %d, comp %d, kind %d: %v", seats, width, comp, kind, err)
					}
					q, err := UnmarshalNotHeldProof(enc)
					if err != nil {
						t.Fatal(err)
					}
					if err := VerifyNotHeld(ctx, X, Y, c, comp, sent, kind, q); err != nil {
						t.Fatalf("decoded: %v", err)
					}
					if err := VerifyNotHeld(ctx, X, Y, c, comp, sent, kind+1000, p); !errors.Is(err, ErrProof) {
						t.Fatalf("verified for another kind: %v", err)
					}
					bt.AddNotHeld("not held", ctx, X, Y, c, comp, sent, kind, q)
				}
			}
			if err := bt.Verify(); err != nil {
				t.Fatalf("seats %d, width %d: batch: %v", seats, width, err)
			}
		}
	}
}
