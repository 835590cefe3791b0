package roomcore

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine/ledger"
	"golang.org/x/crypto/cryptobyte"
)

// VerdictKind says why a table stopped.
type VerdictKind uint8

// Verdict kinds.
const (
	// VerdictInvalidEntry: the entry in Evidence[0], validly signed by
	// Seat, failed Replica.Apply (or, at position 0, does not start from
	// the game id). Every honest peer reaches it on its own, since all
	// run the same Apply. An entry that does not chain onto the log at a
	// later position is held, never judged: it may follow another version
	// of the previous entry, which that entry's author signed.
	VerdictInvalidEntry VerdictKind = 1
	// VerdictEquivocation: Evidence holds two different entries, both
	// validly signed by Seat for position Pos, ordered by entry hash. The
	// evidence proves itself, so a peer that receives it adopts it.
	VerdictEquivocation VerdictKind = 2
	// VerdictDivergence: more than half the table reported another state
	// hash after Pos than the declarer's replica, which stopped; Seat is
	// the declarer itself (a seat's statement about itself: peers keep
	// it, and end with it where they would time that seat out). No
	// evidence can show who is wrong, so one naming another seat than its
	// declarer is never adopted.
	VerdictDivergence VerdictKind = 3
	// VerdictTimeout: Seat was expected to author Pos and stayed silent past
	// the table's limit. Only the declarer's signature backs it.
	VerdictTimeout VerdictKind = 4
)

func (k VerdictKind) String() string {
	switch k {
	case VerdictInvalidEntry:
		return "invalid-entry"
	case VerdictEquivocation:
		return "equivocation"
	case VerdictDivergence:
		return "divergence"
	case VerdictTimeout:
		return "timeout"
	}
	return fmt.Sprintf("verdict(%d)", uint8(k))
}

const (
	labelVerdict   = "masque/v1/verdict"
	maxReasonBytes = 1024
	maxEvidence    = 2
)

// Verdict is the signed statement that ends a table without a result.
// Kind, Game, Pos, Seat, Reason and Evidence say what happened; Declarer is
// the seat that stored and signed it (the local seat, or the peer a
// self-proving verdict was received from) and Sig its signature over
// [Verdict.SigningBytes].
type Verdict struct {
	Kind     VerdictKind
	Game     ledger.Hash
	Pos      uint64
	Seat     uint8 // the seat blamed
	Reason   string
	Evidence []*ledger.Entry
	Declarer uint8
	Sig      [ed25519.SignatureSize]byte
}

func (v *Verdict) String() string {
	return fmt.Sprintf("%s: seat %d at position %d: %s (declared by seat %d)", v.Kind, v.Seat, v.Pos, v.Reason, v.Declarer)
}

func (v *Verdict) body(b *cryptobyte.Builder) error {
	if len(v.Evidence) > maxEvidence {
		return fmt.Errorf("verdict: %d evidence entries, limit %d", len(v.Evidence), maxEvidence)
	}
	b.AddUint8(uint8(v.Kind))
	b.AddBytes(v.Game[:])
	b.AddUint64(v.Pos)
	b.AddUint8(v.Seat)
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(truncate(v.Reason, maxReasonBytes))) })
	b.AddUint8(uint8(len(v.Evidence)))
	for _, e := range v.Evidence {
		if err := addEntry(b, e); err != nil {
			return err
		}
	}
	b.AddUint8(v.Declarer)
	return nil
}

// SigningBytes is what the declarer signs: a label and every field but Sig.
func (v *Verdict) SigningBytes() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddBytes([]byte(labelVerdict))
	if err := v.body(&b); err != nil {
		return nil, err
	}
	return b.Bytes()
}

// Sign sets Declarer's signature.
func (v *Verdict) Sign(key ed25519.PrivateKey) error {
	v.Reason = truncate(v.Reason, maxReasonBytes)
	msg, err := v.SigningBytes()
	if err != nil {
		return err
	}
	copy(v.Sig[:], ed25519.Sign(key, msg))
	return nil
}

// Verify checks the declarer's signature and, for equivocation and
// invalid-entry verdicts, the evidence's signatures and shape against the
// roster.
func (v *Verdict) Verify(r *ledger.Roster) error {
	if int(v.Declarer) >= len(r.Seats) || int(v.Seat) >= len(r.Seats) {
		return errors.New("verdict: seat out of range")
	}
	gid, err := r.GameID()
	if err != nil {
		return err
	}
	if v.Game != gid {
		return errors.New("verdict: for another game")
	}
	msg, err := v.SigningBytes()
	if err != nil {
		return err
	}
	if !ed25519.Verify(r.Seats[v.Declarer].SignKey, msg, v.Sig[:]) {
		return fmt.Errorf("verdict: bad signature by declarer seat %d", v.Declarer)
	}
	for _, e := range v.Evidence {
		if e.Seat != v.Seat || e.Pos != v.Pos {
			return fmt.Errorf("verdict: evidence is entry %d by seat %d, verdict names %d by seat %d", e.Pos, e.Seat, v.Pos, v.Seat)
		}
		if err := e.VerifySignature(gid, r.Seats[v.Seat].SignKey); err != nil {
			return fmt.Errorf("verdict: evidence: %w", err)
		}
	}
	switch v.Kind {
	case VerdictEquivocation:
		if len(v.Evidence) != 2 {
			return errors.New("verdict: equivocation needs two entries")
		}
		h0, h1 := v.Evidence[0].Hash(), v.Evidence[1].Hash()
		if bytes.Compare(h0[:], h1[:]) >= 0 {
			return errors.New("verdict: equivocation entries equal or out of order")
		}
	case VerdictInvalidEntry:
		if len(v.Evidence) != 1 {
			return errors.New("verdict: invalid-entry needs one entry")
		}
	case VerdictDivergence, VerdictTimeout:
	default:
		return fmt.Errorf("verdict: unknown kind %d", v.Kind)
	}
	return nil
}

// MarshalBinary encodes v with its signature.
func (v *Verdict) MarshalBinary() ([]byte, error) {
	var b cryptobyte.Builder
	if err := v.body(&b); err != nil {
		return nil, err
	}
	b.AddBytes(v.Sig[:])
	return b.Bytes()
}

// UnmarshalVerdict decodes a verdict strictly. It does not verify it.
func UnmarshalVerdict(data []byte) (*Verdict, error) {
	s := cryptobyte.String(data)
	v, err := readVerdict(&s)
	if err != nil {
		return nil, err
	}
	if !s.Empty() {
		return nil, fmt.Errorf("verdict: %d trailing bytes", len(s))
	}
	return v, nil
}

// maxDeclarations bounds the declarations stored beside a verdict: one
// per other seat of the largest roster.
const maxDeclarations = 255

// MarshalStoredVerdict encodes what a state directory keeps of the
// verdict that ended its table: v, then the declarations that made this
// peer adopt it, when it is a late timeout declared by other seats
// (docs/p2p.md, Restart): each verdict's encoding, one after another.
func MarshalStoredVerdict(v *Verdict, declarations []*Verdict) ([]byte, error) {
	out, err := v.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if len(declarations) > maxDeclarations {
		return nil, fmt.Errorf("verdict: %d declarations, limit %d", len(declarations), maxDeclarations)
	}
	for _, d := range declarations {
		enc, err := d.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, enc...)
	}
	return out, nil
}

// UnmarshalStoredVerdict decodes a state directory's verdict record
// ([MarshalStoredVerdict]) strictly: the verdict, and the declarations
// stored beside it (none but for a late timeout). It verifies nothing.
func UnmarshalStoredVerdict(data []byte) (*Verdict, []*Verdict, error) {
	s := cryptobyte.String(data)
	v, err := readVerdict(&s)
	if err != nil {
		return nil, nil, err
	}
	var decl []*Verdict
	for !s.Empty() {
		if len(decl) == maxDeclarations {
			return nil, nil, fmt.Errorf("verdict: more than %d declarations", maxDeclarations)
		}
		d, err := readVerdict(&s)
		if err != nil {
			return nil, nil, fmt.Errorf("verdict: declaration %d: %w", len(decl)+1, err)
		}
		decl = append(decl, d)
	}
	return v, decl, nil
}

// readVerdict reads one verdict's encoding from s.
func readVerdict(s *cryptobyte.String) (*Verdict, error) {
	v := new(Verdict)
	var kind, n uint8
	var reason cryptobyte.String
	if !s.ReadUint8(&kind) || !s.CopyBytes(v.Game[:]) || !s.ReadUint64(&v.Pos) || !s.ReadUint8(&v.Seat) ||
		!s.ReadUint16LengthPrefixed(&reason) || !s.ReadUint8(&n) {
		return nil, errors.New("verdict: truncated")
	}
	if len(reason) > maxReasonBytes || n > maxEvidence {
		return nil, errors.New("verdict: over a limit")
	}
	v.Kind, v.Reason = VerdictKind(kind), string(reason)
	for range int(n) {
		e, err := readEntry(s)
		if err != nil {
			return nil, fmt.Errorf("verdict: evidence: %w", err)
		}
		v.Evidence = append(v.Evidence, e)
	}
	if !s.ReadUint8(&v.Declarer) || !s.CopyBytes(v.Sig[:]) {
		return nil, errors.New("verdict: truncated")
	}
	return v, nil
}

// SortEvidence orders two conflicting entries by hash so that every peer
// states the same evidence in the same order.
func SortEvidence(a, b *ledger.Entry) []*ledger.Entry {
	out := []*ledger.Entry{a, b}
	slices.SortFunc(out, func(x, y *ledger.Entry) int {
		hx, hy := x.Hash(), y.Hash()
		return bytes.Compare(hx[:], hy[:])
	})
	return out
}

// truncate cuts s to at most n bytes on a UTF-8 boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
