package grimm_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

func TestGameBinding(t *testing.T) {
	var g grimm.Game
	if g.Name() != "grimm" || g.Kinds() != grimm.NumKinds {
		t.Fatalf("name %q kinds %d", g.Name(), g.Kinds())
	}
	for _, bets := range []bool{false, true} {
		opts, err := grimm.Options{Players: []string{"A", "B", "C"}, Bets: bets}.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		deck, err := g.Deck(opts)
		if err != nil {
			t.Fatal(err)
		}
		want := 56
		if bets {
			want = 64
		}
		if len(deck) != want || deck[0] != grimm.EvilQueen || deck[8] != grimm.Treats || deck[55] != grimm.Spindle {
			t.Fatalf("deck %v", deck)
		}
		st, err := g.New(opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.New(opts, deck); err != nil {
			t.Errorf("the canonical deck as a deal: %v", err)
		}
		if _, err := g.New(opts, slices.Repeat([]engine.Card{1}, want)); err == nil {
			t.Error("a face-up deal was accepted")
		}
		op, ok := st.(engine.Opening)
		if !ok {
			t.Fatal("no Opening")
		}
		eff := op.Opening()
		var kinds []engine.EffectKind
		for _, e := range eff {
			kinds = append(kinds, e.Kind)
		}
		wantKinds := []engine.EffectKind{engine.EffectShuffle, engine.EffectShuffle}
		if bets {
			wantKinds = append(wantKinds, engine.EffectShuffle)
		}
		wantKinds = append(wantKinds, engine.EffectPeek, engine.EffectPeek, engine.EffectPeek, engine.EffectCoin)
		if !slices.Equal(kinds, wantKinds) {
			t.Errorf("opening %v, want %v", kinds, wantKinds)
		}
		if st.Next().Kind != engine.NeedFacts {
			t.Errorf("before the coin the rules need %v", st.Next())
		}
	}
	if _, err := g.Deck([]byte{9}); err == nil {
		t.Error("bad options accepted")
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []grimm.Options{
		{Players: []string{"A"}},
		{Players: []string{"A", "B", "C", "D", "E", "F"}},
		{Players: []string{"A", "a"}},
		{Players: []string{"A", "B c"}},
		{Players: []string{"A", "B"}, Bets: true},
	}
	for _, o := range bad {
		if _, err := grimm.NewGame(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func TestFactsAndTurnErrors(t *testing.T) {
	s, err := grimm.NewGame(grimm.Options{Players: []string{"A", "B", "C"}})
	if err != nil {
		t.Fatal(err)
	}
	rule := func(err error) string {
		var re *engine.RuleError
		if errors.As(err, &re) {
			return re.Rule
		}
		return "?"
	}
	if _, _, err := s.Apply(engine.Move{Seat: 0, Kind: grimm.KindPick, Args: []int{int(grimm.Crown)}}); rule(err) != grimm.RuleWaitingFacts {
		t.Errorf("a move before the coin: %v", err)
	}
	if _, _, err := s.Learn([]engine.Fact{{Slot: 8, Card: grimm.Crown}}); rule(err) != grimm.RuleBadFacts {
		t.Errorf("a reveal instead of the coin: %v", err)
	}
	ns, eff, err := s.Learn([]engine.Fact{{Slot: -1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(eff) != 1 || eff[0].Kind != engine.EffectReveal || !slices.Equal(eff[0].Slots, []engine.Slot{8, 9, 10, 11, 12}) {
		t.Fatalf("after the coin: %+v", eff)
	}
	facts := []engine.Fact{{Slot: 8, Card: grimm.Crown}, {Slot: 9, Card: grimm.Crown}, {Slot: 10, Card: grimm.Mirror}, {Slot: 11, Card: grimm.Clock}, {Slot: 12}}
	if _, _, err := ns.Learn(facts); rule(err) != grimm.RuleBadFacts {
		t.Errorf("a fact that is no item: %v", err)
	}
	facts[4].Card = grimm.Beast
	if _, _, err := ns.Learn(facts); rule(err) != grimm.RuleBadFacts {
		t.Errorf("a character in an item slot: %v", err)
	}
	facts[4] = engine.Fact{Slot: 13, Card: grimm.Crown}
	if _, _, err := ns.Learn(facts); rule(err) != grimm.RuleBadFacts {
		t.Errorf("a fact for the wrong slot: %v", err)
	}
	if _, _, err := ns.Learn(facts[:4]); rule(err) != grimm.RuleBadFacts {
		t.Errorf("too few facts: %v", err)
	}
	facts[4] = engine.Fact{Slot: 12, Card: grimm.Crown}
	row, _, err := ns.Learn(facts)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := row.Learn(facts); rule(err) != grimm.RuleNoFactsWanted {
		t.Errorf("facts when a move is due: %v", err)
	}
	first := row.Next().Seat
	for _, m := range []engine.Move{
		{Seat: first, Kind: 0},
		{Seat: first, Kind: 200},
		{Seat: first, Kind: grimm.KindPick},
		{Seat: first, Kind: grimm.KindPick, Args: []int{int(grimm.Spindle)}},
		{Seat: (first + 1) % 3, Kind: grimm.KindPick, Args: []int{int(grimm.Crown)}},
	} {
		if _, _, err := row.Apply(m); err == nil {
			t.Errorf("%+v accepted", m)
		}
	}
}

// The state encoding is deterministic and tells states apart.
func TestEncoding(t *testing.T) {
	tab := mustRun(t, round1("GlassSlipper,Crown,Clock,Spindle,Spindle,GlassSlipper,Clock,Treats", "toast,dance")+`
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Clock
Kristina keep
`)
	a, err := tab.State.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tab.State.AppendBinary([]byte{0xff})
	if !bytes.Equal(a, b[1:]) {
		t.Fatal("AppendBinary is not deterministic or ignores its prefix")
	}
	seen := map[string]string{string(a): "before the hint"}
	for _, line := range []string{"Kristina hint Beast", "Kristina give Maria"} {
		if err := tab.Play(mustParse(t, tab, line)); err != nil {
			t.Fatal(err)
		}
		enc, _ := tab.State.AppendBinary(nil)
		if prev, dup := seen[string(enc)]; dup {
			t.Fatalf("after %q the encoding equals the one %s", line, prev)
		}
		seen[string(enc)] = "after " + line
	}
}

func mustParse(t *testing.T, tab *grimmtest.Table, line string) engine.Move {
	t.Helper()
	f := bytes.Fields([]byte(line))
	p, err := tab.State.SeatByName(string(f[0]))
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for _, x := range f[1:] {
		tokens = append(tokens, string(x))
	}
	m, err := grimm.ParseMove(tab.State, p, tokens)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseScriptErrors(t *testing.T) {
	bad := []string{
		"",
		"game mascarade players=A,B",
		"game grimm",
		"game grimm players=A",
		"game grimm players=A,B variants=bets",
		"game grimm players=A,B,C variants=wands",
		"game grimm players=A,B,C foo=1",
		"game grimm players=A,B,C\nround 4",
		"game grimm players=A,B,C\nround 1 chars=Beast",
		"game grimm players=A,B,C\nround 1 chars=Beast,Beast,Hansel",
		"game grimm players=A,B,C\nround 1 items=Crown,Crown,Crown,Crown,Crown,Crown,Crown",
		"game grimm players=A,B,C\nround 1 actions=toast",
		"game grimm players=A,B,C\nround 1 actions=toast,toast",
		"game grimm players=A,B,C\nround 1 actions=maskoff,toast",
		"game grimm players=A,B,C\nround 1 first=Z",
		"game grimm players=A,B,C\nround 1\nround 1",
		"game grimm players=A,B,C\nZ pick Crown",
		"game grimm players=A,B,C\nA",
	}
	for _, src := range bad {
		if _, err := grimm.ParseScript([]byte(src)); err == nil {
			t.Errorf("%q accepted", src)
		}
	}
}

// A round's end reveals the characters still hidden; a fact that repeats a
// known character is refused.
func TestRoundEndReveal(t *testing.T) {
	tab := mustRun(t, round1("Treats,Crown,Clock,Spindle,Spindle,Treats,Cauldron,Clock", "toast,dance")+`
Kristina pick Crown
Alexander pick Treats
Maria pick Clock
Kristina give Alexander
Alexander unmask
Alexander give Maria Clock
expect next=Maria
`)
	s := tab.State
	if s.Step() != "respond" {
		t.Errorf("step %q", s.Step())
	}
	ns, eff, err := s.Play(engine.Move{Seat: 2, Kind: grimm.KindUnmask, Args: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if ns.Step() != "reveal" || len(eff) != 3 || eff[2].Kind != engine.EffectReveal || !slices.Equal(eff[2].Slots, []engine.Slot{0}) {
		t.Fatalf("step %q, effects %+v", ns.Step(), eff)
	}
	if _, _, err := ns.Learn([]engine.Fact{{Slot: 0, Card: grimm.Hansel}}); err == nil {
		t.Error("Hansel revealed twice")
	}
	next, eff, err := ns.Know([]engine.Fact{{Slot: 0, Card: grimm.RedRidingHood}})
	if err != nil {
		t.Fatal(err)
	}
	if next.Round() != 2 || next.Step() != "coin" || eff[0].Kind != engine.EffectSet {
		t.Errorf("round %d step %q effects %+v", next.Round(), next.Step(), eff)
	}
	res := next.Results()
	if len(res) != 1 || res[0].Winner != 0 || res[0].ByTalismans || !slices.Equal(res[0].Chars, []engine.Card{grimm.RedRidingHood, grimm.Hansel, grimm.Cinderella}) {
		t.Errorf("results %+v", res)
	}
}
