// Package msm computes variable-time multi-scalar multiplications over
// ristretto255 for batch verification of public proofs (mental SPEC.md
// §4.4), where a batch of a hundred proofs is a sum of a thousand points
// or more.
//
// edwards25519's VarTimeMultiScalarMult is Straus's method: a table of
// eight multiples per point and a shared doubling chain. It is the right
// method for the dozen points of one proof, but its per-point cost stays
// flat as the batch grows. For large sums this package uses Pippenger's
// bucket method with signed digits: each point is added once per window
// into one of 2^(c-1) buckets, then the buckets are summed; the window
// width c is chosen per call from the scalars' actual bit lengths, so the
// 128-bit batch weights cost half as much as full scalars. Points are
// first normalized to affine form with one shared inversion, so each
// bucket addition is a 7-multiplication mixed addition.
//
// Everything here is variable time: inputs must be public.
package msm

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// ed2 is 2d, twice the curve constant d = -121665/121666.
type curveConstants struct {
	d2   fe // 2d
	half fe // 1/2
}

// constants returns the curve constants, computed once (two inversions,
// as dear as the sum of a dozen points) and never modified.
var constants = sync.OnceValue(newCurveConstants)

func newCurveConstants() *curveConstants {
	var k curveConstants
	var num, den fe
	num.Mult32(new(fe).One(), 121665)
	num.Negate(&num)
	den.Mult32(new(fe).One(), 121666)
	den.Invert(&den)
	k.d2.Multiply(&num, &den)
	k.d2.Add(&k.d2, &k.d2)
	k.half.Mult32(new(fe).One(), 2)
	k.half.Invert(&k.half)
	return &k
}

// extended is a point in extended twisted Edwards coordinates (X:Y:Z:T)
// with x = X/Z, y = Y/Z, xy = T/Z (Hisil–Wong–Carter–Dawson 2008).
type extended struct {
	X, Y, Z, T fe
}

// niels is an affine point (x, y) kept as (y+x, y-x, 2d·x·y), the form
// the mixed addition consumes.
type niels struct {
	YplusX, YminusX, XY2d fe
}

func (p *extended) identity() {
	p.X.Zero()
	p.Y.One()
	p.Z.One()
	p.T.Zero()
}

// setNiels sets p to the affine point q (negated if neg), with Z = 2 so
// that no halving is needed: X = 2x, Y = 2y, T = XY/Z = 2xy.
func (p *extended) setNiels(k *curveConstants, q *niels, neg bool) {
	a, b := &q.YplusX, &q.YminusX
	if neg {
		a, b = b, a
	}
	p.X.Subtract(a, b)
	p.Y.Add(a, b)
	p.Z.Mult32(new(fe).One(), 2)
	p.T.Multiply(&p.X, &p.Y)
	p.T.Multiply(&p.T, &k.half)
}

// addNiels sets p = p + q (or p - q if neg) with the mixed addition
// madd-2008-hwcd-3 for a = -1: 7 multiplications. The formulas are
// complete on edwards25519 (a = -1 is a square, d is not).
func (p *extended) addNiels(q *niels, neg bool) {
	var A, B, C, D, s fe
	qa, qb := &q.YminusX, &q.YplusX
	if neg {
		qa, qb = qb, qa
	}
	s.Subtract(&p.Y, &p.X)
	A.Multiply(&s, qa)
	s.Add(&p.Y, &p.X)
	B.Multiply(&s, qb)
	C.Multiply(&p.T, &q.XY2d)
	D.Add(&p.Z, &p.Z)
	p.fromSums(&A, &B, &C, &D, neg) // -q has 2d·x·y negated: C changes sign
}

// fromSums finishes an addition from A = (Y1-X1)(Y2-X2), B =
// (Y1+X1)(Y2+X2), C = 2d·T1·T2 (negated if negC) and D = 2·Z1·Z2.
func (p *extended) fromSums(A, B, C, D *fe, negC bool) {
	var E, F, G, H fe
	E.Subtract(B, A)
	if negC {
		F.Add(D, C)
		G.Subtract(D, C)
	} else {
		F.Subtract(D, C)
		G.Add(D, C)
	}
	H.Add(B, A)
	p.fromEFGH(&E, &F, &G, &H)
}

// fromEFGH sets p = (E·F : G·H : F·G : E·H), the last step of every
// formula here.
func (p *extended) fromEFGH(E, F, G, H *fe) {
	p.X.Multiply(E, F)
	p.Y.Multiply(G, H)
	p.T.Multiply(E, H)
	p.Z.Multiply(F, G)
}

// add sets p = p + q (add-2008-hwcd-3 for a = -1: 9 multiplications).
func (p *extended) add(k *curveConstants, q *extended) {
	var A, B, C, D, s, u fe
	s.Subtract(&p.Y, &p.X)
	u.Subtract(&q.Y, &q.X)
	A.Multiply(&s, &u)
	s.Add(&p.Y, &p.X)
	u.Add(&q.Y, &q.X)
	B.Multiply(&s, &u)
	C.Multiply(&p.T, &q.T)
	C.Multiply(&C, &k.d2)
	D.Multiply(&p.Z, &q.Z)
	D.Add(&D, &D)
	p.fromSums(&A, &B, &C, &D, false)
}

// double sets p = 2p (dbl-2008-hwcd for a = -1: 4 squarings, 4
// multiplications).
func (p *extended) double() {
	var A, B, C, E, F, G, H, s fe
	A.Square(&p.X)
	B.Square(&p.Y)
	C.Square(&p.Z)
	C.Add(&C, &C)
	s.Add(&p.X, &p.Y)
	E.Square(&s)
	E.Subtract(&E, &A)
	E.Subtract(&E, &B) // E = 2XY
	G.Subtract(&B, &A) // G = aA + B with a = -1
	F.Subtract(&G, &C)
	H.Add(&A, &B)
	H.Negate(&H) // H = aA - B
	p.fromEFGH(&E, &F, &G, &H)
}

// isIdentity reports whether p represents the ristretto255 identity: the
// coset of the 4-torsion points (0, ±1), (±i, 0), which are exactly the
// points with X = 0 or Y = 0.
func (p *extended) isIdentity() bool {
	var zero fe
	return p.X.Equal(&zero) == 1 || p.Y.Equal(&zero) == 1
}

// Scalar is a little-endian 256-bit integer, the encoding of a
// ristretto255 scalar.
type Scalar = [32]byte

// IsIdentity reports whether Σ scalars[i]·points[i] is the identity. It
// panics if the slices differ in length (a caller bug, not bad input).
func IsIdentity(scalars []Scalar, points []*ristretto.Element) bool {
	var r extended
	sum(&r, scalars, points, 0)
	return r.isIdentity()
}

// MultiScalarMult returns Σ scalars[i]·points[i]. It is IsIdentity's
// computation with the point returned, for tests and other callers.
func MultiScalarMult(scalars []Scalar, points []*ristretto.Element) *ristretto.Element {
	var r extended
	sum(&r, scalars, points, 0)
	return toElement(&r)
}

// maxWindow is the widest window. Digits are int16 in [-2^(c-1), 2^(c-1));
// a negated scalar's digits are negated, and at c = 16 the digit -2^15
// has no int16 negation (it wrapped to itself, and the sum came out wrong:
// found by FuzzMultiScalarMult, testdata/fuzz/FuzzMultiScalarMult). By the
// cost model, width 16 would pay only past about 600,000 points.
const maxWindow = 15

// sum computes r = Σ scalars[i]·points[i] with window width c (0: chosen
// by the cost model).
func sum(r *extended, scalars []Scalar, points []*ristretto.Element, c int) {
	if len(scalars) != len(points) {
		panic("msm: scalars and points differ in length")
	}
	k := constants()
	r.identity()
	n := len(points)
	if n == 0 {
		return
	}
	// Each scalar or its negation, whichever is shorter, computed once
	// for both the window choice and the digits.
	short := make([]Scalar, n)
	neg := make([]bool, n)
	lens := make([]int, 257) // how many scalars have each bit length
	for i := range scalars {
		short[i], neg[i] = shorter(&scalars[i])
		lens[bitLen(&short[i])]++
	}
	if c == 0 {
		c = windowWidthFor(lens)
	}
	// Signed digits need c ≥ 2 for the carry to end, and c ≤ maxWindow so
	// that a digit's negation fits in int16.
	c = min(max(c, 2), maxWindow)
	nwin := (256 + c) / c // one more window than 256/c for the last carry
	digits := make([]int16, n*nwin)
	top := -1
	for i := range short {
		d := digits[i*nwin : (i+1)*nwin]
		t := signedDigits(&short[i], c, d)
		if neg[i] {
			for w := range d {
				d[w] = -d[w]
			}
		}
		top = max(top, t)
	}
	if top < 0 {
		return // every scalar is zero
	}
	pts := toNiels(k, points)
	half := 1 << (c - 1)
	buckets := make([]extended, half+1)
	used := make([]bool, half+1)
	var acc, run extended
	for w := top; w >= 0; w-- {
		if w != top {
			for range c {
				r.double()
			}
		}
		clear(used)
		for i := range n {
			d := int(digits[i*nwin+w])
			if d == 0 {
				continue
			}
			neg := d < 0
			if neg {
				d = -d
			}
			if used[d] {
				buckets[d].addNiels(&pts[i], neg)
			} else {
				buckets[d].setNiels(k, &pts[i], neg)
				used[d] = true
			}
		}
		// Σ_d d·bucket[d] as a running sum from the top bucket down.
		haveRun, haveAcc := false, false
		for d := half; d >= 1; d-- {
			if used[d] {
				if haveRun {
					run.add(k, &buckets[d])
				} else {
					run = buckets[d]
					haveRun = true
				}
			}
			if !haveRun {
				continue
			}
			if haveAcc {
				acc.add(k, &run)
			} else {
				acc = run
				haveAcc = true
			}
		}
		if haveAcc {
			r.add(k, &acc)
		}
	}
}

// signedDigits writes the radix-2^c signed digits of s, each in
// [-2^(c-1), 2^(c-1)), into out (len ≥ (256+c)/c, c ≥ 2) and returns the
// index of the highest nonzero digit, or -1 if s is zero.
func signedDigits(s *Scalar, c int, out []int16) int {
	var limbs [5]uint64 // little-endian, one spare limb of zeros
	for i := range 4 {
		limbs[i] = binary.LittleEndian.Uint64(s[8*i:])
	}
	half, full, mask := 1<<(c-1), 1<<c, uint64(1)<<c-1
	carry, top := 0, -1
	for w := range out {
		v := carry
		if pos := w * c; pos < 256 {
			i, sh := pos/64, pos%64
			bits := limbs[i] >> sh
			if sh+c > 64 {
				bits |= limbs[i+1] << (64 - sh)
			}
			v += int(bits & mask)
		}
		carry = 0
		if v >= half {
			v -= full
			carry = 1
		}
		out[w] = int16(v)
		if v != 0 {
			top = w
		}
	}
	return top
}

// order is ℓ = 2^252 + 27742317777372353535851937790883648493, the order
// of ristretto255, little-endian.
var order = Scalar{
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
	0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0x10,
}

// shorter returns s or ℓ - s, whichever is shorter, and whether it
// negated: -ρ for a 128-bit ρ is a full-length scalar, but its negation
// is short, and a negated digit costs nothing (a mixed subtraction).
// Scalars are canonical (below ℓ), so ℓ - s does not underflow.
func shorter(s *Scalar) (Scalar, bool) {
	if *s == (Scalar{}) {
		return *s, false
	}
	var n Scalar
	borrow := 0
	for i := range n {
		v := int(order[i]) - int(s[i]) - borrow
		borrow = 0
		if v < 0 {
			v += 256
			borrow = 1
		}
		n[i] = byte(v)
	}
	if borrow != 0 || bitLen(&n) >= bitLen(s) {
		return *s, false // borrow: s was not canonical; use it as is
	}
	return n, true
}

// bitLen returns the position of the highest set bit of s plus one.
func bitLen(s *Scalar) int {
	for i := 31; i >= 0; i-- {
		if s[i] != 0 {
			return 8*i + bits.Len8(s[i])
		}
	}
	return 0
}

// windowWidthFor picks, given how many scalars (after shorter) have each
// bit length 0..256, the window width that minimizes the estimated cost in
// field multiplications. In each window, a scalar with a digit there costs
// a mixed addition (7) into its bucket, except the first point to land in
// each bucket, which only sets it (2); the buckets are then summed with
// two full additions (9 each) per bucket, and the windows joined by
// doublings (8 per bit). The expected number of occupied buckets when e
// digits fall into B buckets is B·(1 - (1-1/B)^e). Checked against
// measurement by BenchmarkWindow (docs/performance.md): the modelled best
// width was the measured best, or within 1% of it, at 256 to 2400 points.
// The choice only affects speed, never the result.
func windowWidthFor(lens []int) int {
	maxLen := 0
	for l, k := range lens {
		if k > 0 {
			maxLen = l
		}
	}
	best, bestCost := 2, -1.0
	for c := 2; c <= maxWindow; c++ {
		nwin := (maxLen + c - 1) / c
		// entries[w]: scalars with a digit in window w, i.e. longer than w·c bits.
		entries := make([]int, nwin+1)
		for l, k := range lens {
			if k > 0 && l > 0 {
				entries[(l-1)/c] += k
			}
		}
		for w := nwin - 1; w >= 0; w-- {
			entries[w] += entries[w+1]
		}
		B := float64(int(1) << (c - 1))
		cost := 8 * float64(maxLen)
		for w := range nwin {
			e := float64(entries[w])
			occupied := B * (1 - math.Pow(1-1/B, e))
			cost += 7*(e-occupied) + 2*occupied + 9*2*B
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// toNiels normalizes the points to affine niels form with one field
// inversion (Montgomery's trick).
func toNiels(k *curveConstants, points []*ristretto.Element) []niels {
	n := len(points)
	prefix := make([]fe, n) // Z_0·…·Z_i
	for i, e := range points {
		_, _, Z := coordinates(e)
		if i == 0 {
			prefix[i] = *Z
		} else {
			prefix[i].Multiply(&prefix[i-1], Z)
		}
	}
	var inv fe
	inv.Invert(&prefix[n-1]) // Z is never zero on edwards25519
	out := make([]niels, n)
	var zinv, x, y fe
	for i := n - 1; i >= 0; i-- {
		X, Y, Z := coordinates(points[i])
		if i > 0 {
			zinv.Multiply(&inv, &prefix[i-1])
			inv.Multiply(&inv, Z)
		} else {
			zinv = inv
		}
		x.Multiply(X, &zinv)
		y.Multiply(Y, &zinv)
		out[i].YplusX.Add(&y, &x)
		out[i].YminusX.Subtract(&y, &x)
		out[i].XY2d.Multiply(&x, &y)
		out[i].XY2d.Multiply(&out[i].XY2d, &k.d2)
	}
	return out
}
