package localplay_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
)

// edition is one game's scripts and its rules-level oracle.
type edition struct {
	game  games.Rules
	glob  string // the scripts with a fixed deal to compare
	load  games.Loader
	fixed func(src []byte) (bool, error)         // whether the script fixes the deal
	want  func(src []byte) (engine.State, error) // the oracle's final state
	// random is a script without deal=: the table deals from a joint coin.
	random string
	// flips is a short script whose transcript's every byte is flipped.
	flips string
}

func testdata(game string) games.Loader {
	return func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join("..", "..", game, "testdata", filepath.FromSlash(name)))
	}
}

func editions() []edition {
	load2 := testdata("mascarade2")
	return []edition{
		{
			game: mascarade.Game{}, glob: "../../mascarade/testdata/book-*.txt",
			fixed: func(src []byte) (bool, error) {
				sc, err := mascarade.ParseScript(src)
				return err == nil && sc.Deal != nil, err
			},
			want: func(src []byte) (engine.State, error) {
				s, err := mascaradetest.RunScript(src)
				if s == nil {
					return nil, err
				}
				return s, err
			},
			random: "game mascarade players=A,B,C,D,E\nA swap B yes\nB swap C no\nC swap D yes\nD swap E no\nE peek\nA claim King\n",
			flips:  "game mascarade players=A,B,C,D deal=Queen,Thief,King,Judge,Bishop,Cheat\nA swap B yes\nB swap centre1 no\nC swap D no\nD swap A no\nA peek\nB claim King\nC challenge\n",
		},
		{
			game: mascarade2.Game{}, glob: "../../mascarade2/testdata/*.txt", load: load2,
			fixed: func(src []byte) (bool, error) {
				sc, err := mascarade2.ParseScript(src, load2)
				return err == nil && sc.Deal != nil, err
			},
			want: func(src []byte) (engine.State, error) {
				s, err := mascarade2test.RunScript(src, load2)
				if s == nil {
					return nil, err
				}
				return s, err
			},
			random: "game mascarade2 players=A,B,C,D,E\nA swap B yes\nB swap C no\nC swap D yes\nD swap E no\nE peek\nA claim King\n",
		},
	}
}

// Every script with a fixed deal, played through the real stack (keys,
// proofs, shares, the Princess's encrypted shares, signatures, wire
// encoding), must end in exactly the rules state the oracle driver
// reaches knowing every card, or fail on the same line; and its
// transcript must replay.
func TestScriptsThroughRealStack(t *testing.T) {
	t.Parallel() // real-stack games: CPU only, nothing shared
	for _, ed := range editions() {
		files, err := filepath.Glob(ed.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no scripts: %v", ed.game.Name(), err)
		}
		for _, f := range files {
			t.Run(ed.game.Name()+"/"+filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				fixed, err := ed.fixed(src)
				if err != nil {
					t.Fatal(err)
				}
				if !fixed {
					t.Skip("random deal: the oracle's deal differs")
				}
				want, wantErr := ed.want(src)
				lt, gotErr := localplay.Run(ed.game, src, ed.load, true)
				var we, ge *games.ScriptError
				if errors.As(wantErr, &we) != errors.As(gotErr, &ge) || (we != nil && we.Line != ge.Line) {
					t.Fatalf("oracle error %v, real stack error %v", wantErr, gotErr)
				}
				if wantErr != nil {
					return
				}
				got := lt.View().Rules()
				wb, _ := want.AppendBinary(nil)
				gb, _ := got.AppendBinary(nil)
				if !bytes.Equal(wb, gb) {
					t.Fatalf("states differ:\noracle: %v\nreal:   %v", want, got)
				}
				rt := replay(t, ed.game, lt.Transcript())
				if rt.StateHash() != lt.View().StateHash() {
					t.Fatal("replayed state hash differs from the players'")
				}
			})
		}
	}
}

func replay(t *testing.T, g games.Rules, tr *ledger.Transcript) *table.Table {
	t.Helper()
	enc, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	dec, err := ledger.UnmarshalTranscript(enc)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := table.Replay(dec, g.Table())
	if err != nil {
		t.Fatalf("transcript does not replay: %v", err)
	}
	return rt
}

// A script without deal= is dealt from the seats' joint coin, and the
// whole transcript (coins included) verifies.
func TestRandomDealThroughRealStack(t *testing.T) {
	t.Parallel() // real-stack games: CPU only, nothing shared
	for _, ed := range editions() {
		t.Run(ed.game.Name(), func(t *testing.T) {
			lt, err := localplay.Run(ed.game, []byte(ed.random), nil, true)
			if err != nil {
				t.Fatal(err)
			}
			replay(t, ed.game, lt.Transcript())
			if got := len(lt.Transcript().Entries); got < 10 {
				t.Fatalf("only %d entries: the deal coins are missing", got)
			}
		})
	}
}

// Flipping any single byte of a transcript makes the audit fail.
func TestTranscriptByteFlips(t *testing.T) {
	t.Parallel() // real-stack games: CPU only, nothing shared
	for _, ed := range editions() {
		if ed.flips == "" {
			continue
		}
		t.Run(ed.game.Name(), func(t *testing.T) {
			lt, err := localplay.Run(ed.game, []byte(ed.flips), nil, true)
			if err != nil {
				t.Fatal(err)
			}
			enc, _ := lt.Transcript().MarshalBinary()
			step := 1
			if testing.Short() {
				step = 7
			}
			// Every flip is replayed from scratch (thousands of replays):
			// the bytes are shared out among one worker per CPU, each
			// noting the flips it finds still verifying.
			workers := runtime.GOMAXPROCS(0)
			verifies := make([][]int, workers)
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for i := w * step; i < len(enc); i += workers * step {
						bad := bytes.Clone(enc)
						bad[i] ^= 0x01
						tr, err := ledger.UnmarshalTranscript(bad)
						if err != nil {
							continue
						}
						if _, err := table.Replay(tr, ed.game.Table()); err == nil {
							verifies[w] = append(verifies[w], i)
						}
					}
				})
			}
			wg.Wait()
			if still := slices.Sorted(slices.Values(slices.Concat(verifies...))); len(still) > 0 {
				t.Fatalf("%d bytes flipped (one at a time) leave a transcript that still verifies: %v", len(still), still[:min(len(still), 20)])
			}
		})
	}
}

// A script's table cannot be set up: the error names line 1; an illegal
// line is named with the rule it breaks, and the table is kept as it was.
func TestScriptErrors(t *testing.T) {
	tests := []struct {
		name     string
		game     games.Rules
		src      string
		wantLine int
		wantRule string
	}{
		{"illegal-line", mascarade.Game{}, "game mascarade players=A,B,C,D deal=Queen,Thief,King,Judge,Bishop,Cheat\nA claim King\n", 2, masquerade.RulePreparatory},
		{"illegal-line-2e", mascarade2.Game{}, "game mascarade2 players=A,B,C,D,E\nA peek\n", 2, masquerade.RulePreparatory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lt, err := localplay.Run(tt.game, []byte(tt.src), nil, false)
			var se *games.ScriptError
			if !errors.As(err, &se) || se.Line != tt.wantLine {
				t.Fatalf("error %v: want one naming line %d", err, tt.wantLine)
			}
			if lt == nil || lt.View().Rules() == nil {
				t.Fatal("the table is not kept")
			}
			if !bytes.Contains([]byte(err.Error()), []byte(tt.wantRule)) {
				t.Fatalf("error %v does not name rule %s", err, tt.wantRule)
			}
		})
	}
}
