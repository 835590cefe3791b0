package main

import (
	"crypto/sha512"
	"encoding/binary"
)

func u32b(v uint32) []byte { b := make([]byte, 4); binary.BigEndian.PutUint32(b, v); return b }
func u64b(v uint64) []byte { b := make([]byte, 8); binary.BigEndian.PutUint64(b, v); return b }

type Transcript struct{ buf []byte }

func NewTr(protocol string) *Transcript {
	t := &Transcript{}
	t.Item("dom-sep", []byte("masque/mental/v1"))
	t.Item("protocol", []byte(protocol))
	return t
}
func (t *Transcript) Item(label string, data []byte) {
	t.buf = append(t.buf, u32b(uint32(len(label)))...)
	t.buf = append(t.buf, label...)
	t.buf = append(t.buf, u32b(uint32(len(data)))...)
	t.buf = append(t.buf, data...)
}
func (t *Transcript) Int(label string, v uint64) { t.Item(label, u64b(v)) }
func (t *Transcript) Pt(label string, p *Point)  { t.Item(label, rEncode(p)) }
func (t *Transcript) Challenge(name string) []byte {
	t.Item("challenge", []byte(name))
	h := sha512.Sum512(t.buf)
	return h[:]
}
func (t *Transcript) ChallengeScalar(name string) *Scalar { return scFromUniform(t.Challenge(name)) }

type Ctx struct {
	Table []byte // 32
	Pos   uint64
	Seat  uint64
}

func (t *Transcript) Ctx(c Ctx) {
	t.Item("table", c.Table)
	t.Int("pos", c.Pos)
	t.Int("seat", c.Seat)
}

// ---- cards
type CT struct{ A, B *Point }
type Card []CT

func (c Card) Enc() []byte {
	b := []byte{byte(len(c))}
	for _, x := range c {
		b = append(b, rEncode(x.A)...)
		b = append(b, rEncode(x.B)...)
	}
	return b
}
func (c Card) EncNoW() []byte { return c.Enc()[1:] }
func (c Card) Select(comps []int) Card {
	r := Card{}
	for _, i := range comps {
		r = append(r, c[i])
	}
	return r
}

func faceUp(p *Point, w int) Card {
	c := Card{}
	for i := 0; i < w; i++ {
		c = append(c, CT{Id(), p})
	}
	return c
}

func hashToElement(label string, i uint64) *Point {
	b := []byte("masque/mental/v1/hash-to-group")
	b = append(b, u32b(uint32(len(label)))...)
	b = append(b, label...)
	b = append(b, u64b(i)...)
	h := sha512.Sum512(b)
	return rFromUniform(h[:])
}

var cardPts = map[uint64]*Point{}

func M(k int) *Point {
	if p, ok := cardPts[uint64(k)]; ok {
		return p
	}
	p := hashToElement("card", uint64(k))
	cardPts[uint64(k)] = p
	return p
}

// ---- sigma engine
type Term struct {
	Coef *Scalar
	P    *Point
}
type Eqn struct {
	Wit   []int
	Bases []*Point
	Pub   []Term
}
type Node struct {
	Kind int // 1 leaf 2 and 3 or
	NW   int
	Eqs  []Eqn
	Ch   []*Node
}

func Leaf(nw int, eqs ...Eqn) *Node { return &Node{Kind: 1, NW: nw, Eqs: eqs} }
func AND(ch ...*Node) *Node         { return &Node{Kind: 2, Ch: ch} }
func OR(ch ...*Node) *Node          { return &Node{Kind: 3, Ch: ch} }
func E(wit []int, bases []*Point, pub ...Term) Eqn {
	return Eqn{wit, bases, pub}
}
func T(p *Point) Term             { return Term{nil, p} }
func TC(c *Scalar, p *Point) Term { return Term{c, p} }

var scMinusOne = func() *Scalar { s := new(Scalar); one := scOne(); return s.Negate(one) }()

func scOne() *Scalar {
	b := make([]byte, 32)
	b[0] = 1
	s, _ := new(Scalar).SetCanonicalBytes(b)
	return s
}

func (n *Node) shape(b []byte) []byte {
	switch n.Kind {
	case 1:
		b = append(b, 1)
		b = append(b, u32b(uint32(n.NW))...)
		b = append(b, u32b(uint32(len(n.Eqs)))...)
		for _, e := range n.Eqs {
			b = append(b, u32b(uint32(len(e.Wit)))...)
			for _, w := range e.Wit {
				b = append(b, u32b(uint32(w))...)
			}
			b = append(b, u32b(uint32(len(e.Pub)))...)
		}
	default:
		b = append(b, byte(n.Kind))
		b = append(b, u32b(uint32(len(n.Ch)))...)
		for _, c := range n.Ch {
			b = c.shape(b)
		}
	}
	return b
}
func (n *Node) points(b []byte) []byte {
	if n.Kind == 1 {
		for _, e := range n.Eqs {
			for _, p := range e.Bases {
				b = append(b, rEncode(p)...)
			}
			for _, t := range e.Pub {
				if t.Coef == nil {
					b = append(b, 0)
				} else {
					b = append(b, 1)
					b = append(b, t.Coef.Bytes()...)
				}
				b = append(b, rEncode(t.P)...)
			}
		}
		return b
	}
	for _, c := range n.Ch {
		b = c.points(b)
	}
	return b
}
func (n *Node) counts() (orc, eqs, ws int) {
	if n.Kind == 1 {
		return 0, len(n.Eqs), n.NW
	}
	if n.Kind == 3 {
		orc += len(n.Ch) - 1
	}
	for _, c := range n.Ch {
		a, b, d := c.counts()
		orc += a
		eqs += b
		ws += d
	}
	return
}
func ProofSize(n *Node) int { a, b, c := n.counts(); return 32 * (a + b + c) }

type parsedProof struct {
	chs   []*Scalar
	comms []*Point
	commB []byte
	resp  []*Scalar
}

func parseProof(n *Node, p []byte) (*parsedProof, error) {
	a, b, c := n.counts()
	if len(p) != 32*(a+b+c) {
		return nil, errEncoding
	}
	pp := &parsedProof{}
	off := 0
	for i := 0; i < a; i++ {
		s, err := scDecode(p[off : off+32])
		if err != nil {
			return nil, err
		}
		pp.chs = append(pp.chs, s)
		off += 32
	}
	pp.commB = p[off : off+32*b]
	for i := 0; i < b; i++ {
		q, err := rDecode(p[off : off+32])
		if err != nil {
			return nil, err
		}
		pp.comms = append(pp.comms, q)
		off += 32
	}
	for i := 0; i < c; i++ {
		s, err := scDecode(p[off : off+32])
		if err != nil {
			return nil, err
		}
		pp.resp = append(pp.resp, s)
		off += 32
	}
	return pp, nil
}

// check syntax of a proof (canonical encodings) given its size fields counts
func checkProofBytes(nsc1, npts, nsc2 int, p []byte) bool {
	if len(p) != 32*(nsc1+npts+nsc2) {
		return false
	}
	off := 0
	for i := 0; i < nsc1; i++ {
		if _, err := scDecode(p[off : off+32]); err != nil {
			return false
		}
		off += 32
	}
	for i := 0; i < npts; i++ {
		if _, err := rDecode(p[off : off+32]); err != nil {
			return false
		}
		off += 32
	}
	for i := 0; i < nsc2; i++ {
		if _, err := scDecode(p[off : off+32]); err != nil {
			return false
		}
		off += 32
	}
	return true
}

// VerifySigma: tr has context and statement items already absorbed.
func VerifySigma(tr *Transcript, f *Node, proof []byte, withPoints bool) bool {
	pp, err := parseProof(f, proof)
	if err != nil {
		return false
	}
	if withPoints {
		tr.Item("formula-points", f.points(nil))
	}
	tr.Item("formula-shape", f.shape(nil))
	tr.Int("commitments/n", uint64(len(pp.comms)))
	tr.Item("commitments", pp.commB)
	c := tr.ChallengeScalar("challenge")
	ci, ei, ri := 0, 0, 0
	ok := true
	var walk func(n *Node, e *Scalar)
	walk = func(n *Node, e *Scalar) {
		switch n.Kind {
		case 1:
			resp := pp.resp[ri : ri+n.NW]
			ri += n.NW
			for _, q := range n.Eqs {
				R := pp.comms[ei]
				ei++
				sc := []*Scalar{}
				pts := []*Point{}
				for i, w := range q.Wit {
					sc = append(sc, resp[w])
					pts = append(pts, q.Bases[i])
				}
				lhs := Id()
				if len(sc) > 0 {
					lhs = new(Point).VarTimeMultiScalarMult(sc, pts)
				}
				rhs := new(Point).Set(R)
				if len(q.Pub) > 0 {
					sc2 := []*Scalar{}
					pts2 := []*Point{}
					for _, t := range q.Pub {
						k := new(Scalar).Set(e)
						if t.Coef != nil {
							k.Multiply(k, t.Coef)
						}
						sc2 = append(sc2, k)
						pts2 = append(pts2, t.P)
					}
					rhs.Add(rhs, new(Point).VarTimeMultiScalarMult(sc2, pts2))
				}
				if !rEqual(lhs, rhs) {
					ok = false
				}
			}
		case 2:
			for _, ch := range n.Ch {
				walk(ch, e)
			}
		case 3:
			k := len(n.Ch)
			es := make([]*Scalar, k)
			sum := new(Scalar)
			for i := 0; i < k-1; i++ {
				es[i] = pp.chs[ci]
				ci++
				sum.Add(sum, es[i])
			}
			es[k-1] = new(Scalar).Subtract(e, sum)
			for i, ch := range n.Ch {
				walk(ch, es[i])
			}
		}
	}
	walk(f, c)
	return ok
}

func neg(p *Point) *Point    { return new(Point).Negate(p) }
func sub(a, b *Point) *Point { return new(Point).Subtract(a, b) }
func add(a, b *Point) *Point { return new(Point).Add(a, b) }

// ---- proofs

func VerifyKeyProof(label string, tableID []byte, seat int, identity []byte, X *Point, proof []byte) bool {
	tbl := make([]byte, 32)
	copy(tbl, tableID)
	tr := NewTr(label)
	tr.Ctx(Ctx{tbl, 0, uint64(seat)})
	tr.Item("identity", identity)
	tr.Pt("X", X)
	return VerifySigma(tr, Leaf(1, E([]int{0}, []*Point{G()}, T(X))), proof, false)
}

func elist(tr *Transcript, label string, ps []*Point) {
	tr.Int(label+"/n", uint64(len(ps)))
	for _, p := range ps {
		tr.Pt(label, p)
	}
}

type Share struct {
	D     []*Point
	proof []byte
}

func ParseShare(b []byte) (*Share, error) {
	if len(b) < 1 {
		return nil, errEncoding
	}
	w := int(b[0])
	if w < 1 || w > 5 || len(b) != 1+32*w+32*(w+2) {
		return nil, errEncoding
	}
	s := &Share{}
	for i := 0; i < w; i++ {
		p, err := rDecode(b[1+32*i : 33+32*i])
		if err != nil {
			return nil, err
		}
		s.D = append(s.D, p)
	}
	s.proof = b[1+32*w:]
	if !checkProofBytes(0, w+1, 1, s.proof) {
		return nil, errEncoding
	}
	return s, nil
}

func VerifyShare(ctx Ctx, X *Point, card Card, s *Share) bool {
	if len(s.D) != len(card) {
		return false
	}
	tr := NewTr("masque/share/v1")
	tr.Ctx(ctx)
	tr.Pt("X", X)
	tr.Item("card", card.Enc())
	elist(tr, "D", s.D)
	eqs := []Eqn{E([]int{0}, []*Point{G()}, T(X))}
	for i, c := range card {
		eqs = append(eqs, E([]int{0}, []*Point{c.A}, T(s.D[i])))
	}
	return VerifySigma(tr, Leaf(1, eqs...), s.proof, false)
}

type EncShare struct {
	E1, E2 []*Point
	proof  []byte
}

func ParseEncShare(b []byte) (*EncShare, error) {
	if len(b) < 1 {
		return nil, errEncoding
	}
	w := int(b[0])
	if w < 1 || w > 5 || len(b) != 1+64*w+32*(2+3*w) {
		return nil, errEncoding
	}
	s := &EncShare{}
	for i := 0; i < w; i++ {
		p1, err := rDecode(b[1+64*i : 33+64*i])
		if err != nil {
			return nil, err
		}
		p2, err := rDecode(b[33+64*i : 65+64*i])
		if err != nil {
			return nil, err
		}
		s.E1 = append(s.E1, p1)
		s.E2 = append(s.E2, p2)
	}
	s.proof = b[1+64*w:]
	if !checkProofBytes(0, 1+2*w, 1+w, s.proof) {
		return nil, errEncoding
	}
	return s, nil
}

func VerifyEncShare(ctx Ctx, X, Y *Point, card Card, s *EncShare) bool {
	w := len(card)
	if len(s.E1) != w {
		return false
	}
	tr := NewTr("masque/enc-share/v1")
	tr.Ctx(ctx)
	tr.Pt("X", X)
	tr.Pt("Y", Y)
	tr.Item("card", card.Enc())
	elist(tr, "E1", s.E1)
	elist(tr, "E2", s.E2)
	eqs := []Eqn{E([]int{0}, []*Point{G()}, T(X))}
	for i, c := range card {
		eqs = append(eqs, E([]int{1 + i}, []*Point{G()}, T(s.E1[i])))
		eqs = append(eqs, E([]int{0, 1 + i}, []*Point{c.A, Y}, T(s.E2[i])))
	}
	return VerifySigma(tr, Leaf(1+w, eqs...), s.proof, false)
}

func VerifySwap(ctx Ctx, H *Point, c0, c1, o0, o1 Card, proof []byte) bool {
	w := len(c0)
	if len(c1) != w || len(o0) != w || len(o1) != w {
		return false
	}
	tr := NewTr("masque/swap/v1")
	tr.Ctx(ctx)
	tr.Pt("H", H)
	tr.Item("in0", c0.Enc())
	tr.Item("in1", c1.Enc())
	tr.Item("out0", o0.Enc())
	tr.Item("out1", o1.Enc())
	z := []*Scalar{}
	for i := 0; i < 2*w; i++ {
		z = append(z, tr.ChallengeScalar("swap-z"))
	}
	mk := func(f, g Card, useB bool) []Term {
		ts := []Term{}
		pick := func(c CT) *Point {
			if useB {
				return c.B
			}
			return c.A
		}
		for i := 0; i < w; i++ {
			ts = append(ts, TC(z[i], pick(o0[i])), TC(new(Scalar).Negate(z[i]), pick(f[i])),
				TC(z[w+i], pick(o1[i])), TC(new(Scalar).Negate(z[w+i]), pick(g[i])))
		}
		return ts
	}
	br := func(f, g Card) *Node {
		return Leaf(1, E([]int{0}, []*Point{G()}, mk(f, g, false)...), E([]int{0}, []*Point{H}, mk(f, g, true)...))
	}
	return VerifySigma(tr, OR(br(c0, c1), br(c1, c0)), proof, false)
}

func CoinPoint(gid []byte, a uint64) *Point {
	b := append([]byte("masque/coin-point/v1"), gid...)
	b = append(b, u64b(a)...)
	h := sha512.Sum512(b)
	return rFromUniform(h[:])
}
func CoinValue(gid []byte, a uint64, sum *Point) []byte {
	b := append([]byte("masque/coin-value/v1"), gid...)
	b = append(b, u64b(a)...)
	b = append(b, rEncode(sum)...)
	h := sha512.Sum512(b)
	return h[:32]
}

// VerifyBlindStep checks a blind step (SPEC §2.4, §9.8): items X, in,
// out; leaf(2; w0·A = A', w0·B + w1·(−A) = B', w0·X + w1·(−G) = 0), and
// neither A nor A' the identity.
func VerifyBlindStep(ctx Ctx, X *Point, in, out Card, proof []byte) bool {
	if len(in) != 1 || len(out) != 1 || rIsIdentity(in[0].A) || rIsIdentity(out[0].A) {
		return false
	}
	tr := NewTr("masque/blind-step/v1")
	tr.Ctx(ctx)
	tr.Pt("X", X)
	tr.Item("in", in.Enc())
	tr.Item("out", out.Enc())
	A, B := in[0].A, in[0].B
	f := Leaf(2, E([]int{0}, []*Point{A}, T(out[0].A)),
		E([]int{0, 1}, []*Point{B, neg(A)}, T(out[0].B)),
		E([]int{0, 1}, []*Point{X, neg(G())}))
	return VerifySigma(tr, f, proof, false)
}

func VerifyCoinShare(ctx Ctx, X, Q, D *Point, proof []byte) bool {
	tr := NewTr("masque/coin-share/v1")
	tr.Ctx(ctx)
	tr.Pt("X", X)
	tr.Pt("Q", Q)
	tr.Pt("D", D)
	return VerifySigma(tr, Leaf(1, E([]int{0}, []*Point{G()}, T(X)), E([]int{0}, []*Point{Q}, T(D))), proof, false)
}

// view: card (width m), shares (E1,E2 per other seat in seat order)
type View struct {
	Card   Card
	Comps  []int
	Shares []*EncShare // only E1,E2 used
	Slot   int
	Full   Card // the slot's ciphertext snapshot (full width)
}

func VerifyNotHeld(ctx Ctx, X, Y *Point, v *View, comp int, kind int, proof []byte) bool {
	if len(proof) != 224 {
		return false
	}
	Tp, err := rDecode(proof[:32])
	if err != nil || rIsIdentity(Tp) {
		return false
	}
	tr := NewTr("masque/not-held/v1")
	tr.Ctx(ctx)
	tr.Pt("X", X)
	tr.Pt("Y", Y)
	tr.Item("card", v.Card.Enc())
	tr.Int("component", uint64(comp))
	tr.Int("kind", uint64(kind))
	tr.Int("shares/n", uint64(len(v.Shares)))
	for _, s := range v.Shares {
		elist(tr, "E1", s.E1)
		elist(tr, "E2", s.E2)
	}
	tr.Pt("T", Tp)
	A := v.Card[comp].A
	C := sub(v.Card[comp].B, M(kind))
	Es := Id()
	for _, s := range v.Shares {
		C = sub(C, s.E2[comp])
		Es = add(Es, s.E1[comp])
	}
	f := Leaf(3, E([]int{0, 1, 2}, []*Point{C, neg(A), Es}, T(Tp)),
		E([]int{1, 0}, []*Point{G(), neg(X)}),
		E([]int{2, 0}, []*Point{G(), neg(Y)}))
	return VerifySigma(tr, f, proof[32:], false)
}

func holdLeaf(X, Y *Point, v *View, comp int, kind int) *Node {
	A := v.Card[comp].A
	B := v.Card[comp].B
	N := Id()
	pub := []Term{T(B)}
	for _, s := range v.Shares {
		N = sub(N, s.E1[comp])
		pub = append(pub, TC(scMinusOne, s.E2[comp]))
	}
	pub = append(pub, TC(scMinusOne, M(kind)))
	return Leaf(2, E([]int{0, 1}, []*Point{A, N}, pub...), E([]int{0}, []*Point{G()}, T(X)), E([]int{1}, []*Point{G()}, T(Y)))
}
func HOLD(X, Y *Point, v *View, comp int, kinds []int) *Node {
	if len(kinds) == 1 {
		return holdLeaf(X, Y, v, comp, kinds[0])
	}
	ch := []*Node{}
	for _, k := range kinds {
		ch = append(ch, holdLeaf(X, Y, v, comp, k))
	}
	return OR(ch...)
}

func VerifyViewedHolding(ctx Ctx, X, Y *Point, v *View, comp int, kinds []int, proof []byte) bool {
	tr := NewTr("masque/viewed-holding/v1")
	tr.Ctx(ctx)
	return VerifySigma(tr, HOLD(X, Y, v, comp, kinds), proof, true)
}

// ---- shuffle
var shufGen = map[int]*Point{}

func hgen(i int) *Point {
	if p, ok := shufGen[i]; ok {
		return p
	}
	p := hashToElement("shuffle-generator", uint64(i))
	shufGen[i] = p
	return p
}

func VerifyShuffle(ctx Ctx, H *Point, in, out []Card, proof []byte) bool {
	n := len(in)
	if n < 1 || n > 64 || len(out) != n {
		return false
	}
	w := len(in[0])
	for i := range in {
		if len(in[i]) != w || len(out[i]) != w {
			return false
		}
	}
	if len(proof) != 32*(5*n+6+3*w) {
		return false
	}
	pts := func(off, cnt int) ([]*Point, bool) {
		r := []*Point{}
		for i := 0; i < cnt; i++ {
			p, err := rDecode(proof[32*(off+i) : 32*(off+i+1)])
			if err != nil {
				return nil, false
			}
			r = append(r, p)
		}
		return r, true
	}
	scs := func(off, cnt int) ([]*Scalar, bool) {
		r := []*Scalar{}
		for i := 0; i < cnt; i++ {
			p, err := scDecode(proof[32*(off+i) : 32*(off+i+1)])
			if err != nil {
				return nil, false
			}
			r = append(r, p)
		}
		return r, true
	}
	cj, ok1 := pts(0, n)
	ch, ok2 := pts(n, n)
	t123, ok3 := pts(2*n, 3)
	t4, ok4 := pts(2*n+3, 2*w)
	th, ok5 := pts(2*n+3+2*w, n)
	s123, ok6 := scs(3*n+3+2*w, 3)
	s4, ok7 := scs(3*n+6+2*w, w)
	sh, ok8 := scs(3*n+6+3*w, n)
	sp, ok9 := scs(4*n+6+3*w, n)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && ok9) {
		return false
	}
	tr := NewTr("masque/shuffle/v1")
	tr.Ctx(ctx)
	tr.Item("generators", []byte("shuffle-generator"))
	tr.Pt("H", H)
	tr.Int("n", uint64(n))
	tr.Int("width", uint64(w))
	for _, c := range in {
		tr.Item("in", c.EncNoW())
	}
	for _, c := range out {
		tr.Item("out", c.EncNoW())
	}
	tr.Int("perm-commit/n", uint64(n))
	for _, p := range cj {
		tr.Pt("perm-commit", p)
	}
	u := []*Scalar{}
	for j := 0; j < n; j++ {
		u = append(u, tr.ChallengeScalar("u"))
	}
	tr.Int("chain-commit/n", uint64(n))
	for _, p := range ch {
		tr.Pt("chain-commit", p)
	}
	tr.Pt("t1", t123[0])
	tr.Pt("t2", t123[1])
	tr.Pt("t3", t123[2])
	for k := 0; k < w; k++ {
		tr.Pt("t4a", t4[2*k])
		tr.Pt("t4b", t4[2*k+1])
	}
	tr.Int("t-hat/n", uint64(n))
	for _, p := range th {
		tr.Pt("t-hat", p)
	}
	c := tr.ChallengeScalar("c")
	msm := func(s []*Scalar, p []*Point) *Point { return new(Point).VarTimeMultiScalarMult(s, p) }
	mul := func(s *Scalar, p *Point) *Point { return new(Point).ScalarMult(s, p) }
	g := G()
	// 1
	sumc := Id()
	for _, p := range cj {
		sumc = add(sumc, p)
	}
	for i := 1; i <= n; i++ {
		sumc = sub(sumc, hgen(i))
	}
	if !rEqual(mul(s123[0], g), add(t123[0], mul(c, sumc))) {
		return false
	}
	// 2
	prod := scOne()
	for _, x := range u {
		prod.Multiply(prod, x)
	}
	if !rEqual(mul(s123[1], g), add(t123[1], mul(c, sub(ch[n-1], mul(prod, hgen(0)))))) {
		return false
	}
	// 3
	hs := []*Point{g}
	ss := []*Scalar{s123[2]}
	for i := 1; i <= n; i++ {
		hs = append(hs, hgen(i))
		ss = append(ss, sp[i-1])
	}
	if !rEqual(msm(ss, hs), add(t123[2], mul(c, msm(u, cj)))) {
		return false
	}
	// 4
	for k := 0; k < w; k++ {
		oa, ob, ia, ib := []*Point{}, []*Point{}, []*Point{}, []*Point{}
		for i := 0; i < n; i++ {
			oa = append(oa, out[i][k].A)
			ob = append(ob, out[i][k].B)
			ia = append(ia, in[i][k].A)
			ib = append(ib, in[i][k].B)
		}
		l := sub(msm(sp, oa), mul(s4[k], g))
		if !rEqual(l, add(t4[2*k], mul(c, msm(u, ia)))) {
			return false
		}
		l = sub(msm(sp, ob), mul(s4[k], H))
		if !rEqual(l, add(t4[2*k+1], mul(c, msm(u, ib)))) {
			return false
		}
	}
	// 5
	prev := hgen(0)
	for i := 0; i < n; i++ {
		l := add(mul(sh[i], g), mul(sp[i], prev))
		if !rEqual(l, add(th[i], mul(c, ch[i]))) {
			return false
		}
		prev = ch[i]
	}
	return true
}
