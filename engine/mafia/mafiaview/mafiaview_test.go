package mafiaview

import (
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
	"github.com/masque-games/masque/engine/seatview"
)

// The recognition night comes before day 1's first move: a seat asked
// for its night actions then is told it is night 1, not day 1, and is not
// shown the first day's "vote today?" count yet.
func TestMafiaRecognitionNightIsNight(t *testing.T) {
	o := mafia.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima", "Egor"}}
	enc, err := o.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s, err := mafia.Game{}.New(enc, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		night, tableNight bool
		when              string
		vote              bool
	}{{true, true, "night 1", false}, {false, false, "day 1", true}, {false, true, "night 1", false}} {
		// tableNight without night: the seat posted its own night
		// actions, the others have not yet (day 1's first move, seat 0's,
		// is not asked yet).
		tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: s, Seat: 0, Names: o.Players, Night: tc.night, TableNight: tc.tableNight,
			MyTurn: tc.night || !tc.tableNight, Private: mafia.NewKnowledge(engine.Seat(0))})
		if !ok {
			t.Fatal("no view")
		}
		if tc.tableNight && tb.Seats[0].Turn {
			t.Errorf("night %v: seat 0 is marked as having the turn at night", tc.night)
		}
		if tc.tableNight && !tc.night {
			if tb.Status != "night 1 · the city sleeps" || tb.Seats[0].Turn || tb.Waiting != "" || tb.Question != nil {
				t.Errorf("after its own night actions, the seat is shown %q (turn %v, waiting %q, question %v)",
					tb.Status, tb.Seats[0].Turn, tb.Waiting, tb.Question != nil)
			}
		}
		if !strings.HasPrefix(tb.Status, tc.when) {
			t.Errorf("night %v: status %q, want it to start with %q", tc.night, tb.Status, tc.when)
		}
		vote := false
		for _, n := range tb.Notices {
			vote = vote || n.Title == "Vote today?"
		}
		if vote != tc.vote {
			t.Errorf("night %v: the vote-today notice shown: %v", tc.night, vote)
		}
	}
}

// A mafioso's first choice (where the cursor starts) is never their mate:
// enter at once must not vote out, or attack, one of their own. The mates
// come last (before abstaining), marked "(your mate)".
func TestMafiaMateIsNotTheFirstChoice(t *testing.T) {
	src := `game mafia players=Anna,Boris,Clara,Dima,Egor,Fedya roles=Mafioso,Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft,Alibi
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Fedya hold no
`
	sc, tab := scripted(t, src)
	for _, me := range []engine.Seat{0, 1} {
		k := tab.Knowledge(me)
		if len(k.Mates) != 1 {
			t.Fatalf("seat %d: mates %v", me, k.Mates)
		}
		for _, night := range []bool{false, true} {
			in := seatview.Input{Rules: tab.State, Seat: me, Names: sc.Options.Players, Private: k, MyTurn: true}
			if night {
				in.Night, in.TableNight = true, true
				in.Decisions = []engine.Effect{{Power: mafia.PowerKill, Targets: tab.State.Living()}}
			}
			tb, _ := seatview.Build(Viewer{}, in)
			if tb.Question == nil || len(tb.Question.Choices) < 3 {
				if !night && me != 0 {
					continue // not Boris's turn to vote
				}
				t.Fatalf("seat %d night %v: no question", me, night)
			}
			cs := tb.Question.Choices
			if strings.Contains(cs[0].Words, "your mate") {
				t.Errorf("seat %d night %v: the first choice is %q", me, night, cs[0].Words)
			}
			last := cs[len(cs)-1].Words
			if !night {
				last = cs[len(cs)-2].Words // before abstain
			}
			if !strings.Contains(last, "your mate") {
				t.Errorf("seat %d night %v: the mate is not last: %q", me, night, last)
			}
		}
	}
}

// The day's tally names the most votes first: "Clara 3, Anna 1, Boris 1".
func TestMafiaVoteTallyMostFirst(t *testing.T) {
	src := `game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold no
Egor hold no
Anna vote Clara
Boris vote Clara
Clara vote Anna
Dima vote Clara
`
	sc, tab := scripted(t, src)
	tb, _ := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: 4, Names: sc.Options.Players, Private: tab.Knowledge(4), MyTurn: true})
	for _, n := range tb.Notices {
		if n.Title == "The vote" {
			if want := "4 of 5 voted: Clara 3, Anna 1"; n.Text != want {
				t.Errorf("the tally %q, want %q", n.Text, want)
			}
			return
		}
	}
	t.Errorf("no tally: %+v", tb.Notices)
}

// scripted plays a script on a fake table seeded 1 and returns the
// parsed script and the table.
func scripted(t *testing.T, src string) (*mafia.Script, *mafiatest.Table) {
	t.Helper()
	sc, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatal(err)
	}
	return sc, tab
}

// What the screen says on a day must be true for the seat reading it: day
// 1 tells what night 1 was (night 2 follows it); a condemned or attacked
// player is offered only the cards they hold that answer, and told when
// they hold none; a dead player is told they are out.
func TestMafiaScreenTellsTheTruth(t *testing.T) {
	const five = "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft\n"
	const vote = "Anna hold yes\nBoris hold yes\nClara hold yes\nDima hold no\nEgor hold no\n"
	const condemnClara = "Anna vote Clara\nBoris vote Clara\nClara vote Anna\nDima vote Clara\nEgor vote Clara\n"
	build := func(src string, me engine.Seat) seatview.Table {
		t.Helper()
		sc, tab := scripted(t, five+src)
		tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: me, Names: sc.Options.Players, Private: tab.Knowledge(me), Known: tab.Known(me), MyTurn: true})
		if !ok {
			t.Fatal("no view")
		}
		return tb
	}
	notice := func(tb seatview.Table, title string) string {
		for _, n := range tb.Notices {
			if n.Title == title {
				return n.Text
			}
		}
		return ""
	}
	if got := notice(build("", 0), "Last night"); !strings.Contains(got, "Night 1") {
		t.Errorf("day 1 does not tell night 1: %+v", build("", 0).Notices)
	}
	for _, tc := range []struct {
		src  string
		me   engine.Seat
		want string
	}{
		// Clara holds a Misfire only: it does not answer a vote.
		{vote + condemnClara, 2, "The vote eliminates you: none of your incident cards answers it (only an Alibi or an Evidence does), so accept it."},
		// Egor holds an Evidence (left).
		{vote + "Anna vote Egor\nBoris vote Egor\nClara vote Egor\nDima vote Egor\nEgor vote Anna\n", 4,
			"The vote eliminates you: play your Evidence (left), or accept it."},
		// Boris holds an Alibi only: it does not answer an attack.
		{vote + condemnClara + "Clara pass\nAnna kill Boris\n", 1,
			"You were attacked in the night: none of your incident cards answers it (only a Misfire or a Ricochet does), so accept it."},
	} {
		tb := build(tc.src, tc.me)
		if tb.Question == nil || tb.Question.Text != tc.want {
			t.Errorf("seat %d after %q: question %+v, want %q", tc.me, tc.src, tb.Question, tc.want)
		}
	}
	// Egor's Evidence moves the elimination to his neighbour: the tally
	// ("Egor 4") says so before naming who it now falls on.
	moved := build(vote+"Anna vote Egor\nBoris vote Egor\nClara vote Egor\nDima vote Egor\nEgor vote Anna\nEgor play EvidenceLeft\n", 0)
	if got, want := notice(moved, "The vote"), "Egor 4, you 1. An Evidence card moved the elimination from Egor. The vote eliminates you unless you answer with an incident card."; !strings.HasSuffix(got, want) {
		t.Errorf("the tally after an Evidence: %q, want it to end %q", got, want)
	}
	dead := build(vote+condemnClara+"Clara pass\nAnna kill Boris\nBoris pass\n", 2)
	if !strings.Contains(dead.Status, "you are out of the game") {
		t.Errorf("a dead seat's status %q does not say it is out", dead.Status)
	}
	// Whom the table waits for, and for what, is said once: the status
	// names whose turn it is, the waiting line what for.
	if dead.Waiting == "" || strings.Contains(dead.Status, dead.Waiting) || !strings.Contains(dead.Status, "'s turn") {
		t.Errorf("the status %q and the waiting line %q", dead.Status, dead.Waiting)
	}
}

// The mafia are plural in every line ("the mafia win", "the mafia choose
// together"), the night's question too ("the mafia chooses" was alone).
func TestMafiaNightQuestionPlural(t *testing.T) {
	_, tab := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft\n")
	q := nightQuestion(tab.State, 0, &mafia.Knowledge{Role: mafia.Mafioso},
		[]engine.Effect{{Kind: engine.EffectBallot, Power: mafia.PowerKill, Targets: []engine.Seat{1, 2}}})
	if !strings.Contains(q.Text, "the mafia choose whom to attack") {
		t.Errorf("the night's question: %q", q.Text)
	}
}

// What only the seat knows is marked in its status's parts, as data a
// page draws without reading the words (its own role and its checks
// that found no mafioso: own; its mates and a check that found one:
// warn); Status is the parts' words.
func TestMafiaStatusPartsAreMarked(t *testing.T) {
	sc, tab := scripted(t, "game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi,Misfire,RicochetLeft,EvidenceLeft\n")
	k := tab.Knowledge(0)
	k.Mates = append(k.Mates, 1)
	k.Checks[2], k.Checks[3] = true, false
	tb, ok := seatview.Build(Viewer{}, seatview.Input{Rules: tab.State, Seat: 0, Names: sc.Options.Players, Private: k, Known: tab.Known(0)})
	if !ok {
		t.Fatal("no view")
	}
	want := map[string][]seatview.Part{
		"Anna":  {{Text: "alive"}, {Text: "you are a Mafioso", Mark: seatview.MarkOwn}},
		"Boris": {{Text: "alive"}, {Text: "your mate in the mafia", Mark: seatview.MarkWarn}},
		"Clara": {{Text: "alive"}, {Text: "you checked: mafia", Mark: seatview.MarkWarn}},
		"Dima":  {{Text: "alive"}, {Text: "you checked: not mafia", Mark: seatview.MarkOwn}},
		"Egor":  {{Text: "alive"}},
	}
	for _, s := range tb.Seats {
		if !slices.Equal(s.Parts, want[s.Name]) {
			t.Errorf("%s: parts %+v, want %+v", s.Name, s.Parts, want[s.Name])
		}
		var texts []string
		for _, p := range s.Parts {
			texts = append(texts, p.Text)
		}
		if s.Status != strings.Join(texts, "; ") {
			t.Errorf("%s: status %q, parts %+v", s.Name, s.Status, s.Parts)
		}
	}
}
