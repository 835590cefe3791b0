package mascarade_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// TestScripts plays every testdata/*.txt script with the oracle and checks
// the outcome stated in its "# expect:" lines:
//
//	# expect: NAME=COINS court=N bank=N turn=N over=true|false winners=A,B|none
//	# expect: next=NAME card.SLOT=Character mustswap=NAME revealed=SLOT:Card,...
//	# expect-error: line=N rule=RULE
//
// An expect line is a checkpoint, checked against the state reached by the
// lines above it (any open challenge window closed with passes). With
// expect-error the script must stop at that line with that rule; later
// expectations are checked against the state before that line.
func TestScripts(t *testing.T) {
	scripttest.RunScripts(t, "testdata/*.txt", func(t *testing.T, src []byte) (*mascaradetest.Table, []mascarade.ScriptLine) {
		sc, err := mascarade.ParseScript(src)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := mascaradetest.New(sc.Options, mascaradetest.ScriptDeal(sc))
		if err != nil {
			t.Fatal(err)
		}
		return tab, sc.Lines
	}, checkExpect)
}

func checkExpect(t *testing.T, tab *mascaradetest.Table, k, v string) {
	t.Helper()
	s := tab.State
	num := func() int {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("expect %s=%s: not a number", k, v)
		}
		return n
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
		n := s.Next()
		if n.Kind != engine.NeedMove {
			got = "nobody"
		} else {
			got = s.Name(n.Seat)
		}
	case k == "mustswap":
		p, err := s.SeatByName(v)
		if err != nil {
			t.Fatal(err)
		}
		if !s.MustSwap(p) {
			t.Errorf("%s: MustSwap is false", v)
		}
		return
	case k == "revealed":
		var parts []string
		for _, f := range s.LastRevealed() {
			parts = append(parts, s.SlotName(f.Slot)+":"+mascarade.CardName(f.Card))
		}
		got = strings.Join(parts, ",")
	case strings.HasPrefix(k, "card."):
		sl, err := s.ParseSlot(strings.TrimPrefix(k, "card."))
		if err != nil {
			t.Fatal(err)
		}
		got = mascarade.CardName(tab.Cards[sl])
		if c, err := mascarade.ParseCard(v); err == nil {
			v = mascarade.CardName(c)
		}
	default:
		p, err := s.SeatByName(k)
		if err != nil {
			t.Fatalf("unknown expectation %q", k)
		}
		num()
		got = strconv.Itoa(s.Coins(p))
	}
	if !strings.EqualFold(got, v) {
		t.Errorf("%s = %s, want %s (state: %v)", k, got, v, s)
	}
	if s.Total() != mascarade.BoxCoins {
		t.Errorf("coins not conserved: total %d", s.Total())
	}
}

// The script mistakes the audit found: each is an error naming the line
// and what is wrong, or (a BOM, a capitalised keyword) simply works.
func TestScriptMistakes(t *testing.T) {
	const hdr = "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\n"
	run := func(src string) error {
		sc, err := mascarade.ParseScript([]byte(src))
		if err != nil {
			return err
		}
		tab, err := mascaradetest.New(sc.Options, mascaradetest.ScriptDeal(sc))
		if err != nil {
			return err
		}
		for _, ln := range sc.Lines {
			if err := tab.PlayLine(ln); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"swap without yes or no", hdr + "Anna swap Boris\n", "line 2"},
		{"swap maybe", hdr + "Anna swap Boris maybe\n", `yes (exchange the cards) or no (only pretend to), got "maybe"`},
		{"coins too large", "game mascarade players=Anna,Boris,Sasha,Dima coins=99999999999999999999\n", "coins=99999999999999999999: want a whole number"},
		{"coins not a number", "game mascarade players=Anna,Boris,Sasha,Dima coins=six\n", "coins=six"},
	} {
		err := run(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		if c.name == "swap maybe" && err != nil && strings.Contains(err.Error(), "Boris") && strings.Contains(err.Error(), "no such") {
			t.Errorf("swap maybe blames the target: %v", err)
		}
	}
	for _, c := range []struct{ name, src string }{
		{"a byte order mark", "\ufeff" + hdr + "Anna swap Boris yes\n"},
		{"GAME in capitals", "GAME Mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\nAnna swap Boris yes\n"},
		{"players named Yes and No", "game mascarade players=Yes,No,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat\nYes swap No no\nNo swap Yes yes\n"},
	} {
		if err := run(c.src); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
