package table_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// A roster every seat signed whose game options name other players than
// its seats (another name, another order, another count) is refused: the
// game would be played among players the roster does not seat.
func TestRosterSeatsTheOptionsPlayers(t *testing.T) {
	seats := []string{"Anna", "Boris", "Clara", "Dmitri"}
	for _, c := range []struct {
		name    string
		players []string
		want    string
	}{
		{"the same players", seats, ""},
		{"another name", []string{"Anna", "Boris", "Clara", "Egor"}, `seat 3 is "Dmitri" in the roster but "Egor"`},
		{"another order", []string{"Boris", "Anna", "Clara", "Dmitri"}, `seat 0 is "Anna" in the roster but "Boris"`},
		{"fewer players", []string{"Anna", "Boris", "Clara"}, "name 3 players, the roster seats 4"},
		{"more players", []string{"Anna", "Boris", "Clara", "Dmitri", "Egor"}, "name 5 players, the roster seats 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := mascarade.Options{Players: c.players}.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			keys := tabletest.SeatKeys("seated", seats)
			r, _, err := tabletest.Roster(mascarade.Game{}, tabletest.TableID("seated"), keys, table.Options{Game: g})
			if err != nil {
				t.Fatal(err)
			}
			_, err = table.New(r, mascarade.Game{})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}
