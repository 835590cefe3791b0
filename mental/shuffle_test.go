package mental

import (
	"bufio"
	"bytes"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/cryptotest"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

var updateShuffle = flag.Bool("update-shuffle", false, "rewrite testdata/shuffle_vector.txt")

// shuffleTestKey returns a one-player joint key with its secret.
func shuffleTestKey(tb testing.TB) (*SecretKey, *JointKey) {
	tb.Helper()
	sk := GenerateKey()
	return sk, &JointKey{H: sk.Public(), Keys: []*Element{sk.Public()}}
}

// shuffleTestDeck encrypts n cards of width w; component x of card i holds
// CardPoint(100*x + i).
func shuffleTestDeck(k *JointKey, n, w int) []Card {
	deck := make([]Card, n)
	for i := range deck {
		pts := make([]*Element, w)
		for x := range pts {
			pts[x] = CardPoint(100*x + i)
		}
		deck[i] = k.Encrypt(pts...)
	}
	return deck
}

// shuffleDecrypt opens every component of every card with sk (one-player
// key) and returns the index i of CardPoint(100*x+i), or -1.
func shuffleDecrypt(sk *SecretKey, deck []Card, n int) [][]int {
	kinds := make([][]int, len(deck))
	for i, c := range deck {
		for x, ct := range c {
			m := ristretto.NewIdentityElement().ScalarMult(sk.x, ct.A)
			m.Subtract(ct.B, m)
			kind := -1
			for j := range n {
				if m.Equal(CardPoint(100*x+j)) == 1 {
					kind = j
				}
			}
			kinds[i] = append(kinds[i], kind)
		}
	}
	return kinds
}

func TestShuffleCompleteness(t *testing.T) {
	ctx := Context{Table: [32]byte{7}, Pos: 3, Seat: 1}
	for _, n := range []int{1, 2, 3, 14, 48, 64} {
		for w := 1; w <= MaxWidth; w++ {
			t.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(t *testing.T) {
				sk, k := shuffleTestKey(t)
				in := shuffleTestDeck(k, n, w)
				out, p, err := k.Shuffle(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				if err := k.VerifyShuffle(ctx, in, out, p); err != nil {
					t.Fatalf("honest shuffle rejected: %v", err)
				}
				// Every card is still there, its components together.
				seen := make([]bool, n)
				for i, kinds := range shuffleDecrypt(sk, out, n) {
					for x := range kinds {
						if kinds[x] != kinds[0] || kinds[x] < 0 {
							t.Fatalf("output %d decrypts to %v", i, kinds)
						}
					}
					if seen[kinds[0]] {
						t.Fatalf("card %d appears twice", kinds[0])
					}
					seen[kinds[0]] = true
				}
				enc, err := p.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if len(enc) != ShuffleProofSize(n, w) {
					t.Fatalf("proof is %d bytes, want %d", len(enc), ShuffleProofSize(n, w))
				}
				p2, err := UnmarshalShuffleProof(enc, n, w)
				if err != nil {
					t.Fatal(err)
				}
				if err := k.VerifyShuffle(ctx, in, out, p2); err != nil {
					t.Fatalf("decoded proof rejected: %v", err)
				}
			})
		}
	}
}

// TestShuffleFaceUp shuffles a face-up deck (A = identity), the first step
// of every deal.
func TestShuffleFaceUp(t *testing.T) {
	_, k := shuffleTestKey(t)
	ctx := Context{Seat: 4}
	in := make([]Card, 5)
	for i := range in {
		in[i] = FaceUp(CardPoint(i), CardPoint(100+i))
	}
	out, p, err := k.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.VerifyShuffle(ctx, in, out, p); err != nil {
		t.Fatal(err)
	}
}

func TestShuffleRejectsBadDecks(t *testing.T) {
	_, k := shuffleTestKey(t)
	mixed := append(shuffleTestDeck(k, 2, 1), shuffleTestDeck(k, 1, 2)...)
	for name, deck := range map[string][]Card{
		"empty":    nil,
		"too long": shuffleTestDeck(k, MaxShuffle+1, 1),
		"width 0":  {Card{}},
		"width 6":  {append(shuffleTestDeck(k, 1, MaxWidth)[0], shuffleTestDeck(k, 1, 1)[0]...)},
		"mixed":    mixed,
		"nil":      {Card{{A: nil, B: Base()}}},
	} {
		if _, _, err := k.Shuffle(Context{}, deck); !errors.Is(err, ErrShuffle) {
			t.Errorf("%s: got %v, want ErrShuffle", name, err)
		}
	}
}

// shuffleProofFields lists every point and scalar of p by name, as
// pointers into p, for the tamper table.
func shuffleProofFields(p *ShuffleProof) (points map[string]**Element, scalars map[string]**Scalar) {
	points = map[string]**Element{"t1": &p.t1, "t2": &p.t2, "t3": &p.t3}
	scalars = map[string]**Scalar{"s1": &p.s1, "s2": &p.s2, "s3": &p.s3}
	for i := range p.permCommit {
		points[fmt.Sprintf("permCommit[%d]", i)] = &p.permCommit[i]
		points[fmt.Sprintf("chainCommit[%d]", i)] = &p.chainCommit[i]
		points[fmt.Sprintf("tHat[%d]", i)] = &p.tHat[i]
		scalars[fmt.Sprintf("sHat[%d]", i)] = &p.sHat[i]
		scalars[fmt.Sprintf("sPrime[%d]", i)] = &p.sPrime[i]
	}
	for x := range p.t4a {
		points[fmt.Sprintf("t4a[%d]", x)] = &p.t4a[x]
		points[fmt.Sprintf("t4b[%d]", x)] = &p.t4b[x]
		scalars[fmt.Sprintf("s4[%d]", x)] = &p.s4[x]
	}
	return points, scalars
}

func cloneShuffleProof(t *testing.T, p *ShuffleProof) *ShuffleProof {
	t.Helper()
	enc, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	q, err := UnmarshalShuffleProof(enc, p.n, p.w)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func cloneDeck(d []Card) []Card {
	out := make([]Card, len(d))
	for i, c := range d {
		out[i] = c.Clone()
	}
	return out
}

func TestShuffleSoundness(t *testing.T) {
	const n, w = 5, 2
	ctx := Context{Table: [32]byte{9, 9}, Pos: 12, Seat: 3}
	_, k := shuffleTestKey(t)
	in := shuffleTestDeck(k, n, w)
	out, p, err := k.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.VerifyShuffle(ctx, in, out, p); err != nil {
		t.Fatal(err)
	}
	reject := func(t *testing.T, what string, k *JointKey, ctx Context, in, out []Card, p *ShuffleProof) {
		t.Helper()
		err := k.VerifyShuffle(ctx, in, out, p)
		if !errors.Is(err, ErrProof) {
			t.Errorf("%s: got %v, want ErrProof", what, err)
		}
	}

	t.Run("statement", func(t *testing.T) {
		o := cloneDeck(out)
		o[1] = o[2].Clone()
		reject(t, "duplicated card (same ciphertext)", k, ctx, in, o, p)

		o = cloneDeck(out)
		o[1], _ = k.Remask(o[2])
		reject(t, "duplicated card (re-masked)", k, ctx, in, o, p)

		o = cloneDeck(out)
		o[3] = k.Encrypt(CardPoint(77), CardPoint(177))
		reject(t, "substituted card", k, ctx, in, o, p)

		reject(t, "dropped card", k, ctx, in, cloneDeck(out[:n-1]), p)
		reject(t, "dropped input", k, ctx, cloneDeck(in[:n-1]), out, p)

		o = cloneDeck(out)
		o[0], o[4] = o[4], o[0]
		reject(t, "outputs swapped after proving", k, ctx, in, o, p)

		i2 := cloneDeck(in)
		i2[0], i2[1] = i2[1], i2[0]
		reject(t, "inputs swapped", k, ctx, i2, out, p)

		o = cloneDeck(out)
		for i := range o {
			o[i] = o[i][:1]
		}
		reject(t, "narrower output", k, ctx, in, o, p)

		// Every point of every input and output card, one at a time.
		G := Base()
		for _, side := range []string{"in", "out"} {
			for i := range n {
				for x := range w {
					for _, ab := range []string{"A", "B"} {
						ii, oo := cloneDeck(in), cloneDeck(out)
						d := ii
						if side == "out" {
							d = oo
						}
						ct := d[i][x]
						if ab == "A" {
							ct.A = ristretto.NewIdentityElement().Add(ct.A, G)
						} else {
							ct.B = ristretto.NewIdentityElement().Add(ct.B, G)
						}
						d[i][x] = Ciphertext{A: ct.A, B: ct.B}
						reject(t, fmt.Sprintf("%s[%d][%d].%s + G", side, i, x, ab), k, ctx, ii, oo, p)
					}
				}
			}
		}
	})

	t.Run("another permutation", func(t *testing.T) {
		perm := []int{1, 2, 3, 4, 0}
		rho := make([][]*Scalar, n)
		for i := range rho {
			rho[i] = randomScalars(w)
		}
		o1, _, err := k.shuffleWith(ctx, in, perm, rho)
		if err != nil {
			t.Fatal(err)
		}
		perm2 := []int{0, 2, 1, 3, 4}
		_, p2, err := k.shuffleWith(ctx, in, perm2, rho)
		if err != nil {
			t.Fatal(err)
		}
		reject(t, "proof for another permutation's outputs", k, ctx, in, o1, p2)
		reject(t, "proof from another shuffle", k, ctx, in, o1, p)
	})

	t.Run("proof fields", func(t *testing.T) {
		q := cloneShuffleProof(t, p)
		pts, scs := shuffleProofFields(q)
		if got, want := len(pts)+len(scs), 5*n+6+3*w; got != want {
			t.Fatalf("tamper table covers %d fields, proof has %d", got, want)
		}
		one := shuffleSmallScalar(1)
		for name, f := range pts {
			old := *f
			*f = ristretto.NewIdentityElement().Add(old, Base())
			reject(t, name+" + G", k, ctx, in, out, q)
			*f = old
		}
		for name, f := range scs {
			old := *f
			*f = ristretto.NewScalar().Add(old, one)
			reject(t, name+" + 1", k, ctx, in, out, q)
			*f = old
		}
		if err := k.VerifyShuffle(ctx, in, out, q); err != nil {
			t.Fatalf("restored proof rejected: %v", err)
		}
	})

	t.Run("replay", func(t *testing.T) {
		for name, c := range map[string]Context{
			"table": {Table: [32]byte{9, 8}, Pos: ctx.Pos, Seat: ctx.Seat},
			"pos":   {Table: ctx.Table, Pos: ctx.Pos + 1, Seat: ctx.Seat},
			"seat":  {Table: ctx.Table, Pos: ctx.Pos, Seat: ctx.Seat + 1},
		} {
			reject(t, "another "+name, k, c, in, out, p)
		}
		_, k2 := shuffleTestKey(t)
		reject(t, "another joint key", k2, ctx, in, out, p)
		reject(t, "nil proof", k, ctx, in, out, nil)
	})

	t.Run("shape", func(t *testing.T) {
		enc, _ := p.MarshalBinary()
		for _, nw := range [][2]int{{n - 1, w}, {n + 1, w}, {n, w - 1}, {n, w + 1}} {
			if _, err := UnmarshalShuffleProof(enc, nw[0], nw[1]); err == nil {
				t.Errorf("proof for n=%d w=%d decoded as n=%d w=%d", n, w, nw[0], nw[1])
			}
		}
		// A well-formed proof of another shape never verifies this statement.
		other, err := UnmarshalShuffleProof(make2(ShuffleProofSize(n-1, w)), n-1, w)
		if err == nil {
			reject(t, "proof for n-1", k, ctx, in, out, other)
		}
		for name, b := range map[string][]byte{
			"truncated":    enc[:len(enc)-1],
			"short":        enc[:len(enc)-32],
			"trailing":     append(append([]byte{}, enc...), 0),
			"trailing 32":  append(append([]byte{}, enc...), make([]byte, 32)...),
			"empty":        nil,
			"noncanonical": nonCanonicalShuffle(enc, 0),
			"bad scalar":   nonCanonicalShuffle(enc, len(enc)-32),
		} {
			if _, err := UnmarshalShuffleProof(b, n, w); !errors.Is(err, ErrEncoding) {
				t.Errorf("%s: got %v, want ErrEncoding", name, err)
			}
		}
		for _, nw := range [][2]int{{0, 1}, {MaxShuffle + 1, 1}, {1, 0}, {1, MaxWidth + 1}} {
			if _, err := UnmarshalShuffleProof(nil, nw[0], nw[1]); !errors.Is(err, ErrShuffle) {
				t.Errorf("n=%d w=%d: got %v, want ErrShuffle", nw[0], nw[1], err)
			}
		}
	})
}

// TestShuffleFalseStatements runs the honest prover on statements that do
// not hold, with the real witness: each proof must be rejected. Dropping any
// one verification equation makes one of these pass.
func TestShuffleFalseStatements(t *testing.T) {
	const n, w = 5, 2
	ctx := Context{Table: [32]byte{3}, Pos: 1, Seat: 1}
	_, k := shuffleTestKey(t)
	in := shuffleTestDeck(k, n, w)
	perm := []int{3, 0, 4, 1, 2}
	rho := make([][]*Scalar, n)
	for i := range rho {
		rho[i] = randomScalars(w)
	}
	out, p, err := k.shuffleWith(ctx, in, perm, rho)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.VerifyShuffle(ctx, in, out, p); err != nil {
		t.Fatal(err)
	}
	try := func(what string, out []Card, perm []int, rho [][]*Scalar) {
		t.Helper()
		q, err := k.proveShuffle(ctx, in, out, perm, rho)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := k.VerifyShuffle(ctx, in, out, q); !errors.Is(err, ErrProof) {
			t.Errorf("%s: got %v, want ErrProof", what, err)
		}
	}
	G := Base()
	for i := range n {
		for x := range w {
			o := cloneDeck(out)
			o[i][x] = Ciphertext{A: ristretto.NewIdentityElement().Add(o[i][x].A, G), B: o[i][x].B}
			try(fmt.Sprintf("out[%d][%d].A off by G", i, x), o, perm, rho)
			o = cloneDeck(out)
			o[i][x] = Ciphertext{A: o[i][x].A, B: ristretto.NewIdentityElement().Add(o[i][x].B, G)}
			try(fmt.Sprintf("out[%d][%d].B off by G", i, x), o, perm, rho)
		}
	}
	o := cloneDeck(out)
	o[2] = k.Encrypt(CardPoint(50), CardPoint(150))
	try("substituted card", o, perm, rho)
	o = cloneDeck(out)
	o[1], _ = k.Remask(o[2])
	try("duplicated card", o, perm, rho)
	try("claimed permutation differs", out, []int{0, 3, 4, 1, 2}, rho)
	rho2 := make([][]*Scalar, n)
	copy(rho2, rho)
	rho2[4] = randomScalars(w)
	try("wrong randomness", out, perm, rho2)
}

// TestShuffleTranscriptBinding changes each absorbed value in turn and
// checks which challenges move (SPEC.md §5.3): the statement and the
// permutation commitments move every u_j and c; the chain commitments and
// t-values move c only; the responses move nothing (they come after c).
func TestShuffleTranscriptBinding(t *testing.T) {
	const n, w = 3, 2
	ctx := Context{Table: [32]byte{5}, Pos: 9, Seat: 4}
	_, k := shuffleTestKey(t)
	in := shuffleTestDeck(k, n, w)
	out, p, err := k.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	u0, c0 := k.shuffleChallenges(ctx, in, out, p)
	check := func(what string, k *JointKey, ctx Context, in, out []Card, p *ShuffleProof, uMoves, cMoves bool) {
		t.Helper()
		u, c := k.shuffleChallenges(ctx, in, out, p)
		for j := range u {
			if (u[j].Equal(u0[j]) == 0) != uMoves {
				t.Errorf("%s: u[%d] moved = %v, want %v", what, j, !uMoves, uMoves)
			}
		}
		if (c.Equal(c0) == 0) != cMoves {
			t.Errorf("%s: c moved = %v, want %v", what, !cMoves, cMoves)
		}
	}
	check("nothing", k, ctx, in, out, p, false, false)
	check("table", k, Context{Table: [32]byte{6}, Pos: 9, Seat: 4}, in, out, p, true, true)
	check("pos", k, Context{Table: ctx.Table, Pos: 10, Seat: 4}, in, out, p, true, true)
	check("seat", k, Context{Table: ctx.Table, Pos: 9, Seat: 5}, in, out, p, true, true)
	_, k2 := shuffleTestKey(t)
	check("H", k2, ctx, in, out, p, true, true)
	G := Base()
	for _, side := range []string{"in", "out"} {
		for i := range n {
			for x := range w {
				for _, ab := range []string{"A", "B"} {
					ii, oo := cloneDeck(in), cloneDeck(out)
					d := ii
					if side == "out" {
						d = oo
					}
					A, B := d[i][x].A, d[i][x].B
					if ab == "A" {
						A = ristretto.NewIdentityElement().Add(A, G)
					} else {
						B = ristretto.NewIdentityElement().Add(B, G)
					}
					d[i][x] = Ciphertext{A: A, B: B}
					check(fmt.Sprintf("%s[%d][%d].%s", side, i, x, ab), k, ctx, ii, oo, p, true, true)
				}
			}
		}
	}
	q := cloneShuffleProof(t, p)
	pts, scs := shuffleProofFields(q)
	for name, f := range pts {
		old := *f
		*f = ristretto.NewIdentityElement().Add(old, G)
		check(name, k, ctx, in, out, q, strings.HasPrefix(name, "permCommit"), true)
		*f = old
	}
	for name, f := range scs {
		old := *f
		*f = ristretto.NewScalar().Add(old, shuffleSmallScalar(1))
		check(name, k, ctx, in, out, q, false, false)
		*f = old
	}
}

// TestShuffleCompensatedTampering makes changes that leave every
// verification equation intact for fixed challenges, so only the
// transcript's binding of the changed values rejects them (the weak
// Fiat–Shamir attacks of design.md §8).
func TestShuffleCompensatedTampering(t *testing.T) {
	const n, w = 4, 1
	ctx := Context{Pos: 2}
	_, k := shuffleTestKey(t)
	in := shuffleTestDeck(k, n, w)
	out, p, err := k.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := k.shuffleChallenges(ctx, in, out, p)
	D := CardPoint(999)
	scaled := func(num, den *Scalar) *Element { // -(num/den)·D
		f := ristretto.NewScalar().Invert(den)
		f.Multiply(f, num).Negate(f)
		return ristretto.NewIdentityElement().ScalarMult(f, D)
	}
	// Outputs: Σ s'_i·B'_i is unchanged.
	o := cloneDeck(out)
	o[0][0] = Ciphertext{A: o[0][0].A, B: ristretto.NewIdentityElement().Add(o[0][0].B, D)}
	o[1][0] = Ciphertext{A: o[1][0].A, B: ristretto.NewIdentityElement().Add(o[1][0].B, scaled(p.sPrime[0], p.sPrime[1]))}
	if err := k.VerifyShuffle(ctx, in, o, p); !errors.Is(err, ErrProof) {
		t.Errorf("compensated outputs: got %v, want ErrProof", err)
	}
	// Inputs: Σ u_j·B_j is unchanged.
	ii := cloneDeck(in)
	ii[0][0] = Ciphertext{A: ii[0][0].A, B: ristretto.NewIdentityElement().Add(ii[0][0].B, D)}
	ii[1][0] = Ciphertext{A: ii[1][0].A, B: ristretto.NewIdentityElement().Add(ii[1][0].B, scaled(u[0], u[1]))}
	if err := k.VerifyShuffle(ctx, ii, out, p); !errors.Is(err, ErrProof) {
		t.Errorf("compensated inputs: got %v, want ErrProof", err)
	}
	// Permutation commitments: Σ c_j and Σ u_j·c_j are unchanged with
	// Δ_j = a_j·D, a = (u1-u2, u2-u0, u0-u1).
	q := cloneShuffleProof(t, p)
	a := []*Scalar{
		ristretto.NewScalar().Subtract(u[1], u[2]),
		ristretto.NewScalar().Subtract(u[2], u[0]),
		ristretto.NewScalar().Subtract(u[0], u[1]),
	}
	for j := range a {
		q.permCommit[j] = ristretto.NewIdentityElement().Add(q.permCommit[j], ristretto.NewIdentityElement().ScalarMult(a[j], D))
	}
	if err := k.VerifyShuffle(ctx, in, out, q); !errors.Is(err, ErrProof) {
		t.Errorf("compensated permutation commitments: got %v, want ErrProof", err)
	}
}

// TestShuffleBatch feeds shuffle checks into one weighted multi-scalar
// multiplication with other proofs' checks, as a Batch does.
func TestShuffleBatch(t *testing.T) {
	_, k := shuffleTestKey(t)
	ctx := Context{Pos: 4}
	in1, in2 := shuffleTestDeck(k, 4, 1), shuffleTestDeck(k, 3, 3)
	out1, p1, err1 := k.Shuffle(ctx, in1)
	out2, p2, err2 := k.Shuffle(ctx, in2)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	gather := func(out2 []Card) bool {
		c1, s1, err1 := k.shuffleChecks(ctx, in1, out1, p1)
		c2, s2, err2 := k.shuffleChecks(ctx, in2, out2, p2)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		return batchHolds(batchSeed(s1, s2), append(c1, c2...))
	}
	if !gather(out2) {
		t.Fatal("batch of two honest shuffles rejected")
	}
	bad := cloneDeck(out2)
	bad[0], bad[1] = bad[1], bad[0]
	if gather(bad) {
		t.Fatal("batch with a tampered shuffle accepted")
	}
}

// make2 returns n bytes encoding identity points and zero scalars (a
// canonical, meaningless proof).
func make2(n int) []byte { return make([]byte, n) }

// nonCanonicalShuffle returns enc with the 32 bytes at off replaced by an
// encoding no canonical decoder accepts (all 0xff: above p and above ℓ).
func nonCanonicalShuffle(enc []byte, off int) []byte {
	b := append([]byte{}, enc...)
	for i := off; i < off+32; i++ {
		b[i] = 0xff
	}
	return b
}

// Chi-square critical values at p = 0.001 (upper tail): df = 5 (3! = 6
// permutations) is 20.515, df = 23 (4! = 24) is 49.728. The tests run with
// a fixed seed (testing/cryptotest), so they are deterministic; with fresh
// randomness an unbiased sampler would fail them once in a thousand runs.
const (
	chi2df5  = 20.515
	chi2df23 = 49.728
)

func chiSquare(counts map[string]int, cells, runs int) float64 {
	exp := float64(runs) / float64(cells)
	var x float64
	for _, c := range counts {
		d := float64(c) - exp
		x += d * d / exp
	}
	// cells never seen contribute exp each
	x += float64(cells-len(counts)) * exp
	return x
}

// TestShufflePermutationDistribution runs the sampler alone: 6000 draws of
// a 3-card permutation (1000 expected per cell) and 24000 of a 4-card one.
// 6000 draws are enough to catch the classic biased Fisher–Yates (j drawn
// from 0..n-1 at every step), whose expected χ² here is about 74.
func TestShufflePermutationDistribution(t *testing.T) {
	cryptotest.SetGlobalRandom(t, 20260101)
	for _, tc := range []struct {
		n, cells, runs int
		limit          float64
	}{{3, 6, 6000, chi2df5}, {4, 24, 24000, chi2df23}} {
		counts := map[string]int{}
		for range tc.runs {
			counts[fmt.Sprint(shufflePermutation(tc.n))]++
		}
		if len(counts) != tc.cells {
			t.Fatalf("n=%d: %d permutations seen, want %d", tc.n, len(counts), tc.cells)
		}
		if x := chiSquare(counts, tc.cells, tc.runs); x > tc.limit {
			t.Errorf("n=%d: χ² = %.2f > %.3f: %v", tc.n, x, tc.limit, counts)
		}
	}
}

// TestShuffleDistribution tracks 1200 shuffles of a 3-card deck through the
// exported Shuffle, decrypting the output with the (one-player) secret key:
// every order must come out equally often (χ², df = 5, p = 0.001).
func TestShuffleDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("1200 shuffles")
	}
	cryptotest.SetGlobalRandom(t, 42)
	sk, k := shuffleTestKey(t)
	in := shuffleTestDeck(k, 3, 1)
	const runs = 1200
	counts := map[string]int{}
	for range runs {
		out, _, err := k.Shuffle(Context{}, in)
		if err != nil {
			t.Fatal(err)
		}
		counts[fmt.Sprint(shuffleDecrypt(sk, out, 3))]++
	}
	if len(counts) != 6 {
		t.Fatalf("%d orders seen, want 6: %v", len(counts), counts)
	}
	if x := chiSquare(counts, 6, runs); x > chi2df5 {
		t.Errorf("χ² = %.2f > %.3f: %v", x, chi2df5, counts)
	}
}

// The frozen vector: testdata/shuffle_vector.txt.
const shuffleVectorFile = "testdata/shuffle_vector.txt"

const shuffleVectorSeed = 0x6d61737175650005 // "masque" || 5

// shuffleVectorInputs builds the vector's statement without crypto/rand:
// the secret key and every masking scalar are SHA-512 of a label, reduced.
func shuffleVectorInputs() (*JointKey, Context, []Card) {
	det := func(label string, i int) *Scalar {
		h := sha512.Sum512([]byte(fmt.Sprintf("masque shuffle vector %s %d", label, i)))
		return ristretto.UniformScalar(h[:])
	}
	x := det("secret", 0)
	H := ristretto.NewIdentityElement().ScalarBaseMult(x)
	k := &JointKey{H: H, Keys: []*Element{H}}
	var ctx Context
	copy(ctx.Table[:], "masque shuffle test vector table")
	ctx.Pos, ctx.Seat = 17, 2
	const n, w = 6, 2
	deck := make([]Card, n)
	for i := range deck {
		c, _ := k.remask(FaceUp(CardPoint(i), CardPoint(100+i)), []*Scalar{det("mask", 2*i), det("mask", 2*i+1)})
		deck[i] = c
	}
	return k, ctx, deck
}

func deckHex(d []Card) []string {
	var s []string
	for _, c := range d {
		b, _ := c.MarshalBinary()
		s = append(s, hex.EncodeToString(b))
	}
	return s
}

// TestShuffleVector checks the frozen vector two ways: the stored proof
// verifies against the stored statement (catches a change to the
// transcript, the layout or the verifier), and re-proving with the stored
// seed reproduces the stored output and proof byte for byte (catches a
// change to the prover or to how it consumes randomness). Regenerate with
// go test -run TestShuffleVector -update-shuffle.
func TestShuffleVector(t *testing.T) {
	k, ctx, in := shuffleVectorInputs()
	cryptotest.SetGlobalRandom(t, shuffleVectorSeed)
	out, p, err := k.Shuffle(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if *updateShuffle {
		var b strings.Builder
		fmt.Fprintf(&b, "# masque verifiable shuffle test vector (mental/SPEC.md §5).\n")
		fmt.Fprintf(&b, "# Source: generated by TestShuffleVector in mental/shuffle_test.go with\n")
		fmt.Fprintf(&b, "# -update-shuffle: crypto/rand replaced by testing/cryptotest.SetGlobalRandom\n")
		fmt.Fprintf(&b, "# with the seed below; the key and the input masks are SHA-512 of fixed\n")
		fmt.Fprintf(&b, "# labels (shuffleVectorInputs). Secret key x = SHA-512(\"masque shuffle vector secret 0\") mod l.\n")
		fmt.Fprintf(&b, "seed: %d\n", uint64(shuffleVectorSeed))
		fmt.Fprintf(&b, "H: %x\n", k.H.AppendBytes(nil))
		fmt.Fprintf(&b, "table: %x\npos: %d\nseat: %d\n", ctx.Table, ctx.Pos, ctx.Seat)
		fmt.Fprintf(&b, "n: %d\nwidth: %d\n", len(in), len(in[0]))
		for _, h := range deckHex(in) {
			fmt.Fprintf(&b, "in: %s\n", h)
		}
		for _, h := range deckHex(out) {
			fmt.Fprintf(&b, "out: %s\n", h)
		}
		fmt.Fprintf(&b, "proof: %x\n", enc)
		if err := os.WriteFile(filepath.FromSlash(shuffleVectorFile), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	v := readShuffleVector(t)
	if v["seed"][0] != strconv.FormatUint(shuffleVectorSeed, 10) {
		t.Fatalf("vector seed %s, test seed %d", v["seed"][0], uint64(shuffleVectorSeed))
	}
	if got := hex.EncodeToString(k.H.AppendBytes(nil)); got != v["H"][0] {
		t.Fatalf("H = %s, vector has %s", got, v["H"][0])
	}
	if got := deckHex(in); strings.Join(got, ",") != strings.Join(v["in"], ",") {
		t.Fatalf("input deck differs from the vector")
	}
	// 1. The stored proof verifies against the stored statement.
	n, _ := strconv.Atoi(v["n"][0])
	w, _ := strconv.Atoi(v["width"][0])
	var vin, vout []Card
	for _, h := range v["in"] {
		vin = append(vin, mustCard(t, h))
	}
	for _, h := range v["out"] {
		vout = append(vout, mustCard(t, h))
	}
	pb, err := hex.DecodeString(v["proof"][0])
	if err != nil {
		t.Fatal(err)
	}
	vp, err := UnmarshalShuffleProof(pb, n, w)
	if err != nil {
		t.Fatalf("stored proof does not decode: %v", err)
	}
	if err := k.VerifyShuffle(ctx, vin, vout, vp); err != nil {
		t.Fatalf("stored proof does not verify: %v", err)
	}
	// 2. Re-proving reproduces it.
	if got := deckHex(out); strings.Join(got, ",") != strings.Join(v["out"], ",") {
		t.Errorf("output deck differs from the vector (run with -update-shuffle if the change is intended)")
	}
	if !bytes.Equal(enc, pb) {
		t.Errorf("proof differs from the vector (run with -update-shuffle if the change is intended)")
	}
}

func mustCard(t *testing.T, h string) Card {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil {
		t.Fatal(err)
	}
	c, err := UnmarshalCard(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func readShuffleVector(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(shuffleVectorFile))
	if err != nil {
		t.Fatalf("%v (generate it with -update-shuffle)", err)
	}
	defer f.Close()
	v := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("bad vector line %q", line)
		}
		v[key] = append(v[key], val)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"seed", "H", "n", "width", "proof"} {
		if len(v[key]) != 1 {
			t.Fatalf("vector has %d %q lines, want 1", len(v[key]), key)
		}
	}
	return v
}

func FuzzShuffleProofDecode(f *testing.F) {
	_, k := shuffleTestKey(f)
	for _, nw := range [][2]int{{1, 1}, {2, 3}, {3, 2}} {
		_, p, err := k.Shuffle(Context{}, shuffleTestDeck(k, nw[0], nw[1]))
		if err != nil {
			f.Fatal(err)
		}
		enc, _ := p.MarshalBinary()
		f.Add(byte(nw[1]-1), enc)
	}
	f.Add(byte(0), []byte{})
	f.Add(byte(1), make([]byte, ShuffleProofSize(2, 2)))
	f.Fuzz(func(t *testing.T, wb byte, b []byte) {
		// Pick n and w so that the length usually fits: w from wb, n from
		// the length, falling back to a shape derived from wb.
		w := 1 + int(wb%3)
		n := 1 + int(wb/3)%MaxShuffle
		if len(b)%32 == 0 && (len(b)/32-6-3*w) > 0 && (len(b)/32-6-3*w)%5 == 0 {
			n = (len(b)/32 - 6 - 3*w) / 5
		}
		p, err := UnmarshalShuffleProof(b, n, w)
		if err != nil {
			return
		}
		enc, err := p.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded proof does not encode: %v", err)
		}
		if !bytes.Equal(enc, b) {
			t.Fatalf("re-encoding differs")
		}
	})
}
