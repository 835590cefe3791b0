// Copyright 2016 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// This file is the group arithmetic of golang.org/x/crypto's former
// ed25519/internal/edwards25519 (v0.0.0-20190123085648-057139ce5d2b), from
// the public domain "ref10" implementation of ed25519 from SUPERCOP:
// changed only in names and by leaving out what this package does not use.

package edwards32

// Group elements are members of the elliptic curve -x^2 + y^2 = 1 + d * x^2 *
// y^2 where d = -121665/121666.
//
// Several representations are used:
//   projective: (X:Y:Z) satisfying x=X/Z, y=Y/Z
//   extended: (X:Y:Z:T) satisfying x=X/Z, y=Y/Z, XY=ZT
//   completed: ((X:Z),(Y:T)) satisfying x=X/Z, y=Y/T
//   preComputed: (y+x,y-x,2dxy)
//   cached: (Y+X,Y-X,Z,2dT)

type projective struct {
	X, Y, Z fieldElement
}

type extended struct {
	X, Y, Z, T fieldElement
}

type completed struct {
	X, Y, Z, T fieldElement
}

type preComputed struct {
	yPlusX, yMinusX, xy2d fieldElement
}

type cached struct {
	yPlusX, yMinusX, Z, T2d fieldElement
}

func (p *projective) Zero() {
	feZero(&p.X)
	feOne(&p.Y)
	feOne(&p.Z)
}

func (p *projective) Double(r *completed) {
	var t0 fieldElement

	feSquare(&r.X, &p.X)
	feSquare(&r.Z, &p.Y)
	feSquare2(&r.T, &p.Z)
	feAdd(&r.Y, &p.X, &p.Y)
	feSquare(&t0, &r.Y)
	feAdd(&r.Y, &r.Z, &r.X)
	feSub(&r.Z, &r.Z, &r.X)
	feSub(&r.X, &t0, &r.Y)
	feSub(&r.T, &r.T, &r.Z)
}

func (p *extended) Zero() {
	feZero(&p.X)
	feOne(&p.Y)
	feOne(&p.Z)
	feZero(&p.T)
}

func (p *extended) Double(r *completed) {
	var q projective
	p.ToProjective(&q)
	q.Double(r)
}

func (p *extended) ToCached(r *cached) {
	feAdd(&r.yPlusX, &p.Y, &p.X)
	feSub(&r.yMinusX, &p.Y, &p.X)
	feCopy(&r.Z, &p.Z)
	feMul(&r.T2d, &p.T, &d2)
}

func (p *extended) ToProjective(r *projective) {
	feCopy(&r.X, &p.X)
	feCopy(&r.Y, &p.Y)
	feCopy(&r.Z, &p.Z)
}

func (p *completed) ToProjective(r *projective) {
	feMul(&r.X, &p.X, &p.T)
	feMul(&r.Y, &p.Y, &p.Z)
	feMul(&r.Z, &p.Z, &p.T)
}

func (p *completed) ToExtended(r *extended) {
	feMul(&r.X, &p.X, &p.T)
	feMul(&r.Y, &p.Y, &p.Z)
	feMul(&r.Z, &p.Z, &p.T)
	feMul(&r.T, &p.X, &p.Y)
}

func (p *preComputed) Zero() {
	feOne(&p.yPlusX)
	feOne(&p.yMinusX)
	feZero(&p.xy2d)
}

func geAdd(r *completed, p *extended, q *cached) {
	var t0 fieldElement

	feAdd(&r.X, &p.Y, &p.X)
	feSub(&r.Y, &p.Y, &p.X)
	feMul(&r.Z, &r.X, &q.yPlusX)
	feMul(&r.Y, &r.Y, &q.yMinusX)
	feMul(&r.T, &q.T2d, &p.T)
	feMul(&r.X, &p.Z, &q.Z)
	feAdd(&t0, &r.X, &r.X)
	feSub(&r.X, &r.Z, &r.Y)
	feAdd(&r.Y, &r.Z, &r.Y)
	feAdd(&r.Z, &t0, &r.T)
	feSub(&r.T, &t0, &r.T)
}

func geMixedAdd(r *completed, p *extended, q *preComputed) {
	var t0 fieldElement

	feAdd(&r.X, &p.Y, &p.X)
	feSub(&r.Y, &p.Y, &p.X)
	feMul(&r.Z, &r.X, &q.yPlusX)
	feMul(&r.Y, &r.Y, &q.yMinusX)
	feMul(&r.T, &q.xy2d, &p.T)
	feAdd(&t0, &p.Z, &p.Z)
	feSub(&r.X, &r.Z, &r.Y)
	feAdd(&r.Y, &r.Z, &r.Y)
	feAdd(&r.Z, &t0, &r.T)
	feSub(&r.T, &t0, &r.T)
}

// equal returns 1 if b == c and 0 otherwise, assuming that b and c are
// non-negative.
func equal(b, c int32) int32 {
	x := uint32(b ^ c)
	x--
	return int32(x >> 31)
}

// negative returns 1 if b < 0 and 0 otherwise.
func negative(b int32) int32 {
	return (b >> 31) & 1
}

// preComputedCMove sets t = u if b == 1 and leaves t if b == 0, in
// constant time: one loop rather than three calls of feCMove (a call is
// dear on wasm).
func preComputedCMove(t, u *preComputed, b int32) {
	m := -b
	for i := range 10 {
		t.yPlusX[i] ^= m & (t.yPlusX[i] ^ u.yPlusX[i])
		t.yMinusX[i] ^= m & (t.yMinusX[i] ^ u.yMinusX[i])
		t.xy2d[i] ^= m & (t.xy2d[i] ^ u.xy2d[i])
	}
}

func selectPoint(t *preComputed, pos int32, b int32) {
	var minusT preComputed
	bNegative := negative(b)
	bAbs := b - (((-bNegative) & b) << 1)

	t.Zero()
	for i := int32(0); i < 8; i++ {
		preComputedCMove(t, &base[pos][i], equal(bAbs, i+1))
	}
	feCopy(&minusT.yPlusX, &t.yMinusX)
	feCopy(&minusT.yMinusX, &t.yPlusX)
	feNeg(&minusT.xy2d, &t.xy2d)
	preComputedCMove(t, &minusT, bNegative)
}

// geScalarMultBase computes h = a*B, where
//
//	a = a[0]+256*a[1]+...+256^31 a[31]
//	B is the Ed25519 base point (x,4/5) with x positive.
//
// Preconditions:
//
//	a[31] <= 127
func geScalarMultBase(h *extended, a *[32]byte) {
	var e [64]int8

	for i, v := range a {
		e[2*i] = int8(v & 15)
		e[2*i+1] = int8((v >> 4) & 15)
	}

	// each e[i] is between 0 and 15 and e[63] is between 0 and 7.

	carry := int8(0)
	for i := 0; i < 63; i++ {
		e[i] += carry
		carry = (e[i] + 8) >> 4
		e[i] -= carry << 4
	}
	e[63] += carry
	// each e[i] is between -8 and 8.

	h.Zero()
	var t preComputed
	var r completed
	for i := int32(1); i < 64; i += 2 {
		selectPoint(&t, i/2, int32(e[i]))
		geMixedAdd(&r, h, &t)
		r.ToExtended(h)
	}

	var s projective

	h.Double(&r)
	r.ToProjective(&s)
	s.Double(&r)
	r.ToProjective(&s)
	s.Double(&r)
	r.ToProjective(&s)
	s.Double(&r)
	r.ToExtended(h)

	for i := int32(0); i < 64; i += 2 {
		selectPoint(&t, i/2, int32(e[i]))
		geMixedAdd(&r, h, &t)
		r.ToExtended(h)
	}
}

// The scalars are GF(2^252 + 27742317777372353535851937790883648493).

// Input:
//   a[0]+256*a[1]+...+256^31*a[31] = a
//   b[0]+256*b[1]+...+256^31*b[31] = b
//   c[0]+256*c[1]+...+256^31*c[31] = c
//
// Output:
//   s[0]+256*s[1]+...+256^31*s[31] = (ab+c) mod l
