package mascarade_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

func TestCharacters(t *testing.T) {
	const four = "game mascarade players=Anna,Boris,Sasha,Dima "
	tests := []struct {
		name   string
		src    string
		coins  map[string]int
		winner string // "" while the game goes on
	}{
		{"king", four + "deal=King,Queen,Judge,Bishop,Thief,Cheat" + scripttest.Prep4 + "Anna claim King",
			map[string]int{"Anna": 9}, ""},
		{"queen", four + "deal=King,Queen,Judge,Bishop,Thief,Cheat" + scripttest.Prep4 + "Anna claim Queen",
			map[string]int{"Anna": 8}, ""},
		{"judge-empty-court", four + "deal=Judge,Queen,King,Bishop,Thief,Cheat" + scripttest.Prep4 + "Anna claim Judge",
			map[string]int{"Anna": 6, "court": 0}, ""},
		{"thief-4p", four + "deal=Thief,Queen,King,Bishop,Judge,Cheat" + scripttest.Prep4 + "Anna claim Thief",
			map[string]int{"Anna": 8, "Boris": 5, "Dima": 5, "Sasha": 6}, ""},
		{"bishop-unique", four + "deal=King,Bishop,Judge,Queen,Thief,Cheat" + scripttest.Prep4 +
			"Anna claim King\nBoris claim Bishop",
			map[string]int{"Anna": 7, "Boris": 8}, ""},
		{"bishop-tie", four + "deal=King,Bishop,Judge,Queen,Thief,Cheat" + scripttest.Prep4 +
			"Anna peek\nBoris claim Bishop\nBoris use target=Dima",
			map[string]int{"Anna": 6, "Boris": 8, "Dima": 4}, ""},
		{"cheat-unchallenged-rich", four + "deal=Cheat,Queen,King,Bishop,Judge,Thief coins=10" + scripttest.Prep4 + "Anna claim Cheat",
			map[string]int{"Anna": 10}, "Anna"},
		{"cheat-unchallenged-poor", four + "deal=Cheat,Queen,King,Bishop,Judge,Thief coins=9" + scripttest.Prep4 + "Anna claim Cheat",
			map[string]int{"Anna": 9}, ""},
		{"thirteen-wins", four + "deal=King,Queen,Judge,Bishop,Thief,Cheat coins=10" + scripttest.Prep4 + "Anna claim King",
			map[string]int{"Anna": 13}, "Anna"},
		{"widow-rich", "game mascarade players=Anna,Boris,Sasha,Dima deal=Widow,Queen,King,Judge,Bishop,Thief coins=11" + scripttest.Prep4 + "Anna claim Widow",
			map[string]int{"Anna": 11}, ""},
		{"widow-poor", "game mascarade players=Anna,Boris,Sasha,Dima deal=Widow,Queen,King,Judge,Bishop,Thief coins=3" + scripttest.Prep4 + "Anna claim Widow",
			map[string]int{"Anna": 10}, ""},
		{"fool", "game mascarade players=Anna,Boris,Sasha,Dima deal=Fool,Queen,King,Judge,Bishop,Thief" + scripttest.Prep4 +
			"Anna claim Fool\nAnna use between=Boris,Dima swap=yes",
			map[string]int{"Anna": 7}, ""},
		{"witch", "game mascarade players=Anna,Boris,Sasha,Dima deal=Witch,King,Queen,Judge,Bishop,Cheat" + scripttest.Prep4 +
			"Anna peek\nBoris claim King\nSasha peek\nDima peek\nAnna claim Witch\nAnna use target=Boris",
			map[string]int{"Anna": 9, "Boris": 6}, ""},
		{"fine-bankrupts-tie", four + "deal=Queen,King,Judge,Bishop,Thief,Cheat coins=1" + scripttest.Prep4 +
			"Anna claim King\nBoris challenge",
			map[string]int{"Anna": 0, "Boris": 4}, "Boris"},
		{"bishop-bankrupts", four + "deal=Bishop,Queen,King,Judge,Thief,Cheat coins=2" + scripttest.Prep4 +
			"Anna claim Bishop\nAnna use target=Boris",
			map[string]int{"Anna": 4, "Boris": 0}, "Anna"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := edition.MustRun(t, tc.src).State
			edition.CoinsOf(t, s, tc.coins)
			scripttest.Outcome(t, s, tc.winner)
		})
	}
}

func TestFoolSwapsCards(t *testing.T) {
	tab, err := edition.Run(t, "game mascarade players=Anna,Boris,Sasha,Dima deal=Fool,Queen,King,Judge,Bishop,Thief"+scripttest.Prep4+
		"Anna claim Fool\nAnna use between=Boris,Dima swap=yes")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Cards[1] != mascarade.Judge || tab.Cards[3] != mascarade.Queen {
		t.Errorf("cards after the Fool: %v", tab.Cards)
	}
	last := tab.Steps[len(tab.Steps)-1]
	if len(last.Effects) != 1 || last.Effects[0].Kind != engine.EffectSwap || last.Effects[0].By != 0 {
		t.Errorf("Fool effects %v", last.Effects)
	}
}

func TestSpyEffects(t *testing.T) {
	tab, err := edition.Run(t, "game mascarade players=Anna,Boris,Sasha,Dima deal=Spy,Queen,King,Judge,Bishop,Thief set=Spy,Queen,King,Judge,Bishop,Thief"+scripttest.Prep4+
		"Anna claim Spy\nAnna use with=centre1 swap=no")
	if err != nil {
		t.Fatal(err)
	}
	scripttest.SpyEffects(t, tab, 0, 4)
}

func TestVariants(t *testing.T) {
	const two = "game mascarade players=Anna,Boris deal=Queen,King,Judge,Bishop,Fool,Witch\n"
	const three = "game mascarade players=Anna,Boris,Sasha deal=Queen,Witch,Judge,Bishop,Fool,King\n"
	const prep2 = "Anna swap Anna.left Boris.left no\nBoris swap Boris.guard Anna.right no\nAnna swap Anna.guard Boris.right no\nBoris swap Boris.left Anna.left no\n"
	const prep3 = "Anna swap Anna.left Boris.left no\nBoris swap Boris.right Sasha.left no\nSasha swap Sasha.left Anna.right no\nAnna swap Anna.right Sasha.right no\n"
	tests := []struct {
		name  string
		src   string
		coins map[string]int
		rule  string // expected rule error, if any
	}{
		{"2p-claim-right", two + prep2 + "Anna claim Queen with=Anna.left", map[string]int{"Anna": 8}, ""},
		{"2p-claim-guard", two + prep2 + "Anna claim King with=Anna.guard", nil, masquerade.RuleNotYourSlot},
		{"2p-swap-opponent-guard", two + prep2 + "Anna swap Anna.left Boris.guard yes", nil, masquerade.RuleBadTarget},
		{"2p-swap-own-guard", two + prep2 + "Anna swap Anna.guard Boris.left yes", map[string]int{"Anna": 6}, ""},
		// The Polish book: "z inną swoją kartą (nawet chronioną)": one's own
		// cards with each other, the guard included (docs #27).
		{"2p-swap-own-cards", two + prep2 + "Anna swap Anna.guard Anna.left yes", map[string]int{"Anna": 6}, ""},
		{"2p-swap-own-left-right", two + prep2 + "Anna swap Anna.left Anna.right no", map[string]int{"Anna": 6}, ""},
		{"2p-swap-a-card-with-itself", two + prep2 + "Anna swap Anna.left Anna.left yes", nil, masquerade.RuleBadTarget},
		{"2p-challenge-with-guard", two + prep2 + "Anna claim Judge with=Anna.left\nBoris challenge with=Boris.guard",
			map[string]int{"Anna": 5, "Boris": 5, "court": 2}, ""},
		{"2p-peek-guard", two + prep2 + "Anna peek Anna.guard", map[string]int{"Anna": 6}, ""},
		{"3p-claim-left", three + prep3 + "Boris claim Fool with=Boris.left\nBoris use between=Anna.left,Sasha.right swap=yes",
			map[string]int{"Boris": 7}, ""},
		{"3p-fool-same-player", three + prep3 + "Boris claim Fool with=Boris.left\nBoris use between=Anna.left,Anna.right swap=yes",
			nil, masquerade.RuleBadTarget},
		// The Polish book: "lub z drugą swoją kartą" (docs #26).
		{"3p-swap-own-cards", three + prep3 + "Boris swap Boris.left Boris.right yes", map[string]int{"Boris": 6}, ""},
		{"3p-challenge", three + prep3 + "Boris claim King with=Boris.left\nSasha challenge with=Sasha.right",
			map[string]int{"Boris": 5, "Sasha": 9, "court": 1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := edition.Run(t, tc.src)
			if tc.rule != "" {
				var re *engine.RuleError
				if !errors.As(err, &re) || re.Rule != tc.rule {
					t.Fatalf("error %v, want rule %s", err, tc.rule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			edition.CoinsOf(t, tab.State, tc.coins)
		})
	}
}

func TestThiefNeighbours(t *testing.T) {
	// 3 players: the two others; 2 players: the single opponent, once.
	s := edition.MustRun(t, "game mascarade players=Anna,Boris,Sasha set=Judge,Thief,King,Queen,Fool,Bishop deal=Thief,King,Judge,Queen,Fool,Bishop\n"+
		"Anna swap Anna.left Boris.left no\nBoris swap Boris.left Sasha.left no\nSasha swap Sasha.left Anna.left no\nAnna swap Anna.left Boris.left no\n"+
		"Boris peek Boris.left\nSasha peek Sasha.left\nAnna claim Thief with=Anna.left").State
	edition.CoinsOf(t, s, map[string]int{"Anna": 8, "Boris": 5, "Sasha": 5})
	s = edition.MustRun(t, "game mascarade players=Anna,Boris set=Judge,Thief,King,Queen,Fool,Bishop deal=Thief,King,Judge,Queen,Fool,Bishop\n"+
		"Anna swap Anna.left Boris.left no\nBoris swap Boris.left Anna.left no\nAnna swap Anna.left Boris.left no\nBoris swap Boris.left Anna.left no\n"+
		"Anna claim Thief with=Anna.left").State
	edition.CoinsOf(t, s, map[string]int{"Anna": 7, "Boris": 5})
}

func TestIllegalMoves(t *testing.T) {
	const g = "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,King,Judge,Bishop,Thief,Cheat\n"
	tests := []struct {
		name, src, rule string
	}{
		{"peek-preparatory", g + "Anna peek", masquerade.RulePreparatory},
		{"claim-preparatory", g + "Anna claim Queen", masquerade.RulePreparatory},
		{"not-your-turn", g + "Boris swap Anna no", masquerade.RuleNotYourTurn},
		{"swap-with-self", g + "Anna swap Anna no", masquerade.RuleBadTarget},
		{"not-in-play", g + scripttest.Prep4 + "Anna claim Witch", masquerade.RuleNotInPlay},
		{"use-without-choice", g + scripttest.Prep4 + "Anna claim Queen\nBoris pass\nSasha pass\nDima pass\nBoris guess Queen", masquerade.RuleWrongMove},
		{"challenge-out-of-window", g + scripttest.Prep4 + "Anna peek\nBoris challenge", masquerade.RuleWrongMove},
		{"bishop-not-richest", g + scripttest.Prep4 + "Anna claim Queen\nBoris peek\nSasha peek\nDima claim Bishop", ""},
		{"witch-self", "game mascarade players=Anna,Boris,Sasha,Dima deal=Witch,King,Queen,Judge,Bishop,Cheat\n" + scripttest.Prep4 + "Anna claim Witch\nAnna use target=Anna", masquerade.RuleBadTarget},
		{"inquisitor-self", "game mascarade players=A1,A2,A3,A4,A5,A6,A7,A8 deal=Inquisitor,King,Queen,Judge,Bishop,Peasant,Peasant,Fool\n" +
			"A1 swap A2 no\nA2 swap A3 no\nA3 swap A4 no\nA4 swap A5 no\nA5 peek\nA6 peek\nA7 peek\nA8 peek\nA1 claim Inquisitor\nA1 use target=A1", masquerade.RuleBadTarget},
		{"game-over", strings.Replace(g, "\n", " coins=1\n", 1) + scripttest.Prep4 + "Anna claim King\nBoris challenge\nSasha challenge\nDima challenge\nAnna peek", masquerade.RuleGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { edition.Illegal(t, tc.src, tc.rule) })
	}
}

func TestBishopTieNeedsChoice(t *testing.T) {
	tab, err := edition.Run(t, "game mascarade players=Anna,Boris,Sasha,Dima deal=King,Bishop,Judge,Queen,Thief,Cheat"+scripttest.Prep4+
		"Anna peek\nBoris claim Bishop")
	if err != nil {
		t.Fatal(err)
	}
	s := tab.State
	if u, ok := s.Resolving(); !ok || u.Seat != 1 || s.Next().Seat != 1 {
		t.Fatalf("Bishop tie: resolving %v %v, next %v", u, ok, s.Next())
	}
	_, _, err = s.Play(engine.Move{Seat: 1, Kind: mascarade.KindUse, Args: []int{1}})
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Rule != mascarade.RuleNotRichest {
		t.Fatalf("Bishop taking from himself: %v", err)
	}
	if got := len(s.LegalMoves(1)); got != 3 {
		t.Errorf("%d legal Bishop targets, want 3", got)
	}
}

func TestFactsProtocol(t *testing.T) {
	s, err := mascarade.NewGame(mascarade.Options{Players: []string{"Anna", "Boris", "Sasha", "Dima"}},
		[]engine.Card{mascarade.Queen, mascarade.King, mascarade.Judge, mascarade.Bishop, mascarade.Thief, mascarade.Cheat})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		s, _, err = s.Play(engine.Move{Seat: engine.Seat(i), Kind: mascarade.KindSwap, Args: []int{i, (i + 1) % 4}})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Know([]engine.Fact{{Slot: 0, Card: mascarade.King}}); scripttest.RuleOf(err) != masquerade.RuleNoFactsWanted {
		t.Errorf("facts out of place: %v", err)
	}
	s, _, _ = s.Play(engine.Move{Seat: 0, Kind: mascarade.KindClaim, Args: []int{int(mascarade.King), 0}})
	s, _, _ = s.Play(engine.Move{Seat: 1, Kind: mascarade.KindChallenge, Args: []int{1}})
	s, _, _ = s.Play(engine.Move{Seat: 2, Kind: mascarade.KindPass})
	s2, eff, err := s.Play(engine.Move{Seat: 3, Kind: mascarade.KindPass})
	if err != nil {
		t.Fatal(err)
	}
	if len(eff) != 1 || eff[0].Kind != engine.EffectReveal || len(eff[0].Slots) != 2 || s2.Next().Kind != engine.NeedFacts {
		t.Fatalf("reveal: %v, next %v", eff, s2.Next())
	}
	if _, _, err := s2.Play(engine.Move{Seat: 1, Kind: mascarade.KindPass}); scripttest.RuleOf(err) != masquerade.RuleWaitingFacts {
		t.Errorf("move while facts are due: %v", err)
	}
	if _, _, err := s2.Know([]engine.Fact{{Slot: 1, Card: mascarade.King}, {Slot: 0, Card: mascarade.Queen}}); scripttest.RuleOf(err) != masquerade.RuleBadFacts {
		t.Errorf("facts in the wrong order: %v", err)
	}
	if _, _, err := s2.Know([]engine.Fact{{Slot: 0, Card: mascarade.Witch}, {Slot: 1, Card: mascarade.King}}); scripttest.RuleOf(err) != masquerade.RuleBadFacts {
		t.Errorf("a card not in play: %v", err)
	}
	s3, _, err := s2.Know([]engine.Fact{{Slot: 0, Card: mascarade.Queen}, {Slot: 1, Card: mascarade.King}})
	if err != nil {
		t.Fatal(err)
	}
	edition.CoinsOf(t, s3, map[string]int{"Anna": 5, "Boris": 9, "court": 1})
	// Boris was revealed in the previous turn, and it is his turn: swap only.
	for _, m := range s3.LegalMoves(1) {
		if m.Kind != mascarade.KindSwap {
			t.Fatalf("Boris may %s after being revealed", mascarade.FormatMove(s3, m))
		}
	}
	// Apply through the engine interface returns a nil State on error.
	if st, _, err := s3.Apply(engine.Move{Seat: 0}); st != nil || err == nil {
		t.Errorf("Apply of an illegal move: %v, %v", st, err)
	}
}
