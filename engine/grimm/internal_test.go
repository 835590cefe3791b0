package grimm

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
)

func newState(t *testing.T, players int) *State {
	t.Helper()
	s, err := NewGame(Options{Players: []string{"A", "B", "C", "D", "E"}[:players]})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestBestSeats(t *testing.T) {
	tests := []struct {
		name           string
		roses, rewards []int
		want           []engine.Seat
	}{
		{"most roses", []int{3, 5, 1}, []int{0, 0, 0}, []engine.Seat{1}},
		{"rewards count as roses", []int{3, 5, 1}, []int{3, 0, 0}, []engine.Seat{0}},
		{"tie broken by rewards", []int{5, 2, 4}, []int{0, 3, 1}, []engine.Seat{1}},
		{"tie shared", []int{2, 2, 2}, []int{1, 1, 1}, []engine.Seat{0, 1, 2}},
		{"rewards decide, two share", []int{1, 3, 1}, []int{3, 1, 3}, []engine.Seat{0, 2}},
		{"rewards decide among the tied only", []int{2, 4, 4}, []int{3, 1, 1}, []engine.Seat{0}},
		{"two share", []int{1, 4, 1, 4}, []int{0, 1, 0, 1}, []engine.Seat{1, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newState(t, len(tc.roses))
			for p := range tc.roses {
				s.roses[p], s.rewards[p] = tc.roses[p], tc.rewards[p]
			}
			if got := s.bestSeats(); !slices.Equal(got, tc.want) {
				t.Errorf("winners %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFirstPlayer(t *testing.T) {
	tests := []struct {
		name  string
		roses []int
		want  []engine.Seat // the possible first players
	}{
		{"fewest", []int{3, 1, 2, 5}, []engine.Seat{1}},
		{"tie: closest clockwise after the most", []int{0, 4, 0, 2}, []engine.Seat{2}},
		{"tie wraps around", []int{0, 2, 5, 0}, []engine.Seat{3}},
		{"everyone level: drawn", []int{2, 2, 2}, []engine.Seat{0, 1, 2}},
		{"equidistant from two leaders: drawn", []int{0, 3, 0, 3}, []engine.Seat{0, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[engine.Seat]bool{}
			for i := range 64 {
				s := newState(t, len(tc.roses))
				s.round = 2
				copy(s.roses[:], tc.roses)
				got := s.firstPlayer(NewStream([32]byte{byte(i)}, "round"))
				if !slices.Contains(tc.want, got) {
					t.Fatalf("first player %d, want one of %v", got, tc.want)
				}
				seen[got] = true
			}
			if len(seen) != len(tc.want) {
				t.Errorf("over 64 coins the first player was %v, want every one of %v", seen, tc.want)
			}
		})
	}
}

func TestTenRosesEndTheGame(t *testing.T) {
	tests := []struct {
		name   string
		round  int
		roses  []int
		winner engine.Seat
		over   bool
		wins   []engine.Seat
	}{
		{"reward reaches ten", 1, []int{9, 0, 0}, 0, true, []engine.Seat{0}},
		{"tie on ten broken by rewards", 1, []int{0, 10, 9}, 2, true, []engine.Seat{2}},
		{"ten shared", 1, []int{10, 10, 0}, 2, true, []engine.Seat{0, 1}},
		{"nine goes on", 2, []int{6, 0, 0}, 1, false, nil},
		{"round three ends", 3, []int{0, 1, 0}, 0, true, []engine.Seat{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newState(t, len(tc.roses))
			s.round = tc.round
			s.actions = [2]Action{Toast, Dance}
			copy(s.roses[:], tc.roses)
			s.roundWin = tc.winner
			eff := s.finishRound()
			if s.Over() != tc.over {
				t.Fatalf("over = %v, want %v (%v)", s.Over(), tc.over, s)
			}
			if tc.over {
				if len(eff) != 0 || s.Next().Kind != engine.NeedNothing {
					t.Errorf("effects %v, need %v after the end", eff, s.Next())
				}
				if !slices.Equal(s.Winners(), tc.wins) {
					t.Errorf("winners %v, want %v", s.Winners(), tc.wins)
				}
				return
			}
			if s.Round() != tc.round+1 || s.Next().Kind != engine.NeedFacts || eff[len(eff)-1].Kind != engine.EffectCoin {
				t.Errorf("no new round: %v, %v", s, eff)
			}
		})
	}
}

// A replacement charms table changes what two and three of a kind mean,
// without touching the code.
func TestReplacementCharms(t *testing.T) {
	// Shift every boon and bane by one character.
	src := `
EvilQueen       Mirror       GlassSlipper
Beast           GlassSlipper Clock
Cinderella      Clock        Spindle
SleepingBeauty  Spindle      Crown
Rumpelstiltskin Crown        Treats
RedRidingHood   Disguise     Cauldron
BigBadWolf      Cauldron     Mirror
Hansel          Treats       Disguise
`
	c, err := ParseCharms([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c == DefaultCharms() {
		t.Fatal("the replacement equals the default")
	}
	s, err := NewGame(Options{Players: []string{"A", "B", "C"}, Charms: c})
	if err != nil {
		t.Fatal(err)
	}
	// Round-trip through the options encoding: the table travels with
	// the game.
	b, err := s.Options().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	o, err := UnmarshalOptions(b)
	if err != nil || o.Charms != c {
		t.Fatalf("charms lost in the options encoding: %v", err)
	}
	// Give seat 1 two Crowns and then a third: with this table the Crown
	// is Sleeping Beauty's bane and Rumpelstiltskin's boon.
	crowns := []engine.Slot{}
	for i := range NumItems {
		if len(crowns) < 3 {
			s.card[i] = Crown
			s.where[i] = inDeck
			crowns = append(crowns, ItemSlot0+engine.Slot(i))
		}
	}
	s.actor = 0
	s.transfer([]pass{{Slot: crowns[0], From: -1, To: 1}, {Slot: crowns[1], From: -1, To: 1}}, 0)
	s.transfer([]pass{{Slot: crowns[2], From: -1, To: 1}}, 0)
	want := []response{
		{Seat: 1, Kind: respBane, Char: SleepingBeauty, Causer: 0},
		{Seat: 1, Kind: respBoon, Char: Rumpelstiltskin, Causer: 0},
	}
	if !slices.Equal(s.pending, want) {
		t.Errorf("pending %+v, want %+v", s.pending, want)
	}
}

func TestParseCharmsErrors(t *testing.T) {
	def := DefaultCharms().String()
	tests := map[string]string{
		"missing character": "EvilQueen Crown Mirror\n",
		"twice":             def + "EvilQueen Crown Mirror\n",
		"not an item":       "EvilQueen Beast Mirror\n",
		"three fields":      "EvilQueen Crown\n",
		"boon is bane":      "EvilQueen Crown Crown\n",
		"item twice a boon": "EvilQueen Crown Mirror\nBeast Crown GlassSlipper\nCinderella GlassSlipper Clock\nSleepingBeauty Clock Spindle\nRumpelstiltskin Spindle Treats\nRedRidingHood Treats Disguise\nBigBadWolf Disguise Cauldron\nHansel Cauldron Crown\n",
	}
	for name, src := range tests {
		if _, err := ParseCharms([]byte(src)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	c, err := ParseCharms([]byte(def))
	if err != nil || c != DefaultCharms() {
		t.Errorf("the default table does not round-trip through String: %v", err)
	}
	d := DefaultCharms()
	if d.Boon[EvilQueen] != Crown || d.Boon[Beast] != Mirror || d.Bane[Beast] != GlassSlipper {
		t.Errorf("the confirmed pairs are wrong: %v", d)
	}
}

// Power over time: six different items in front of its masked holder end
// the round at once, won by the holder; unmasked, it does nothing.
func TestPowerOverTime(t *testing.T) {
	for _, masked := range []bool{true, false} {
		s, err := NewGame(Options{Players: []string{"A", "B", "C"}, Abilities: true})
		if err != nil {
			t.Fatal(err)
		}
		s.ability[1] = SleepingBeauty
		if !masked {
			s.unmasked[1] = true
		}
		for k, it := range Items()[:6] {
			i := k * ItemCopies
			s.card[i] = it
			if k < 5 {
				s.where[i], s.owner[i] = inFront, 1
			}
		}
		s.actor = 0
		s.transfer([]pass{{Slot: ItemSlot0 + 5*ItemCopies, From: -1, To: 1}}, 0)
		if s.roundDone != masked || (masked && s.roundWin != 1) {
			t.Errorf("masked=%v: round done %v, winner %d", masked, s.roundDone, s.roundWin)
		}
	}
}
