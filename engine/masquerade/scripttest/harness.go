package scripttest

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/masquerade/track"
)

// This file is the test harness both editions share: their script
// tests, random playouts and bot games run on the family's oracle
// ([masquerade.Oracle]) through the functions below, each edition
// bringing only its own parsing, options and checks.

// RunScripts plays every script file matching pattern (testdata/*.txt)
// as a subtest and checks the outcome its comments state (see
// [ReadExpect]). open parses a script and deals its oracle table; check
// checks one "# expect:" KEY=VALUE. An expect line is a checkpoint,
// checked against the state reached by the lines above it (any open
// challenge window closed with passes); with "# expect-error:" the
// script must stop at that line with that rule, and later expectations
// are checked against the state before that line.
func RunScripts[S masquerade.OracleState[S]](t *testing.T, pattern string,
	open func(t *testing.T, src []byte) (*masquerade.Oracle[S], []masquerade.ScriptLine),
	check func(t *testing.T, tab *masquerade.Oracle[S], key, val string)) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			expect, wantErr := ReadExpect(t, src)
			if len(expect) == 0 && wantErr == nil {
				t.Fatal("script states no expected outcome")
			}
			tab, lines := open(t, src)
			checkpoint := func(upTo int) {
				if err := tab.Finish(); err != nil {
					t.Fatal(err)
				}
				for len(expect) > 0 && expect[0].Line < upTo {
					check(t, tab, expect[0].Key, expect[0].Val)
					expect = expect[1:]
				}
			}
			for _, ln := range lines {
				if len(expect) > 0 && expect[0].Line < ln.LineNo {
					checkpoint(ln.LineNo)
				}
				if err = tab.PlayLine(ln); err != nil {
					break
				}
			}
			if err == nil {
				err = tab.Finish()
			}
			CheckErr(t, err, wantErr)
			checkpoint(1 << 30)
		})
	}
}

// PlayoutState is what a random playout needs of an edition's rules
// state S.
type PlayoutState[S any] interface {
	masquerade.OracleState[S]
	LegalMoves(p engine.Seat) []engine.Move
	Over() bool
	Winners() []engine.Seat
	Coins(p engine.Seat) int
	Total() int
}

// Played is one move of a playout with its secret swap bit.
type Played struct {
	Move engine.Move
	Swap bool
}

// Playout plays random legal moves on tab until the game ends or
// maxSteps, checking after every move the invariants of the family: only
// the seat asked has legal moves, a legal move is accepted, Apply leaves
// its receiver alone, the box's coins are conserved and no purse is
// negative; check, if set, checks the edition's own. format says a move
// in errors. In a challenge window it passes three times in four:
// random play otherwise challenges far more than people do.
func Playout[S PlayoutState[S]](t testing.TB, r *rand.Rand, tab *masquerade.Oracle[S], maxSteps, boxCoins int,
	format func(S, engine.Move) string, check func(s S)) []Played {
	t.Helper()
	var log []Played
	for range maxSteps {
		s := tab.State
		need := s.Next()
		if need.Kind == engine.NeedNothing {
			if !s.Over() || len(s.Winners()) == 0 {
				t.Fatalf("NeedNothing but not over with winners: %v", s)
			}
			return log
		}
		if need.Kind != engine.NeedMove {
			t.Fatalf("oracle left the state waiting for facts: %v", s)
		}
		moves := s.LegalMoves(need.Seat)
		if len(moves) == 0 {
			t.Fatalf("no legal move for seat %d: %v", need.Seat, s)
		}
		if other := (need.Seat + 1) % engine.Seat(s.Players()); s.LegalMoves(other) != nil {
			t.Fatalf("seat %d has legal moves out of turn", other)
		}
		m := moves[r.IntN(len(moves))]
		if s.InChallengeWindow() && r.IntN(4) != 0 {
			m = moves[0] // pass
		}
		bit := r.IntN(2) == 0
		before := masquerade.HashState(s)
		if _, err := tab.Play(m, bit); err != nil {
			t.Fatalf("legal move %s rejected: %v", format(s, m), err)
		}
		if masquerade.HashState(s) != before {
			t.Fatal("Apply modified its receiver")
		}
		ns := tab.State
		if got := ns.Total(); got != boxCoins {
			t.Fatalf("coins not conserved: %d after %s", got, format(s, m))
		}
		for p := range engine.Seat(ns.Players()) {
			if ns.Coins(p) < 0 {
				t.Fatalf("negative purse: %v", ns)
			}
		}
		if check != nil {
			check(ns)
		}
		log = append(log, Played{m, bit})
	}
	return log
}

// Replay plays log again on tab, a fresh table of the same options and
// deal, and checks every state hash against want (the first table's
// steps) and that the final state encodes deterministically.
func Replay[S masquerade.OracleState[S]](t testing.TB, tab *masquerade.Oracle[S], log []Played, want []masquerade.Step) {
	t.Helper()
	for i, pm := range log {
		st, err := tab.Play(pm.Move, pm.Swap)
		if err != nil {
			t.Fatalf("replay step %d: %v", i, err)
		}
		if st.Hash != want[i].Hash {
			t.Fatalf("replay step %d: state hash differs", i)
		}
	}
	a, _ := tab.State.AppendBinary(nil)
	b, _ := tab.State.AppendBinary(nil)
	if !bytes.Equal(a, b) {
		t.Fatal("encoding not deterministic")
	}
}

// Observation returns what seat learns from an oracle step: its public
// effects and facts, the cards it peeked, and the secret bit of its own
// swap.
func Observation(st masquerade.Step, seat engine.Seat) track.Observation {
	o := track.Observation{Effects: st.Effects, Facts: st.Facts}
	for _, p := range st.Peeks {
		if p.By == seat {
			o.Seen = append(o.Seen, engine.Fact{Slot: p.Slot, Card: p.Card})
		}
	}
	for _, e := range st.Effects {
		if e.Kind == engine.EffectSwap && e.By == seat {
			o.Swap = st.Swap
		}
	}
	return o
}

// Bot is an edition's bot as a bot game drives it.
type Bot[S any] interface {
	Choose(s S) (m engine.Move, swap, ok bool)
	Observe(o track.Observation)
}

// PlayBots plays bots (one per seat) on tab for at most maxSteps and
// checks after every step that no bot's tracker (tracker(b)) rules out
// the true card of any slot. format and cardName say moves and cards in
// errors.
func PlayBots[S PlayoutState[S], B Bot[S]](t testing.TB, tab *masquerade.Oracle[S], bots []B, tracker func(B) *track.Tracker,
	maxSteps int, format func(S, engine.Move) string, cardName func(engine.Card) string) {
	t.Helper()
	for range maxSteps {
		need := tab.State.Next()
		if need.Kind == engine.NeedNothing {
			break
		}
		m, swap, ok := bots[need.Seat].Choose(tab.State)
		if !ok {
			t.Fatalf("bot %d has no move: %v", need.Seat, tab.State)
		}
		st, err := tab.Play(m, swap)
		if err != nil {
			t.Fatalf("bot move %s: %v", format(tab.State, m), err)
		}
		for i, b := range bots {
			b.Observe(Observation(st, engine.Seat(i)))
			for sl, c := range tab.Cards {
				if !tracker(b).Candidates(engine.Slot(sl)).Has(c) {
					t.Fatalf("bot %d rules out the true card %s in slot %d", i, cardName(c), sl)
				}
			}
		}
	}
}
