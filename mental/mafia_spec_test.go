package mental

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// An outside verifier's view (SPEC.md §9.2, §9.3): the transcript is
// framed by hand from the SPEC's item list (SHA-512 over the framed bytes,
// not internal/transcript), the formula's shape encoded by hand from the
// grammar of §2.2, and every equation of §2.2 "Verifying" checked one by
// one with that challenge. If the code absorbed anything else, or in
// another order, these checks would fail.

type handTranscript struct{ buf bytes.Buffer }

func newHand(protocol string) *handTranscript {
	h := &handTranscript{}
	h.item("dom-sep", []byte("masque/mental/v1"))
	h.item("protocol", []byte(protocol))
	return h
}

func (h *handTranscript) item(label string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(label)))
	h.buf.Write(n[:])
	h.buf.WriteString(label)
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	h.buf.Write(n[:])
	h.buf.Write(data)
}

func (h *handTranscript) u64(label string, v uint64) {
	h.item(label, binary.BigEndian.AppendUint64(nil, v))
}

func (h *handTranscript) elem(label string, e *Element) { h.item(label, e.AppendBytes(nil)) }

func (h *handTranscript) card(label string, c Card) {
	b := []byte{byte(len(c))}
	for _, ct := range c {
		b = ct.A.AppendBytes(b)
		b = ct.B.AppendBytes(b)
	}
	h.item(label, b)
}

func (h *handTranscript) context(ctx Context) {
	h.item("table", ctx.Table[:])
	h.u64("pos", ctx.Pos)
	h.u64("seat", uint64(ctx.Seat))
}

func (h *handTranscript) challenge(name string) *Scalar {
	h.item("challenge", []byte(name))
	d := sha512.Sum512(h.buf.Bytes())
	return ristretto.UniformScalar(d[:])
}

func (h *handTranscript) viewed(X, Y *Element, c Card, comp int, sent []*EncryptedShare) {
	h.elem("X", X)
	h.elem("Y", Y)
	h.card("card", c)
	h.u64("component", uint64(comp))
	h.u64("shares/n", uint64(len(sent)))
	for _, es := range sent {
		h.u64("E1/n", uint64(len(es.E1)))
		for _, e := range es.E1 {
			h.elem("E1", e)
		}
		h.u64("E2/n", uint64(len(es.E2)))
		for _, e := range es.E2 {
			h.elem("E2", e)
		}
	}
}

func (h *handTranscript) kinds(label string, ks []int) {
	h.u64(label+"/n", uint64(len(ks)))
	for _, k := range ks {
		h.u64(label, uint64(k))
	}
}

// handShape encodes a formula's shape by the grammar of SPEC.md §2.2.
func handShape(f *Formula) []byte {
	var b []byte
	u32 := func(v int) { b = binary.BigEndian.AppendUint32(b, uint32(v)) }
	var walk func(g *Formula)
	walk = func(g *Formula) {
		switch g.op {
		case opLeaf:
			b = append(b, 1)
			u32(g.leaf.Witnesses)
			u32(len(g.leaf.Equations))
			for _, eq := range g.leaf.Equations {
				u32(len(eq.Secret))
				for _, s := range eq.Secret {
					u32(s.Witness)
				}
				u32(len(eq.Public))
			}
		case opAnd, opOr:
			b = append(b, map[formulaOp]byte{opAnd: 2, opOr: 3}[g.op])
			u32(len(g.children))
			for _, c := range g.children {
				walk(c)
			}
		}
	}
	walk(f)
	return b
}

// handVerify finishes the hand transcript (shape, commitments, challenge)
// and checks every equation of §2.2 one by one.
func handVerify(t *testing.T, h *handTranscript, f *Formula, p *SigmaProof) bool {
	t.Helper()
	h.item("formula-shape", handShape(f))
	h.u64("commitments/n", uint64(len(p.commitments)))
	var cb []byte
	for _, R := range p.commitments {
		cb = R.AppendBytes(cb)
	}
	h.item("commitments", cb)
	c := h.challenge("challenge")
	ci, mi, ri := 0, 0, 0
	ok := true
	var walk func(g *Formula, e *Scalar)
	walk = func(g *Formula, e *Scalar) {
		switch g.op {
		case opLeaf:
			s := p.responses[ri : ri+g.leaf.Witnesses]
			ri += g.leaf.Witnesses
			for _, eq := range g.leaf.Equations {
				lhs := ristretto.NewIdentityElement()
				for _, term := range eq.Secret {
					lhs.Add(lhs, ristretto.NewIdentityElement().ScalarMult(s[term.Witness], term.Base))
				}
				pub := ristretto.NewIdentityElement()
				for _, term := range eq.Public {
					coef := bitScalar(1)
					if term.Coef != nil {
						coef = term.Coef
					}
					pub.Add(pub, ristretto.NewIdentityElement().ScalarMult(coef, term.Base))
				}
				rhs := ristretto.NewIdentityElement().ScalarMult(e, pub)
				rhs.Add(rhs, p.commitments[mi])
				mi++
				if lhs.Equal(rhs) != 1 {
					ok = false
				}
			}
		case opAnd:
			for _, ch := range g.children {
				walk(ch, e)
			}
		case opOr:
			last := ristretto.NewScalar().Set(e)
			es := p.challenges[ci : ci+len(g.children)-1]
			ci += len(g.children) - 1
			for i, ch := range g.children {
				if i < len(es) {
					last.Subtract(last, es[i])
					walk(ch, es[i])
				} else {
					walk(ch, last)
				}
			}
		}
	}
	walk(f, c)
	return ok
}

func TestPowerBallotSpecTranscript(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	for _, tc := range []struct{ seat, choice int }{{3, 0}, {0, NoVote}, {2, 1}} {
		holders := mKill
		if tc.seat == 2 {
			holders = []int{mNurse}
		}
		ctx := mt.ctx(tc.seat, 123)
		st := mt.powerStatement(tc.seat, 7, holders, false)
		b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.choice)
		if err != nil {
			t.Fatal(err)
		}
		for _, power := range []uint64{7, 8} { // 8: a control that must fail
			h := newHand("masque/mafia-ballot/v1")
			h.context(ctx)
			h.elem("H", mt.jk.H)
			h.u64("power", power)
			h.kinds("roles", st.Roles)
			h.kinds("holders", st.Holders)
			h.u64("targets/n", uint64(len(st.Targets)))
			for _, s := range st.Targets {
				h.u64("target", uint64(s))
			}
			h.u64("self", uint64(tc.seat)) // targets are seats 0..n-1
			h.viewed(st.X, st.Y, st.Card, st.Comp, st.Sent)
			h.u64("entries/n", uint64(len(b.Entries)))
			for _, e := range b.Entries {
				h.item("entry", append(e.A.AppendBytes(nil), e.B.AppendBytes(nil)...))
			}
			z := make([]*Scalar, len(b.Entries))
			for i := range z {
				z[i] = h.challenge("zero-z")
			}
			// The formula as §9.2 writes it, built from its parts.
			var rBar []int
			for _, r := range st.Roles {
				in := false
				for _, k := range holders {
					in = in || k == r
				}
				if !in {
					rBar = append(rBar, r)
				}
			}
			hold := func(ks []int) *Formula {
				f, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, ks)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			bb := newBallotBases(mt.jk.H)
			var bits []*Formula
			for _, e := range b.Entries {
				bits = append(bits, Or(bb.valueLeaf(e, 0), bb.valueLeaf(e, 1)))
			}
			f := Or(
				And(hold(holders), And(bits...), bb.valueLeaf(ballotSumCiphertext(b.Entries), 1), bb.valueLeaf(b.Entries[tc.seat], 0)),
				And(hold(rBar), bb.zeroLeaf(b.Entries, z)),
			)
			if ok := handVerify(t, h, f, b.proof); ok != (power == 7) {
				t.Fatalf("seat %d, power item %d: hand verification says %v", tc.seat, power, ok)
			}
		}
	}
}

func TestCheckSpecTranscript(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	for _, tc := range []struct {
		seat, target int
		mandatory    bool
	}{{1, 3, true}, {0, NoVote, true}, {1, 0, false}, {4, NoVote, false}} {
		ctx := mt.ctx(tc.seat, 321)
		st := mt.checkStatement(tc.seat, tc.mandatory)
		c, err := ProveCheck(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.target)
		if err != nil {
			t.Fatal(err)
		}
		h := newHand("masque/mafia-check/v1")
		h.context(ctx)
		h.elem("H", mt.jk.H)
		h.kinds("holders", st.Holders)
		m := uint64(0)
		if tc.mandatory {
			m = 1
		}
		h.u64("mandatory", m)
		h.kinds("roles", st.Roles)
		h.viewed(st.X, st.Y, st.Card, st.Comp, st.Sent)
		h.u64("targets/n", uint64(len(st.Targets)))
		for i, s := range st.Targets {
			h.u64("target", uint64(s))
			h.card("target-card", st.TargetCards[i])
		}
		h.u64("target-component", uint64(st.TargetComp))
		h.u64("neutral", uint64(st.Neutral))
		h.card("Q", c.Q)
		hold := func(ks []int) *Formula {
			f, err := ViewedHoldingFormula(st.X, st.Y, st.Card, st.Comp, st.Sent, ks)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		minus1 := ristretto.NewScalar().Negate(bitScalar(1))
		remask := func(pa []Term, pb []Term) *Formula {
			return Leaf(Statement{Witnesses: 1, Equations: []Equation{
				{Secret: []Term{{Witness: 0, Base: Base()}}, Public: pa},
				{Secret: []Term{{Witness: 0, Base: mt.jk.H}}, Public: pb},
			}})
		}
		var picks []*Formula
		for i, s := range st.Targets {
			if int(s) == tc.seat {
				continue
			}
			ct := st.TargetCards[i][st.TargetComp]
			picks = append(picks, remask(
				[]Term{{Base: c.Q[0].A}, {Coef: minus1, Base: ct.A}},
				[]Term{{Base: c.Q[0].B}, {Coef: minus1, Base: ct.B}}))
		}
		neutral := remask([]Term{{Base: c.Q[0].A}}, []Term{{Base: c.Q[0].B}, {Coef: minus1, Base: CardPoint(st.Neutral)}})
		if tc.mandatory {
			var rBar []int
			for _, r := range st.Roles {
				if r != mCommissar {
					rBar = append(rBar, r)
				}
			}
			neutral = And(hold(rBar), neutral)
		}
		f := Or(And(hold(st.Holders), Or(picks...)), neutral)
		if !handVerify(t, h, f, c.proof) {
			t.Fatalf("seat %d: the check does not verify against the SPEC's transcript", tc.seat)
		}
	}
}
