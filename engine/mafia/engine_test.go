package mafia_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

func enc(t *testing.T, s *mafia.State) []byte {
	t.Helper()
	b, err := s.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPublicStateIgnoresDeal plays two tables with different deals and
// the same public history (the same moves, night outcomes with the same
// tallies): the rules states and effects are identical until a role is
// revealed, checked before every batch of facts the rules learn.
func TestPublicStateIgnoresDeal(t *testing.T) {
	for _, n := range []int{6, 12, 18} {
		o := mafia.Options{Players: names(n)}
		var tabs [2]*mafiatest.Table
		var logs [2][]batch
		for i := range tabs {
			tab, err := mafiatest.New(o, uint64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			tab.OnFacts = func(before, _ *mafia.State, facts []engine.Fact) {
				logs[i] = append(logs[i], batch{enc(t, before), facts})
			}
			tabs[i] = tab
		}
		a, b := tabs[0], tabs[1]
		differ := false
		for p := range engine.Seat(n) {
			differ = differ || a.RoleOf(p) != b.RoleOf(p)
		}
		if !differ {
			t.Fatalf("%d players: the seeds dealt the same roles", n)
		}
		compare := func(step string) {
			if !bytes.Equal(enc(t, a.State), enc(t, b.State)) {
				t.Fatalf("%d players, %s: the states differ", n, step)
			}
			if !reflect.DeepEqual(a.Last, b.Last) {
				t.Fatalf("%d players, %s: the effects differ", n, step)
			}
		}
		compare("the deal")
		for _, p := range a.State.Living() {
			m := engine.Move{Seat: p, Kind: mafia.MoveHold, Args: []int{0}}
			if err := a.Play(m); err != nil {
				t.Fatal(err)
			}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
			compare(fmt.Sprintf("hold by %d", p))
		}
		// Night 2: every holder names the same target at both tables, one
		// that holds no power and is no mafioso at either.
		for a.Waiting() || b.Waiting() {
			na, nb := a.Needs(), b.Needs()
			if len(na) == 0 || len(nb) == 0 || na[0].Power != nb[0].Power {
				t.Fatalf("%d players: the tables wait for different things", n)
			}
			pw := na[0].Power
			holders := map[engine.Seat]bool{}
			for _, x := range append(slices.Clone(na), nb...) {
				holders[x.Seat] = true
			}
			target := mafia.NoSeat
			for _, q := range a.State.Living() {
				if !holders[q] && !mafia.IsMafia(a.RoleOf(q)) && !mafia.IsMafia(b.RoleOf(q)) {
					target = q
					break
				}
			}
			for i, needs := range [][]mafiatest.Need{na, nb} {
				for _, x := range needs {
					if err := tabs[i].Choose(x.Seat, pw, target); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if len(logs[0]) == 0 || len(logs[0]) != len(logs[1]) && !hasReveal(logs[0]) {
			t.Fatalf("%d players: %d and %d batches of facts", n, len(logs[0]), len(logs[1]))
		}
		for i := range min(len(logs[0]), len(logs[1])) {
			x, y := logs[0][i], logs[1][i]
			if !bytes.Equal(x.before, y.before) {
				t.Fatalf("%d players: the states differ before batch %d", n, i)
			}
			if hasReveal([]batch{x}) {
				break // a role revealed: the public states may differ now
			}
			if !reflect.DeepEqual(x.facts, y.facts) {
				t.Fatalf("%d players: batch %d's facts differ", n, i)
			}
		}
	}
}

// batch is one batch of facts a table's rules learnt, with the state
// that waited for it.
type batch struct {
	before []byte
	facts  []engine.Fact
}

// hasReveal reports whether any batch opened a card (rather than a tally
// or a coin).
func hasReveal(bs []batch) bool {
	for _, b := range bs {
		for _, f := range b.facts {
			if f.Slot >= 0 {
				return true
			}
		}
	}
	return false
}

// TestBallotsOnlyFromTheLiving: every effect asking seats to act names
// living seats only, and the night's ballots name exactly the living.
func TestBallotsOnlyFromTheLiving(t *testing.T) {
	for seed := range uint64(20) {
		n := 6 + int(seed%10)
		tab, err := mafiatest.New(mafia.Options{Players: names(n)}, seed)
		if err != nil {
			t.Fatal(err)
		}
		var players []mafiatest.Player
		for p := range engine.Seat(n) {
			players = append(players, newBot(p, seed))
		}
		for step := 0; step < 3000; step++ {
			living := tab.State.Living()
			from, moves := len(tab.Last), len(tab.Moves)
			more, err := tab.Step(players)
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Moves) != moves {
				from = 0 // a move: Last starts afresh
			}
			for _, e := range tab.Last[from:] {
				switch e.Kind {
				case engine.EffectBallot, engine.EffectCheck:
					if !slices.Equal(e.Seats, e.Targets) || e.SelfAllowed {
						t.Fatalf("ballot %+v: voters are not the targets, or self allowed", e)
					}
					for _, p := range e.Seats {
						if !slices.Contains(living, p) {
							t.Fatalf("ballot asks dead seat %d", p)
						}
					}
				}
			}
			if !more {
				break
			}
		}
	}
}

func TestDeadMoveRejected(t *testing.T) {
	s, err := mafia.NewGame(mafia.Options{Players: names(5), NoIncidents: true})
	if err != nil {
		t.Fatal(err)
	}
	ns, eff, err := s.Play(engine.Move{Seat: 2, Kind: mafia.MoveLeave})
	if err != nil || len(eff) != 1 || eff[0].Kind != engine.EffectReveal || !slices.Equal(eff[0].Comps, []int{0}) {
		t.Fatalf("leave: %v %v", eff, err)
	}
	ns2, eff, err := ns.LearnFacts([]engine.Fact{{Slot: 2, Card: mafia.Civilian}})
	if err != nil || len(eff) != 1 || eff[0].Kind != engine.EffectRetire || eff[0].By != 2 {
		t.Fatalf("learn: %v %v", eff, err)
	}
	for _, m := range []engine.Move{
		{Seat: 2, Kind: mafia.MoveHold, Args: []int{1}},
		{Seat: 2, Kind: mafia.MoveLeave},
		{Seat: 2, Kind: mafia.MoveVote, Args: []int{0}},
	} {
		_, _, err := ns2.Play(m)
		var re *engine.RuleError
		if !errors.As(err, &re) || re.Seat != 2 || re.Rule != mafia.RuleDead {
			t.Fatalf("dead seat's %v: %v", m, err)
		}
	}
	// A move while facts are due, and facts while a move is due.
	if _, _, err := ns.Play(engine.Move{Seat: 0, Kind: mafia.MoveHold, Args: []int{1}}); err == nil {
		t.Fatal("a move while facts are due")
	}
	if _, _, err := ns2.Learn(nil); err == nil {
		t.Fatal("facts while a move is due")
	}
	// A revealed role the deck does not hold is refused.
	if _, _, err := ns.Learn([]engine.Fact{{Slot: 2, Card: mafia.Don}}); err == nil {
		t.Fatal("a Don revealed at a table without one")
	}
	// A receiver never changes.
	if !bytes.Equal(enc(t, s), enc(t, mustNew(t, 5))) {
		t.Fatal("Play changed its receiver")
	}
}

func mustNew(t *testing.T, n int) *mafia.State {
	s, err := mafia.NewGame(mafia.Options{Players: names(n), NoIncidents: true})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReshuffleBeforeDraw: a dead player's cards go back to the deck,
// which every living seat reshuffles before the next draw.
func TestReshuffleBeforeDraw(t *testing.T) {
	tab, err := mafiatest.New(mafia.Options{Players: names(7)}, 5)
	if err != nil {
		t.Fatal(err)
	}
	var civ, com engine.Seat = -1, -1
	for p := range engine.Seat(7) {
		switch tab.RoleOf(p) {
		case mafia.Civilian:
			civ = p
		case mafia.Commissar:
			com = p
		}
	}
	if err := tab.Play(engine.Move{Seat: civ, Kind: mafia.MoveLeave}); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(tab.Last, func(e engine.Effect) bool { return e.Kind == engine.EffectShuffle }) {
		t.Fatal("shuffled without a draw")
	}
	if err := tab.Play(engine.Move{Seat: com, Kind: mafia.MoveLeave}); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tab.Last, func(e engine.Effect) bool { return e.Kind == engine.EffectShuffle })
	if i < 0 {
		t.Fatal("no reshuffle before the draw")
	}
	sh := tab.Last[i]
	if !slices.Equal(sh.Seats, tab.State.Living()) || len(sh.Slots) != mafia.IncidentDeckSize-7+2 {
		t.Fatalf("reshuffle %+v: want every living seat, the deck of %d", sh, mafia.IncidentDeckSize-7+2)
	}
	peeks := 0
	for _, e := range tab.Last[i+1:] {
		if e.Kind == engine.EffectPeek {
			peeks++
		}
	}
	if peeks != 5 {
		t.Fatalf("%d draws after the reshuffle, want 5", peeks)
	}
}

func TestOpening(t *testing.T) {
	s, err := mafia.NewGame(mafia.Options{Players: names(9)})
	if err != nil {
		t.Fatal(err)
	}
	eff := s.Opening()
	kinds := map[engine.EffectKind]int{}
	for _, e := range eff {
		kinds[e.Kind]++
		if e.Kind == engine.EffectPeek && int(e.Slots[0]) < 9 && !slices.Equal(e.Comps, []int{0, 1, 3}) {
			t.Fatalf("role peek %+v: want components 0, 1, 3", e)
		}
		if e.Kind == engine.EffectTag && (e.Comp != 3 || e.Round != 1 || len(e.Seats) != 9) {
			t.Fatalf("tag %+v", e)
		}
	}
	if kinds[engine.EffectSet] != 2 || kinds[engine.EffectShuffle] != 2 || kinds[engine.EffectPeek] != 18 || kinds[engine.EffectTag] != 1 {
		t.Fatalf("opening kinds %v", kinds)
	}
	// The tuples of docs/mafia.md §2.
	for _, c := range []struct {
		role   engine.Card
		t1, t2 engine.Card
		s3, s4 bool
	}{
		{mafia.Don, mafia.MafiaTeam, mafia.MafiaTeam, true, true},
		{mafia.Mafioso, mafia.MafiaTeam, mafia.MafiaTeam, true, true},
		{mafia.Madman, mafia.NotMafia, mafia.MafiaTeam, false, true},
		{mafia.Nurse, mafia.NotMafia, mafia.NotMafia, false, false},
	} {
		tu := s.Tuple(c.role)
		if len(tu) != mafia.TupleLen || tu[0].Kind != c.role || tu[1].Kind != c.t1 || tu[2].Kind != c.t2 ||
			tu[3].GroupSecret != c.s3 || tu[4].GroupSecret != c.s4 {
			t.Fatalf("tuple of %s: %+v", mafia.CardName(c.role), tu)
		}
	}
	if tu := s.Tuple(mafia.Misfire); len(tu) != 1 || tu[0].Kind != mafia.Misfire {
		t.Fatalf("incident tuple %+v", tu)
	}
}

func TestOptionsRoundTrip(t *testing.T) {
	for _, o := range []mafia.Options{
		{Players: names(4)},
		{Players: names(18), NoIncidents: true, TieDraw: true},
		{Players: names(9), Specials: []engine.Card{mafia.Madman, mafia.Butterfly}},
		{Players: names(5), Fixed: &mafia.Fixed{Roles: []engine.Card{1 * mafia.Civilian, mafia.Mafioso, 0, 0, 0}, Incidents: mafia.CanonicalIncidents()}},
	} {
		b, err := o.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := mafia.UnmarshalOptions(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalBinary()
		if !bytes.Equal(b, b2) {
			t.Fatalf("%+v: not canonical", o)
		}
	}
}

func TestSummarize(t *testing.T) {
	tab, err := run(t, `game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian incidents=off
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold no
Egor hold no
Anna vote Boris
Boris vote Anna
Clara vote Anna
Dima vote Anna
Egor vote Anna
`)
	if err != nil {
		t.Fatal(err)
	}
	sum, ok := mafia.Game{}.Summarize(tab.State)
	if !ok {
		t.Fatal("no summary")
	}
	j, err := sum.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"over":true,"winners":["Boris","Clara","Dima","Egor"],"side":"civilians","alive":["Boris","Clara","Dima","Egor"],"day":1}`
	if string(j) != want {
		t.Fatalf("summary %s\nwant    %s", j, want)
	}
	var _ games.Rules = mafia.Game{}
}
