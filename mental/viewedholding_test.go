package mental

import (
	"errors"
	"testing"
)

// viewed returns every other seat's share of c encrypted to view's key, as
// a private view of c by seat viewer posts them.
func (tt *testTable) viewed(t testing.TB, c Card, viewer int, view *SecretKey) []*EncryptedShare {
	t.Helper()
	var out []*EncryptedShare
	for i, sk := range tt.sks {
		if i == viewer {
			continue
		}
		es, err := sk.EncryptShare(Context{Seat: uint32(i)}, c, view.Public())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, es)
	}
	return out
}

func TestViewedHolding(t *testing.T) {
	tt := newTestTable(t, 4)
	c := tt.jk.Encrypt(CardPoint(5))
	view := GenerateKey()
	sent := tt.viewed(t, c, 2, view)
	ctx := Context{Table: [32]byte{1}, Pos: 7, Seat: 2}
	X, Y := tt.jk.Keys[2], view.Public()
	tests := []struct {
		name   string
		kinds  []int
		proves bool
	}{
		{"exact", []int{5}, true},
		{"in set", []int{1, 5, 9}, true},
		{"not X (every other kind)", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, true},
		{"not in set", []int{1, 2, 3}, false},
		{"single wrong", []int{4}, false},
		{"duplicate", []int{5, 5}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ProveViewedHolding(ctx, tt.sks[2], view, c, 0, sent, tc.kinds)
			if !tc.proves {
				if err == nil {
					t.Fatal("proved a false holding statement")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyViewedHolding(ctx, X, Y, c, 0, sent, tc.kinds, p); err != nil {
				t.Fatalf("honest proof rejected: %v", err)
			}
			wrongSet := append([]int{}, tc.kinds...)
			wrongSet[0] = 12
			other := tt.viewed(t, tt.jk.Encrypt(CardPoint(5)), 2, view)
			for name, err := range map[string]error{
				"another set":         VerifyViewedHolding(ctx, X, Y, c, 0, sent, wrongSet, p),
				"another seat":        VerifyViewedHolding(Context{Table: ctx.Table, Pos: 7, Seat: 1}, X, Y, c, 0, sent, tc.kinds, p),
				"another position":    VerifyViewedHolding(Context{Table: ctx.Table, Pos: 8, Seat: 2}, X, Y, c, 0, sent, tc.kinds, p),
				"another card key":    VerifyViewedHolding(ctx, tt.jk.Keys[1], Y, c, 0, sent, tc.kinds, p),
				"another viewing key": VerifyViewedHolding(ctx, X, GenerateKey().Public(), c, 0, sent, tc.kinds, p),
				"another card":        VerifyViewedHolding(ctx, X, Y, tt.jk.Encrypt(CardPoint(5)), 0, sent, tc.kinds, p),
				"other shares":        VerifyViewedHolding(ctx, X, Y, c, 0, other, tc.kinds, p),
				"a share dropped":     VerifyViewedHolding(ctx, X, Y, c, 0, sent[1:], tc.kinds, p),
				"the plain label":     VerifyFormula(ctx, labelHolding, mustViewedFormula(t, X, Y, c, sent, tc.kinds), p),
			} {
				if !errors.Is(err, ErrProof) {
					t.Errorf("verified under %s: %v", name, err)
				}
			}
		})
	}
}

func mustViewedFormula(t *testing.T, X, Y *Element, c Card, sent []*EncryptedShare, kinds []int) *Formula {
	t.Helper()
	f, err := ViewedHoldingFormula(X, Y, c, 0, sent, kinds)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The attacks a holder could try: claim a kind it does not hold with a
// forged assignment (either branch marked real), with its card key and
// another seat's viewing key, or with shares that were sent to someone
// else and that it can therefore not decrypt.
func TestViewedHoldingForgeries(t *testing.T) {
	tt := newTestTable(t, 3)
	c := tt.jk.Encrypt(CardPoint(3))
	view := GenerateKey()
	sent := tt.viewed(t, c, 0, view)
	kinds := []int{1, 2}
	f, err := ViewedHoldingFormula(tt.jk.Keys[0], view.Public(), c, 0, sent, kinds)
	if err != nil {
		t.Fatal(err)
	}
	for real := range kinds {
		a := Assignment{Leaves: [][]*Scalar{{tt.sks[0].x, view.x}, {tt.sks[0].x, view.x}}, Real: [][]int{{1 - real, real}}}
		p, err := ProveFormula(Context{}, labelViewedHolding, f, a)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyFormula(Context{}, labelViewedHolding, f, p); !errors.Is(err, ErrProof) {
			t.Fatalf("forged proof for kind %d verified: %v", kinds[real], err)
		}
	}
	// The true kind, proven with a viewing key the shares were not sent to.
	stranger := GenerateKey()
	if _, err := ProveViewedHolding(Context{}, tt.sks[0], stranger, c, 0, sent, []int{3}); err == nil {
		t.Fatal("a holder proved its card from shares sent to another viewing key")
	}
	// Seat 1 (not the viewer) claims seat 0's card with its own keys.
	if _, err := ProveViewedHolding(Context{}, tt.sks[1], view, c, 0, sent, []int{3}); err == nil {
		t.Fatal("another seat's card key proved the viewer's card")
	}
}
