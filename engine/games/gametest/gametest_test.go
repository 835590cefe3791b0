package gametest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/mascarade"
	mbot "github.com/masque-games/masque/engine/mascarade/bot"
)

// The suite fails a game that breaks the contract: each case below is a
// real game with one promise broken, and the suite must say so.

// recorder is a testing.TB that records failures; Fatal stops the
// checked function (recovered by failures).
type recorder struct {
	testing.TB
	msgs []string
}

type stop struct{}

func (r *recorder) Helper()                   {}
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Errorf(f string, a ...any) { r.msgs = append(r.msgs, fmt.Sprintf(f, a...)) }
func (r *recorder) Error(a ...any)            { r.msgs = append(r.msgs, fmt.Sprint(a...)) }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); panic(stop{}) }
func (r *recorder) Fatal(a ...any)            { r.Error(a...); panic(stop{}) }

// failures runs check with a recorder and returns what it reported.
func failures(check func(tb testing.TB)) (msgs []string) {
	r := &recorder{}
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(stop); !ok {
				panic(x)
			}
		}
		msgs = r.msgs
	}()
	check(r)
	return r.msgs
}

func base() games.Game { return games.WithBot(mascarade.Game{}, mbot.NewBot) }

// wider says it takes one player more than its options accept.
type wider struct{ games.Game }

func (g wider) Players() (int, int) { lo, hi := g.Game.Players(); return lo, hi + 1 }

// neverOver never says the game is over.
type neverOver struct{ games.Game }

func (g neverOver) Summarize(s engine.State) (games.Summary, bool) {
	sum, ok := g.Game.Summarize(s)
	sum.Over = false
	return sum, ok
}

// badBot's bots name a seat that is not at the table.
type badBot struct{ games.Game }

func (g badBot) NewBot(s engine.State, seat engine.Seat, seed uint64) (games.Bot, error) {
	b, err := g.Game.NewBot(s, seat, seed)
	return offTable{b}, err
}

type offTable struct{ games.Bot }

func (b offTable) Choose(s engine.State) (engine.Move, []bool, bool) {
	m, bits, ok := b.Bot.Choose(s)
	for i := range m.Args {
		m.Args[i] = 99
	}
	if len(m.Args) == 0 {
		m.Kind = 250
	}
	return m, bits, ok
}

func TestSuiteFailsBrokenGames(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(tb testing.TB)
		want  string
	}{
		{"the real game passes", func(tb testing.TB) {
			gametest.Setup(tb, games.WithAbout(base(), games.About{Summary: "s", Hides: "h"}))
			tr := gametest.Playout(tb, base(), 3, 1, 0)
			gametest.Bodies(tb, base(), tr, 1, 8, 4)
		}, ""},
		{"undescribed", func(tb testing.TB) { gametest.Setup(tb, games.WithAbout(base(), games.About{})) }, "does not describe itself"},
		{"a player count it does not take", func(tb testing.TB) {
			gametest.Setup(tb, wider{games.WithAbout(base(), games.About{Summary: "s", Hides: "h"})})
		}, "14 players, default setup"},
		{"never over", func(tb testing.TB) { gametest.Playout(tb, neverOver{base()}, 3, 1, 0) }, "want over"},
		{"a bot off the table", func(tb testing.TB) { gametest.Playout(tb, badBot{base()}, 3, 1, 0) }, "'s move"},
		{"no end", func(tb testing.TB) { gametest.Playout(tb, base(), 3, 1, 3) }, "did not end in 3 steps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := failures(c.check)
			if c.want == "" {
				if len(got) > 0 {
					t.Fatalf("the suite fails the real game: %q", got)
				}
				return
			}
			if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
				t.Fatalf("the suite reported %q, want a failure saying %q", got, c.want)
			}
		})
	}
}
