// Package tabletest is a test harness for the table layer: a whole table in
// one process, like engine/local, but with every seat's keys in the test's
// hands, so a test can make one seat misbehave among honest replicas and
// check that every honest replica rejects the entry the same way.
//
// It is test support only: nothing in the shipped program imports it.
package tabletest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// Seat is one seat's keys, private side and replica.
type Seat struct {
	Name    string
	Sign    ed25519.PrivateKey
	Card    *mental.SecretKey
	View    *mental.SecretKey
	Player  *table.Player
	Replica *table.Table
}

// Harness is a table whose seats all live in the test.
type Harness struct {
	TB         testing.TB
	Game       table.Game
	Roster     *ledger.Roster
	RosterSigs [][ed25519.SignatureSize]byte
	Seats      []*Seat
	Entries    []*ledger.Entry // the honest log so far
}

// DeriveBytes returns 32 deterministic bytes for a label.
func DeriveBytes(parts ...string) []byte {
	h := sha512.New512_256()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum(nil)
}

// DeriveCardKey returns a deterministic card key for a label.
func DeriveCardKey(parts ...string) *mental.SecretKey { return deriveKey(append(parts, "card")...) }

// DeriveViewKey returns a deterministic viewing key for a label.
func DeriveViewKey(parts ...string) *mental.SecretKey { return deriveKey(append(parts, "view")...) }

func deriveKey(parts ...string) *mental.SecretKey {
	b := DeriveBytes(parts...)
	b[31] &= 0x0f // below the group order: canonical
	b[0] |= 1     // never zero
	sk, err := mental.SecretKeyFromBytes(b)
	if err != nil {
		panic(err)
	}
	return sk
}

// DeriveSignKey returns a deterministic signing key for a label.
func DeriveSignKey(parts ...string) ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(DeriveBytes(append(parts, "sign")...))
}

// Keys are the keys and identity of one seat of a roster being built.
type Keys struct {
	Name   string
	PeerID []byte
	Sign   ed25519.PrivateKey
	Card   *mental.SecretKey
	View   *mental.SecretKey
}

// Secrets returns the seat's two secret keys.
func (k Keys) Secrets() table.SeatSecrets { return table.SeatSecrets{Card: k.Card, View: k.View} }

// SeatKeys derives the keys of names under seed.
func SeatKeys(seed string, names []string) []Keys {
	var out []Keys
	for _, n := range names {
		sign := DeriveSignKey(seed, n)
		out = append(out, Keys{Name: n, PeerID: append([]byte("test:"), sign.Public().(ed25519.PublicKey)[:8]...),
			Sign: sign, Card: DeriveCardKey(seed, n), View: DeriveViewKey(seed, n)})
	}
	return out
}

// TableID derives a table id from seed.
func TableID(seed string) [16]byte {
	var id [16]byte
	copy(id[:], DeriveBytes(seed, "table"))
	return id
}

// Roster builds and signs the roster of keys under tableID; each seat's
// card key is proven under its own seat context.
func Roster(game table.Game, tableID [16]byte, keys []Keys, opts table.Options) (*ledger.Roster, [][ed25519.SignatureSize]byte, error) {
	optBytes, err := opts.MarshalBinary()
	if err != nil {
		return nil, nil, err
	}
	r := &ledger.Roster{TableID: tableID, Game: game.Name(), Options: optBytes}
	for i, k := range keys {
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: k.Name, PeerID: k.PeerID,
			SignKey: k.Sign.Public().(ed25519.PublicKey), Keys: k.Secrets().PublicKeys(tableID, i, k.PeerID)})
	}
	sigs, err := SignRoster(r, keys)
	return r, sigs, err
}

// SignRoster returns every seat's signature on r.
func SignRoster(r *ledger.Roster, keys []Keys) ([][ed25519.SignatureSize]byte, error) {
	id, err := r.GameID()
	if err != nil {
		return nil, err
	}
	var sigs [][ed25519.SignatureSize]byte
	for _, k := range keys {
		var sig [ed25519.SignatureSize]byte
		copy(sig[:], ed25519.Sign(k.Sign, ledger.RosterSigningBytes(id)))
		sigs = append(sigs, sig)
	}
	return sigs, nil
}

// New seats names at a table for game under opts, with keys derived from
// seed, and posts every automatic entry (deal coins) that follows.
func New(tb testing.TB, game table.Game, seed string, names []string, opts table.Options) *Harness {
	tb.Helper()
	h := NewManual(tb, game, seed, names, opts)
	h.Auto()
	return h
}

// NewManual is New without the automatic entries: the log is empty.
func NewManual(tb testing.TB, game table.Game, seed string, names []string, opts table.Options) *Harness {
	tb.Helper()
	keys := SeatKeys(seed, names)
	r, sigs, err := Roster(game, TableID(seed), keys, opts)
	if err != nil {
		tb.Fatal(err)
	}
	h := &Harness{TB: tb, Game: game, Roster: r, RosterSigs: sigs}
	for i, k := range keys {
		rep, err := table.New(r, game)
		if err != nil {
			tb.Fatal(err)
		}
		h.Seats = append(h.Seats, &Seat{Name: k.Name, Sign: k.Sign, Card: k.Card, View: k.View,
			Player: table.NewPlayer(i, k.Sign, k.Secrets()), Replica: rep})
	}
	return h
}

// View is seat 0's replica.
func (h *Harness) View() *table.Table { return h.Seats[0].Replica }

// GameID is the roster's hash.
func (h *Harness) GameID() ledger.Hash { return h.View().GameID() }

// Prev is the hash the next entry must name.
func (h *Harness) Prev() ledger.Hash {
	if len(h.Entries) == 0 {
		return h.GameID()
	}
	return h.Entries[len(h.Entries)-1].Hash()
}

// Transcript returns the honest log as a transcript, followed by extra.
func (h *Harness) Transcript(extra ...*ledger.Entry) *ledger.Transcript {
	return &ledger.Transcript{Roster: h.Roster, RosterSigs: h.RosterSigs,
		Entries: append(slices.Clone(h.Entries), extra...)}
}

// Sign returns an entry at pos claiming seat as its author, chained on
// prev, carrying body, signed with signer's key.
func (h *Harness) Sign(signer int, pos uint64, seat uint8, prev ledger.Hash, body []byte) *ledger.Entry {
	e := &ledger.Entry{Pos: pos, Seat: seat, Prev: prev, Body: body}
	e.Sign(h.GameID(), h.Seats[signer].Sign)
	return e
}

// Entry returns body as a validly signed entry by seat at the next position.
func (h *Harness) Entry(seat int, body []byte) *ledger.Entry {
	return h.Sign(seat, h.View().Pos(), uint8(seat), h.Prev(), body)
}

// Encode returns b's encoding or fails the test.
func (h *Harness) Encode(b *table.Body) []byte {
	h.TB.Helper()
	enc, err := b.MarshalBinary()
	if err != nil {
		h.TB.Fatal(err)
	}
	return enc
}

// Expect returns the seat due to author the next entry and its body kind.
func (h *Harness) Expect() (int, table.BodyKind) {
	s, k, ok := h.View().Expect()
	if !ok {
		h.TB.Fatal("no entry is expected")
	}
	return int(s), k
}

// Publish applies e on every replica through the wire encoding, checks the
// replicas agree, lets every player observe, and appends e to the log.
func (h *Harness) Publish(e *ledger.Entry) {
	h.TB.Helper()
	wire, err := e.MarshalBinary()
	if err != nil {
		h.TB.Fatal(err)
	}
	for _, s := range h.Seats {
		got, err := ledger.UnmarshalEntry(wire)
		if err != nil {
			h.TB.Fatal(err)
		}
		if err := s.Replica.Apply(got); err != nil {
			h.TB.Fatalf("seat %s rejects an honest entry: %v", s.Name, err)
		}
	}
	for _, s := range h.Seats[1:] {
		if s.Replica.StateHash() != h.View().StateHash() {
			h.TB.Fatalf("replicas diverge after entry %d", e.Pos)
		}
	}
	for _, s := range h.Seats {
		if err := s.Player.Observe(s.Replica); err != nil {
			h.TB.Fatalf("seat %s: %v", s.Name, err)
		}
	}
	h.Entries = append(h.Entries, e)
}

// Auto posts every entry that needs no decision.
func (h *Harness) Auto() {
	h.TB.Helper()
	for {
		seat, _, ok := h.View().Expect()
		if !ok {
			return
		}
		s := h.Seats[seat]
		b, auto, err := s.Player.AutoBody(s.Replica)
		if err != nil {
			h.TB.Fatal(err)
		}
		if !auto {
			return
		}
		h.Publish(h.Entry(int(seat), h.Encode(b)))
	}
}

// AutoBody is the honest automatic body the next author would post.
func (h *Harness) AutoBody() (int, *table.Body) {
	h.TB.Helper()
	seat, _ := h.Expect()
	s := h.Seats[seat]
	b, ok, err := s.Player.AutoBody(s.Replica)
	if err != nil || !ok {
		h.TB.Fatalf("seat %d has no automatic body: %v", seat, err)
	}
	return seat, b
}

// MoveBody is seat's honest body for m.
func (h *Harness) MoveBody(seat int, m engine.Move, swaps ...bool) *table.Body {
	h.TB.Helper()
	s := h.Seats[seat]
	b, err := s.Player.MoveBody(s.Replica, m, swaps)
	if err != nil {
		h.TB.Fatalf("seat %d cannot play %v: %v", seat, m, err)
	}
	return b
}

// Move plays an honest move, then every automatic entry.
func (h *Harness) Move(seat int, kind uint8, args []int, swaps ...bool) {
	h.TB.Helper()
	h.Play(seat, kind, args, swaps...)
	h.Auto()
}

// Play plays an honest move and nothing after it.
func (h *Harness) Play(seat int, kind uint8, args []int, swaps ...bool) {
	h.TB.Helper()
	b := h.MoveBody(seat, engine.Move{Seat: engine.Seat(seat), Kind: kind, Args: args}, swaps...)
	h.Publish(h.Entry(seat, h.Encode(b)))
}

type snapshot struct {
	pos   uint64
	hash  ledger.Hash
	log   int
	phase table.Phase
}

func snap(t *table.Table) snapshot {
	return snapshot{t.Pos(), t.StateHash(), t.Len(), t.Phase()}
}

// Reject offers e to every replica (through the wire encoding when e can
// be encoded) and checks that each rejects it with the same *table.Fault,
// that no replica changed, and that table.Replay of the honest transcript
// followed by e stops on the same Fault. It returns the Fault.
func (h *Harness) Reject(e *ledger.Entry) *table.Fault {
	h.TB.Helper()
	wire, werr := e.MarshalBinary()
	var first *table.Fault
	for _, s := range h.Seats {
		got := e
		if werr == nil {
			var err error
			if got, err = ledger.UnmarshalEntry(wire); err != nil {
				h.TB.Fatalf("entry does not survive its own encoding: %v", err)
			}
		}
		before := snap(s.Replica)
		err := s.Replica.Apply(got)
		if err == nil {
			h.TB.Fatalf("seat %s accepted the bad entry %d by seat %d", s.Name, e.Pos, e.Seat)
		}
		var f *table.Fault
		if !errors.As(err, &f) {
			h.TB.Fatalf("seat %s: rejection is not a *table.Fault: %v", s.Name, err)
		}
		if after := snap(s.Replica); after != before {
			h.TB.Fatalf("seat %s: a rejected entry changed the replica (%+v -> %+v)", s.Name, before, after)
		}
		if first == nil {
			first = f
		} else if !SameFault(first, f) {
			h.TB.Fatalf("replicas disagree: %v vs %v", first, f)
		}
	}
	// The auditor's path: the whole transcript, through its file format.
	tr := h.Transcript(e)
	if enc, err := tr.MarshalBinary(); err == nil {
		dec, err := ledger.UnmarshalTranscript(enc)
		if err != nil {
			h.TB.Fatalf("transcript with the bad entry does not decode: %v", err)
		}
		tr = dec
	}
	rt, err := table.Replay(tr, h.Game)
	var f *table.Fault
	if !errors.As(err, &f) {
		h.TB.Fatalf("replay: want a *table.Fault, got %v", err)
	}
	if !SameFault(first, f) {
		h.TB.Fatalf("replay stops on %v, replicas on %v", f, first)
	}
	if rt == nil || rt.StateHash() != h.View().StateHash() {
		h.TB.Fatal("replay's table before the bad entry differs from the replicas'")
	}
	return first
}

// RejectBody offers body as the next entry of seat (validly signed).
func (h *Harness) RejectBody(seat int, body []byte) *table.Fault {
	h.TB.Helper()
	return h.Reject(h.Entry(seat, body))
}

// SameFault reports whether two faults are the same verdict: position,
// seat, reason and message.
func SameFault(a, b *table.Fault) bool {
	return a.Pos == b.Pos && a.Seat == b.Seat && a.Reason == b.Reason && a.Error() == b.Error()
}

// CheckEquivocation returns nil when a and b prove that their author
// equivocated: the same position, the same seat, different bytes, and
// both signatures valid under that seat's key in roster r.
func CheckEquivocation(r *ledger.Roster, a, b *ledger.Entry) error {
	id, err := r.GameID()
	if err != nil {
		return err
	}
	if a.Pos != b.Pos {
		return fmt.Errorf("equivocation: positions %d and %d differ", a.Pos, b.Pos)
	}
	if a.Seat != b.Seat {
		return fmt.Errorf("equivocation: seats %d and %d differ", a.Seat, b.Seat)
	}
	if int(a.Seat) >= len(r.Seats) {
		return fmt.Errorf("equivocation: no seat %d", a.Seat)
	}
	ea, err := a.MarshalBinary()
	if err != nil {
		return err
	}
	eb, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	if bytes.Equal(ea, eb) {
		return errors.New("equivocation: the entries are the same")
	}
	key := r.Seats[a.Seat].SignKey
	if err := a.VerifySignature(id, key); err != nil {
		return fmt.Errorf("equivocation: first entry: %w", err)
	}
	if err := b.VerifySignature(id, key); err != nil {
		return fmt.Errorf("equivocation: second entry: %w", err)
	}
	return nil
}
