package mental

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// lookupNight is a night's kill ballots (plain ballots: the count lookup
// takes any ballot's entries and secret) over n targets, one per seat, and
// their sum.
type lookupNight struct {
	ballots []*Ballot
	tally   BallotSum
}

func newLookupNight(t testing.TB, jk *JointKey, n int, votes []int) *lookupNight {
	t.Helper()
	ln := &lookupNight{}
	for seat, v := range votes {
		b, err := jk.CastBallot(Context{Table: [32]byte{'k', 'l'}, Pos: 1, Seat: uint32(seat)}, n, v)
		if err != nil {
			t.Fatal(err)
		}
		ln.ballots = append(ln.ballots, b)
	}
	sum, err := AddBallots(ln.ballots...)
	if err != nil {
		t.Fatal(err)
	}
	ln.tally = sum
	return ln
}

func lookupCtx(seat int) Context {
	return Context{Table: [32]byte{'k', 'l'}, Pos: 40, Seat: uint32(seat)}
}

// decryptWith opens a width-1 card with every secret key (the test knows
// them all).
func decryptWith(t testing.TB, sks []*SecretKey, c Card) *Element {
	t.Helper()
	var all [][]*Element
	for _, sk := range sks {
		all = append(all, sk.RetiredShare(c))
	}
	m, err := Open(c, all)
	if err != nil {
		t.Fatal(err)
	}
	return m[0]
}

// votesCount returns how many of votes name votes[i]'s target (0 for
// NoVote).
func votesCount(votes []int, i int) int {
	if votes[i] == NoVote {
		return 0
	}
	c := 0
	for _, v := range votes {
		if v == votes[i] {
			c++
		}
	}
	return c
}

// Every seat's count lookup verifies, alone, decoded and in a batch, and W
// encrypts its own target's count (0 without a vote).
func TestCountLookup(t *testing.T) {
	const n = 6
	sks, jk := ballotTable(t, n)
	for _, votes := range [][]int{
		{2, NoVote, 2, NoVote, 2, NoVote},
		{1, NoVote, 1, NoVote, 4, NoVote},
		{0, NoVote, 3, NoVote, 5, NoVote},
		{NoVote, 5, NoVote, 0, NoVote, NoVote},
	} {
		ln := newLookupNight(t, jk, n, votes)
		var bt Batch
		for seat := range n {
			ctx := lookupCtx(seat)
			l, err := ProveCountLookup(ctx, jk, ln.ballots[seat].Secret(), ln.tally)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyCountLookup(ctx, jk, ln.ballots[seat].Entries, ln.tally, l); err != nil {
				t.Fatalf("votes %v, seat %d: %v", votes, seat, err)
			}
			b, err := l.MarshalBinary()
			if err != nil || len(b) != CountLookupSize(n) {
				t.Fatalf("encoding of %d bytes, want %d: %v", len(b), CountLookupSize(n), err)
			}
			back, err := UnmarshalCountLookup(b, n)
			if err != nil {
				t.Fatal(err)
			}
			bt.AddCountLookup(fmt.Sprintf("seat %d", seat), ctx, jk, ln.ballots[seat].Entries, ln.tally, back)
			got, err := TallyCount(decryptWith(t, sks, back.W))
			if err != nil || got != votesCount(votes, seat) {
				t.Errorf("votes %v, seat %d: W encrypts %d (%v), want %d", votes, seat, got, err, votesCount(votes, seat))
			}
		}
		if err := bt.Verify(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ProveCountLookup(lookupCtx(0), jk, (&Ballot{}).Secret(), nil); err == nil {
		t.Error("a lookup without a ballot secret was made")
	}
	if _, err := UnmarshalCountLookup(make([]byte, CountLookupSize(3)), 4); err == nil {
		t.Error("a lookup of the wrong size decoded")
	}
}

// Count lookups that say something false, or are replayed, are refused
// alone and in a batch: the statement binds W to the author's own ballot
// and to the tally.
func TestCountLookupSoundness(t *testing.T) {
	const n = 5
	_, jk := ballotTable(t, n)
	votes := []int{1, 1, 3, NoVote, NoVote} // counts: target 1: 2, target 3: 1
	ln := newLookupNight(t, jk, n, votes)
	other := newLookupNight(t, jk, n, []int{3, 1, 3, NoVote, NoVote})
	onehot := func(i int) []*Scalar {
		b := make([]*Scalar, n)
		for j := range b {
			b[j] = bitScalar(ctIntEq(i, j))
		}
		return b
	}
	forge := func(seat int, b []*Scalar) *CountLookup {
		t.Helper()
		sec := ln.ballots[seat].Secret()
		l, err := countLookupProve(lookupCtx(seat), jk, sec.entries, ln.tally, b, sec.o.r, randomScalar())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	honest := func(ctx Context, seat int) *CountLookup {
		t.Helper()
		l, err := ProveCountLookup(ctx, jk, ln.ballots[seat].Secret(), ln.tally)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	shifted := func(l *CountLookup, d int) *CountLookup {
		g := ristretto.NewIdentityElement().ScalarBaseMult(shuffleSmallScalar(1))
		b := ristretto.NewIdentityElement()
		if d > 0 {
			b.Add(l.W[0].B, g)
		} else {
			b.Subtract(l.W[0].B, g)
		}
		return &CountLookup{W: Card{{A: l.W[0].A, B: b}}, proof: l.proof, known: l.known}
	}
	// seat 0's lookup as another seat's: proven over seat 0's ballot
	// under seat 3's context.
	sec0 := ln.ballots[0].Secret()
	copied, err := ProveCountLookup(lookupCtx(3), jk, sec0, ln.tally)
	if err != nil {
		t.Fatal(err)
	}
	type forgery struct {
		name    string
		ctx     Context
		seat    int // whose ballot the verifier takes
		tally   BallotSum
		l       *CountLookup
		entries []Ciphertext // if set, instead of seat's ballot
	}
	base := lookupCtx(0)
	cases := []forgery{
		{name: "a W for another target (seat 2 voted 3, claims target 1's count)", ctx: lookupCtx(2), seat: 2, l: forge(2, onehot(1))},
		{name: "a non-voter claims target 1's count", ctx: lookupCtx(3), seat: 3, l: forge(3, onehot(1))},
		{name: "a voter claims no vote (count 0)", ctx: lookupCtx(0), seat: 0, l: forge(0, onehot(NoVote))},
		{name: "a W from another seat's ballot", ctx: lookupCtx(3), seat: 3, l: copied},
		{name: "count one more", ctx: base, seat: 0, l: shifted(honest(base, 0), 1)},
		{name: "count one less", ctx: base, seat: 0, l: shifted(honest(base, 0), -1)},
		{name: "replayed under another table", ctx: Context{Table: [32]byte{'x'}, Pos: base.Pos, Seat: 0}, seat: 0, l: honest(base, 0)},
		{name: "replayed at another position", ctx: Context{Table: base.Table, Pos: base.Pos + 1, Seat: 0}, seat: 0, l: honest(base, 0)},
		{name: "replayed as another seat's (with its ballot)", ctx: lookupCtx(1), seat: 1, l: honest(base, 0)},
		{name: "replayed as another seat's (with the author's ballot)", ctx: lookupCtx(1), seat: 0, l: honest(base, 0)},
		{name: "replayed against another night's tally", ctx: base, seat: 0, tally: other.tally, l: honest(base, 0)},
		{name: "against another ballot of the same vote", ctx: base, seat: 0, entries: other.ballots[1].Entries, l: honest(base, 0)},
	}
	for _, tc := range cases {
		tally := tc.tally
		if tally == nil {
			tally = ln.tally
		}
		entries := tc.entries
		if entries == nil {
			entries = ln.ballots[tc.seat].Entries
		}
		if err := VerifyCountLookup(tc.ctx, jk, entries, tally, tc.l); !errors.Is(err, ErrProof) {
			t.Errorf("%s: verified (%v)", tc.name, err)
		}
		var bt Batch
		for seat := range n {
			bt.AddCountLookup(fmt.Sprintf("seat %d", seat), lookupCtx(seat), jk, ln.ballots[seat].Entries, ln.tally, honest(lookupCtx(seat), seat))
		}
		bt.AddCountLookup("forged", tc.ctx, jk, entries, tally, tc.l)
		var be *BatchError
		if err := bt.Verify(); !errors.As(err, &be) || be.Name != "forged" {
			t.Errorf("%s: the batch says %v", tc.name, err)
		}
	}
	// Every bit of an honest encoding flipped: refused by the decoder or
	// the verifier.
	b, err := honest(base, 0).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		for _, bit := range []byte{1, 0x80} {
			c := slices.Clone(b)
			c[i] ^= bit
			l, err := UnmarshalCountLookup(c, n)
			if err != nil {
				continue
			}
			if VerifyCountLookup(base, jk, ln.ballots[0].Entries, ln.tally, l) == nil {
				t.Fatalf("byte %d ^ %#x verified", i, bit)
			}
		}
	}
}

func TestKillCountVectors(t *testing.T) {
	want3 := [][]int{{1, 1, 1}, {1, 2, 2}, {2, 1, 2}, {2, 2, 1}, {3, 3, 3}}
	got3, err := KillCountVectors(3)
	if err != nil || !slices.EqualFunc(got3, want3, slices.Equal) {
		t.Errorf("k = 3: %v (%v), want %v", got3, err, want3)
	}
	for k, want := range map[int]int{2: 2, 3: 5, 4: 13, 5: 42} {
		cs, err := KillCountVectors(k)
		if err != nil || len(cs) != want {
			t.Errorf("k = %d: %d vectors (%v), want %d", k, len(cs), err, want)
		}
		seen := map[int]bool{}
		for _, c := range cs {
			v := killRadixValue(c)
			if seen[v] {
				t.Errorf("k = %d: two vectors of value %d", k, v)
			}
			seen[v] = true
		}
	}
	for _, k := range []int{-1, 0, 1, 6} {
		if _, err := KillCountVectors(k); err == nil {
			t.Errorf("k = %d accepted", k)
		}
	}
	for _, tc := range []struct {
		c    []int
		want int
	}{{[]int{1, 1, 1}, 0}, {[]int{1, 2, 2}, 1}, {[]int{2, 1, 2}, 0}, {[]int{2, 2, 1}, 0}, {[]int{1, 1, 2, 2}, 2}, {[]int{1, 3, 1, 3}, 1}} {
		if got := KillWinner(tc.c); got != tc.want {
			t.Errorf("KillWinner(%v) = %d, want %d", tc.c, got, tc.want)
		}
	}
}

// partitionsOf calls fn with every assignment of k votes to targets 0, 1,
// … up to renaming (restricted growth strings).
func partitionsOf(k int, fn func([]int)) {
	a := make([]int, k)
	var walk func(j, blocks int)
	walk = func(j, blocks int) {
		if j == k {
			fn(slices.Clone(a))
			return
		}
		for b := 0; b <= blocks; b++ {
			a[j] = b
			nb := blocks
			if b == blocks {
				nb++
			}
			walk(j+1, nb)
		}
	}
	walk(0, 0)
}

// For every way k = 2..5 votes can fall, exactly one row's key encrypts
// the identity, and its payload is the code of a vote for a target named
// most often: the first such vote in the cards' order.
func TestKillRows(t *testing.T) {
	sks, jk := ballotTable(t, 3)
	codes := codePoints(MaxKillVotes)
	for k := MinKillVotes; k <= MaxKillVotes; k++ {
		partitionsOf(k, func(targets []int) {
			votes := make([]Card, k)
			for j, tg := range targets {
				V := jk.Encrypt(codes[tg])
				W := jk.Encrypt(ristretto.NewIdentityElement().ScalarBaseMult(shuffleSmallScalar(votesCount(targets, j))))
				votes[j] = Card{V[0], W[0]}
			}
			rows, err := KillRows(votes)
			if err != nil {
				t.Fatal(err)
			}
			var ids []bool
			for _, r := range rows {
				key, err := KillRowKey(r)
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, isIdentity(decryptWith(t, sks, key)))
			}
			w, err := KillRowWinner(ids)
			if err != nil {
				t.Fatalf("votes %v: %v", targets, err)
			}
			pay, err := KillRowPayload(rows[w])
			if err != nil {
				t.Fatal(err)
			}
			m := decryptWith(t, sks, pay)
			winner := slices.IndexFunc(codes, func(c *Element) bool { return c.Equal(m) == 1 })
			best := 0
			for j := range targets {
				best = max(best, votesCount(targets, j))
			}
			first := slices.IndexFunc(targets, func(tg int) bool { return votesCount(targets, slices.Index(targets, tg)) == best })
			if winner != targets[first] {
				t.Errorf("votes %v: the table picks target %d, want %d", targets, winner, targets[first])
			}
		})
	}
	if _, err := KillRows(make([]Card, 1)); err == nil {
		t.Error("a kill table of one vote was laid")
	}
	if _, err := KillRows([]Card{jk.Encrypt(Base()), jk.Encrypt(Base())}); err == nil {
		t.Error("a kill table of width-1 vote cards was laid")
	}
}

// The decisions refuse answers no honest table gives.
func TestKillTestsRefused(t *testing.T) {
	if _, err := KillRowWinner([]bool{false, true, false, true, false}); !errors.Is(err, ErrKillTests) {
		t.Errorf("two true rows: %v", err)
	}
	if _, err := KillRowWinner([]bool{false, false, false}); !errors.Is(err, ErrKillTests) {
		t.Errorf("no true row: %v", err)
	}
	if w, err := KillRowWinner([]bool{false, false, true}); err != nil || w != 2 {
		t.Errorf("one true row: %d, %v", w, err)
	}
	if _, err := KillVotes([]bool{true, false, false, true}, 3); !errors.Is(err, ErrKillTests) {
		t.Errorf("two votes for three holders: %v", err)
	}
	if v, err := KillVotes([]bool{true, false, false, true, false}, 3); err != nil || !slices.Equal(v, []int{1, 2, 4}) {
		t.Errorf("three votes: %v, %v", v, err)
	}
}

// A shuffler of the kill table cannot move a payload to another key, nor
// put in a second identity key, nor drop the true row: §5's proof refuses
// each.
func TestKillRowsShuffleSoundness(t *testing.T) {
	_, jk := ballotTable(t, 3)
	codes := codePoints(4)
	targets := []int{0, 2, 2}
	votes := make([]Card, 3)
	for j, tg := range targets {
		V := jk.Encrypt(codes[tg])
		W := jk.Encrypt(ristretto.NewIdentityElement().ScalarBaseMult(shuffleSmallScalar(votesCount(targets, j))))
		votes[j] = Card{V[0], W[0]}
	}
	rows, err := KillRows(votes)
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Table: [32]byte{'k', 'r'}, Pos: 3, Seat: 1}
	out, p, err := jk.Shuffle(ctx, rows)
	if err != nil {
		t.Fatal(err)
	}
	if err := jk.VerifyShuffle(ctx, rows, out, p); err != nil {
		t.Fatal(err)
	}
	swapped := slices.Clone(out)
	swapped[0] = Card{out[0][0], out[1][1]}
	swapped[1] = Card{out[1][0], out[0][1]}
	secondID := slices.Clone(out)
	secondID[2] = Card{jk.Encrypt(Identity())[0], out[2][1]}
	dropped := slices.Clone(out)
	dropped[3] = out[4].Clone()
	for name, bad := range map[string][]Card{"payloads exchanged": swapped, "a second identity key": secondID, "a row copied over another": dropped} {
		if err := jk.VerifyShuffle(ctx, rows, bad, p); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	// The rows of a table laid from other vote cards are not the rows.
	other := slices.Clone(votes)
	other[0], other[1] = votes[1], votes[0]
	rows2, _ := KillRows(other)
	if err := jk.VerifyShuffle(ctx, rows2, out, p); err == nil {
		t.Error("a shuffle verified against another order's table")
	}
}

// pluralityKill runs a whole plurality kill (SPEC.md §9.9) at a table of
// len(votes) seats, every proof verified: kill ballots, count lookups, the
// vote mix, the vote tests, the kill table, its mix and tests, the pick
// with the Madman's code sum added (madman ≥ 0). It returns the victim
// (the mafia's; the Madman's taken out) and the number of blinded tests.
func pluralityKill(t *testing.T, sks []*SecretKey, jk *JointKey, votes []int, k, madman int) (int, int) {
	t.Helper()
	n := len(votes)
	ln := newLookupNight(t, jk, n, votes)
	var cards []Card
	for seat := range n {
		ctx := lookupCtx(seat)
		l, err := ProveCountLookup(ctx, jk, ln.ballots[seat].Secret(), ln.tally)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyCountLookup(ctx, jk, ln.ballots[seat].Entries, ln.tally, l); err != nil {
			t.Fatal(err)
		}
		c, err := VoteCard(ln.ballots[seat].Entries, l)
		if err != nil {
			t.Fatal(err)
		}
		cards = append(cards, c)
	}
	mixed := mixShuffle(t, jk, cards, n)
	tests := 0
	var ids []bool
	for _, c := range mixed {
		id, _ := blindChain(t, sks, nil, Card{c[0]})
		ids = append(ids, id)
		tests++
	}
	pos, err := KillVotes(ids, k)
	if err != nil {
		t.Fatal(err)
	}
	var vc []Card
	for _, p := range pos {
		vc = append(vc, mixed[p])
	}
	rows, err := KillRows(vc)
	if err != nil {
		t.Fatal(err)
	}
	rows = mixShuffle(t, jk, rows, n)
	ids = ids[:0]
	for _, r := range rows {
		key, err := KillRowKey(r)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := blindChain(t, sks, nil, key)
		ids = append(ids, id)
		tests++
	}
	w, err := KillRowWinner(ids)
	if err != nil {
		t.Fatal(err)
	}
	pay, err := KillRowPayload(rows[w])
	if err != nil {
		t.Fatal(err)
	}
	var add []BallotSum
	if madman >= 0 {
		add = append(add, mixSum(t, jk, n, madman))
	}
	pick, err := MixPick(pay, n, add...)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := MixTargets(mixOpen(t, sks, pick), n, 1+len(add))
	if err != nil {
		t.Fatal(err)
	}
	if madman >= 0 {
		counts[madman]--
	}
	victim := slices.Index(counts, 1)
	return victim, tests
}

// The plurality kill of three holders names the target most of them
// named, and the same number of tests runs whether they agreed, split
// 2–1 or 1–1–1.
func TestPluralityKill(t *testing.T) {
	const n = 5
	sks, jk := ballotTable(t, n)
	for _, tc := range []struct {
		name  string
		votes []int
		want  []int // acceptable victims
	}{
		{"agreed", []int{3, NoVote, 3, 3, NoVote}, []int{3}},
		{"2–1", []int{4, NoVote, 1, 4, NoVote}, []int{4}},
		{"1–2", []int{1, NoVote, 4, 4, NoVote}, []int{4}},
		{"1–1–1", []int{0, NoVote, 1, 2, NoVote}, []int{0, 1, 2}},
	} {
		victim, tests := pluralityKill(t, sks, jk, tc.votes, 3, 2)
		if !slices.Contains(tc.want, victim) {
			t.Errorf("%s: victim %d, want one of %v", tc.name, victim, tc.want)
		}
		if tests != n+5 {
			t.Errorf("%s: %d tests, want %d", tc.name, tests, n+5)
		}
	}
}

// A 1–1–1 split names each target about a third of the time (90 kills of
// 3 seats, all three holders: about 3.5 standard deviations each way).
func TestPluralityKillFair(t *testing.T) {
	if testing.Short() {
		t.Skip("90 plurality kills")
	}
	const runs = 90
	sks, jk := ballotTable(t, 3)
	won := map[int]int{}
	for range runs {
		v, _ := pluralityKill(t, sks, jk, []int{0, 1, 2}, 3, -1)
		won[v]++
	}
	for tg := range 3 {
		if won[tg] < 14 || won[tg] > 46 {
			t.Errorf("target %d won %d of %d: %v", tg, won[tg], runs, won)
		}
	}
}

// An outside verifier's view of a count lookup (SPEC.md §9.9): the
// transcript framed by hand from the item list, the leaf written out from
// the SPEC's equations, every equation checked one by one; a control with
// a wrong entries/n item must fail.
func TestCountLookupSpecTranscript(t *testing.T) {
	const n = 4
	_, jk := ballotTable(t, 3)
	ln := newLookupNight(t, jk, n, []int{2, NoVote, 2})
	for seat := range 3 {
		ctx := lookupCtx(seat)
		l, err := ProveCountLookup(ctx, jk, ln.ballots[seat].Secret(), ln.tally)
		if err != nil {
			t.Fatal(err)
		}
		for _, count := range []uint64{n, n + 1} {
			h := newHand("masque/mafia-count-lookup/v1")
			h.context(ctx)
			h.elem("H", jk.H)
			h.u64("entries/n", count)
			for _, e := range ln.ballots[seat].Entries {
				h.item("entry", append(e.A.AppendBytes(nil), e.B.AppendBytes(nil)...))
			}
			h.u64("tally/n", n)
			for _, e := range ln.tally {
				h.item("tally", append(e.A.AppendBytes(nil), e.B.AppendBytes(nil)...))
			}
			h.item("W", append(append([]byte{1}, l.W[0].A.AppendBytes(nil)...), l.W[0].B.AppendBytes(nil)...))
			var eqs []Equation
			for i, e := range ln.ballots[seat].Entries {
				eqs = append(eqs,
					Equation{Secret: []Term{{Witness: n + i, Base: Base()}}, Public: []Term{{Base: e.A}}},
					Equation{Secret: []Term{{Witness: i, Base: Base()}, {Witness: n + i, Base: jk.H}}, Public: []Term{{Base: e.B}}})
			}
			var wa, wb []Term
			for i, e := range ln.tally {
				wa = append(wa, Term{Witness: i, Base: e.A})
				wb = append(wb, Term{Witness: i, Base: e.B})
			}
			wa = append(wa, Term{Witness: 2 * n, Base: Base()})
			wb = append(wb, Term{Witness: 2 * n, Base: jk.H})
			eqs = append(eqs, Equation{Secret: wa, Public: []Term{{Base: l.W[0].A}}}, Equation{Secret: wb, Public: []Term{{Base: l.W[0].B}}})
			f := Leaf(Statement{Witnesses: 2*n + 1, Equations: eqs})
			if got := len(handShape(f)); got != 36*n+33 {
				t.Fatalf("the shape is %d bytes, SPEC says 36n + 33 = %d", got, 36*n+33)
			}
			if ok := handVerify(t, h, f, l.proof); ok != (count == n) {
				t.Fatalf("seat %d, entries/n %d: hand verification says %v", seat, count, ok)
			}
		}
	}
}

// A ballot secret kept in the seat's records reads back only for its own
// ballot, and proves the same lookup.
func TestBallotSecretRecords(t *testing.T) {
	const n = 4
	_, jk := ballotTable(t, 3)
	ln := newLookupNight(t, jk, n, []int{2, NoVote, 2})
	for seat, b := range ln.ballots {
		enc, err := b.Secret().MarshalBinary()
		if err != nil || len(enc) != BallotSecretSize(n) {
			t.Fatalf("%d bytes, %v", len(enc), err)
		}
		back, err := UnmarshalBallotSecret(enc, jk, b.Entries)
		if err != nil {
			t.Fatal(err)
		}
		l, err := ProveCountLookup(lookupCtx(seat), jk, back, ln.tally)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyCountLookup(lookupCtx(seat), jk, b.Entries, ln.tally, l); err != nil {
			t.Fatal(err)
		}
		other := ln.ballots[(seat+1)%len(ln.ballots)].Entries
		if _, err := UnmarshalBallotSecret(enc, jk, other); err == nil {
			t.Errorf("seat %d's secret read back for another ballot", seat)
		}
		for i := range enc {
			c := slices.Clone(enc)
			c[i] ^= 1
			if _, err := UnmarshalBallotSecret(c, jk, b.Entries); err == nil {
				t.Errorf("seat %d's secret with byte %d flipped read back", seat, i)
			}
		}
	}
}

// Every element of a count lookup's statement replaced (H, each entry,
// each tally entry, W's two points) and every proof field: refused.
func TestTamperCountLookup(t *testing.T) {
	const n = 3
	_, jk := ballotTable(t, 3)
	ln := newLookupNight(t, jk, n, []int{1, NoVote, 1})
	ctx := lookupCtx(0)
	l, err := ProveCountLookup(ctx, jk, ln.ballots[0].Secret(), ln.tally)
	if err != nil {
		t.Fatal(err)
	}
	other := ristretto.NewIdentityElement().ScalarBaseMult(shuffleSmallScalar(7))
	bump := func(e *Element) *Element { return ristretto.NewIdentityElement().Add(e, other) }
	cloneCts := func(cs []Ciphertext) []Ciphertext {
		out := make([]Ciphertext, len(cs))
		for i, c := range cs {
			out[i] = Ciphertext{A: c.A, B: c.B}
		}
		return out
	}
	variants := 0
	check := func(name string, jk2 *JointKey, entries []Ciphertext, tally BallotSum, l2 *CountLookup) {
		t.Helper()
		variants++
		if err := VerifyCountLookup(ctx, jk2, entries, tally, l2); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	jk2 := *jk
	jk2.H = bump(jk.H)
	check("H", &jk2, ln.ballots[0].Entries, ln.tally, l)
	for i := range n {
		for side := range 2 {
			e := cloneCts(ln.ballots[0].Entries)
			tl := cloneCts(ln.tally)
			if side == 0 {
				e[i].A = bump(e[i].A)
				tl[i].A = bump(tl[i].A)
			} else {
				e[i].B = bump(e[i].B)
				tl[i].B = bump(tl[i].B)
			}
			check(fmt.Sprintf("entry %d side %d", i, side), jk, e, ln.tally, l)
			check(fmt.Sprintf("tally %d side %d", i, side), jk, ln.ballots[0].Entries, tl, l)
		}
	}
	check("W_A", jk, ln.ballots[0].Entries, ln.tally, &CountLookup{W: Card{{A: bump(l.W[0].A), B: l.W[0].B}}, proof: l.proof})
	check("W_B", jk, ln.ballots[0].Entries, ln.tally, &CountLookup{W: Card{{A: l.W[0].A, B: bump(l.W[0].B)}}, proof: l.proof})
	for i := range l.proof.commitments {
		p := *l.proof
		p.commitments = slices.Clone(p.commitments)
		p.commitments[i] = bump(p.commitments[i])
		p.known = nil
		check(fmt.Sprintf("commitment %d", i), jk, ln.ballots[0].Entries, ln.tally, &CountLookup{W: l.W, proof: &p})
	}
	for i := range l.proof.responses {
		p := *l.proof
		p.responses = slices.Clone(p.responses)
		p.responses[i] = ristretto.NewScalar().Add(p.responses[i], shuffleSmallScalar(1))
		check(fmt.Sprintf("response %d", i), jk, ln.ballots[0].Entries, ln.tally, &CountLookup{W: l.W, proof: &p})
	}
	// Under another label: the same statement and proof, framed as a blind
	// step's transcript, must not verify as a lookup (and vice versa the
	// label is bound: the hand test's control covers the items).
	t2, f, err := countLookupStatement(ctx, jk, ln.ballots[0].Entries, ln.tally, l.W)
	if err != nil {
		t.Fatal(err)
	}
	_ = t2
	tr := ctx.transcript(labelBlindStep)
	tr.Append("H", jk.hBytes())
	if verifySigma(tr, f, l.proof) == nil {
		t.Error("the lookup verified under another label")
	}
	if variants < 4*n+5 {
		t.Errorf("only %d variants", variants)
	}
}
