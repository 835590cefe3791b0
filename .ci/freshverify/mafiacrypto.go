package main

func valLeaf(A, B, H *Point, v int) *Node {
	Bp := B
	if v == 1 {
		Bp = sub(B, G())
	}
	return Leaf(1, E([]int{0}, []*Point{G()}, T(A)), E([]int{0}, []*Point{H}, T(Bp)))
}

func absorbView(tr *Transcript, X, Y *Point, v *View, comp int) {
	tr.Pt("X", X)
	tr.Pt("Y", Y)
	tr.Item("card", v.Card.Enc())
	tr.Int("component", uint64(comp))
	tr.Int("shares/n", uint64(len(v.Shares)))
	for _, s := range v.Shares {
		elist(tr, "E1", s.E1)
		elist(tr, "E2", s.E2)
	}
}

func without(all, r []int) []int {
	o := []int{}
	for _, x := range all {
		if !contains(r, x) {
			o = append(o, x)
		}
	}
	return o
}

// returns entries (per target) or nil if invalid
func VerifyPowerBallot(ctx Ctx, H *Point, power int, roles, holders, targets []int, selfAllowed bool, voter int,
	X, Y *Point, v *View, comp int, b []byte) []CT {
	n := len(targets)
	if len(b) < 1 || int(b[0]) != n {
		return nil
	}
	if len(b) < 1+64*n {
		return nil
	}
	ents := []CT{}
	for i := 0; i < n; i++ {
		A, e1 := rDecode(b[1+64*i : 33+64*i])
		B, e2 := rDecode(b[33+64*i : 65+64*i])
		if e1 != nil || e2 != nil {
			return nil
		}
		ents = append(ents, CT{A, B})
	}
	sigma := -1
	if !selfAllowed {
		for i, t := range targets {
			if t == voter {
				sigma = i
			}
		}
	}
	tr := NewTr("masque/mafia-ballot/v1")
	tr.Ctx(ctx)
	tr.Pt("H", H)
	tr.Int("power", uint64(power))
	tr.Int("roles/n", uint64(len(roles)))
	for _, r := range roles {
		tr.Int("roles", uint64(r))
	}
	tr.Int("holders/n", uint64(len(holders)))
	for _, r := range holders {
		tr.Int("holders", uint64(r))
	}
	tr.Int("targets/n", uint64(n))
	for _, t := range targets {
		tr.Int("target", uint64(t))
	}
	if sigma >= 0 {
		tr.Int("self", uint64(sigma))
	} else {
		tr.Int("self", ^uint64(0))
	}
	absorbView(tr, X, Y, v, comp)
	tr.Int("entries/n", uint64(n))
	for _, e := range ents {
		tr.Item("entry", append(rEncode(e.A), rEncode(e.B)...))
	}
	z := []*Scalar{}
	for i := 0; i < n; i++ {
		z = append(z, tr.ChallengeScalar("zero-z"))
	}
	bits := []*Node{}
	SA, SB := Id(), Id()
	for _, e := range ents {
		bits = append(bits, OR(valLeaf(e.A, e.B, H, 0), valLeaf(e.A, e.B, H, 1)))
		SA = add(SA, e.A)
		SB = add(SB, e.B)
	}
	first := []*Node{HOLD(X, Y, v, comp, holders), AND(bits...), valLeaf(SA, SB, H, 1)}
	if sigma >= 0 {
		first = append(first, valLeaf(ents[sigma].A, ents[sigma].B, H, 0))
	}
	za, zb := []Term{}, []Term{}
	for i, e := range ents {
		za = append(za, TC(z[i], e.A))
		zb = append(zb, TC(z[i], e.B))
	}
	zero := Leaf(1, E([]int{0}, []*Point{G()}, za...), E([]int{0}, []*Point{H}, zb...))
	f := OR(AND(first...), AND(HOLD(X, Y, v, comp, without(roles, holders)), zero))
	if !VerifySigma(tr, f, b[1+64*n:], false) {
		return nil
	}
	return ents
}

// returns Q or nil
func VerifyCheck(ctx Ctx, H *Point, holders []int, mandatory bool, roles []int, checker int, X, Y *Point, v *View, comp int,
	targets []int, tcards []Card, tcomp, neutral int, b []byte) *CT {
	if len(b) < 64 {
		return nil
	}
	QA, e1 := rDecode(b[:32])
	QB, e2 := rDecode(b[32:64])
	if e1 != nil || e2 != nil {
		return nil
	}
	tr := NewTr("masque/mafia-check/v1")
	tr.Ctx(ctx)
	tr.Pt("H", H)
	tr.Int("holders/n", uint64(len(holders)))
	for _, r := range holders {
		tr.Int("holders", uint64(r))
	}
	if mandatory {
		tr.Int("mandatory", 1)
	} else {
		tr.Int("mandatory", 0)
	}
	rl := roles
	if !mandatory {
		rl = nil
	}
	tr.Int("roles/n", uint64(len(rl)))
	for _, r := range rl {
		tr.Int("roles", uint64(r))
	}
	absorbView(tr, X, Y, v, comp)
	tr.Int("targets/n", uint64(len(targets)))
	for i, t := range targets {
		tr.Int("target", uint64(t))
		tr.Item("target-card", tcards[i].Enc())
	}
	tr.Int("target-component", uint64(tcomp))
	tr.Int("neutral", uint64(neutral))
	tr.Item("Q", Card{{QA, QB}}.Enc())
	picks := []*Node{}
	for i, t := range targets {
		if t == checker {
			continue
		}
		C := tcards[i][tcomp]
		picks = append(picks, Leaf(1, E([]int{0}, []*Point{G()}, T(QA), TC(scMinusOne, C.A)), E([]int{0}, []*Point{H}, T(QB), TC(scMinusOne, C.B))))
	}
	if len(picks) == 0 {
		return nil
	}
	var pick *Node
	if len(picks) == 1 {
		pick = picks[0]
	} else {
		pick = OR(picks...)
	}
	nl := Leaf(1, E([]int{0}, []*Point{G()}, T(QA)), E([]int{0}, []*Point{H}, T(QB), TC(scMinusOne, M(neutral))))
	var neutralN *Node = nl
	if mandatory {
		neutralN = AND(HOLD(X, Y, v, comp, without(roles, holders)), nl)
	}
	f := OR(AND(HOLD(X, Y, v, comp, holders), pick), neutralN)
	if !VerifySigma(tr, f, b[64:], false) {
		return nil
	}
	return &CT{QA, QB}
}
