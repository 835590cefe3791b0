package mafia_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
)

// realGame plays a whole bot game through the real stack: every seat a
// table.Player with its own keys, every entry signed, encoded, decoded
// and applied by every replica, every night's ballots and checks proven.
func realGame(tb testing.TB, o mafia.Options, seed uint64) *local.Table {
	tb.Helper()
	enc, err := o.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}, o.Players, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatalf("seating: %v", err)
	}
	bots := make([]*bot.Player, len(o.Players))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(*bot.Player)
	}
	var know []*mafia.Knowledge
	for steps := 0; ; steps++ {
		if steps > 5000 {
			tb.Fatal("the bots did not finish in 5000 steps")
		}
		seat, kind, ok := lt.View().Expect()
		if !ok {
			break
		}
		st := lt.View().Rules().(*mafia.State)
		me := lt.Seats[seat]
		bots[seat].Learn(mafia.KnowledgeOf(st, me.Player, me.Replica))
		know = append(know[:0], nil)
		for _, s := range lt.Seats {
			know = append(know, mafia.KnowledgeOf(st, s.Player, s.Replica))
		}
		switch kind {
		case table.BodyMove:
			m, _, ok := bots[seat].Choose(st)
			if !ok {
				tb.Fatalf("seat %d has no move", seat)
			}
			if err := lt.Move(seat, m, nil); err != nil {
				tb.Fatalf("step %d, seat %d's move %s: %v", steps, seat, mafia.FormatMove(st, m), err)
			}
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				choices[d.Power] = bots[seat].NightChoice(st, d.Power, d.Targets)
			}
			if err := lt.Actions(seat, choices); err != nil {
				tb.Fatalf("step %d, seat %d's night actions %v: %v", steps, seat, choices, err)
			}
		default:
			tb.Fatalf("the table waits for seat %d's %s entry, which no seat posts", seat, kind)
		}
	}
	checkKnowledge(tb, lt, know[1:])
	return lt
}

// checkKnowledge checks what each seat knew just before the last entry
// against the roles the end of the game reveals: its own role; mates
// recognised exactly among the mafia (the Madman once he joined); true
// answers to the Commissar's checks.
func checkKnowledge(tb testing.TB, lt *local.Table, know []*mafia.Knowledge) {
	tb.Helper()
	st := lt.View().Rules().(*mafia.State)
	role := make([]engine.Card, len(lt.Seats))
	for p := range role {
		r, ok := st.Revealed(engine.Seat(p))
		if !ok {
			tb.Fatalf("seat %d's role is not revealed at the end", p)
		}
		role[p] = r
	}
	checks := 0
	for p, k := range know {
		if k.Role != role[p] {
			tb.Fatalf("seat %d knew its role as %s, the end reveals %s", p, mafia.CardName(k.Role), mafia.CardName(role[p]))
		}
		mafiaNow := func(r engine.Card) bool { return r == mafia.Don || r == mafia.Mafioso || (r == mafia.Madman && st.Joined()) }
		for _, q := range k.Mates {
			if !mafiaNow(role[p]) || !mafiaNow(role[q]) {
				tb.Fatalf("seat %d (%s) recognised seat %d (%s) as a mate", p, mafia.CardName(role[p]), q, mafia.CardName(role[q]))
			}
		}
		if role[p] == mafia.Don || role[p] == mafia.Mafioso {
			for q, r := range role {
				if q != p && (r == mafia.Don || r == mafia.Mafioso) && !slices.Contains(k.Mates, engine.Seat(q)) {
					tb.Fatalf("seat %d (%s) did not recognise seat %d (%s)", p, mafia.CardName(role[p]), q, mafia.CardName(r))
				}
			}
		}
		for q, isMafia := range k.Checks {
			checks++
			if role[p] != mafia.Commissar {
				tb.Fatalf("seat %d (%s) has check results", p, mafia.CardName(role[p]))
			}
			if want := role[q] == mafia.Don || role[q] == mafia.Mafioso; isMafia != want && role[q] != mafia.Madman {
				tb.Fatalf("the Commissar's check of seat %d (%s) answered mafia=%v", q, mafia.CardName(role[q]), isMafia)
			}
		}
	}
	tb.Logf("%d check results verified", checks)
}

func TestRealStackGame(t *testing.T) {
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{4, 1}, {7, 2}, {9, 3}, {12, 4}} {
		t.Run(fmt.Sprintf("%d-players", tc.n), func(t *testing.T) {
			realStackGame(t, names(tc.n), tc.seed)
		})
	}
}

func realStackGame(t *testing.T, names []string, seed uint64) {
	lt := realGame(t, mafia.Options{Players: names}, seed)
	st := lt.View().Rules().(*mafia.State)
	sum, ok := mafia.Game{}.Summarize(st)
	if !ok || !sum.Over {
		t.Fatalf("the game is not over: %+v", sum)
	}
	t.Logf("%d entries; %+v", len(lt.Transcript().Entries), sum)
	rt, err := table.Replay(lt.Transcript(), mafia.Game{})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rt.StateHash() != lt.View().StateHash() {
		t.Fatal("replay reaches another table")
	}
}
