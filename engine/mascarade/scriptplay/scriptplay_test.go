package scriptplay

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/table"
)

// Every rule-book script, played through the real stack (keys, proofs,
// shares, signatures, wire encoding), must end in exactly the rules state
// the oracle driver reaches knowing every card, or fail on the same line;
// and its transcript must replay.
func TestBookScriptsThroughRealStack(t *testing.T) {
	files, err := filepath.Glob("../testdata/book-*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no book scripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := mascarade.ParseScript(src)
			if err != nil {
				t.Fatal(err)
			}
			if sc.Deal == nil {
				t.Skip("random deal: the oracle's deal differs")
			}
			want, wantErr := mascaradetest.RunScript(src)
			lt, gotErr := Run(src, true)
			var we, ge *mascarade.ScriptError
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
			rt, err := table.Replay(tr, mascarade.Game{})
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
// whole transcript (coins included) verifies.
func TestRandomDealThroughRealStack(t *testing.T) {
	src := []byte("game mascarade players=A,B,C,D,E\nA swap B yes\nB swap C no\nC swap D yes\nD swap E no\nE peek\nA claim King\n")
	lt, err := Run(src, true)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := lt.Transcript().MarshalBinary()
	tr, err := ledger.UnmarshalTranscript(enc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := table.Replay(tr, mascarade.Game{}); err != nil {
		t.Fatal(err)
	}
	if got := len(lt.Transcript().Entries); got < 10 {
		t.Fatalf("only %d entries: the deal coins are missing", got)
	}
}

// Flipping any single byte of a transcript makes the audit fail.
func TestTranscriptByteFlips(t *testing.T) {
	src := []byte("game mascarade players=A,B,C,D deal=Queen,Thief,King,Judge,Bishop,Cheat\nA swap B yes\nB swap centre1 no\nC swap D no\nD swap A no\nA peek\nB claim King\nC challenge\n")
	lt, err := Run(src, true)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := lt.Transcript().MarshalBinary()
	step := 1
	if testing.Short() {
		step = 7
	}
	for i := 0; i < len(enc); i += step {
		bad := bytes.Clone(enc)
		bad[i] ^= 0x01
		tr, err := ledger.UnmarshalTranscript(bad)
		if err != nil {
			continue
		}
		if _, err := table.Replay(tr, mascarade.Game{}); err == nil {
			t.Fatalf("byte %d flipped: transcript still verifies", i)
		}
	}
}
