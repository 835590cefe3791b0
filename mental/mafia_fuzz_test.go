package mental

import "testing"

// Fuzz targets for Mafia's decoders (SPEC.md §9): no input panics, what
// decodes re-encodes to exactly the input, and the verifier of a decoded
// value does not panic either.

var mFuzzRoles = []int{mCivilian, mCommissar, mMafioso, mDon}

func FuzzUnmarshalPowerBallot(f *testing.F) {
	mt := newMafiaTable(f, mFuzzRoles, false)
	st := mt.powerStatement(3, 1, mKill, false)
	ctx := mt.ctx(3, 1)
	b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[3], mt.views[3], st, 0)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, b), false)
	st2 := mt.powerStatement(0, 1, mKill, false)
	b2, err := ProvePowerBallot(mt.ctx(0, 1), mt.jk, mt.sks[0], mt.views[0], st2, NoVote)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, b2), true)
	f.Add([]byte{4}, false)
	f.Fuzz(func(t *testing.T, data []byte, civilian bool) {
		seat, s, c := 3, st, ctx
		if civilian {
			seat, s, c = 0, st2, mt.ctx(0, 1)
		}
		d, err := UnmarshalPowerBallot(data, s, uint32(seat))
		if err != nil {
			return
		}
		fuzzRoundTrip(t, data, d)
		_ = VerifyPowerBallot(c, mt.jk, s, d)
	})
}

func FuzzUnmarshalCheck(f *testing.F) {
	mt := newMafiaTable(f, mFuzzRoles, false)
	st := mt.checkStatement(1, true)
	ctx := mt.ctx(1, 1)
	c, err := ProveCheck(ctx, mt.jk, mt.sks[1], mt.views[1], st, 3)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustMarshal(f, c))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := UnmarshalCheck(data, st, 1)
		if err != nil {
			return
		}
		fuzzRoundTrip(t, data, d)
		_ = VerifyCheck(ctx, mt.jk, st, d)
	})
}

// Statements a table could build from peer-chosen values (targets, kinds,
// components) never panic the verifier or the decoder.
func FuzzPowerStatement(f *testing.F) {
	mt := newMafiaTable(f, mFuzzRoles, false)
	st := mt.powerStatement(3, 1, mKill, false)
	b, err := ProvePowerBallot(mt.ctx(3, 1), mt.jk, mt.sks[3], mt.views[3], st, 0)
	if err != nil {
		f.Fatal(err)
	}
	enc := mustMarshal(f, b)
	f.Add([]byte{0, 1, 2, 3}, []byte{4, 5}, 0, false)
	f.Fuzz(func(t *testing.T, targets, holders []byte, comp int, self bool) {
		s := *st
		s.Targets = nil
		for _, x := range targets {
			s.Targets = append(s.Targets, uint32(x%8))
		}
		s.Holders = nil
		for _, x := range holders {
			s.Holders = append(s.Holders, int(x%8)-1)
		}
		s.Comp, s.SelfAllowed = comp, self
		_ = VerifyPowerBallot(mt.ctx(3, 1), mt.jk, &s, b)
		if d, err := UnmarshalPowerBallot(enc, &s, 3); err == nil {
			_ = VerifyPowerBallot(mt.ctx(3, 1), mt.jk, &s, d)
		}
		cs := mt.checkStatement(1, true)
		cs.Targets = s.Targets
		cs.Holders = s.Holders
		cs.TargetComp = comp
		_, _ = UnmarshalCheck(enc, cs, 1)
	})
}

func FuzzRetiredKey(f *testing.F) {
	sk := GenerateKey()
	f.Add(sk.Bytes())
	f.Add([]byte{1})
	X := sk.Public()
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := RetiredKey(b, X)
		if err != nil {
			return
		}
		if k.Public().Equal(X) != 1 {
			t.Fatal("a retired key that is not the seat's was accepted")
		}
	})
}
