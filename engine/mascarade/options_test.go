package mascarade_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

func constraints(err error) []string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var se *mascarade.SetError
		if errors.As(err, &se) {
			out = append(out, se.Constraint)
		}
	}
	walk(err)
	slices.Sort(out)
	return out
}

func TestRecommendedSetsValid(t *testing.T) {
	for p := 2; p <= 13; p++ {
		o := mascarade.Options{Players: playerNames[:p]}.Normalize()
		if err := o.Validate(); err != nil {
			t.Errorf("%d players: recommended set refused: %v", p, err)
		}
		if len(o.Set) != o.Cards() {
			t.Errorf("%d players: %d cards, want %d", p, len(o.Set), o.Cards())
		}
	}
	// 6 players with one centre card take the 7-player set; with two, the
	// 8-player set has Peasants, which need 8 players.
	if err := (mascarade.Options{Players: playerNames[:6], Center: 1}).Normalize().Validate(); err != nil {
		t.Errorf("6 players + 1: %v", err)
	}
	err := (mascarade.Options{Players: playerNames[:6], Center: 2}).Normalize().Validate()
	if got := constraints(err); !slices.Equal(got, []string{"min-players"}) {
		t.Errorf("6 players + 2: %v", got)
	}
}

func TestValidateConstraints(t *testing.T) {
	P := func(n int) []string { return playerNames[:n] }
	C := func(s string) []engine.Card {
		cs, err := mascarade.ParseCards(s)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	tests := []struct {
		name string
		o    mascarade.Options
		want []string
	}{
		{"ok-custom-4", mascarade.Options{Players: P(4), Set: C("Judge,Widow,Queen,Thief,Spy,Witch")}, nil},
		{"no-judge", mascarade.Options{Players: P(4), Set: C("Bishop,King,Queen,Thief,Cheat,Witch")}, []string{"judge-required"}},
		{"bank-third", mascarade.Options{Players: P(4), Set: C("Judge,Bishop,King,Thief,Cheat,Witch")}, []string{"bank-third"}},
		{"one-peasant", mascarade.Options{Players: P(8), Set: C("Judge,Bishop,King,Queen,Fool,Witch,Peasant,Cheat")}, []string{"peasants-pair"}},
		{"peasants-7p", mascarade.Options{Players: P(7), Set: C("Judge,Bishop,King,Queen,Witch,Peasant,Peasant")}, []string{"min-players"}},
		{"inquisitor-7p", mascarade.Options{Players: P(7), Set: C("Judge,Bishop,King,Queen,Witch,Inquisitor,Fool")}, []string{"min-players"}},
		{"size-4p", mascarade.Options{Players: P(4), Set: C("Judge,Bishop,King,Queen,Fool,Witch,Cheat")}, []string{"set-size"}},
		{"size-9p", mascarade.Options{Players: P(9), Set: C("Judge,Bishop,King,Queen,Fool,Witch,Cheat,Widow")}, []string{"set-size"}},
		{"duplicate", mascarade.Options{Players: P(4), Set: C("Judge,King,King,Queen,Fool,Witch")}, []string{"copies"}},
		{"center-4p", mascarade.Options{Players: P(4), Center: 1}, []string{"center", "set-size"}},
		{"center-3p", mascarade.Options{Players: P(3), Center: 1}, []string{"center"}},
		{"center-6p", mascarade.Options{Players: P(6), Center: 3, Set: C("Judge,Bishop,King,Queen,Fool,Witch,Cheat,Widow,Spy")}, []string{"center"}},
		{"coins", mascarade.Options{Players: P(4), Coins: 13}, []string{"coins"}},
		{"one-player", mascarade.Options{Players: P(1), Set: C("Judge")}, []string{"bank-third", "players"}},
		{"dup-name", mascarade.Options{Players: []string{"Anna", "anna", "Boris", "Dima"}}, []string{"name"}},
		{"bad-name", mascarade.Options{Players: []string{"Anna", "Bo ris", "centre1", "Dima"}}, []string{"name", "name"}},
		{"several", mascarade.Options{Players: P(4), Set: C("Bishop,Thief,Cheat,Witch,Spy,Peasant")}, []string{"bank-third", "judge-required", "min-players", "peasants-pair"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := constraints(tc.o.Normalize().Validate())
			if !slices.Equal(got, tc.want) {
				t.Errorf("broken constraints %v, want %v (%v)", got, tc.want, tc.o.Normalize().Validate())
			}
		})
	}
}

func TestOptionsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for p := 2; p <= 13; p++ {
		for range 20 {
			o := randomOptions(r, p)
			b, err := o.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			back, err := mascarade.UnmarshalOptions(b)
			if err != nil {
				t.Fatalf("%x: %v", b, err)
			}
			b2, _ := back.MarshalBinary()
			if !bytes.Equal(b, b2) {
				t.Fatalf("round trip changed the encoding")
			}
			if _, err := mascarade.UnmarshalOptions(append(b, 0)); err == nil {
				t.Fatal("trailing byte accepted")
			}
			if _, err := mascarade.UnmarshalOptions(b[:len(b)-1]); err == nil {
				t.Fatal("truncated encoding accepted")
			}
		}
	}
	// A set out of order is not canonical.
	o := mascarade.Options{Players: playerNames[:4]}
	b, _ := o.MarshalBinary()
	n := len(b)
	b[n-1], b[n-2] = b[n-2], b[n-1]
	if _, err := mascarade.UnmarshalOptions(b); err == nil {
		t.Error("unsorted set accepted")
	}
	// Invalid options do not encode.
	if _, err := (mascarade.Options{Players: playerNames[:1]}).MarshalBinary(); err == nil {
		t.Error("one player encoded")
	}
}

func TestParseCard(t *testing.T) {
	for _, info := range mascarade.Cards() {
		c, err := mascarade.ParseCard(info.Name)
		if err != nil || c != info.Card || mascarade.CardName(c) != info.Name {
			t.Errorf("%s: %v %v", info.Name, c, err)
		}
	}
	if c, err := mascarade.ParseCard("iNqUiSiToR"); err != nil || c != mascarade.Inquisitor {
		t.Errorf("case-insensitive parse: %v %v", c, err)
	}
	if _, err := mascarade.ParseCard("Jester"); err == nil {
		t.Error("unknown character parsed")
	}
	bank := 0
	for _, info := range mascarade.Cards() {
		if info.Bank {
			bank += info.Copies
		}
	}
	if len(mascarade.Cards()) != 12 || bank != 6 {
		t.Errorf("catalogue: %d kinds, %d bank cards", len(mascarade.Cards()), bank)
	}
}

// TestTextRoundTrip formats every legal move of random states and parses
// it back.
func TestTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for p := 2; p <= 13; p++ {
		opts := randomOptions(r, p)
		deal := opts.Normalize().Set
		tab, err := mascaradetest.New(opts, deal)
		if err != nil {
			t.Fatal(err)
		}
		scripttest.TextRoundTrip(t, r, tab, 200, false)
	}
}
