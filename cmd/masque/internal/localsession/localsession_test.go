package localsession

import (
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
)

// The local seat plays its first legal move (swapping for real) whenever
// asked, the bots play the rest: the game ends, the snapshots say whose
// move it is, and the transcript verifies with every key published.
func TestFullGameAgainstBots(t *testing.T) {
	s, err := New([]string{"Me", "Anna", "Boris", "Sasha"}, 7, Options{PublishKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deadline := time.After(2 * time.Minute)
	moves := 0
	for {
		snap := s.Snapshot()
		if snap.Over {
			if snap.Verdict != "" {
				t.Fatalf("verdict: %s", snap.Verdict)
			}
			break
		}
		st := snap.Rules.(*mascarade.State)
		if snap.MyTurn {
			if snap.Waiting != nil {
				t.Fatal("my turn and waiting")
			}
			legal := st.LegalMoves(0)
			if len(legal) == 0 {
				t.Fatal("my turn with no legal move")
			}
			m := legal[0]
			var bits []bool
			if mascarade.HasSecretSwap(st, m) {
				bits = []bool{true}
			}
			if err := s.Submit(m, bits); err != nil {
				t.Fatalf("submit %s: %v", mascarade.FormatMove(st, m), err)
			}
			moves++
			continue
		}
		if snap.Waiting == nil || snap.Waiting.Seat == 0 {
			t.Fatalf("not my turn, waiting %+v", snap.Waiting)
		}
		// Not my move: Submit must refuse and change nothing.
		// A bot may move between the snapshot and Submit and make it
		// this seat's turn (a pass is then legal): an accepted Submit is
		// wrong only if the first entry after the snapshot is this seat's.
		if err := s.Submit(engine.Move{Kind: mascarade.KindPass}, nil); err == nil {
			entries := s.Transcript().Entries
			if len(entries) <= snap.Entries || entries[snap.Entries].Seat == 0 {
				t.Fatalf("Submit out of turn accepted at entry %d", snap.Entries)
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
	if moves == 0 {
		t.Fatal("the local seat never moved")
	}
	snap := s.Snapshot()
	if len(snap.Log) < 5 || len(recorded(s)) == 0 {
		t.Fatalf("log %d lines, %d moves", len(snap.Log), len(recorded(s)))
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
	rt, err := table.Replay(tr, mascarade.Game{})
	if err != nil {
		t.Fatal(err)
	}
	if rt.Phase() != table.PhaseDone || rt.PublishedKey(0) == nil {
		t.Fatalf("phase %v, keys published: %v", rt.Phase(), rt.PublishedKey(0) != nil)
	}
}

func TestIllegalMoveRefused(t *testing.T) {
	s, err := New([]string{"Me", "Anna", "Boris", "Sasha"}, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	snap := s.Snapshot()
	if !snap.MyTurn {
		t.Fatal("seat 0 plays first")
	}
	// A peek in a preparatory turn is illegal.
	if err := s.Submit(engine.Move{Kind: mascarade.KindPeek, Args: []int{0}}, nil); err == nil {
		t.Fatal("illegal peek accepted")
	}
	// A swap without its secret bit is refused too.
	if err := s.Submit(engine.Move{Kind: mascarade.KindSwap, Args: []int{0, 1}}, nil); err == nil {
		t.Fatal("swap without a bit accepted")
	}
	if got := s.Snapshot().Entries; got != snap.Entries {
		t.Fatalf("entries %d → %d after refused moves", snap.Entries, got)
	}
}
