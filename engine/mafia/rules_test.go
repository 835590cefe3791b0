package mafia_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

// f12 is a 12-player table without incident cards: Anna the Don, Boris
// the Madman, Clara and Dima mafiosi, Egor the Commissar, Fedor the
// Nurse, Galya the Night Butterfly, the rest civilians.
const f12 = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina " +
	"roles=Don,Madman,Mafioso,Mafioso,Commissar,Nurse,Butterfly,Civilian,Civilian,Civilian,Civilian,Civilian incidents=off\n"

// noVote12 answers the first day's question "no" for all twelve.
const noVote12 = `Anna hold no
Boris hold no
Clara hold no
Dima hold no
Egor hold no
Fedor hold no
Galya hold no
Igor hold no
Katya hold no
Lena hold no
Misha hold no
Nina hold no
`

// f6 is a 6-player table without incident cards: two mafiosi (no Don),
// Clara the Commissar.
const f6 = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor roles=Mafioso,Mafioso,Commissar,Civilian,Civilian,Civilian incidents=off\n"

const noVote6 = `Anna hold no
Boris hold no
Clara hold no
Dima hold no
Egor hold no
Fedor hold no
`

// wantErr runs a script that must fail on line with every one of subs in
// the error.
func wantErr(t *testing.T, src string, line int, subs ...string) {
	t.Helper()
	_, err := run(t, src)
	var se *mafia.ScriptError
	if !errors.As(err, &se) || se.Line != line {
		t.Fatalf("want an error on line %d, got %v", line, err)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("error %q does not say %q", err, s)
		}
	}
}

func ok(t *testing.T, src string) {
	t.Helper()
	if _, err := run(t, src); err != nil {
		t.Fatal(err)
	}
}

func TestRoleCounts(t *testing.T) {
	for _, c := range []struct {
		n                    int
		civSp, mafSp, mafios int
	}{{4, 0, 0, 1}, {5, 0, 0, 1}, {6, 1, 0, 2}, {8, 1, 0, 2}, {9, 2, 1, 2}, {11, 2, 1, 2}, {12, 3, 2, 2}, {14, 3, 2, 2}, {15, 3, 2, 3}, {18, 3, 2, 3}} {
		got, err := mafia.CountsFor(c.n)
		if err != nil || got.CivilSpecials != c.civSp || got.MafiaSpecials != c.mafSp || got.Mafiosi != c.mafios ||
			got.Civilians != c.n-c.civSp-c.mafSp-c.mafios {
			t.Errorf("%d players: %+v, %v", c.n, got, err)
		}
		deck, err := mafia.RoleDeck(c.n, nil)
		if err != nil || len(deck) != c.n {
			t.Errorf("%d players: deck %v, %v", c.n, deck, err)
		}
	}
	for _, n := range []int{3, 19} {
		if _, err := mafia.CountsFor(n); err == nil {
			t.Errorf("%d players accepted", n)
		}
	}
	if d := mafia.DefaultSpecials(9); len(d) != 3 || d[0] != mafia.Commissar || d[1] != mafia.Nurse || d[2] != mafia.Don {
		t.Errorf("9 players' specials: %v", d)
	}
	// A table may choose other specials within the counts, or fewer.
	deck, err := mafia.RoleDeck(9, []engine.Card{mafia.Butterfly, mafia.Madman})
	if err != nil || deck[0] != mafia.Civilian || !contains(deck, mafia.Madman) || count(deck, mafia.Mafioso) != 2 || count(deck, mafia.Civilian) != 5 {
		t.Errorf("chosen specials: %v %v", deck, err)
	}
	for _, bad := range [][]engine.Card{{mafia.Commissar, mafia.Nurse, mafia.Butterfly}, {mafia.Don, mafia.Madman}, {mafia.Civilian}, {mafia.Don, mafia.Don}} {
		if _, err := mafia.RoleDeck(9, bad); err == nil {
			t.Errorf("9 players accepted specials %v", bad)
		}
	}
}

func contains(v []engine.Card, c engine.Card) bool { return count(v, c) > 0 }

func count(v []engine.Card, c engine.Card) int {
	n := 0
	for _, x := range v {
		if x == c {
			n++
		}
	}
	return n
}

func TestFirstNightRecognition(t *testing.T) {
	// The mafia (Don included) recognise each other; the Madman does not
	// yet; nobody else recognises anybody.
	ok(t, f12+`
expect knows=Anna:Don knows=Boris:Madman mates=Anna:Clara,Dima mates=Clara:Anna,Dima mates=Dima:Anna,Clara mates=Boris:none mates=Egor:none
expect phase=hold day=1 turn=Anna
`)
}

func TestFirstDayVoteNeedsMajority(t *testing.T) {
	// 6 of 12 is not a majority: no vote, night 2 comes.
	ok(t, f12+`
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold yes
Fedor hold yes
Galya hold no
Igor hold no
Katya hold no
Lena hold no
Misha hold no
Nina hold no
expect day=2 waiting=yes
`)
	// 4 of 6 is: the vote is held.
	ok(t, f6+`
Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Fedor hold no
expect phase=vote day=1 turn=Anna
`)
	// Nobody acts on the first night: no night choice is due before the
	// first day.
	wantErr(t, f6+"Anna kill Dima\n", 2, "Anna", "no-night-choice")
}

func TestNightSaveAndMadman(t *testing.T) {
	ok(t, f12+noVote12+`
Anna kill Igor
Boris kill Katya
Fedor save Igor
Galya date Lena
Egor check Anna
expect attacked=Igor:saved attacked=Katya:open attacked=Lena:no
expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Lena,Misha,Nina role=Katya:Civilian
expect checked=Egor:Anna:mafia phase=vote day=2
`)
}

func TestNightPowers(t *testing.T) {
	// The Don's choice decides: a mafioso holds no kill while he lives.
	wantErr(t, f12+noVote12+"Clara kill Igor\n", 14, "Clara", "no-power")
	// Nobody names themselves.
	wantErr(t, f12+noVote12+"Fedor save Fedor\n", 14, "Fedor", mafia.RuleBadTarget)
	wantErr(t, f12+noVote12+"Anna kill Anna\n", 14, "Anna", mafia.RuleBadTarget)
	// A civilian holds no power.
	wantErr(t, f12+noVote12+"Igor save Katya\n", 14, "Igor", "no-power")
	// The Madman is "not mafia" to the Commissar until he joins.
	ok(t, f12+noVote12+`
Anna kill Igor
Boris kill Igor
Fedor save Igor
Galya date Lena
Egor check Boris
expect checked=Egor:Boris:not alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina
`)
}

func TestDatedSurvives(t *testing.T) {
	ok(t, f12+noVote12+`
Anna kill Lena
Boris kill Igor
Fedor save Igor
Galya date Lena
Egor check Clara
expect attacked=Lena:dated attacked=Igor:saved checked=Egor:Clara:mafia
expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina
`)
}

func TestButterflyAttacked(t *testing.T) {
	// Several attacks on her are answered together; she and her date die.
	ok(t, f12+noVote12+`
Anna kill Galya
Boris kill Galya
Fedor save Igor
Galya date Lena
Egor check Boris
expect role=Galya:Butterfly role=Lena:Civilian alive=Anna,Boris,Clara,Dima,Egor,Fedor,Igor,Katya,Misha,Nina
`)
	// Saved by the Nurse, nobody dies by her date.
	ok(t, f12+noVote12+`
Anna kill Galya
Boris kill Katya
Fedor save Galya
Galya date Lena
Egor check Boris
expect attacked=Galya:saved role=Katya:Civilian alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Lena,Misha,Nina
`)
}

// joinDay2 votes Clara (a mafioso) out on day 2 after a night where
// nobody dies.
const joinDay2 = noVote12 + `Anna kill Igor
Boris kill Igor
Fedor save Igor
Galya date Lena
Egor check Dima
Anna vote Clara
Boris vote Clara
Clara vote Anna
Dima vote Clara
Egor vote Clara
Fedor vote Clara
Galya vote Clara
Igor vote Clara
Katya vote Clara
Lena vote Clara
Misha vote Clara
Nina vote Clara
`

func TestMadmanJoins(t *testing.T) {
	ok(t, f12+joinDay2+`
expect role=Clara:Mafioso joined=yes day=3 waiting=yes
expect mates=Boris:Anna,Dima mates=Anna:Boris,Clara,Dima mates=Egor:none
Anna kill Katya
Fedor save Igor
Galya date Lena
Egor check Boris
expect checked=Egor:Boris:mafia role=Katya:Civilian
`)
	// He stops killing alone: with the Don alive, he holds no kill.
	wantErr(t, f12+joinDay2+"Boris kill Katya\n", 31, "Boris", "no-power")
}

func TestMafiaTieCoin(t *testing.T) {
	// Without a Don the mafiosi's majority decides; a tie is broken by a
	// joint coin among the tied.
	ok(t, f6+noVote6+`
coin Egor
Anna kill Dima
Boris kill Egor
Clara check Anna
expect role=Egor:Civilian alive=Anna,Boris,Clara,Dima,Fedor checked=Clara:Anna:mafia
`)
	ok(t, f6+noVote6+`
coin Dima
Anna kill Dima
Boris kill Egor
Clara check Boris
expect role=Dima:Civilian alive=Anna,Boris,Clara,Egor,Fedor
`)
	// Every mafioso votes: both hold the kill.
	ok(t, f6+noVote6+`
Anna kill Dima
Boris kill Dima
expect waiting=yes
Clara check Dima
expect role=Dima:Civilian checked=Clara:Dima:not
`)
}

func TestDayVoteTie(t *testing.T) {
	day1 := `Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Fedor hold no
Anna vote Dima
Boris vote Dima
Clara vote Anna
Dima vote Anna
Egor vote abstain
Fedor vote abstain
`
	ok(t, f6+day1+"expect alive=Anna,Boris,Clara,Dima,Egor,Fedor day=2 waiting=yes\n")
	draw := strings.Replace(f6, "incidents=off", "incidents=off tie=draw", 1)
	ok(t, draw+day1+"expect over=yes side=draw winners=none\n")
	// Everyone abstaining eliminates nobody, even with tie=draw.
	ok(t, draw+strings.NewReplacer("vote Dima", "vote abstain", "vote Anna", "vote abstain").Replace(day1)+"expect over=no day=2\n")
}

func TestEndCivilians(t *testing.T) {
	ok(t, `game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian incidents=off
Anna hold no
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Anna vote Boris
Boris vote Anna
Clara vote Anna
Dima vote Anna
Egor vote Anna
expect over=yes side=civilians winners=Boris,Clara,Dima,Egor role=Anna:Mafioso role=Boris:Civilian
`)
}

func TestEndMafia(t *testing.T) {
	// One mafioso and one civilian left: the mafia win (the end is checked
	// after the night and after the day's elimination).
	ok(t, `game mafia players=Anna,Boris,Clara,Dima roles=Mafioso,Civilian,Civilian,Civilian incidents=off
Anna hold no
Boris hold no
Clara hold no
Dima hold no
Anna kill Boris
expect over=no day=2 alive=Anna,Clara,Dima
Anna vote Clara
Clara vote Anna
Dima vote Clara
expect over=yes side=mafia winners=Anna role=Dima:Civilian alive=Anna,Dima
`)
}

func TestMadmanCountsAsMafia(t *testing.T) {
	// Civilians win only once the Madman is out too; a leaving player is
	// eliminated, role revealed, and the first mafia member out makes the
	// Madman join.
	const f9 = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya roles=Mafioso,Mafioso,Madman,Commissar,Nurse,Civilian,Civilian,Civilian,Civilian incidents=off\n"
	ok(t, f9+`
Anna leave
expect role=Anna:Mafioso joined=yes over=no turn=Boris
Boris leave
expect over=no
Clara leave
expect over=yes side=civilians winners=Dima,Egor,Fedor,Galya,Igor,Katya
`)
}

func TestDeadNeverAct(t *testing.T) {
	wantErr(t, f6+noVote6+`
Anna kill Dima
Boris kill Dima
Clara check Anna
Dima vote Anna
`, 12, "Dima", mafia.RuleDead)
	wantErr(t, f6+"Anna leave\nAnna hold yes\n", 3, "Anna", mafia.RuleDead)
	// Out of turn.
	wantErr(t, f6+"Boris hold yes\n", 2, "Boris", mafia.RuleNotYourTurn)
}

func TestLeaveMidVote(t *testing.T) {
	// Votes naming a player who leaves become abstentions; the vote goes
	// on without them.
	ok(t, f6+`Anna hold yes
Boris hold yes
Clara hold yes
Dima hold yes
Egor hold no
Fedor hold no
Anna vote Dima
Boris vote Dima
Clara vote Anna
Dima leave
expect role=Dima:Civilian turn=Egor votes=Anna:abstain
Egor vote Anna
Fedor vote Boris
expect role=Anna:Mafioso joined=yes alive=Boris,Clara,Egor,Fedor
`)
}

func TestDonOutDrawsAndJoin(t *testing.T) {
	// The Don voted out: everyone draws, the Madman joins, and from then
	// on the mafiosi and the Madman vote the kill together.
	ok(t, f12c+noVote12+`Anna kill Igor
Boris kill Igor
Fedor save Igor
Galya date Lena
Egor check Dima
Anna vote Boris
Boris vote Anna
Clara vote Anna
Dima vote Anna
Egor vote Anna
Fedor vote Anna
Galya vote Anna
Igor vote Anna
Katya vote Anna
Lena vote Anna
Misha vote Anna
Nina vote Anna
Anna pass
expect role=Anna:Don joined=yes hand=Boris:2,Lena:2,Misha:1,Nina:1 deck=0 mates=Boris:Clara,Dima
Boris kill Katya
Clara kill Katya
Dima kill Misha
Fedor save Igor
Galya date Lena
Egor check Boris
expect checked=Egor:Boris:mafia turn=Katya attacked=Katya:open attacked=Misha:no
`)
}

// TestCoinPickUniform checks that the tie coin picks every tied seat with
// exactly the same weight: over the 256 values of a byte, the accepted
// ones pick each seat equally often, and a refused byte leaves the pick
// to the next byte (the old u64-modulo read picked some seats never from
// a coin's first byte alone, e.g. only even seats of six).
func TestCoinPickUniform(t *testing.T) {
	for n := 1; n <= mafia.MaxPlayers; n++ {
		tied := make([]engine.Seat, n)
		for i := range tied {
			tied[i] = engine.Seat(10 + i)
		}
		limit := 256 - 256%n
		count := map[engine.Seat]int{}
		for b := range 256 {
			var c [32]byte
			c[0], c[1] = byte(b), byte(n-1) // byte 1 is always accepted
			got := mafia.CoinPick(tied, c)
			if b < limit {
				count[got]++
				continue
			}
			if want := tied[n-1]; got != want {
				t.Fatalf("n=%d: refused first byte %d: picked %d, want %d (the second byte's)", n, b, got, want)
			}
		}
		for _, p := range tied {
			if count[p] != limit/n {
				t.Fatalf("n=%d: seat %d picked by %d first-byte values, want %d", n, p, count[p], limit/n)
			}
		}
	}
	// Every byte refused: the first of the tied.
	var all [32]byte
	for i := range all {
		all[i] = 255
	}
	if got := mafia.CoinPick([]engine.Seat{3, 4, 5}, all); got != 3 {
		t.Fatalf("all bytes refused: picked %d, want 3", got)
	}
	if got := mafia.CoinPick(nil, all); got != mafia.NoSeat {
		t.Fatalf("nobody tied: picked %d", got)
	}
}

// TestJoinViewsSkippedAtTheEnd: the Madman joins when the first Mafioso
// is eliminated, and every living seat views component 4 of its tuple,
// then a tag round follows; but when the same elimination ends the game
// the views and the tag round would serve nobody and are not asked.
func TestJoinViewsSkippedAtTheEnd(t *testing.T) {
	const f9 = "game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya " +
		"roles=Mafioso,Mafioso,Madman,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian incidents=off\n"
	// The night: the mafiosi kill Dima, the Madman (alone) kills Anna.
	const night = "Anna kill Dima\nBoris kill Dima\nClara kill Anna\n"
	for _, tc := range []struct {
		name   string
		leave  []string // civilians who leave first
		over   bool
		views  int // join views asked (component 4 peeks)
		tagged bool
	}{
		{"the game goes on", []string{"Egor", "Fedor", "Galya"}, false, 4, true},
		{"the game ends", []string{"Egor", "Fedor", "Galya", "Igor"}, true, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := f9
			for _, p := range tc.leave {
				src += p + " leave\n"
			}
			for _, p := range []string{"Anna", "Boris", "Clara", "Dima", "Egor", "Fedor", "Galya", "Igor", "Katya"} {
				if !slices.Contains(tc.leave, p) {
					src += p + " hold no\n"
				}
			}
			over := map[bool]string{true: "yes side=mafia", false: "no"}[tc.over]
			tab, err := run(t, src+night+"expect joined=yes role=Anna:Mafioso role=Dima:Civilian over="+over+"\n")
			if err != nil {
				t.Fatal(err)
			}
			views, tagged := 0, false
			for _, e := range tab.Last {
				switch {
				case e.Kind == engine.EffectPeek && slices.Equal(e.Comps, []int{mafia.CompSecretAfter}):
					views++
				case e.Kind == engine.EffectTag && e.Comp == mafia.CompSecretAfter:
					tagged = true
				}
			}
			if views != tc.views || tagged != tc.tagged {
				t.Fatalf("join views %d, tag round %v; want %d, %v", views, tagged, tc.views, tc.tagged)
			}
		})
	}
}

// The book's table fixes the plain mafiosi (1/2/2/2/3) and bounds the
// plain civilians (at most 4/5/6/7/10; the box holds 3 mafiosi and 10
// civilians): a table with fewer specials keeps the mafiosi and fills the
// rest with civilians, and is refused when they would be too many.
func TestRoleDeckWithinTheBook(t *testing.T) {
	for _, tc := range []struct {
		n                  int
		specials           []engine.Card
		mafiosi, civilians int // -1: refused
	}{
		{18, nil, 3, 10},
		{18, []engine.Card{}, -1, -1},
		{18, []engine.Card{mafia.Commissar, mafia.Nurse, mafia.Butterfly, mafia.Don}, -1, -1},
		{15, []engine.Card{mafia.Commissar, mafia.Nurse}, 3, 10},
		{15, []engine.Card{mafia.Commissar}, -1, -1},
		{9, []engine.Card{mafia.Commissar, mafia.Nurse}, 2, 5},
		{6, []engine.Card{}, 2, 4},
		{8, []engine.Card{}, -1, -1},
		{4, []engine.Card{}, 1, 3},
	} {
		deck, err := mafia.RoleDeck(tc.n, tc.specials)
		if tc.mafiosi < 0 {
			if err == nil || !strings.Contains(err.Error(), "at most") || !strings.Contains(err.Error(), "choose at least") {
				t.Errorf("%d players, specials %v: deck %v, error %v; want a refusal naming the book's count", tc.n, tc.specials, deck, err)
			}
			continue
		}
		if err != nil || count(deck, mafia.Mafioso) != tc.mafiosi || count(deck, mafia.Civilian) != tc.civilians || len(deck) != tc.n {
			t.Errorf("%d players, specials %v: deck %v, %v; want %d mafiosi and %d civilians", tc.n, tc.specials, deck, err, tc.mafiosi, tc.civilians)
		}
	}
}
