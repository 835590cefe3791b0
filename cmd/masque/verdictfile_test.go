package main

import (
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
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

// TestVerifyInvalidEntryMustExtendTheLog is the third look's attack on
// T.verdict: two colluders, the author of entry n-1 signing two versions
// of it (A to an honest seat X, B kept), hold X's honest entry n, signed
// on A. They write the log up to B and, beside it, an invalid-entry
// verdict whose evidence is X's entry n: it does not chain onto B, the
// rules refuse it ("wrong previous hash"), and verify named X as having
// broken the rules (exit 1). An entry that does not extend the log shows
// no fault of its author (the previous entry's author may have signed
// another): verify ignores such a verdict with a warning.
func TestVerifyInvalidEntryMustExtendTheLog(t *testing.T) {
	h := vecTable(t, "verdict-fork", 0, true)
	vecPrepared(h)
	full := h.Transcript()
	n := len(full.Entries) - 1
	if n < 2 {
		t.Fatalf("%d entries: too short", len(full.Entries))
	}
	tr := *full
	tr.Entries = full.Entries[:n]
	enc, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.masque")
	if err := os.WriteFile(path, enc, 0o644); err != nil {
		t.Fatal(err)
	}
	// X's entry n as X signed it on the colluder's other version of
	// entry n-1 (another previous hash, X's own signature).
	x := *full.Entries[n]
	x.Prev[0] ^= 1
	x.Sign(h.GameID(), h.Seats[x.Seat].Sign)
	declarer := (int(x.Seat) + 1) % 4
	v := &p2p.Verdict{Kind: p2p.VerdictInvalidEntry, Game: h.GameID(), Pos: uint64(n), Seat: x.Seat,
		Reason: "previous hash does not match the log", Evidence: []*ledger.Entry{&x}, Declarer: uint8(declarer)}
	if err := v.Sign(h.Seats[declarer].Sign); err != nil {
		t.Fatal(err)
	}
	if _, err := writeVerdictFile(path, v); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runOut("verify", path)
	if code != 0 || strings.Contains(out, "breaks the rules") || !strings.Contains(errOut, "t.masque.verdict ignored") ||
		!strings.Contains(errOut, "does not extend this log") {
		t.Fatalf("verify: exit %d, out %q, err %q; want 0, the verdict ignored: entry %d does not extend this log", code, out, errOut, n)
	}
}

// FuzzVerdictFile: T.verdict is a file anyone may write beside a
// transcript. No content panics readVerdictFile or checkVerdict: the
// decoded verdict is checked as found, then once more re-signed by its
// declarer (and its evidence by the seat it names, when in range) so
// that the checks after the signatures are reached with arbitrary
// positions, seats and entries; a verdict that passes names seats of the
// roster.
func FuzzVerdictFile(f *testing.F) {
	var tr *ledger.Transcript
	var h interface {
		GameID() ledger.Hash
	}
	var keys []ed25519.PrivateKey
	f.Add([]byte("masque verdict v1\n"))
	f.Add([]byte("masque verdict v0\n\x04"))
	e := &ledger.Entry{Pos: 4, Seat: 0, Body: []byte{1, 2, 3}}
	for _, v := range []*p2p.Verdict{
		{Kind: p2p.VerdictTimeout, Pos: 4, Seat: 0, Reason: "silent", Declarer: 1},
		{Kind: p2p.VerdictInvalidEntry, Pos: 4, Seat: 0, Evidence: []*ledger.Entry{e}, Declarer: 2},
		{Kind: p2p.VerdictEquivocation, Pos: 2, Seat: 2, Evidence: []*ledger.Entry{e, e}, Declarer: 3},
		{Kind: p2p.VerdictInvalidEntry, Pos: 0, Seat: 0, Evidence: []*ledger.Entry{{Seat: 0, Body: []byte{0}}}, Declarer: 2},
	} {
		enc, err := v.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]byte(verdictMagic), enc...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if tr == nil {
			hh := vecTable(t, "verdict-fuzz", 0, true)
			vecPrepared(hh)
			tr, h = hh.Transcript(), hh
			for _, s := range hh.Seats {
				keys = append(keys, s.Sign)
			}
		}
		path := filepath.Join(t.TempDir(), "t.masque")
		if err := os.WriteFile(path+verdictSuffix, data, 0o644); err != nil {
			t.Fatal(err)
		}
		v, err := readVerdictFile(path)
		if err != nil || v == nil {
			return
		}
		g, err := newApp(nil, nil, nil).games.Lookup(tr.Roster.Game)
		if err != nil {
			t.Fatal(err)
		}
		check := func() {
			tb, err := table.Replay(tr, g)
			if err != nil {
				t.Fatal(err)
			}
			vv, err := checkVerdict(tr, tb, v)
			if err == nil && (vv.Seat >= len(tr.Roster.Seats) || vv.Declarer >= len(tr.Roster.Seats)) {
				t.Fatalf("verdict %v passed naming seats out of the roster", v)
			}
		}
		check()
		v.Game = h.GameID()
		for _, e := range v.Evidence {
			if int(e.Seat) < len(keys) {
				e.Sign(v.Game, keys[e.Seat])
			}
		}
		if int(v.Declarer) < len(keys) {
			if err := v.Sign(keys[v.Declarer]); err != nil {
				return
			}
		}
		check()
	})
}
