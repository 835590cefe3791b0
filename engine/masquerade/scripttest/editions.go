package scripttest

import (
	"encoding"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/masquerade"
)

// Edition is what the family's tests of an edition ([masquerade.State]
// of O and E) take from its package.
type Edition[O encoding.BinaryMarshaler, E masquerade.Of[O]] struct {
	// Parse reads a script (scenario files from testdata/).
	Parse func(src []byte) (*masquerade.Script[O, E], error)
	// ParseCard reads a card's name; BoxCoins is the box's coins.
	ParseCard func(string) (engine.Card, error)
	BoxCoins  int
	// Options returns the options of the default game for players;
	// Unmarshal reads options strictly.
	Options   func(players []string) O
	Unmarshal func(data []byte) (O, error)
}

// NewEdition returns an edition's [Edition] (its type arguments, which
// its package may not name, are inferred from parse).
func NewEdition[O encoding.BinaryMarshaler, E masquerade.Of[O]](parse func(src []byte) (*masquerade.Script[O, E], error),
	parseCard func(string) (engine.Card, error), boxCoins int,
	options func(players []string) O, unmarshal func(data []byte) (O, error)) Edition[O, E] {
	return Edition[O, E]{Parse: parse, ParseCard: parseCard, BoxCoins: boxCoins, Options: options, Unmarshal: unmarshal}
}

// Scripts plays every script file matching pattern (testdata/*.txt) on
// the oracle and checks the outcome its comments state ([RunScripts]):
//
//	# expect: NAME=COINS court=N bank=N turn=N over=true|false winners=A,B|none
//	# expect: next=NAME card.SLOT=Card chair.NAME=N mustswap=NAME noclaim=NAME revealed=SLOT:Card,...
//	# expect-error: line=N rule=RULE
func (e Edition[O, E]) Scripts(t *testing.T, pattern string) {
	t.Helper()
	RunScripts(t, pattern, func(t *testing.T, src []byte) (*masquerade.Oracle[*masquerade.State[O, E]], []masquerade.ScriptLine) {
		sc, err := e.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		s, err := masquerade.NewState[O, E](sc.Options, sc.OracleDeal())
		if err != nil {
			t.Fatal(err)
		}
		return masquerade.OracleOf("scripttest", s, sc.OracleDeal()), sc.Lines
	}, e.expect)
}

// expect checks one "# expect:" KEY=VALUE against tab (see [Edition.Scripts]).
func (e Edition[O, E]) expect(t *testing.T, tab *masquerade.Oracle[*masquerade.State[O, E]], k, v string) {
	t.Helper()
	s := tab.State
	cardName := masquerade.Game[O, E]{}.CardName
	seat := func(name string) engine.Seat {
		p, err := s.SeatByName(name)
		if err != nil {
			t.Fatalf("expectation %s=%s: %v", k, v, err)
		}
		return p
	}
	names := func(seats []engine.Seat) string {
		if len(seats) == 0 {
			return "none"
		}
		var out []string
		for _, p := range seats {
			out = append(out, s.Name(p))
		}
		return strings.Join(out, ",")
	}
	var got string
	switch {
	case k == "court":
		got = strconv.Itoa(s.Court())
	case k == "bank":
		got = strconv.Itoa(s.Bank())
	case k == "turn":
		got = strconv.Itoa(s.Turn())
	case k == "over":
		got = strconv.FormatBool(s.Over())
	case k == "winners":
		got = names(s.Winners())
	case k == "next":
		got = "nobody"
		if n := s.Next(); n.Kind == engine.NeedMove {
			got = s.Name(n.Seat)
		}
	case k == "mustswap":
		if !s.MustSwap(seat(v)) {
			t.Errorf("%s: MustSwap is false", v)
		}
		return
	case k == "noclaim":
		if s.MayClaim(seat(v)) {
			t.Errorf("%s: MayClaim is true", v)
		}
		return
	case k == "revealed":
		var parts []string
		for _, f := range s.LastRevealed() {
			parts = append(parts, s.SlotName(f.Slot)+":"+cardName(f.Card))
		}
		got = strings.Join(parts, ",")
	case strings.HasPrefix(k, "chair."):
		got = strconv.Itoa(s.ChairOf(seat(strings.TrimPrefix(k, "chair."))))
	case strings.HasPrefix(k, "card."):
		sl, err := s.ParseSlot(strings.TrimPrefix(k, "card."))
		if err != nil {
			t.Fatal(err)
		}
		got = cardName(tab.Cards[sl])
		if c, err := e.ParseCard(v); err == nil {
			v = cardName(c)
		}
	default:
		p := seat(k)
		if _, err := strconv.Atoi(v); err != nil {
			t.Fatalf("expect %s=%s: not a number", k, v)
		}
		got = strconv.Itoa(s.Coins(p))
	}
	if !strings.EqualFold(got, v) {
		t.Errorf("%s = %s, want %s (state: %v)", k, got, v, s)
	}
	if s.Total() != e.BoxCoins {
		t.Errorf("coins not conserved: total %d", s.Total())
	}
}

// FuzzOptions fuzzes the edition's options decoder, seeded with the
// default games of min to max of names: every accepted encoding is
// canonical (it re-encodes to exactly the same bytes).
func (e Edition[O, E]) FuzzOptions(f *testing.F, names []string, min, max int) {
	var seeds [][]byte
	for p := min; p <= max; p++ {
		b, err := e.Options(names[:p]).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	gametest.FuzzCanonical(f, append(seeds, []byte{1, 0}), e.Unmarshal)
}

// FuzzScripts parses and plays arbitrary scripts, seeded with
// testdata/*.txt and seeds: no panic, and an accepted game conserves
// coins.
func (e Edition[O, E]) FuzzScripts(f *testing.F, seeds ...string) {
	gametest.AddFiles(f, "testdata/*.txt")
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, err := e.Parse(src)
		if err != nil || len(sc.Lines) > 2000 {
			return
		}
		tab, _ := masquerade.RunOracle("fuzz", sc)
		if tab != nil && tab.State.Total() != e.BoxCoins {
			t.Fatalf("coins not conserved: %v", tab.State)
		}
	})
}

// Prep4 is four preparatory non-swaps for Anna, Boris, Sasha and Dima.
const Prep4 = `
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
`

// Run plays the script src on the oracle and returns the oracle (as it
// was before an illegal line) and the error; src must parse.
func (e Edition[O, E]) Run(t *testing.T, src string) (*masquerade.Oracle[*masquerade.State[O, E]], error) {
	t.Helper()
	sc, err := e.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return masquerade.RunOracle("scripttest", sc)
}

// MustRun is [Edition.Run] of a script that plays to its end.
func (e Edition[O, E]) MustRun(t *testing.T, src string) *masquerade.Oracle[*masquerade.State[O, E]] {
	t.Helper()
	tab, err := e.Run(t, src)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// CoinsOf checks the coins of s: want maps player names, "court" and
// "bank" to coins. The box's coins must be conserved.
func (e Edition[O, E]) CoinsOf(t *testing.T, s *masquerade.State[O, E], want map[string]int) {
	t.Helper()
	for name, n := range want {
		var got int
		switch name {
		case "court":
			got = s.Court()
		case "bank":
			got = s.Bank()
		default:
			p, err := s.SeatByName(name)
			if err != nil {
				t.Fatal(err)
			}
			got = s.Coins(p)
		}
		if got != n {
			t.Errorf("%s = %d, want %d (%v)", name, got, n, s)
		}
	}
	if s.Total() != e.BoxCoins {
		t.Errorf("total coins %d", s.Total())
	}
}

// Outcome checks that s is over with the winners named in winner
// (comma-separated), or goes on if winner is "".
func Outcome(t *testing.T, s interface {
	Over() bool
	Winners() []engine.Seat
	Name(engine.Seat) string
	Next() engine.Need
}, winner string) {
	t.Helper()
	if s.Over() != (winner != "") {
		t.Fatalf("over = %v, want winner %q (%v)", s.Over(), winner, s)
	}
	if winner == "" {
		return
	}
	var got []string
	for _, w := range s.Winners() {
		got = append(got, s.Name(w))
	}
	if strings.Join(got, ",") != winner {
		t.Errorf("winners %v, want %s", got, winner)
	}
	if s.Next().Kind != engine.NeedNothing {
		t.Errorf("Next = %v after the end", s.Next())
	}
}

// Illegal checks that the script src stops at its last line, breaking
// rule (or, with rule "", plays to its end).
func (e Edition[O, E]) Illegal(t *testing.T, src, rule string) {
	t.Helper()
	_, err := e.Run(t, src)
	if rule == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if RuleOf(err) != rule {
		t.Fatalf("error %v, want rule %s", err, rule)
	}
	var se *masquerade.ScriptError
	if !errors.As(err, &se) || se.Line != strings.Count(src, "\n")+1 {
		t.Errorf("error %v should name the last line", err)
	}
}

// RuleOf returns the rule of an [engine.RuleError] in err, or "".
func RuleOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return ""
}

// SpyEffects checks the last two steps of tab, the Spy at seat 0 with
// slot own looking at slot other (two peeks), then deciding (a use
// without arguments and a swap of the two).
func SpyEffects[S masquerade.OracleState[S]](t *testing.T, tab *masquerade.Oracle[S], own, other engine.Slot) {
	t.Helper()
	// Two steps: the Spy looks at both cards (its use), then decides (a
	// second move) with what it saw.
	look, decide := tab.Steps[len(tab.Steps)-2], tab.Steps[len(tab.Steps)-1]
	if len(look.Effects) != 2 || len(decide.Effects) != 1 {
		t.Fatalf("Spy effects: look %v, decide %v", look.Effects, decide.Effects)
	}
	for i, e := range look.Effects {
		if e.Kind != engine.EffectPeek || e.By != 0 {
			t.Errorf("look effect %d = %v", i, e)
		}
	}
	if look.Effects[0].Slots[0] != own || look.Effects[1].Slots[0] != other {
		t.Errorf("Spy looked at %v", look.Effects)
	}
	if d := decide.Effects[0]; d.Kind != engine.EffectSwap || d.By != 0 || d.Slots[0] != own || d.Slots[1] != other {
		t.Errorf("Spy decision %v", d)
	}
	if decide.Move.Kind != masquerade.KindUse || len(decide.Move.Args) != 0 {
		t.Errorf("Spy decision move %v", decide.Move)
	}
}

// TextRoundTrip plays up to steps random legal moves on tab (in a
// challenge window mostly passing, with passMostly) and, in every state,
// formats every legal move with each secret bit and parses it back.
func TextRoundTrip[O encoding.BinaryMarshaler, E masquerade.Of[O]](t *testing.T, r *rand.Rand, tab *masquerade.Oracle[*masquerade.State[O, E]], steps int, passMostly bool) {
	t.Helper()
	for range steps {
		s := tab.State
		need := s.Next()
		if need.Kind != engine.NeedMove {
			break
		}
		moves := s.LegalMoves(need.Seat)
		for _, m := range moves {
			for _, bit := range []bool{false, true} {
				line := s.FormatLine(m, bit)
				toks := strings.Fields(line)
				back, gotBit, err := s.ParseMove(toks[0], toks[1:])
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				if back.Seat != m.Seat || back.Kind != m.Kind || !slices.Equal(back.Args, m.Args) {
					t.Fatalf("%q parsed as %v, want %v", line, back, m)
				}
				if s.HasSecretSwap(m) && gotBit != bit {
					t.Fatalf("%q: bit %v", line, gotBit)
				}
			}
		}
		m := moves[r.IntN(len(moves))]
		if passMostly && s.InChallengeWindow() && r.IntN(3) != 0 {
			m = moves[0]
		}
		if _, err := tab.Play(m, r.IntN(2) == 0); err != nil {
			t.Fatal(err)
		}
	}
}
