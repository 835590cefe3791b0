package scripttest

import (
	"bytes"
	"encoding"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
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
	// Encode returns the canonical options of the default game for
	// players; Unmarshal reads options strictly.
	Encode    func(players []string) ([]byte, error)
	Unmarshal func(data []byte) (O, error)
}

// NewEdition returns an edition's [Edition] (its type arguments, which
// its package may not name, are inferred from parse).
func NewEdition[O encoding.BinaryMarshaler, E masquerade.Of[O]](parse func(src []byte) (*masquerade.Script[O, E], error),
	parseCard func(string) (engine.Card, error), boxCoins int,
	encode func(players []string) ([]byte, error), unmarshal func(data []byte) (O, error)) Edition[O, E] {
	return Edition[O, E]{Parse: parse, ParseCard: parseCard, BoxCoins: boxCoins, Encode: encode, Unmarshal: unmarshal}
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
	for p := min; p <= max; p++ {
		b, err := e.Encode(names[:p])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := e.Unmarshal(data)
		if err != nil {
			return
		}
		b, err := o.MarshalBinary()
		if err != nil {
			t.Fatalf("accepted options do not encode: %v", err)
		}
		if !bytes.Equal(b, data) {
			t.Fatalf("non-canonical encoding accepted: %x re-encodes as %x", data, b)
		}
	})
}

// FuzzScripts parses and plays arbitrary scripts, seeded with
// testdata/*.txt and seeds: no panic, and an accepted game conserves
// coins.
func (e Edition[O, E]) FuzzScripts(f *testing.F, seeds ...string) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, fn := range files {
		b, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
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
