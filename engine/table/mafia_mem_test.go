package table_test

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"weak"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// mafiaBots is the 9-player Mafia bot game of testdata/realgames.
func mafiaBots(tb testing.TB) *ledger.Transcript {
	return cachedGame(tb, "mafia-9-bots.transcript", mafia.Game{}.Table(), func(tb testing.TB) *ledger.Transcript {
		return mafiaBotLog(tb, 9, 1)
	})
}

// TestTableKeepsNoProofs: once a ballot, a check or an encrypted share is
// checked, a live table keeps what the game reads later (the ballot's
// entries for the tally, the check's Q, the share's ciphertexts), not its
// proof: with 18 replicas in one process the proofs of the nights were
// most of the heap (docs/performance.md, Mafia at 18 seats). A stored
// object without its proof does not marshal.
func TestTableKeepsNoProofs(t *testing.T) {
	tr := mafiaBots(t)
	run, err := table.New(tr.Roster, mafia.Game{}.Table())
	if err != nil {
		t.Fatal(err)
	}
	var ballots, checks, shares int
	for _, e := range tr.Entries {
		if err := run.ApplyVerified(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		for _, r := range run.CompletedAll() {
			for i, posts := range r.Posts {
				for j, p := range posts {
					if p.Ballot != nil {
						ballots++
						if _, err := p.Ballot.MarshalBinary(); err == nil {
							t.Fatalf("entry %d: seat %d's ballot %d is kept with its proof", e.Pos, r.Seats[i], j)
						}
						if len(p.Ballot.Entries) == 0 {
							t.Fatalf("entry %d: seat %d's ballot %d lost its entries", e.Pos, r.Seats[i], j)
						}
					}
					if p.Check != nil {
						checks++
						if _, err := p.Check.MarshalBinary(); err == nil {
							t.Fatalf("entry %d: seat %d's check %d is kept with its proof", e.Pos, r.Seats[i], j)
						}
						if len(p.Check.Q) != 1 {
							t.Fatalf("entry %d: seat %d's check %d lost its card", e.Pos, r.Seats[i], j)
						}
					}
				}
			}
			for i, enc := range r.Enc {
				for j, es := range enc {
					shares++
					if _, err := es.MarshalBinary(); err == nil {
						t.Fatalf("entry %d: seat %d's encrypted share %d is kept with its proof", e.Pos, r.Seats[i], j)
					}
				}
			}
		}
	}
	if ballots == 0 || checks == 0 || shares == 0 {
		t.Fatalf("the game completed %d ballots, %d checks, %d encrypted shares: want some of each", ballots, checks, shares)
	}
}

// TestActionsBlameTheFirstBadPart: a live table checks the ballots and
// the check of an actions entry in one batch; the entry is refused, with
// the reason and the part a part-by-part check names (the first bad part
// in order), the table is left as it was, and the honest entry then
// applies.
func TestActionsBlameTheFirstBadPart(t *testing.T) {
	tr := mafiaBots(t)
	run, err := table.New(tr.Roster, mafia.Game{}.Table())
	if err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, e := range tr.Entries {
		var ballots, checks []int
		req := run.Pending()
		if req != nil && req.Kind == engine.EffectBallot {
			for j, p := range req.Parts {
				switch p.Kind {
				case engine.EffectBallot:
					ballots = append(ballots, j)
				case engine.EffectCheck:
					checks = append(checks, j)
				}
			}
		}
		if len(ballots) >= 2 && len(checks) >= 1 && tested < 3 {
			tested++
			b, err := run.Body(e)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range [][]int{{ballots[1]}, {ballots[0], ballots[1]}, {checks[0]}, {ballots[1], checks[0]}, {checks[0], ballots[0]}} {
				// The part a part-by-part check blames: the first bad one.
				first := slices.Min(bad)
				reason, names := table.ReasonBadBallot, fmt.Sprintf("ballot %d ", first)
				if req.Parts[first].Kind == engine.EffectCheck {
					reason, names = table.ReasonBadCheck, fmt.Sprintf("check %d:", first)
				}
				forged := *b
				forged.Actions = slices.Clone(b.Actions)
				for _, j := range bad {
					forged.Actions[j] = corruptProof(t, b.Actions[j], req.Parts[j].Kind)
				}
				body, err := forged.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				before := snapshotOf(t, run)
				err = run.ApplyVerified(&ledger.Entry{Pos: e.Pos, Seat: e.Seat, Prev: e.Prev, Body: body})
				var fault *table.Fault
				if !errors.As(err, &fault) || fault.Reason != reason || !strings.Contains(fault.Error(), names) || !errors.Is(err, mental.ErrProof) {
					t.Fatalf("entry %d, parts %v bad: got %v, want a %s fault naming %q, a failed proof", e.Pos, bad, err, reason, names)
				}
				if fault.Seat != int(e.Seat) || fault.Pos != e.Pos {
					t.Fatalf("entry %d: the fault blames seat %d at %d", e.Pos, fault.Seat, fault.Pos)
				}
				if after := snapshotOf(t, run); after != before {
					t.Fatalf("entry %d: the refused entry changed the table", e.Pos)
				}
			}
			// A bad proof before a part that does not decode: the bad
			// proof is named (a part-by-part check stops there first).
			forged := *b
			forged.Actions = slices.Clone(b.Actions)
			forged.Actions[ballots[0]] = corruptProof(t, b.Actions[ballots[0]], engine.EffectBallot)
			forged.Actions[ballots[1]] = b.Actions[ballots[1]][:len(b.Actions[ballots[1]])-1]
			body, err := forged.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			err = run.ApplyVerified(&ledger.Entry{Pos: e.Pos, Seat: e.Seat, Prev: e.Prev, Body: body})
			if names := fmt.Sprintf("ballot %d ", ballots[0]); err == nil || !strings.Contains(err.Error(), names) || !errors.Is(err, mental.ErrProof) {
				t.Fatalf("entry %d: a bad proof then a truncated ballot: got %v, want the proof of %q", e.Pos, err, names)
			}
		}
		if err := run.ApplyVerified(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
	}
	if tested == 0 {
		t.Fatal("no actions entry with two ballots and a check in the game")
	}
}

// corruptProof flips the lowest bit of the first challenge of a ballot's
// or a check's proof: the part still decodes, and its proof fails.
func corruptProof(t *testing.T, part []byte, kind engine.EffectKind) []byte {
	t.Helper()
	at := 0
	switch kind {
	case engine.EffectBallot:
		at = 1 + 64*int(part[0]) // width, then the entries
	case engine.EffectCheck:
		at = 64 // Q, one ciphertext
	default:
		t.Fatalf("no proof in a %v part", kind)
	}
	out := append([]byte(nil), part...)
	out[at] ^= 1
	return out
}

// TestTallyKeepsNoDecodedBallots: once a night's actions are complete, a
// table keeps each power's ballots for the tallies still to come (a tally
// of some voters, a one-vote mix) encoded, not as decoded points: kept
// decoded until the power's next ballots, the last night's ballots were a
// fifth of a Mafia table's memory at 18 seats (issue 28). The ballots'
// points are unreachable once the completed request and the last body
// are replaced; the whole game still replays to the transcript's states.
func TestTallyKeepsNoDecodedBallots(t *testing.T) {
	tr := mafiaBots(t)
	run, err := table.New(tr.Roster, mafia.Game{}.Table())
	if err != nil {
		t.Fatal(err)
	}
	var points []weak.Pointer[mental.Element]
	checkAt := -1
	nights := 0
	for i, e := range tr.Entries {
		if err := run.ApplyVerified(e); err != nil {
			t.Fatalf("entry %d: %v", e.Pos, err)
		}
		if i == checkAt {
			runtime.GC()
			alive := 0
			for _, p := range points {
				if p.Value() != nil {
					alive++
				}
			}
			if alive > 0 {
				t.Fatalf("entry %d: %d of the last night's %d ballot points still reachable", e.Pos, alive, len(points))
			}
			points = nil
		}
		for _, r := range run.CompletedAll() {
			if r.Kind != engine.EffectBallot {
				continue
			}
			nights++
			for _, posts := range r.Posts {
				for _, p := range posts {
					if p.Ballot == nil {
						continue
					}
					for _, ct := range p.Ballot.Entries {
						points = append(points, weak.Make(ct.A), weak.Make(ct.B))
					}
				}
			}
			// Two entries later the completed request and the last
			// body are others'.
			checkAt = i + 2
		}
	}
	if nights < 2 || checkAt >= len(tr.Entries) {
		t.Fatalf("%d nights, the last completed at the game's end: want two nights checked", nights)
	}
}
