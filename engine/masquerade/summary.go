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

// Summarize returns the public result of a game of the family, whose
// title is title: the winners, a headline ("Mascarade, over after turn
// 18, 4 coins in the court"), each purse, and the JSON fields coins (by
// name), court and turn.
func Summarize(s Scoreboard, title string) games.Summary {
	court := fmt.Sprintf("%d coins in the court", s.Court())
	switch s.Court() {
	case 0:
		court = "no coins in the court"
	case 1:
		court = "1 coin in the court"
	}
	head := fmt.Sprintf("%s, turn %d, %s", title, s.Turn(), court)
	if s.Over() {
		head = fmt.Sprintf("%s, over after turn %d, %s", title, s.Turn(), court)
	}
	sum := games.Summary{Over: s.Over(), Winners: []string{}, Unit: "coins", Head: head}
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
// are S, titled title: [Summarize] of one of its states, ok=false for
// anything else.
func SummarizeOf[S interface {
	comparable
	Scoreboard
}](s engine.State, title string) (games.Summary, bool) {
	st, ok := games.StateOf[S](s)
	if !ok {
		return games.Summary{}, false
	}
	return Summarize(st, title), true
}
