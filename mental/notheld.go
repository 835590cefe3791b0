package mental

import (
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

const labelNotHeld = "masque/not-held/v1"

// NotHeldProof proves "component comp of my privately viewed card is not
// kind k" in constant size, whatever the number of kinds (SPEC.md §3.11):
// the holder publishes T = r·(M − M_k) for a fresh r and proves it formed
// T from its own keys; T is not the identity exactly when M ≠ M_k, and for
// M ≠ M_k it is a uniformly random point, so it tells nothing more. The
// Grimm Masquerade's hints ("I am not the Beast") are these proofs.
type NotHeldProof struct {
	T     *Element
	proof *SigmaProof
	known encodings // T's encoding, when made or decoded from bytes
}

// notHeldBases holds the public points of a not-held statement (SPEC.md
// §3.11) for component comp: C = B − ΣE2_j − M_k, E = ΣE1_j and −A.
type notHeldBases struct {
	C, E, negA *Element
}

// notHeldBasesOf checks the statement's shape and computes its bases
// (public data: only additions).
func notHeldBasesOf(c Card, comp int, sent []*EncryptedShare, kind int) (*notHeldBases, error) {
	if comp < 0 || comp >= len(c) {
		return nil, fmt.Errorf("mental: not held: component %d of a width-%d card", comp, len(c))
	}
	if kind < 0 {
		return nil, fmt.Errorf("mental: not held: kind %d", kind)
	}
	C := ristretto.NewIdentityElement().Subtract(c[comp].B, CardPoint(kind))
	E := ristretto.NewIdentityElement()
	for j, es := range sent {
		if es == nil || len(es.E1) != len(c) || len(es.E2) != len(c) {
			return nil, fmt.Errorf("mental: not held: encrypted share %d does not match the card's width %d", j, len(c))
		}
		C.Subtract(C, es.E2[comp])
		E.Add(E, es.E1[comp])
	}
	return &notHeldBases{C: C, E: E, negA: ristretto.NewIdentityElement().Negate(c[comp].A)}, nil
}

// notHeldStatement is the statement of a NotHeldProof. With C = B − ΣE2_j
// − M_k and E = ΣE1_j (component comp; sent are the others' shares of c
// encrypted to Y), the plaintext is M = C + M_k + y·E − x·A, and the proof
// is of r, a, b with
//
//	r·C − a·A + b·E = T   and   a·G − r·X = 0   and   b·G − r·Y = 0
//
// so a = r·x, b = r·y, and T = r·(M − M_k).
func notHeldStatement(ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kind int, T *Element, known ...encodings) (*transcriptT, *Formula, error) {
	bs, err := notHeldBasesOf(c, comp, sent, kind)
	if err != nil {
		return nil, nil, err
	}
	t, f := notHeldStatementOn(ctx, X, Y, c, comp, sent, kind, bs, T, known...)
	return t, f, nil
}

// notHeldStatementOn is notHeldStatement on bases already computed by
// notHeldBasesOf(c, comp, sent, kind), which checked the shapes.
func notHeldStatementOn(ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kind int, bs *notHeldBases, T *Element, known ...encodings) (*transcriptT, *Formula) {
	t := ctx.transcript(labelNotHeld)
	absorbElement(t, "X", X, known...)
	absorbElement(t, "Y", Y, known...)
	absorbCard(t, "card", c)
	t.AppendUint64("component", uint64(comp))
	t.AppendUint64("kind", uint64(kind))
	t.AppendUint64("shares/n", uint64(len(sent)))
	for _, es := range sent {
		absorbElements(t, "E1", es.E1, es.known)
		absorbElements(t, "E2", es.E2, es.known)
	}
	absorbElement(t, "T", T, known...)
	negX := ristretto.NewIdentityElement().Negate(X)
	negY := ristretto.NewIdentityElement().Negate(Y)
	G := generator
	f := Leaf(Statement{Witnesses: 3, Equations: []Equation{
		{Secret: []Term{{Witness: 0, Base: bs.C}, {Witness: 1, Base: bs.negA}, {Witness: 2, Base: bs.E}}, Public: []Term{{Base: T}}},
		{Secret: []Term{{Witness: 1, Base: G}, {Witness: 0, Base: negX}}},
		{Secret: []Term{{Witness: 2, Base: G}, {Witness: 0, Base: negY}}},
	}})
	return t, f
}

// ProveNotHeld proves, as the holder with card key card and viewing key
// view, that component comp of c, viewed through the encrypted shares sent
// to view, is not kind. It fails if it is. Constant time in the keys.
//
// The holder never opens the card: T = r·(M − M_k) = r·C − a·A + b·E with
// a = r·x and b = r·y is one constant-time 3-point multiplication, and it
// is the identity exactly when M = M_k (r ≠ 0), which the prover refuses
// to prove. The commitments of the last two equations, u_a·G − u_r·X and
// u_b·G − u_r·Y, are (u_a − u_r·x)·G and (u_b − u_r·y)·G: fixed-base
// multiplications (see Term.dlog). The proof is the same as before this
// shortcut, byte for byte under the same randomness.
func ProveNotHeld(ctx Context, card, view *SecretKey, c Card, comp int, sent []*EncryptedShare, kind int) (*NotHeldProof, error) {
	bs, err := notHeldBasesOf(c, comp, sent, kind)
	if err != nil {
		return nil, err
	}
	r := randomScalar()
	a := ristretto.NewScalar().Multiply(r, card.x)
	b := ristretto.NewScalar().Multiply(r, view.x)
	T := ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{r, a, b}, []*Element{bs.C, bs.negA, bs.E})
	if isIdentity(T) {
		return nil, fmt.Errorf("mental: not held: the card is kind %d", kind)
	}
	known := encodings{} // T's encoding, absorbed now, sent and verified later
	known.keep(T)
	t, f := notHeldStatementOn(ctx, card.pub, view.pub, c, comp, sent, kind, bs, T, known)
	eqs := f.leaf.Equations
	eqs[1].Secret[1].dlog = ristretto.NewScalar().Negate(card.x) // −X = (−x)·G
	eqs[2].Secret[1].dlog = ristretto.NewScalar().Negate(view.x) // −Y = (−y)·G
	p, err := proveSigma(t, f, Assignment{Leaves: [][]*Scalar{{r, a, b}}})
	if err != nil {
		return nil, fmt.Errorf("mental: not held proof: %w", err)
	}
	return &NotHeldProof{T: T, proof: p, known: known}, nil
}

// VerifyNotHeld checks a NotHeldProof: X is the holder's card key, Y its
// viewing key, sent the encrypted shares of c it received (their own
// proofs are checked where they were posted).
func VerifyNotHeld(ctx Context, X, Y *Element, c Card, comp int, sent []*EncryptedShare, kind int, p *NotHeldProof) error {
	if p == nil || p.T == nil || p.proof == nil {
		return fmt.Errorf("%w: missing proof", ErrProof)
	}
	if isIdentity(p.T) {
		return fmt.Errorf("not held: %w: T is the identity", ErrProof)
	}
	t, f, err := notHeldStatement(ctx, X, Y, c, comp, sent, kind, p.T, p.known)
	if err != nil {
		return err
	}
	checks, seed, err := sigmaChecks(t, f, p.proof)
	if err != nil {
		return err
	}
	if !batchHolds(batchSeed(seed), checks) {
		return fmt.Errorf("not held: %w", ErrProof)
	}
	return nil
}

// notHeldShape is the proof shape of every NotHeldProof.
var notHeldShape = Leaf(Statement{Witnesses: 3, Equations: make([]Equation, 3)})

// MarshalBinary encodes T ‖ proof (SPEC.md §6): 32 + 3·32 + 3·32 bytes.
func (p *NotHeldProof) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 7*32)
	return p.proof.AppendBinary(append(b, encodingOf(p.T, p.known)...)), nil
}

// UnmarshalNotHeldProof decodes a NotHeldProof strictly.
func UnmarshalNotHeldProof(b []byte) (*NotHeldProof, error) {
	r := &reader{b: b, known: encodings{}}
	T := r.element("T")
	p := r.sigma(notHeldShape, "not-held proof")
	if err := r.done("not-held proof"); err != nil {
		return nil, err
	}
	return &NotHeldProof{T: T, proof: p, known: r.known}, nil
}
