package mental

import "github.com/masque-games/masque/mental/internal/transcript"

// encodings remembers the canonical encodings of elements this package
// already holds as bytes: decoded from a message, or computed once for a
// key that many proofs of a batch absorb. Every ristretto255 encoding costs
// a square root (about 4 µs, a tenth of a share's verification), and a
// transcript absorbs every point of a statement.
//
// Entries are keyed by pointer, so an element replaced in a struct is
// simply not found and is encoded afresh. Elements are never modified in
// place once made (the contract Ciphertext's cached encoding relies on
// too), so an entry cannot go stale. A nil encodings is an empty cache.
type encodings map[*Element]*[ElementSize]byte

// remember records e's encoding, as read from the wire.
func (k encodings) remember(e *Element, enc []byte) {
	var b [ElementSize]byte
	copy(b[:], enc)
	k[e] = &b
}

// keep returns e's encoding and caches it (k must not be nil).
func (k encodings) keep(e *Element) []byte {
	if b, ok := k[e]; ok {
		return b[:]
	}
	var b [ElementSize]byte
	e.AppendBytes(b[:0])
	k[e] = &b
	return b[:]
}

// encodingOf returns e's encoding from the first cache that has it, or
// computes it.
func encodingOf(e *Element, caches ...encodings) []byte {
	for _, k := range caches {
		if b, ok := k[e]; ok {
			return b[:]
		}
	}
	return e.AppendBytes(nil)
}

// absorbElement appends e to t exactly as transcript.AppendElement does.
func absorbElement(t *transcript.Transcript, label string, e *Element, caches ...encodings) {
	t.Append(label, encodingOf(e, caches...))
}

// absorbElements appends es to t exactly as transcript.AppendElements
// does: the count, then each element.
func absorbElements(t *transcript.Transcript, label string, es []*Element, caches ...encodings) {
	t.AppendUint64(label+"/n", uint64(len(es)))
	for _, e := range es {
		t.Append(label, encodingOf(e, caches...))
	}
}
