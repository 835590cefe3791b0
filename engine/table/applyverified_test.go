package table_test

import (
	"errors"
	"testing"

	"github.com/masque-games/masque/engine/table"
)

// ApplyVerified checks everything Apply does but the signature (the
// caller, a network layer, has checked it): an honest entry takes both to
// the same state; an entry with a broken signature is refused by Apply
// and, given to ApplyVerified, still meets every other check.
func TestApplyVerifiedSkipsOnlyTheSignature(t *testing.T) {
	h := fixedTable(t, "apply-verified", 0)
	b := bodyOf(h, h.MoveBody(0, move(0, swapK, 0, 1), true))
	pos, prev := h.View().Pos(), h.Prev()
	honest := h.Sign(0, pos, 0, prev, b)
	a, v := h.Seats[1].Replica, h.Seats[2].Replica
	// Another position: refused by ApplyVerified too, whatever the signature.
	var f *table.Fault
	if err := v.ApplyVerified(h.Sign(0, pos+1, 0, prev, b)); !errors.As(err, &f) || f.Reason != "wrong-position" {
		t.Fatalf("ApplyVerified of an entry for the wrong position: %v", err)
	}
	broken := h.Sign(0, pos, 0, prev, b)
	broken.Sig[0] ^= 1
	if err := a.Apply(broken); !errors.As(err, &f) || f.Reason != "bad-signature" {
		t.Fatalf("Apply of a broken signature: %v", err)
	}
	if err := a.Apply(honest); err != nil {
		t.Fatal(err)
	}
	if err := v.ApplyVerified(honest); err != nil {
		t.Fatal(err)
	}
	if a.StateHash() != v.StateHash() {
		t.Fatal("Apply and ApplyVerified reach different states")
	}
}
