package masquerade

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Scoreboard is the public state every edition's State exposes.
type Scoreboard interface {
	Over() bool
	Winners() []engine.Seat
	Coins(engine.Seat) int
	Court() int
	Turn() int
	Name(engine.Seat) string
	Players() int
}

// Summarize returns the public result of a game of the family: the
// winners, "turn T, court C", each purse, and the JSON fields coins (by
// name), court and turn.
func Summarize(s Scoreboard) games.Summary {
	sum := games.Summary{Over: s.Over(), Winners: []string{}, Unit: "coins",
		Head: fmt.Sprintf("turn %d, court %d", s.Turn(), s.Court())}
	for _, w := range s.Winners() {
		sum.Winners = append(sum.Winners, s.Name(w))
	}
	coins := map[string]int{}
	for i := range s.Players() {
		p := engine.Seat(i)
		coins[s.Name(p)] = s.Coins(p)
		sum.Scores = append(sum.Scores, games.Score{Name: s.Name(p), Value: s.Coins(p)})
	}
	sum.Fields = []games.Field{{Key: "coins", Value: coins}, {Key: "court", Value: s.Court()}, {Key: "turn", Value: s.Turn()}}
	return sum
}

// SummarizeOf is a [games.Rules.Summarize] for the edition whose states
// are S: [Summarize] of one of its states, ok=false for anything else.
func SummarizeOf[S interface {
	comparable
	Scoreboard
}](s engine.State) (games.Summary, bool) {
	st, ok := games.StateOf[S](s)
	if !ok {
		return games.Summary{}, false
	}
	return Summarize(st), true
}
