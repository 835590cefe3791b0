package scriptplay

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/table"
)

func loadTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "testdata", filepath.FromSlash(name)))
}

// Every testdata script with a fixed deal, played through the real stack
// (keys, proofs, shares, the Princess's encrypted shares, signatures, wire
// encoding), must end in exactly the rules state the oracle driver reaches
// knowing every card, or fail on the same line; and its transcript must
// replay.
func TestScriptsThroughRealStack(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := mascarade2.ParseScript(src, loadTestdata)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Deal == nil {
				t.Skip("random deal: the oracle's deal differs")
			}
			want, wantErr := mascarade2test.RunScript(src, loadTestdata)
			lt, gotErr := Run(src, loadTestdata, true)
			var we, ge *mascarade2.ScriptError
			if errors.As(wantErr, &we) != errors.As(gotErr, &ge) || (we != nil && we.Line != ge.Line) {
				t.Fatalf("oracle error %v, real stack error %v", wantErr, gotErr)
			}
			if wantErr != nil {
				return
			}
			wb, _ := want.AppendBinary(nil)
			gb, _ := State(lt).AppendBinary(nil)
			if !bytes.Equal(wb, gb) {
				t.Fatalf("states differ:\noracle: %v\nreal:   %v", want, State(lt))
			}
			enc, err := lt.Transcript().MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ledger.UnmarshalTranscript(enc)
			if err != nil {
				t.Fatal(err)
			}
			rt, err := table.Replay(tr, mascarade2.Game{})
			if err != nil {
				t.Fatalf("transcript does not replay: %v", err)
			}
			if rt.StateHash() != lt.View().StateHash() {
				t.Fatal("replayed state hash differs from the players'")
			}
		})
	}
}

// A script without deal= is dealt from the seats' joint coin, and the
// whole transcript verifies.
func TestRandomDealThroughRealStack(t *testing.T) {
	src := []byte("game mascarade2 players=A,B,C,D,E\nA swap B yes\nB swap C no\nC swap D yes\nD swap E no\nE peek\nA claim King\n")
	lt, err := Run(src, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := lt.Transcript().MarshalBinary()
	tr, err := ledger.UnmarshalTranscript(enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.Replay(tr, mascarade2.Game{}); err != nil {
		t.Fatal(err)
	}
}
