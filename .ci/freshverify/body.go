package main

import "encoding/binary"

type SwapPayload struct {
	O0, O1 Card
	Proof  []byte
}
type StmtProof struct {
	Tag, K int
	Proof  []byte
}
type Move struct {
	Kind  int
	Args  []int
	Swaps []SwapPayload
	Stmts []StmtProof
	HasSt bool
}
type SharesBody struct {
	Pub [][]byte
	Enc [][]byte
}
type Body struct {
	Kind      int
	Raw       []byte
	B32       []byte
	Move      *Move
	Shares    *SharesBody
	ShufN     int
	ShufCards []Card
	ShufProof []byte
	CoinD     *Point
	CoinProof []byte
	Parts     [][]byte
	// Blind: kind 10, m blind steps' outputs (A', B') and proofs.
	BlindOut   []Card
	BlindProof [][]byte
	// Lookup: kind 11, a count lookup over LookupN targets (W ‖ proof).
	LookupN int
	Lookup  []byte
}

func readCard(r *rd, w int) (Card, bool) {
	ww := r.u8()
	if r.err != nil || ww != w {
		return nil, false
	}
	c := Card{}
	for i := 0; i < w; i++ {
		a, err1 := rDecode(r.n(32))
		b, err2 := rDecode(r.n(32))
		if r.err != nil || err1 != nil || err2 != nil {
			return nil, false
		}
		c = append(c, CT{a, b})
	}
	return c, true
}

func decodeBody(b []byte, w int) (*Body, bool) {
	if len(b) == 0 {
		return nil, false
	}
	r := &rd{b: b[1:]}
	bd := &Body{Kind: int(b[0]), Raw: b}
	switch bd.Kind {
	case 1, 2, 5:
		bd.B32 = r.n(32)
	case 3:
		m := &Move{}
		m.Kind = r.u8()
		na := r.u8()
		if na > 16 {
			return nil, false
		}
		for i := 0; i < na; i++ {
			x := r.n(4)
			if x == nil {
				return nil, false
			}
			m.Args = append(m.Args, int(int32(binary.BigEndian.Uint32(x))))
		}
		ns := r.u8()
		if ns > 4 {
			return nil, false
		}
		for i := 0; i < ns; i++ {
			o0, ok1 := readCard(r, w)
			if !ok1 {
				return nil, false
			}
			o1, ok2 := readCard(r, w)
			if !ok2 {
				return nil, false
			}
			p := r.n(224)
			if p == nil || !checkProofBytes(1, 4, 2, p) {
				return nil, false
			}
			m.Swaps = append(m.Swaps, SwapPayload{o0, o1, p})
		}
		if r.err == nil && r.off < len(r.b) {
			m.HasSt = true
			nst := r.u8()
			if nst < 1 || nst > 4 {
				return nil, false
			}
			for i := 0; i < nst; i++ {
				tag := r.u8()
				k := r.u8()
				if k < 1 || k > 64 {
					return nil, false
				}
				var p []byte
				if tag == 1 {
					p = r.n(32 * (6*k - 1))
					if p == nil || !checkProofBytes(k-1, 3*k, 2*k, p) {
						return nil, false
					}
				} else if tag == 2 {
					p = r.n(224 * k)
					if p == nil {
						return nil, false
					}
					for j := 0; j < k; j++ {
						if !checkProofBytes(0, 4, 3, p[224*j:224*j+224]) {
							return nil, false
						}
					}
				} else {
					return nil, false
				}
				m.Stmts = append(m.Stmts, StmtProof{tag, k, p})
			}
		}
		bd.Move = m
	case 4:
		s := &SharesBody{}
		p := r.u8()
		for i := 0; i < p; i++ {
			x := r.n(r.u16())
			if x == nil {
				return nil, false
			}
			if _, err := ParseShare(x); err != nil {
				return nil, false
			}
			s.Pub = append(s.Pub, x)
		}
		q := r.u8()
		if p+q > 256 {
			return nil, false
		}
		for i := 0; i < q; i++ {
			x := r.n(r.u16())
			if x == nil {
				return nil, false
			}
			if _, err := ParseEncShare(x); err != nil {
				return nil, false
			}
			s.Enc = append(s.Enc, x)
		}
		bd.Shares = s
	case 6:
		n := r.u8()
		if n < 1 || n > 64 {
			return nil, false
		}
		bd.ShufN = n
		for i := 0; i < n; i++ {
			c, ok := readCard(r, w)
			if !ok {
				return nil, false
			}
			bd.ShufCards = append(bd.ShufCards, c)
		}
		// proof size 32(5n+6+3w)
		bd.ShufProof = r.n(32 * (5*n + 6 + 3*w))
		if bd.ShufProof == nil || !checkProofBytes(0, 2*n+3+2*w+n, 3+w+2*n, bd.ShufProof) {
			return nil, false
		}
	case 9:
		// mix (protocol.md §4 kind 9): n u8 (1..64) ‖ n cards of width mw
		// (whatever the table's) ‖ shuffle proof of SPEC §5.4 with w = mw,
		// mw = card 0's width byte, 2 (a plurality kill's cards or rows)
		// or 1 (a one-vote kill's code sums).
		n := r.u8()
		if n < 1 || n > 64 || r.err != nil || r.off >= len(r.b) {
			return nil, false
		}
		mw := int(r.b[r.off])
		if mw != 1 && mw != 2 {
			return nil, false
		}
		bd.ShufN = n
		for i := 0; i < n; i++ {
			c, ok := readCard(r, mw)
			if !ok {
				return nil, false
			}
			bd.ShufCards = append(bd.ShufCards, c)
		}
		bd.ShufProof = r.n(32 * (5*n + 6 + 3*mw))
		if bd.ShufProof == nil || !checkProofBytes(0, 2*n+3+2*mw+n, 3+mw+2*n, bd.ShufProof) {
			return nil, false
		}
	case 10:
		// blind (protocol.md §4 kind 10): m steps (1..64) of 224 bytes,
		// each A' ‖ B' ‖ R×3 ‖ s×2; m is the body's length over 224.
		rest := len(r.b) - r.off
		if rest <= 0 || rest%224 != 0 || rest/224 > 64 {
			return nil, false
		}
		for i := 0; i < rest/224; i++ {
			x := r.n(224)
			a, err1 := rDecode(x[:32])
			b, err2 := rDecode(x[32:64])
			if err1 != nil || err2 != nil || !checkProofBytes(0, 3, 2, x[64:]) {
				return nil, false
			}
			bd.BlindOut = append(bd.BlindOut, Card{CT{a, b}})
			bd.BlindProof = append(bd.BlindProof, x[64:])
		}
	case 11:
		// lookup (protocol.md §4 kind 11): n u8 (1..64) ‖ W_A ‖ W_B ‖
		// R×(2n+2) ‖ s×(2n+1).
		n := r.u8()
		if n < 1 || n > 64 || r.err != nil {
			return nil, false
		}
		x := r.n(64 + 32*(4*n+3))
		if x == nil {
			return nil, false
		}
		_, err1 := rDecode(x[:32])
		_, err2 := rDecode(x[32:64])
		if err1 != nil || err2 != nil || !checkProofBytes(0, 2*n+2, 2*n+1, x[64:]) {
			return nil, false
		}
		bd.LookupN, bd.Lookup = n, x
	case 7:
		x := r.n(128)
		if x == nil {
			return nil, false
		}
		d, err := rDecode(x[:32])
		if err != nil || !checkProofBytes(0, 2, 1, x[32:]) {
			return nil, false
		}
		bd.CoinD = d
		bd.CoinProof = x[32:]
	case 8:
		p := r.u8()
		if p < 1 || p > 16 {
			return nil, false
		}
		for i := 0; i < p; i++ {
			l := r.u32()
			if l < 1 || l > 65536 {
				return nil, false
			}
			x := r.n(l)
			if x == nil {
				return nil, false
			}
			bd.Parts = append(bd.Parts, x)
		}
	default:
		return nil, false
	}
	if !r.done() {
		return nil, false
	}
	return bd, true
}
