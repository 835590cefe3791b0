package localsession

import (
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
)

// playToEnd plays the local seat's first legal move (swapping for real)
// whenever asked until the game ends, and returns the moves it made.
func playToEnd(t *testing.T, s *Session) int {
	t.Helper()
	deadline := time.After(3 * time.Minute)
	moves := 0
	for {
		snap := s.Snapshot()
		if snap.Over {
			if snap.Verdict != "" {
				t.Fatalf("verdict: %s", snap.Verdict)
			}
			return moves
		}
		if snap.MyTurn {
			st, ok := rulesOf(snap.Rules)
			if !ok {
				t.Fatalf("rules %T", snap.Rules)
			}
			legal := st.LegalMoves(0)
			if len(legal) == 0 {
				t.Fatal("my turn with no legal move")
			}
			m := legal[0]
			var bits []bool
			if st.HasSecretSwap(m) {
				bits = []bool{true}
			}
			if err := s.Submit(m, bits); err != nil {
				t.Fatalf("submit %s: %v", st.FormatMove(m), err)
			}
			moves++
			continue
		}
		select {
		case <-s.Updates():
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("the game did not end")
		}
	}
}

// A whole 2nd-edition game against bots (6 players: the default scenario
// has the Princess and the Puppeteer); the transcript replays with
// table.Replay and every key published.
func TestFullGameAgainstBotsSecondEdition(t *testing.T) {
	for _, seed := range []uint64{3, 11} {
		s, err := New([]string{"Me", "Anna", "Boris", "Sasha", "Dima", "Egor"}, seed,
			Options{Game: mascarade2.GameName, PublishKeys: true})
		if err != nil {
			t.Fatal(err)
		}
		if moves := playToEnd(t, s); moves == 0 {
			t.Fatal("the local seat never moved")
		}
		s.Close()
		shows, seats := 0, 0
		for _, m := range recorded(s) {
			shows += len(m.Shows)
		}
		snap := s.Snapshot()
		for _, l := range snap.Log {
			if strings.Contains(l, "changed chairs") {
				seats++
			}
		}
		t.Logf("seed %d: %d entries, %d Princess shows, %d Puppeteer moves", seed, snap.Entries, shows, seats)
		st, ok := snap.Rules.(*mascarade2.State)
		if !ok || !st.Over() {
			t.Fatalf("rules %T, over: %v", snap.Rules, ok && st.Over())
		}
		for _, l := range snap.Log {
			if strings.Contains(l, " yes") || strings.Contains(l, "real") || strings.Contains(l, "pretend") {
				t.Fatalf("the public log tells a secret: %q", l)
			}
		}
		enc, err := s.Transcript().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		tr, err := ledger.UnmarshalTranscript(enc)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Roster.Game != mascarade2.GameName {
			t.Fatalf("roster game %q", tr.Roster.Game)
		}
		rt, err := table.Replay(tr, mascarade2.Game{})
		if err != nil {
			t.Fatal(err)
		}
		if rt.Phase() != table.PhaseDone || rt.PublishedKey(0) == nil {
			t.Fatalf("phase %v, keys published: %v", rt.Phase(), rt.PublishedKey(0) != nil)
		}
		if got, want := rt.StateHash(), s.lt.View().StateHash(); got != want {
			t.Fatal("the replayed table ends in another state")
		}
	}
}

// A scenario's masks are played; a set that breaks the book's constraints
// is refused with every broken constraint.
func TestSecondEditionSets(t *testing.T) {
	sc, ok := mascarade2.BuiltinScenario("default-5")
	if !ok {
		t.Fatal("no default-5")
	}
	s, err := New([]string{"Me", "Anna", "Boris", "Sasha", "Dima"}, 1, Options{Game: mascarade2.GameName, Setup: mascarade2.Setup{Set: sc.Masks}})
	if err != nil {
		t.Fatal(err)
	}
	st := s.Snapshot().Rules.(*mascarade2.State)
	if got, want := mascarade2.FormatCards(st.Set()), mascarade2.FormatCards(mascarade2.Options{Set: sc.Masks}.Normalize().Set); got != want {
		t.Errorf("set %s, want %s", got, want)
	}
	s.Close()

	_, err = New([]string{"Me", "Anna", "Boris", "Sasha"}, 1, Options{Game: mascarade2.GameName,
		Setup: mascarade2.Setup{Set: []engine.Card{mascarade2.King, mascarade2.Empress, mascarade2.Thief, mascarade2.Fool, mascarade2.Spy, mascarade2.Beggar}}})
	for _, c := range []string{"judge-required"} {
		if err == nil || !strings.Contains(err.Error(), c) {
			t.Errorf("bad set: %v, want %s", err, c)
		}
	}
	if _, err := New([]string{"Me", "Anna", "Boris"}, 1, Options{Game: mascarade2.GameName}); err == nil {
		t.Error("3 players accepted for mascarade2")
	}
	if _, err := New([]string{"Me", "Anna", "Boris", "Sasha"}, 1, Options{Game: "chess"}); err == nil {
		t.Error("unknown game accepted")
	}
}

// rulesOf wraps a rules state of either Mascarade edition.
func rulesOf(s engine.State) (masqview.Rules, bool) {
	if r, ok := masqview.First().Of(s); ok {
		return r, true
	}
	return masqview.Second().Of(s)
}

// recorded are the moves so far with their hidden swaps, as the seat's
// Mascarade narrator recorded them (Snapshot.Record).
func recorded(s *Session) []masqview.Moved {
	m, _ := s.Snapshot().Record.([]masqview.Moved)
	return m
}
