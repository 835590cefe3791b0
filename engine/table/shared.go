package table

import (
	"runtime"
	"sync"
	"weak"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// Shared lets the tables of one process that apply the same entries keep
// one copy of what they keep of them: a private view's encrypted shares
// (kept for every later statement about the viewed card) and the night's
// ballots until their tally. Each table still decodes and checks every
// entry itself; only then does it keep, instead of its own decoded
// values, those another table decoded from the same bytes: the same
// entry hash and the same index within the entry, and decoding is
// deterministic, so the values are equal. 'masque demo' runs 18 seats in
// one process, each with its replica: their views' shares were 18
// copies of the same points (issue 28).
//
// Shared holds its values weakly: a value lives while a table keeps it.
// The values are never modified once kept (elements are never modified
// in place, and a kept share or ballot has every encoding cached), so
// tables on different goroutines may read them at once. A nil *Shared
// shares nothing.
type Shared struct {
	mu sync.Mutex
	m  map[sharedKey]any // weak.Pointer[T] of the kept value
}

// sharedKey names a value kept from an entry: the entry's hash, what it
// is and its index within the entry.
type sharedKey struct {
	entry ledger.Hash
	kind  uint8
	i     int
}

// Kinds of shared values.
const (
	sharedEncShare uint8 = iota + 1
	sharedBallot
)

// NewShared returns an empty Shared, for the tables of one process.
func NewShared() *Shared { return &Shared{m: make(map[sharedKey]any)} }

// Share makes t keep, from now on, the values another table of s kept
// from the same entries (see [Shared]).
func (t *Table) Share(s *Shared) { t.shared = s }

// Len is the number of values s holds a weak pointer to (tests).
func (s *Shared) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// keep returns the value kept under key by a table of s if it is still
// alive, else keeps v under key and returns it.
func keep[T any](s *Shared, key sharedKey, v *T) *T {
	if s == nil || v == nil {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if w, ok := s.m[key].(weak.Pointer[T]); ok {
		if old := w.Value(); old != nil {
			return old
		}
	}
	w := weak.Make(v)
	s.m[key] = w
	runtime.AddCleanup(v, s.forget, key)
	return v
}

// forget drops key once its value is no longer kept by any table.
func (s *Shared) forget(key sharedKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[key]; ok && weakDead(v) {
		delete(s.m, key)
	}
}

// weakDead reports whether a kept weak pointer's value is gone.
func weakDead(v any) bool {
	switch w := v.(type) {
	case weak.Pointer[mental.EncryptedShare]:
		return w.Value() == nil
	case weak.Pointer[mental.PowerBallot]:
		return w.Value() == nil
	}
	return true
}

// keepShares returns es, kept from entry e, each share replaced by the one
// another table of t's Shared kept from the same entry, if any.
func (t *Table) keepShares(e *ledger.Entry, es []*mental.EncryptedShare) []*mental.EncryptedShare {
	if t.shared == nil {
		return es
	}
	h := e.Hash()
	for i := range es {
		es[i] = keep(t.shared, sharedKey{entry: h, kind: sharedEncShare, i: i}, es[i])
	}
	return es
}
