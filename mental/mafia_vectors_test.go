package mental

import (
	"fmt"
	"strconv"
	"testing"
	"testing/cryptotest"
)

// testMafiaVectors (TestVectors/mafia) freezes Mafia's encodings (SPEC.md §9) in
// testdata/vectors_mafia.txt, like TestVectors: a 4-seat table (Civilian,
// Commissar, Mafioso, Don), the group secret, tags, the Don's and a
// civilian's powered ballots and the Commissar's and a civilian's checks,
// with every input an outside verifier needs. Regenerate with
//
//	go test ./mental/ -run TestVectors -update-vectors
func testMafiaVectors(t *testing.T) {
	const seed = 14
	cryptotest.SetGlobalRandom(t, seed)
	v := &vectorSet{name: "mafia", about: "Mafia: group secret, tags, powered ballots and checks at 4 seats (SPEC.md §9)", seed: seed, vals: map[string]string{}}
	roles := []int{mCivilian, mCommissar, mMafioso, mDon}
	mt := newMafiaTable(t, roles, false)
	v.add("game", mt.game[:])
	for i := range roles {
		v.add(fmt.Sprintf("card_secret[%d]", i), mt.sks[i].Bytes())
		v.add(fmt.Sprintf("view_secret[%d]", i), mt.views[i].Bytes())
		v.addText(fmt.Sprintf("role[%d]", i), strconv.Itoa(roles[i]))
	}
	v.add("joint_key", mt.jk.H.AppendBytes(nil))
	v.addText("viewed.sent", "viewed[i].sent[j]: the share of the j-th other seat in seat order, encrypted to view key i, at context (game, pos 1000+i, that seat)")
	v.add("group_secret_point", GroupSecretPoint(mt.game).AppendBytes(nil))
	gs := GroupSecretComponent(mt.game)
	v.addMarshal(t, "group_secret_component", Card{gs})
	for i := range roles {
		v.addMarshal(t, fmt.Sprintf("tuple[%d]", i), mt.cards[i])
		v.addMarshal(t, fmt.Sprintf("viewed[%d]", i), mt.seen[i])
		for j, es := range mt.sent[i] {
			v.addMarshal(t, fmt.Sprintf("viewed[%d].sent[%d]", i, j), es)
		}
	}
	don, err := mt.sks[3].ViewedPoints(mt.views[3], mt.seen[3], mt.sent[3])
	if err != nil {
		t.Fatal(err)
	}
	S := don[2]
	v.add("S", S.AppendBytes(nil))
	tag := Tag(S, mt.game, 1, 3)
	v.add("tag(round=1,seat=3)", tag[:])

	v.addText("ballot.roles", fmt.Sprint(mRoles))
	v.addText("ballot.holders", fmt.Sprint(mKill))
	for _, tc := range []struct{ seat, choice int }{{3, 0}, {0, NoVote}} {
		ctx := mt.ctx(tc.seat, 21)
		st := mt.powerStatement(tc.seat, 1, mKill, false)
		b, err := ProvePowerBallot(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.choice)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyPowerBallot(ctx, mt.jk, st, b); err != nil {
			t.Fatal(err)
		}
		pre := fmt.Sprintf("ballot(seat=%d,choice=%d)", tc.seat, tc.choice)
		v.addContext(pre+".ctx", ctx)
		v.addMarshal(t, pre, b)
	}
	for _, tc := range []struct{ seat, target int }{{1, 3}, {0, NoVote}} {
		ctx := mt.ctx(tc.seat, 22)
		st := mt.checkStatement(tc.seat, true)
		c, err := ProveCheck(ctx, mt.jk, mt.sks[tc.seat], mt.views[tc.seat], st, tc.target)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyCheck(ctx, mt.jk, st, c); err != nil {
			t.Fatal(err)
		}
		pre := fmt.Sprintf("check(seat=%d,target=%d)", tc.seat, tc.target)
		v.addContext(pre+".ctx", ctx)
		v.addMarshal(t, pre, c)
	}
	v.check(t)
}
