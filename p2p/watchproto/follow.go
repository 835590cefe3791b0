package watchproto

import (
	"crypto/ed25519"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
)

// CheckTable checks a watch table (a decoded MsgTable) that seat sent a
// spectator: its roster decodes and is of table want (zero: any), every
// seat's peer is its signing key's (seatPeer derives it) and signed the
// roster, and seat holds a seat in it. It returns the roster and its game
// id. The error names the seat or field that is wrong.
func CheckTable[ID ~string](m *Msg, want [16]byte, seat ID, seatPeer func(ledger.SeatInfo) (ID, error)) (*ledger.Roster, ledger.Hash, error) {
	roster, err := ledger.UnmarshalRoster(m.Roster)
	if err != nil {
		return nil, ledger.Hash{}, fmt.Errorf("roster: %w", err)
	}
	if want != ([16]byte{}) && roster.TableID != want {
		return nil, ledger.Hash{}, fmt.Errorf("roster of table %x, want %x", roster.TableID, want)
	}
	game, err := roster.GameID()
	if err != nil {
		return nil, ledger.Hash{}, fmt.Errorf("roster: %w", err)
	}
	if len(m.Sigs) != len(roster.Seats) {
		return nil, ledger.Hash{}, fmt.Errorf("%d roster signatures for %d seats", len(m.Sigs), len(roster.Seats))
	}
	seated := false
	msg := ledger.RosterSigningBytes(game)
	for i, st := range roster.Seats {
		id, err := seatPeer(st)
		if err != nil {
			return nil, ledger.Hash{}, fmt.Errorf("roster seat %d: %w", i, err)
		}
		if !ed25519.Verify(st.SignKey, msg, m.Sigs[i][:]) {
			return nil, ledger.Hash{}, fmt.Errorf("roster seat %d (%s): bad roster signature", i, st.Name)
		}
		seated = seated || id == seat
	}
	if !seated {
		return nil, ledger.Hash{}, fmt.Errorf("it holds no seat in the roster it sent")
	}
	return roster, game, nil
}

// Follower is a spectator's check of the log a seat sends it: each entry
// at its position, by a seat of the roster, chained onto the one before
// and signed by its author; a verdict accepted only by the rule a seat
// applies (roomcore.SpectatorAdopts); the end at the length received. The
// rules are the caller's to check, between [Follower.Check] and
// [Follower.Took].
type Follower struct {
	roster *ledger.Roster
	game   ledger.Hash
	next   uint64
	prev   ledger.Hash
}

// NewFollower follows the log of roster (game: its game id) from
// position from; prev is the hash of the entry before it (ignored for
// from = 0: the game id).
func NewFollower(roster *ledger.Roster, game ledger.Hash, from uint64, prev ledger.Hash) *Follower {
	if from == 0 {
		prev = game
	}
	return &Follower{roster: roster, game: game, next: from, prev: prev}
}

// Next is the position of the next entry: the length of the log received
// and checked (the first position included).
func (f *Follower) Next() uint64 { return f.next }

// Check checks that e is the next entry: its position, its seat, its
// chain onto the entry before and its author's signature.
func (f *Follower) Check(e *ledger.Entry) error {
	switch {
	case e.Pos != f.next:
		return fmt.Errorf("entry %d, want %d", e.Pos, f.next)
	case int(e.Seat) >= len(f.roster.Seats):
		return fmt.Errorf("entry %d names seat %d of %d", e.Pos, e.Seat, len(f.roster.Seats))
	case e.Prev != f.prev:
		return fmt.Errorf("entry %d does not chain onto entry %d", e.Pos, e.Pos-1)
	}
	if err := e.VerifySignature(f.game, f.roster.Seats[e.Seat].SignKey); err != nil {
		return fmt.Errorf("entry %d: %w", e.Pos, err)
	}
	return nil
}

// Took records that the caller's rules took e, checked: the next entry
// follows it.
func (f *Follower) Took(e *ledger.Entry) {
	f.prev = e.Hash()
	f.next++
}

// Verdict checks a verdict the seat sent: it must verify against the
// roster; adopted says whether the spectator accepts it by a seat's rule
// (roomcore.SpectatorAdopts; onEntry is the caller's rules, given an
// invalid-entry verdict's evidence). Not adopted, it is only the seat's
// claim. An error is a verdict that does not verify, or one whose
// evidence the rules took (then the evidence counts as taken).
func (f *Follower) Verdict(v *roomcore.Verdict, onEntry func(*ledger.Entry) error) (adopted bool, err error) {
	if err := v.Verify(f.roster); err != nil {
		return false, fmt.Errorf("verdict: %w", err)
	}
	ok, err := roomcore.SpectatorAdopts(v, f.next, f.prev, onEntry)
	if err != nil {
		f.Took(v.Evidence[0])
		return false, err
	}
	return ok, nil
}

// End checks the seat's end of the log (a sync end's next position):
// the spectator has every entry before it.
func (f *Follower) End(next uint64) error {
	if next != f.next {
		return fmt.Errorf("end after %d entries, %d received", next, f.next)
	}
	return nil
}
