package mental

import (
	"bytes"
	"testing"
)

// Fuzz targets for every decoder (SPEC.md tests): no input panics, and
// whatever decodes re-encodes to exactly the input bytes. Decoded values are
// also fed to their verifier, which must not panic either. Run one with
//
//	go test ./mental/ -run '^$' -fuzz FuzzUnmarshalShare -fuzztime 30s

// fuzzFixture is a small table whose valid encodings seed the corpora.
type fuzzFixture struct {
	f     *tamperFixture
	ctx   Context
	cards []Card // widths 1, 2, 3
}

func newFuzzFixture(t testing.TB) *fuzzFixture {
	ff := &fuzzFixture{f: newTamperFixture(t, 2), ctx: Context{Table: [32]byte{'F'}, Pos: 1, Seat: 0}}
	ff.cards = []Card{
		ff.f.jk.Encrypt(CardPoint(1)),
		ff.f.jk.Encrypt(CardPoint(1), CardPoint(2)),
		ff.f.jk.Encrypt(CardPoint(1), CardPoint(2), CardPoint(3)),
	}
	return ff
}

func mustMarshal(t testing.TB, m interface{ MarshalBinary() ([]byte, error) }) []byte {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fuzzRoundTrip checks that a decoded value re-encodes to in.
func fuzzRoundTrip(t *testing.T, in []byte, m interface{ MarshalBinary() ([]byte, error) }) {
	t.Helper()
	out, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("decoded value does not re-encode: %v", err)
	}
	if !bytes.Equal(in, out) {
		t.Fatalf("re-encoding differs:\n in %x\nout %x", in, out)
	}
}

// card returns a fixture card of width w, or nil.
func (ff *fuzzFixture) card(w int) Card {
	if w < 1 || w > len(ff.cards) {
		return nil
	}
	return ff.cards[w-1]
}

func FuzzUnmarshalCard(f *testing.F) {
	ff := newFuzzFixture(f)
	for _, c := range ff.cards {
		f.Add(mustMarshal(f, c))
	}
	f.Add(mustMarshal(f, FaceUp(CardPoint(0))))
	f.Add([]byte{})
	f.Add([]byte{4})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := UnmarshalCard(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, c)
	})
}

func FuzzUnmarshalPublicKey(f *testing.F) {
	ff := newFuzzFixture(f)
	for _, pk := range ff.f.pks {
		f.Add(mustMarshal(f, pk))
	}
	f.Add(make([]byte, 96))
	f.Fuzz(func(t *testing.T, b []byte) {
		pk, err := UnmarshalPublicKey(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, pk)
		_ = pk.Verify(ff.f.kcs[0])
	})
}

func FuzzUnmarshalSwapProof(f *testing.F) {
	ff := newFuzzFixture(f)
	c0, c1 := ff.cards[0], ff.f.jk.Encrypt(CardPoint(5))
	o0, o1, p, err := ff.f.jk.Swap(ff.ctx, c0, c1, true)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, p))
	f.Add(make([]byte, swapSize))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := UnmarshalSwapProof(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, p)
		_ = ff.f.jk.VerifySwap(ff.ctx, c0, c1, o0, o1, p)
	})
}

func FuzzUnmarshalShare(f *testing.F) {
	ff := newFuzzFixture(f)
	for _, c := range ff.cards {
		s, err := ff.f.sks[0].Share(ff.ctx, c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(mustMarshal(f, s))
	}
	f.Add([]byte{0})
	f.Add([]byte{4})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := UnmarshalShare(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, s)
		if c := ff.card(len(s.D)); c != nil {
			_ = VerifyShare(ff.ctx, ff.f.jk.Keys[0], c, s)
		}
		_ = VerifyShare(ff.ctx, ff.f.jk.Keys[0], ff.cards[0], s) // maybe the wrong width
	})
}

func FuzzUnmarshalEncryptedShare(f *testing.F) {
	ff := newFuzzFixture(f)
	Y := ff.f.jk.Keys[1]
	for _, c := range ff.cards {
		es, err := ff.f.sks[0].EncryptShare(ff.ctx, c, Y)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(mustMarshal(f, es))
	}
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		es, err := UnmarshalEncryptedShare(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, es)
		if c := ff.card(len(es.E1)); c != nil {
			_ = VerifyEncryptedShare(ff.ctx, ff.f.jk.Keys[0], Y, c, es)
		}
		_ = ff.f.sks[1].Decrypt(es)
	})
}

func FuzzUnmarshalBallot(f *testing.F) {
	ff := newFuzzFixture(f)
	for _, tc := range []struct{ n, choice int }{{1, 0}, {1, NoVote}, {3, 2}, {4, NoVote}} {
		b, err := ff.f.jk.CastBallot(ff.ctx, tc.n, tc.choice)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(mustMarshal(f, b))
	}
	f.Add([]byte{0})
	f.Add([]byte{65})
	f.Fuzz(func(t *testing.T, b []byte) {
		bl, err := UnmarshalBallot(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, bl)
		_ = VerifyBallot(ff.ctx, ff.f.jk, bl)
		if _, err := AddBallots(bl, bl); err != nil {
			t.Fatalf("a decoded ballot cannot be added: %v", err)
		}
	})
}

func FuzzUnmarshalCoin(f *testing.F) {
	c, r := CoinCommit(Context{}, "fuzz")
	f.Add(c[:])
	f.Add(r[:])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		if c, err := UnmarshalCoinCommitment(b); err == nil {
			fuzzRoundTrip(t, b, c)
		}
		if r, err := UnmarshalCoinReveal(b); err == nil {
			fuzzRoundTrip(t, b, r)
			_ = VerifyCoinReveal(Context{}, "fuzz", c, r)
		}
	})
}

// FuzzCoinStream checks that draws stay in range for any seed, purpose
// and bound, and that permutations are permutations.
func FuzzCoinStream(f *testing.F) {
	f.Add(make([]byte, 32), "p", uint32(7))
	f.Add(bytes.Repeat([]byte{0xff}, 32), "", uint32(1))
	f.Fuzz(func(t *testing.T, seedBytes []byte, purpose string, n uint32) {
		var seed [32]byte
		copy(seed[:], seedBytes)
		bound := int(n%1000) + 1
		v, err := CoinIntn(seed, purpose, bound)
		if err != nil || v < 0 || v >= bound {
			t.Fatalf("CoinIntn(%d) = %d, %v", bound, v, err)
		}
		p, err := CoinPermutation(seed, purpose, bound%70)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, len(p))
		for _, x := range p {
			if x < 0 || x >= len(p) || seen[x] {
				t.Fatalf("not a permutation: %v", p)
			}
			seen[x] = true
		}
	})
}

// FuzzUnmarshalSigmaProof exercises the generic proof decoder with the
// shape of a one-vote ballot (ANDs, ORs and multi-equation leaves).
func FuzzUnmarshalSigmaProof(f *testing.F) {
	ff := newFuzzFixture(f)
	b, err := ff.f.jk.CastBallot(ff.ctx, 1, 0)
	if err != nil {
		f.Fatal(err)
	}
	fm := ballotFormula(ff.f.jk.H, b.Entries)
	f.Add(b.proof.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, in []byte) {
		p, err := UnmarshalSigmaProof(fm, in)
		if err != nil {
			return
		}
		if out := p.AppendBinary(nil); !bytes.Equal(in, out) {
			t.Fatalf("re-encoding differs")
		}
		_ = VerifyFormula(ff.ctx, labelBallot, fm, p)
	})
}

// FuzzUnmarshalViewedHoldingProof: the viewed-holding proof decoder (the
// statements of Grimm's hints and Mascarade's coin shares) never panics,
// for any number of kinds, and accepts only canonical encodings of the
// proof's size.
func FuzzUnmarshalViewedHoldingProof(f *testing.F) {
	for _, k := range []int{1, 2, 5} {
		f.Add(uint8(k), make([]byte, ViewedHoldingProofSize(k)))
	}
	f.Add(uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, kinds uint8, in []byte) {
		p, err := UnmarshalViewedHoldingProof(in, int(kinds))
		if err != nil {
			return
		}
		if len(in) != ViewedHoldingProofSize(int(kinds)) {
			t.Fatalf("a proof of %d bytes accepted for %d kinds", len(in), kinds)
		}
		if out := p.AppendBinary(nil); !bytes.Equal(in, out) {
			t.Fatal("re-encoding differs")
		}
	})
}

func FuzzUnmarshalNotHeldProof(f *testing.F) {
	ff := newFuzzFixture(f)
	view := GenerateKey()
	c := ff.cards[0]
	var sent []*EncryptedShare
	for i := 1; i < len(ff.f.sks); i++ {
		es, err := ff.f.sks[i].EncryptShare(ff.ctx, c, view.Public())
		if err != nil {
			f.Fatal(err)
		}
		sent = append(sent, es)
	}
	for kind := range 3 {
		if p, err := ProveNotHeld(ff.ctx, ff.f.sks[0], view, c, 0, sent, kind); err == nil {
			f.Add(mustMarshal(f, p))
		}
	}
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := UnmarshalNotHeldProof(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, p)
		_ = VerifyNotHeld(ff.ctx, ff.f.jk.Keys[0], view.Public(), c, 0, sent, 1, p)
	})
}

func FuzzUnmarshalCoinShare(f *testing.F) {
	ff := newFuzzFixture(f)
	Q := CoinPoint(ff.ctx.Table, 3)
	s, err := ff.f.sks[0].CoinShare(ff.ctx, Q)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, s))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := UnmarshalCoinShare(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, s)
		_ = VerifyCoinShare(ff.ctx, ff.f.jk.Keys[0], Q, s)
	})
}

func FuzzUnmarshalBlindStep(f *testing.F) {
	ff := newFuzzFixture(f)
	c := Card{ff.cards[0][0]}
	s, err := ff.f.sks[0].BlindStep(ff.ctx, c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, s))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := UnmarshalBlindStep(b)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, b, s)
		_ = VerifyBlindStep(ff.ctx, ff.f.jk.Keys[0], c, s)
	})
}

func FuzzUnmarshalCountLookup(f *testing.F) {
	ff := newFuzzFixture(f)
	const n = 3
	b, err := ff.f.jk.CastBallot(ff.ctx, n, 1)
	if err != nil {
		f.Fatal(err)
	}
	tally, err := AddBallots(b)
	if err != nil {
		f.Fatal(err)
	}
	l, err := ProveCountLookup(ff.ctx, ff.f.jk, b.Secret(), tally)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, l), uint8(n))
	f.Add([]byte{0}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, m uint8) {
		l, err := UnmarshalCountLookup(data, int(m))
		if err != nil {
			return
		}
		if len(data) != CountLookupSize(int(m)) {
			t.Fatalf("decoded %d bytes as a lookup over %d targets", len(data), m)
		}
		fuzzRoundTrip(t, data, l)
		if int(m) == n {
			_ = VerifyCountLookup(ff.ctx, ff.f.jk, b.Entries, tally, l)
		}
	})
}

func FuzzUnmarshalBallotSecret(f *testing.F) {
	ff := newFuzzFixture(f)
	b, err := ff.f.jk.CastBallot(ff.ctx, 3, 2)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, b.Secret()))
	f.Add([]byte{3})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := UnmarshalBallotSecret(data, ff.f.jk, b.Entries)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, data, s)
	})
}
