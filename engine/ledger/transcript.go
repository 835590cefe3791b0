package ledger

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// TranscriptMagic starts every transcript file.
const TranscriptMagic = "masque transcript v1\n"

// MaxEntries bounds the entries of a transcript a decoder accepts.
const MaxEntries = 1 << 20

// Transcript is a finished (or interrupted) game as a file: the roster,
// every seat's signature on it, and the entries in order. It is
// everything an auditor needs.
type Transcript struct {
	Roster     *Roster
	RosterSigs [][ed25519.SignatureSize]byte // by seat
	Entries    []*Entry
}

// MarshalBinary returns the canonical encoding of t.
func (t *Transcript) MarshalBinary() ([]byte, error) {
	r, err := t.Roster.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var b cryptobyte.Builder
	b.AddBytes([]byte(TranscriptMagic))
	b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(r) })
	b.AddUint8(uint8(len(t.RosterSigs)))
	for _, s := range t.RosterSigs {
		b.AddBytes(s[:])
	}
	b.AddUint32(uint32(len(t.Entries)))
	for _, e := range t.Entries {
		enc, err := e.MarshalBinary()
		if err != nil {
			return nil, err
		}
		b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(enc) })
	}
	return b.Bytes()
}

func readU32Prefixed(s *cryptobyte.String, out *[]byte, limit int) bool {
	var n uint32
	if !s.ReadUint32(&n) || int(n) > limit {
		return false
	}
	return s.ReadBytes(out, int(n))
}

// ErrTruncated is an entry cut short by the end of the file.
var ErrTruncated = errors.New("truncated")

// EntryError is a transcript file whose entry Index, of the Count it
// announces, does not decode (cut short, or malformed); the Index entries
// before it did.
type EntryError struct {
	Index, Count int
	Err          error
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("transcript: entry %d of %d: %v", e.Index, e.Count, e.Err)
}

// Unwrap returns the entry's fault.
func (e *EntryError) Unwrap() error { return e.Err }

// UnmarshalTranscript decodes a transcript strictly and checks every roster
// signature. It does not replay the entries (see engine/table).
func UnmarshalTranscript(data []byte) (*Transcript, error) {
	s := cryptobyte.String(data)
	var magic []byte
	if !s.ReadBytes(&magic, len(TranscriptMagic)) || string(magic) != TranscriptMagic {
		return nil, errors.New("transcript: not a masque transcript (bad magic)")
	}
	var rb []byte
	if !readU32Prefixed(&s, &rb, 1<<16) {
		return nil, errors.New("transcript: roster truncated")
	}
	r, err := UnmarshalRoster(rb)
	if err != nil {
		return nil, fmt.Errorf("transcript: %w", err)
	}
	t := &Transcript{Roster: r}
	var n uint8
	if !s.ReadUint8(&n) || int(n) != len(r.Seats) {
		return nil, fmt.Errorf("transcript: want %d roster signatures", len(r.Seats))
	}
	t.RosterSigs = make([][ed25519.SignatureSize]byte, n)
	for i := range t.RosterSigs {
		if !s.CopyBytes(t.RosterSigs[i][:]) {
			return nil, errors.New("transcript: roster signatures truncated")
		}
	}
	var count uint32
	if !s.ReadUint32(&count) || count > MaxEntries {
		return nil, errors.New("transcript: bad entry count")
	}
	for i := range count {
		var eb []byte
		if !readU32Prefixed(&s, &eb, MaxBodyBytes+256) {
			return nil, &EntryError{Index: int(i), Count: int(count), Err: ErrTruncated}
		}
		e, err := UnmarshalEntry(eb)
		if err != nil {
			return nil, &EntryError{Index: int(i), Count: int(count), Err: err}
		}
		t.Entries = append(t.Entries, e)
	}
	if !s.Empty() {
		return nil, fmt.Errorf("transcript: %d trailing bytes", len(s))
	}
	if err := t.VerifyRoster(); err != nil {
		return nil, err
	}
	return t, nil
}

// VerifyRoster checks that every seat signed the roster.
func (t *Transcript) VerifyRoster() error {
	id, err := t.Roster.GameID()
	if err != nil {
		return err
	}
	msg := RosterSigningBytes(id)
	if len(t.RosterSigs) != len(t.Roster.Seats) {
		return fmt.Errorf("transcript: %d roster signatures for %d seats", len(t.RosterSigs), len(t.Roster.Seats))
	}
	for i, s := range t.Roster.Seats {
		if !ed25519.Verify(s.SignKey, msg, t.RosterSigs[i][:]) {
			return fmt.Errorf("transcript: seat %d (%s) did not sign this roster", i, s.Name)
		}
	}
	return nil
}
