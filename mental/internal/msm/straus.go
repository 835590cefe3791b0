package msm

import (
	"encoding/binary"
	"sync"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Straus's method for the small sums of one proof or a few (below the
// bucket method's threshold): a table of the odd multiples P, 3P, …, 15P
// per point and one shared doubling chain over the points' width-5
// non-adjacent forms. It is edwards25519's VarTimeMultiScalarMult with
// two differences: its tables and digits live in a scratch reused from
// call to call (edwards25519's allocates 1.5 KB per point each call, a
// quarter of all bytes a live seat allocated: docs/performance.md, issue
// 28), and a scalar whose negation is shorter is used negated (its digits
// negated, the point unchanged), so a -ρ for a 128-bit batch weight ρ
// costs what ρ does without a negated copy of the point.

// cached is a point kept as (Y+X, Y-X, Z, 2d·T), the form an addition
// consumes.
type cached struct {
	YplusX, YminusX, Z, T2d fe
}

// strausScratch holds one call's tables and digits.
type strausScratch struct {
	tables [][8]cached
	nafs   [][256]int8
}

// scratchPool reuses the scratch across calls (and goroutines).
var scratchPool = sync.Pool{New: func() any { return new(strausScratch) }}

// toCached sets c to p in cached form.
func (c *cached) set(k *curveConstants, p *extended) {
	c.YplusX.Add(&p.Y, &p.X)
	c.YminusX.Subtract(&p.Y, &p.X)
	c.Z = p.Z
	c.T2d.Multiply(&p.T, &k.d2)
}

// addCached sets p = p + q (or p - q if neg): add-2008-hwcd-3 for a = -1
// with q's sums and 2d·T precomputed, 8 multiplications.
func (p *extended) addCached(q *cached, neg bool) {
	var A, B, C, D, s fe
	qa, qb := &q.YminusX, &q.YplusX
	if neg {
		qa, qb = qb, qa
	}
	s.Subtract(&p.Y, &p.X)
	A.Multiply(&s, qa)
	s.Add(&p.Y, &p.X)
	B.Multiply(&s, qb)
	C.Multiply(&p.T, &q.T2d)
	D.Multiply(&p.Z, &q.Z)
	D.Add(&D, &D)
	p.fromSums(&A, &B, &C, &D, neg) // -q has 2d·T negated: C changes sign
}

// doubleNoT sets p = 2p without its T coordinate, which only an addition
// reads (double reads X, Y, Z): a doubling followed by another doubling
// costs one multiplication less.
func (p *extended) doubleNoT() {
	var A, B, C, E, F, G, H, s fe
	A.Square(&p.X)
	B.Square(&p.Y)
	C.Square(&p.Z)
	C.Add(&C, &C)
	s.Add(&p.X, &p.Y)
	E.Square(&s)
	E.Subtract(&E, &A)
	E.Subtract(&E, &B)
	G.Subtract(&B, &A)
	F.Subtract(&G, &C)
	H.Add(&A, &B)
	H.Negate(&H)
	p.X.Multiply(&E, &F)
	p.Y.Multiply(&G, &H)
	p.Z.Multiply(&F, &G)
}

// nafWidth is the width of the non-adjacent forms: digits are odd, in
// [-15, 15], so a table holds the 8 odd multiples.
const nafWidth = 5

// nonAdjacentForm writes the width-5 non-adjacent form of s (which must be
// below 2^255, as every canonical scalar is) into naf and returns the
// index of its highest nonzero digit, or -1 if s is zero.
func nonAdjacentForm(s *Scalar, naf *[256]int8) int {
	*naf = [256]int8{}
	var limbs [5]uint64
	for i := range 4 {
		limbs[i] = binary.LittleEndian.Uint64(s[8*i:])
	}
	const width = 1 << nafWidth
	const mask = width - 1
	top := -1
	carry := uint64(0)
	for pos := uint(0); pos < 256; {
		i, sh := pos/64, pos%64
		buf := limbs[i] >> sh
		if sh > 64-nafWidth {
			buf |= limbs[i+1] << (64 - sh)
		}
		window := carry + buf&mask
		if window&1 == 0 {
			pos++
			continue
		}
		if window < width/2 {
			carry = 0
			naf[pos] = int8(window)
		} else {
			carry = 1
			naf[pos] = int8(window) - width
		}
		top = int(pos)
		pos += nafWidth
	}
	return top
}

// StrausIsIdentity reports whether Σ scalars[i]·points[i] is the
// identity, by Straus's method: faster than IsIdentity's bucket method
// for sums of fewer than about 160 points. The scalars must be canonical
// (below ℓ). It panics if the slices differ in length.
func StrausIsIdentity(scalars []Scalar, points []*ristretto.Element) bool {
	var r extended
	straus(&r, scalars, points)
	return r.isIdentity()
}

// StrausMultiScalarMult returns Σ scalars[i]·points[i] by Straus's
// method, for tests.
func StrausMultiScalarMult(scalars []Scalar, points []*ristretto.Element) *ristretto.Element {
	var r extended
	straus(&r, scalars, points)
	return toElement(&r)
}

func straus(r *extended, scalars []Scalar, points []*ristretto.Element) {
	if len(scalars) != len(points) {
		panic("msm: scalars and points differ in length")
	}
	r.identity()
	n := len(points)
	if n == 0 {
		return
	}
	k := constants()
	sc := scratchPool.Get().(*strausScratch)
	defer scratchPool.Put(sc)
	if cap(sc.tables) < n {
		sc.tables = make([][8]cached, n)
		sc.nafs = make([][256]int8, n)
	}
	tables, nafs := sc.tables[:n], sc.nafs[:n]
	top := -1
	for i := range n {
		short, neg := shorter(&scalars[i])
		t := nonAdjacentForm(&short, &nafs[i])
		if neg {
			for j := range t + 1 {
				nafs[i][j] = -nafs[i][j]
			}
		}
		top = max(top, t)
		if t < 0 {
			continue // a zero scalar: its table is never read
		}
		// P, 3P, …, 15P: P + 2P, then + 2P again.
		p := extendedOf(points[i])
		tables[i][0].set(k, &p)
		p2 := p
		p2.double()
		var p2c cached
		p2c.set(k, &p2)
		for j := 1; j < 8; j++ {
			p.addCached(&p2c, false)
			tables[i][j].set(k, &p)
		}
	}
	if top < 0 {
		return
	}
	// adds reports whether any digit at position j is nonzero.
	adds := func(j int) bool {
		for i := range nafs {
			if nafs[i][j] != 0 {
				return true
			}
		}
		return false
	}
	for j := top; j >= 0; j-- {
		add := adds(j)
		if j != top {
			if add || j == 0 { // the sum's T is read after the last step
				r.double()
			} else {
				r.doubleNoT()
			}
		}
		if !add {
			continue
		}
		for i := range nafs {
			d := nafs[i][j]
			switch {
			case d > 0:
				r.addCached(&tables[i][d/2], false)
			case d < 0:
				r.addCached(&tables[i][(-d)/2], true)
			}
		}
	}
}
