package mascarade2_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

const (
	four  = "game mascarade2 players=Anna,Boris,Sasha,Dima "
	five  = "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor "
	six   = "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya "
	eight = "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya "
	// prep8 are the preparatory turns and one peek each for the others.
	prep8 = scripttest.Prep4 + "Egor peek\nFedya peek\nGosha peek\nKatya peek\n"
	prep6 = scripttest.Prep4 + "Egor peek\nFedya peek\n"
	prep5 = scripttest.Prep4 + "Egor peek\n"
)

// TestMasks checks each mask's power, unchallenged and as a revealed owner.
func TestMasks(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		coins  map[string]int
		winner string // "" while the game goes on
	}{
		{"empress", four + "deal=Empress,King,Judge,Thief,Spy,Swindler" + scripttest.Prep4 + "Anna claim Empress",
			map[string]int{"Anna": 9, "bank": 173}, ""},
		{"king", four + "deal=King,Empress,Judge,Thief,Spy,Swindler" + scripttest.Prep4 + "Anna claim King",
			map[string]int{"Anna": 8}, ""},
		{"king-challenged-by-owner", four + "deal=Empress,King,Judge,Thief,Spy,Swindler" + scripttest.Prep4 + "Anna claim King\nBoris challenge",
			map[string]int{"Anna": 5, "Boris": 8, "court": 1}, ""},
		{"nobody-real", four + "deal=Empress,King,Judge,Spy,Thief,Swindler" + scripttest.Prep4 + "Anna claim Thief\nBoris challenge\nDima challenge",
			map[string]int{"Anna": 5, "Boris": 5, "Dima": 5, "Sasha": 6, "court": 3}, ""},
		{"widow-poor", five + "deal=Widow,King,Empress,Judge,Sorceress,Cheater,Beggar coins=3" + prep5 + "Anna claim Widow",
			map[string]int{"Anna": 10}, ""},
		{"widow-rich", five + "deal=Widow,King,Empress,Judge,Sorceress,Cheater,Beggar coins=11" + prep5 + "Anna claim Widow",
			map[string]int{"Anna": 11}, ""},
		{"thief", four + "deal=Thief,Empress,King,Judge,Spy,Swindler" + scripttest.Prep4 + "Anna claim Thief",
			map[string]int{"Anna": 8, "Boris": 5, "Dima": 5, "Sasha": 6}, ""},
		{"thief-takes-last-coin", four + "deal=Thief,Empress,King,Judge,Spy,Swindler coins=1" + scripttest.Prep4 + "Anna claim Thief",
			map[string]int{"Anna": 3, "Boris": 0, "Dima": 0}, "Anna"},
		{"judge", four + "deal=Empress,Judge,King,Thief,Spy,Swindler" + scripttest.Prep4 + "Anna claim King\nSasha challenge\nBoris peek\nSasha peek\nDima peek\nAnna peek\nBoris claim Judge",
			map[string]int{"Boris": 7, "court": 0}, ""},
		{"fool", "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha deal=Fool,Judge,Empress,King,Cheater,Thief,Sorceress" + scripttest.Prep4 +
			"Egor peek\nFedya peek\nGosha peek\nAnna claim Fool\nAnna use between=Boris,Gosha swap=no", map[string]int{"Anna": 7}, ""},
		{"swindler-unique", four + "deal=Swindler,King,Empress,Judge,Thief,Spy" + scripttest.Prep4 + "Anna peek\nBoris claim King\nSasha peek\nDima peek\nAnna claim Swindler",
			map[string]int{"Anna": 8, "Boris": 6}, ""},
		{"swindler-tie", four + "deal=Swindler,King,Empress,Judge,Thief,Spy" + scripttest.Prep4 + "Anna claim Swindler\nAnna use target=Sasha",
			map[string]int{"Anna": 8, "Sasha": 4}, ""},
		{"swindler-bankrupts", four + "deal=Swindler,King,Empress,Judge,Thief,Spy coins=1" + scripttest.Prep4 + "Anna claim Swindler\nAnna use target=Sasha",
			map[string]int{"Anna": 2, "Sasha": 0}, "Anna"},
		{"sorceress", five + "deal=Sorceress,King,Empress,Judge,Widow,Cheater,Beggar" + scripttest.Prep4 + "Egor claim Widow\nAnna claim Sorceress\nAnna use target=Egor",
			map[string]int{"Anna": 10, "Egor": 6}, ""},
		{"beggar", five + "deal=Beggar,King,Empress,Judge,Widow,Cheater,Sorceress" + scripttest.Prep4 + "Egor claim Widow\nAnna claim Beggar",
			map[string]int{"Anna": 7, "Egor": 9, "Boris": 6}, ""},
		{"patron", six + "set=Judge,Empress,King,Patron,Thief,Spy deal=Patron,Judge,Empress,King,Thief,Spy" + prep6 + "Anna claim Patron",
			map[string]int{"Anna": 9, "Boris": 7, "Fedya": 7, "Sasha": 6, "bank": 200 - 36 - 5}, ""},
		{"patron-neighbour-wins", six + "set=Judge,Empress,King,Patron,Thief,Spy deal=Patron,Judge,Empress,King,Thief,Spy coins=12" + prep6 + "Anna claim Patron",
			map[string]int{"Anna": 15, "Boris": 13, "Fedya": 13}, "Anna,Boris,Fedya"},
		{"cheater-rich", "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha deal=Cheater,Judge,Empress,King,Fool,Thief,Sorceress coins=10" + scripttest.Prep4 +
			"Egor peek\nFedya peek\nGosha peek\nAnna claim Cheater", map[string]int{"Anna": 10}, "Anna"},
		{"cheater-poor", "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha deal=Cheater,Judge,Empress,King,Fool,Thief,Sorceress coins=9" + scripttest.Prep4 +
			"Egor peek\nFedya peek\nGosha peek\nAnna claim Cheater", map[string]int{"Anna": 9}, ""},
		{"peasant-alone", eight + "deal=Peasant,Judge,King,Empress,Peasant,Guru,Spy,Sorceress" + prep8 + "Anna claim Peasant",
			map[string]int{"Anna": 7}, ""},
		{"peasant-pair", eight + "deal=Peasant,Judge,King,Empress,Peasant,Guru,Spy,Sorceress" + prep8 + "Anna claim Peasant\nEgor challenge",
			map[string]int{"Anna": 8, "Egor": 8}, ""},
		{"peasant-one-real", eight + "deal=Peasant,Judge,King,Empress,Peasant,Guru,Spy,Sorceress" + prep8 + "Anna claim Peasant\nBoris challenge",
			map[string]int{"Anna": 7, "Boris": 5, "court": 1}, ""},
		{"guru-wrong", eight + "deal=Guru,Judge,Peasant,King,Empress,Peasant,Spy,Sorceress" + prep8 + "Anna claim Guru\nAnna use target=Dima\nDima guess Guru",
			map[string]int{"Anna": 10, "Dima": 2}, ""},
		{"guru-right", eight + "deal=Guru,Judge,Peasant,King,Empress,Peasant,Spy,Sorceress" + prep8 + "Anna claim Guru\nAnna use target=Dima\nDima guess King",
			map[string]int{"Anna": 6, "Dima": 6}, ""},
		{"guru-exactly-four", eight + "deal=Guru,Judge,Peasant,King,Empress,Peasant,Spy,Sorceress coins=4" + prep8 + "Anna claim Guru\nAnna use target=Dima\nDima guess Judge",
			map[string]int{"Anna": 8, "Dima": 0}, "Anna"},
		{"princess", six + "deal=Princess,King,Empress,Judge,Puppeteer,Swindler" + prep6 + "Anna claim Princess\nAnna use target=Dima",
			map[string]int{"Anna": 8, "Dima": 6}, ""},
		{"princess-wins-before-choosing", six + "deal=Princess,King,Empress,Judge,Puppeteer,Swindler coins=11" + prep6 + "Anna claim Princess",
			map[string]int{"Anna": 13}, "Anna"},
		{"puppeteer", six + "deal=Puppeteer,King,Empress,Judge,Princess,Swindler" + prep6 + "Anna claim Puppeteer\nAnna use between=Sasha,Fedya",
			map[string]int{"Anna": 8, "Sasha": 5, "Fedya": 5}, ""},
		{"puppeteer-bankrupts-before-moving", six + "deal=Puppeteer,King,Empress,Judge,Princess,Swindler coins=1" + prep6 + "Anna claim Puppeteer\nAnna use between=Sasha,Fedya",
			map[string]int{"Anna": 3, "Sasha": 0, "Fedya": 0}, "Anna"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := edition.MustRun(t, tc.src).State
			edition.CoinsOf(t, s, tc.coins)
			scripttest.Outcome(t, s, tc.winner)
		})
	}
}

func TestPrincessShowsOthers(t *testing.T) {
	tab := edition.MustRun(t, six+"deal=Princess,King,Empress,Judge,Puppeteer,Swindler"+prep6+"Anna claim Princess\nAnna use target=Sasha")
	last := tab.Steps[len(tab.Steps)-1]
	if len(last.Effects) != 1 {
		t.Fatalf("Princess effects %v", last.Effects)
	}
	e := last.Effects[0]
	if e.Kind != engine.EffectShowOthers || e.Except != 2 || len(e.Slots) != 1 || e.Slots[0] != 2 {
		t.Fatalf("Princess effect %+v", e)
	}
	if len(last.Facts) != 0 || len(tab.State.LastRevealed()) != 0 {
		t.Errorf("the Princess revealed facts to the rules: %v", last.Facts)
	}
	seen := map[engine.Seat]bool{}
	for _, p := range last.Peeks {
		if p.Slot != 2 || p.Card != mascarade2.Empress {
			t.Errorf("peek %+v", p)
		}
		seen[p.By] = true
	}
	if len(seen) != 5 || seen[2] {
		t.Errorf("viewers %v: want everyone but Sasha", seen)
	}
	// Sasha was not forced to reveal: she may announce on her turn.
	if !tab.State.MayClaim(2) {
		t.Error("the Princess's target may not claim")
	}
}

func TestPuppeteerSeating(t *testing.T) {
	tab := edition.MustRun(t, six+"deal=Puppeteer,King,Empress,Judge,Princess,Swindler"+prep6+"Anna claim Puppeteer\nAnna use between=Boris,Egor")
	s := tab.State
	if got := s.Seating(); got[1] != 4 || got[4] != 1 || s.ChairOf(1) != 4 || s.ChairOf(4) != 1 {
		t.Fatalf("seating %v", got)
	}
	// Boris now sits before slot 4 (Princess), Egor before slot 1 (King).
	if s.SlotOf(1) != 4 || s.SlotOf(4) != 1 || s.SlotName(1) != "Egor" {
		t.Errorf("slots: Boris %d, Egor %d, slot 1 is %s", s.SlotOf(1), s.SlotOf(4), s.SlotName(1))
	}
	// The turn passes to the next chair: Egor now.
	if s.TurnSeat() != 4 {
		t.Errorf("next turn %s, want Egor", s.Name(s.TurnSeat()))
	}
	// Neighbours follow the chairs: Anna's left neighbour is Egor.
	tab2, err := edition.Run(t, six+"deal=Puppeteer,King,Empress,Judge,Princess,Swindler"+prep6+"Anna claim Puppeteer\nAnna use between=Boris,Egor\nEgor swap Anna no\n"+
		"Sasha peek\nDima peek\nBoris claim Princess\nBoris use target=Fedya\nFedya peek\nAnna claim Puppeteer\nAnna use between=Egor,Sasha")
	if err != nil {
		t.Fatal(err)
	}
	s = tab2.State
	edition.CoinsOf(t, s, map[string]int{"Anna": 10, "Boris": 7})
	if s.ChairOf(2) != 1 || s.ChairOf(4) != 2 || s.ChairOf(1) != 4 {
		t.Errorf("seating %v", s.Seating())
	}
	// A wrong Puppeteer choice.
	_, err = edition.Run(t, six+"deal=Puppeteer,King,Empress,Judge,Princess,Swindler"+prep6+"Anna claim Puppeteer\nAnna use between=Boris,Anna")
	if scripttest.RuleOf(err) != masquerade.RuleBadTarget {
		t.Errorf("Puppeteer moving herself: %v", err)
	}
}

func TestSpyAndFoolEffects(t *testing.T) {
	tab := edition.MustRun(t, four+"deal=Spy,King,Empress,Judge,Thief,Swindler"+scripttest.Prep4+"Anna claim Spy\nAnna use with=Dima swap=no")
	scripttest.SpyEffects(t, tab, 0, 3)
	_, err := edition.Run(t, four+"deal=Spy,King,Empress,Judge,Thief,Swindler"+scripttest.Prep4+"Anna claim Spy\nAnna use with=centre1 swap=no")
	if scripttest.RuleOf(err) != masquerade.RuleBadTarget {
		t.Errorf("Spy with a middle card: %v", err)
	}
	_, err = edition.Run(t, "game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha deal=Fool,Judge,Empress,King,Cheater,Thief,Sorceress"+scripttest.Prep4+
		"Egor peek\nFedya peek\nGosha peek\nAnna claim Fool\nAnna use between=Anna,Boris swap=yes")
	if scripttest.RuleOf(err) != masquerade.RuleBadTarget {
		t.Errorf("Fool with his own card: %v", err)
	}
}

func TestIllegalMoves(t *testing.T) {
	const g = four + "deal=Empress,King,Judge,Thief,Spy,Swindler\n"
	tests := []struct {
		name, src, rule string
	}{
		{"peek-preparatory", g + "Anna peek", masquerade.RulePreparatory},
		{"claim-preparatory", g + "Anna claim King", masquerade.RulePreparatory},
		{"not-your-turn", g + "Boris swap Anna no", masquerade.RuleNotYourTurn},
		{"swap-with-self", g + "Anna swap Anna no", masquerade.RuleBadTarget},
		{"swap-with-middle", g + "Anna swap centre2 yes", ""},
		{"not-in-play", g + scripttest.Prep4 + "Anna claim Widow", masquerade.RuleNotInPlay},
		{"use-without-choice", g + scripttest.Prep4 + "Anna claim King\nBoris pass\nSasha pass\nDima pass\nBoris guess King", masquerade.RuleWrongMove},
		{"challenge-out-of-window", g + scripttest.Prep4 + "Anna peek\nBoris challenge", masquerade.RuleWrongMove},
		{"revealed-may-peek", g + scripttest.Prep4 + "Anna claim King\nBoris challenge\nBoris peek", ""},
		{"revealed-may-swap", g + scripttest.Prep4 + "Anna claim King\nBoris challenge\nBoris swap Anna yes", ""},
		{"revealed-no-claim", g + scripttest.Prep4 + "Anna claim King\nBoris challenge\nBoris claim Judge", mascarade2.RuleRevealedClaim},
		{"swindler-not-richest", four + "deal=Swindler,King,Empress,Judge,Thief,Spy\n" + scripttest.Prep4 + "Anna peek\nBoris claim King\nSasha claim King\nDima peek\nAnna claim Swindler\nAnna use target=Dima", mascarade2.RuleNotRichest},
		{"sorceress-self", five + "deal=Sorceress,King,Empress,Judge,Widow,Cheater,Beggar\n" + prep5 + "Anna claim Sorceress\nAnna use target=Anna", masquerade.RuleBadTarget},
		{"guru-self", eight + "deal=Guru,Judge,Peasant,King,Empress,Peasant,Spy,Sorceress\n" + prep8 + "Anna claim Guru\nAnna use target=Anna", masquerade.RuleBadTarget},
		{"princess-self", six + "deal=Princess,King,Empress,Judge,Puppeteer,Swindler\n" + prep6 + "Anna claim Princess\nAnna use target=Anna", masquerade.RuleBadTarget},
		{"guess-not-in-play", eight + "deal=Guru,Judge,Peasant,King,Empress,Peasant,Spy,Sorceress\n" + prep8 + "Anna claim Guru\nAnna use target=Boris\nBoris guess Widow", masquerade.RuleNotInPlay},
		{"game-over", strings.Replace(g, "\n", " coins=1\n", 1) + scripttest.Prep4 + "Anna claim King\nBoris challenge\nSasha challenge\nDima challenge\nAnna peek", masquerade.RuleGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { edition.Illegal(t, tc.src, tc.rule) })
	}
}

func TestFactsProtocol(t *testing.T) {
	s, err := mascarade2.NewGame(mascarade2.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima"}},
		[]engine.Card{mascarade2.Empress, mascarade2.King, mascarade2.Judge, mascarade2.Thief, mascarade2.Spy, mascarade2.Swindler})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		s, _, err = s.Play(engine.Move{Seat: engine.Seat(i), Kind: mascarade2.KindSwap, Args: []int{i, (i + 1) % 4}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Know([]engine.Fact{{Slot: 0, Card: mascarade2.King}}); scripttest.RuleOf(err) != masquerade.RuleNoFactsWanted {
		t.Errorf("facts out of place: %v", err)
	}
	s, _, _ = s.Play(engine.Move{Seat: 0, Kind: mascarade2.KindClaim, Args: []int{int(mascarade2.King), 0}})
	s, _, _ = s.Play(engine.Move{Seat: 1, Kind: mascarade2.KindChallenge, Args: []int{1}})
	s, _, _ = s.Play(engine.Move{Seat: 2, Kind: mascarade2.KindPass})
	s2, eff, err := s.Play(engine.Move{Seat: 3, Kind: mascarade2.KindPass})
	if err != nil {
		t.Fatal(err)
	}
	if len(eff) != 1 || eff[0].Kind != engine.EffectReveal || len(eff[0].Slots) != 2 || s2.Next().Kind != engine.NeedFacts {
		t.Fatalf("reveal: %v, next %v", eff, s2.Next())
	}
	if _, _, err := s2.Play(engine.Move{Seat: 1, Kind: mascarade2.KindPass}); scripttest.RuleOf(err) != masquerade.RuleWaitingFacts {
		t.Errorf("move while facts are due: %v", err)
	}
	if _, _, err := s2.Know([]engine.Fact{{Slot: 1, Card: mascarade2.King}, {Slot: 0, Card: mascarade2.Empress}}); scripttest.RuleOf(err) != masquerade.RuleBadFacts {
		t.Errorf("facts in the wrong order: %v", err)
	}
	if _, _, err := s2.Know([]engine.Fact{{Slot: 0, Card: mascarade2.Widow}, {Slot: 1, Card: mascarade2.King}}); scripttest.RuleOf(err) != masquerade.RuleBadFacts {
		t.Errorf("a card not in play: %v", err)
	}
	s3, _, err := s2.Know([]engine.Fact{{Slot: 0, Card: mascarade2.Empress}, {Slot: 1, Card: mascarade2.King}})
	if err != nil {
		t.Fatal(err)
	}
	edition.CoinsOf(t, s3, map[string]int{"Anna": 5, "Boris": 8, "court": 1})
	// Boris was revealed in the previous turn: he may swap or look, not claim.
	kinds := map[uint8]bool{}
	for _, m := range s3.LegalMoves(1) {
		kinds[m.Kind] = true
	}
	if !kinds[mascarade2.KindSwap] || !kinds[mascarade2.KindPeek] || kinds[mascarade2.KindClaim] {
		t.Errorf("Boris's legal move kinds after a reveal: %v", kinds)
	}
	if st, _, err := s3.Apply(engine.Move{Seat: 0}); st != nil || err == nil {
		t.Errorf("Apply of an illegal move: %v, %v", st, err)
	}
}
