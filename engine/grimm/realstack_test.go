package grimm_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/bot"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
)

var realNames = []string{"Anna", "Boris", "Sasha", "Dima", "Fedya"}

// realBotGame plays a whole bot game through the real stack: every seat
// a table.Player with its own keys, every entry signed, encoded, decoded
// and applied by every replica.
func realBotGame(tb testing.TB, o grimm.Options, seed uint64) *local.Table {
	tb.Helper()
	enc, err := o.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	lt, err := local.New(grimm.Game{}, o.Players, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		tb.Fatalf("seating: %v", err)
	}
	bots := make([]games.KnowingBot, len(o.Players))
	for i := range bots {
		b, err := bot.NewBot(lt.View().Rules(), engine.Seat(i), seed)
		if err != nil {
			tb.Fatal(err)
		}
		bots[i] = b.(games.KnowingBot)
	}
	for moves := 0; ; moves++ {
		if moves > 5000 {
			tb.Fatal("the bots did not finish in 5000 moves")
		}
		seat, kind, ok := lt.View().Expect()
		if !ok {
			break
		}
		if kind != table.BodyMove {
			tb.Fatalf("the table waits for seat %d's %s entry, which no seat posts", seat, kind)
		}
		s := lt.View().Rules()
		me := lt.Seats[seat]
		m, bits, ok := bots[seat].ChooseKnowing(s, me.Player.Known(me.Replica))
		if !ok {
			tb.Fatalf("seat %d has no move in %v", seat, s)
		}
		if err := lt.Move(seat, m, bits); err != nil {
			tb.Fatalf("move %d, %s: %v\nstate: %v", moves, grimm.FormatMove(s.(*grimm.State), m), err, s)
		}
		checkHands(tb, lt)
	}
	return lt
}

// checkHands checks that every unmasked seat knows every card of its
// hidden hand (its draws are private and it re-shuffles the hand alone),
// and that no other seat knows any of them.
func checkHands(tb testing.TB, lt *local.Table) {
	tb.Helper()
	st := lt.View().Rules().(*grimm.State)
	for p := range engine.Seat(st.Players()) {
		hand := st.Hand(p)
		for q, seat := range lt.Seats {
			known := seat.Player.Known(seat.Replica)
			for _, sl := range hand {
				_, ok := known[sl]
				if engine.Seat(q) == p && !ok {
					tb.Fatalf("%s does not know slot %d of its own hand", st.Name(p), sl)
				}
				if engine.Seat(q) != p && ok {
					tb.Fatalf("%s knows slot %d of %s's hidden hand", st.Name(engine.Seat(q)), sl, st.Name(p))
				}
			}
		}
	}
}

// statementsPerMove counts the move entries of a transcript by their
// number of statement proofs.
func statementsPerMove(tb testing.TB, lt *local.Table) map[int]int {
	out := map[int]int{}
	for _, e := range lt.Transcript().Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			tb.Fatal(err)
		}
		if b.Kind == table.BodyMove {
			out[len(b.Statements)]++
		}
	}
	return out
}

// TestRealStackBotGames plays seeded bot games of every player count and
// variant through the real stack to the end and the published keys.
func TestRealStackBotGames(t *testing.T) {
	cases := []struct {
		n                       int
		bets, jewels, abilities bool
	}{
		{n: 2}, {n: 3}, {n: 4, jewels: true}, {n: 5, bets: true, jewels: true, abilities: true}, {n: 2, abilities: true, jewels: true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dp-bets=%v-jewels=%v-abilities=%v", c.n, c.bets, c.jewels, c.abilities), func(t *testing.T) {
			if testing.Short() && c.n > 3 {
				t.Skip("short")
			}
			o := grimm.Options{Players: realNames[:c.n], Bets: c.bets, Jewels: c.jewels, Abilities: c.abilities}
			lt := realBotGame(t, o, uint64(c.n)*7)
			st := lt.View().Rules().(*grimm.State)
			if !st.Over() || len(st.Winners()) == 0 {
				t.Fatalf("not over: %v", st)
			}
			t.Logf("%d entries, %v", len(lt.Transcript().Entries), st)
			per := statementsPerMove(t, lt)
			if c.n == 2 && per[2] == 0 {
				t.Errorf("no 2-player move carried two statement proofs: %v", per)
			}
			if per[1] == 0 {
				t.Errorf("no move carried a statement proof: %v", per)
			}
			if lt.View().Phase() != table.PhaseDone {
				t.Fatalf("phase %v, want done (keys published)", lt.View().Phase())
			}
		})
	}
}

// TestRealStackBookScripts plays the rule book's worked examples through
// the real stack: the round lines become fixed rounds in the options.
func TestRealStackBookScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/book-*.txt")
	if err != nil || len(files) < 4 {
		t.Fatalf("book scripts: %v %v", files, err)
	}
	for _, fn := range files {
		t.Run(filepath.Base(fn), func(t *testing.T) {
			src, err := os.ReadFile(fn)
			if err != nil {
				t.Fatal(err)
			}
			lt, err := localplay.Run(grimm.Game{}, src, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			opts, err := table.UnmarshalOptions(lt.Transcript().Roster.Options)
			if err != nil {
				t.Fatal(err)
			}
			if !(grimm.Game{}).FixedDeal(opts.Game) {
				t.Error("a scripted table's roster does not say its deal is fixed")
			}
		})
	}
}

// falseHintScript deals Kristina the Beast; her second Glass Slipper (the
// Beast's curse) forces her to answer: unmask (true) or "I am not the
// Beast" (false).
const falseHintScript = `game grimm players=Kristina,Alexander,Maria
round 1 chars=Beast,Hansel,Cinderella items=GlassSlipper,Crown,Mirror,Clock,Treats,Spindle,Cauldron,GlassSlipper,Disguise,GlassSlipper,Clock,Treats,Crown actions=toast,dance first=Kristina
Kristina pick GlassSlipper
Alexander pick Crown
Maria pick Mirror
Kristina keep
Kristina give Maria
Alexander give Kristina
`

// TestRealStackFalseHint: a seat that must answer cannot lie. Its own
// Player refuses to prove a false hint; a forged entry carrying another
// proof is rejected by every replica, naming the seat.
func TestRealStackFalseHint(t *testing.T) {
	lt, err := localplay.Run(grimm.Game{}, []byte(falseHintScript), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	st := lt.View().Rules().(*grimm.State)
	if seat, char, ok := st.Pending(); !ok || seat != 0 || char != grimm.Beast {
		t.Fatalf("pending %v %v %v, want Kristina about the Beast", seat, char, ok)
	}
	hint := engine.Move{Kind: grimm.KindHint, Args: []int{int(grimm.Beast)}}
	k := lt.Seats[0]
	if _, err := k.Player.MoveBody(k.Replica, hint, nil); !errors.Is(err, table.ErrFalseStatement) {
		t.Fatalf("the player proved a false hint: %v", err)
	}
	// Forge: the false hint carrying a well-formed proof of a true
	// statement made at another table (the only proofs anyone can make
	// are of true statements).
	_, effects, err := st.Play(engine.Move{Seat: 0, Kind: grimm.KindHint, Args: []int{int(grimm.Beast)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(effects) == 0 || effects[0].Kind != engine.EffectProve || !effects[0].Not || effects[0].Slots[0] != 0 {
		t.Fatalf("the hint's effects: %+v", effects)
	}
	forged := &table.Body{Kind: table.BodyMove, Move: hint, Statements: []table.StatementProof{junkNotHeld(t, lt)}}
	e, err := k.Player.Entry(k.Replica, forged)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range lt.Seats {
		err := s.Replica.Apply(e)
		var f *table.Fault
		if !errors.As(err, &f) || f.Seat != 0 || f.Reason != table.ReasonBadStatement {
			t.Fatalf("%s's replica: %v, want a bad-statement fault naming seat 0", s.Name, err)
		}
	}
}

// junkNotHeld returns a well-formed "none of 1 kind" statement proof that
// proves nothing here: Kristina's proof of the same hint at a second
// table where she is Red Riding Hood, so the hint is true there.
func junkNotHeld(t *testing.T, _ *local.Table) table.StatementProof {
	t.Helper()
	src := strings.Replace(falseHintScript, "chars=Beast,", "chars=RedRidingHood,", 1)
	other, err := localplay.Run(grimm.Game{}, []byte(src), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	s := other.Seats[0]
	b, err := s.Player.MoveBody(s.Replica, engine.Move{Kind: grimm.KindHint, Args: []int{int(grimm.Beast)}}, nil)
	if err != nil {
		t.Fatalf("the true hint at the second table: %v", err)
	}
	return b.Statements[0]
}

// BenchmarkRealStack5Players plays a seeded 5-player bot game (three
// rounds) through the real stack in one process, then verifies its
// transcript as masque verify does (table.Replay).
func BenchmarkRealStack5Players(b *testing.B) {
	o := grimm.Options{Players: realNames}
	var entries int
	for i := range b.N {
		lt := realBotGame(b, o, uint64(i)+1)
		tr := lt.Transcript()
		entries += len(tr.Entries)
		if _, err := table.Replay(tr, grimm.Game{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(entries)/float64(b.N), "entries/game")
}

// BenchmarkVerify5Players verifies the transcript of a 5-player bot game.
func BenchmarkVerify5Players(b *testing.B) {
	tr := realBotGame(b, grimm.Options{Players: realNames}, 1).Transcript()
	b.ResetTimer()
	for range b.N {
		if _, err := table.Replay(tr, grimm.Game{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tr.Entries)), "entries")
}
