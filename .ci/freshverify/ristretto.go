package main

import (
	"errors"
	"math/big"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"
)

type Point = edwards25519.Point
type Scalar = edwards25519.Scalar

func feFromDec(s string) *field.Element {
	n, _ := new(big.Int).SetString(s, 10)
	b := n.Bytes()
	le := make([]byte, 32)
	for i := 0; i < len(b); i++ {
		le[i] = b[len(b)-1-i]
	}
	e, err := new(field.Element).SetBytes(le)
	if err != nil {
		panic(err)
	}
	return e
}

var (
	feD              = feFromDec("37095705934669439343138083508754565189542113879843219016388785533085940283555")
	feSqrtM1         = feFromDec("19681161376707505956807079304988542015446066515923890162744021073123829784752")
	feSqrtADMinusOne = feFromDec("25063068953384623474111414158702152701244531502492656460079210482610430750235")
	feInvSqrtAMinusD = feFromDec("54469307008909316920995813868745141605393597292927456921205312896311721017578")
	feOneMinusDSq    = feFromDec("1159843021668779879193775521855586647937357759715417654439879720876111806838")
	feDMinusOneSq    = feFromDec("40440834346308536858101042469323190826248399146238708352240133220865137265952")
	feOne            = new(field.Element).One()
	feZero           = new(field.Element).Zero()
)

var errEncoding = errors.New("bad encoding")

func isNeg(e *field.Element) bool { return e.IsNegative() == 1 }

func rDecode(b []byte) (*Point, error) {
	if len(b) != 32 {
		return nil, errEncoding
	}
	s, err := new(field.Element).SetBytes(b)
	if err != nil {
		return nil, errEncoding
	}
	if string(s.Bytes()) != string(b) || isNeg(s) {
		return nil, errEncoding
	}
	ss := new(field.Element).Square(s)
	u1 := new(field.Element).Subtract(feOne, ss)
	u2 := new(field.Element).Add(feOne, ss)
	u2sq := new(field.Element).Square(u2)
	v := new(field.Element).Square(u1)
	v.Multiply(v, feD)
	v.Negate(v)
	v.Subtract(v, u2sq)
	t0 := new(field.Element).Multiply(v, u2sq)
	invsqrt, wasSq := new(field.Element).SqrtRatio(feOne, t0)
	denx := new(field.Element).Multiply(invsqrt, u2)
	deny := new(field.Element).Multiply(invsqrt, denx)
	deny.Multiply(deny, v)
	x := new(field.Element).Multiply(s, denx)
	x.Add(x, x)
	x.Absolute(x)
	y := new(field.Element).Multiply(u1, deny)
	t := new(field.Element).Multiply(x, y)
	if wasSq != 1 || isNeg(t) || y.Equal(feZero) == 1 {
		return nil, errEncoding
	}
	p, err := new(Point).SetExtendedCoordinates(x, y, new(field.Element).One(), t)
	if err != nil {
		return nil, errEncoding
	}
	return p, nil
}

func rEncode(p *Point) []byte {
	x0, y0, z0, t0 := p.ExtendedCoordinates()
	u1 := new(field.Element).Add(z0, y0)
	tmp := new(field.Element).Subtract(z0, y0)
	u1.Multiply(u1, tmp)
	u2 := new(field.Element).Multiply(x0, y0)
	u2sq := new(field.Element).Square(u2)
	invsqrt, _ := new(field.Element).SqrtRatio(feOne, new(field.Element).Multiply(u1, u2sq))
	den1 := new(field.Element).Multiply(invsqrt, u1)
	den2 := new(field.Element).Multiply(invsqrt, u2)
	zinv := new(field.Element).Multiply(den1, den2)
	zinv.Multiply(zinv, t0)
	ix0 := new(field.Element).Multiply(x0, feSqrtM1)
	iy0 := new(field.Element).Multiply(y0, feSqrtM1)
	ench := new(field.Element).Multiply(den1, feInvSqrtAMinusD)
	rotate := isNeg(new(field.Element).Multiply(t0, zinv))
	x := new(field.Element).Set(x0)
	y := new(field.Element).Set(y0)
	deninv := new(field.Element).Set(den2)
	if rotate {
		x.Set(iy0)
		y.Set(ix0)
		deninv.Set(ench)
	}
	if isNeg(new(field.Element).Multiply(x, zinv)) {
		y.Negate(y)
	}
	s := new(field.Element).Subtract(z0, y)
	s.Multiply(s, deninv)
	s.Absolute(s)
	return s.Bytes()
}

func rEqual(p, q *Point) bool {
	x1, y1, _, _ := p.ExtendedCoordinates()
	x2, y2, _, _ := q.ExtendedCoordinates()
	a := new(field.Element).Multiply(x1, y2)
	b := new(field.Element).Multiply(y1, x2)
	c := new(field.Element).Multiply(y1, y2)
	d := new(field.Element).Multiply(x1, x2)
	return a.Equal(b) == 1 || c.Equal(d) == 1
}

func rIsIdentity(p *Point) bool { return rEqual(p, edwards25519.NewIdentityPoint()) }

func rMap(b []byte) *Point {
	t, _ := new(field.Element).SetBytes(b)
	r := new(field.Element).Square(t)
	r.Multiply(r, feSqrtM1)
	u := new(field.Element).Add(r, feOne)
	u.Multiply(u, feOneMinusDSq)
	rd := new(field.Element).Multiply(r, feD)
	v := new(field.Element).Subtract(new(field.Element).Negate(feOne), rd)
	v.Multiply(v, new(field.Element).Add(r, feD))
	s, wasSq := new(field.Element).SqrtRatio(u, v)
	sp := new(field.Element).Multiply(s, t)
	sp.Absolute(sp)
	sp.Negate(sp)
	c := new(field.Element).Negate(feOne)
	if wasSq != 1 {
		s.Set(sp)
		c.Set(r)
	}
	N := new(field.Element).Subtract(r, feOne)
	N.Multiply(N, c)
	N.Multiply(N, feDMinusOneSq)
	N.Subtract(N, v)
	w0 := new(field.Element).Multiply(s, v)
	w0.Add(w0, w0)
	w1 := new(field.Element).Multiply(N, feSqrtADMinusOne)
	ssq := new(field.Element).Square(s)
	w2 := new(field.Element).Subtract(feOne, ssq)
	w3 := new(field.Element).Add(feOne, ssq)
	X := new(field.Element).Multiply(w0, w3)
	Y := new(field.Element).Multiply(w2, w1)
	Z := new(field.Element).Multiply(w1, w3)
	T := new(field.Element).Multiply(w0, w2)
	p, err := new(Point).SetExtendedCoordinates(X, Y, Z, T)
	if err != nil {
		panic(err)
	}
	return p
}

func rFromUniform(b []byte) *Point {
	b1 := append([]byte(nil), b[:32]...)
	b2 := append([]byte(nil), b[32:64]...)
	b1[31] &= 0x7f
	b2[31] &= 0x7f
	return new(Point).Add(rMap(b1), rMap(b2))
}

func scFromUniform(b []byte) *Scalar {
	s, err := new(Scalar).SetUniformBytes(b)
	if err != nil {
		panic(err)
	}
	return s
}

func scDecode(b []byte) (*Scalar, error) {
	if len(b) != 32 {
		return nil, errEncoding
	}
	s, err := new(Scalar).SetCanonicalBytes(b)
	if err != nil {
		return nil, errEncoding
	}
	return s, nil
}

func G() *Point  { return edwards25519.NewGeneratorPoint() }
func Id() *Point { return edwards25519.NewIdentityPoint() }
