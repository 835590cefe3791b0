package mental

import (
	"errors"
	"testing"
)

type testTable struct {
	sks []*SecretKey
	jk  *JointKey
}

func newTestTable(t testing.TB, n int) *testTable {
	t.Helper()
	tt := &testTable{}
	var pks []*PublicKey
	var kcs []KeyContext
	for i := range n {
		sk := GenerateKey()
		kc := KeyContext{Table: [32]byte{9}, Seat: uint32(i), Identity: []byte{byte(i)}}
		tt.sks, pks, kcs = append(tt.sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
	}
	jk, err := NewJointKey(pks, kcs)
	if err != nil {
		t.Fatal(err)
	}
	tt.jk = jk
	return tt
}

// othersShares returns every seat's share of c except viewer's.
func (tt *testTable) othersShares(t testing.TB, c Card, viewer int) [][]*Element {
	t.Helper()
	var out [][]*Element
	for i, sk := range tt.sks {
		if i == viewer {
			continue
		}
		s, err := sk.Share(Context{Seat: uint32(i)}, c)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s.D)
	}
	return out
}

func TestHolding(t *testing.T) {
	tt := newTestTable(t, 4)
	c := tt.jk.Encrypt(CardPoint(5))
	others := tt.othersShares(t, c, 2)
	ctx := Context{Table: [32]byte{1}, Pos: 7, Seat: 2}
	X := tt.jk.Keys[2]
	tests := []struct {
		name   string
		kinds  []int
		proves bool
	}{
		{"exact", []int{5}, true},
		{"in set", []int{1, 5, 9}, true},
		{"last of set", []int{0, 1, 2, 3, 4, 5}, true},
		{"not in set", []int{1, 2, 3}, false},
		{"single wrong", []int{4}, false},
		{"duplicate", []int{5, 5}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tt.sks[2].ProveHolding(ctx, c, 0, others, tc.kinds)
			if !tc.proves {
				if err == nil {
					t.Fatal("proved a false holding statement")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyHolding(ctx, X, c, 0, others, tc.kinds, p); err != nil {
				t.Fatalf("honest holding proof rejected: %v", err)
			}
			// The same proof must fail for another set, seat, key or card.
			wrongSet := append([]int{}, tc.kinds...)
			wrongSet[0] = 12
			if err := VerifyHolding(ctx, X, c, 0, others, wrongSet, p); !errors.Is(err, ErrProof) {
				t.Errorf("verified under another set: %v", err)
			}
			if err := VerifyHolding(Context{Table: ctx.Table, Pos: 7, Seat: 1}, X, c, 0, others, tc.kinds, p); !errors.Is(err, ErrProof) {
				t.Errorf("verified under another seat: %v", err)
			}
			if err := VerifyHolding(ctx, tt.jk.Keys[1], c, 0, others, tc.kinds, p); !errors.Is(err, ErrProof) {
				t.Errorf("verified under another key: %v", err)
			}
		})
	}
}

// A prover that does not hold a kind in the set cannot make a proof even by
// handing the prover a forged assignment.
func TestHoldingForgedAssignment(t *testing.T) {
	tt := newTestTable(t, 3)
	c := tt.jk.Encrypt(CardPoint(3))
	others := tt.othersShares(t, c, 0)
	kinds := []int{1, 2}
	f, err := HoldingFormula(tt.jk.Keys[0], c, 0, others, kinds)
	if err != nil {
		t.Fatal(err)
	}
	for real := range kinds {
		a := Assignment{Leaves: [][]*Scalar{{tt.sks[0].x}, {tt.sks[0].x}}, Real: [][]int{{1 - real, real}}}
		p, err := ProveFormula(Context{}, labelHolding, f, a)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyFormula(Context{}, labelHolding, f, p); !errors.Is(err, ErrProof) {
			t.Fatalf("forged holding proof for kind %d verified: %v", kinds[real], err)
		}
	}
}

func TestBatchNamesFailingProof(t *testing.T) {
	tt := newTestTable(t, 3)
	var b Batch
	for i := range 20 {
		c0, c1 := tt.jk.Encrypt(CardPoint(0)), tt.jk.Encrypt(CardPoint(1))
		ctx := Context{Pos: uint64(i)}
		o0, o1, p, err := tt.jk.Swap(ctx, c0, c1, i%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		if i == 13 {
			o1 = tt.jk.Encrypt(CardPoint(2)) // a substituted card
		}
		b.AddSwap("swap", tt.jk, ctx, c0, c1, o0, o1, p)
	}
	err := b.Verify()
	var be *BatchError
	if !errors.As(err, &be) || be.Index != 13 {
		t.Fatalf("batch error = %v, want proof 13 named", err)
	}
}
