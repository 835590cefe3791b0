package mascarade2_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

var playerNames = []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg"}

func constraints(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range e.Unwrap() {
				walk(x)
			}
		case *mascarade2.SetError:
			out = append(out, e.Constraint)
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	walk(err)
	slices.Sort(out)
	return out
}

func cards(t *testing.T, s string) []engine.Card {
	t.Helper()
	cs, err := mascarade2.ParseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestDefaultScenarios(t *testing.T) {
	want := []string{}
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		want = append(want, fmt.Sprintf("default-%d", p))
		sc := mascarade2.DefaultScenario(p)
		if sc == nil {
			t.Fatalf("no default scenario for %d players", p)
		}
		if sc.Players != p {
			t.Errorf("default-%d is for %d players", p, sc.Players)
		}
		if err := sc.Check(p); err != nil {
			t.Errorf("default-%d: %v", p, err)
		}
		o := mascarade2.Options{Players: playerNames[:p]}.Normalize()
		if err := o.Validate(); err != nil {
			t.Errorf("%d players: default options refused: %v", p, err)
		}
		if wantCenter := map[bool]int{true: 2, false: 0}[p <= 5]; o.Center() != wantCenter {
			t.Errorf("%d players: %d masks in the middle, want %d", p, o.Center(), wantCenter)
		}
	}
	// In the order people read them (default-4 .. default-12).
	if got := mascarade2.ScenarioNames(); !slices.Equal(got, want) {
		t.Errorf("built-in scenarios %v, want %v", got, want)
	}
	// Every mask is in some default scenario.
	used := map[engine.Card]bool{}
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		for _, c := range mascarade2.DefaultScenario(p).Masks {
			used[c] = true
		}
	}
	for _, info := range mascarade2.Cards() {
		if !used[info.Card] {
			t.Errorf("%s is in no default scenario", info.Name)
		}
	}
}

func TestValidateConstraints(t *testing.T) {
	P := func(n int) []string { return playerNames[:n] }
	tests := []struct {
		name string
		o    mascarade2.Options
		want []string
	}{
		{"ok-custom-4", mascarade2.Options{Players: P(4), Set: cards(t, "Judge,Widow,Empress,Thief,Spy,Sorceress")}, nil},
		{"ok-6-with-middle", mascarade2.Options{Players: P(6), Set: cards(t, "Judge,Widow,Empress,Thief,Spy,Sorceress,King,Beggar")}, nil},
		{"no-judge", mascarade2.Options{Players: P(4), Set: cards(t, "Swindler,King,Empress,Thief,Cheater,Sorceress")}, []string{"judge-required"}},
		{"bank-third", mascarade2.Options{Players: P(4), Set: cards(t, "Judge,Swindler,King,Thief,Cheater,Sorceress")}, []string{"bank-third"}},
		{"one-peasant", mascarade2.Options{Players: P(8), Set: cards(t, "Judge,Empress,King,Widow,Fool,Sorceress,Peasant,Cheater")}, []string{"peasants-pair"}},
		{"peasants-7p", mascarade2.Options{Players: P(7), Set: cards(t, "Judge,Empress,King,Widow,Sorceress,Peasant x2")}, []string{"min-players"}},
		{"guru-7p", mascarade2.Options{Players: P(7), Set: cards(t, "Judge,Empress,King,Widow,Sorceress,Guru,Fool")}, []string{"min-players"}},
		{"puppeteer-5p", mascarade2.Options{Players: P(5), Set: cards(t, "Judge,Empress,King,Widow,Sorceress,Puppeteer,Fool")}, []string{"min-players"}},
		{"princess-4p", mascarade2.Options{Players: P(4), Set: cards(t, "Judge,Empress,King,Princess,Sorceress,Thief")}, []string{"min-players"}},
		{"size-4p", mascarade2.Options{Players: P(4), Set: cards(t, "Judge,Empress,King,Fool,Sorceress")}, []string{"set-size"}},
		{"size-5p-no-middle", mascarade2.Options{Players: P(5), Set: cards(t, "Judge,Empress,King,Fool,Sorceress")}, []string{"set-size"}},
		{"size-9p", mascarade2.Options{Players: P(9), Set: cards(t, "Judge,Empress,King,Widow,Fool,Sorceress,Cheater,Spy")}, []string{"set-size"}},
		{"size-6p-three-middle", mascarade2.Options{Players: P(6), Set: cards(t, "Judge,Empress,King,Widow,Fool,Sorceress,Cheater,Spy,Thief")}, []string{"set-size"}},
		{"duplicate", mascarade2.Options{Players: P(4), Set: cards(t, "Judge,King,King,Empress,Fool,Sorceress")}, []string{"copies"}},
		{"unknown-card", mascarade2.Options{Players: P(4), Set: []engine.Card{mascarade2.Judge, mascarade2.King, mascarade2.Empress, mascarade2.Fool, mascarade2.Thief, 17}}, []string{"unknown-card"}},
		{"coins", mascarade2.Options{Players: P(4), Coins: 13}, []string{"coins"}},
		{"three-players", mascarade2.Options{Players: P(3)}, []string{"no-scenario", "players"}},
		{"thirteen-players", mascarade2.Options{Players: append(P(12), "Zoe")}, []string{"no-scenario", "players"}},
		{"dup-name", mascarade2.Options{Players: []string{"Anna", "anna", "Boris", "Dima"}}, []string{"name"}},
		{"bad-name", mascarade2.Options{Players: []string{"Anna", "Bo ris", "centre1", "none"}}, []string{"name", "name", "name"}},
		{"several", mascarade2.Options{Players: P(4), Set: cards(t, "Swindler,Thief,Cheater,Sorceress,Spy,Peasant")}, []string{"bank-third", "judge-required", "min-players", "peasants-pair"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.o.Normalize().Validate()
			got := constraints(err)
			if !slices.Equal(got, tc.want) {
				t.Errorf("broken constraints %v, want %v (%v)", got, tc.want, err)
			}
		})
	}
}

func TestScenarioFiles(t *testing.T) {
	tests := []struct {
		name, file string
		players    int
		want       []string // broken constraints; nil: valid
		syntax     bool     // a syntax error
	}{
		{"ok", "name: mine\nplayers: 6\nmasks: Judge, Empress, King, Princess, Puppeteer, Swindler\n", 6, nil, false},
		{"ok-any-count", "masks: Judge, Empress, King, Thief, Spy, Swindler, Widow\n", 5, nil, false},
		{"wrong-player-count", "players: 6\nmasks: Judge, Empress, King, Princess, Puppeteer, Swindler\n", 7, []string{"scenario-players", "set-size"}, false},
		{"every-constraint", "players: 5\nmasks: Swindler, Thief, Cheater, Sorceress, Spy, Peasant, Guru, Guru\n", 5,
			[]string{"bank-third", "copies", "judge-required", "min-players", "min-players", "peasants-pair", "set-size"}, false},
		{"unknown-mask", "masks: Judge, Jester\n", 4, nil, true},
		{"unknown-key", "masks: Judge\ncolour: red\n", 4, nil, true},
		{"no-masks", "players: 4\n", 4, nil, true},
		{"bad-count", "masks: Judge, Peasant x\n", 4, nil, true},
		{"players-out-of-range", "players: 13\nmasks: Judge\n", 4, nil, true},
		{"twice", "masks: Judge\nmasks: King\n", 4, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := mascarade2.LoadScenario("my.txt", []byte(tc.file), tc.players)
			var se *mascarade2.ScenarioError
			if tc.syntax {
				if !errors.As(err, &se) {
					t.Fatalf("error %v, want a ScenarioError", err)
				}
				return
			}
			if got := constraints(err); !slices.Equal(got, tc.want) {
				t.Fatalf("broken constraints %v, want %v (%v)", got, tc.want, err)
			}
			if err != nil && !strings.Contains(err.Error(), "scenario ") {
				t.Errorf("error does not name the scenario: %v", err)
			}
			if err == nil && sc.Name != map[bool]string{true: "mine", false: "my"}[tc.name == "ok"] {
				t.Errorf("name %q", sc.Name)
			}
		})
	}
}

func TestScriptHeader(t *testing.T) {
	files := map[string]string{
		"six.txt": "players: 6\nmasks: Judge, Empress, King, Princess, Puppeteer, Swindler\n",
		"bad.txt": "masks: Swindler, Thief, Cheater, Sorceress, Spy, Peasant\n",
	}
	load := func(name string) ([]byte, error) {
		if f, ok := files[name]; ok {
			return []byte(f), nil
		}
		return nil, errors.New("no such file")
	}
	six := "game mascarade2 players=A,B,C,D,E,F "
	tests := []struct {
		header string
		err    string   // substring of the error; "" for success
		want   []string // the set, when it succeeds
	}{
		{six + "scenario=six.txt", "", []string{"Empress", "King", "Judge", "Puppeteer", "Princess", "Swindler"}},
		{six + "scenario=DEFAULT-6", "", []string{"Empress", "King", "Judge", "Puppeteer", "Princess", "Swindler"}},
		{six, "", []string{"Empress", "King", "Judge", "Puppeteer", "Princess", "Swindler"}},
		{six + "set=Judge,Empress,King,Thief,Spy,Widow,Fool", "", []string{"Empress", "Widow", "King", "Thief", "Fool", "Judge", "Spy"}},
		{six + "scenario=default-6 deal=King,Judge,Empress,Swindler,Princess,Puppeteer", "", nil},
		{six + "scenario=default-6 deal=King,Judge,Empress,Swindler,Princess,Thief", "does not use the masks", nil},
		{six + "scenario=default-6 set=Judge,Empress,King,Thief,Spy,Widow", "both given", nil},
		{six + "scenario=bad.txt", "judge-required", nil},
		{six + "scenario=missing.txt", "cannot be read", nil},
		{six + "scenario=default-4", "scenario-players", nil},
		{"game mascarade2 players=A,B,C,D scenario=default-6", "min-players", nil},
		{six + "set=Judge,Empress,King,Thief,Spy", "set-size", nil},
		{"game mascarade players=A,B,C,D", "first line", nil},
		{six + "center=1", "unknown key", nil},
	}
	for _, tc := range tests {
		sc, err := mascarade2.ParseScript([]byte(tc.header+"\n"), load)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.header, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.header, err, tc.err)
		case err == nil && tc.want != nil:
			if got := mascarade2.FormatCards(sc.Options.Normalize().Set); got != strings.Join(tc.want, ",") {
				t.Errorf("%q: set %s", tc.header, got)
			}
		}
	}
}

// randomOptions returns valid options for p players: the default scenario
// or a random valid set, and random coins.
func randomOptions(r *rand.Rand, p int) mascarade2.Options {
	o := mascarade2.Options{Players: playerNames[:p], Coins: 1 + r.IntN(8)}
	if r.IntN(3) == 0 {
		o.Coins = mascarade2.DefaultCoins
	}
	if r.IntN(2) == 0 {
		return o
	}
	o.Set = randomSet(r, p)
	return o
}

// randomSet draws random sets until one satisfies the book's constraints.
func randomSet(r *rand.Rand, players int) []engine.Card {
	lo, hi := mascarade2.SetSizes(players)
	var box []engine.Card
	for _, c := range mascarade2.Cards() {
		for range c.Copies {
			box = append(box, c.Card)
		}
	}
	for {
		n := lo + r.IntN(hi-lo+1)
		r.Shuffle(len(box), func(i, j int) { box[i], box[j] = box[j], box[i] })
		set := slices.Clone(box[:n])
		if mascarade2.CheckSet(set, players) == nil {
			return set
		}
	}
}

func TestOptionsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		for range 20 {
			o := randomOptions(r, p)
			b, err := o.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := mascarade2.UnmarshalOptions(b)
			if err != nil {
				t.Fatalf("%x: %v", b, err)
			}
			b2, _ := back.MarshalBinary()
			if !bytes.Equal(b, b2) {
				t.Fatalf("round trip changed the encoding")
			}
			if n := o.Normalize(); !slices.Equal(n.Set, back.Set) || n.Coins != back.Coins || !slices.Equal(n.Players, back.Players) {
				t.Fatalf("round trip changed the options: %+v -> %+v", n, back)
			}
			if _, err := mascarade2.UnmarshalOptions(append(b, 0)); err == nil {
				t.Fatal("trailing byte accepted")
			}
			if _, err := mascarade2.UnmarshalOptions(b[:len(b)-1]); err == nil {
				t.Fatal("truncated encoding accepted")
			}
		}
	}
	o := mascarade2.Options{Players: playerNames[:4]}
	b, _ := o.MarshalBinary()
	n := len(b)
	b[n-1], b[n-2] = b[n-2], b[n-1]
	if _, err := mascarade2.UnmarshalOptions(b); err == nil {
		t.Error("unsorted set accepted")
	}
	if _, err := (mascarade2.Options{Players: playerNames[:3]}).MarshalBinary(); err == nil {
		t.Error("three players encoded")
	}
	// Game binding.
	g := mascarade2.Game{}
	if g.Name() != "mascarade2" || g.Kinds() != 17 {
		t.Errorf("game %s, %d kinds", g.Name(), g.Kinds())
	}
	enc, _ := mascarade2.Options{Players: playerNames[:5]}.MarshalBinary()
	deck, err := g.Deck(enc)
	if err != nil || len(deck) != 7 {
		t.Fatalf("deck %v %v", deck, err)
	}
	if _, err := g.New(enc, deck); err != nil {
		t.Fatal(err)
	}
	if _, err := g.New(enc, deck[1:]); err == nil {
		t.Error("short deal accepted")
	}
}

func TestParseCard(t *testing.T) {
	for _, info := range mascarade2.Cards() {
		c, err := mascarade2.ParseCard(info.Name)
		if err != nil || c != info.Card || mascarade2.CardName(c) != info.Name {
			t.Errorf("%s: %v %v", info.Name, c, err)
		}
	}
	if c, err := mascarade2.ParseCard("pUpPeTeEr"); err != nil || c != mascarade2.Puppeteer {
		t.Errorf("case-insensitive parse: %v %v", c, err)
	}
	if cs, err := mascarade2.ParseCards("Judge, Peasant x2"); err != nil || len(cs) != 3 {
		t.Errorf("counted list: %v %v", cs, err)
	}
	bank, total := 0, 0
	for _, info := range mascarade2.Cards() {
		total += info.Copies
		if info.Bank {
			bank += info.Copies
		}
	}
	if len(mascarade2.Cards()) != 16 || total != 17 || bank != 8 {
		t.Errorf("catalogue: %d kinds, %d cards, %d bank cards", len(mascarade2.Cards()), total, bank)
	}
}

// TestTextRoundTrip formats every legal move of random states and parses
// it back.
func TestTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for p := mascarade2.MinPlayers; p <= mascarade2.MaxPlayers; p++ {
		opts := randomOptions(r, p)
		deal := opts.Normalize().Set
		r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		tab, err := mascarade2test.New(opts, deal)
		if err != nil {
			t.Fatal(err)
		}
		scripttest.TextRoundTrip(t, r, tab, 300, true)
	}
}

// Built-in scenarios are listed as people read them: default-4 ..
// default-12, not default-10 before default-4.
func TestScenarioNamesOrder(t *testing.T) {
	got := mascarade2.ScenarioNames()
	var want []string
	for n := 4; n <= 12; n++ {
		want = append(want, fmt.Sprintf("default-%d", n))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ScenarioNames() = %v, want %v", got, want)
	}
}
