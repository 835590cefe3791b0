package mental

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// This file is the verifiable shuffle (SPEC.md §5): a deck of up to
// MaxShuffle cards of equal width is permuted with a secret uniformly random
// permutation and re-masked, with a Terelius–Wikström proof of shuffle in
// the form written out by Haenni, Locher, Koenig and Dubuis, "Pseudo-Code
// Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017 workshops,
// GenShuffleProof / CheckShuffleProof), in additive notation and generalised
// to tuples: one re-masking scalar per ciphertext of a card, and the
// re-encryption part of the proof (t4, s4) done once per component.
//
// Notation (SPEC.md §5.2): the deck is in_0..in_{n-1}, the output is
// out_i = in_{π(i)} + (ρ_{i,k}·G, ρ_{i,k}·H) for each component k; h_0 and
// h_1..h_n are generators with unknown discrete logarithms.

// MaxShuffle is the largest deck a shuffle proof covers (SPEC.md §5.1).
const MaxShuffle = 64

// Labels (SPEC.md §2.1, §5.3).
const (
	labelShuffle          = "masque/shuffle/v1"
	labelShuffleGenerator = "shuffle-generator"
)

// ErrShuffle reports a deck or proof whose shape does not fit a shuffle:
// empty or too long, mixed widths, or a proof for another n or width.
var ErrShuffle = errors.New("mental: malformed shuffle")

// ShuffleProof is a Terelius–Wikström proof that out is a permutation of in
// re-masked under the joint key (SPEC.md §5.2). Its size is fixed by n and
// the width w: 3n+3+2w points and 2n+3+w scalars (SPEC.md §5.4).
type ShuffleProof struct {
	n, w int

	permCommit  []*Element // c_j, one per input card
	chainCommit []*Element // ĉ_i, i = 1..n
	t1, t2, t3  *Element
	t4a, t4b    []*Element // one pair per component
	tHat        []*Element // t̂_i, i = 1..n

	s1, s2, s3 *Scalar
	s4         []*Scalar // one per component
	sHat       []*Scalar // ŝ_i
	sPrime     []*Scalar // s'_i

	known encodings // the points' encodings, when decoded from bytes
}

// shuffleGens holds h_0..h_MaxShuffle and their encodings, computed once.
type shuffleGens struct {
	h   []*Element
	enc [][]byte
}

var shuffleGenerators = sync.OnceValue(func() *shuffleGens {
	g := &shuffleGens{}
	for i := 0; i <= MaxShuffle; i++ {
		e := hashToElement(labelShuffleGenerator, uint64(i))
		g.h = append(g.h, e)
		g.enc = append(g.enc, e.AppendBytes(nil))
	}
	return g
})

// ShuffleProofSize returns the length in bytes of an encoded proof for n
// cards of width w (SPEC.md §5.4): 32·(5n + 6 + 3w).
func ShuffleProofSize(n, w int) int { return 32 * (5*n + 6 + 3*w) }

// shuffleShape checks a deck and returns its width.
func shuffleShape(deck []Card) (int, error) {
	if len(deck) == 0 || len(deck) > MaxShuffle {
		return 0, fmt.Errorf("%w: %d cards, want 1..%d", ErrShuffle, len(deck), MaxShuffle)
	}
	w := len(deck[0])
	if w == 0 || w > MaxWidth {
		return 0, fmt.Errorf("%w: card width %d, want 1..%d", ErrShuffle, w, MaxWidth)
	}
	for i, c := range deck {
		if len(c) != w {
			return 0, fmt.Errorf("%w: card %d has width %d, card 0 has %d", ErrShuffle, i, len(c), w)
		}
		for _, ct := range c {
			if ct.A == nil || ct.B == nil {
				return 0, fmt.Errorf("%w: card %d has a nil point", ErrShuffle, i)
			}
		}
	}
	return w, nil
}

// encodeDeck returns each card's A_1||B_1||…||A_w||B_w (64w bytes), using
// (and filling) the ciphertexts' encoding cache.
func encodeDeck(deck []Card) [][]byte {
	out := make([][]byte, len(deck))
	for i, c := range deck {
		b := make([]byte, 0, 64*len(c))
		for x := range c {
			b = append(b, c[x].encoding()[:]...)
		}
		out[i] = b
	}
	return out
}

// shuffleStatement starts the transcript and absorbs the statement in the
// order of SPEC.md §5.3: context, generator label, H, n, w, every input
// card, every output card.
func (k *JointKey) shuffleStatement(ctx Context, n, w int, inEnc, outEnc [][]byte) *transcriptT {
	t := ctx.transcript(labelShuffle)
	t.Append("generators", []byte(labelShuffleGenerator))
	t.Append("H", k.hBytes())
	t.AppendUint64("n", uint64(n))
	t.AppendUint64("width", uint64(w))
	for _, c := range inEnc {
		t.Append("in", c)
	}
	for _, c := range outEnc {
		t.Append("out", c)
	}
	return t
}

// shuffleChallengesU draws u_0..u_{n-1} after the permutation commitments.
func shuffleChallengesU(t *transcriptT, permCommit []*Element, known encodings) []*Scalar {
	absorbElements(t, "perm-commit", permCommit, known)
	u := make([]*Scalar, len(permCommit))
	for j := range u {
		u[j] = t.ChallengeScalar("u")
	}
	return u
}

// shuffleChallengeC absorbs the chain commitments and the t-values and
// draws the main challenge c.
func shuffleChallengeC(t *transcriptT, p *ShuffleProof) *Scalar {
	absorbElements(t, "chain-commit", p.chainCommit, p.known)
	absorbElement(t, "t1", p.t1, p.known)
	absorbElement(t, "t2", p.t2, p.known)
	absorbElement(t, "t3", p.t3, p.known)
	for k := range p.t4a {
		absorbElement(t, "t4a", p.t4a[k], p.known)
		absorbElement(t, "t4b", p.t4b[k], p.known)
	}
	absorbElements(t, "t-hat", p.tHat, p.known)
	return t.ChallengeScalar("c")
}

// shuffleChallenges recomputes the verifier's challenges u_0..u_{n-1} and c
// for a proof of the right shape (SPEC.md §5.3).
func (k *JointKey) shuffleChallenges(ctx Context, in, out []Card, p *ShuffleProof) ([]*Scalar, *Scalar) {
	t := k.shuffleStatement(ctx, len(in), len(in[0]), encodeDeck(in), encodeDeck(out))
	u := shuffleChallengesU(t, p.permCommit, p.known)
	return u, shuffleChallengeC(t, p)
}

// Shuffle permutes deck with a uniformly random secret permutation and
// re-masks every ciphertext, returning the new deck and a proof
// (SPEC.md §5). The deck must hold 1..MaxShuffle cards of one width.
//
// out[i] = deck[π(i)] + (ρ_{i,k}·G, ρ_{i,k}·H) per component k. The
// permutation and the ρ come from crypto/rand; the proof's nonces are
// hedged (SPEC.md §2.3). The secret-dependent work (selecting by π,
// multiplying by ρ, the commitments) runs in time that depends only on n
// and the width.
func (k *JointKey) Shuffle(ctx Context, deck []Card) (out []Card, proof *ShuffleProof, err error) {
	w, err := shuffleShape(deck)
	if err != nil {
		return nil, nil, err
	}
	perm := shufflePermutation(len(deck))
	rho := make([][]*Scalar, len(deck))
	for i := range rho {
		rho[i] = randomScalars(w)
	}
	return k.shuffleWith(ctx, deck, perm, rho)
}

// ShuffleTracked is [JointKey.Shuffle] that also returns the permutation:
// out[i] is deck[perm[i]] re-masked. The permutation is the shuffler's
// secret; a seat that knew the input cards uses it to know where each one
// went (an unmasked Grimm player re-shuffling its own hidden hand), and
// must never publish it.
func (k *JointKey) ShuffleTracked(ctx Context, deck []Card) (out []Card, proof *ShuffleProof, perm []int, err error) {
	w, err := shuffleShape(deck)
	if err != nil {
		return nil, nil, nil, err
	}
	perm = shufflePermutation(len(deck))
	rho := make([][]*Scalar, len(deck))
	for i := range rho {
		rho[i] = randomScalars(w)
	}
	out, proof, err = k.shuffleWith(ctx, deck, perm, rho)
	if err != nil {
		return nil, nil, nil, err
	}
	return out, proof, perm, nil
}

// shufflePermutation returns a uniformly random permutation of 0..n-1:
// Fisher–Yates with indices drawn from crypto/rand by rejection sampling
// (no modulo bias). The swap touches every slot below i, so memory access
// does not depend on the secret index. The number of rejected draws is
// independent of the accepted values.
func shufflePermutation(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var buf [4]byte
	for i := n - 1; i > 0; i-- {
		bound := uint32(i + 1)
		mask := uint32(1)
		for mask < bound-1 {
			mask = mask<<1 | 1
		}
		var j uint32
		for {
			if _, err := rand.Read(buf[:]); err != nil {
				panic("mental: crypto/rand failed: " + err.Error())
			}
			j = binary.LittleEndian.Uint32(buf[:]) & mask
			if j < bound {
				break
			}
		}
		// Constant-time swap of p[i] and p[j].
		pj := 0
		for x := 0; x <= i; x++ {
			pj |= p[x] & -subtle.ConstantTimeEq(int32(x), int32(j))
		}
		pi := p[i]
		for x := 0; x <= i; x++ {
			m := -subtle.ConstantTimeEq(int32(x), int32(j))
			p[x] ^= m & (p[x] ^ pi)
		}
		p[i] = pj
	}
	return p
}

// shuffleSmallScalar returns v as a scalar (v < 2^32).
func shuffleSmallScalar(v int) *Scalar {
	var b [64]byte
	binary.LittleEndian.PutUint32(b[:], uint32(v))
	return ristretto.UniformScalar(b[:])
}

// shuffleWith is Shuffle with the permutation and the re-masking scalars
// given (tests and vectors). perm must be a permutation of 0..n-1 and rho
// hold n rows of width scalars. out[i] = deck[perm[i]] re-masked by rho[i].
func (k *JointKey) shuffleWith(ctx Context, deck []Card, perm []int, rho [][]*Scalar) ([]Card, *ShuffleProof, error) {
	w, err := shuffleShape(deck)
	if err != nil {
		return nil, nil, err
	}
	n := len(deck)
	if len(perm) != n || len(rho) != n {
		return nil, nil, fmt.Errorf("%w: permutation or randomness of the wrong length", ErrShuffle)
	}
	// perm is secret: check it without indexing memory by its entries.
	bad := 0
	for _, x := range perm {
		if uint(x) >= uint(n) {
			bad = 1
		}
	}
	for v := range n {
		count := 0
		for _, x := range perm {
			count += subtle.ConstantTimeEq(int32(x), int32(v))
		}
		bad |= count ^ 1
	}
	if bad != 0 {
		return nil, nil, fmt.Errorf("%w: not a permutation", ErrShuffle)
	}
	for _, r := range rho {
		if len(r) != w {
			return nil, nil, fmt.Errorf("%w: randomness of the wrong width", ErrShuffle)
		}
	}
	// Outputs: select deck[perm[i]] by a constant-time scan over the
	// encodings, decode, re-mask.
	inEnc := encodeDeck(deck)
	out := make([]Card, n)
	sel := make([]byte, 64*w)
	for i := range out {
		for j := range inEnc {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(j), int32(perm[i])), sel, inEnc[j])
		}
		c := make(Card, w)
		for x := range c {
			A, errA := decodeElement(sel[64*x : 64*x+32])
			B, errB := decodeElement(sel[64*x+32 : 64*x+64])
			if errA != nil || errB != nil {
				panic("mental: shuffle: re-decoding an encoded point failed")
			}
			sG := ristretto.NewIdentityElement().ScalarBaseMult(rho[i][x])
			sH := ristretto.NewIdentityElement().ScalarMult(rho[i][x], k.H)
			c[x] = Ciphertext{A: A.Add(A, sG), B: B.Add(B, sH)}
		}
		out[i] = c
	}
	p, err := k.proveShuffle(ctx, deck, out, perm, rho)
	if err != nil {
		return nil, nil, err
	}
	return out, p, nil
}

// proveShuffle proves that out[i] = in[perm[i]] + rho[i]·(G, H) (SPEC.md
// §5.2). It does not check that the claim holds: tests use it to make an
// honest prover attempt a false statement, which must not verify.
func (k *JointKey) proveShuffle(ctx Context, in, out []Card, perm []int, rho [][]*Scalar) (*ShuffleProof, error) {
	n, w := len(in), len(in[0])
	if wo, err := shuffleShape(out); err != nil || wo != w || len(out) != n {
		return nil, fmt.Errorf("%w: output deck does not match the input", ErrShuffle)
	}
	gens := shuffleGenerators()
	G := generator
	t := k.shuffleStatement(ctx, n, w, encodeDeck(in), encodeDeck(out))
	secrets := make([]*Scalar, 0, n*(1+w))
	for i := range perm {
		secrets = append(secrets, shuffleSmallScalar(perm[i]))
		secrets = append(secrets, rho[i]...)
	}
	ns := t.Nonces(secrets...)

	p := &ShuffleProof{n: n, w: w}

	// Permutation commitments c_j = r_j·G + h_{1+π⁻¹(j)}: input j goes to
	// output π⁻¹(j), found by a constant-time scan over perm.
	r := make([]*Scalar, n)
	hsel := make([]byte, 32)
	p.permCommit = make([]*Element, n)
	for j := range n {
		for i := range n {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(perm[i]), int32(j)), hsel, gens.enc[1+i])
		}
		h, err := decodeElement(hsel)
		if err != nil {
			panic("mental: shuffle: re-decoding a generator failed")
		}
		r[j] = ns.Scalar()
		c := ristretto.NewIdentityElement().ScalarBaseMult(r[j])
		p.permCommit[j] = c.Add(c, h)
	}

	u := shuffleChallengesU(t, p.permCommit, p.known)
	// u'_i = u_{π(i)}, selected in constant time.
	uEnc := make([][]byte, n)
	for j := range u {
		uEnc[j] = ristretto.AppendScalar(nil, u[j])
	}
	uPrime := make([]*Scalar, n)
	var wide [64]byte
	for i := range n {
		for j := range n {
			subtle.ConstantTimeCopy(subtle.ConstantTimeEq(int32(j), int32(perm[i])), wide[:32], uEnc[j])
		}
		uPrime[i] = ristretto.UniformScalar(wide[:])
	}

	// Chain ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}, ĉ_0 = h_0.
	rHat := make([]*Scalar, n)
	p.chainCommit = make([]*Element, n)
	prev := gens.h[0]
	for i := range n {
		rHat[i] = ns.Scalar()
		p.chainCommit[i] = ristretto.NewIdentityElement().MultiScalarMult(
			[]*Scalar{rHat[i], uPrime[i]}, []*Element{G, prev})
		prev = p.chainCommit[i]
	}

	// Nonces and t-values.
	w1, w2, w3 := ns.Scalar(), ns.Scalar(), ns.Scalar()
	w4 := make([]*Scalar, w)
	for x := range w4 {
		w4[x] = ns.Scalar()
	}
	wHat := make([]*Scalar, n)
	wPrime := make([]*Scalar, n)
	for i := range n {
		wHat[i] = ns.Scalar()
	}
	for i := range n {
		wPrime[i] = ns.Scalar()
	}
	p.t1 = ristretto.NewIdentityElement().ScalarBaseMult(w1)
	p.t2 = ristretto.NewIdentityElement().ScalarBaseMult(w2)
	{
		sc := append([]*Scalar{w3}, wPrime...)
		pt := append([]*Element{G}, gens.h[1:1+n]...)
		p.t3 = ristretto.NewIdentityElement().MultiScalarMult(sc, pt)
	}
	p.t4a = make([]*Element, w)
	p.t4b = make([]*Element, w)
	for x := range w {
		neg := ristretto.NewScalar().Negate(w4[x])
		sc := append([]*Scalar{neg}, wPrime...)
		ptA := make([]*Element, 1, n+1)
		ptB := make([]*Element, 1, n+1)
		ptA[0], ptB[0] = G, k.H
		for i := range n {
			ptA = append(ptA, out[i][x].A)
			ptB = append(ptB, out[i][x].B)
		}
		p.t4a[x] = ristretto.NewIdentityElement().MultiScalarMult(sc, ptA)
		p.t4b[x] = ristretto.NewIdentityElement().MultiScalarMult(sc, ptB)
	}
	p.tHat = make([]*Element, n)
	prev = gens.h[0]
	for i := range n {
		p.tHat[i] = ristretto.NewIdentityElement().MultiScalarMult(
			[]*Scalar{wHat[i], wPrime[i]}, []*Element{G, prev})
		prev = p.chainCommit[i]
	}

	c := shuffleChallengeC(t, p)

	// Responses s = ω + c·witness.
	resp := func(omega, wit *Scalar) *Scalar {
		s := ristretto.NewScalar().Multiply(c, wit)
		return s.Add(s, omega)
	}
	rBar := ristretto.NewScalar()
	rTilde := ristretto.NewScalar()
	tmp := ristretto.NewScalar()
	for j := range n {
		rBar.Add(rBar, r[j])
		rTilde.Add(rTilde, tmp.Multiply(r[j], u[j]))
	}
	// r̂ = Σ r̂_i·v_i with v_i = Π_{l>i} u'_l.
	rHatSum := ristretto.NewScalar()
	v := shuffleSmallScalar(1)
	for i := n - 1; i >= 0; i-- {
		rHatSum.Add(rHatSum, tmp.Multiply(rHat[i], v))
		v = ristretto.NewScalar().Multiply(v, uPrime[i])
	}
	p.s1 = resp(w1, rBar)
	p.s2 = resp(w2, rHatSum)
	p.s3 = resp(w3, rTilde)
	p.s4 = make([]*Scalar, w)
	for x := range w {
		rx := ristretto.NewScalar()
		for i := range n {
			rx.Add(rx, tmp.Multiply(rho[i][x], uPrime[i]))
		}
		p.s4[x] = resp(w4[x], rx)
	}
	p.sHat = make([]*Scalar, n)
	p.sPrime = make([]*Scalar, n)
	for i := range n {
		p.sHat[i] = resp(wHat[i], rHat[i])
		p.sPrime[i] = resp(wPrime[i], uPrime[i])
	}
	return p, nil
}

// VerifyShuffle checks that out is in permuted and re-masked under k, as
// proof claims (SPEC.md §5.5). All 2w+n+3 equations are checked at once
// with one weighted multi-scalar multiplication. Every rejection wraps
// ErrProof; one caused by the shape of the decks or the proof also wraps
// ErrShuffle. Variable time (public data only).
func (k *JointKey) VerifyShuffle(ctx Context, in, out []Card, proof *ShuffleProof) error {
	checks, seed, err := k.shuffleChecks(ctx, in, out, proof)
	if err != nil {
		return err
	}
	if !batchHolds(seed, checks) {
		return fmt.Errorf("shuffle: %w", ErrProof)
	}
	return nil
}

// shuffleChecks recomputes the challenges of proof and returns the
// equations that must hold (SPEC.md §5.5), for VerifyShuffle or for batch
// verification together with other proofs, and the bytes that must seed the
// batch weights: the challenge c (which binds the statement and every
// commitment) followed by every response.
func (k *JointKey) shuffleChecks(ctx Context, in, out []Card, p *ShuffleProof) ([]equationCheck, []byte, error) {
	w, err := shuffleShape(in)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: shuffle input: %w", ErrProof, err)
	}
	wo, err := shuffleShape(out)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: shuffle output: %w", ErrProof, err)
	}
	n := len(in)
	if len(out) != n || wo != w {
		return nil, nil, fmt.Errorf("%w: %w: %d×%d cards in, %d×%d out", ErrProof, ErrShuffle, n, w, len(out), wo)
	}
	if p == nil || p.n != n || p.w != w || !p.wellFormed() {
		return nil, nil, fmt.Errorf("%w: %w: proof is not for %d cards of width %d", ErrProof, ErrShuffle, n, w)
	}
	gens := shuffleGenerators()
	G := generator

	u, c := k.shuffleChallenges(ctx, in, out, p)

	one := shuffleSmallScalar(1)
	minus1 := ristretto.NewScalar().Negate(one)
	negc := ristretto.NewScalar().Negate(c)
	negcu := make([]*Scalar, n)
	uProd := ristretto.NewScalar().Set(one)
	for j := range n {
		negcu[j] = ristretto.NewScalar().Multiply(negc, u[j])
		uProd.Multiply(uProd, u[j])
	}
	var checks []equationCheck

	// (1) s1·G = t1 + c·(Σ c_j − Σ h_i)
	e1 := equationCheck{scalars: []*Scalar{p.s1, minus1}, points: []*Element{G, p.t1}}
	for j := range n {
		e1.scalars = append(e1.scalars, negc, c)
		e1.points = append(e1.points, p.permCommit[j], gens.h[1+j])
	}
	checks = append(checks, e1)

	// (2) s2·G = t2 + c·(ĉ_n − (Π u_j)·h_0)
	cu := ristretto.NewScalar().Multiply(c, uProd)
	checks = append(checks, equationCheck{
		scalars: []*Scalar{p.s2, minus1, negc, cu},
		points:  []*Element{G, p.t2, p.chainCommit[n-1], gens.h[0]},
	})

	// (3) s3·G + Σ s'_i·h_i = t3 + c·Σ u_j·c_j
	e3 := equationCheck{scalars: []*Scalar{p.s3, minus1}, points: []*Element{G, p.t3}}
	for i := range n {
		e3.scalars = append(e3.scalars, p.sPrime[i], negcu[i])
		e3.points = append(e3.points, gens.h[1+i], p.permCommit[i])
	}
	checks = append(checks, e3)

	// (4) per component x:
	//   Σ s'_i·A'_i − s4·G = t4a + c·Σ u_j·A_j
	//   Σ s'_i·B'_i − s4·H = t4b + c·Σ u_j·B_j
	for x := range w {
		negs4 := ristretto.NewScalar().Negate(p.s4[x])
		ea := equationCheck{scalars: []*Scalar{negs4, minus1}, points: []*Element{G, p.t4a[x]}}
		eb := equationCheck{scalars: []*Scalar{negs4, minus1}, points: []*Element{k.H, p.t4b[x]}}
		for i := range n {
			ea.scalars = append(ea.scalars, p.sPrime[i], negcu[i])
			ea.points = append(ea.points, out[i][x].A, in[i][x].A)
			eb.scalars = append(eb.scalars, p.sPrime[i], negcu[i])
			eb.points = append(eb.points, out[i][x].B, in[i][x].B)
		}
		checks = append(checks, ea, eb)
	}

	// (5) per i: ŝ_i·G + s'_i·ĉ_{i-1} = t̂_i + c·ĉ_i, ĉ_0 = h_0
	prev := gens.h[0]
	for i := range n {
		checks = append(checks, equationCheck{
			scalars: []*Scalar{p.sHat[i], p.sPrime[i], minus1, negc},
			points:  []*Element{G, prev, p.tHat[i], p.chainCommit[i]},
		})
		prev = p.chainCommit[i]
	}

	seed := ristretto.AppendScalar(make([]byte, 0, 32*(3*n+4+w)), c)
	seed = p.appendResponses(seed)
	return checks, seed, nil
}

// wellFormed reports whether every slice has the length n and w require
// and no field is nil.
func (p *ShuffleProof) wellFormed() bool {
	if p.n < 1 || p.n > MaxShuffle || p.w < 1 || p.w > MaxWidth {
		return false
	}
	if len(p.permCommit) != p.n || len(p.chainCommit) != p.n || len(p.tHat) != p.n ||
		len(p.sHat) != p.n || len(p.sPrime) != p.n ||
		len(p.t4a) != p.w || len(p.t4b) != p.w || len(p.s4) != p.w {
		return false
	}
	if p.t1 == nil || p.t2 == nil || p.t3 == nil || p.s1 == nil || p.s2 == nil || p.s3 == nil {
		return false
	}
	for _, s := range [][]*Element{p.permCommit, p.chainCommit, p.t4a, p.t4b, p.tHat} {
		for _, e := range s {
			if e == nil {
				return false
			}
		}
	}
	for _, s := range [][]*Scalar{p.s4, p.sHat, p.sPrime} {
		for _, e := range s {
			if e == nil {
				return false
			}
		}
	}
	return true
}

func (p *ShuffleProof) appendResponses(b []byte) []byte {
	b = appendScalar(b, p.s1)
	b = appendScalar(b, p.s2)
	b = appendScalar(b, p.s3)
	for _, s := range p.s4 {
		b = appendScalar(b, s)
	}
	for _, s := range p.sHat {
		b = appendScalar(b, s)
	}
	for _, s := range p.sPrime {
		b = appendScalar(b, s)
	}
	return b
}

// AppendBinary appends the proof's encoding (SPEC.md §5.4): c_1..c_n,
// ĉ_1..ĉ_n, t1, t2, t3, (t4a_k, t4b_k) for k = 1..w, t̂_1..t̂_n, then s1, s2,
// s3, s4_1..s4_w, ŝ_1..ŝ_n, s'_1..s'_n; 32 bytes each, no header (n and w
// come from the statement).
func (p *ShuffleProof) AppendBinary(b []byte) ([]byte, error) {
	if !p.wellFormed() {
		return nil, fmt.Errorf("%w: incomplete proof", ErrShuffle)
	}
	for _, e := range p.permCommit {
		b = appendElement(b, e)
	}
	for _, e := range p.chainCommit {
		b = appendElement(b, e)
	}
	b = appendElement(b, p.t1)
	b = appendElement(b, p.t2)
	b = appendElement(b, p.t3)
	for x := range p.t4a {
		b = appendElement(b, p.t4a[x])
		b = appendElement(b, p.t4b[x])
	}
	for _, e := range p.tHat {
		b = appendElement(b, e)
	}
	return p.appendResponses(b), nil
}

// MarshalBinary returns the canonical encoding of the proof
// (ShuffleProofSize(n, w) bytes).
func (p *ShuffleProof) MarshalBinary() ([]byte, error) {
	return p.AppendBinary(make([]byte, 0, ShuffleProofSize(p.n, p.w)))
}

// UnmarshalShuffleProof decodes a proof for n cards of width w strictly:
// the exact length, canonical points and scalars, no trailing bytes. It
// does not verify the proof; call VerifyShuffle.
func UnmarshalShuffleProof(b []byte, n, width int) (*ShuffleProof, error) {
	if n < 1 || n > MaxShuffle || width < 1 || width > MaxWidth {
		return nil, fmt.Errorf("%w: %d cards of width %d", ErrShuffle, n, width)
	}
	if len(b) != ShuffleProofSize(n, width) {
		return nil, fmt.Errorf("%w: shuffle proof is %d bytes, want %d", ErrEncoding, len(b), ShuffleProofSize(n, width))
	}
	r := &reader{b: b, known: encodings{}}
	p := &ShuffleProof{n: n, w: width, known: r.known}
	elems := func(k int, what string) []*Element {
		s := make([]*Element, k)
		for i := range s {
			s[i] = r.element(what)
		}
		return s
	}
	scalars := func(k int, what string) []*Scalar {
		s := make([]*Scalar, k)
		for i := range s {
			s[i] = r.scalar(what)
		}
		return s
	}
	p.permCommit = elems(n, "shuffle permutation commitment")
	p.chainCommit = elems(n, "shuffle chain commitment")
	p.t1 = r.element("shuffle t1")
	p.t2 = r.element("shuffle t2")
	p.t3 = r.element("shuffle t3")
	p.t4a = make([]*Element, width)
	p.t4b = make([]*Element, width)
	for x := range width {
		p.t4a[x] = r.element("shuffle t4a")
		p.t4b[x] = r.element("shuffle t4b")
	}
	p.tHat = elems(n, "shuffle t-hat")
	p.s1 = r.scalar("shuffle s1")
	p.s2 = r.scalar("shuffle s2")
	p.s3 = r.scalar("shuffle s3")
	p.s4 = scalars(width, "shuffle s4")
	p.sHat = scalars(n, "shuffle s-hat")
	p.sPrime = scalars(n, "shuffle s-prime")
	if err := r.done("shuffle proof"); err != nil {
		return nil, err
	}
	return p, nil
}
