package phoneseat

import (
	"fmt"
	"testing"

	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
)

// pluralityNight is a 15-seat Mafia night with three kill holders and no
// Don (mental SPEC §9.9): its kill runs count lookups (entry kind 11)
// and blind bodies (kind 10), which each seat's masque posts by itself.
const pluralityNight = `game mafia players=Anna,Boris,Clara,Dima,Egor,Fedor,Galya,Igor,Katya,Lena,Misha,Nina,Oleg,Polina,Roma roles=Mafioso,Madman,Mafioso,Commissar,Mafioso,Nurse,Butterfly,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian,Civilian incidents=off
` + `Anna hold no
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
Oleg hold no
Polina hold no
Roma hold no
Anna kill Igor
Clara kill Lena
Egor kill Igor
Boris kill Katya
Fedor save Roma
Galya date Nina
Dima check Polina
`

// TestPhoneWaitsForNightCountInWords: while the table waits for a seat's
// blind body (kind 10) or count lookup (kind 11), the phone page says
// what for, as it says "bob's shuffle": it said only "waiting for Clara",
// which reads as Clara being slow to choose, when no person chooses
// anything (her masque posts it).
func TestPhoneWaitsForNightCountInWords(t *testing.T) {
	if testing.Short() {
		t.Skip("a 15-seat Mafia night through the real stack")
	}
	sc, err := (mafia.Game{}).ParseScript([]byte(pluralityNight), nil)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := sc.Table()
	if err != nil {
		t.Fatal(err)
	}
	lt, err := local.New(mafia.Game{}.Table(), sc.Seats(), opts)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := New("Misha", Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[table.BodyKind]int{}
	lt.OnEntry = func(*ledger.Entry) {
		tab := lt.View()
		seat, kind, ok := tab.Expect()
		if !ok || (kind != table.BodyBlind && kind != table.BodyLookup) {
			return
		}
		seen[kind]++
		name := sc.Seats()[seat]
		p.tab, p.seat = tab, 10
		p.waitName, p.waitSeat, p.waitPos = name, int(seat), tab.Pos()
		got := p.waitWhat(nil)
		want := name + "'s count of the night's votes (their masque sends it by itself)"
		if kind == table.BodyBlind {
			want = name + "'s step of the secret test of the night's votes (their masque sends it by itself)"
		}
		if got != want && seen[kind] < 3 {
			t.Errorf("waiting for %s's %s entry: the phone says %q, want %q", name, kind, got, want)
		}
	}
	if err := sc.Play(localplay.Table{Table: lt}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []table.BodyKind{table.BodyBlind, table.BodyLookup} {
		if seen[k] == 0 {
			t.Errorf("the night posted no %s entry: %v", k, fmt.Sprint(seen))
		}
	}
}
