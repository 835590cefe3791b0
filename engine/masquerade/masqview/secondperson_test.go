package masqview

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// The deal, the keys published at the end and a seat's pass are told in
// words and the second person to the seat the narration speaks to (the
// play screen: "your card is the Widow, centre card 1 is the Bishop";
// "you published your card key", never "You published their card key";
// "passed: you, Dima"), in the script's terms and the third person to an
// audit (replay).
func TestSecondPersonNarration(t *testing.T) {
	src := "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=1\n" +
		"Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim Widow\nBoris challenge\n"
	lt, err := localplay.Run(mascarade.Game{}, []byte(src), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	for _, tc := range []struct {
		you       int // -1: nobody
		want, not []string
	}{
		{-1, []string{"Anna published their card key", "Boris published their card key", "turn 5  passed: Sasha, Dima",
			"dealt face up: Anna Queen, Boris Widow, Sasha Judge, Dima King, centre1 Bishop, centre2 Thief"}, []string{"you published your card key"}},
		{1, []string{"Anna published their card key", "you published your card key",
			"dealt face up: Anna's card is the Queen, your card is the Widow, Sasha's card is the Judge, Dima's card is the King, centre card 1 is the Bishop, centre card 2 is the Thief"},
			[]string{"Boris published their card key"}},
		{2, []string{"turn 5  passed: you, Dima", "you published your card key"}, []string{"turn 5  passed: Sasha, Dima"}},
	} {
		tab, err := table.New(tr.Roster, mascarade.Game{})
		if err != nil {
			t.Fatal(err)
		}
		f := First().Follower()
		if tc.you >= 0 {
			f.SpeakTo(engine.Seat(tc.you))
		}
		f.Start(tab)
		for _, e := range tr.Entries {
			if err := tab.Apply(e); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Follow(tab, e); err != nil {
				t.Fatal(err)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(f.Lines, w) {
				t.Errorf("speaking to %d: no line %q in %q", tc.you, w, f.Lines)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(f.Lines, n) {
				t.Errorf("speaking to %d: a line %q", tc.you, n)
			}
		}
	}
}
