package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// TestPluralityTamperingCrossVerify writes, when MASQUE_XVERIFY_DIR names
// a directory, tampered copies of the plurality kill's game (its count
// lookups, kind 11, and its blind bodies of m steps, kind 10) with a
// manifest.json of masque's own verdicts, for the outside verifiers to
// check that they refuse the same tampering with the same reason:
//
//	MASQUE_XVERIFY_DIR=/tmp/x go test ./cmd/masque -run TestPluralityTamperingCrossVerify
//	MASQUE_VECTORS=/tmp/x python3 .ci/pyverify/run_vectors.py; .ci/freshverify/run /tmp/x
//
// Without it, it checks only that masque refuses each with the reason
// named here.
func TestPluralityTamperingCrossVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 12-seat game")
	}
	dir := os.Getenv("MASQUE_XVERIFY_DIR")
	lt := mafiaPluralityGame(t)
	tr := lt.Transcript()
	decode := func(k int) *table.Body {
		b, err := table.UnmarshalBody(tr.Entries[k].Body, 5)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var lookups, blinds []int
	for k, e := range tr.Entries {
		switch table.BodyKind(e.Body[0]) {
		case table.BodyLookup:
			lookups = append(lookups, k)
		case table.BodyBlind:
			if len(lookups) > 0 && len(decode(k).Blinds) > 1 {
				blinds = append(blinds, k)
			}
		}
	}
	if len(lookups) < 2 || len(blinds) < 2 {
		t.Fatalf("%d lookups and %d blind bodies of several steps", len(lookups), len(blinds))
	}
	lk, bk := lookups[1], blinds[1]
	type tamper struct {
		name, reason string
		k            int
		body         func() *table.Body
	}
	tampers := []tamper{
		{"lookup-w-moved", table.ReasonBadLookup, lk, func() *table.Body {
			b := decode(lk)
			w := b.Lookup.W[0]
			b.Lookup.W = mental.Card{{A: w.A, B: mental.Identity().Add(w.B, mental.Base())}}
			return b
		}},
		{"lookup-fewer-targets", table.ReasonBadLookup, lk, func() *table.Body {
			b := decode(lk)
			n := b.LookupTargets - 1
			enc, _ := b.Lookup.MarshalBinary()
			l, err := mental.UnmarshalCountLookup(enc[:mental.CountLookupSize(n)], n)
			if err != nil {
				t.Fatal(err)
			}
			return &table.Body{Kind: table.BodyLookup, Lookup: l, LookupTargets: n}
		}},
		{"lookup-previous-seat", table.ReasonBadLookup, lk, func() *table.Body { return decode(lookups[0]) }},
		{"blind-steps-exchanged", table.ReasonBadBlind, bk, func() *table.Body {
			b := decode(bk)
			b.Blinds[0], b.Blinds[1] = b.Blinds[1], b.Blinds[0]
			return b
		}},
		{"blind-step-missing", table.ReasonBadBlind, bk, func() *table.Body {
			b := decode(bk)
			b.Blinds = b.Blinds[:len(b.Blinds)-1]
			return b
		}},
		{"blind-previous-seat", table.ReasonBadBlind, bk, func() *table.Body { return decode(blinds[0]) }},
	}
	type fault struct {
		Position uint64 `json:"position"`
		Seat     int    `json:"seat"`
		Reason   string `json:"reason"`
	}
	type vec struct {
		File          string `json:"file"`
		Game          string `json:"game"`
		Description   string `json:"description"`
		Exit          int    `json:"exit"`
		Valid         bool   `json:"valid"`
		Entries       int    `json:"entries"`
		Complete      bool   `json:"complete"`
		DealSource    string `json:"deal_source"`
		KeysPublished bool   `json:"keys_published"`
		Fault         *fault `json:"fault"`
	}
	var vs []vec
	for _, tc := range tampers {
		e := resign(t, lt, tr, tc.k, int(tr.Entries[tc.k].Seat), tc.body())
		cut := &ledger.Transcript{Roster: tr.Roster, RosterSigs: tr.RosterSigs, Entries: append(tr.Entries[:tc.k:tc.k], e)}
		_, err := table.Replay(cut, gameOf(t, tr))
		var f *table.Fault
		if !errors.As(err, &f) || f.Reason != tc.reason || f.Pos != e.Pos || f.Seat != int(e.Seat) {
			t.Errorf("%s: masque's verdict %v, want %s by seat %d at %d", tc.name, err, tc.reason, e.Seat, e.Pos)
			continue
		}
		if dir == "" {
			continue
		}
		data, n := encodeTranscript(t, cut)
		file := "tampered-plurality-" + tc.name + ".masque"
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, vec{File: file, Game: "mafia", Description: tc.name, Exit: 1, Entries: n, DealSource: "fixed",
			Fault: &fault{Position: f.Pos, Seat: f.Seat, Reason: f.Reason}})
	}
	if dir != "" {
		raw, err := os.ReadFile(filepath.Join(vectorDir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m["vectors"] = vs
		out, _ := json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, "manifest.json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
