package grimmview

import (
	"testing"

	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/seatview"
)

// The view says what a screen draws beside a seat's roses: a rose, and
// nothing beside its hint tokens.
func TestGrimmViewSaysIcons(t *testing.T) {
	o := grimm.Options{Players: []string{"Anna", "Boris", "Sasha"}}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := grimm.Game{}.New(enc, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: s, Seat: 0, Names: o.Players})
	if !ok {
		t.Fatal("no view")
	}
	for _, st := range tb.Seats {
		icons := map[string]string{}
		for _, a := range st.Attrs {
			icons[a.Name] = a.Icon
		}
		if icons["roses"] != seatview.IconRose || icons["hint tokens"] != "" {
			t.Errorf("%s's attributes %+v: want a rose on the roses alone", st.Name, st.Attrs)
		}
	}
}
