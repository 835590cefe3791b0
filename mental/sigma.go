package mental

import (
	"crypto/sha3"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"

	"github.com/masque-games/masque/mental/internal/msm"
	"github.com/masque-games/masque/mental/internal/transcript"
)

// This file is the one sigma-protocol engine behind every proof in the
// package (SPEC.md §4): proofs of knowledge of scalars satisfying linear
// equations over ristretto255, composed with AND and OR (Cramer–Damgård–
// Schoenmakers), made non-interactive with the transcript of
// internal/transcript, and verified one by one or in a batch with a single
// multi-scalar multiplication.

// Term is one product in an equation: either a witness times a public base
// (on the secret side; Witness indexes the leaf's witnesses) or a public
// coefficient times a public point (on the public side; a nil Coef is 1).
type Term struct {
	Witness int
	Coef    *Scalar
	Base    *Element
	// dlog, if set on a secret term, is a scalar with Base = dlog·G that
	// the prover knows (its own public key): the commitment then adds
	// u·dlog to the coefficient of G, one fixed-base multiplication for
	// all such terms, instead of a variable-base term. Prover only and
	// secret: it is never absorbed, encoded or read by a verifier, and
	// the commitment is the same point either way.
	dlog *Scalar
}

// Equation states Σ_secret w_i·B_i = Σ_public c_j·Q_j.
type Equation struct {
	Secret []Term
	Public []Term
	// value, if set, is Σ_public c_j·Q_j precomputed by a prover that
	// knows a cheaper way to get it; verifiers never read it.
	value *Element
}

// Statement is an AND of linear equations over Witnesses secret scalars.
type Statement struct {
	Witnesses int
	Equations []Equation
}

type formulaOp uint8

const (
	opLeaf formulaOp = iota + 1
	opAnd
	opOr
)

// Formula is a monotone formula (AND, OR) over statements.
type Formula struct {
	op       formulaOp
	leaf     *Statement
	children []*Formula
}

// Leaf returns the formula consisting of one statement.
func Leaf(s Statement) *Formula { return &Formula{op: opLeaf, leaf: &s} }

// And returns the conjunction of fs.
func And(fs ...*Formula) *Formula { return &Formula{op: opAnd, children: fs} }

// Or returns the disjunction of fs. A proof shows that at least one holds
// and hides which.
func Or(fs ...*Formula) *Formula { return &Formula{op: opOr, children: fs} }

// Assignment is the prover's secret input for a formula: the witnesses of
// every leaf (in depth-first order; a leaf that is not true gets any
// values, conventionally zeros) and, for every OR node (depth-first order),
// a bit per child marking the one child the prover will prove for real.
// Exactly one bit per OR node must be 1.
type Assignment struct {
	Leaves [][]*Scalar
	Real   [][]int
}

// SigmaProof is a proof for a Formula (SPEC.md §4.2): the challenges of
// every OR node's children but the last, in depth-first order, then one
// commitment per equation and one response per witness of every leaf, in
// depth-first order.
type SigmaProof struct {
	challenges  []*Scalar
	commitments []*Element
	responses   []*Scalar
	// known holds the commitments' encodings (set when proving or
	// decoding), absorbed into the transcript without re-encoding. It is
	// keyed by pointer: a commitment replaced after decoding is encoded
	// afresh, never absorbed under its predecessor's bytes.
	known encodings
}

// commitmentBytes returns the concatenated encodings of the commitments.
func (p *SigmaProof) commitmentBytes() []byte {
	b := make([]byte, 0, 32*len(p.commitments))
	for _, e := range p.commitments {
		b = append(b, encodingOf(e, p.known)...)
	}
	return b
}

// eachLeaf calls fn on every leaf statement of f, depth first.
func (f *Formula) eachLeaf(fn func(*Statement)) {
	if f.op == opLeaf {
		fn(f.leaf)
		return
	}
	for _, c := range f.children {
		c.eachLeaf(fn)
	}
}

// shape counts what a proof for f holds.
func (f *Formula) shape() (chals, comms, resps int, err error) {
	switch f.op {
	case opLeaf:
		if f.leaf.Witnesses < 0 || len(f.leaf.Equations) == 0 {
			return 0, 0, 0, errors.New("mental: empty statement")
		}
		return 0, len(f.leaf.Equations), f.leaf.Witnesses, nil
	case opAnd, opOr:
		if len(f.children) == 0 {
			return 0, 0, 0, errors.New("mental: empty AND/OR")
		}
		if f.op == opOr {
			chals = len(f.children) - 1
		}
		for _, c := range f.children {
			a, b, d, err := c.shape()
			if err != nil {
				return 0, 0, 0, err
			}
			chals, comms, resps = chals+a, comms+b, resps+d
		}
		return chals, comms, resps, nil
	}
	return 0, 0, 0, errors.New("mental: malformed formula")
}

// absorbShape binds the formula's structure (not its points, which the
// protocol absorbs itself) into t.
func (f *Formula) absorbShape(t *transcript.Transcript) {
	var walk func(g *Formula)
	buf := make([]byte, 0, 64)
	walk = func(g *Formula) {
		buf = append(buf, byte(g.op))
		switch g.op {
		case opLeaf:
			buf = binary.BigEndian.AppendUint32(buf, uint32(g.leaf.Witnesses))
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(g.leaf.Equations)))
			for _, e := range g.leaf.Equations {
				buf = binary.BigEndian.AppendUint32(buf, uint32(len(e.Secret)))
				for _, s := range e.Secret {
					buf = binary.BigEndian.AppendUint32(buf, uint32(s.Witness))
				}
				buf = binary.BigEndian.AppendUint32(buf, uint32(len(e.Public)))
			}
		default:
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(g.children)))
			for _, c := range g.children {
				walk(c)
			}
		}
	}
	walk(f)
	t.Append("formula-shape", buf)
}

// publicValue computes Σ c_j·Q_j (variable time: public data). Terms
// without a coefficient are added, not multiplied.
func (e *Equation) publicValue() *Element {
	if e.value != nil {
		return e.value
	}
	sum := ristretto.NewIdentityElement()
	var sc []*Scalar
	var pt []*Element
	for _, t := range e.Public {
		if t.Coef == nil {
			sum.Add(sum, t.Base)
			continue
		}
		sc = append(sc, t.Coef)
		pt = append(pt, t.Base)
	}
	if len(sc) > 0 {
		sum.Add(sum, ristretto.NewIdentityElement().VarTimeMultiScalarMult(sc, pt))
	}
	return sum
}

// proveSigma proves f under the transcript t, which must already hold the
// whole statement (SPEC.md §2.2). It runs in time independent of which OR
// branches are real and of the witnesses.
func proveSigma(t *transcript.Transcript, f *Formula, a Assignment) (*SigmaProof, error) {
	nc, _, _, err := f.shape()
	if err != nil {
		return nil, err
	}
	_ = nc
	f.absorbShape(t)
	var secrets []*Scalar
	for _, l := range a.Leaves {
		secrets = append(secrets, l...)
	}
	ns := t.Nonces(secrets...)

	type leafState struct {
		sigma int
		u     []*Scalar
		w     []*Scalar
	}
	var leaves []*leafState
	type orState struct {
		children []*Formula
		sigma    []int
		e        []*Scalar
	}
	var ors []*orState
	proof := &SigmaProof{}
	leafIdx, orIdx := 0, 0
	var errShape error
	// Phase 1: pre-challenges and commitments, depth first.
	eOf := map[*Formula]*Scalar{}
	sigmaOf := map[*Formula]int{}
	// underOr is structural (public): a leaf with no OR above it is always
	// real, so its commitment needs no simulation term.
	underOr := false
	var commit func(g *Formula, sigma int, e *Scalar)
	commit = func(g *Formula, sigma int, e *Scalar) {
		eOf[g], sigmaOf[g] = e, sigma
		switch g.op {
		case opLeaf:
			if leafIdx >= len(a.Leaves) || len(a.Leaves[leafIdx]) != g.leaf.Witnesses {
				errShape = fmt.Errorf("mental: assignment for leaf %d does not match its statement", leafIdx)
				return
			}
			ls := &leafState{sigma: sigma, w: a.Leaves[leafIdx]}
			leafIdx++
			ls.u = make([]*Scalar, g.leaf.Witnesses)
			for i := range ls.u {
				ls.u[i] = ns.Scalar()
			}
			se := ristretto.NewScalar().Multiply(bitScalar(sigma), e)
			se.Negate(se)
			for _, eq := range g.leaf.Equations {
				// R = Σ u_w·B over the secret terms (+ se·public value
				// under an OR). Terms on G, and terms whose base the
				// prover knows as dlog·G, are gathered into one
				// coefficient of G (scalar arithmetic, constant time)
				// and cost one fixed-base multiplication together; the
				// rest is one constant-time (multi-)scalar
				// multiplication. Which terms go where depends on the
				// statement's structure only, never on a secret.
				sc := make([]*Scalar, 0, len(eq.Secret)+1)
				pt := make([]*Element, 0, len(eq.Secret)+1)
				var onG *Scalar
				for _, term := range eq.Secret {
					if term.Witness < 0 || term.Witness >= g.leaf.Witnesses {
						errShape = fmt.Errorf("mental: witness index %d out of range", term.Witness)
						return
					}
					u := ls.u[term.Witness]
					switch {
					case term.dlog != nil:
						u = ristretto.NewScalar().Multiply(u, term.dlog)
					case term.Base.Equal(generator) == 1:
					default:
						sc = append(sc, u)
						pt = append(pt, term.Base)
						continue
					}
					if onG == nil {
						onG = ristretto.NewScalar().Set(u)
					} else {
						onG.Add(onG, u)
					}
				}
				if underOr {
					sc = append(sc, se)
					pt = append(pt, eq.publicValue())
				}
				R := ristretto.NewIdentityElement()
				switch {
				case len(sc) == 1:
					R.ScalarMult(sc[0], pt[0])
				case len(sc) > 1:
					R.MultiScalarMult(sc, pt)
				}
				switch {
				case onG != nil && len(sc) == 0:
					R.ScalarBaseMult(onG)
				case onG != nil:
					R.Add(R, ristretto.NewIdentityElement().ScalarBaseMult(onG))
				}
				proof.commitments = append(proof.commitments, R)
			}
			leaves = append(leaves, ls)
		case opAnd:
			for _, c := range g.children {
				commit(c, sigma, e)
			}
		case opOr:
			if orIdx >= len(a.Real) || len(a.Real[orIdx]) != len(g.children) {
				errShape = fmt.Errorf("mental: assignment for OR node %d does not match the formula", orIdx)
				return
			}
			real := a.Real[orIdx]
			orIdx++
			count := 0
			for _, r := range real {
				count += r & 1
			}
			if count != 1 {
				errShape = errors.New("mental: an OR node needs exactly one real child")
				return
			}
			os := &orState{children: g.children, sigma: make([]int, len(g.children)), e: make([]*Scalar, len(g.children))}
			ors = append(ors, os)
			sum := ristretto.NewScalar()
			for i := range g.children {
				os.sigma[i] = sigma | (1 - real[i]&1)
				r := ns.Scalar()
				if i == len(g.children)-1 {
					last := ristretto.NewScalar().Subtract(e, sum)
					r = selectScalar(sigma, last, r)
				}
				os.e[i] = r
				sum.Add(sum, r)
			}
			was := underOr
			underOr = true
			for i, c := range g.children {
				commit(c, os.sigma[i], os.e[i])
			}
			underOr = was
		}
	}
	commit(f, 0, ns.Scalar())
	if errShape != nil {
		return nil, errShape
	}
	if leafIdx != len(a.Leaves) || orIdx != len(a.Real) {
		return nil, errors.New("mental: assignment has more entries than the formula")
	}
	proof.known = make(encodings, len(proof.commitments))
	for _, R := range proof.commitments {
		proof.known.keep(R)
	}
	t.AppendUint64("commitments/n", uint64(len(proof.commitments)))
	t.Append("commitments", proof.commitmentBytes())
	c := t.ChallengeScalar("challenge")

	// Phase 2: challenges top-down, then responses.
	leafIdx, orIdx = 0, 0
	var respond func(g *Formula, c *Scalar)
	respond = func(g *Formula, c *Scalar) {
		switch g.op {
		case opLeaf:
			ls := leaves[leafIdx]
			leafIdx++
			k := ristretto.NewScalar().Multiply(bitScalar(1-ls.sigma), c)
			for i := range ls.u {
				s := ristretto.NewScalar().Multiply(k, ls.w[i])
				proof.responses = append(proof.responses, s.Add(s, ls.u[i]))
			}
		case opAnd:
			for _, ch := range g.children {
				respond(ch, c)
			}
		case opOr:
			os := ors[orIdx]
			orIdx++
			total := ristretto.NewScalar()
			for _, e := range os.e {
				total.Add(total, e)
			}
			cs := make([]*Scalar, len(os.e))
			for i, e := range os.e {
				// alt = c - Σ_{j≠i} e_j = c - total + e_i
				alt := ristretto.NewScalar().Subtract(c, total)
				alt.Add(alt, e)
				cs[i] = selectScalar(os.sigma[i], e, alt)
			}
			for i := 0; i < len(cs)-1; i++ {
				proof.challenges = append(proof.challenges, cs[i])
			}
			for i, ch := range g.children {
				respond(ch, cs[i])
			}
		}
	}
	// Challenges must come out in depth-first order of OR nodes, but
	// respond appends an OR node's challenges before its subtree's, which
	// is exactly depth-first pre-order.
	respond(f, c)
	return proof, nil
}

// equationCheck is one linear check Σ s_i·P_i = 0 gathered for (batch)
// verification.
type equationCheck struct {
	scalars []*Scalar
	points  []*Element
}

// sigmaChecks recomputes the challenges of p under t (which must hold the
// whole statement) and returns the equations that must hold, and the seed
// of the weights that combine them (SPEC.md §4.4). The seed is drawn from
// the transcript after it has absorbed the whole statement, the
// commitments, the challenge and the responses: weights that did not
// depend on the statement would let a prover fix its proof first and then
// pick a false statement whose errors cancel in the weighted sum.
func sigmaChecks(t *transcript.Transcript, f *Formula, p *SigmaProof) ([]equationCheck, []byte, error) {
	nc, nm, nr, err := f.shape()
	if err != nil {
		return nil, nil, err
	}
	if len(p.challenges) != nc || len(p.commitments) != nm || len(p.responses) != nr {
		return nil, nil, fmt.Errorf("%w: proof has the wrong shape", ErrProof)
	}
	f.absorbShape(t)
	t.AppendUint64("commitments/n", uint64(len(p.commitments)))
	t.Append("commitments", p.commitmentBytes())
	c := t.ChallengeScalar("challenge")
	var tail []byte
	for _, x := range p.challenges {
		tail = appendScalar(tail, x)
	}
	for _, x := range p.responses {
		tail = appendScalar(tail, x)
	}
	t.Append("challenges-responses", tail)
	seed := t.ChallengeBytes("batch-weights")
	// One allocation each for the checks, their scalars, points and
	// coefficients: a batch calls this for every proof it holds.
	nterms, nconst := 0, 0
	f.eachLeaf(func(s *Statement) {
		for _, eq := range s.Equations {
			nterms += len(eq.Secret) + 1 + len(eq.Public)
			nconst += len(eq.Public)
		}
		nconst++ // -c of the leaf
	})
	checks := make([]equationCheck, 0, nm)
	scalars := make([]*Scalar, nterms)
	points := make([]*Element, nterms)
	consts := make([]Scalar, nconst+1)
	minus1 := consts[nconst].Negate(bitScalar(1))
	consts = consts[:nconst]
	ci, mi, ri := 0, 0, 0
	var walk func(g *Formula, c *Scalar)
	walk = func(g *Formula, c *Scalar) {
		switch g.op {
		case opLeaf:
			resp := p.responses[ri : ri+g.leaf.Witnesses]
			ri += g.leaf.Witnesses
			negc := consts[0].Negate(c)
			consts = consts[1:]
			for _, eq := range g.leaf.Equations {
				n := len(eq.Secret) + 1 + len(eq.Public)
				ch := equationCheck{scalars: scalars[:0:n], points: points[:0:n]}
				scalars, points = scalars[n:], points[n:]
				for _, term := range eq.Secret {
					ch.scalars = append(ch.scalars, resp[term.Witness])
					ch.points = append(ch.points, term.Base)
				}
				ch.scalars = append(ch.scalars, minus1)
				ch.points = append(ch.points, p.commitments[mi])
				mi++
				for _, term := range eq.Public {
					s := negc
					if term.Coef != nil {
						s = consts[0].Multiply(negc, term.Coef)
					}
					consts = consts[1:]
					ch.scalars = append(ch.scalars, s)
					ch.points = append(ch.points, term.Base)
				}
				checks = append(checks, ch)
			}
		case opAnd:
			for _, ch := range g.children {
				walk(ch, c)
			}
		case opOr:
			n := len(g.children)
			cs := p.challenges[ci : ci+n-1]
			ci += n - 1
			last := ristretto.NewScalar().Set(c)
			for _, x := range cs {
				last.Subtract(last, x)
			}
			for i, ch := range g.children {
				if i < n-1 {
					walk(ch, cs[i])
				} else {
					walk(ch, last)
				}
			}
		}
	}
	walk(f, c)
	return checks, seed, nil
}

// batchHolds checks Σ_j ρ_j·check_j = 0 with one multi-scalar
// multiplication (SPEC.md §4.4). The weights ρ_j are derived by hashing a
// seed that depends on every proof, so they are deterministic (the engine
// stays pure) yet unpredictable to a prover who must fix its proof first.
func batchHolds(seed []byte, checks []equationCheck) bool {
	if len(checks) == 0 {
		return true
	}
	terms := 0
	for _, ch := range checks {
		terms += len(ch.points)
	}
	idx := make(map[*Element]int, terms)
	slab := make([]Scalar, terms) // one allocation for every coefficient
	sc := make([]*Scalar, 0, terms)
	pt := make([]*Element, 0, terms)
	var prod Scalar
	weights := batchWeights(seed, len(checks))
	for j, ch := range checks {
		rho := weights[j]
		for i, p := range ch.points {
			if k, ok := idx[p]; ok {
				sc[k].Add(sc[k], prod.Multiply(rho, ch.scalars[i]))
				continue
			}
			idx[p] = len(pt)
			s := &slab[len(pt)]
			s.Multiply(rho, ch.scalars[i])
			sc = append(sc, s)
			pt = append(pt, p)
		}
	}
	return sumIsIdentity(sc, pt)
}

// batchWeights returns the n weights of a batch with this seed (SPEC.md
// §4.4): 1, then 128-bit scalars read from one SHAKE256 stream keyed by
// the seed. A false equation survives with probability 2^-128 per attempt,
// and short weights halve the additions the multi-scalar multiplication
// spends on the commitment terms.
func batchWeights(seed []byte, n int) []*Scalar {
	out := make([]*Scalar, n)
	slab := make([]Scalar, n) // one allocation for every weight
	xof := sha3.NewSHAKE256()
	xof.Write([]byte("masque/mental/v1/batch-weights"))
	xof.Write(seed)
	var wb [32]byte
	for j := range out {
		if j == 0 {
			out[j] = bitScalar(1) // the first weight can be 1 without loss
			continue
		}
		xof.Read(wb[:16])
		out[j] = &slab[j]
		if _, err := out[j].SetCanonicalBytes(wb[:]); err != nil {
			panic("mental: 128-bit weight is not canonical")
		}
	}
	return out
}

// bucketThreshold is the number of points from which the bucket method
// of internal/msm beats edwards25519's Straus method on this kind of sum
// (measured: BenchmarkMSM in mental/internal/msm; docs/performance.md).
const bucketThreshold = 160

// sumIsIdentity reports whether Σ sc[i]·pt[i] is the identity, with the
// method that is faster for the number of points: Straus's below
// bucketThreshold, the bucket method above (both internal/msm's, both
// using a scalar's negation when it is shorter).
func sumIsIdentity(sc []*Scalar, pt []*Element) bool {
	enc := make([]msm.Scalar, len(sc))
	for i, s := range sc {
		ristretto.AppendScalar(enc[i][:0], s)
	}
	if len(pt) < bucketThreshold {
		return msm.StrausIsIdentity(enc, pt)
	}
	return msm.IsIdentity(enc, pt)
}

// batchSeed hashes the proofs' transcript challenges and responses.
func batchSeed(parts ...[]byte) []byte {
	h := sha512.New()
	h.Write([]byte("masque/mental/v1/batch-seed"))
	for _, p := range parts {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	return h.Sum(nil)
}

// seedOf returns the encoding of a proof used to seed batch weights.
func (p *SigmaProof) seedBytes() []byte {
	b := make([]byte, 0, 32*(len(p.challenges)+len(p.commitments)+len(p.responses)))
	for _, s := range p.challenges {
		b = appendScalar(b, s)
	}
	b = append(b, p.commitmentBytes()...)
	for _, s := range p.responses {
		b = appendScalar(b, s)
	}
	return b
}

// verifySigma checks one proof: all its equations in one weighted
// multi-scalar multiplication.
func verifySigma(t *transcript.Transcript, f *Formula, p *SigmaProof) error {
	checks, seed, err := sigmaChecks(t, f, p)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return ErrProof
	}
	return nil
}

// AppendBinary appends the proof's encoding: its fields in order, each a
// fixed-size value; the counts are implied by the formula (SPEC.md §6).
func (p *SigmaProof) AppendBinary(b []byte) []byte {
	for _, s := range p.challenges {
		b = appendScalar(b, s)
	}
	b = append(b, p.commitmentBytes()...)
	for _, s := range p.responses {
		b = appendScalar(b, s)
	}
	return b
}

// readSigma reads a proof of the shape f requires.
func (r *reader) sigma(f *Formula, what string) *SigmaProof {
	nc, nm, nr, err := f.shape()
	if err != nil {
		r.err = err
		return nil
	}
	p := &SigmaProof{known: make(encodings, nm)}
	for range nc {
		p.challenges = append(p.challenges, r.scalar(what+" challenge"))
	}
	for range nm {
		R := r.element(what + " commitment")
		if R != nil {
			p.known.remember(R, r.last)
		}
		p.commitments = append(p.commitments, R)
	}
	for range nr {
		p.responses = append(p.responses, r.scalar(what+" response"))
	}
	if r.err != nil {
		return nil
	}
	return p
}
