package mafia_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/cryptotest"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// Issue 27 (docs/mafia.md §11): the public transcript tells no more than
// the book's moderator announces. These tests play pairs of games the
// moderator would announce identically and compare what is public.

var names12 = strings.Split("Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina", ",")

var names15 = strings.Split("Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina,Oleg,Polina,Roma", ",")

var roles12 = []engine.Card{mafia.Don, mafia.Madman, mafia.Mafioso, mafia.Mafioso, mafia.Commissar, mafia.Nurse,
	mafia.Butterfly, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian}

// nightScript is a 12-player game without incident cards: the deal (role
// per seat), nobody votes on the first day, then night 2's choices by
// role: the Don's and the Madman's victims, the Nurse's save, the
// Butterfly's date and the Commissar's check (seats).
func nightScript(deal []engine.Card, don, mad, save, date, check int) string {
	var b strings.Builder
	var rs []string
	seat := map[engine.Card]int{}
	for i, r := range deal {
		rs = append(rs, mafia.CardName(r))
		if _, ok := seat[r]; !ok {
			seat[r] = i
		}
	}
	fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names12, ","), strings.Join(rs, ","))
	for _, n := range names12 {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	fmt.Fprintf(&b, "%s kill %s\n", names12[seat[mafia.Don]], names12[don])
	fmt.Fprintf(&b, "%s kill %s\n", names12[seat[mafia.Madman]], names12[mad])
	fmt.Fprintf(&b, "%s save %s\n", names12[seat[mafia.Nurse]], names12[save])
	fmt.Fprintf(&b, "%s date %s\n", names12[seat[mafia.Butterfly]], names12[date])
	fmt.Fprintf(&b, "%s check %s\n", names12[seat[mafia.Commissar]], names12[check])
	return b.String()
}

// nightRecord plays src on the fake table and returns what night 2 made
// public: every effect the rules asked after the first day's last answer
// (kinds, powers, seats, targets) and every fact the table opened.
func nightRecord(t *testing.T, src string) string {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return fmt.Sprintf("effects %+v\nfacts %+v\nphase %v", tab.Last, tab.Facts, tab.State.Phase())
}

// otherThan returns a random seat not in not.
func otherThan(r *rand.Rand, not ...int) int {
	for {
		if p := r.IntN(12); !slices.Contains(not, p) {
			return p
		}
	}
}

// The mafia's victim and the Madman's are public only as "attacked"
// (the book's moderator: "объявляет кого "убили""), never by whom: across
// random deals and choices, the game where the Don names a and the
// Madman b, the game where they swap, and the game where the Don and the
// Madman swap seats, make the same night public, effect by effect and
// fact by fact. Fails with two tallies (leak L2, docs/mafia.md §11.3).
func TestMafiaAttackersUnattributed(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 2))
	for game := range 40 {
		deal := slices.Clone(roles12)
		r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		don, mad := slices.Index(deal, mafia.Don), slices.Index(deal, mafia.Madman)
		nurse, bfly, comm := slices.Index(deal, mafia.Nurse), slices.Index(deal, mafia.Butterfly), slices.Index(deal, mafia.Commissar)
		a := otherThan(r, don, mad)
		b := otherThan(r, don, mad, a)
		// Her date dies with the Butterfly: not the Don or the Madman,
		// whose revealed roles would tell the swapped deals apart.
		save, date, check := otherThan(r, nurse), otherThan(r, bfly, don, mad), otherThan(r, comm)
		swapped := slices.Clone(deal)
		swapped[don], swapped[mad] = mafia.Madman, mafia.Don
		base := nightRecord(t, nightScript(deal, a, b, save, date, check))
		for _, other := range []struct{ what, src string }{
			{"the attackers swap victims", nightScript(deal, b, a, save, date, check)},
			{"the Don and the Madman swap seats", nightScript(swapped, a, b, save, date, check)},
		} {
			if got := nightRecord(t, other.src); got != base {
				t.Fatalf("game %d: %s changes what is public:\n%s\nvs\n%s", game, other.what, base, got)
			}
		}
	}
}

// publicRecord replays a real transcript and returns what it shows
// everyone: each entry's author, kind and size, and every value opened
// publicly (tally counts, revealed roles).
func publicRecord(t *testing.T, tr *ledger.Transcript) []string {
	t.Helper()
	tb, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	var rec []string
	for _, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		rec = append(rec, fmt.Sprintf("entry %d seat %d %v %d bytes", e.Pos, e.Seat, b.Kind, len(e.Body)))
		if err := tb.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		for _, r := range tb.CompletedAll() {
			if r.Kind != engine.EffectTally {
				continue
			}
			if r.Tested && r.Plurality > 0 {
				// A plurality kill's tests of every card (mental SPEC
				// §9.9): where the votes fall among the shuffled code
				// sums (the shuffles' k-subset: with crypto/rand seeded
				// alike, the same whatever the votes say), and how many
				// rows hold the identity (one; its place is uniform over
				// the rows whatever the votes, so it is not compared).
				var at []int
				for i, c := range r.Cards {
					if (c[0].B.Equal(mental.Identity()) == 1) == r.Rows {
						at = append(at, i)
					}
				}
				if r.Rows {
					rec = append(rec, fmt.Sprintf("  tests of %d kill-table rows: %d true", len(r.Cards), len(at)))
				} else {
					rec = append(rec, fmt.Sprintf("  tests of %d code sums: votes at %v", len(r.Cards), at))
				}
				continue
			}
			if r.Lookup {
				continue
			}
			if r.Tested {
				// A blinded identity test: the last step's B is the
				// identity exactly when the tested code sum is.
				rec = append(rec, fmt.Sprintf("  test of card %d: identity %v", r.Test, r.Cards[0][0].B.Equal(mental.Identity()) == 1))
				continue
			}
			for k, target := range r.Targets {
				var all [][]*mental.Element
				for i := range r.Seats {
					all = append(all, r.Shares[i][k])
				}
				m, err := mental.Open(r.Cards[k], all)
				if err != nil {
					t.Fatal(err)
				}
				if r.PickTargets != nil {
					counts, err := mental.MixTargets(m[0], len(r.PickTargets), r.PickCodes)
					if err != nil {
						t.Fatal(err)
					}
					rec = append(rec, fmt.Sprintf("  pick over %v: %v", r.PickTargets, counts))
					continue
				}
				c, err := mental.TallyCount(m[0])
				if err != nil {
					t.Fatal(err)
				}
				rec = append(rec, fmt.Sprintf("  tally at seat %d: %d", target, c))
			}
		}
	}
	return append(rec, fmt.Sprintf("opened %v", tb.Opened()))
}

// Through the real stack (every ballot proven, every tally opened by
// shares): the Don attacks Igor and the Madman Katya, or the other way
// round; the Nurse saves Igor. The transcripts differ in no entry's
// kind, author or size and in no opened value.
func TestRealMafiaAttackersUnattributed(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	if testing.Short() {
		t.Skip("a 12-seat game through the real stack")
	}
	igor, katya := slices.Index(names12, "Igor"), slices.Index(names12, "Katya")
	lena, clara := slices.Index(names12, "Lena"), slices.Index(names12, "Clara")
	var recs [2][]string
	for i, v := range [][2]int{{igor, katya}, {katya, igor}} {
		src := nightScript(roles12, v[0], v[1], igor, lena, clara) + "expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Lena,Misha,Nina\n"
		lt, err := localplay.Run(mafia.Game{}, []byte(src), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		recs[i] = publicRecord(t, lt.Transcript())
	}
	if !slices.Equal(recs[0], recs[1]) {
		for k := range min(len(recs[0]), len(recs[1])) {
			if recs[0][k] != recs[1][k] {
				t.Fatalf("line %d differs: %q vs %q", k, recs[0][k], recs[1][k])
			}
		}
		t.Fatalf("the records differ in length: %d vs %d", len(recs[0]), len(recs[1]))
	}
}

// rolesNoDon is a 12-player deck without the Don: two mafiosi share the
// kill and decide by majority, a tie by the joint coin
// (docs/rules-mafia.md 8).
var rolesNoDon = []engine.Card{mafia.Madman, mafia.Mafioso, mafia.Mafioso, mafia.Commissar, mafia.Nurse,
	mafia.Butterfly, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian}

// splitScript is a 12-player game on deal without the Don: nobody votes
// on the first day, then night 2's choices: kills[i] is the i-th
// mafioso's victim (in seat order), mad the Madman's, and the Nurse's
// save, the Butterfly's date and the Commissar's check; a tie among the
// mafiosi goes to coin.
func splitScript(deal []engine.Card, kills []int, coin, mad, save, date, check int) string {
	var b strings.Builder
	var rs []string
	for _, r := range deal {
		rs = append(rs, mafia.CardName(r))
	}
	fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names15[:len(deal)], ","), strings.Join(rs, ","))
	for _, n := range names15[:len(deal)] {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	fmt.Fprintf(&b, "coin %s\n", names15[coin])
	k := 0
	for i, r := range deal {
		switch r {
		case mafia.Mafioso:
			fmt.Fprintf(&b, "%s kill %s\n", names15[i], names15[kills[k]])
			k++
		case mafia.Madman:
			fmt.Fprintf(&b, "%s kill %s\n", names15[i], names15[mad])
		case mafia.Nurse:
			fmt.Fprintf(&b, "%s save %s\n", names15[i], names15[save])
		case mafia.Butterfly:
			fmt.Fprintf(&b, "%s date %s\n", names15[i], names15[date])
		case mafia.Commissar:
			fmt.Fprintf(&b, "%s check %s\n", names15[i], names15[check])
		}
	}
	return b.String()
}

// mixedRecord is what a game's fake table makes public: the facts the
// rules learnt, with every joint coin and the pick's position among the
// mixed cards zeroed (both uniformly random, whatever anyone chose), the
// last effects and the phase.
func mixedRecord(t *testing.T, src string) string {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	facts := slices.Clone(tab.Facts)
	for i := 0; i < len(facts); {
		j := i
		for j < len(facts) && facts[j].Slot == facts[i].Slot {
			j++
		}
		if facts[i].Slot == -1 {
			facts[i].Coin = [32]byte{} // a joint coin: uniform, whatever anyone chose
		}
		i = j
	}
	var effs []string
	for _, e := range tab.Last {
		e.Pick = 0 // the winner's position among shuffled cards: uniformly random
		effs = append(effs, fmt.Sprintf("%+v", e))
	}
	return fmt.Sprintf("effects %v\nfacts %+v\nphase %v", effs, facts, tab.State.Phase())
}

// Without the Don the mafiosi's split is theirs alone (leak L1,
// docs/mafia.md §11.3): across random deals, a night where the two
// mafiosi name a and b, the coin picks a and the Madman names c makes
// public exactly what these do: the mafiosi name b and a (which of them
// named which), a and d (which seat the losing vote named), and the
// mafia name c and b, the coin picking c, while the Madman names a
// (whose victim is whose). The moderator announces the same for all: a
// and c attacked. Fails with the kill tally opened per target and the
// Madman's opened apart.
func TestMafiaSplitUnseen(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	for game := range 40 {
		deal := slices.Clone(rolesNoDon)
		r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		var mafiosi []int
		for i, c := range deal {
			if mafia.IsMafia(c) {
				mafiosi = append(mafiosi, i)
			}
		}
		nurse, bfly, comm := slices.Index(deal, mafia.Nurse), slices.Index(deal, mafia.Butterfly), slices.Index(deal, mafia.Commissar)
		a := otherThan(r, mafiosi...)
		c := otherThan(r, append(mafiosi, a)...)
		b := otherThan(r, append(mafiosi, a, c)...)
		d := otherThan(r, append(mafiosi, a, b, c)...)
		save, date, check := otherThan(r, nurse), otherThan(r, append(mafiosi, bfly)...), otherThan(r, comm)
		base := mixedRecord(t, splitScript(deal, []int{a, b}, a, c, save, date, check))
		for _, other := range []struct{ what, src string }{
			{"the mafiosi swap their votes", splitScript(deal, []int{b, a}, a, c, save, date, check)},
			{"the losing vote names another seat", splitScript(deal, []int{a, d}, a, c, save, date, check)},
			{"the mafia and the Madman swap victims", splitScript(deal, []int{c, b}, c, a, save, date, check)},
		} {
			if got := mixedRecord(t, other.src); got != base {
				t.Fatalf("game %d: %s changes what is public:\n%s\nvs\n%s", game, other.what, base, got)
			}
		}
	}
}

// exactRecord is what the fake table makes public in a game, nothing
// normalized: every effect the rules asked (with the tested and picked
// positions), every fact (with every coin), and the phase.
func exactRecord(t *testing.T, src string) string {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var effs []string
	for _, e := range tab.Last {
		effs = append(effs, fmt.Sprintf("%+v", e))
	}
	return fmt.Sprintf("effects %v\nfacts %+v\nphase %v", effs, tab.Facts, tab.State.Phase())
}

// rolesTwoHolders8 is an 8-player deck without the Don or the Madman
// (the book's: two mafiosi, one civilian special): two mafiosi share the
// kill.
var rolesTwoHolders8 = []engine.Card{mafia.Mafioso, mafia.Mafioso, mafia.Commissar,
	mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian}

// With exactly two kill holders (no Don) the morning does not say
// whether they agreed (leak L1's residue, docs/mafia.md §11.3): across
// random deals of 12 seats (two mafiosi and the Madman) and of 8 (two
// mafiosi alone), the night where both mafiosi name a makes public
// exactly what the nights make where they split between a and b (in
// either order) and the random pick of one vote falls on a: the same
// effects (every test and pick position), the same facts (no count, no
// coin) and the same phase, nothing normalized. The book's moderator
// announces the same for all: a attacked (and the Madman's c). Fails on
// the mixed tally, whose counts open as [2] or [1, 1] and whose split
// brings a coin.
func TestMafiaAgreeSplitUnseen(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 2))
	pick := func(n int, not ...int) int {
		for {
			if p := r.IntN(n); !slices.Contains(not, p) {
				return p
			}
		}
	}
	for game := range 40 {
		deal := slices.Clone(rolesNoDon)
		if game%2 == 1 {
			deal = slices.Clone(rolesTwoHolders8)
		}
		n := len(deal)
		r.Shuffle(n, func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		var mafiosi []int
		for i, c := range deal {
			if mafia.IsMafia(c) {
				mafiosi = append(mafiosi, i)
			}
		}
		nurse, bfly, comm := slices.Index(deal, mafia.Nurse), slices.Index(deal, mafia.Butterfly), slices.Index(deal, mafia.Commissar)
		a := pick(n, mafiosi...)
		b := pick(n, append(mafiosi, a)...)
		c := pick(n, append(mafiosi, a, b)...) // the Madman's victim, when he plays
		save, date, check := pick(n, nurse), pick(n, append(mafiosi, bfly)...), pick(n, comm)
		base := exactRecord(t, splitScript(deal, []int{a, a}, a, c, save, date, check))
		if !strings.Contains(base, "Tested:true") {
			t.Fatalf("game %d: no blinded test in the night:\n%s", game, base)
		}
		for _, other := range []struct{ what, src string }{
			{"the mafiosi split, the pick falls on the first's vote", splitScript(deal, []int{a, b}, a, c, save, date, check)},
			{"the mafiosi split, the pick falls on the second's vote", splitScript(deal, []int{b, a}, a, c, save, date, check)},
		} {
			if got := exactRecord(t, other.src); got != base {
				t.Fatalf("game %d (%d seats): %s changes what is public:\n%s\nvs\n%s", game, n, other.what, base, got)
			}
		}
	}
}

// rolesThreeHolders15 is a 15-player deck without the Don: three
// mafiosi share the kill (a plurality kill, mental SPEC §9.9), and the
// Madman attacks alone.
var rolesThreeHolders15 = []engine.Card{mafia.Mafioso, mafia.Mafioso, mafia.Mafioso, mafia.Madman, mafia.Commissar,
	mafia.Nurse, mafia.Butterfly, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian,
	mafia.Civilian, mafia.Civilian, mafia.Civilian}

// rolesThreeHoldersNoMadman15 is a 15-player deck without the Don or the
// Madman: three mafiosi, the Commissar and the Nurse.
var rolesThreeHoldersNoMadman15 = []engine.Card{mafia.Mafioso, mafia.Mafioso, mafia.Mafioso, mafia.Commissar, mafia.Nurse,
	mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian,
	mafia.Civilian, mafia.Civilian, mafia.Civilian}

// With three kill holders (no Don) the morning says only who was
// attacked (the residue of leak L1, docs/mafia.md §11.3): across random
// deals of 15 seats with three mafiosi, with and without the Madman, the
// night where the three mafiosi all name a makes public exactly what the
// nights make where they split 2–1 for a (the lone vote first, in the
// middle or last in seat order) and 1–1–1 with the tie falling on a: the
// same effects, the same facts (no count, no coin) and the same phase,
// nothing normalized. The book's moderator announces the same for all: a
// attacked (and the Madman's c). Fails on the mixed tally, whose counts
// open as [3], [1 2] or [1 1 1] and whose 1–1–1 tie brings a coin.
func TestMafiaPluralityAgreeSplitUnseen(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	pick := func(n int, not ...int) int {
		for {
			if p := r.IntN(n); !slices.Contains(not, p) {
				return p
			}
		}
	}
	for game := range 40 {
		deal := slices.Clone(rolesThreeHolders15)
		if game%2 == 1 {
			deal = slices.Clone(rolesThreeHoldersNoMadman15)
		}
		n := len(deal)
		r.Shuffle(n, func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		var mafiosi []int
		for i, c := range deal {
			if mafia.IsMafia(c) {
				mafiosi = append(mafiosi, i)
			}
		}
		nurse, bfly, comm := slices.Index(deal, mafia.Nurse), slices.Index(deal, mafia.Butterfly), slices.Index(deal, mafia.Commissar)
		a := pick(n, mafiosi...)
		b := pick(n, append(mafiosi, a)...)
		c := pick(n, append(mafiosi, a, b)...) // the Madman's victim, when he plays
		d := pick(n, append(mafiosi, a, b, c)...)
		save, date, check := pick(n, nurse), pick(n, append(mafiosi, bfly)...), pick(n, comm)
		base := exactRecord(t, splitScript(deal, []int{a, a, a}, a, c, save, date, check))
		if !strings.Contains(base, "Plurality:3") {
			t.Fatalf("game %d: no plurality kill in the night:\n%s", game, base)
		}
		for _, other := range []struct{ what, src string }{
			{"2–1, the lone vote last", splitScript(deal, []int{a, a, b}, a, c, save, date, check)},
			{"2–1, the lone vote in the middle", splitScript(deal, []int{a, b, a}, a, c, save, date, check)},
			{"2–1, the lone vote first", splitScript(deal, []int{d, a, a}, a, c, save, date, check)},
			{"1–1–1, the tie falling on the first's vote", splitScript(deal, []int{a, b, d}, a, c, save, date, check)},
			{"1–1–1, the tie falling on the last's vote", splitScript(deal, []int{d, b, a}, a, c, save, date, check)},
		} {
			if got := exactRecord(t, other.src); got != base {
				t.Fatalf("game %d (%d seats): %s changes what is public:\n%s\nvs\n%s", game, n, other.what, base, got)
			}
		}
	}
}

// Through the real stack, 15 seats without the Don (three mafiosi and
// the Madman: a plurality kill, mental SPEC §9.9): the mafiosi split
// 1–1–1 between Igor, Lena and Oleg, the Madman names Katya; then, on
// the seat that split's pick fell on (v), they split 2–1 (v, v, another)
// and agree (v, v, v). crypto/rand is seeded alike for every game, so
// the shuffles place the votes alike. The transcripts differ in no
// entry's kind, author or size and in no opened value: the same lookups,
// the same votes' places, one true row among as many, the same pick (v
// and Katya attacked). Fails on the mixed tally (counts [1 1 1], [1 2],
// [3], and the 1–1–1 tie's coin round).
func TestRealMafiaPluralityAgreeSplitUnseen(t *testing.T) {
	if testing.Short() {
		t.Skip("15-seat games through the real stack")
	}
	roles := []engine.Card{mafia.Mafioso, mafia.Madman, mafia.Mafioso, mafia.Commissar, mafia.Mafioso, mafia.Nurse, mafia.Butterfly,
		mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian}
	script := func(kills [3]string) string {
		var b strings.Builder
		var rs []string
		for _, r := range roles {
			rs = append(rs, mafia.CardName(r))
		}
		fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names15, ","), strings.Join(rs, ","))
		for _, n := range names15 {
			fmt.Fprintf(&b, "%s hold no\n", n)
		}
		fmt.Fprintf(&b, "Anna kill %s\nClara kill %s\nEgor kill %s\nBoris kill Katya\n", kills[0], kills[1], kills[2])
		b.WriteString("Fedor save Roma\nGalya date Nina\nDima check Polina\n")
		return b.String()
	}
	run := func(kills [3]string) ([]string, string) {
		t.Helper()
		cryptotest.SetGlobalRandom(t, 27)
		lt, err := localplay.Run(mafia.Game{}, []byte(script(kills)), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		st := lt.View().Rules().(*mafia.State)
		attacked := ""
		for p := range engine.Seat(len(names15)) {
			if at, _, _ := st.Attacked(p); at {
				attacked += names15[p] + " "
			}
		}
		return publicRecord(t, lt.Transcript()), attacked
	}
	split, att := run([3]string{"Igor", "Lena", "Oleg"})
	var v string
	for _, f := range strings.Fields(att) {
		if f != "Katya" {
			v = f
		}
	}
	if len(strings.Fields(att)) != 2 || !strings.Contains(att, "Katya") || (v != "Igor" && v != "Lena" && v != "Oleg") {
		t.Fatalf("the 1–1–1 split: attacked %q", att)
	}
	other := "Igor"
	if v == other {
		other = "Lena"
	}
	recs := [][]string{split}
	for _, kills := range [][3]string{{v, other, v}, {v, v, v}} {
		rec, att2 := run(kills)
		if att2 != att {
			t.Fatalf("votes %v: attacked %q, want %q", kills, att2, att)
		}
		recs = append(recs, rec)
	}
	plural := 0
	for _, l := range split {
		if strings.Contains(l, "kill-table rows: 1 true") {
			plural++
		}
	}
	if plural != 1 {
		t.Fatalf("the night has %d plurality kills", plural)
	}
	for i := 1; i < len(recs); i++ {
		if !slices.Equal(recs[0], recs[i]) {
			for k := range min(len(recs[0]), len(recs[i])) {
				if recs[0][k] != recs[i][k] {
					t.Fatalf("game %d: line %d differs: %q vs %q", i, k, recs[0][k], recs[i][k])
				}
			}
			t.Fatalf("game %d: the records differ in length: %d vs %d", i, len(recs[0]), len(recs[i]))
		}
	}
}

// Through the real stack, 15 seats without the Don (three mafiosi and
// the Madman): the mafiosi name Igor, Igor and Lena and the Madman
// Katya; or Igor, Lena, Igor; or Katya, Katya, Lena and the Madman Igor.
// The Nurse saves Igor. Every shuffle, share and pick is proven and
// replayed; the transcripts differ in no entry's kind, author or size
// and in no opened value (a plurality kill: only the attacked open).
// Fails with the kill tally opened per target and the Madman's apart
// (leak L1).
func TestRealMafiaSplitUnseen(t *testing.T) {
	if testing.Short() {
		t.Skip("a 15-seat game through the real stack")
	}
	roles := []engine.Card{mafia.Mafioso, mafia.Madman, mafia.Mafioso, mafia.Commissar, mafia.Mafioso, mafia.Nurse, mafia.Butterfly,
		mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian}
	script := func(kills [3]string, mad string) string {
		var b strings.Builder
		var rs []string
		for _, r := range roles {
			rs = append(rs, mafia.CardName(r))
		}
		fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names15, ","), strings.Join(rs, ","))
		for _, n := range names15 {
			fmt.Fprintf(&b, "%s hold no\n", n)
		}
		fmt.Fprintf(&b, "Anna kill %s\nClara kill %s\nEgor kill %s\nBoris kill %s\n", kills[0], kills[1], kills[2], mad)
		b.WriteString("Fedor save Igor\nGalya date Nina\nDima check Oleg\n")
		b.WriteString("expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Lena,Misha,Nina,Oleg,Polina,Roma\n")
		return b.String()
	}
	var recs [][]string
	for _, v := range []struct {
		kills [3]string
		mad   string
	}{
		{[3]string{"Igor", "Igor", "Lena"}, "Katya"},
		{[3]string{"Igor", "Lena", "Igor"}, "Katya"},
		{[3]string{"Katya", "Katya", "Lena"}, "Igor"},
	} {
		// crypto/rand seeded alike: the shuffles put the votes at the
		// same places in each game.
		cryptotest.SetGlobalRandom(t, 27)
		lt, err := localplay.Run(mafia.Game{}, []byte(script(v.kills, v.mad)), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, publicRecord(t, lt.Transcript()))
	}
	for i := 1; i < len(recs); i++ {
		if !slices.Equal(recs[0], recs[i]) {
			for k := range min(len(recs[0]), len(recs[i])) {
				if recs[0][k] != recs[i][k] {
					t.Fatalf("game %d: line %d differs: %q vs %q", i, k, recs[0][k], recs[i][k])
				}
			}
			t.Fatalf("game %d: the records differ in length: %d vs %d", i, len(recs[0]), len(recs[i]))
		}
	}
}

// Through the real stack, 9 seats without the Don (two mafiosi and the
// Madman: a one-vote kill, mental SPEC §9.8): the mafiosi split between
// Egor and Fedor, or both name the seat the split's random pick fell on;
// the Madman names Igor. crypto/rand is seeded alike for both games, so
// the shuffles place the code sums alike. The transcripts differ in no
// entry's kind, author or size and in no opened value: as many tests,
// the same answers, the same pick (the victim and Igor attacked). Fails
// on the mixed tally (counts [1 1] against [2], and the split's coin
// round).
func TestRealMafiaAgreeSplitUnseen(t *testing.T) {
	if testing.Short() {
		t.Skip("9-seat games through the real stack")
	}
	names := names12[:9]
	script := func(kills [2]string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "game mafia players=%s roles=Madman,Mafioso,Mafioso,Commissar,Nurse,Civilian,Civilian,Civilian,Civilian incidents=off\n", strings.Join(names, ","))
		for _, n := range names {
			fmt.Fprintf(&b, "%s hold no\n", n)
		}
		fmt.Fprintf(&b, "Boris kill %s\nClara kill %s\nAnna kill Igor\nEgor save Galya\nDima check Fedor\n", kills[0], kills[1])
		return b.String()
	}
	run := func(kills [2]string) ([]string, string) {
		t.Helper()
		cryptotest.SetGlobalRandom(t, 27)
		lt, err := localplay.Run(mafia.Game{}, []byte(script(kills)), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		st := lt.View().Rules().(*mafia.State)
		attacked := ""
		for p := range engine.Seat(len(names)) {
			if at, _, _ := st.Attacked(p); at {
				attacked += names[p] + " "
			}
		}
		return publicRecord(t, lt.Transcript()), attacked
	}
	// The split first: its random pick names Egor or Fedor; then both
	// mafiosi name that seat.
	split, att := run([2]string{"Egor", "Fedor"})
	victim := strings.Fields(att)
	if len(victim) != 2 || victim[1] != "Igor" || (victim[0] != "Egor" && victim[0] != "Fedor") {
		t.Fatalf("the split: attacked %q", att)
	}
	base, att2 := run([2]string{victim[0], victim[0]})
	if att2 != att {
		t.Fatalf("agreeing on %s: attacked %q", victim[0], att2)
	}
	tests := 0
	for _, l := range base {
		if strings.Contains(l, "test of card") {
			tests++
		}
	}
	if tests == 0 {
		t.Fatal("the night has no blinded test")
	}
	if !slices.Equal(base, split) {
		for k := range min(len(base), len(split)) {
			if base[k] != split[k] {
				t.Fatalf("line %d differs: %q vs %q", k, base[k], split[k])
			}
		}
		t.Fatalf("the records differ in length: %d vs %d", len(base), len(split))
	}
}

// A seat's entry in the vote mix of a plurality kill (three mafiosi: the
// (code sum, count) cards, width 2, as the mixed tally's pairs were) that
// is not an honest shuffle of the cards it was given is refused, naming
// the seat and bad-shuffle: the previous seat's mix posted again (a
// reused shuffle), an honest shuffle with one count raised or two codes
// exchanged after proving, and a shuffle of the cards with one left out.
// A pick's share that is not the seat's share is bad-share. The honest
// entry is then accepted (the table is unchanged by the refusals).
func TestMafiaMixForgeriesRefused(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	if testing.Short() {
		t.Skip("a 15-seat game through the real stack")
	}
	// Three kill holders: a plurality kill (two would be a one-vote kill).
	roles := []engine.Card{mafia.Mafioso, mafia.Mafioso, mafia.Mafioso, mafia.Commissar, mafia.Nurse, mafia.Civilian,
		mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian, mafia.Civilian,
		mafia.Civilian, mafia.Civilian}
	names := names15
	var b strings.Builder
	var rs []string
	for _, r := range roles {
		rs = append(rs, mafia.CardName(r))
	}
	fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names, ","), strings.Join(rs, ","))
	for _, n := range names {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	b.WriteString("Anna kill Egor\nBoris kill Egor\nClara kill Igor\nDima check Fedor\nEgor save Galya\n")
	lt, err := localplay.Run(mafia.Game{}, []byte(b.String()), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	var prev *table.Body
	k := -1 // the second mix entry
	for i, e := range tr.Entries {
		body, err := table.UnmarshalBody(e.Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if body.Kind == table.BodyMix {
			if prev != nil {
				k = i
				break
			}
			prev = body
		}
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if k < 0 {
		t.Fatal("the game has no second mix entry")
	}
	seat := int(tr.Entries[k].Seat)
	in := rt.Pending().Cards
	ctx := rt.ShareContext(rt.Pos(), seat)
	jk := rt.Joint()
	refuse := func(what string, body *table.Body, reason string) {
		t.Helper()
		e, err := lt.Seats[seat].Player.Entry(rt, body)
		if err != nil {
			t.Fatal(err)
		}
		err = rt.Apply(e)
		var f *table.Fault
		if !errors.As(err, &f) || f.Reason != reason || f.Seat != seat {
			t.Fatalf("%s: %v, want %s by seat %d", what, err, reason, seat)
		}
	}
	refuse("the previous seat's mix again", prev, table.ReasonBadShuffle)
	for _, tc := range []struct {
		what   string
		tamper func([]mental.Card)
	}{
		{"a count raised after proving", func(d []mental.Card) {
			d[0][1].B = mental.Identity().Add(d[0][1].B, mental.Base())
		}},
		{"two codes exchanged after proving", func(d []mental.Card) { d[0][0], d[1][0] = d[1][0], d[0][0] }},
	} {
		out, p, err := jk.Shuffle(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		tc.tamper(out)
		refuse(tc.what, &table.Body{Kind: table.BodyMix, Deck: out, Shuffle: p}, table.ReasonBadShuffle)
	}
	out, p, err := jk.Shuffle(ctx, in[1:])
	if err != nil {
		t.Fatal(err)
	}
	refuse("a pair left out", &table.Body{Kind: table.BodyMix, Deck: out, Shuffle: p}, table.ReasonBadShuffle)
	// On to the pick: a seat posts shares made with another seat's card
	// key.
	for _, e := range tr.Entries[k:] {
		if r := rt.Pending(); r != nil && r.Kind == engine.EffectTally && r.PickTargets != nil {
			break
		}
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	r := rt.Pending()
	if r == nil || r.Kind != engine.EffectTally || r.PickTargets == nil {
		t.Fatal("no pick follows the mix")
	}
	_, s8, _ := rt.Next()
	seat = int(s8)
	other := lt.Seats[(seat+1)%len(lt.Seats)].Player.CardKey()
	bad := &table.Body{Kind: table.BodyShares}
	for k := range r.Cards {
		sh, err := other.Share(rt.ShareContext(rt.Pos(), seat), r.ShareCard(k))
		if err != nil {
			t.Fatal(err)
		}
		bad.Shares = append(bad.Shares, sh)
	}
	refuse("a pick share made with another seat's key", bad, table.ReasonBadShare)
}

// A seat's step of a one-vote kill's blinded identity test (mental SPEC
// §9.8) that is not its honest step of the card it was given is refused,
// naming the seat and bad-blind: the previous seat's step posted again,
// a step made with another seat's card key, the honest step with its
// output replaced by (identity, identity) (a vote turned into "no vote"),
// and an honest step of another shuffled card. A vote mix of width-2
// cards (the mixed tally's pairs) is bad-shuffle, and a shares body in
// place of a step wrong-body-kind. The honest entries are then accepted.
func TestMafiaBlindForgeriesRefused(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	names := names12[:9]
	var b strings.Builder
	fmt.Fprintf(&b, "game mafia players=%s roles=Madman,Mafioso,Mafioso,Commissar,Nurse,Civilian,Civilian,Civilian,Civilian incidents=off\n", strings.Join(names, ","))
	for _, n := range names {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	b.WriteString("Boris kill Egor\nClara kill Fedor\nAnna kill Igor\nEgor save Galya\nDima check Fedor\n")
	lt, err := localplay.Run(mafia.Game{}, []byte(b.String()), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	refuse := func(what string, seat int, body *table.Body, reason string) {
		t.Helper()
		e, err := lt.Seats[seat].Player.Entry(rt, body)
		if err != nil {
			t.Fatal(err)
		}
		err = rt.Apply(e)
		var f *table.Fault
		if !errors.As(err, &f) || f.Reason != reason || f.Seat != seat {
			t.Fatalf("%s: %v, want %s by seat %d", what, err, reason, seat)
		}
	}
	// Up to the first vote mix entry: a mix of the wrong width.
	i := 0
	for ; i < len(tr.Entries); i++ {
		body, err := table.UnmarshalBody(tr.Entries[i].Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if body.Kind == table.BodyMix {
			break
		}
		if err := rt.Apply(tr.Entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	r := rt.Pending()
	if r == nil || !r.Votes {
		t.Fatal("the night has no one-vote mix")
	}
	seat := int(tr.Entries[i].Seat)
	var pairs []mental.Card
	for _, c := range r.Cards {
		pairs = append(pairs, mental.Card{c[0], c[0]})
	}
	out, p, err := rt.Joint().Shuffle(rt.ShareContext(rt.Pos(), seat), pairs)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a vote mix of width-2 cards", seat, &table.Body{Kind: table.BodyMix, Deck: out, Shuffle: p}, table.ReasonBadShuffle)
	// Up to the second step of the first test.
	var prev *table.Body
	for ; i < len(tr.Entries); i++ {
		body, err := table.UnmarshalBody(tr.Entries[i].Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		if body.Kind == table.BodyBlind {
			if prev != nil {
				break
			}
			prev = body
		}
		if err := rt.Apply(tr.Entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	if prev == nil || i == len(tr.Entries) {
		t.Fatal("the game has no second step of a test")
	}
	r = rt.Pending()
	seat = int(tr.Entries[i].Seat)
	ctx := rt.ShareContext(rt.Pos(), seat)
	in := r.Cards[0]
	refuse("the previous seat's step again", seat, prev, table.ReasonBadBlind)
	other := lt.Seats[(seat+1)%len(lt.Seats)].Player.CardKey()
	st, err := other.BlindStep(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a step with another seat's key", seat, &table.Body{Kind: table.BodyBlind, Blinds: []*mental.BlindStep{st}}, table.ReasonBadBlind)
	own := lt.Seats[seat].Player.CardKey()
	st, err = own.BlindStep(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	clear(enc[:64]) // A′ = B′ = identity under the honest proof
	zero, err := mental.UnmarshalBlindStep(enc)
	if err != nil {
		t.Fatal(err)
	}
	refuse("the output replaced by (identity, identity)", seat, &table.Body{Kind: table.BodyBlind, Blinds: []*mental.BlindStep{zero}}, table.ReasonBadBlind)
	cards := rt.Mix(mafia.PowerKill)
	another := cards[(r.Test+1)%len(cards)]
	st, err = own.BlindStep(ctx, another)
	if err != nil {
		t.Fatal(err)
	}
	refuse("an honest step of another card", seat, &table.Body{Kind: table.BodyBlind, Blinds: []*mental.BlindStep{st}}, table.ReasonBadBlind)
	sh, err := own.Share(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a share in place of a step", seat, &table.Body{Kind: table.BodyShares, Shares: []*mental.Share{sh}}, table.ReasonWrongBodyKind)
	for ; i < len(tr.Entries); i++ {
		if err := rt.Apply(tr.Entries[i]); err != nil {
			t.Fatalf("the honest entry %d after the refusals: %v", i, err)
		}
	}
}

// butterflyScript is a 12-player game with incident cards on deal: the
// two seats a and b hold a Misfire each (everyone else a day card, so
// only they can answer a night attack), nobody votes on the first day,
// then night 2: the Don attacks a, the Madman b, the Nurse saves save,
// the Butterfly dates date and the Commissar checks check.
func butterflyScript(deal []engine.Card, a, b, save, date, check int) string {
	var bb strings.Builder
	var rs, hand []string
	day := []string{"Alibi", "Alibi", "Alibi", "Alibi", "EvidenceLeft", "EvidenceLeft", "EvidenceLeft", "EvidenceRight", "EvidenceRight", "EvidenceRight"}
	for i, r := range deal {
		rs = append(rs, mafia.CardName(r))
		if i == a || i == b {
			hand = append(hand, "Misfire")
		} else {
			hand, day = append(hand, day[0]), day[1:]
		}
	}
	fmt.Fprintf(&bb, "game mafia players=%s roles=%s deck=%s\n", strings.Join(names12, ","), strings.Join(rs, ","), strings.Join(hand, ","))
	for _, n := range names12 {
		fmt.Fprintf(&bb, "%s hold no\n", n)
	}
	for i, r := range deal {
		switch r {
		case mafia.Don:
			fmt.Fprintf(&bb, "%s kill %s\n", names12[i], names12[a])
		case mafia.Madman:
			fmt.Fprintf(&bb, "%s kill %s\n", names12[i], names12[b])
		case mafia.Nurse:
			fmt.Fprintf(&bb, "%s save %s\n", names12[i], names12[save])
		case mafia.Butterfly:
			fmt.Fprintf(&bb, "%s date %s\n", names12[i], names12[date])
		case mafia.Commissar:
			fmt.Fprintf(&bb, "%s check %s\n", names12[i], names12[check])
		}
	}
	return bb.String()
}

// answerRecord plays src on the fake table, then lets each seat's bot
// make the moves due (the attacked seats' answers, the date's) until the
// day vote, and returns everything public from the first answer on: the
// moves as text, every effect asked and every fact opened.
func answerRecord(t *testing.T, src string) string {
	t.Helper()
	_, tab, err := mafiatest.RunSource(src, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var rec []string
	for tab.State.Phase() != mafia.PhaseVote && !tab.State.Over() {
		need := tab.State.Next()
		if need.Kind != engine.NeedMove {
			t.Fatalf("want a move, the table needs %v\n%s", need.Kind, src)
		}
		m, ok := bot.New(need.Seat, 1).Move(tab.State, tab.Knowledge(need.Seat))
		if !ok {
			t.Fatalf("seat %d has no move", need.Seat)
		}
		if err := tab.Play(m); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		rec = append(rec, tab.Moves[len(tab.Moves)-1], fmt.Sprintf("effects %+v", tab.Last), fmt.Sprintf("facts %+v", tab.Facts))
	}
	return strings.Join(append(rec, fmt.Sprintf("alive %v phase %v", tab.State.Living(), tab.State.Phase())), "\n")
}

// A night answer with a card does not tell whether the answerer is the
// Night Butterfly (leak L3, docs/mafia.md §11.3). The Don attacks a and
// the Madman b, nobody saves either, both answer with a Misfire, and
// her date dies (or answers) after them. The book's moderator announces
// the same whether a or b is the Butterfly: "a and b were attacked", the
// cards they played, and the date's death. Across random deals, the
// game where a is the Butterfly and the one where a and b swap roles
// make the same moves, effects and facts public. Fails on the old
// claim, which each answer proved: "I am the Butterfly" or "I am not".
func TestMafiaButterflyAnswerUnseen(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	for game := range 30 {
		deal := slices.Clone(roles12)
		r.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
		bfly := slices.Index(deal, mafia.Butterfly)
		var civ []int
		for i, c := range deal {
			if c == mafia.Civilian {
				civ = append(civ, i)
			}
		}
		a, b := bfly, civ[r.IntN(len(civ))]
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		nurse, comm := slices.Index(deal, mafia.Nurse), slices.Index(deal, mafia.Commissar)
		save, date, check := otherThan(r, nurse, a, b), otherThan(r, a, b), otherThan(r, comm)
		swapped := slices.Clone(deal)
		swapped[a], swapped[b] = deal[b], deal[a]
		base := answerRecord(t, butterflyScript(deal, a, b, save, date, check))
		if got := answerRecord(t, butterflyScript(swapped, a, b, save, date, check)); got != base {
			t.Fatalf("game %d: whether %s or %s is the Butterfly changes what is public:\n%s\nvs\n%s", game, names12[a], names12[b], base, got)
		}
		if !strings.Contains(base, "play Misfire") {
			t.Fatalf("game %d: nobody answered with a card:\n%s", game, base)
		}
	}
}

// Through the real stack: the Don attacks Galya and the Madman Igor,
// both answer with a Misfire, and the Butterfly's date Lena then passes
// and dies. Galya is the Butterfly, or Igor is (their roles swapped).
// Every ballot, card proof and tally is proven and replayed; the
// transcripts differ in no entry's kind, author or size and in no
// opened value: the date opens from the sum of Galya's and Igor's date
// ballots, whichever of them holds the non-empty one.
func TestRealMafiaButterflyAnswerUnseen(t *testing.T) {
	if testing.Short() {
		t.Skip("a 12-seat game through the real stack")
	}
	script := func(galya, igor engine.Card) string {
		deal := slices.Clone(roles12)
		deal[6], deal[7] = galya, igor
		var rs []string
		for _, r := range deal {
			rs = append(rs, mafia.CardName(r))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "game mafia players=%s roles=%s deck=Alibi,Alibi,Alibi,Alibi,EvidenceLeft,EvidenceLeft,Misfire,Misfire,"+
			"EvidenceLeft,EvidenceRight,EvidenceRight,EvidenceRight\n", strings.Join(names12, ","), strings.Join(rs, ","))
		for _, n := range names12 {
			fmt.Fprintf(&b, "%s hold no\n", n)
		}
		bfly := map[bool]string{true: "Galya", false: "Igor"}[galya == mafia.Butterfly]
		fmt.Fprintf(&b, "Anna kill Galya\nBoris kill Igor\nFedor save Katya\n%s date Lena\nEgor check Anna\n", bfly)
		b.WriteString("Galya play Misfire\nIgor play Misfire\nLena pass\n")
		b.WriteString("expect alive=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Misha,Nina role=Lena:Civilian phase=vote\n")
		return b.String()
	}
	var recs [2][]string
	for i, v := range [][2]engine.Card{{mafia.Butterfly, mafia.Civilian}, {mafia.Civilian, mafia.Butterfly}} {
		lt, err := localplay.Run(mafia.Game{}, []byte(script(v[0], v[1])), nil, false)
		if err != nil {
			t.Fatal(err)
		}
		recs[i] = publicRecord(t, lt.Transcript())
	}
	if !slices.Equal(recs[0], recs[1]) {
		for k := range min(len(recs[0]), len(recs[1])) {
			if recs[0][k] != recs[1][k] {
				t.Fatalf("line %d differs: %q vs %q", k, recs[0][k], recs[1][k])
			}
		}
		t.Fatalf("the records differ in length: %d vs %d", len(recs[0]), len(recs[1]))
	}
	if !slices.Contains(recs[0], "  tally at seat 9: 1") {
		t.Fatalf("the date's tally did not open Lena:\n%s", strings.Join(recs[0], "\n"))
	}
}

// The answerers' date tally opens exactly the sum of the date ballots of
// the seats that answered with a card (L3). Six seats: Fedya (a
// Civilian) is attacked and moves the attack with a Ricochet to Anna,
// the Butterfly, who answers with a Misfire; her date is Dima. The
// table's cards for the tally are the sum of Anna's and Fedya's date
// ballots, component by component. A seat that posts proven shares of
// another sum is refused with bad-share, naming it: the sum without the
// Butterfly's ballot (which would spare her date: the false statement "no
// answerer is the Butterfly"), and the whole date tally (every voter's
// ballots, the same counts by other ciphertexts). A non-Butterfly cannot
// make its own date ballot count (mental's TestPowerBallotSoundness:
// a non-holder's vote is refused through either branch). The honest
// entry is then accepted.
func TestMafiaAnswerTallyForgeriesRefused(t *testing.T) {
	src := "game mafia players=Anna,Boris,Sasha,Dima,Egor,Fedya roles=Butterfly,Mafioso,Civilian,Civilian,Mafioso,Civilian " +
		"deck=Misfire,Alibi,Alibi,Alibi,Alibi,RicochetLeft\n" +
		"Anna hold no\nBoris hold no\nSasha hold no\nDima hold no\nEgor hold no\nFedya hold no\n" +
		"Boris kill Fedya\nEgor kill Fedya\nAnna date Dima\n" +
		"Fedya play RicochetLeft\nAnna play Misfire\n"
	lt, err := localplay.Run(mafia.Game{}, []byte(src), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	var dates *table.Request // the night's actions, for the date ballots
	k := -1
	for i, e := range tr.Entries {
		if r := rt.Pending(); r != nil && r.Kind == engine.EffectTally && len(r.Parts) == 1 && len(r.Parts[0].Voters) > 0 {
			k = i
			break
		}
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
		for _, r := range rt.CompletedAll() {
			if len(r.Posts) > 0 && slices.ContainsFunc(r.Parts, func(ef engine.Effect) bool { return ef.Power == mafia.PowerDate }) {
				dates = r
			}
		}
	}
	if k < 0 || dates == nil {
		t.Fatal("no tally of the answerers' date ballots")
	}
	r := rt.Pending()
	if want := []engine.Seat{0, 5}; !slices.Equal(r.Parts[0].Voters, want) {
		t.Fatalf("the answerers are %v, want %v", r.Parts[0].Voters, want)
	}
	j := slices.IndexFunc(dates.Parts, func(ef engine.Effect) bool { return ef.Power == mafia.PowerDate })
	sumOf := func(voters ...engine.Seat) []mental.Card {
		var bs []*mental.PowerBallot
		for i, v := range dates.Seats {
			if len(voters) == 0 || slices.Contains(voters, v) {
				bs = append(bs, dates.Posts[i][j].Ballot)
			}
		}
		sum, err := mental.AddPowerBallots(bs...)
		if err != nil {
			t.Fatal(err)
		}
		var out []mental.Card
		for _, target := range r.Targets {
			c, err := sum.Component(slices.Index(dates.Parts[j].Targets, target))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c)
		}
		return out
	}
	same := func(a, b []mental.Card) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !slices.EqualFunc(a[i], b[i], func(x, y mental.Ciphertext) bool { return x.A.Equal(y.A) == 1 && x.B.Equal(y.B) == 1 }) {
				return false
			}
		}
		return true
	}
	if !same(r.Cards, sumOf(0, 5)) {
		t.Fatal("the tally's cards are not the sum of Anna's and Fedya's date ballots")
	}
	_, s8, _ := rt.Next()
	seat := int(s8)
	key := lt.Seats[seat].Player.CardKey()
	for _, tc := range []struct {
		what  string
		cards []mental.Card
	}{
		{"the sum without the Butterfly's ballot", sumOf(5)},
		{"the whole date tally", sumOf()},
	} {
		bad := &table.Body{Kind: table.BodyShares}
		for _, c := range tc.cards {
			sh, err := key.Share(rt.ShareContext(rt.Pos(), seat), c)
			if err != nil {
				t.Fatal(err)
			}
			bad.Shares = append(bad.Shares, sh)
		}
		e, err := lt.Seats[seat].Player.Entry(rt, bad)
		if err != nil {
			t.Fatal(err)
		}
		var f *table.Fault
		if err := rt.Apply(e); !errors.As(err, &f) || f.Reason != table.ReasonBadShare || f.Seat != seat {
			t.Fatalf("%s: %v, want bad-share by seat %d", tc.what, err, seat)
		}
	}
	if err := rt.Apply(tr.Entries[k]); err != nil {
		t.Fatalf("the honest entry after the refusals: %v", err)
	}
}

// A seat's entry in a plurality kill (mental SPEC §9.9) that is not its
// honest one is refused, naming the seat and the rule: a count lookup
// that is another seat's posted again, one proven from another seat's
// ballot, and one whose W is moved by G after proving (bad-lookup); in
// the vote tests the previous seat's steps again, one step made with
// another seat's card key, one step too few and two steps exchanged
// (bad-blind); in the kill table's mix a row copied over another after
// an honest shuffle, and the vote mix's shuffle posted again
// (bad-shuffle); a lookup body where a step is due (wrong-body-kind).
// Each refusal leaves the table as it was: the honest entries that
// follow are accepted to the end of the night.
func TestMafiaPluralityForgeriesRefused(t *testing.T) {
	t.Parallel() // a real-stack game: CPU only, nothing shared
	if testing.Short() {
		t.Skip("a 15-seat game through the real stack")
	}
	var b strings.Builder
	var rs []string
	for _, r := range rolesThreeHoldersNoMadman15 {
		rs = append(rs, mafia.CardName(r))
	}
	fmt.Fprintf(&b, "game mafia players=%s roles=%s incidents=off\n", strings.Join(names15, ","), strings.Join(rs, ","))
	for _, n := range names15 {
		fmt.Fprintf(&b, "%s hold no\n", n)
	}
	b.WriteString("Anna kill Egor\nBoris kill Egor\nClara kill Igor\nDima check Fedor\nEgor save Galya\n")
	lt, err := localplay.Run(mafia.Game{}, []byte(b.String()), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mafia.Game{})
	if err != nil {
		t.Fatal(err)
	}
	jk := rt.Joint()
	at := 0                 // the next entry of tr to apply
	var kill *table.Request // the last kill ballots' actions request
	// until applies the honest entries until cond holds for the pending
	// request, and returns the seat due.
	until := func(what string, cond func(*table.Request) bool) int {
		t.Helper()
		for ; at < len(tr.Entries); at++ {
			if r := rt.Pending(); r != nil && cond(r) {
				_, s, _ := rt.Next()
				return int(s)
			}
			if err := rt.Apply(tr.Entries[at]); err != nil {
				t.Fatal(err)
			}
			for _, r := range rt.CompletedAll() {
				if r.Kind == engine.EffectBallot && len(r.Parts) > 0 && r.Parts[0].Kind == engine.EffectBallot && r.Parts[0].Power == mafia.PowerKill {
					kill = r
				}
			}
		}
		t.Fatalf("the game has no %s", what)
		return 0
	}
	body := func(i int) *table.Body {
		t.Helper()
		bd, err := table.UnmarshalBody(tr.Entries[i].Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		return bd
	}
	refuse := func(what string, seat int, bd *table.Body, reason string) {
		t.Helper()
		e, err := lt.Seats[seat].Player.Entry(rt, bd)
		if err != nil {
			t.Fatal(err)
		}
		err = rt.Apply(e)
		var f *table.Fault
		if !errors.As(err, &f) || f.Reason != reason || f.Seat != seat {
			t.Fatalf("%s: %v, want %s by seat %d", what, err, reason, seat)
		}
	}

	// The lookups: the first voter's entry.
	seat := until("count lookup", func(r *table.Request) bool { return r.Lookup })
	if int(tr.Entries[at+1].Seat) != seat+1 || body(at+1).Kind != table.BodyLookup {
		t.Fatal("the lookups are not posted in seat order")
	}
	refuse("the next seat's lookup", seat, body(at+1), table.ReasonBadLookup)
	// The kill ballots as posted, and their tally.
	if kill == nil {
		t.Fatal("no kill ballots")
	}
	var ballots []*mental.PowerBallot
	for i := range kill.Seats {
		ballots = append(ballots, kill.Posts[i][0].Ballot)
	}
	tally, err := mental.AddPowerBallots(ballots...)
	if err != nil {
		t.Fatal(err)
	}
	n := len(ballots[0].Entries)
	ctx := rt.ShareContext(rt.Pos(), seat)
	other := seat + 1
	var sec *mental.BallotSecret
	for _, enc := range lt.Seats[other].Player.BallotSecrets() {
		if s, err := mental.UnmarshalBallotSecret(enc, jk, ballots[other].Entries); err == nil {
			sec = s
		}
	}
	if sec == nil {
		t.Fatal("the next seat keeps no secret of its kill ballot")
	}
	l, err := mental.ProveCountLookup(ctx, jk, sec, tally)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a lookup proven from the next seat's ballot", seat, &table.Body{Kind: table.BodyLookup, Lookup: l, LookupTargets: n}, table.ReasonBadLookup)
	honest := body(at)
	enc, err := honest.Lookup.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var wb mental.Element
	if _, err := wb.SetCanonicalBytes(enc[32:64]); err != nil {
		t.Fatal(err)
	}
	copy(enc[32:64], mental.Identity().Add(&wb, mental.Base()).Bytes())
	moved, err := mental.UnmarshalCountLookup(enc, n)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a lookup whose W is moved by G", seat, &table.Body{Kind: table.BodyLookup, Lookup: moved, LookupTargets: n}, table.ReasonBadLookup)

	// The vote mix: remember the first shuffle for later.
	until("vote mix", func(r *table.Request) bool { return r.Mixed && r.Votes && r.Plurality > 0 })
	voteMix := body(at)
	// The vote tests: the second seat's entry.
	seat = until("vote test", func(r *table.Request) bool { return r.Tested && !r.Rows && r.Plurality > 0 && r.Next() == 1 })
	prev := body(at - 1)
	refuse("the previous seat's steps again", seat, prev, table.ReasonBadBlind)
	in := rt.Pending().Cards
	steps := func() []*mental.BlindStep {
		var out []*mental.BlindStep
		for _, c := range in {
			st, err := lt.Seats[seat].Player.CardKey().BlindStep(rt.ShareContext(rt.Pos(), seat), c)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, st)
		}
		return out
	}
	bad := steps()
	var err2 error
	if bad[0], err2 = lt.Seats[(seat+1)%len(lt.Seats)].Player.CardKey().BlindStep(rt.ShareContext(rt.Pos(), seat), in[0]); err2 != nil {
		t.Fatal(err2)
	}
	refuse("a step made with another seat's key", seat, &table.Body{Kind: table.BodyBlind, Blinds: bad}, table.ReasonBadBlind)
	short := steps()
	refuse("one step too few", seat, &table.Body{Kind: table.BodyBlind, Blinds: short[1:]}, table.ReasonBadBlind)
	swapped := steps()
	swapped[0], swapped[1] = swapped[1], swapped[0]
	refuse("two steps exchanged", seat, &table.Body{Kind: table.BodyBlind, Blinds: swapped}, table.ReasonBadBlind)
	refuse("a lookup where a step is due", seat, honest, table.ReasonWrongBodyKind)

	// The kill table's mix: the first shuffler's entry.
	seat = until("kill table mix", func(r *table.Request) bool { return r.Mixed && r.Rows })
	rows := rt.Pending().Cards
	if len(rows) != 5 {
		t.Fatalf("a kill table of %d rows for three votes, want 5", len(rows))
	}
	out, p, err := jk.Shuffle(rt.ShareContext(rt.Pos(), seat), rows)
	if err != nil {
		t.Fatal(err)
	}
	out[1] = out[0].Clone()
	refuse("a row copied over another", seat, &table.Body{Kind: table.BodyMix, Deck: out, Shuffle: p}, table.ReasonBadShuffle)
	refuse("the vote mix's shuffle again", seat, voteMix, table.ReasonBadShuffle)
	// The honest entries go on to the end.
	for ; at < len(tr.Entries); at++ {
		if err := rt.Apply(tr.Entries[at]); err != nil {
			t.Fatalf("entry %d after the refusals: %v", at, err)
		}
	}
}
