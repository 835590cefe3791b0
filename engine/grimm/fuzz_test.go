package grimm_test

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/gametest"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

// FuzzUnmarshalOptions checks that every accepted encoding is canonical:
// it re-encodes to exactly the same bytes.
func FuzzUnmarshalOptions(f *testing.F) {
	var seeds [][]byte
	for p := 2; p <= 5; p++ {
		b, err := grimm.Options{Players: names[:p], Jewels: p == 3, Bets: p == 4}.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	gametest.FuzzCanonical(f, append(seeds, []byte{1, 0}), grimm.UnmarshalOptions)
}

// FuzzScript parses and plays arbitrary scripts: no panic, and whatever
// plays keeps the 48 items accounted for.
func FuzzScript(f *testing.F) {
	gametest.AddFiles(f, "testdata/*.txt")
	f.Add([]byte("game grimm players=A,B\nA pick Crown\nB pick Mirror\n"))
	f.Add([]byte("game grimm players=A,B,C variants=bets,jewels\nround 1 chars=Beast actions=toast,dance\nA act maskoff jewel+Crown B Beast\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		sc, err := grimm.ParseScript(src)
		if err != nil || len(sc.Lines) > 200 {
			return
		}
		tab, _ := grimmtest.Run(sc, 1)
		if tab == nil {
			return
		}
		s := tab.State
		k := len(s.Deck()) + len(s.Discard()) + len(s.Row()) + len(s.Drawn())
		for p := range engine.Seat(s.Players()) {
			k += len(s.Front(p)) + len(s.Hand(p))
		}
		if k != grimm.NumItems {
			t.Fatalf("%d items accounted for: %v", k, s)
		}
	})
}

// FuzzParseMove reads arbitrary move text in every phase a short game
// reaches, and applies what parses: no panic, and a refusal is a
// *engine.RuleError.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"pick Crown", "give Boris", "give Boris Sasha", "give Boris slot=9", "act maskoff jewel+Crown Boris Beast",
		"act dance Crown left Mirror", "hint Beast nonce=00", "commit Beast", "unmask right", "win", "bet 57", "end", "keep"} {
		f.Add(uint8(0), s)
	}
	f.Fuzz(func(t *testing.T, at uint8, text string) {
		tab, err := grimmtest.New(grimm.Options{Players: names[:3]}, 3, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range int(at % 16) {
			s := tab.State
			if s.Over() {
				break
			}
			p := s.Next().Seat
			ms := s.LegalMoves(p, tab.Known(p))
			if len(ms) == 0 || tab.Play(ms[0]) != nil {
				t.Fatalf("a legal move failed")
			}
		}
		s := tab.State
		p := s.Next().Seat
		m, err := grimm.ParseMove(s, p, strings.Fields(text))
		if err != nil {
			return
		}
		if _, _, err := s.Play(m); err != nil {
			if _, ok := err.(*engine.RuleError); !ok {
				t.Fatalf("%q: error %T %v", text, err, err)
			}
		}
	})
}
