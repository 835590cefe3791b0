package main

// Mafia vectors for the paths the bot games of vectors_mafia_test.go do
// not reach (issue 24, item 18): a leave, with play going on after it; the
// Butterfly's date eliminated; a draw round after the Commissar's
// elimination. The bots play as in mafiaBotPlay, except where a steer
// overrides one of their choices: every override is a legal move or
// ballot, so the games are honest.

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	mafiabot "github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/table"
)

// mafiaSteer overrides some of the bots' choices in a steered game. roles
// holds every seat's role (the test plays every seat, so it knows them).
type mafiaSteer struct {
	// move, if not nil, may replace the bot's move m of seat in st.
	move func(st *mafia.State, roles []engine.Card, seat engine.Seat, m engine.Move) engine.Move
	// night, if not nil, may replace the bot's choice target for power.
	night func(st *mafia.State, roles []engine.Card, seat engine.Seat, power uint8, target engine.Seat) engine.Seat
	// stop, if not nil, ends the game early (an unfinished transcript)
	// when it holds before a move or actions entry is due.
	stop func(st *mafia.State) bool
	// record, if not nil, is told every night choice a bot makes (seat,
	// power, target: the bot's own, before night overrides it) with the
	// rules state then.
	record func(st engine.State, seat engine.Seat, power uint8, target engine.Seat)
}

// mafiaSteeredGame plays a bot game of Mafia (bot seed seed) through the
// real stack, keys published, with crypto/rand reset to file's stream
// first, with the steer's overrides: every night's choices come from the
// bots (games.NightBot) unless steered, the other seats' actions are
// posted empty.
func mafiaSteeredGame(t *testing.T, file string, o mafia.Options, seed uint64, steer mafiaSteer) *local.Table {
	t.Helper()
	lt := vectorTable(t, file, mafia.Game{}, o.Players, o)
	bots := make([]*mafiabot.Player, len(o.Players))
	for i := range bots {
		b, err := mafiabot.NewBot(lt.View().Rules(), engine.Seat(i), seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b.(*mafiabot.Player)
	}
	roles := func() []engine.Card {
		out := make([]engine.Card, len(bots))
		for i, b := range bots {
			b.See(lt.Seats[i].Player, lt.Seats[i].Replica)
			out[i] = b.Know.Role
		}
		return out
	}
	for range 5000 {
		seat, kind, ok := lt.View().Expect()
		if !ok {
			return lt
		}
		st := lt.View().Rules().(*mafia.State)
		if steer.stop != nil && (kind == table.BodyMove || kind == table.BodyActions) && steer.stop(st) {
			return lt
		}
		me := lt.Seats[seat]
		bots[seat].See(me.Player, me.Replica)
		switch kind {
		case table.BodyMove:
			m, _, ok := bots[seat].Choose(st)
			if !ok {
				t.Fatalf("seat %d has no move", seat)
			}
			if steer.move != nil {
				m = steer.move(st, roles(), seat, m)
			}
			if err := lt.Move(seat, m, nil); err != nil {
				t.Fatal(err)
			}
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			for _, d := range me.Player.Decisions(me.Replica) {
				c := bots[seat].Decide(st, d)
				if steer.record != nil {
					steer.record(st, seat, d.Power, c)
				}
				if steer.night != nil {
					c = steer.night(st, roles(), seat, d.Power, c)
				}
				choices[d.Power] = c
			}
			if err := lt.Actions(seat, choices); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("the table waits for seat %d's %s entry", seat, kind)
		}
	}
	t.Fatal("the bots did not finish")
	return nil
}

// seatOf returns the first seat whose role is r that is still living in
// st, or -1.
func seatOf(st *mafia.State, roles []engine.Card, r engine.Card) engine.Seat {
	for p, k := range roles {
		if k == r && st.Alive(engine.Seat(p)) {
			return engine.Seat(p)
		}
	}
	return -1
}

// The steered Mafia vectors' files.
const (
	mafiaLeaveDateFile = "honest-mafia-6-leave-date.masque"
	mafiaDrawFile      = "honest-mafia-6-draw.masque"
	mafiaAttacksFile   = "honest-mafia-12-attacks.masque"
	mafiaOneVoteFile   = "honest-mafia-9-one-vote.masque"
	mafiaPluralityFile = "honest-mafia-12-plurality.masque"
)

// mafiaPluralityGame: 12 players, the Commissar, the Don and the Madman
// the only specials (two Mafiosi, seven Civilians), no incident cards,
// dealt by the options' fixed deal (the Don at seat 0, the Madman at seat
// 1, the Mafiosi at seats 2 and 3, the Commissar at seat 11). On the
// first day's question the Don leaves (his role revealed, his card key
// posted): the Madman joins (the join's views and tag round), and the
// kill has three holders, the two Mafiosi and the joined Madman. Nobody
// else asks for a vote; on night 2 the Mafiosi name seats 5 and 6 and
// the Madman seat 5: a plurality kill (docs/protocol.md §5, §12.5 item 6;
// mental SPEC §9.9) whose only opened value is the pick, seat 5. The
// transcript stops when the day vote of day 2 is due.
func mafiaPluralityGame(t *testing.T) *local.Table {
	civ := mafia.Civilian
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya", "Igor", "Katya", "Lena", "Misha", "Nina"},
		Specials: []engine.Card{mafia.Commissar, mafia.Don, mafia.Madman}, NoIncidents: true,
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Don, mafia.Madman, mafia.Mafioso, mafia.Mafioso, civ, civ, civ, civ, civ, civ, civ, mafia.Commissar}}}
	left := false
	return mafiaSteeredGame(t, mafiaPluralityFile, o, 27, mafiaSteer{
		move: func(st *mafia.State, roles []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			if st.Phase() != mafia.PhaseHold {
				return m
			}
			if !left && roles[seat] == mafia.Don {
				left = true
				return engine.Move{Seat: seat, Kind: mafia.MoveLeave}
			}
			return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
		},
		night: func(st *mafia.State, roles []engine.Card, seat engine.Seat, power uint8, target engine.Seat) engine.Seat {
			if st.Day() == 2 && power == mafia.PowerKill {
				if seat == 3 {
					return 6
				}
				return 5
			}
			return target
		},
		stop: func(st *mafia.State) bool { return st.Day() == 2 && st.Phase() == mafia.PhaseVote },
	})
}

// mafiaOneVoteGame: 9 players, the Madman the only special (two Mafiosi,
// no Don, six Civilians), no incident cards, dealt by the options' fixed
// deal (the Madman at seat 0, the Mafiosi at seats 1 and 2); nobody asks
// for a vote on the first day; on night 2 the Mafiosi name seats 4 and 5
// and the Madman seat 7. The kill is a one-vote kill (docs/protocol.md
// §5, §12.5 item 6; mental SPEC §9.8): every living seat shuffles the
// kill ballots' code sums, blinded identity tests open them in the
// shuffled order until the first vote, and the pick adds the Madman's
// code sum: one value names the two attacked seats, not whose attack is
// whose. The transcript stops when the day vote of day 2 is due.
func mafiaOneVoteGame(t *testing.T) *local.Table {
	civ := mafia.Civilian
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya", "Igor", "Katya"},
		Specials: []engine.Card{mafia.Madman}, NoIncidents: true,
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Madman, mafia.Mafioso, mafia.Mafioso, civ, civ, civ, civ, civ, civ}}}
	return mafiaSteeredGame(t, mafiaOneVoteFile, o, 27, mafiaSteer{
		move: func(st *mafia.State, _ []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			if st.Phase() == mafia.PhaseHold {
				return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
			}
			return m
		},
		night: func(st *mafia.State, _ []engine.Card, seat engine.Seat, power uint8, target engine.Seat) engine.Seat {
			switch {
			case st.Day() == 2 && power == mafia.PowerKill:
				return 3 + seat
			case st.Day() == 2 && power == mafia.PowerMadman:
				return 7
			}
			return target
		},
		stop: func(st *mafia.State) bool { return st.Day() == 2 && st.Phase() == mafia.PhaseVote },
	})
}

// mafiaAttacksGame: 12 players, the Commissar, the Don and the Madman the
// only specials (two Mafiosi, seven Civilians: the book's table allows at
// most seven plain civilians for 12 players), no incident cards, dealt by
// the options' fixed deal (the Don at seat 0, the Madman at seat 1, the
// Commissar at seat 11); nobody asks for a
// vote on the first day; on night 2 the Don attacks seat 5 and the Madman
// seat 8, and both attacks open as one tally of the two powers' ballots
// added (docs/protocol.md §12.5 item 6): counts 1 at seats 5 and 8, which
// do not say whose attack is whose. The transcript stops when the day
// vote of day 2 is due.
func mafiaAttacksGame(t *testing.T) *local.Table {
	civ := mafia.Civilian
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya", "Galya", "Igor", "Katya", "Lena", "Misha", "Nina"},
		Specials: []engine.Card{mafia.Commissar, mafia.Don, mafia.Madman}, NoIncidents: true,
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Don, mafia.Madman, mafia.Mafioso, mafia.Mafioso, civ, civ, civ, civ, civ, civ, civ, mafia.Commissar}}}
	return mafiaSteeredGame(t, mafiaAttacksFile, o, 27, mafiaSteer{
		move: func(st *mafia.State, _ []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			if st.Phase() == mafia.PhaseHold {
				return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
			}
			return m
		},
		night: func(st *mafia.State, roles []engine.Card, seat engine.Seat, power uint8, target engine.Seat) engine.Seat {
			switch {
			case st.Day() == 2 && power == mafia.PowerKill && roles[seat] == mafia.Don:
				return 5
			case st.Day() == 2 && power == mafia.PowerMadman:
				return 8
			}
			return target
		},
		stop: func(st *mafia.State) bool { return st.Day() == 2 && st.Phase() == mafia.PhaseVote },
	})
}

// mafiaLeaveDateGame: 6 players, the Night Butterfly the only special, no
// incident cards. On the first day's question the first Mafioso leaves
// (eliminated at once; the question goes on, every other seat answering
// no, so night 2 follows); on night 2 the other
// Mafioso kills the Butterfly, whose date (her own choice) is then
// eliminated too.
func mafiaLeaveDateGame(t *testing.T) *local.Table {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"},
		Specials: []engine.Card{mafia.Butterfly}, NoIncidents: true}
	left := false
	return mafiaSteeredGame(t, mafiaLeaveDateFile, o, 24, mafiaSteer{
		move: func(st *mafia.State, roles []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			if st.Phase() != mafia.PhaseHold {
				return m
			}
			if !left && roles[seat] == mafia.Mafioso {
				left = true
				return engine.Move{Seat: seat, Kind: mafia.MoveLeave}
			}
			// Nobody asks for a vote: night 2 follows the question.
			return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
		},
		night: func(st *mafia.State, roles []engine.Card, _ engine.Seat, power uint8, target engine.Seat) engine.Seat {
			if power == mafia.PowerKill && st.Day() == 2 {
				if b := seatOf(st, roles, mafia.Butterfly); b >= 0 {
					return b
				}
			}
			return target
		},
	})
}

// mafiaDrawGame: 6 players, the Commissar the only special, with incident
// cards, dealt by the options' fixed deal (no shuffles: a smaller file;
// the Mafiosi at seats 1 and 4, the Commissar at seat 2, the incident deck
// in canonical order). Nobody asks for a vote on the first day; on night
// 2 the mafia kill the Commissar, who answers with a pass: his
// elimination brings a draw round (every living seat with fewer than
// three cards draws one; the pile is not stale, so no shuffle). The
// transcript stops when the day vote that follows is due: an unfinished
// game, keys not published.
func mafiaDrawGame(t *testing.T) *local.Table {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"},
		Specials: []engine.Card{mafia.Commissar},
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Civilian, mafia.Mafioso, mafia.Commissar, mafia.Civilian, mafia.Mafioso, mafia.Civilian},
			Incidents: mafia.CanonicalIncidents()}}
	drawn := false
	return mafiaSteeredGame(t, mafiaDrawFile, o, 26, mafiaSteer{
		move: func(st *mafia.State, roles []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			switch {
			case st.Phase() == mafia.PhaseHold:
				return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
			case st.Phase() == mafia.PhaseNightAnswer && roles[seat] == mafia.Commissar && st.Day() == 2:
				return engine.Move{Seat: seat, Kind: mafia.MovePass}
			}
			return m
		},
		night: func(st *mafia.State, roles []engine.Card, _ engine.Seat, power uint8, target engine.Seat) engine.Seat {
			if power == mafia.PowerKill && st.Day() == 2 {
				if c := seatOf(st, roles, mafia.Commissar); c >= 0 {
					return c
				}
			}
			return target
		},
		stop: func(st *mafia.State) bool {
			if !drawn && st.Day() == 2 && !st.Alive(commissarSeat(st)) {
				drawn = true
			}
			return drawn && st.Phase() == mafia.PhaseVote
		},
	})
}

// commissarSeat is the seat revealed as the Commissar in st, or -1.
func commissarSeat(st *mafia.State) engine.Seat {
	for p := range st.Players() {
		if r, ok := st.Revealed(engine.Seat(p)); ok && r == mafia.Commissar {
			return engine.Seat(p)
		}
	}
	return -1
}

// TestMafiaPathVectorsReachTheirPaths checks that the steered games do
// what their vectors say: a leave followed by more moves, the Butterfly's
// date eliminated, a draw round after the Commissar's elimination.
func TestMafiaPathVectorsReachTheirPaths(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games through the real stack")
	}
	for _, c := range []struct {
		file string
		game func(*testing.T) *local.Table
		want func(t *testing.T, events []string)
	}{
		{mafiaLeaveDateFile, mafiaLeaveDateGame, func(t *testing.T, ev []string) {
			leave := slices.Index(ev, "leave")
			if leave < 0 || leave == len(ev)-1 || !slices.Contains(ev[leave+1:], "move") {
				t.Errorf("no move after a leave: %v", ev)
			}
			if !slices.Contains(ev, "date-eliminated") {
				t.Errorf("the Butterfly's date is not eliminated: %v", ev)
			}
		}},
		{mafiaAnswerDateFile, mafiaAnswerDateGame, func(t *testing.T, ev []string) {
			// Two card answers, then the date the answerers' ballots
			// opened is eliminated.
			if !slices.Contains(ev, "date-eliminated") || slices.Index(ev, "date-tallied") < 2 {
				t.Errorf("the date is not eliminated after the answers: %v", ev)
			}
		}},
		{mafiaDrawFile, mafiaDrawGame, func(t *testing.T, ev []string) {
			if !slices.Contains(ev, "draw") {
				t.Errorf("no draw round: %v", ev)
			}
		}},
	} {
		t.Run(c.file, func(t *testing.T) { c.want(t, mafiaEvents(t, c.game(t))) })
	}
	// The control: the unsteered 6-player game (no incident cards, no
	// leave, no Butterfly) shows none of these events.
	t.Run(mafiaHonest6, func(t *testing.T) {
		ev := mafiaEvents(t, mafiaVectorGame6(t))
		for _, e := range []string{"leave", "date-eliminated", "draw"} {
			if slices.Contains(ev, e) {
				t.Errorf("the unsteered game shows %q: %v", e, ev)
			}
		}
		if !slices.Contains(ev, "move") {
			t.Errorf("no move at all: %v", ev)
		}
	})
}

// mafiaEvents replays lt's transcript and lists what happened: "leave"
// and "move" for moves, "date-eliminated" when the seat the date tally
// named is eliminated, "draw" when a seat's hand grows after the opening.
func mafiaEvents(t *testing.T, lt *local.Table) []string {
	t.Helper()
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	var ev []string
	opened := false
	for k, e := range tr.Entries {
		before := rt.Rules().(*mafia.State)
		b, err := table.UnmarshalBody(e.Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if b.Kind == table.BodyMove {
			opened = true
			if b.Move.Kind == mafia.MoveLeave {
				ev = append(ev, "leave")
			} else {
				ev = append(ev, "move")
			}
		}
		waitDate := before.Phase() == mafia.WaitDate
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
		after := rt.Rules().(*mafia.State)
		if waitDate && after.Phase() != mafia.WaitDate {
			ev = append(ev, "date-tallied")
		}
		if slices.Contains(ev, "date-tallied") && !slices.Contains(ev, "date-eliminated") {
			for p := range after.Players() {
				if before.Alive(engine.Seat(p)) && !after.Alive(engine.Seat(p)) && before.Phase() == mafia.WaitReveal {
					if r, _ := after.Revealed(engine.Seat(p)); r != mafia.Butterfly {
						ev = append(ev, "date-eliminated")
					}
				}
			}
		}
		for p := range after.Players() {
			if opened && len(after.Hand(engine.Seat(p))) > len(before.Hand(engine.Seat(p))) && !slices.Contains(ev, "draw") {
				ev = append(ev, "draw")
			}
		}
	}
	return ev
}

// mafiaPathVectorSpecs are the steered games' vectors.
func mafiaPathVectorSpecs() []vectorSpec {
	const g = mafia.GameName
	return []vectorSpec{
		{
			want: vectorCase{File: mafiaLeaveDateFile, Game: g, Valid: true, Complete: true, DealSource: dealShuffle, KeysPublished: true,
				Description: "Mafia: 6 players, the Night Butterfly the only special (two Mafiosi), no incident cards, bots (seed 24) steered " +
					"to legal choices: on the first day's question the first Mafioso leaves (move 5: its role revealed, its card key " +
					"posted as a retirement, then the question goes on with the others answering no; docs/protocol.md §12.8); on night 2 " +
					"the other Mafioso kills the Butterfly, and the date she chose is eliminated after her (the Butterfly's date, §12.5); " +
					"the game then plays on to its end; keys published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaLeaveDateGame(t).Transcript()) },
		},
		{
			want: vectorCase{File: mafiaDrawFile, Game: g, Valid: true, DealSource: dealFixed,
				Description: "Mafia: 6 players, the Commissar the only special, with incident cards, dealt by the options' fixed deal " +
					"(docs/protocol.md §2.2.3: roles and incident deck face up in the given order, no shuffle; Mafiosi at seats 1 and 4, " +
					"the Commissar at seat 2), bots (seed 26) steered to legal choices: nobody asks for a vote on the first day; on night 2 " +
					"the mafia kill the Commissar, who passes (a night answer); his elimination brings a draw round " +
					"(docs/protocol.md §12.6: each living seat with fewer than three cards draws the pile's top, one batch of views). " +
					"The transcript stops when the next day vote is due: unfinished, keys not published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaDrawGame(t).Transcript()) },
		},
		{
			want: vectorCase{File: mafiaAttacksFile, Game: g, Valid: true, DealSource: dealFixed,
				Description: "Mafia: 12 players, the Commissar, the Don and the Madman the only specials, no incident cards, dealt by the options' fixed " +
					"deal (the Don at seat 0, the Madman at seat 1, Mafiosi at seats 2 and 3, the Commissar at seat 11), bots (seed 27) steered to legal choices: " +
					"nobody asks for a vote on the first day; on night 2 the Don attacks seat 5 and the Madman seat 8, and the two attacks " +
					"open as one tally of power 1 adding power 2 (docs/protocol.md §5, §12.5 item 6; mental SPEC.md §3.8): counts 1 at " +
					"seats 5 and 8, 0 elsewhere, not saying whose attack is whose; both die. The transcript stops when the day vote of " +
					"day 2 is due: unfinished, keys not published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaAttacksGame(t).Transcript()) },
		},
		{
			want: vectorCase{File: mafiaOneVoteFile, Game: g, Valid: true, DealSource: dealFixed,
				Description: "Mafia: 9 players, the Madman the only special (two Mafiosi, no Don), no incident cards, dealt by the options' fixed " +
					"deal (the Madman at seat 0, Mafiosi at seats 1 and 2), bots (seed 27) steered to legal choices: nobody asks for a vote " +
					"on the first day; on night 2 the Mafiosi name seats 4 and 5 and the Madman seat 7. Two kill holders: the kill is a " +
					"one-vote kill (docs/protocol.md §5, §12.5 item 6; mental SPEC.md §9.8): every living seat shuffles the kill ballots' " +
					"code sums (mix bodies of width-1 cards, kind 9), blinded identity tests (blind bodies, kind 10, every seat's step in " +
					"seat order) open them in the shuffled order only as \"a vote or not\" until the first vote, and the pick adds the " +
					"Madman's code sum: one opened value names the two attacked seats, not whose attack is whose, and nothing says whether " +
					"the mafiosi agreed. The transcript stops when the day vote of day 2 is due: unfinished, keys not published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaOneVoteGame(t).Transcript()) },
		},
		{
			want: vectorCase{File: mafiaPluralityFile, Game: g, Valid: true, DealSource: dealFixed,
				Description: "Mafia: 12 players, the Commissar, the Don and the Madman the only specials (two Mafiosi), no incident cards, " +
					"dealt by the options' fixed deal (the Don at seat 0, the Madman at seat 1, Mafiosi at seats 2 and 3, the Commissar at " +
					"seat 11), bots (seed 27) steered to legal choices: on the first day's question the Don leaves (move 5, a retirement), " +
					"so the Madman joins (the join's views of component 4 and a tag round) and the kill has three holders; nobody asks for " +
					"a vote; on night 2 the Mafiosi name seats 5 and 6 and the joined Madman seat 5. Three kill holders and no Don: a " +
					"plurality kill (docs/protocol.md §5, §12.5 item 6; mental SPEC.md §9.9): every living seat posts a count lookup " +
					"(lookup bodies, kind 11), shuffles the (code sum, count) cards (mix bodies of width-2 cards, kind 9), every seat tests " +
					"every shuffled code sum (blind bodies of 11 steps, kind 10), every living seat shuffles the kill table of the three " +
					"votes (5 rows) and every seat tests every row's key (blind bodies of 5 steps); the true row's payload is the pick: it " +
					"opens seat 5 alone, and nothing says how the three votes split. The transcript stops when the day vote of day 2 is " +
					"due: unfinished, keys not published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaPluralityGame(t).Transcript()) },
		},
	}
}

// mafiaAnswerDateFile is the vector of the date opened after card answers
// (issue 27, L3).
const mafiaAnswerDateFile = "honest-mafia-6-answer-date.masque"

// mafiaAnswerDateGame: 6 players, the Night Butterfly the only special
// (two Mafiosi, no Don), with incident cards, dealt by the options' fixed
// deal (the Butterfly at seat 0, the Mafiosi at seats 1 and 4; the
// incident deck in canonical order: seats 0..3 hold a Misfire, seats 4
// and 5 a Ricochet left). Nobody asks for a vote on the first day. Night
// 2: the Butterfly dates seat 3; the mafia attack seat 5, who answers
// with the Ricochet, moving the attack to seat 0, the Butterfly, who
// answers with her Misfire. Then the date ballots of the two seats that
// answered with a card (hers one-hot, seat 5's empty) open, added, at
// the living seats: 1 at seat 3, who passes (a date answer) and is
// eliminated. The transcript stops when the day vote of day 2 is due.
func mafiaAnswerDateGame(t *testing.T) *local.Table {
	civ := mafia.Civilian
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor", "Fedya"},
		Specials: []engine.Card{mafia.Butterfly},
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Butterfly, mafia.Mafioso, civ, civ, mafia.Mafioso, civ},
			Incidents: mafia.CanonicalIncidents()}}
	return mafiaSteeredGame(t, mafiaAnswerDateFile, o, 27, mafiaSteer{
		move: func(st *mafia.State, roles []engine.Card, seat engine.Seat, m engine.Move) engine.Move {
			switch st.Phase() {
			case mafia.PhaseHold:
				return engine.Move{Seat: seat, Kind: mafia.MoveHold, Args: []int{0}}
			case mafia.PhaseNightAnswer:
				card := mafia.Misfire
				if seat == 5 {
					card = mafia.RicochetLeft
				}
				return engine.Move{Seat: seat, Kind: mafia.MoveCard, Args: []int{int(card), int(st.Hand(seat)[0]), 0}}
			case mafia.PhaseDateAnswer:
				return engine.Move{Seat: seat, Kind: mafia.MovePass}
			}
			return m
		},
		night: func(st *mafia.State, _ []engine.Card, _ engine.Seat, power uint8, target engine.Seat) engine.Seat {
			switch power {
			case mafia.PowerKill:
				return 5
			case mafia.PowerDate:
				return 3
			}
			return target
		},
		stop: func(st *mafia.State) bool { return st.Day() == 2 && st.Phase() == mafia.PhaseVote },
	})
}

// mafiaAnswerTally finds the first shares entry of lt's transcript for a
// tally of the date ballots of the seats that answered with a card (the
// rules wait in WaitDate for a tally by Voters): its position, and seat
// 0's forged body for it: as many shares, each proven with seat 0's key
// at that position, but of other ciphertexts (the night's shuffled kill
// code sums, SPEC §9.8).
func mafiaAnswerTally(t *testing.T, lt *local.Table) (int, *table.Body) {
	t.Helper()
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		st := rt.Rules().(*mafia.State)
		if r := rt.Pending(); r != nil && r.Kind == engine.EffectTally && b.Kind == table.BodyShares &&
			st.Phase() == mafia.WaitDate && len(r.Parts) == 1 && len(r.Parts[0].Voters) > 0 {
			if int(e.Seat) != 0 {
				t.Fatalf("entry %d: the answerers' tally's first share is by seat %d", k, e.Seat)
			}
			codes := rt.Mix(mafia.PowerKill)
			if len(codes) < len(r.Cards) {
				t.Fatalf("entry %d: %d code sums for %d shares", k, len(codes), len(r.Cards))
			}
			forged := &table.Body{Kind: table.BodyShares}
			for i := range r.Cards {
				sh, err := lt.Seats[0].Player.CardKey().Share(rt.ShareContext(uint64(k), 0), codes[i])
				if err != nil {
					t.Fatal(err)
				}
				forged.Shares = append(forged.Shares, sh)
			}
			return k, forged
		}
		if err := rt.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", k, err)
		}
	}
	t.Fatal("no tally of the answerers' date ballots")
	return 0, nil
}

// mafiaAnswerVectorSpecs are the vectors of the answerers' date tally.
func mafiaAnswerVectorSpecs() []vectorSpec {
	const g = mafia.GameName
	return []vectorSpec{
		{
			want: vectorCase{File: mafiaAnswerDateFile, Game: g, Valid: true, DealSource: dealFixed,
				Description: "Mafia: 6 players, the Night Butterfly the only special (the Butterfly at seat 0, two Mafiosi at seats 1 and 4), " +
					"with incident cards, dealt by the options' fixed deal (the incident deck in canonical order: seats 0..3 hold a Misfire, " +
					"seats 4 and 5 a Ricochet left), bots (seed 27) steered to legal choices. Night 2: the Butterfly dates seat 3; the mafia " +
					"attack seat 5, who answers with the Ricochet (the attack moves to seat 0, whose protection tally opens), and the " +
					"Butterfly answers with her Misfire; neither move claims anything (the third argument is 0). After the night the date " +
					"ballots of the seats that answered with a card (seat 0's one-hot, seat 5's proven empty) are added and opened at the " +
					"living seats (docs/protocol.md §5, §12.5 \"the Butterfly's date\"; mental SPEC.md §9.7): 1 at seat 3, without saying " +
					"which answer was hers; seat 3 passes (a date answer) and is eliminated. The transcript stops when the day vote of " +
					"day 2 is due: unfinished, keys not published."},
			build: func(t *testing.T) ([]byte, int) { return encodeTranscript(t, mafiaAnswerDateGame(t).Transcript()) },
		},
		{
			want: vectorCase{File: "tampered-mafia-answer-tally.masque", Game: g, Exit: exitFault, DealSource: dealFixed,
				Description: "the honest game of honest-mafia-6-answer-date up to night 2's tally of the answerers' date ballots; seat 0's " +
					"shares entry for it holds its shares of the night's shuffled kill code sums (as many shares, each proven with its key " +
					"at that position, but for other ciphertexts): a verifier that opens the answerers' sum refuses it.",
				Fault: &vectorFault{Position: 80, Seat: 0, Reason: table.ReasonBadShare}},
			build: func(t *testing.T) ([]byte, int) {
				lt := mafiaAnswerDateGame(t)
				k, forged := mafiaAnswerTally(t, lt)
				if k != 80 {
					t.Fatalf("the answerers' tally's first shares entry is at %d, the vector says 80", k)
				}
				return mafiaTampered(t, lt, k, forged)
			},
		},
	}
}
