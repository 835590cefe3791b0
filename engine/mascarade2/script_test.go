package mascarade2_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade/scripttest"
)

// loadTestdata reads scenario files relative to testdata/.
func loadTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
}

// TestScripts plays every testdata/*.txt script with the oracle and checks
// the outcome stated in its "# expect:" lines:
//
//	# expect: NAME=COINS court=N bank=N turn=N over=true|false winners=A,B|none
//	# expect: next=NAME card.SLOT=Mask chair.NAME=N noclaim=NAME revealed=SLOT:Mask,...
//	# expect-error: line=N rule=RULE
//
// An expect line is a checkpoint, checked against the state reached by the
// lines above it (any open challenge window closed with passes). With
// expect-error the script must stop at that line with that rule; later
// expectations are checked against the state before that line.
func TestScripts(t *testing.T) {
	scripttest.RunScripts(t, "testdata/*.txt", func(t *testing.T, src []byte) (*mascarade2test.Table, []mascarade2.ScriptLine) {
		sc, err := mascarade2.ParseScript(src, loadTestdata)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := mascarade2test.New(sc.Options, mascarade2test.ScriptDeal(sc))
		if err != nil {
			t.Fatal(err)
		}
		return tab, sc.Lines
	}, checkExpect)
}

func checkExpect(t *testing.T, tab *mascarade2test.Table, k, v string) {
	t.Helper()
	s := tab.State
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
	seat := func(name string) engine.Seat {
		p, err := s.SeatByName(name)
		if err != nil {
			t.Fatalf("expectation %s=%s: %v", k, v, err)
		}
		return p
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
	case k == "noclaim":
		if s.MayClaim(seat(v)) {
			t.Errorf("%s: MayClaim is true", v)
		}
		return
	case k == "revealed":
		var parts []string
		for _, f := range s.LastRevealed() {
			parts = append(parts, s.SlotName(f.Slot)+":"+mascarade2.CardName(f.Card))
		}
		got = strings.Join(parts, ",")
	case strings.HasPrefix(k, "chair."):
		got = strconv.Itoa(s.ChairOf(seat(strings.TrimPrefix(k, "chair."))))
	case strings.HasPrefix(k, "card."):
		sl, err := s.ParseSlot(strings.TrimPrefix(k, "card."))
		if err != nil {
			t.Fatal(err)
		}
		got = mascarade2.CardName(tab.Cards[sl])
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
	if s.Total() != mascarade2.BoxCoins {
		t.Errorf("coins not conserved: total %d", s.Total())
	}
}
