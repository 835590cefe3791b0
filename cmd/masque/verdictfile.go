package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/masque-games/masque/cmd/masque/internal/safefile"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
)

// A table stopped by a verdict keeps it beside its transcript T, in the
// file T.verdict (docs/protocol.md §6.1): the magic, then the signed
// verdict's encoding (docs/p2p.md, Faults and verdicts). 'masque verify
// T' reads it, checks it and reports it.
const (
	verdictSuffix = ".verdict"
	verdictMagic  = "masque verdict v1\n"
)

// writeVerdictFile writes v beside the transcript at path and returns the
// file's name.
func writeVerdictFile(path string, v *p2p.Verdict) (string, error) {
	enc, err := v.MarshalBinary()
	if err != nil {
		return "", err
	}
	if err := safefile.Write(path+verdictSuffix, append([]byte(verdictMagic), enc...), 0o644); err != nil {
		return "", err
	}
	return path + verdictSuffix, nil
}

// readVerdictFile reads the verdict beside the transcript at path: nil
// when there is none.
func readVerdictFile(path string) (*p2p.Verdict, error) {
	data, err := os.ReadFile(path + verdictSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(data) < len(verdictMagic) || string(data[:len(verdictMagic)]) != verdictMagic {
		return nil, fmt.Errorf("%s: not a masque verdict (bad magic)", path+verdictSuffix)
	}
	v, err := p2p.UnmarshalVerdict(data[len(verdictMagic):])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path+verdictSuffix, err)
	}
	return v, nil
}

// verifyVerdict is a checked verdict as verify reports it.
type verifyVerdict struct {
	Kind         string `json:"kind"`
	Pos          uint64 `json:"position"`
	Seat         int    `json:"seat"`
	Name         string `json:"name"`
	Declarer     int    `json:"declarer"`
	DeclarerName string `json:"declarer_name"`
	Reason       string `json:"reason"`
}

// checkVerdict checks v against the transcript tr, replayed into t: the
// declarer's signature and the evidence (p2p.Verdict.Verify), and that v
// is what stopped this log. A timeout names the seat the table expects at
// the position just past the last entry; an invalid entry is the entry
// that position refuses; an equivocation's two entries are at a position
// the log reaches.
func checkVerdict(tr *ledger.Transcript, t *table.Table, v *p2p.Verdict) (*verifyVerdict, error) {
	if err := v.Verify(tr.Roster); err != nil {
		return nil, err
	}
	n := uint64(len(tr.Entries))
	switch v.Kind {
	case p2p.VerdictTimeout:
		pos, seat, ok := t.Next()
		if !ok || pos != n || v.Pos != n || seat != v.Seat {
			return nil, fmt.Errorf("a timeout of seat %d at entry %d does not end this log of %d entries", v.Seat, v.Pos, n)
		}
	case p2p.VerdictInvalidEntry:
		if v.Pos != n {
			return nil, fmt.Errorf("an invalid entry %d does not end this log of %d entries", v.Pos, n)
		}
		if err := t.Apply(v.Evidence[0]); err == nil {
			return nil, fmt.Errorf("entry %d, called invalid, is valid after this log", v.Pos)
		}
	case p2p.VerdictEquivocation:
		if v.Pos > n {
			return nil, fmt.Errorf("an equivocation at entry %d is beyond this log of %d entries", v.Pos, n)
		}
	default:
		return nil, fmt.Errorf("a %v verdict is not one a table stops on", v.Kind)
	}
	return &verifyVerdict{Kind: v.Kind.String(), Pos: v.Pos, Seat: int(v.Seat), Name: tr.Roster.Seats[v.Seat].Name,
		Declarer: int(v.Declarer), DeclarerName: tr.Roster.Seats[v.Declarer].Name, Reason: v.Reason}, nil
}

// verdictText says what a checked verdict means, for verify's report.
func verdictText(v *verifyVerdict) string {
	switch v.Kind {
	case p2p.VerdictTimeout.String():
		return fmt.Sprintf("the table stopped at entry %d: seat %d (%s) timed out there (%s), declared and signed by seat %d (%s); a timeout is its declarer's word, since no evidence can show a silence",
			v.Pos, v.Seat, v.Name, v.Reason, v.Declarer, v.DeclarerName)
	case p2p.VerdictEquivocation.String():
		return fmt.Sprintf("the table stopped: seat %d (%s) signed two different entries for entry %d (both in the verdict, signatures checked); declared by seat %d (%s)",
			v.Seat, v.Name, v.Pos, v.Declarer, v.DeclarerName)
	}
	return fmt.Sprintf("the table stopped: entry %d by seat %d (%s) breaks the rules: %s (the entry is in the verdict, checked); declared by seat %d (%s)",
		v.Pos, v.Seat, v.Name, v.Reason, v.Declarer, v.DeclarerName)
}
