package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/p2p"
)

// TestVerifyReportsTheVerdict: a table stopped by a timeout keeps the
// signed verdict beside its transcript (T.verdict), and 'masque verify
// T' checks it and reports it, naming the silent seat and the declarer
// (exit status 1), where it used to exit 0 saying only that the game is
// not finished. A verdict that does not check (a forged signature, a seat
// the table was not waiting for, another game's) is named in a warning
// and ignored.
func TestVerifyReportsTheVerdict(t *testing.T) {
	h := vecTable(t, "verdict-file", 0, true)
	vecPrepared(h)
	due, _ := h.Expect()
	tr := h.Transcript()
	enc, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.masque")
	if err := os.WriteFile(path, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	declarer := (due + 1) % 4
	verdict := func(seat int, signer int) *p2p.Verdict {
		v := &p2p.Verdict{Kind: p2p.VerdictTimeout, Game: h.GameID(), Pos: uint64(len(tr.Entries)), Seat: uint8(seat),
			Reason: "silent for 1m0s", Declarer: uint8(declarer)}
		if err := v.Sign(h.Seats[signer].Sign); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if _, err := writeVerdictFile(path, verdict(due, declarer)); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runOut("verify", path)
	want := "seat " + string(rune('0'+due)) + " (" + vecNames[due] + ") timed out"
	if code != exitFault || !strings.Contains(out, want) || !strings.Contains(out, "declared and signed by seat "+string(rune('0'+declarer))) ||
		!strings.Contains(errOut, "the table stopped: timeout: seat") {
		t.Fatalf("verify: exit %d, out %q, err %q; want exit 1 naming %q", code, out, errOut, want)
	}
	code, out, _ = runOut("verify", "--json", path)
	var res verifyResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if code != exitFault || res.Verdict == nil || res.Verdict.Kind != "timeout" || res.Verdict.Seat != due || res.Verdict.Declarer != declarer {
		t.Fatalf("verify --json: exit %d, %s", code, out)
	}

	for _, bad := range []struct {
		name string
		v    *p2p.Verdict
	}{
		{"forged", verdict(due, due)}, // signed by the blamed seat, not the declarer it names
		{"not the due seat", verdict((due+2)%4, declarer)},
	} {
		if _, err := writeVerdictFile(path, bad.v); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runOut("verify", path)
		if code != 0 || !strings.Contains(out, "not finished") || !strings.Contains(errOut, "t.masque.verdict ignored") {
			t.Errorf("%s: exit %d, out %q, err %q; want 0, the verdict ignored", bad.name, code, out, errOut)
		}
	}
}
