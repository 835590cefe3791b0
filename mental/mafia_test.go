package mental

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental/internal/ristretto"
)

// Mafia's cryptography (SPEC.md §9): the group secret and its tags,
// powered ballots, Commissar checks, retired seats, width-5 tuples.

// Test kinds: the seven roles, the two teams and the neutral secret.
const (
	mCivilian = iota
	mCommissar
	mNurse
	mButterfly
	mMafioso
	mDon
	mMadman
	mNotMafia = 10
	mMafia    = 11
	mNeutral  = 12
)

var mRoles = []int{mCivilian, mCommissar, mNurse, mButterfly, mMafioso, mDon, mMadman}

// mafiaTable is a dealt Mafia table: card and viewing keys, every seat's
// width-5 role tuple (after one shuffle by every seat), and every seat's
// private view of components 0, 1 and 3 of its own tuple.
type mafiaTable struct {
	game  [32]byte
	sks   []*SecretKey
	views []*SecretKey
	jk    *JointKey
	roles []int
	cards []Card              // the dealt tuples, seat i's at i
	seen  []Card              // seat i's viewed sub-tuple (components 0, 1, 3)
	sent  [][]*EncryptedShare // the shares of seen[i] encrypted to seat i
}

// mafiaTuple is the face-up tuple of a role (docs/mafia.md §2).
func mafiaTuple(game [32]byte, role int) Card {
	team1, team2 := mNotMafia, mNotMafia
	var s3, s4 Ciphertext
	neutral := FaceUp(CardPoint(mNeutral))[0]
	gs := GroupSecretComponent(game)
	s3, s4 = neutral, neutral
	switch role {
	case mMafioso, mDon:
		team1, team2 = mMafia, mMafia
		s3, s4 = gs, gs
	case mMadman:
		team2 = mMafia
		s4 = gs
	}
	c := FaceUp(CardPoint(role), CardPoint(team1), CardPoint(team2))
	return append(c, s3, s4)
}

func newMafiaTable(t testing.TB, roles []int, shuffle bool) *mafiaTable {
	t.Helper()
	mt := &mafiaTable{game: [32]byte{'m', 'a', 'f'}, roles: roles}
	var pks []*PublicKey
	var kcs []KeyContext
	for i := range roles {
		sk := GenerateKey()
		kc := KeyContext{Table: [32]byte{'m'}, Seat: uint32(i), Identity: []byte{'m', byte(i)}}
		mt.sks, pks, kcs = append(mt.sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
		mt.views = append(mt.views, GenerateKey())
	}
	jk, err := NewJointKey(pks, kcs)
	if err != nil {
		t.Fatal(err)
	}
	mt.jk = jk
	deck := make([]Card, len(roles))
	for i, r := range roles {
		deck[i] = mafiaTuple(mt.game, r)
	}
	if shuffle {
		// Every seat shuffles; the test then finds each role by opening
		// with every key (it knows them all) and seats the tuples in
		// the order of roles.
		for i := range roles {
			ctx := Context{Table: mt.game, Pos: uint64(i), Seat: uint32(i)}
			out, p, err := jk.Shuffle(ctx, deck)
			if err != nil {
				t.Fatal(err)
			}
			if err := jk.VerifyShuffle(ctx, deck, out, p); err != nil {
				t.Fatal(err)
			}
			deck = out
		}
		cat := NewCatalogue(16)
		byRole := map[int][]Card{}
		for _, c := range deck {
			var all [][]*Element
			for _, sk := range mt.sks {
				all = append(all, sk.RetiredShare(c))
			}
			m, err := Open(c, all)
			if err != nil {
				t.Fatal(err)
			}
			k, ok := cat.Kind(m[0])
			if !ok {
				t.Fatal("a shuffled tuple's role is no kind")
			}
			byRole[k] = append(byRole[k], c)
		}
		for i, r := range roles {
			deck[i] = byRole[r][0]
			byRole[r] = byRole[r][1:]
		}
	} else {
		for i := range deck {
			deck[i], _ = jk.Remask(deck[i])
		}
	}
	mt.cards = deck
	for i := range roles {
		sub, err := deck[i].Select(0, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		mt.seen = append(mt.seen, sub)
		mt.sent = append(mt.sent, mt.viewShares(t, sub, i))
	}
	return mt
}

// viewShares returns every other seat's share of c encrypted to viewer's
// viewing key, each verified.
func (mt *mafiaTable) viewShares(t testing.TB, c Card, viewer int) []*EncryptedShare {
	t.Helper()
	var out []*EncryptedShare
	for j, sk := range mt.sks {
		if j == viewer {
			continue
		}
		ctx := Context{Table: mt.game, Pos: 1000 + uint64(viewer), Seat: uint32(j)}
		es, err := sk.EncryptShare(ctx, c, mt.views[viewer].Public())
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyEncryptedShare(ctx, mt.jk.Keys[j], mt.views[viewer].Public(), c, es); err != nil {
			t.Fatal(err)
		}
		out = append(out, es)
	}
	return out
}

func (mt *mafiaTable) seats() []uint32 {
	var s []uint32
	for i := range mt.roles {
		s = append(s, uint32(i))
	}
	return s
}

// powerStatement is seat i's statement for a power held by holders.
func (mt *mafiaTable) powerStatement(i int, power uint8, holders []int, selfAllowed bool) *PowerStatement {
	return &PowerStatement{
		Power: power, Roles: mRoles, Holders: holders, Targets: mt.seats(), SelfAllowed: selfAllowed,
		X: mt.jk.Keys[i], Y: mt.views[i].Public(), Card: mt.seen[i], Comp: 0, Sent: mt.sent[i],
	}
}

// checkStatement is seat i's Commissar check statement (team before the
// Madman joins: component 1).
func (mt *mafiaTable) checkStatement(i int, mandatory bool) *CheckStatement {
	st := &CheckStatement{
		Holders: []int{mCommissar}, Mandatory: mandatory,
		X: mt.jk.Keys[i], Y: mt.views[i].Public(), Card: mt.seen[i], Comp: 0, Sent: mt.sent[i],
		Targets: mt.seats(), TargetCards: mt.cards, TargetComp: 1, Neutral: mNotMafia,
	}
	if mandatory {
		st.Roles = mRoles
	}
	return st
}

func (mt *mafiaTable) ctx(seat int, pos uint64) Context {
	return Context{Table: mt.game, Pos: pos, Seat: uint32(seat)}
}

// 0 Civilian, 1 Commissar, 2 Nurse, 3 Don, 4 Mafioso, 5 Madman, 6 Civilian.
var mTestRoles = []int{mCivilian, mCommissar, mNurse, mDon, mMafioso, mMadman, mCivilian}

func TestGroupSecretAndTags(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, true)
	// S = x·Q for the joint secret x.
	x := ristretto.NewScalar()
	for _, sk := range mt.sks {
		x.Add(x, sk.x)
	}
	S := ristretto.NewIdentityElement().ScalarMult(x, GroupSecretPoint(mt.game))
	if GroupSecretPoint(mt.game).Equal(GroupSecretPoint([32]byte{'o'})) == 1 {
		t.Fatal("two games share a group secret point")
	}
	if GroupSecretPoint(mt.game).Equal(CoinPoint(mt.game, 0)) == 1 {
		t.Fatal("the group secret point is a coin point")
	}
	const round = 1
	var tags [][TagSize]byte
	secret := make([]*Element, len(mt.roles))
	for i := range mt.roles {
		m, err := mt.sks[i].ViewedPoints(mt.views[i], mt.seen[i], mt.sent[i])
		if err != nil {
			t.Fatal(err)
		}
		if m[0].Equal(CardPoint(mt.roles[i])) != 1 {
			t.Fatalf("seat %d does not read its role", i)
		}
		mafia := mt.roles[i] == mDon || mt.roles[i] == mMafioso
		switch {
		case mafia && m[2].Equal(S) != 1:
			t.Fatalf("seat %d (mafia) does not read S", i)
		case !mafia && m[2].Equal(CardPoint(mNeutral)) != 1:
			t.Fatalf("seat %d reads no neutral secret", i)
		}
		if mafia {
			secret[i] = m[2]
			tags = append(tags, Tag(m[2], mt.game, round, uint32(i)))
		} else {
			tags = append(tags, RandomTag())
		}
	}
	for i := range mt.roles {
		if secret[i] == nil {
			continue
		}
		got, err := RecognizeTags(secret[i], mt.game, round, mt.seats(), tags)
		if err != nil {
			t.Fatal(err)
		}
		for j, ok := range got {
			if want := secret[j] != nil; ok != want {
				t.Errorf("seat %d recognises seat %d: %v, want %v", i, j, ok, want)
			}
		}
	}
	// A tag binds S, the game, the round and the seat.
	tag := Tag(S, mt.game, round, 3)
	for name, ok := range map[string]bool{
		"neutral secret": TagMatches(CardPoint(mNeutral), mt.game, round, 3, tag),
		"another game":   TagMatches(S, [32]byte{'x'}, round, 3, tag),
		"another round":  TagMatches(S, mt.game, round+1, 3, tag),
		"another seat":   TagMatches(S, mt.game, round, 4, tag),
		"a random tag":   TagMatches(S, mt.game, round, 3, RandomTag()),
	} {
		if ok {
			t.Errorf("%s: tag matched", name)
		}
	}
	if !TagMatches(S, mt.game, round, 3, tag) {
		t.Error("honest tag not recognised")
	}
	if _, err := RecognizeTags(S, mt.game, round, mt.seats()[:2], tags); err == nil {
		t.Error("mismatched seats and tags accepted")
	}
	// A non-mafia seat that views its own secret component reads the
	// neutral point: it cannot compute S's tags.
	if TagMatches(CardPoint(mNeutral), mt.game, round, 3, tags[3]) {
		t.Error("the neutral secret forged the Don's tag")
	}
}

// The Madman learns S only when he views component 4 (the join).
func TestMadmanJoinView(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	madman := 5
	sub, err := mt.cards[madman].Select(4)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mt.sks[madman].ViewedPoints(mt.views[madman], sub, mt.viewShares(t, sub, madman))
	if err != nil {
		t.Fatal(err)
	}
	don, _ := mt.sks[3].ViewedPoints(mt.views[3], mt.seen[3], mt.sent[3])
	if m[0].Equal(don[2]) != 1 {
		t.Fatal("the Madman's component 4 is not the Don's S")
	}
	before, _ := mt.sks[madman].ViewedPoints(mt.views[madman], mt.seen[madman], mt.sent[madman])
	if before[2].Equal(CardPoint(mNeutral)) != 1 {
		t.Fatal("the Madman's component 3 is not neutral")
	}
}

var mKill = []int{mDon, mMafioso}

func TestPowerBallot(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	tests := []struct {
		name        string
		seat        int
		holders     []int
		selfAllowed bool
		choice      int
		proves      bool
	}{
		{"Don kills", 3, mKill, false, 0, true},
		{"mafioso kills the Don", 4, mKill, false, 3, true},
		{"Don kills himself", 3, mKill, false, 3, false},
		{"Don abstains", 3, mKill, false, NoVote, false},
		{"civilian votes", 0, mKill, false, 2, false},
		{"civilian abstains", 0, mKill, false, NoVote, true},
		{"Commissar abstains", 1, mKill, false, NoVote, true},
		{"Madman kills alone", 5, []int{mMadman}, false, 6, true},
		{"Madman abstains", 5, []int{mMadman}, false, NoVote, false},
		{"Nurse saves", 2, []int{mNurse}, false, 1, true},
		{"Nurse saves herself", 2, []int{mNurse}, false, 2, false},
		{"Nurse saves herself, allowed", 2, []int{mNurse}, true, 2, true},
		{"Don votes for the Nurse power", 3, []int{mNurse}, false, 2, false},
		{"choice out of range", 3, mKill, false, 7, false},
		{"choice below NoVote", 3, mKill, false, -2, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mt.powerStatement(tc.seat, 1, tc.holders, tc.selfAllowed)
			ctx := mt.ctx(tc.seat, 77)
			b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.choice)
			if !tc.proves {
				if err == nil {
					t.Fatal("proved a false powered ballot")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyPowerBallot(ctx, mt.jk, st, b); err != nil {
				t.Fatalf("honest ballot rejected: %v", err)
			}
			enc, err := b.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			d, err := UnmarshalPowerBallot(enc, st, uint32(tc.seat))
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyPowerBallot(ctx, mt.jk, st, d); err != nil {
				t.Fatalf("decoded ballot rejected: %v", err)
			}
			re, _ := d.MarshalBinary()
			if !bytes.Equal(re, enc) {
				t.Fatal("re-encoding differs")
			}
			// What the entries hold.
			for i, ct := range b.Entries {
				var all [][]*Element
				for _, sk := range mt.sks {
					all = append(all, sk.RetiredShare(Card{ct}))
				}
				m, _ := Open(Card{ct}, all)
				v, _ := TallyCount(m[0])
				if want := 0; i == tc.choice {
					if v != 1 {
						t.Errorf("entry %d holds %d, want 1", i, v)
					}
				} else if v != want {
					t.Errorf("entry %d holds %d, want 0", i, v)
				}
			}
		})
	}
}

// forgePowerBallot runs the prover on a false statement: entries holding
// bits, the proof's real branch forced (0: vote, 1: empty), with the
// seat's real keys as witnesses. A sound verifier rejects every one.
func forgePowerBallot(t *testing.T, mt *mafiaTable, ctx Context, st *PowerStatement, bits []int, branch int) *PowerBallot {
	t.Helper()
	seat := int(ctx.Seat)
	card, view := mt.sks[seat], mt.views[seat]
	self, others, err := st.shape(ctx.Seat)
	if err != nil {
		t.Fatal(err)
	}
	n := len(bits)
	o := &ballotOpening{r: randomScalars(n), v: bits, rSum: ristretto.NewScalar()}
	entries := make([]Ciphertext, n)
	for i := range n {
		o.total += bits[i]
		o.rSum.Add(o.rSum, o.r[i])
		entries[i] = Ciphertext{
			A: ristretto.NewIdentityElement().ScalarBaseMult(o.r[i]),
			B: ristretto.NewIdentityElement().MultiScalarMult([]*Scalar{ristretto.NewScalar().Multiply(bitScalar(1), scalarOf(bits[i])), o.r[i]}, []*Element{generator, mt.jk.H}),
		}
	}
	tr, f, err := powerStatement(ctx, mt.jk, st, entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := viewedPoint(card, view, st.Card, st.Comp, st.Sent)
	inA, _ := viewedHoldingAssignment(card, view, m, st.Holders)
	outA, _ := viewedHoldingAssignment(card, view, m, others)
	// Force a real bit into each holding OR even when the role is not in it,
	// with the real keys as witnesses.
	for _, a := range []*Assignment{&inA, &outA} {
		for i := range a.Leaves {
			a.Leaves[i] = []*Scalar{card.x, view.x}
		}
	}
	zero := f.children[1].children[1].leaf
	w := ristretto.NewScalar()
	for i, term := range zero.Equations[0].Public {
		w.Add(w, ristretto.NewScalar().Multiply(term.Coef, o.r[i]))
	}
	ea := Assignment{}
	for i, r := range o.r {
		b := bits[i]
		if b > 1 {
			b = 1
		}
		ea.Leaves = append(ea.Leaves, []*Scalar{r}, []*Scalar{r})
		ea.Real = append(ea.Real, []int{1 - b, b})
	}
	vote := andAssignment(inA, ea, o.sumLeafAssignment())
	if self >= 0 {
		vote = andAssignment(vote, Assignment{Leaves: [][]*Scalar{{o.r[self]}}})
	}
	empty := andAssignment(outA, Assignment{Leaves: [][]*Scalar{{w}}})
	p, err := proveSigma(tr, f, orAssignment([]int{1 - branch, branch}, vote, empty))
	if err != nil {
		t.Fatal(err)
	}
	return &PowerBallot{Entries: entries, proof: p}
}

func scalarOf(v int) *Scalar {
	s := ristretto.NewScalar()
	for range v {
		s.Add(s, bitScalar(1))
	}
	return s
}

// Every false statement a seat could try, proven with the honest prover's
// algorithm forced onto the false branch: each must be rejected.
func TestPowerBallotSoundness(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	n := len(mt.roles)
	hot := func(idx ...int) []int {
		b := make([]int, n)
		for _, i := range idx {
			b[i]++
		}
		return b
	}
	tests := []struct {
		name   string
		seat   int
		bits   []int
		branch int
	}{
		{"a civilian votes (vote branch)", 0, hot(3), 0},
		{"a civilian votes (empty branch)", 0, hot(3), 1},
		{"the Don votes for two", 3, hot(0, 1), 0},
		{"the Don votes twice for one", 3, hot(0, 0), 0},
		{"the Don votes 2 in an entry, as bits", 3, hot(1, 1, 2), 0},
		{"the Don abstains (vote branch)", 3, hot(), 0},
		{"the Don abstains (empty branch)", 3, hot(), 1},
		{"the Don votes for himself", 3, hot(3), 0},
		{"a civilian's two-hot ballot as empty", 0, hot(1, 2), 1},
		{"a civilian's one-hot ballot as empty", 6, hot(1), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mt.powerStatement(tc.seat, 2, mKill, false)
			ctx := mt.ctx(tc.seat, 90)
			b := forgePowerBallot(t, mt, ctx, st, tc.bits, tc.branch)
			if err := VerifyPowerBallot(ctx, mt.jk, st, b); !errors.Is(err, ErrProof) {
				t.Fatalf("a false ballot verified: %v", err)
			}
			var bt Batch
			bt.AddPowerBallot("forged", ctx, mt.jk, st, b)
			if err := bt.Verify(); err == nil {
				t.Fatal("a false ballot passed a batch")
			}
		})
	}
	// Control: the forger's honest cases verify, so the rejections above
	// are not an artefact of the forger.
	for _, tc := range []struct {
		seat, branch int
		bits         []int
	}{{3, 0, hot(0)}, {0, 1, hot()}} {
		st := mt.powerStatement(tc.seat, 2, mKill, false)
		ctx := mt.ctx(tc.seat, 90)
		if err := VerifyPowerBallot(ctx, mt.jk, st, forgePowerBallot(t, mt, ctx, st, tc.bits, tc.branch)); err != nil {
			t.Fatalf("the forger's honest ballot (seat %d) rejected: %v", tc.seat, err)
		}
	}
	// A seat's ballot re-posted as another seat's (its keys): rejected.
	st := mt.powerStatement(3, 2, mKill, false)
	b, err := ProvePowerBallot(mt.ctx(3, 90), mt.jk, mt.sks[3], mt.views[3], st, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyPowerBallot(mt.ctx(0, 90), mt.jk, mt.powerStatement(0, 2, mKill, false), b); err == nil {
		t.Fatal("the Don's ballot verified as a civilian's")
	}
	// Keys that are not the statement's are refused by the prover.
	if _, err := ProvePowerBallot(mt.ctx(0, 90), mt.jk, mt.sks[3], mt.views[3], mt.powerStatement(0, 2, mKill, false), 1); err == nil {
		t.Fatal("the Don proved a ballot against a civilian's keys")
	}
}

func TestPowerBallotStatementErrors(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	base := func() *PowerStatement { return mt.powerStatement(3, 1, mKill, false) }
	for name, mut := range map[string]func(*PowerStatement){
		"no holders":        func(s *PowerStatement) { s.Holders = nil },
		"every role holds":  func(s *PowerStatement) { s.Holders = mRoles },
		"holder not a role": func(s *PowerStatement) { s.Holders = []int{mDon, 40} },
		"repeated holder":   func(s *PowerStatement) { s.Holders = []int{mDon, mDon} },
		"repeated role":     func(s *PowerStatement) { s.Roles = append([]int{mDon}, mRoles...) },
		"negative role":     func(s *PowerStatement) { s.Roles = append([]int{-1}, mRoles...) },
		"no targets":        func(s *PowerStatement) { s.Targets = nil },
		"repeated target":   func(s *PowerStatement) { s.Targets = []uint32{1, 2, 1} },
		"only self":         func(s *PowerStatement) { s.Targets = []uint32{3} },
		"too many targets":  func(s *PowerStatement) { s.Targets = make([]uint32, MaxBallotEntries+1) },
		"component out":     func(s *PowerStatement) { s.Comp = 3 },
		"share width": func(s *PowerStatement) {
			s.Sent = append(s.Sent[:1:1], &EncryptedShare{E1: s.Sent[1].E1[:1], E2: s.Sent[1].E2[:1]})
		},
		"nil share":            func(s *PowerStatement) { s.Sent = append(s.Sent[:1:1], nil) },
		"identity viewing key": func(s *PowerStatement) { s.Y = ristretto.NewIdentityElement() },
		"nil card key":         func(s *PowerStatement) { s.X = nil },
		"empty card":           func(s *PowerStatement) { s.Card = nil },
	} {
		st := base()
		mut(st)
		if _, err := ProvePowerBallot(mt.ctx(3, 1), mt.jk, mt.sks[3], mt.views[3], st, 0); err == nil {
			t.Errorf("%s: proved", name)
		}
		good, err := ProvePowerBallot(mt.ctx(3, 1), mt.jk, mt.sks[3], mt.views[3], base(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyPowerBallot(mt.ctx(3, 1), mt.jk, st, good); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
	if err := VerifyPowerBallot(mt.ctx(3, 1), mt.jk, base(), nil); err == nil {
		t.Error("nil ballot verified")
	}
	if err := VerifyPowerBallot(mt.ctx(3, 1), mt.jk, nil, nil); err == nil {
		t.Error("nil statement verified")
	}
}

// Every element of the statement, every entry and every proof field is
// mutated, and the context changed: each must be rejected.
func TestTamperPowerBallot(t *testing.T) {
	t.Parallel() // proofs made and checked: CPU only, nothing shared
	mt := newMafiaTable(t, mTestRoles, false)
	for _, seat := range []int{3, 0} { // a holder and a non-holder
		t.Run(fmt.Sprintf("seat %d", seat), func(t *testing.T) {
			choice := NoVote
			if seat == 3 {
				choice = 1
			}
			ctx := mt.ctx(seat, 5)
			st := mt.powerStatement(seat, 1, mKill, false)
			b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[seat], mt.views[seat], st, choice)
			if err != nil {
				t.Fatal(err)
			}
			verify := func(ctx Context, jk *JointKey, st *PowerStatement, b *PowerBallot) func() error {
				return func() error { return VerifyPowerBallot(ctx, jk, st, b) }
			}
			var cases []tamperCase
			add := func(name string, f func() error) { cases = append(cases, tamperCase{name, f}) }
			for name, c := range tContextMutations(ctx) {
				add("context "+name, verify(c, mt.jk, st, b))
			}
			add("joint key", verify(ctx, &JointKey{H: tPlusG(mt.jk.H), Keys: mt.jk.Keys}, st, b))
			mutSt := func(name string, f func(s *PowerStatement)) {
				s := *st
				f(&s)
				add(name, verify(ctx, mt.jk, &s, b))
			}
			mutSt("power", func(s *PowerStatement) { s.Power++ })
			mutSt("holders", func(s *PowerStatement) { s.Holders = []int{mDon, mMadman} })
			mutSt("holders order", func(s *PowerStatement) { s.Holders = []int{mKill[1], mKill[0]} })
			mutSt("roles", func(s *PowerStatement) { s.Roles = append(append([]int{}, mRoles...), 9) })
			mutSt("roles order", func(s *PowerStatement) {
				s.Roles = append([]int{mRoles[1], mRoles[0]}, mRoles[2:]...)
			})
			mutSt("target seat", func(s *PowerStatement) {
				s.Targets = append([]uint32{}, s.Targets...)
				s.Targets[6] = 9
			})
			mutSt("target order", func(s *PowerStatement) {
				s.Targets = append([]uint32{}, s.Targets...)
				s.Targets[0], s.Targets[1] = s.Targets[1], s.Targets[0]
			})
			mutSt("self allowed", func(s *PowerStatement) { s.SelfAllowed = true })
			mutSt("card key", func(s *PowerStatement) { s.X = tPlusG(s.X) })
			mutSt("viewing key", func(s *PowerStatement) { s.Y = tPlusG(s.Y) })
			mutSt("component", func(s *PowerStatement) { s.Comp = 1 })
			for name, c := range tCardMutations("card", st.Card) {
				mutSt(name, func(s *PowerStatement) { s.Card = c })
			}
			mutSt("a share dropped", func(s *PowerStatement) { s.Sent = s.Sent[1:] })
			for j := range st.Sent {
				for k := range st.Card {
					for _, which := range []string{"E1", "E2"} {
						mutSt(fmt.Sprintf("share %d %s[%d]", j, which, k), func(s *PowerStatement) {
							s.Sent = append([]*EncryptedShare{}, s.Sent...)
							es := &EncryptedShare{E1: tCloneElements(s.Sent[j].E1), E2: tCloneElements(s.Sent[j].E2)}
							if which == "E1" {
								es.E1[k] = tPlusG(es.E1[k])
							} else {
								es.E2[k] = tPlusG(es.E2[k])
							}
							s.Sent[j] = es
						})
					}
				}
			}
			for i := range b.Entries {
				for _, ab := range []string{"A", "B"} {
					e := &PowerBallot{Entries: append([]Ciphertext{}, b.Entries...), proof: b.proof}
					if ab == "A" {
						e.Entries[i] = Ciphertext{A: tPlusG(b.Entries[i].A), B: b.Entries[i].B}
					} else {
						e.Entries[i] = Ciphertext{A: b.Entries[i].A, B: tPlusG(b.Entries[i].B)}
					}
					add(fmt.Sprintf("entry %d.%s", i, ab), verify(ctx, mt.jk, st, e))
				}
			}
			for _, m := range tSigmaMutations(b.proof) {
				add("proof "+m.name, verify(ctx, mt.jk, st, &PowerBallot{Entries: b.Entries, proof: m.p}))
			}
			// Under another protocol's label.
			add("ballot label", func() error {
				tr, f, err := powerStatement(ctx, mt.jk, st, b.Entries, nil)
				if err != nil {
					return err
				}
				_ = tr
				return VerifyFormula(ctx, labelBallot, f, b.proof)
			})
			runTamper(t, verify(ctx, mt.jk, st, b), cases)
			// Every byte of the encoding, flipped: rejected when decoding
			// or verifying.
			enc, _ := b.MarshalBinary()
			for i := range enc {
				mut := append([]byte{}, enc...)
				mut[i] ^= 0x01
				d, err := UnmarshalPowerBallot(mut, st, uint32(seat))
				if err == nil {
					err = VerifyPowerBallot(ctx, mt.jk, st, d)
				}
				if err == nil {
					t.Fatalf("byte %d flipped: accepted", i)
				}
			}
		})
	}
}

func TestCheck(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, true)
	cat := NewCatalogue(16)
	tests := []struct {
		name      string
		seat      int
		target    int
		mandatory bool
		proves    bool
		reads     int
	}{
		{"Commissar checks the Don", 1, 3, true, true, mMafia},
		{"Commissar checks a mafioso", 1, 4, false, true, mMafia},
		{"Commissar checks the Madman (before the join)", 1, 5, true, true, mNotMafia},
		{"Commissar checks a civilian", 1, 0, true, true, mNotMafia},
		{"Commissar checks himself", 1, 1, true, false, 0},
		{"Commissar checks a non-target", 1, 7, true, false, 0},
		{"Commissar skips a mandatory check", 1, NoVote, true, false, 0},
		{"Commissar skips an optional check", 1, NoVote, false, true, mNotMafia},
		{"civilian skips", 0, NoVote, true, true, mNotMafia},
		{"civilian checks", 0, 3, true, false, 0},
		{"Don checks", 3, 4, false, false, 0},
		{"Don skips", 3, NoVote, false, true, mNotMafia},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mt.checkStatement(tc.seat, tc.mandatory)
			ctx := mt.ctx(tc.seat, 300)
			c, err := ProveCheck(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.target)
			if !tc.proves {
				if err == nil {
					t.Fatal("proved a false check")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyCheck(ctx, mt.jk, st, c); err != nil {
				t.Fatalf("honest check rejected: %v", err)
			}
			enc, _ := c.MarshalBinary()
			d, err := UnmarshalCheck(enc, st, uint32(tc.seat))
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyCheck(ctx, mt.jk, st, d); err != nil {
				t.Fatalf("decoded check rejected: %v", err)
			}
			// The private view of Q by the checker.
			sent := mt.viewShares(t, d.Q, tc.seat)
			m, err := mt.sks[tc.seat].ViewedPoints(mt.views[tc.seat], d.Q, sent)
			if err != nil {
				t.Fatal(err)
			}
			if k, ok := cat.Kind(m[0]); !ok || k != tc.reads {
				t.Fatalf("the checker reads %d (%v), want %d", k, ok, tc.reads)
			}
		})
	}
}

// forgeCheck runs the check prover with its real branch forced: a target
// pick (branch 0, pick k among the valid targets) or the neutral card
// (branch 1), Q a re-masking of src.
func forgeCheck(t *testing.T, mt *mafiaTable, ctx Context, st *CheckStatement, src Ciphertext, branch, pick int) *Check {
	t.Helper()
	seat := int(ctx.Seat)
	card, view := mt.sks[seat], mt.views[seat]
	valid, others, err := st.shape(ctx.Seat)
	if err != nil {
		t.Fatal(err)
	}
	s := randomScalar()
	qa := ristretto.NewIdentityElement().ScalarBaseMult(s)
	qb := ristretto.NewIdentityElement().ScalarMult(s, mt.jk.H)
	Q := Card{{A: qa.Add(qa, src.A), B: qb.Add(qb, src.B)}}
	tr, f, err := checkStatement(ctx, mt.jk, st, Q, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := viewedPoint(card, view, st.Card, st.Comp, st.Sent)
	inA, _ := viewedHoldingAssignment(card, view, m, st.Holders)
	for i := range inA.Leaves {
		inA.Leaves[i] = []*Scalar{card.x, view.x}
	}
	var pickA Assignment
	real := make([]int, len(valid))
	real[pick] = 1
	for range valid {
		pickA.Leaves = append(pickA.Leaves, []*Scalar{s})
	}
	if len(valid) > 1 {
		pickA.Real = [][]int{real}
	}
	neutralA := Assignment{Leaves: [][]*Scalar{{s}}}
	if st.Mandatory {
		outA, _ := viewedHoldingAssignment(card, view, m, others)
		for i := range outA.Leaves {
			outA.Leaves[i] = []*Scalar{card.x, view.x}
		}
		neutralA = andAssignment(outA, neutralA)
	}
	p, err := proveSigma(tr, f, orAssignment([]int{1 - branch, branch}, andAssignment(inA, pickA), neutralA))
	if err != nil {
		t.Fatal(err)
	}
	return &Check{Q: Q, proof: p}
}

func TestCheckSoundness(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	team := func(seat int) Ciphertext { return mt.cards[seat][1] }
	secret := func(seat int) Ciphertext { return mt.cards[seat][3] }
	neutral := FaceUp(CardPoint(mNotMafia))[0]
	// valid targets of seat s are every seat but s, in order: pick index
	// of seat j is j for j < s, j−1 for j > s.
	tests := []struct {
		name      string
		seat      int
		mandatory bool
		src       Ciphertext
		branch    int
		pick      int
	}{
		{"a civilian checks the Don", 0, false, team(3), 0, 2},
		{"a civilian checks the Don (mandatory)", 0, true, team(3), 0, 2},
		{"the Commissar checks himself (as pick of the Don)", 1, false, team(1), 0, 2},
		{"the Commissar reads the Don's secret", 1, false, secret(3), 0, 2},
		{"the Commissar reads the Don's secret (neutral branch)", 1, false, secret(3), 1, 0},
		{"the Commissar skips a mandatory check", 1, true, neutral, 1, 0},
		{"a civilian re-masks a target as the neutral card", 0, false, team(3), 1, 0},
		{"the Commissar names the Don, re-masks the mafioso", 1, false, team(4), 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := mt.checkStatement(tc.seat, tc.mandatory)
			ctx := mt.ctx(tc.seat, 301)
			c := forgeCheck(t, mt, ctx, st, tc.src, tc.branch, tc.pick)
			if err := VerifyCheck(ctx, mt.jk, st, c); !errors.Is(err, ErrProof) {
				t.Fatalf("a false check verified: %v", err)
			}
		})
	}
	// Controls: the forger's honest checks verify.
	for _, tc := range []struct {
		seat, branch, pick int
		src                Ciphertext
	}{{1, 0, 2, team(3)}, {0, 1, 0, neutral}} {
		st := mt.checkStatement(tc.seat, true)
		ctx := mt.ctx(tc.seat, 301)
		if err := VerifyCheck(ctx, mt.jk, st, forgeCheck(t, mt, ctx, st, tc.src, tc.branch, tc.pick)); err != nil {
			t.Fatalf("the forger's honest check (seat %d) rejected: %v", tc.seat, err)
		}
	}
	// A seat that is not a target (dead, say): the Commissar re-masks its
	// team component and names the first valid target.
	{
		st := mt.checkStatement(1, true)
		st.Targets, st.TargetCards = st.Targets[:6], st.TargetCards[:6]
		ctx := mt.ctx(1, 302)
		for pick := range 5 {
			c := forgeCheck(t, mt, ctx, st, team(6), 0, pick)
			if err := VerifyCheck(ctx, mt.jk, st, c); !errors.Is(err, ErrProof) {
				t.Fatalf("a check of a non-target verified (pick %d): %v", pick, err)
			}
		}
	}
	// A statement that lists the checker only, or targets without cards.
	st := mt.checkStatement(1, true)
	st.Targets, st.TargetCards = []uint32{1}, mt.cards[1:2]
	if _, err := ProveCheck(mt.ctx(1, 1), mt.jk, mt.sks[1], mt.views[1], st, 0); err == nil {
		t.Fatal("a check with no target but the checker was proven")
	}
	st = mt.checkStatement(1, true)
	st.TargetCards = st.TargetCards[1:]
	if _, err := ProveCheck(mt.ctx(1, 1), mt.jk, mt.sks[1], mt.views[1], st, 0); err == nil {
		t.Fatal("a check with a missing target card was proven")
	}
	st = mt.checkStatement(1, false)
	st.Roles = mRoles
	if _, err := ProveCheck(mt.ctx(1, 1), mt.jk, mt.sks[1], mt.views[1], st, 0); err == nil {
		t.Fatal("an optional check with roles was proven")
	}
}

func TestTamperCheck(t *testing.T) {
	t.Parallel() // proofs made and checked: CPU only, nothing shared
	mt := newMafiaTable(t, mTestRoles, false)
	for _, tc := range []struct{ seat, target int }{{1, 4}, {6, NoVote}} {
		t.Run(fmt.Sprintf("seat %d", tc.seat), func(t *testing.T) {
			ctx := mt.ctx(tc.seat, 9)
			st := mt.checkStatement(tc.seat, true)
			c, err := ProveCheck(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			verify := func(ctx Context, jk *JointKey, st *CheckStatement, c *Check) func() error {
				return func() error { return VerifyCheck(ctx, jk, st, c) }
			}
			var cases []tamperCase
			add := func(name string, f func() error) { cases = append(cases, tamperCase{name, f}) }
			for name, cx := range tContextMutations(ctx) {
				add("context "+name, verify(cx, mt.jk, st, c))
			}
			add("joint key", verify(ctx, &JointKey{H: tPlusG(mt.jk.H), Keys: mt.jk.Keys}, st, c))
			mutSt := func(name string, f func(s *CheckStatement)) {
				s := *st
				f(&s)
				add(name, verify(ctx, mt.jk, &s, c))
			}
			mutSt("holders", func(s *CheckStatement) { s.Holders = []int{mNurse} })
			mutSt("not mandatory", func(s *CheckStatement) { s.Mandatory, s.Roles = false, nil })
			mutSt("roles", func(s *CheckStatement) { s.Roles = append(append([]int{}, mRoles...), 9) })
			mutSt("card key", func(s *CheckStatement) { s.X = tPlusG(s.X) })
			mutSt("viewing key", func(s *CheckStatement) { s.Y = tPlusG(s.Y) })
			mutSt("component", func(s *CheckStatement) { s.Comp = 2 })
			for name, cd := range tCardMutations("card", st.Card) {
				mutSt(name, func(s *CheckStatement) { s.Card = cd })
			}
			mutSt("a share dropped", func(s *CheckStatement) { s.Sent = s.Sent[1:] })
			for j := range st.Sent {
				for k := range st.Card {
					mutSt(fmt.Sprintf("share %d E1[%d]", j, k), func(s *CheckStatement) {
						s.Sent = append([]*EncryptedShare{}, s.Sent...)
						s.Sent[j] = &EncryptedShare{E1: tCloneElements(s.Sent[j].E1), E2: s.Sent[j].E2}
						s.Sent[j].E1[k] = tPlusG(s.Sent[j].E1[k])
					})
					mutSt(fmt.Sprintf("share %d E2[%d]", j, k), func(s *CheckStatement) {
						s.Sent = append([]*EncryptedShare{}, s.Sent...)
						s.Sent[j] = &EncryptedShare{E1: s.Sent[j].E1, E2: tCloneElements(s.Sent[j].E2)}
						s.Sent[j].E2[k] = tPlusG(s.Sent[j].E2[k])
					})
				}
			}
			mutSt("target seat", func(s *CheckStatement) {
				s.Targets = append([]uint32{}, s.Targets...)
				s.Targets[6] = 9
			})
			mutSt("target order", func(s *CheckStatement) {
				s.Targets = append([]uint32{}, s.Targets...)
				s.Targets[0], s.Targets[2] = s.Targets[2], s.Targets[0]
			})
			for i := range st.TargetCards {
				for name, cd := range tCardMutations(fmt.Sprintf("target card %d", i), st.TargetCards[i]) {
					mutSt(name, func(s *CheckStatement) {
						s.TargetCards = append([]Card{}, s.TargetCards...)
						s.TargetCards[i] = cd
					})
				}
			}
			mutSt("target component", func(s *CheckStatement) { s.TargetComp = 2 })
			mutSt("neutral", func(s *CheckStatement) { s.Neutral = mMafia })
			for name, q := range tCardMutations("Q", c.Q) {
				add(name, verify(ctx, mt.jk, st, &Check{Q: q, proof: c.proof}))
			}
			for _, m := range tSigmaMutations(c.proof) {
				add("proof "+m.name, verify(ctx, mt.jk, st, &Check{Q: c.Q, proof: m.p}))
			}
			runTamper(t, verify(ctx, mt.jk, st, c), cases)
			enc, _ := c.MarshalBinary()
			for i := range enc {
				mut := append([]byte{}, enc...)
				mut[i] ^= 0x01
				d, err := UnmarshalCheck(mut, st, uint32(tc.seat))
				if err == nil {
					err = VerifyCheck(ctx, mt.jk, st, d)
				}
				if err == nil {
					t.Fatalf("byte %d flipped: accepted", i)
				}
			}
		})
	}
}

// One night: every seat posts 4 powered ballots and 1 check; everything
// goes into one batch; the tallies open what the seats chose; a tampered
// ballot is named.
func TestNightBatchAndTally(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	powers := []struct {
		holders []int
		choice  map[int]int
	}{
		{mKill, map[int]int{3: 0, 4: 0}},
		{[]int{mMadman}, map[int]int{5: 6}},
		{[]int{mNurse}, map[int]int{2: 0}},
		{[]int{mButterfly}, map[int]int{}}, // nobody holds it
	}
	var bt Batch
	sums := make([][]*PowerBallot, len(powers))
	for p, pw := range powers {
		for seat := range mt.roles {
			choice, ok := pw.choice[seat]
			if !ok {
				choice = NoVote
			}
			st := mt.powerStatement(seat, uint8(p), pw.holders, false)
			ctx := mt.ctx(seat, uint64(10+p))
			b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[seat], mt.views[seat], st, choice)
			if err != nil {
				t.Fatalf("power %d seat %d: %v", p, seat, err)
			}
			bt.AddPowerBallot(fmt.Sprintf("power %d seat %d", p, seat), ctx, mt.jk, st, b)
			sums[p] = append(sums[p], b)
		}
	}
	for seat := range mt.roles {
		target := NoVote
		if seat == 1 {
			target = 4
		}
		st := mt.checkStatement(seat, true)
		c, err := ProveCheck(mt.ctx(seat, 20), mt.jk, mt.sks[seat], mt.views[seat], st, target)
		if err != nil {
			t.Fatal(err)
		}
		bt.AddCheck(fmt.Sprintf("check seat %d", seat), mt.ctx(seat, 20), mt.jk, st, c)
	}
	if err := bt.Verify(); err != nil {
		t.Fatal(err)
	}
	// Tallies, with seat 6 retired: the table computes its shares.
	retired, err := RetiredKey(mt.sks[6].Bytes(), mt.jk.Keys[6])
	if err != nil {
		t.Fatal(err)
	}
	for p, pw := range powers {
		sum, err := AddPowerBallots(sums[p]...)
		if err != nil {
			t.Fatal(err)
		}
		for target := range mt.roles {
			comp, _ := sum.Component(target)
			var shares [][]*Element
			for j, sk := range mt.sks[:6] {
				ctx := mt.ctx(j, 50)
				s, err := sk.Share(ctx, comp)
				if err != nil {
					t.Fatal(err)
				}
				if err := VerifyShare(ctx, mt.jk.Keys[j], comp, s); err != nil {
					t.Fatal(err)
				}
				shares = append(shares, s.D)
			}
			shares = append(shares, retired.RetiredShare(comp))
			got, err := OpenTally(sum, target, shares)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, c := range pw.choice {
				if c == target {
					want++
				}
			}
			if got != want {
				t.Errorf("power %d target %d: tally %d, want %d", p, target, got, want)
			}
		}
	}
	// A tampered ballot in a batch is named.
	var bad Batch
	st := mt.powerStatement(3, 0, mKill, false)
	b, _ := ProvePowerBallot(mt.ctx(3, 10), mt.jk, mt.sks[3], mt.views[3], st, 0)
	ok2, _ := ProvePowerBallot(mt.ctx(0, 10), mt.jk, mt.sks[0], mt.views[0], mt.powerStatement(0, 0, mKill, false), NoVote)
	bad.AddPowerBallot("seat 0", mt.ctx(0, 10), mt.jk, mt.powerStatement(0, 0, mKill, false), ok2)
	bad.AddPowerBallot("seat 3", mt.ctx(3, 10), mt.jk, st, &PowerBallot{Entries: b.Entries, proof: tSigmaMutations(b.proof)[5].p})
	var be *BatchError
	if err := bad.Verify(); !errors.As(err, &be) || be.Name != "seat 3" {
		t.Fatalf("tampered batch: %v", err)
	}
}

func TestRetiredSeat(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	// The published key must be the roster's.
	if _, err := RetiredKey(mt.sks[2].Bytes(), mt.jk.Keys[3]); err == nil {
		t.Fatal("another seat's key accepted as seat 3's")
	}
	if _, err := RetiredKey(make([]byte, 32), mt.jk.Keys[3]); err == nil {
		t.Fatal("zero key accepted")
	}
	if _, err := RetiredKey(mt.sks[3].Bytes()[:31], mt.jk.Keys[3]); err == nil {
		t.Fatal("short key accepted")
	}
	if _, err := RetiredKey(mt.sks[3].Bytes(), nil); err == nil {
		t.Fatal("key accepted against no roster key")
	}
	retired, err := RetiredKey(mt.sks[6].Bytes(), mt.jk.Keys[6])
	if err != nil {
		t.Fatal(err)
	}
	// Seat 3 (the Don) views a new tuple's components 0, 1, 3 after seat 6
	// retired: seat 6's share is computed by the table.
	sub, _ := mt.cards[3].Select(0, 1, 3)
	var sent []*EncryptedShare
	for j, sk := range mt.sks {
		switch j {
		case 3:
		case 6:
			es := retired.RetiredEncryptedShare(sub)
			if err := VerifyEncryptedShare(mt.ctx(6, 1), mt.jk.Keys[6], mt.views[3].Public(), sub, es); err == nil {
				t.Fatal("a proof-less retired share verified as an encrypted share")
			}
			sent = append(sent, es)
		default:
			es, err := sk.EncryptShare(mt.ctx(j, 1), sub, mt.views[3].Public())
			if err != nil {
				t.Fatal(err)
			}
			sent = append(sent, es)
		}
	}
	m, err := mt.sks[3].ViewedPoints(mt.views[3], sub, sent)
	if err != nil {
		t.Fatal(err)
	}
	if m[0].Equal(CardPoint(mDon)) != 1 {
		t.Fatal("the Don does not read his role through a retired seat's share")
	}
	st := &PowerStatement{Power: 0, Roles: mRoles, Holders: mKill, Targets: []uint32{0, 1, 2, 3, 4, 5},
		X: mt.jk.Keys[3], Y: mt.views[3].Public(), Card: sub, Comp: 0, Sent: sent}
	b, err := ProvePowerBallot(mt.ctx(3, 2), mt.jk, mt.sks[3], mt.views[3], st, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyPowerBallot(mt.ctx(3, 2), mt.jk, st, b); err != nil {
		t.Fatal(err)
	}
	// Coin shares.
	Q := CoinPoint(mt.game, 9)
	cs, err := mt.sks[6].CoinShare(mt.ctx(6, 9), Q)
	if err != nil {
		t.Fatal(err)
	}
	if retired.RetiredCoinShare(Q).D.Equal(cs.D) != 1 {
		t.Fatal("the retired coin share differs from the seat's own")
	}
	// The retired key opens none of the seat's past private views: seat
	// 6's own tuple, with its key and the public data but not its
	// viewing key, does not open.
	var wrong [][]*Element
	for _, es := range mt.sent[6] {
		wrong = append(wrong, es.E2) // not decryptable without y_6
	}
	opened, _ := retired.Peek(mt.seen[6], wrong)
	if opened[0].Equal(CardPoint(mt.roles[6])) == 1 {
		t.Fatal("the retired key opened the seat's own past view without its viewing key")
	}
}

// Tuples of width 5: a deck of 18 role tuples shuffled by 3 seats, proven;
// each seat views components 0, 1, 3 of one tuple and 4 later.
func TestWidth5Deck(t *testing.T) {
	roles := []int{mCivilian, mCivilian, mCivilian, mCivilian, mCivilian, mCivilian, mCivilian, mCivilian,
		mCommissar, mNurse, mButterfly, mMafioso, mMafioso, mMafioso, mDon, mMadman, mCivilian, mCivilian}
	game := [32]byte{'w', '5'}
	tt := newTestTable(t, 3)
	deck := make([]Card, len(roles))
	for i, r := range roles {
		deck[i] = mafiaTuple(game, r)
	}
	for s := range 3 {
		ctx := Context{Table: game, Pos: uint64(s), Seat: uint32(s)}
		out, p, err := tt.jk.Shuffle(ctx, deck)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := p.MarshalBinary()
		if len(enc) != ShuffleProofSize(18, 5) {
			t.Fatalf("proof of %d bytes, want %d", len(enc), ShuffleProofSize(18, 5))
		}
		d, err := UnmarshalShuffleProof(enc, 18, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := tt.jk.VerifyShuffle(ctx, deck, out, d); err != nil {
			t.Fatal(err)
		}
		// A shuffle that breaks a tuple apart is rejected.
		broken := append([]Card{}, out...)
		broken[0] = append(Card{}, out[0]...)
		broken[1] = append(Card{}, out[1]...)
		broken[0][3], broken[1][3] = out[1][3], out[0][3]
		if err := tt.jk.VerifyShuffle(ctx, deck, broken, d); err == nil {
			t.Fatal("a shuffle that exchanged the secret components of two tuples verified")
		}
		deck = out
	}
	cat := NewCatalogue(16)
	counts := map[int]int{}
	x := ristretto.NewScalar()
	for _, sk := range tt.sks {
		x.Add(x, sk.x)
	}
	S := ristretto.NewIdentityElement().ScalarMult(x, GroupSecretPoint(game))
	for i, c := range deck {
		viewer := i % 3
		view := GenerateKey()
		sub, err := c.Select(0, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		sent := tt.viewed(t, sub, viewer, view)
		m, err := tt.sks[viewer].ViewedPoints(view, sub, sent)
		if err != nil {
			t.Fatal(err)
		}
		role, ok := cat.Kind(m[0])
		if !ok {
			t.Fatalf("tuple %d: no role", i)
		}
		counts[role]++
		mafia := role == mMafioso || role == mDon
		if team, _ := cat.Kind(m[1]); (team == mMafia) != mafia {
			t.Errorf("tuple %d: role %d with team %d", i, role, team)
		}
		if (m[2].Equal(S) == 1) != mafia {
			t.Errorf("tuple %d: role %d, secret is S: %v", i, role, !mafia)
		}
		// The proof about the viewed sub-tuple's role.
		ctx := Context{Table: game, Pos: 99, Seat: uint32(viewer)}
		p, err := ProveViewedHolding(ctx, tt.sks[viewer], view, sub, 0, sent, []int{role})
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyViewedHolding(ctx, tt.jk.Keys[viewer], view.Public(), sub, 0, sent, []int{role}, p); err != nil {
			t.Fatal(err)
		}
		// Component 4, viewed alone.
		s4, _ := c.Select(4)
		m4, err := tt.sks[viewer].ViewedPoints(view, s4, tt.viewed(t, s4, viewer, view))
		if err != nil {
			t.Fatal(err)
		}
		if (m4[0].Equal(S) == 1) != (mafia || role == mMadman) {
			t.Errorf("tuple %d: role %d, component 4 is S: %v", i, role, !(mafia || role == mMadman))
		}
	}
	want := map[int]int{}
	for _, r := range roles {
		want[r]++
	}
	for r, n := range want {
		if counts[r] != n {
			t.Errorf("role %d: %d tuples after the shuffles, want %d", r, counts[r], n)
		}
	}
	// Select's errors.
	for name, comps := range map[string][]int{"none": {}, "out of range": {5}, "negative": {-1}, "repeated": {0, 0}, "too many": {0, 1, 2, 3, 4, 0}} {
		if _, err := deck[0].Select(comps...); err == nil {
			t.Errorf("Select %s: accepted", name)
		}
	}
	// Width 6 is refused everywhere.
	six := append(deck[0].Clone(), deck[1][0])
	if _, err := six.MarshalBinary(); err == nil {
		t.Error("a width-6 card encoded")
	}
}

// The encoded sizes are the closed forms of SPEC.md §9.2 and §9.3.
func TestMafiaSizes(t *testing.T) {
	for _, k := range [][2]int{{1, 1}, {1, 6}, {2, 5}, {3, 4}} {
		for _, n := range []int{1, 2, 12, 18} {
			for _, self := range []bool{false, true} {
				s := 0
				if self {
					s = 1
				}
				if got, want := PowerBallotSize(k[0], k[1], n, self), 1+64*n+32*(6*(k[0]+k[1])+7*n+5+3*s); got != want {
					t.Errorf("ballot R=%d R̄=%d n=%d self=%v: %d bytes, want %d", k[0], k[1], n, self, got, want)
				}
			}
			if got, want := CheckSize(k[0], n, 0), 64+32*(6*k[0]+4*n+2); got != want {
				t.Errorf("optional check R=%d v=%d: %d bytes, want %d", k[0], n, got, want)
			}
			if got, want := CheckSize(k[0], n, k[1]), 64+32*(6*(k[0]+k[1])+4*n+1); got != want {
				t.Errorf("mandatory check R=%d R̄=%d v=%d: %d bytes, want %d", k[0], k[1], n, got, want)
			}
		}
	}
}

// What a seat posts does not depend on its role: a holder's and a
// non-holder's ballots, and a checker's and a non-checker's checks, have
// the same length and shape; a tag made from the neutral point is not the
// neutral point's tag.
func TestMafiaPostsLookAlike(t *testing.T) {
	mt := newMafiaTable(t, mTestRoles, false)
	var sizes []int
	for _, tc := range []struct{ seat, choice int }{{3, 0}, {4, 5}, {0, NoVote}, {1, NoVote}} {
		b, err := ProvePowerBallot(mt.ctx(tc.seat, 1), mt.jk, mt.sks[tc.seat], mt.views[tc.seat], mt.powerStatement(tc.seat, 0, mKill, false), tc.choice)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := b.MarshalBinary()
		sizes = append(sizes, len(enc))
	}
	for _, tc := range []struct{ seat, target int }{{1, 3}, {0, NoVote}, {3, NoVote}} {
		c, err := ProveCheck(mt.ctx(tc.seat, 2), mt.jk, mt.sks[tc.seat], mt.views[tc.seat], mt.checkStatement(tc.seat, true), tc.target)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := c.MarshalBinary()
		sizes = append(sizes, len(enc))
	}
	for i := 1; i < 4; i++ {
		if sizes[i] != sizes[0] {
			t.Errorf("ballot sizes differ by role: %v", sizes[:4])
		}
	}
	for i := 5; i < 7; i++ {
		if sizes[i] != sizes[4] {
			t.Errorf("check sizes differ by role: %v", sizes[4:])
		}
	}
	S := ristretto.NewIdentityElement().ScalarMult(randomScalar(), GroupSecretPoint(mt.game))
	if got := TagFor(S, mNeutral, mt.game, 1, 2); got != Tag(S, mt.game, 1, 2) {
		t.Error("TagFor(S) is not S's tag")
	}
	n1, n2 := TagFor(CardPoint(mNeutral), mNeutral, mt.game, 1, 2), TagFor(CardPoint(mNeutral), mNeutral, mt.game, 1, 2)
	if n1 == n2 || n1 == Tag(CardPoint(mNeutral), mt.game, 1, 2) {
		t.Error("a neutral seat's tag is not fresh noise")
	}
}

// Statements with missing points are refused, never a panic.
func TestMafiaNilPoints(t *testing.T) {
	mt := newMafiaTable(t, mFuzzRoles, false)
	st := mt.checkStatement(1, true)
	c, err := ProveCheck(mt.ctx(1, 1), mt.jk, mt.sks[1], mt.views[1], st, 3)
	if err != nil {
		t.Fatal(err)
	}
	bad := *st
	bad.TargetCards = append([]Card{}, st.TargetCards...)
	bad.TargetCards[2] = bad.TargetCards[2].Clone()
	bad.TargetCards[2][4].B = nil
	if err := VerifyCheck(mt.ctx(1, 1), mt.jk, &bad, c); err == nil {
		t.Error("a target card with a missing point verified")
	}
	if err := VerifyCheck(mt.ctx(1, 1), mt.jk, st, &Check{Q: Card{{A: nil, B: Base()}}, proof: c.proof}); err == nil {
		t.Error("a check with a missing Q verified")
	}
	pst := mt.powerStatement(3, 0, mKill, false)
	b, err := ProvePowerBallot(mt.ctx(3, 1), mt.jk, mt.sks[3], mt.views[3], pst, 0)
	if err != nil {
		t.Fatal(err)
	}
	nb := &PowerBallot{Entries: append([]Ciphertext{}, b.Entries...), proof: b.proof}
	nb.Entries[1].B = nil
	if err := VerifyPowerBallot(mt.ctx(3, 1), mt.jk, pst, nb); err == nil {
		t.Error("a ballot with a missing point verified")
	}
	bp := *pst
	bp.Card = pst.Card.Clone()
	bp.Card[2].A = nil
	if err := VerifyPowerBallot(mt.ctx(3, 1), mt.jk, &bp, b); err == nil {
		t.Error("a statement with a missing card point verified")
	}
	if err := VerifyPowerBallot(mt.ctx(3, 1), nil, pst, b); err == nil {
		t.Error("a ballot verified without a joint key")
	}
}
