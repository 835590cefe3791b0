package mental

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkMafiaNight times one Mafia night at 12 living seats with every
// power in play (docs/mafia.md §9, docs/performance.md): 4 powered ballots
// over 12 targets (mafia kill, Madman kill, Nurse save, Butterfly date) and
// 1 mandatory check per seat, and the 11 encrypted shares each seat sends
// for the other seats' checks.
//
//	prove/ballots+check: one seat's 4 ballots and its check;
//	prove/seat: the same plus its 11 encrypted shares of the others' checks;
//	verify/batch: a peer checks all 48 ballots, 12 checks and 132
//	encrypted shares, decoded from the wire, in one batch;
//	verify/ballots-checks: the 48 ballots and 12 checks only;
//	no-don/…/two-tallies: without the Don, a seat's (and a peer's) work
//	on the kill's and the Madman's tallies opened whole as two tallies
//	(what issue 27 measures the kills against; the mixed tally, SPEC.md
//	§9.6, is withdrawn);
//	no-don/…/one-vote-K-tests: the one-vote kill of two kill holders
//	(SPEC.md §9.8): a width-1 shuffle of the 12 code sums by every seat,
//	K blinded identity tests (one step per seat each) and the pick.
//
//	go test ./mental -run '^$' -bench MafiaNight -count 5
func BenchmarkMafiaNight(b *testing.B) {
	roles := []int{mCivilian, mCivilian, mCivilian, mCivilian, mCivilian,
		mCommissar, mNurse, mButterfly, mMafioso, mMafioso, mDon, mMadman}
	mt := newMafiaTable(b, roles, false)
	n := len(roles)
	powers := [][]int{mKill, {mMadman}, {mNurse}, {mButterfly}}
	choice := func(p, seat int) int {
		holds := false
		for _, h := range powers[p] {
			holds = holds || roles[seat] == h
		}
		if !holds {
			return NoVote
		}
		return (seat + 1 + p) % n
	}
	check := func(seat int) int {
		if roles[seat] == mCommissar {
			return (seat + 3) % n
		}
		return NoVote
	}
	proveSeat := func(seat int) ([]*PowerBallot, *Check) {
		var bs []*PowerBallot
		for p := range powers {
			st := mt.powerStatement(seat, uint8(p), powers[p], false)
			bl, err := ProvePowerBallot(mt.ctx(seat, uint64(10+p)), mt.jk, mt.sks[seat], mt.views[seat], st, choice(p, seat))
			if err != nil {
				b.Fatal(err)
			}
			bs = append(bs, bl)
		}
		c, err := ProveCheck(mt.ctx(seat, 20), mt.jk, mt.sks[seat], mt.views[seat], mt.checkStatement(seat, true), check(seat))
		if err != nil {
			b.Fatal(err)
		}
		return bs, c
	}
	// Every seat's posts, decoded as a peer receives them.
	ballots := make([][]*PowerBallot, n)
	checks := make([]*Check, n)
	for seat := range n {
		bs, c := proveSeat(seat)
		for p, bl := range bs {
			enc, _ := bl.MarshalBinary()
			d, err := UnmarshalPowerBallot(enc, mt.powerStatement(seat, uint8(p), powers[p], false), uint32(seat))
			if err != nil {
				b.Fatal(err)
			}
			ballots[seat] = append(ballots[seat], d)
		}
		enc, _ := c.MarshalBinary()
		d, err := UnmarshalCheck(enc, mt.checkStatement(seat, true), uint32(seat))
		if err != nil {
			b.Fatal(err)
		}
		checks[seat] = d
	}
	// Encrypted shares of each check to its checker, from every other seat.
	type sentShare struct {
		from, to int
		es       *EncryptedShare
	}
	var shares []sentShare
	for to := range n {
		for from := range n {
			if from == to {
				continue
			}
			es, err := mt.sks[from].EncryptShare(mt.ctx(from, 30+uint64(to)), checks[to].Q, mt.views[to].Public())
			if err != nil {
				b.Fatal(err)
			}
			enc, _ := es.MarshalBinary()
			d, err := UnmarshalEncryptedShare(enc)
			if err != nil {
				b.Fatal(err)
			}
			shares = append(shares, sentShare{from, to, d})
		}
	}
	b.Run("prove/ballots+check", func(b *testing.B) {
		for b.Loop() {
			proveSeat(10)
		}
	})
	b.Run("prove/seat", func(b *testing.B) {
		for b.Loop() {
			proveSeat(10)
			for to := range n {
				if to == 10 {
					continue
				}
				if _, err := mt.sks[10].EncryptShare(mt.ctx(10, 30+uint64(to)), checks[to].Q, mt.views[to].Public()); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	verify := func(withShares bool) func(b *testing.B) {
		return func(b *testing.B) {
			for b.Loop() {
				var bt Batch
				for seat := range n {
					for p := range powers {
						bt.AddPowerBallot(fmt.Sprintf("ballot %d/%d", seat, p), mt.ctx(seat, uint64(10+p)), mt.jk,
							mt.powerStatement(seat, uint8(p), powers[p], false), ballots[seat][p])
					}
					bt.AddCheck(fmt.Sprintf("check %d", seat), mt.ctx(seat, 20), mt.jk, mt.checkStatement(seat, true), checks[seat])
				}
				if withShares {
					for _, s := range shares {
						bt.AddEncryptedShare("share", mt.ctx(s.from, 30+uint64(s.to)), mt.jk.Keys[s.from], mt.views[s.to].Public(), checks[s.to].Q, s.es)
					}
				}
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("verify/batch", verify(true))
	b.Run("verify/ballots-checks", verify(false))
	b.Run("verify/one-ballot-alone", func(b *testing.B) {
		st := mt.powerStatement(10, 0, mKill, false)
		for b.Loop() {
			if err := VerifyPowerBallot(mt.ctx(10, 10), mt.jk, st, ballots[10][0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Without the Don (docs/mafia.md §11.3, L1): the kill's and the
	// Madman's tallies opened whole, 24 public shares per seat. The
	// ballots' sums stand in for the tallies (their opened values do not
	// change the work).
	var kill, mad []*PowerBallot
	for seat := range n {
		kill, mad = append(kill, ballots[seat][0]), append(mad, ballots[seat][1])
	}
	killSum, err := AddPowerBallots(kill...)
	if err != nil {
		b.Fatal(err)
	}
	madSum, err := AddPowerBallots(mad...)
	if err != nil {
		b.Fatal(err)
	}
	var whole []Card
	for _, sum := range []BallotSum{killSum, madSum} {
		for i := range n {
			c, _ := sum.Component(i)
			whole = append(whole, c)
		}
	}
	shareAll := func(seat int, cards []Card) []*Share {
		var out []*Share
		for k, c := range cards {
			sh, err := mt.sks[seat].Share(mt.ctx(seat, 60+uint64(k)), c)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, sh)
		}
		return out
	}
	wholeShares := make([][]*Share, n)
	for seat := range n {
		wholeShares[seat] = shareAll(seat, whole)
	}
	b.Run("no-don/prove/two-tallies", func(b *testing.B) {
		for b.Loop() {
			shareAll(10, whole)
		}
	})
	addShares := func(bt *Batch, cards []Card, shares [][]*Share) {
		for seat := range n {
			for k, c := range cards {
				bt.AddShare("share", mt.ctx(seat, 60+uint64(k)), mt.jk.Keys[seat], c, shares[seat][k])
			}
		}
	}
	b.Run("no-don/verify/two-tallies", func(b *testing.B) {
		for b.Loop() {
			var bt Batch
			addShares(&bt, whole, wholeShares)
			if err := bt.Verify(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The one-vote kill (two kill holders, SPEC.md §9.8): every seat
	// shuffles the 12 kill ballots' code sums (width 1); then blinded
	// identity tests, each one step per seat, until the first code sum
	// that is not the identity (on average (n + 1)/3 ≈ 4.3 tests at 12
	// seats, at most 11); then one share each of the pick.
	var codes []Card
	for seat := range n {
		s, err := AddPowerBallots(kill[seat])
		if err != nil {
			b.Fatal(err)
		}
		c, err := s.CodeSum()
		if err != nil {
			b.Fatal(err)
		}
		codes = append(codes, c)
	}
	voteIn := [][]Card{codes}
	var voteProofs []*ShuffleProof
	for seat := range n {
		out, p, err := mt.jk.Shuffle(mt.ctx(seat, 40+uint64(seat)), voteIn[seat])
		if err != nil {
			b.Fatal(err)
		}
		enc, _ := p.MarshalBinary()
		if p, err = UnmarshalShuffleProof(enc, n, 1); err != nil {
			b.Fatal(err)
		}
		voteIn, voteProofs = append(voteIn, out), append(voteProofs, p)
	}
	const maxTests = 11
	steps := make([][]*BlindStep, maxTests) // steps[k][seat]
	stepIn := make([][]Card, maxTests)      // stepIn[k][seat]: the card seat k's step took
	for k := range maxTests {
		in := Card{voteIn[n][k][0]}
		for seat := range n {
			st, err := mt.sks[seat].BlindStep(mt.ctx(seat, 70+uint64(k*n+seat)), in)
			if err != nil {
				b.Fatal(err)
			}
			enc, _ := st.MarshalBinary()
			if st, err = UnmarshalBlindStep(enc); err != nil {
				b.Fatal(err)
			}
			steps[k], stepIn[k] = append(steps[k], st), append(stepIn[k], in)
			in = st.Out
		}
	}
	votePick, err := MixPick(voteIn[n][0], n, madSum)
	if err != nil {
		b.Fatal(err)
	}
	pickShares := make([][]*Share, n)
	for seat := range n {
		pickShares[seat] = shareAll(seat, []Card{votePick})
	}
	for _, tests := range []int{4, maxTests} {
		b.Run(fmt.Sprintf("no-don/prove/one-vote-%d-tests", tests), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := mt.jk.Shuffle(mt.ctx(10, 50), codes); err != nil {
					b.Fatal(err)
				}
				for k := range tests {
					if _, err := mt.sks[10].BlindStep(mt.ctx(10, 70+uint64(k)), stepIn[k][10]); err != nil {
						b.Fatal(err)
					}
				}
				shareAll(10, []Card{votePick})
			}
		})
		b.Run(fmt.Sprintf("no-don/verify/one-vote-%d-tests", tests), func(b *testing.B) {
			for b.Loop() {
				var bt Batch
				for seat := range n {
					bt.AddShuffle("vote mix", mt.jk, mt.ctx(seat, 40+uint64(seat)), voteIn[seat], voteIn[seat+1], voteProofs[seat])
				}
				for k := range tests {
					for seat := range n {
						bt.AddBlindStep("step", mt.ctx(seat, 70+uint64(k*n+seat)), mt.jk.Keys[seat], stepIn[k][seat], steps[k][seat])
					}
				}
				addShares(&bt, []Card{votePick}, pickShares)
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The plurality kill (three or more kill holders, SPEC.md §9.9): here
	// the Don and the two mafiosi (seats 8, 9, 10) are the k = 3 kill
	// holders. Every seat posts a count lookup, shuffles the 12 (V, W)
	// vote cards (width 2), posts 12 blind steps (every card's V), shuffles
	// the kill table's 5 rows (width 2), posts 5 blind steps (every row's
	// key) and one share of the pick.
	var killOwn []*PowerBallot
	for seat := range n {
		st := mt.powerStatement(seat, 0, mKill, false)
		bl, err := ProvePowerBallot(mt.ctx(seat, 10), mt.jk, mt.sks[seat], mt.views[seat], st, choice(0, seat))
		if err != nil {
			b.Fatal(err)
		}
		killOwn = append(killOwn, bl)
	}
	plTally, err := AddPowerBallots(killOwn...)
	if err != nil {
		b.Fatal(err)
	}
	lookups := make([]*CountLookup, n)
	var voteCards []Card
	for seat := range n {
		l, err := ProveCountLookup(mt.ctx(seat, 80), mt.jk, killOwn[seat].Secret(), plTally)
		if err != nil {
			b.Fatal(err)
		}
		enc, _ := l.MarshalBinary()
		if lookups[seat], err = UnmarshalCountLookup(enc, n); err != nil {
			b.Fatal(err)
		}
		c, err := VoteCard(killOwn[seat].Entries, lookups[seat])
		if err != nil {
			b.Fatal(err)
		}
		voteCards = append(voteCards, c)
	}
	type chain struct {
		in     [][]Card // in[seat]: the deck seat took; in[n] the last output
		proofs []*ShuffleProof
		steps  [][]*BlindStep // steps[card][seat]
		stepIn [][]Card       // stepIn[card][seat]
	}
	mixAndTest := func(deck []Card, pos uint64) *chain {
		ch := &chain{in: [][]Card{deck}}
		for seat := range n {
			out, p, err := mt.jk.Shuffle(mt.ctx(seat, pos+uint64(seat)), ch.in[seat])
			if err != nil {
				b.Fatal(err)
			}
			enc, _ := p.MarshalBinary()
			if p, err = UnmarshalShuffleProof(enc, len(deck), 2); err != nil {
				b.Fatal(err)
			}
			ch.in, ch.proofs = append(ch.in, out), append(ch.proofs, p)
		}
		for _, c := range ch.in[n] {
			in := Card{c[0]}
			var steps []*BlindStep
			var ins []Card
			for seat := range n {
				st, err := mt.sks[seat].BlindStep(mt.ctx(seat, pos+100+uint64(seat)), in)
				if err != nil {
					b.Fatal(err)
				}
				steps, ins = append(steps, st), append(ins, in)
				in = st.Out
			}
			ch.steps, ch.stepIn = append(ch.steps, steps), append(ch.stepIn, ins)
		}
		return ch
	}
	voteChain := mixAndTest(voteCards, 200)
	var found []bool
	for k := range voteChain.steps {
		id, err := BlindedIsIdentity(voteChain.steps[k][n-1].Out, nil)
		if err != nil {
			b.Fatal(err)
		}
		found = append(found, id)
	}
	votePos, err := KillVotes(found, 3)
	if err != nil {
		b.Fatal(err)
	}
	var voted []Card
	for _, p := range votePos {
		voted = append(voted, voteChain.in[n][p])
	}
	rows, err := KillRows(voted)
	if err != nil {
		b.Fatal(err)
	}
	rowChain := mixAndTest(rows, 400)
	var rowIDs []bool
	for k := range rowChain.steps {
		id, _ := BlindedIsIdentity(rowChain.steps[k][n-1].Out, nil)
		rowIDs = append(rowIDs, id)
	}
	win, err := KillRowWinner(rowIDs)
	if err != nil {
		b.Fatal(err)
	}
	pay, _ := KillRowPayload(rowChain.in[n][win])
	plPick, err := MixPick(pay, n, madSum)
	if err != nil {
		b.Fatal(err)
	}
	plShares := make([][]*Share, n)
	for seat := range n {
		plShares[seat] = shareAll(seat, []Card{plPick})
	}
	b.Run("no-don/prove/plurality-k3", func(b *testing.B) {
		for b.Loop() {
			if _, err := ProveCountLookup(mt.ctx(10, 80), mt.jk, killOwn[10].Secret(), plTally); err != nil {
				b.Fatal(err)
			}
			for _, ch := range []*chain{voteChain, rowChain} {
				if _, _, err := mt.jk.Shuffle(mt.ctx(10, 50), ch.in[10]); err != nil {
					b.Fatal(err)
				}
				for k := range ch.steps {
					if _, err := mt.sks[10].BlindStep(mt.ctx(10, 70), ch.stepIn[k][10]); err != nil {
						b.Fatal(err)
					}
				}
			}
			shareAll(10, []Card{plPick})
		}
	})
	b.Run("no-don/verify/plurality-k3", func(b *testing.B) {
		for b.Loop() {
			var bt Batch
			for seat := range n {
				bt.AddCountLookup("lookup", mt.ctx(seat, 80), mt.jk, killOwn[seat].Entries, plTally, lookups[seat])
			}
			for ci, ch := range []*chain{voteChain, rowChain} {
				pos := uint64(200 + 200*ci)
				for seat := range n {
					bt.AddShuffle("mix", mt.jk, mt.ctx(seat, pos+uint64(seat)), ch.in[seat], ch.in[seat+1], ch.proofs[seat])
				}
				for k := range ch.steps {
					for seat := range n {
						bt.AddBlindStep("step", mt.ctx(seat, pos+100+uint64(seat)), mt.jk.Keys[seat], ch.stepIn[k][seat], ch.steps[k][seat])
					}
				}
			}
			addShares(&bt, []Card{plPick}, plShares)
			if err := bt.Verify(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Interleaved: on a shared machine whose load changes from second to
	// second, one case timed after another compares loads, not work. Each
	// round times every figure once, in turn, and the medians over the
	// rounds are reported (ms); their ratios are what to read.
	b.Run("no-don/interleaved", func(b *testing.B) {
		type fig struct {
			name string
			f    func()
			ms   []float64
		}
		fatal := func(err error) {
			if err != nil {
				b.Fatal(err)
			}
		}
		figs := []*fig{
			{name: "seat-prove", f: func() {
				proveSeat(10)
				for to := range n {
					if to != 10 {
						_, err := mt.sks[10].EncryptShare(mt.ctx(10, 30+uint64(to)), checks[to].Q, mt.views[to].Public())
						fatal(err)
					}
				}
			}},
			{name: "two-tallies-prove", f: func() { shareAll(10, whole) }},
			{name: "plurality-k3-prove", f: func() {
				_, err := ProveCountLookup(mt.ctx(10, 80), mt.jk, killOwn[10].Secret(), plTally)
				fatal(err)
				for _, ch := range []*chain{voteChain, rowChain} {
					_, _, err := mt.jk.Shuffle(mt.ctx(10, 50), ch.in[10])
					fatal(err)
					for k := range ch.steps {
						_, err := mt.sks[10].BlindStep(mt.ctx(10, 70), ch.stepIn[k][10])
						fatal(err)
					}
				}
				shareAll(10, []Card{plPick})
			}},
			{name: "night-verify", f: func() {
				var bt Batch
				for seat := range n {
					for p := range powers {
						bt.AddPowerBallot("ballot", mt.ctx(seat, uint64(10+p)), mt.jk, mt.powerStatement(seat, uint8(p), powers[p], false), ballots[seat][p])
					}
					bt.AddCheck("check", mt.ctx(seat, 20), mt.jk, mt.checkStatement(seat, true), checks[seat])
				}
				for _, s := range shares {
					bt.AddEncryptedShare("share", mt.ctx(s.from, 30+uint64(s.to)), mt.jk.Keys[s.from], mt.views[s.to].Public(), checks[s.to].Q, s.es)
				}
				fatal(bt.Verify())
			}},
			{name: "two-tallies-verify", f: func() {
				var bt Batch
				addShares(&bt, whole, wholeShares)
				fatal(bt.Verify())
			}},
			{name: "plurality-k3-verify", f: func() {
				var bt Batch
				for seat := range n {
					bt.AddCountLookup("lookup", mt.ctx(seat, 80), mt.jk, killOwn[seat].Entries, plTally, lookups[seat])
				}
				for ci, ch := range []*chain{voteChain, rowChain} {
					pos := uint64(200 + 200*ci)
					for seat := range n {
						bt.AddShuffle("mix", mt.jk, mt.ctx(seat, pos+uint64(seat)), ch.in[seat], ch.in[seat+1], ch.proofs[seat])
					}
					for k := range ch.steps {
						for seat := range n {
							bt.AddBlindStep("step", mt.ctx(seat, pos+100+uint64(seat)), mt.jk.Keys[seat], ch.stepIn[k][seat], ch.steps[k][seat])
						}
					}
				}
				addShares(&bt, []Card{plPick}, plShares)
				fatal(bt.Verify())
			}},
		}
		for b.Loop() {
			for _, f := range figs {
				t0 := time.Now()
				f.f()
				f.ms = append(f.ms, float64(time.Since(t0).Microseconds())/1000)
			}
		}
		for _, f := range figs {
			slices.Sort(f.ms)
			b.ReportMetric(f.ms[len(f.ms)/2], f.name+"-ms")
		}
		b.ReportMetric(0, "ns/op")
	})
	sizes := 0
	for seat := range n {
		for _, bl := range ballots[seat] {
			e, _ := bl.MarshalBinary()
			sizes += len(e)
		}
		e, _ := checks[seat].MarshalBinary()
		sizes += len(e)
	}
	b.Logf("one night's ballots and checks: %d bytes (%d per seat)", sizes, sizes/n)
}

// BenchmarkMafiaDeal times one seat's shuffle of the role tuples (width
// 5) at 12 and 18 seats, proving and verifying.
//
//	go test ./mental -run '^$' -bench MafiaDeal -count 5
func BenchmarkMafiaDeal(b *testing.B) {
	for _, n := range []int{12, 18} {
		tt := newTestTable(b, 3)
		game := [32]byte{'d'}
		deck := make([]Card, n)
		for i := range deck {
			deck[i] = mafiaTuple(game, mRoles[i%len(mRoles)])
		}
		ctx := Context{Table: game, Pos: 1}
		b.Run(fmt.Sprintf("tuples=%d/prove", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := tt.jk.Shuffle(ctx, deck); err != nil {
					b.Fatal(err)
				}
			}
		})
		out, p, err := tt.jk.Shuffle(ctx, deck)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tuples=%d/verify", n), func(b *testing.B) {
			for b.Loop() {
				if err := tt.jk.VerifyShuffle(ctx, deck, out, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
