package mental

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Target codes (SPEC.md §9.6's, kept by §9.8 and §9.9): target i of a
// ballot over targets T_0..T_(n−1) has the code 3^i·G. A one-hot ballot's
// code sum (CodeSum) encrypts the code of the target it names; a pick
// (MixPick) opens one such encrypted code, to which the codes of other
// one-hot sums may be added, so that the opened value (MixTargets) names
// the set of targets and not which sum named which.

// MaxMixCodes is the most codes one opened value may add up (the mafia's
// winner and the Madman's target).
const MaxMixCodes = 2

// ErrMixCode is an opened code that is no sum of 1..MaxMixCodes target
// codes.
var ErrMixCode = errors.New("mental: the opened code names no targets")

// codePoints returns 3^i·G for i = 0..n−1, by additions (public values).
func codePoints(n int) []*Element {
	out := make([]*Element, n)
	p := ristretto.NewGeneratorElement()
	for i := range n {
		out[i] = ristretto.NewIdentityElement().Set(p)
		t := ristretto.NewIdentityElement().Add(p, p)
		p = t.Add(t, p)
	}
	return out
}

// CodeSum returns Σ_i 3^i·s_i, a width-1 card: for a sum whose entries
// hold one 1 (one voter's one-hot ballot), an encryption of the code of
// the target voted for (SPEC.md §9.8). Computed by Horner's rule with
// additions only; anyone computes the same ciphertext.
func (s BallotSum) CodeSum() (Card, error) {
	if len(s) == 0 || len(s) > MaxBallotEntries {
		return nil, fmt.Errorf("mental: a code sum of %d entries, want 1..%d", len(s), MaxBallotEntries)
	}
	a, b := ristretto.NewIdentityElement(), ristretto.NewIdentityElement()
	for i := len(s) - 1; i >= 0; i-- {
		if s[i].A == nil || s[i].B == nil {
			return nil, fmt.Errorf("mental: tally entry %d is missing", i)
		}
		a2 := ristretto.NewIdentityElement().Add(a, a)
		a = a2.Add(a2, a).Add(a2, s[i].A)
		b2 := ristretto.NewIdentityElement().Add(b, b)
		b = b2.Add(b2, b).Add(b2, s[i].B)
	}
	return Card{{A: a, B: b}}, nil
}

// MixPick returns the ciphertext a pick opens: the chosen card, an
// encrypted code (a one-vote kill's shuffled code sum, SPEC.md §9.8, or a
// plurality kill's true row's payload, §9.9; width 1), plus the code sums
// of the added one-hot sums (each over the same n targets).
func MixPick(pair Card, n int, add ...BallotSum) (Card, error) {
	if len(pair) != 1 {
		return nil, fmt.Errorf("mental: a picked card of width %d, want 1", len(pair))
	}
	if len(add)+1 > MaxMixCodes {
		return nil, fmt.Errorf("mental: a pick adding %d sums, at most %d", len(add), MaxMixCodes-1)
	}
	a := ristretto.NewIdentityElement().Set(pair[0].A)
	b := ristretto.NewIdentityElement().Set(pair[0].B)
	for j, s := range add {
		if len(s) != n {
			return nil, fmt.Errorf("mental: a pick adding a sum of %d entries to a tally of %d", len(s), n)
		}
		c, err := s.CodeSum()
		if err != nil {
			return nil, fmt.Errorf("mental: added sum %d: %w", j, err)
		}
		a.Add(a, c[0].A)
		b.Add(b, c[0].B)
	}
	return Card{{A: a, B: b}}, nil
}

// MixTargets decodes m, an opened pick over n targets adding k codes
// (k = 1..MaxMixCodes), into how many of the codes name each target:
// m = Σ_i c_i·3^i·G with every c_i ≥ 0 and Σ c_i = k. Base 3 makes every
// such multiset's value distinct (each c_i ≤ 2 is one base-3 digit).
// Variable time: the value is public once opened.
func MixTargets(m *Element, n, k int) ([]int, error) {
	if n < 1 || n > MaxBallotEntries || k < 1 || k > MaxMixCodes {
		return nil, fmt.Errorf("mental: decoding %d codes over %d targets", k, n)
	}
	codes := codePoints(n)
	out := make([]int, n)
	for i := range n {
		if k == 1 {
			if codes[i].Equal(m) == 1 {
				out[i] = 1
				return out, nil
			}
			continue
		}
		for j := i; j < n; j++ {
			if ristretto.NewIdentityElement().Add(codes[i], codes[j]).Equal(m) == 1 {
				out[i]++
				out[j]++
				return out, nil
			}
		}
	}
	return nil, ErrMixCode
}
