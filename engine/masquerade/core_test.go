package masquerade

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// Cards of the fake game: a plain power, a power that needs a choice,
// and a shared one.
const (
	cardPay    engine.Card = 1 // takes 2 coins from the bank
	cardChoose engine.Card = 2 // must choose (any use ends the choice)
	cardShare  engine.Card = 3 // paid to all owners at once
)

var fakeCards = &Catalogue{Game: "fake", Noun: "card", Cards: []CardInfo{
	{Card: cardPay, Name: "Pay"}, {Card: cardChoose, Name: "Choose"}, {Card: cardShare, Name: "Share"},
}}

// fake is a game on the core: one card per seat (slot p), seats in
// clockwise order.
type fake struct{ c *Core }

func (f fake) Players() int              { return len(f.c.Purse) }
func (f fake) Name(p engine.Seat) string { return string(rune('A' + p)) }
func (f fake) TurnSeat() engine.Seat     { return engine.Seat(f.c.TurnAt) }
func (f fake) SeatAfter(p engine.Seat, k int) engine.Seat {
	n := f.Players()
	return engine.Seat(((int(p)+k)%n + n) % n)
}
func (f fake) Owns(p engine.Seat, t engine.Slot) bool         { return int(t) == int(p) }
func (f fake) CardOf(p engine.Seat) engine.Slot               { return engine.Slot(p) }
func (f fake) Cards() *Catalogue                              { return fakeCards }
func (f fake) InPlay(k engine.Card) bool                      { return fakeCards.Valid(k) }
func (f fake) Shared() bool                                   { return f.c.Claimed == cardShare }
func (f fake) PlayUse(m engine.Move) ([]engine.Effect, error) { Continue(f.c, f); return nil, nil }
func (f fake) PlayTurn(m engine.Move) ([]engine.Effect, error) {
	switch m.Kind {
	case KindClaim:
		OpenClaim(f.c, engine.Card(m.Args[0]), Contender{Seat: m.Seat, Slot: engine.Slot(m.Seat)})
	default:
		EndTurn(f.c)
	}
	return nil, nil
}

func (f fake) Power(o Contender) bool {
	switch f.c.Claimed {
	case cardPay:
		Transfer(&f.c.BankCoins, &f.c.Purse[o.Seat], 2)
	case cardChoose:
		return true
	}
	return false
}

// play checks and plays m on a clone of c, as the games do.
func play(t *testing.T, c Core, m engine.Move) (Core, []engine.Effect) {
	t.Helper()
	if err := CheckMove(&c, m, fake{&c}); err != nil {
		t.Fatalf("%v: %v", m, err)
	}
	n := CloneCore(&c)
	eff, err := PlayMove(&n, m, fake{&n})
	if err != nil {
		t.Fatalf("%v: %v", m, err)
	}
	return n, eff
}

func ruleOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return ""
}

func encode(c *Core) []byte {
	b := cryptobyte.NewBuilder(nil)
	AppendCore(c, b)
	return b.BytesOrPanic()
}

func TestCoreChallengeAndFine(t *testing.T) {
	c := NewCore(3, 6, 100)
	if c.Total() != 100 || c.Bank() != 82 || c.Turn() != 1 || !c.Preparatory() {
		t.Fatalf("new core: total %d bank %d turn %d", c.Total(), c.Bank(), c.Turn())
	}
	c.TurnNo = PreparatoryTurns + 1
	c, _ = play(t, c, engine.Move{Seat: 0, Kind: KindClaim, Args: []int{int(cardPay)}})
	if !c.InChallengeWindow() {
		t.Fatal("no challenge window after a claim")
	}
	if err := CheckMove(&c, engine.Move{Seat: 2, Kind: KindPass}, fake{&c}); ruleOf(err) != RuleNotYourTurn {
		t.Errorf("seat 2 answering before seat 1: %v", err)
	}
	c, _ = play(t, c, engine.Move{Seat: 1, Kind: KindChallenge, Args: []int{1}})
	c, eff := play(t, c, engine.Move{Seat: 2, Kind: KindPass})
	if len(eff) != 1 || eff[0].Kind != engine.EffectReveal || !slices.Equal(eff[0].Slots, []engine.Slot{0, 1}) {
		t.Fatalf("reveal effect %v", eff)
	}
	if err := CheckMove(&c, engine.Move{Seat: 0, Kind: KindPass}, fake{&c}); ruleOf(err) != RuleWaitingFacts {
		t.Errorf("move while facts are due: %v", err)
	}
	if err := CheckFacts(&c, []engine.Fact{{Slot: 1, Card: cardPay}, {Slot: 0, Card: cardChoose}}, fake{&c}); ruleOf(err) != RuleBadFacts {
		t.Errorf("facts in the wrong order: %v", err)
	}
	if err := CheckFacts(&c, []engine.Fact{{Slot: 0, Card: 9}, {Slot: 1, Card: cardPay}}, fake{&c}); ruleOf(err) != RuleBadFacts {
		t.Errorf("a card not in play: %v", err)
	}
	facts := []engine.Fact{{Slot: 0, Card: cardChoose}, {Slot: 1, Card: cardPay}}
	if err := CheckFacts(&c, facts, fake{&c}); err != nil {
		t.Fatal(err)
	}
	before := CloneCore(&c)
	TakeFacts(&c, facts, fake{&c})
	// Seat 1 owns the card: it takes 2, then seat 0, the impostor, is fined.
	if got := c.AllCoins(); !slices.Equal(got, []int{5, 8, 6}) || c.Court() != Fine || c.Total() != 100 {
		t.Errorf("coins %v court %d total %d", got, c.Court(), c.Total())
	}
	if c.TurnAt != 1 || c.Phase != PhaseTurn || !c.RevealedPrev[0] || !c.RevealedPrev[1] || c.RevealedPrev[2] {
		t.Errorf("after the turn: turn at %d, phase %d, revealed %v", c.TurnAt, c.Phase, c.RevealedPrev)
	}
	if _, _, ok := c.Claim(); ok || len(c.LastRevealed()) != 2 {
		t.Errorf("claim still open, or reveal lost: %v", c.LastRevealed())
	}
	if before.Purse[1] != 6 || before.Phase != PhaseReveal {
		t.Errorf("the clone was changed: %v %d", before.Purse, before.Phase)
	}
	if bytes.Equal(encode(&before), encode(&c)) || !bytes.Equal(encode(&c), encode(new(CloneCore(&c)))) {
		t.Error("the encoding does not follow the state")
	}
}

func TestCoreSharedAndChoice(t *testing.T) {
	c := NewCore(4, 6, 100)
	c.TurnNo = PreparatoryTurns + 1
	c.Claimed, c.Phase = cardShare, PhaseReveal
	c.Contenders = []Contender{{Seat: 0, Slot: 0}, {Seat: 1, Slot: 1}, {Seat: 2, Slot: 2}}
	c.Pending = []engine.Slot{0, 1, 2}
	TakeFacts(&c, []engine.Fact{{Slot: 0, Card: cardShare}, {Slot: 1, Card: cardPay}, {Slot: 2, Card: cardShare}}, fake{&c})
	if got := c.AllCoins(); !slices.Equal(got, []int{8, 5, 8, 6}) {
		t.Errorf("two owners of a shared power: coins %v", got)
	}
	c.TurnAt, c.Claimed, c.Phase = 1, cardChoose, PhaseRespond
	c.Contenders, c.Responder = []Contender{{Seat: 1, Slot: 1}}, 1
	for _, p := range []engine.Seat{2, 3, 0} {
		c, _ = play(t, c, engine.Move{Seat: p, Kind: KindPass})
	}
	if u, ok := c.Resolving(); !ok || u.Seat != 1 || Need(&c, fake{&c}).Seat != 1 {
		t.Fatalf("unchallenged owner does not choose: %v %v", u, ok)
	}
	c, _ = play(t, c, engine.Move{Seat: 1, Kind: KindUse})
	if c.Phase != PhaseTurn || c.TurnAt != 2 {
		t.Errorf("the choice did not end the turn: phase %d, turn at %d", c.Phase, c.TurnAt)
	}
}

func TestCoreEnd(t *testing.T) {
	c := NewCore(3, 6, 100)
	c.Purse[2] = WinCoins - 1
	c.Claimed, c.Queue, c.Phase = cardPay, []Contender{{Seat: 2, Slot: 2}}, PhaseUse
	Resolve(&c, fake{&c})
	if !c.Over() || !slices.Equal(c.Winners(), []engine.Seat{2}) || Need(&c, fake{&c}).Kind != engine.NeedNothing {
		t.Errorf("over %v, winners %v", c.Over(), c.Winners())
	}
	if err := CheckMove(&c, engine.Move{Seat: 0, Kind: KindPass}, fake{&c}); ruleOf(err) != RuleGameOver {
		t.Errorf("move after the end: %v", err)
	}
	d := NewCore(3, 6, 100)
	d.Purse[0], d.Purse[1] = 0, 7
	if !CheckEnd(&d) || !slices.Equal(d.Winners(), []engine.Seat{1}) {
		t.Errorf("a bankrupt seat: winners %v", d.Winners())
	}
}
