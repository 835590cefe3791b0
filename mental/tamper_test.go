package mental

import (
	"errors"
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// The tamper table (SPEC.md tests): every field of every proof and every
// element of every statement is mutated (points get G added, scalars get 1
// added), and every proof is replayed under another protocol label, table,
// position and seat. Each must be rejected.

func tPlusG(e *Element) *Element { return ristretto.NewIdentityElement().Add(e, Base()) }

func tPlusOne(s *Scalar) *Scalar { return ristretto.NewScalar().Add(s, bitScalar(1)) }

// tCloneSigma deep-copies a proof, without any cached encodings.
func tCloneSigma(p *SigmaProof) *SigmaProof {
	q := &SigmaProof{}
	for _, s := range p.challenges {
		q.challenges = append(q.challenges, ristretto.NewScalar().Set(s))
	}
	for _, e := range p.commitments {
		q.commitments = append(q.commitments, ristretto.NewIdentityElement().Set(e))
	}
	for _, s := range p.responses {
		q.responses = append(q.responses, ristretto.NewScalar().Set(s))
	}
	return q
}

type sigmaMutation struct {
	name string
	p    *SigmaProof
}

// tSigmaMutations returns one mutated copy of p per field.
func tSigmaMutations(p *SigmaProof) []sigmaMutation {
	var out []sigmaMutation
	for i := range p.challenges {
		q := tCloneSigma(p)
		q.challenges[i] = tPlusOne(q.challenges[i])
		out = append(out, sigmaMutation{fmt.Sprintf("challenge[%d]", i), q})
	}
	for i := range p.commitments {
		q := tCloneSigma(p)
		q.commitments[i] = tPlusG(q.commitments[i])
		out = append(out, sigmaMutation{fmt.Sprintf("commitment[%d]", i), q})
	}
	for i := range p.responses {
		q := tCloneSigma(p)
		q.responses[i] = tPlusOne(q.responses[i])
		out = append(out, sigmaMutation{fmt.Sprintf("response[%d]", i), q})
	}
	return out
}

// tCardMutations returns one copy of c per element, with G added to it.
func tCardMutations(name string, c Card) map[string]Card {
	out := map[string]Card{}
	for i := range c {
		a := c.Clone()
		a[i].A = tPlusG(a[i].A)
		out[fmt.Sprintf("%s[%d].A", name, i)] = a
		b := c.Clone()
		b[i].B = tPlusG(b[i].B)
		out[fmt.Sprintf("%s[%d].B", name, i)] = b
	}
	return out
}

// tContextMutations returns ctx with its table, position or seat changed.
func tContextMutations(ctx Context) map[string]Context {
	table := ctx
	table.Table[31] ^= 1
	pos := ctx
	pos.Pos++
	seat := ctx
	seat.Seat++
	return map[string]Context{"table": table, "position": pos, "seat": seat}
}

func tCloneElements(es []*Element) []*Element {
	out := make([]*Element, len(es))
	for i, e := range es {
		out[i] = ristretto.NewIdentityElement().Set(e)
	}
	return out
}

// tamperCase is one mutated statement or proof that must not verify.
type tamperCase struct {
	name   string
	verify func() error
}

func runTamper(t *testing.T, honest func() error, cases []tamperCase) {
	t.Helper()
	if err := honest(); err != nil {
		t.Fatalf("honest proof rejected: %v", err)
	}
	for _, tc := range cases {
		if err := tc.verify(); err == nil {
			t.Errorf("%s: tampered proof accepted", tc.name)
		}
	}
	t.Logf("%d tampered variants rejected", len(cases))
}

// tamperFixture is a table with keys, a joint key and a few cards.
type tamperFixture struct {
	sks []*SecretKey
	kcs []KeyContext
	pks []*PublicKey
	jk  *JointKey
}

func newTamperFixture(t testing.TB, n int) *tamperFixture {
	t.Helper()
	f := &tamperFixture{}
	for i := range n {
		sk := GenerateKey()
		kc := KeyContext{Table: [32]byte{'T'}, Seat: uint32(i), Identity: []byte{'i', byte(i)}}
		f.sks, f.kcs, f.pks = append(f.sks, sk), append(f.kcs, kc), append(f.pks, sk.ProvePublic(kc))
	}
	jk, err := NewJointKey(f.pks, f.kcs)
	if err != nil {
		t.Fatal(err)
	}
	f.jk = jk
	return f
}

func (f *tamperFixture) otherJointKey() *JointKey {
	return &JointKey{H: tPlusG(f.jk.H), Keys: f.jk.Keys}
}

func TestTamperKeyProof(t *testing.T) {
	f := newTamperFixture(t, 2)
	pk, kc := f.pks[0], f.kcs[0]
	var cases []tamperCase
	cases = append(cases, tamperCase{"X", func() error { return (&PublicKey{X: tPlusG(pk.X), proof: pk.proof}).Verify(kc) }})
	for _, m := range tSigmaMutations(pk.proof) {
		cases = append(cases, tamperCase{m.name, func() error { return (&PublicKey{X: pk.X, proof: m.p}).Verify(kc) }})
	}
	others := map[string]KeyContext{
		"table":           {Table: [32]byte{'U'}, Seat: kc.Seat, Identity: kc.Identity},
		"seat":            {Table: kc.Table, Seat: kc.Seat + 1, Identity: kc.Identity},
		"identity":        {Table: kc.Table, Seat: kc.Seat, Identity: []byte{'i', 1}},
		"identity prefix": {Table: kc.Table, Seat: kc.Seat, Identity: kc.Identity[:1]},
	}
	for name, o := range others {
		cases = append(cases, tamperCase{"context " + name, func() error { return pk.Verify(o) }})
	}
	// Another seat's proof for this key, and this proof for another key.
	cases = append(cases,
		tamperCase{"other seat's proof", func() error { return (&PublicKey{X: pk.X, proof: f.pks[1].proof}).Verify(kc) }},
		tamperCase{"identity element", func() error {
			return (&PublicKey{X: ristretto.NewIdentityElement(), proof: pk.proof}).Verify(kc)
		}},
	)
	runTamper(t, func() error { return pk.Verify(kc) }, cases)
}

func TestTamperSwap(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'S'}, Pos: 12, Seat: 1}
	c0 := f.jk.Encrypt(CardPoint(1), CardPoint(2))
	c1 := f.jk.Encrypt(CardPoint(3), CardPoint(4))
	for _, swap := range []bool{false, true} {
		t.Run(fmt.Sprintf("swap=%v", swap), func(t *testing.T) {
			o0, o1, p, err := f.jk.Swap(ctx, c0, c1, swap)
			if err != nil {
				t.Fatal(err)
			}
			verify := func(jk *JointKey, ctx Context, c0, c1, o0, o1 Card, p *SwapProof) func() error {
				return func() error { return jk.VerifySwap(ctx, c0, c1, o0, o1, p) }
			}
			var cases []tamperCase
			cases = append(cases, tamperCase{"H", verify(f.otherJointKey(), ctx, c0, c1, o0, o1, p)})
			for name, m := range tCardMutations("in0", c0) {
				cases = append(cases, tamperCase{name, verify(f.jk, ctx, m, c1, o0, o1, p)})
			}
			for name, m := range tCardMutations("in1", c1) {
				cases = append(cases, tamperCase{name, verify(f.jk, ctx, c0, m, o0, o1, p)})
			}
			for name, m := range tCardMutations("out0", o0) {
				cases = append(cases, tamperCase{name, verify(f.jk, ctx, c0, c1, m, o1, p)})
			}
			for name, m := range tCardMutations("out1", o1) {
				cases = append(cases, tamperCase{name, verify(f.jk, ctx, c0, c1, o0, m, p)})
			}
			for _, m := range tSigmaMutations(p.sigma) {
				cases = append(cases, tamperCase{m.name, verify(f.jk, ctx, c0, c1, o0, o1, &SwapProof{sigma: m.p})})
			}
			for name, o := range tContextMutations(ctx) {
				cases = append(cases, tamperCase{"context " + name, verify(f.jk, o, c0, c1, o0, o1, p)})
			}
			cases = append(cases,
				tamperCase{"inputs exchanged", verify(f.jk, ctx, c1, c0, o0, o1, p)},
				tamperCase{"outputs exchanged", verify(f.jk, ctx, c0, c1, o1, o0, p)},
				tamperCase{"outputs are the inputs", verify(f.jk, ctx, c0, c1, c0, c1, p)},
				tamperCase{"narrower cards", verify(f.jk, ctx, c0[:1], c1[:1], o0[:1], o1[:1], p)},
			)
			runTamper(t, verify(f.jk, ctx, c0, c1, o0, o1, p), cases)
		})
	}
}

func TestTamperShare(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'D'}, Pos: 3, Seat: 2}
	c := f.jk.Encrypt(CardPoint(5), CardPoint(6), CardPoint(7))
	X := f.jk.Keys[2]
	s, err := f.sks[2].Share(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(ctx Context, X *Element, c Card, s *Share) func() error {
		return func() error { return VerifyShare(ctx, X, c, s) }
	}
	var cases []tamperCase
	cases = append(cases, tamperCase{"X", verify(ctx, tPlusG(X), c, s)})
	for name, m := range tCardMutations("card", c) {
		cases = append(cases, tamperCase{name, verify(ctx, X, m, s)})
	}
	for i := range s.D {
		D := tCloneElements(s.D)
		D[i] = tPlusG(D[i])
		cases = append(cases, tamperCase{fmt.Sprintf("D[%d]", i), verify(ctx, X, c, &Share{D: D, proof: s.proof})})
	}
	for _, m := range tSigmaMutations(s.proof) {
		cases = append(cases, tamperCase{m.name, verify(ctx, X, c, &Share{D: s.D, proof: m.p})})
	}
	for name, o := range tContextMutations(ctx) {
		cases = append(cases, tamperCase{"context " + name, verify(o, X, c, s)})
	}
	other := f.jk.Encrypt(CardPoint(5), CardPoint(6), CardPoint(7))
	cases = append(cases,
		tamperCase{"another card", verify(ctx, X, other, s)},
		tamperCase{"another key", verify(ctx, f.jk.Keys[0], c, s)},
		tamperCase{"D permuted", verify(ctx, X, c, &Share{D: []*Element{s.D[1], s.D[0], s.D[2]}, proof: s.proof})},
		tamperCase{"narrower card", verify(ctx, X, c[:2], &Share{D: s.D[:2], proof: s.proof})},
	)
	runTamper(t, verify(ctx, X, c, s), cases)
}

func TestTamperEncryptedShare(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'E'}, Pos: 4, Seat: 0}
	c := f.jk.Encrypt(CardPoint(8), CardPoint(9))
	X, Y := f.jk.Keys[0], f.jk.Keys[1]
	es, err := f.sks[0].EncryptShare(ctx, c, Y)
	if err != nil {
		t.Fatal(err)
	}
	verify := func(ctx Context, X, Y *Element, c Card, es *EncryptedShare) func() error {
		return func() error { return VerifyEncryptedShare(ctx, X, Y, c, es) }
	}
	var cases []tamperCase
	cases = append(cases,
		tamperCase{"X", verify(ctx, tPlusG(X), Y, c, es)},
		tamperCase{"Y", verify(ctx, X, tPlusG(Y), c, es)},
		tamperCase{"another recipient", verify(ctx, X, f.jk.Keys[2], c, es)},
		tamperCase{"another key", verify(ctx, f.jk.Keys[2], Y, c, es)},
		tamperCase{"another card", verify(ctx, X, Y, f.jk.Encrypt(CardPoint(8), CardPoint(9)), es)},
		tamperCase{"E1 and E2 exchanged", verify(ctx, X, Y, c, &EncryptedShare{E1: es.E2, E2: es.E1, proof: es.proof})},
	)
	for name, m := range tCardMutations("card", c) {
		cases = append(cases, tamperCase{name, verify(ctx, X, Y, m, es)})
	}
	for i := range es.E1 {
		e1 := tCloneElements(es.E1)
		e1[i] = tPlusG(e1[i])
		cases = append(cases, tamperCase{fmt.Sprintf("E1[%d]", i), verify(ctx, X, Y, c, &EncryptedShare{E1: e1, E2: es.E2, proof: es.proof})})
		e2 := tCloneElements(es.E2)
		e2[i] = tPlusG(e2[i])
		cases = append(cases, tamperCase{fmt.Sprintf("E2[%d]", i), verify(ctx, X, Y, c, &EncryptedShare{E1: es.E1, E2: e2, proof: es.proof})})
	}
	for _, m := range tSigmaMutations(es.proof) {
		cases = append(cases, tamperCase{m.name, verify(ctx, X, Y, c, &EncryptedShare{E1: es.E1, E2: es.E2, proof: m.p})})
	}
	for name, o := range tContextMutations(ctx) {
		cases = append(cases, tamperCase{"context " + name, verify(o, X, Y, c, es)})
	}
	runTamper(t, verify(ctx, X, Y, c, es), cases)
}

func TestTamperBallot(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'B'}, Pos: 20, Seat: 2}
	for _, choice := range []int{NoVote, 1} {
		t.Run(fmt.Sprintf("choice=%d", choice), func(t *testing.T) {
			b, err := f.jk.CastBallot(ctx, 3, choice)
			if err != nil {
				t.Fatal(err)
			}
			verify := func(ctx Context, jk *JointKey, b *Ballot) func() error {
				return func() error { return VerifyBallot(ctx, jk, b) }
			}
			var cases []tamperCase
			cases = append(cases, tamperCase{"H", verify(ctx, f.otherJointKey(), b)})
			for name, m := range tCardMutations("entry", Card(b.Entries)) {
				cases = append(cases, tamperCase{name, verify(ctx, f.jk, &Ballot{Entries: m, proof: b.proof})})
			}
			for _, m := range tSigmaMutations(b.proof) {
				cases = append(cases, tamperCase{m.name, verify(ctx, f.jk, &Ballot{Entries: b.Entries, proof: m.p})})
			}
			for name, o := range tContextMutations(ctx) {
				cases = append(cases, tamperCase{"context " + name, verify(o, f.jk, b)})
			}
			rot := []Ciphertext{b.Entries[1], b.Entries[2], b.Entries[0]}
			cases = append(cases,
				tamperCase{"entries rotated", verify(ctx, f.jk, &Ballot{Entries: rot, proof: b.proof})},
				tamperCase{"entry dropped", verify(ctx, f.jk, &Ballot{Entries: b.Entries[:2], proof: b.proof})},
			)
			runTamper(t, verify(ctx, f.jk, b), cases)
		})
	}
}

// TestTamperCrossProtocol replays every proof, with the formula the
// production code builds for it, as a generic formula proof under every
// protocol label; and decodes every message as every other kind.
func TestTamperCrossProtocol(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'X'}, Pos: 2, Seat: 0}
	c := f.jk.Encrypt(CardPoint(1))
	c1 := f.jk.Encrypt(CardPoint(2))
	s, _ := f.sks[0].Share(ctx, c)
	es, _ := f.sks[0].EncryptShare(ctx, c, f.jk.Keys[1])
	o0, o1, sp, _ := f.jk.Swap(ctx, c, c1, true)
	b, _ := f.jk.CastBallot(ctx, 2, 0)
	_, shareF := shareStatement(ctx, f.jk.Keys[0], c, s.D)
	_, encF := encShareStatement(ctx, f.jk.Keys[0], f.jk.Keys[1], c, es.E1, es.E2)
	_, swapF := f.jk.swapStatement(ctx, c, c1, o0, o1)
	proofs := []struct {
		label string
		f     *Formula
		p     *SigmaProof
	}{
		{labelKey, keyFormula(f.pks[0].X), f.pks[0].proof},
		{labelShare, shareF, s.proof},
		{labelEncShare, encF, es.proof},
		{labelSwap, swapF, sp.sigma},
		{labelBallot, ballotFormula(f.jk.H, b.Entries), b.proof},
	}
	labels := []string{labelKey, labelShare, labelEncShare, labelSwap, labelBallot, labelHolding, labelCoinCommit, "masque/other/v1"}
	for _, pr := range proofs {
		for _, l := range labels {
			if l == pr.label && pr.label == labelBallot {
				// The ballot is the one proof made with ProveFormula: its
				// own label must verify (sanity check of the replay).
				if err := VerifyFormula(ctx, l, pr.f, pr.p); err != nil {
					t.Errorf("ballot under its own label rejected: %v", err)
				}
				continue
			}
			if err := VerifyFormula(ctx, l, pr.f, pr.p); err == nil {
				t.Errorf("%s proof accepted as a generic formula proof under %s", pr.label, l)
			}
		}
	}

	// Byte-level replay: one message decoded as another kind must fail to
	// decode or to verify.
	shareEnc, _ := s.MarshalBinary()
	esEnc, _ := es.MarshalBinary()
	pkEnc, _ := f.pks[0].MarshalBinary()
	swapEnc, _ := sp.MarshalBinary()
	ballotEnc, _ := b.MarshalBinary()
	X, Y := f.jk.Keys[0], f.jk.Keys[1]
	decodeAs := map[string]func([]byte) error{
		"encrypted share": func(b []byte) error {
			e, err := UnmarshalEncryptedShare(b)
			if err != nil {
				return err
			}
			return VerifyEncryptedShare(ctx, X, Y, c, e)
		},
		"share": func(b []byte) error {
			sh, err := UnmarshalShare(b)
			if err != nil {
				return err
			}
			return VerifyShare(ctx, X, c, sh)
		},
		"public key": func(b []byte) error {
			pk, err := UnmarshalPublicKey(b)
			if err != nil {
				return err
			}
			return pk.Verify(f.kcs[0])
		},
		"swap": func(b []byte) error {
			p, err := UnmarshalSwapProof(b)
			if err != nil {
				return err
			}
			return f.jk.VerifySwap(ctx, c, c1, o0, o1, p)
		},
		"ballot": func(b []byte) error {
			bl, err := UnmarshalBallot(b)
			if err != nil {
				return err
			}
			return VerifyBallot(ctx, f.jk, bl)
		},
	}
	msgs := map[string][]byte{"share": shareEnc, "encrypted share": esEnc, "public key": pkEnc, "swap": swapEnc, "ballot": ballotEnc}
	for from, enc := range msgs {
		for to, dec := range decodeAs {
			err := dec(enc)
			if from == to && err != nil {
				t.Errorf("%s decoded as itself: %v", from, err)
			}
			if from != to && err == nil {
				t.Errorf("%s accepted as a %s", from, to)
			}
		}
	}
}

// TestTamperLabelReplay replays the share and key proofs under every other
// protocol label with the statement absorbed exactly as the production
// code does (mirrored here; the own-label check proves the mirror exact).
func TestTamperLabelReplay(t *testing.T) {
	f := newTamperFixture(t, 2)
	ctx := Context{Table: [32]byte{'L'}, Pos: 6, Seat: 1}
	c := f.jk.Encrypt(CardPoint(3))
	s, _ := f.sks[1].Share(ctx, c)
	X := f.jk.Keys[1]
	shareUnder := func(label string) error {
		tr := ctx.transcript(label)
		tr.AppendElement("X", X)
		absorbCard(tr, "card", c)
		tr.AppendElements("D", s.D)
		_, fm := shareStatement(ctx, X, c, s.D)
		return verifySigma(tr, fm, s.proof)
	}
	kc := f.kcs[1]
	pk := f.pks[1]
	keyUnder := func(label string) error {
		tr := Context{Table: kc.Table, Seat: kc.Seat}.transcript(label)
		tr.Append("identity", kc.Identity)
		tr.AppendElement("X", pk.X)
		return verifySigma(tr, keyFormula(pk.X), pk.proof)
	}
	labels := []string{labelKey, labelShare, labelEncShare, labelSwap, labelBallot, labelHolding, labelCoinCommit}
	for _, l := range labels {
		for name, under := range map[string]func(string) error{labelShare: shareUnder, labelKey: keyUnder} {
			err := under(l)
			if l == name && err != nil {
				t.Errorf("%s mirror under its own label rejected (mirror out of date?): %v", name, err)
			}
			if l != name && err == nil {
				t.Errorf("%s proof accepted under label %s", name, l)
			}
		}
	}
}

// TestTamperSwapNotPermutation asks the internal prover for swap proofs of
// outputs that are not a permutation of the inputs, with every plausible
// bogus assignment: none may verify.
func TestTamperSwapNotPermutation(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'N'}, Pos: 1, Seat: 0}
	c0 := f.jk.Encrypt(CardPoint(1))
	c1 := f.jk.Encrypt(CardPoint(2))
	r0, s0 := f.jk.Remask(c0)
	r1, s1 := f.jk.Remask(c0)
	faceUp := FaceUp(CardPoint(2))
	cases := []struct {
		name   string
		o0, o1 Card
		s      [2]*Scalar // the remask scalars relative to the first candidate inputs
	}{
		{"both outputs re-mask c0", r0, r1, [2]*Scalar{s0[0], s1[0]}},
		{"outputs are c0 and a face-up copy of c1's card", r0, faceUp, [2]*Scalar{s0[0], ristretto.NewScalar()}},
		{"outputs are c0, c0 unmasked", c0, c0, [2]*Scalar{ristretto.NewScalar(), ristretto.NewScalar()}},
	}
	for _, tc := range cases {
		tr, fm := f.jk.swapStatement(ctx, c0, c1, tc.o0, tc.o1)
		z := swapCoefficients(fm)
		tw := ristretto.NewScalar().Multiply(z[0], tc.s[0])
		tw.Add(tw, ristretto.NewScalar().Multiply(z[1], tc.s[1]))
		witnesses := map[string]*Scalar{"compressed remask": tw, "zero": ristretto.NewScalar(), "random": randomScalar()}
		for wname, w := range witnesses {
			for real := range 2 {
				a := Assignment{Leaves: [][]*Scalar{{w}, {w}}, Real: [][]int{{1 - real, real}}}
				p, err := proveSigma(tr.Clone(), fm, a)
				if err != nil {
					t.Fatal(err)
				}
				if err := f.jk.VerifySwap(ctx, c0, c1, tc.o0, tc.o1, &SwapProof{sigma: p}); !errors.Is(err, ErrProof) {
					t.Errorf("%s, witness %s, branch %d: got %v, want ErrProof", tc.name, wname, real, err)
				}
			}
		}
	}
}

// tBatchWeight is weight j of a batch seeded with seed (batchWeights).
// The attacks below seed it from the proof's bytes alone, as an earlier
// draft did: if sigmaChecks ever seeded the weights that way again, these
// forgeries would verify.
func tBatchWeight(seed []byte, j int) *Scalar {
	return batchWeights(seed, j+1)[j]
}

// TestBatchWeightsBindStatement is a soundness attack on the weights of the
// random linear combination that verifies every proof (batchHolds via
// verifySigma, VerifyFormula and Batch). The weights are hashed from the
// proof's bytes only, not from the statement or the Fiat–Shamir challenge,
// so a cheater fixes the proof first, computes the weights, and then picks
// statement elements that make the weighted sum of its (false) equations
// cancel. Each sub-test builds such a forgery; all must be rejected.
//
// The fix belongs in sigma.go/batch.go: derive the weights from the
// transcript after the challenge (it binds statement and commitments) plus
// the responses and OR challenges, e.g. seed = challenge bytes || proof
// bytes, so no equation's error is known before the weights are.
func TestBatchWeightsBindStatement(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'W'}, Pos: 1, Seat: 0}
	negInv := func(s *Scalar) *Scalar {
		i := ristretto.NewScalar().Invert(s)
		return i.Negate(i)
	}

	t.Run("share without the secret key", func(t *testing.T) {
		// Width 1: commitments R0 = s·G, R1 = s·A make both equations'
		// errors -c·X and -c·D; with D = -ρ⁻¹·X they cancel. Nobody's
		// secret key is used.
		c := f.jk.Encrypt(CardPoint(1))
		X := f.jk.Keys[0]
		s := randomScalar()
		p := &SigmaProof{
			commitments: []*Element{ristretto.NewIdentityElement().ScalarBaseMult(s), ristretto.NewIdentityElement().ScalarMult(s, c[0].A)},
			responses:   []*Scalar{s},
		}
		rho := tBatchWeight(batchSeed(p.seedBytes()), 1)
		D := ristretto.NewIdentityElement().ScalarMult(negInv(rho), X)
		if err := VerifyShare(ctx, X, c, &Share{D: []*Element{D}, proof: p}); err == nil {
			t.Error("SOUNDNESS BUG: a share forged without the secret key verifies")
		}
	})

	t.Run("share with a chosen component", func(t *testing.T) {
		// Width 2: D1 is any point the cheater wants (here: the one that
		// opens component 0 to card 9 for a table of one); D2 balances.
		c := f.jk.Encrypt(CardPoint(1), CardPoint(2))
		X := f.jk.Keys[0]
		s := randomScalar()
		p := &SigmaProof{
			commitments: []*Element{
				ristretto.NewIdentityElement().ScalarBaseMult(s),
				ristretto.NewIdentityElement().ScalarMult(s, c[0].A),
				ristretto.NewIdentityElement().ScalarMult(s, c[1].A),
			},
			responses: []*Scalar{s},
		}
		seed := batchSeed(p.seedBytes())
		rho1, rho2 := tBatchWeight(seed, 1), tBatchWeight(seed, 2)
		D1 := ristretto.NewIdentityElement().Subtract(c[0].B, CardPoint(9))
		// D2 = -ρ2⁻¹·(X + ρ1·D1)
		sum := ristretto.NewIdentityElement().ScalarMult(rho1, D1)
		sum.Add(sum, X)
		D2 := ristretto.NewIdentityElement().ScalarMult(negInv(rho2), sum)
		if err := VerifyShare(ctx, X, c, &Share{D: []*Element{D1, D2}, proof: p}); err == nil {
			t.Error("SOUNDNESS BUG: a share with a chosen (false) component verifies")
		}
	})

	t.Run("swap whose output is not a re-mask", func(t *testing.T) {
		// OR challenge e0 = 0 and commitments s_b·base make branch 0 hold
		// and leave branch 1's errors -c·P_A1, -c·P_B1; an output shifted
		// by (α, -ρ2/ρ3·α) makes ρ2·P_A1 + ρ3·P_B1 = 0 whatever z is.
		c0, c1 := f.jk.Encrypt(CardPoint(1)), f.jk.Encrypt(CardPoint(2))
		s0, s1 := randomScalar(), randomScalar()
		G, H := Base(), f.jk.H
		p := &SigmaProof{
			challenges: []*Scalar{ristretto.NewScalar()},
			commitments: []*Element{
				ristretto.NewIdentityElement().ScalarMult(s0, G), ristretto.NewIdentityElement().ScalarMult(s0, H),
				ristretto.NewIdentityElement().ScalarMult(s1, G), ristretto.NewIdentityElement().ScalarMult(s1, H),
			},
			responses: []*Scalar{s0, s1},
		}
		seed := batchSeed(p.seedBytes())
		rho2, rho3 := tBatchWeight(seed, 2), tBatchWeight(seed, 3)
		k := ristretto.NewScalar().Multiply(rho2, ristretto.NewScalar().Invert(rho3))
		alpha := CardPoint(77) // any point
		o0 := Card{{
			A: ristretto.NewIdentityElement().Add(c1[0].A, alpha),
			B: ristretto.NewIdentityElement().Subtract(c1[0].B, ristretto.NewIdentityElement().ScalarMult(k, alpha)),
		}}
		o1 := c0.Clone()
		err := f.jk.VerifySwap(ctx, c0, c1, o0, o1, &SwapProof{sigma: p})
		if err == nil {
			// Show the statement is false: o0 opens to neither input's card.
			var shares [][]*Element
			for _, sk := range f.sks {
				sh, _ := sk.Share(ctx, o0)
				shares = append(shares, sh.D)
			}
			m, _ := Open(o0, shares)
			t.Errorf("SOUNDNESS BUG: a swap proof verifies for outputs that are not a permutation (o0 opens to card 1: %v, card 2: %v)",
				m[0].Equal(CardPoint(1)) == 1, m[0].Equal(CardPoint(2)) == 1)
		}
	})
}

// TestLargeBatchRejectsEveryMutation runs the tamper table through the
// bucket method: a batch of 24 chained swap proofs (about 200 points,
// above bucketThreshold) in which proof 17 has one field of its proof or
// one point of its statement changed must fail and name proof 17; the
// untouched batch must pass.
func TestLargeBatchRejectsEveryMutation(t *testing.T) {
	f := newTamperFixture(t, 3)
	type rec struct {
		ctx            Context
		c0, c1, o0, o1 Card
		p              *SwapProof
	}
	slots := []Card{f.jk.Encrypt(CardPoint(0)), f.jk.Encrypt(CardPoint(1)), f.jk.Encrypt(CardPoint(2))}
	var recs []rec
	for i := range 24 {
		a, b := i%3, (i+1)%3
		ctx := Context{Table: [32]byte{'B'}, Pos: uint64(i)}
		o0, o1, p, err := f.jk.Swap(ctx, slots[a], slots[b], i%2 == 1)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec{ctx, slots[a], slots[b], o0, o1, p})
		slots[a], slots[b] = o0, o1
	}
	const bad = 17
	run := func(r rec) error {
		var b Batch
		for i, x := range recs {
			if i == bad {
				x = r
			}
			b.AddSwap(fmt.Sprintf("swap %d", i), f.jk, x.ctx, x.c0, x.c1, x.o0, x.o1, x.p)
		}
		return b.Verify()
	}
	if err := run(recs[bad]); err != nil {
		t.Fatalf("honest batch: %v", err)
	}
	var muts []struct {
		name string
		r    rec
	}
	for _, m := range tSigmaMutations(recs[bad].p.sigma) {
		r := recs[bad]
		r.p = &SwapProof{sigma: m.p}
		muts = append(muts, struct {
			name string
			r    rec
		}{"proof " + m.name, r})
	}
	for which, card := range map[string]func(*rec) *Card{
		"in0": func(r *rec) *Card { return &r.c0 }, "in1": func(r *rec) *Card { return &r.c1 },
		"out0": func(r *rec) *Card { return &r.o0 }, "out1": func(r *rec) *Card { return &r.o1 },
	} {
		for name, c := range tCardMutations(which, *card(&recs[bad])) {
			r := recs[bad]
			*card(&r) = c
			muts = append(muts, struct {
				name string
				r    rec
			}{name, r})
		}
	}
	r := recs[bad]
	r.ctx.Pos++
	muts = append(muts, struct {
		name string
		r    rec
	}{"position", r})
	for _, m := range muts {
		err := run(m.r)
		var be *BatchError
		if !errors.As(err, &be) || be.Index != bad {
			t.Errorf("%s: batch error = %v, want proof %d named", m.name, err, bad)
		}
	}
}

// TestCachedEncodingsFollowTheValues: decoded shares, encrypted shares and
// shuffle proofs remember their points' encodings for the transcript. A
// point replaced after decoding must be absorbed as itself (the cache is
// keyed by pointer), so the replaced value is what the proof is checked
// against: every replacement below must be rejected, one by one and in a
// batch, while the untouched decoded values verify.
func TestCachedEncodingsFollowTheValues(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'E'}, Pos: 4, Seat: 1}
	c := f.jk.Encrypt(CardPoint(2))
	s, err := f.sks[1].Share(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := s.MarshalBinary()
	decoded := func() *Share {
		d, err := UnmarshalShare(enc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if err := VerifyShare(ctx, f.jk.Keys[1], c, decoded()); err != nil {
		t.Fatalf("decoded share: %v", err)
	}
	other, _ := f.sks[2].Share(ctx, c)
	for name, replace := range map[string]func(*Share){
		"D plus G":         func(d *Share) { d.D[0] = tPlusG(d.D[0]) },
		"another seat's D": func(d *Share) { d.D[0] = other.D[0] },
		"D from a decode":  func(d *Share) { d.D[0] = decoded().D[0] }, // same value, new pointer: still valid
		"the proof's points": func(d *Share) {
			d.proof = tCloneSigma(d.proof)
			d.proof.commitments[0] = tPlusG(d.proof.commitments[0])
		},
	} {
		d := decoded()
		replace(d)
		wantOK := name == "D from a decode"
		err := VerifyShare(ctx, f.jk.Keys[1], c, d)
		var b Batch
		b.AddShare("share", ctx, f.jk.Keys[1], c, d)
		berr := b.Verify()
		if wantOK && (err != nil || berr != nil) {
			t.Errorf("%s: %v / batch %v, want valid", name, err, berr)
		}
		if !wantOK && (err == nil || berr == nil) {
			t.Errorf("%s: one by one %v, batch %v; want both rejected", name, err, berr)
		}
	}
	// A batch's key cache is per pointer too: the right key verifies, a
	// different key (another pointer) in the same batch does not.
	var b Batch
	b.AddShare("right key", ctx, f.jk.Keys[1], c, decoded())
	b.AddShare("wrong key", ctx, f.jk.Keys[2], c, decoded())
	var be *BatchError
	if err := b.Verify(); !errors.As(err, &be) || be.Index != 1 {
		t.Errorf("batch with a wrong key: %v, want proof 1 named", err)
	}

	// Shuffle proofs: a decoded proof verifies; one t-hat replaced does not.
	in := []Card{f.jk.Encrypt(CardPoint(0)), f.jk.Encrypt(CardPoint(1)), f.jk.Encrypt(CardPoint(2))}
	out, sp, err := f.jk.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	spEnc, _ := sp.MarshalBinary()
	sd, err := UnmarshalShuffleProof(spEnc, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.jk.VerifyShuffle(ctx, in, out, sd); err != nil {
		t.Fatalf("decoded shuffle proof: %v", err)
	}
	sd.tHat[1] = tPlusG(sd.tHat[1])
	if err := f.jk.VerifyShuffle(ctx, in, out, sd); err == nil {
		t.Error("decoded shuffle proof with t-hat[1] replaced verifies")
	}
}

// tShareChallenge is the challenge of a share proof whose transcript
// absorbs dBytes as D and rBytes as the commitments, whatever the proof's
// elements are (sigmaChecks' order, SPEC.md §4).
func tShareChallenge(ctx Context, X *Element, c Card, D []*Element, dBytes, rBytes []byte) *Scalar {
	t := ctx.transcript(labelShare)
	t.AppendElement("X", X)
	absorbCard(t, "card", c)
	t.AppendUint64("D/n", uint64(len(D)))
	t.Append("D", dBytes)
	_, f := shareStatement(ctx, X, c, D)
	f.absorbShape(t)
	t.AppendUint64("commitments/n", 2)
	t.Append("commitments", rBytes)
	return t.ChallengeScalar("challenge")
}

// TestStaleEncodingForgeries are the attacks a positional encoding cache
// would allow: the transcript would absorb the bytes that were decoded
// while the equations use points changed afterwards, and whoever changes
// them after seeing the challenge can make false statements verify. The
// caches are keyed by pointer, so both forgeries below must fail.
func TestStaleEncodingForgeries(t *testing.T) {
	f := newTamperFixture(t, 3)
	ctx := Context{Table: [32]byte{'F'}, Pos: 9, Seat: 1}
	c := f.jk.Encrypt(CardPoint(4))
	X, x := f.jk.Keys[1], f.sks[1].x
	honest, err := f.sks[1].Share(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := honest.MarshalBinary()
	decode := func() *Share {
		d, err := UnmarshalShare(enc)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	t.Run("owner publishes a wrong share under the decoded D's bytes", func(t *testing.T) {
		d := decode()
		k := randomScalar()
		R1 := ristretto.NewIdentityElement().ScalarBaseMult(k)
		R2 := ristretto.NewIdentityElement().ScalarBaseMult(randomScalar())
		rBytes := append(R1.AppendBytes(nil), R2.AppendBytes(nil)...)
		ch := tShareChallenge(ctx, X, c, d.D, d.D[0].AppendBytes(nil), rBytes)
		s := ristretto.NewScalar().Multiply(ch, x)
		s.Add(s, k)
		// D' = ch⁻¹·(s·A − R2): the equation s·A = R2 + ch·D' holds.
		Dp := ristretto.NewIdentityElement().ScalarMult(s, c[0].A)
		Dp.Subtract(Dp, R2)
		Dp.ScalarMult(ristretto.NewScalar().Invert(ch), Dp)
		if Dp.Equal(d.D[0]) == 1 {
			t.Fatal("the forged share is the honest one")
		}
		d.D[0] = Dp
		d.proof = &SigmaProof{commitments: []*Element{R1, R2}, responses: []*Scalar{s}}
		if err := VerifyShare(ctx, X, c, d); err == nil {
			t.Error("SOUNDNESS BUG: a wrong share verifies under the bytes of the decoded one")
		}
	})

	t.Run("another seat forges the commitments after the challenge", func(t *testing.T) {
		d := decode()
		Dp := ristretto.NewIdentityElement().ScalarMult(randomScalar(), c[0].A) // any share
		oldR := append(d.proof.commitments[0].AppendBytes(nil), d.proof.commitments[1].AppendBytes(nil)...)
		ch := tShareChallenge(ctx, X, c, []*Element{Dp}, Dp.AppendBytes(nil), oldR)
		s := randomScalar()
		R1 := ristretto.NewIdentityElement().ScalarBaseMult(s)
		R1.Subtract(R1, ristretto.NewIdentityElement().ScalarMult(ch, X))
		R2 := ristretto.NewIdentityElement().ScalarMult(s, c[0].A)
		R2.Subtract(R2, ristretto.NewIdentityElement().ScalarMult(ch, Dp))
		d.D[0] = Dp
		d.proof.commitments[0], d.proof.commitments[1] = R1, R2
		d.proof.responses[0] = s
		if err := VerifyShare(ctx, X, c, d); err == nil {
			t.Error("SOUNDNESS BUG: a share forged without the key verifies under the decoded commitments' bytes")
		}
	})
}

// TestCiphertextEncodingFollowsItsPoints: a card's cached encoding is the
// encoding of the points it holds now, also after a point is replaced.
func TestCiphertextEncodingFollowsItsPoints(t *testing.T) {
	f := newTamperFixture(t, 2)
	enc, _ := f.jk.Encrypt(CardPoint(1)).MarshalBinary()
	c, err := UnmarshalCard(enc)
	if err != nil {
		t.Fatal(err)
	}
	fresh := func(ct Ciphertext) []byte { return append(ct.A.AppendBytes(nil), ct.B.AppendBytes(nil)...) }
	if got := c[0].encoding(); string(got[:]) != string(fresh(c[0])) {
		t.Fatal("decoded card's encoding differs from its points'")
	}
	c[0].A = tPlusG(c[0].A)
	if got := c[0].encoding(); string(got[:]) != string(fresh(c[0])) {
		t.Fatal("encoding still that of the replaced A")
	}
	c[0].B = tPlusG(c[0].B)
	if got := c[0].encoding(); string(got[:]) != string(fresh(c[0])) {
		t.Fatal("encoding still that of the replaced B")
	}
}
