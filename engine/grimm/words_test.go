package grimm

import (
	"testing"

	"github.com/masque-games/masque/engine"
)

func TestCardWords(t *testing.T) {
	for _, tc := range []struct {
		c           int
		name, the   string
		pluralValue string
	}{
		{int(BigBadWolf), "Big Bad Wolf", "the Big Bad Wolf", ""},
		{int(Cinderella), "Cinderella", "Cinderella", ""},
		{int(GlassSlipper), "Glass Slipper", "the Glass Slipper", "Glass Slippers"},
		{int(Treats), "Treats", "the Treats", "Treats"},
		{int(BetBase + Beast), "bet on the Beast", "the bet on the Beast", ""},
	} {
		c := engine.Card(tc.c)
		if got := DisplayName(c); got != tc.name {
			t.Errorf("DisplayName(%d) = %q, want %q", tc.c, got, tc.name)
		}
		if got := The(c); got != tc.the {
			t.Errorf("The(%d) = %q, want %q", tc.c, got, tc.the)
		}
		if tc.pluralValue != "" && Plural(c) != tc.pluralValue {
			t.Errorf("Plural(%d) = %q, want %q", tc.c, Plural(c), tc.pluralValue)
		}
	}
}
