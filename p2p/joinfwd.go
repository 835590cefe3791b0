package p2p

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/joinproto"
)

// Forwarded joiners: a player with no libp2p node (a phone) asks the
// table's creator for a seat through the creator itself (the page it
// served), not over ProtocolJoin. The seat is the player's own: its peer
// id is the identity of its own signing key, its card keys are proven
// for its seat, it signs the roster itself; its roster address is the
// creator's ForwardAddr, so that every seat reaches it through the
// creator (forward.go).

// ForwardedJoin is a forwarded player's join request.
type ForwardedJoin struct {
	// Seat is the seat its card key proofs are for (0: the next free one).
	Seat    int
	Name    string
	SignKey ed25519.PublicKey
	CardKey []byte
}

// forwardedJoiner finds the joiner of signKey; t.mu is held.
func (t *Table) forwardedJoiner(signKey ed25519.PublicKey) (*joiner, int) {
	for i, j := range t.joiners {
		if j.forwarded && string(j.req.SignKey) == string(signKey) {
			return j, i + 1
		}
	}
	return nil, 0
}

// SeatForwarded seats a forwarded player, or gives it back its seat (the
// same name and keys: its page reloaded). A refusal is a
// *[JoinRefusedError] naming the next free seat (card key proofs are
// bound to it).
func (t *Table) SeatForwarded(req ForwardedJoin) (int, error) {
	if req.Seat < 0 || req.Seat >= ledger.MaxSeats {
		return 0, &JoinRefusedError{Creator: t.node.ID(), Code: RefusedSeat, TableID: t.cfg.ID,
			Reason: fmt.Sprintf("seat %d asked for: a table has seats 0 to %d", req.Seat, ledger.MaxSeats-1)}
	}
	if err := ledger.CheckSigningKey(req.SignKey); err != nil {
		return 0, &JoinRefusedError{Creator: t.node.ID(), Code: RefusedSignKey, Reason: err.Error(), TableID: t.cfg.ID}
	}
	id, err := peerIDOf(req.SignKey)
	if err != nil {
		return 0, &JoinRefusedError{Creator: t.node.ID(), Code: RefusedSignKey, Reason: err.Error(), TableID: t.cfg.ID}
	}
	jr := &joinproto.Request{TableID: t.cfg.ID, Seat: uint8(req.Seat), Name: req.Name, SignKey: req.SignKey, CardKey: req.CardKey,
		Addrs: [][]byte{ForwardAddr(t.node.ID()).Bytes()}}
	j, gen, seat, _, no := t.admit(&joiner{peer: id, req: jr, forwarded: true})
	if no != nil {
		return 0, &JoinRefusedError{Creator: t.node.ID(), Code: no.Code, Reason: no.Reason, TableID: t.cfg.ID, Seat: seat}
	}
	t.mu.Lock()
	fresh := gen == 1
	j.active = true
	t.mu.Unlock()
	if fresh {
		t.changed()
	}
	return seat, nil
}

// ForwardedAway says the forwarded player of signKey lost its path (its
// page's connection closed): it keeps its seat for the table's patience,
// as a joiner whose stream dropped.
func (t *Table) ForwardedAway(signKey ed25519.PublicKey) {
	t.mu.Lock()
	j, _ := t.forwardedJoiner(signKey)
	if j != nil && j.away.IsZero() {
		j.away = time.Now()
		j.active = false
		t.broadcast()
	}
	t.mu.Unlock()
}

// ForwardedOffer waits until seating closes and returns the roster
// offered and every seat's addresses, for the forwarded player to check
// and sign.
func (t *Table) ForwardedOffer(ctx context.Context) (*ledger.Roster, [][][]byte, error) {
	for {
		t.mu.Lock()
		offer, refusal, changes, closed := t.offer, t.refusal, t.changes, t.closed
		t.mu.Unlock()
		switch {
		case offer != nil:
			m, err := joinproto.Decode(offer)
			if err != nil {
				return nil, nil, err
			}
			r, err := ledger.UnmarshalRoster(m.Roster)
			if err != nil {
				return nil, nil, err
			}
			return r, m.Addrs, nil
		case refusal != nil:
			m, err := joinproto.Decode(refusal)
			if err != nil {
				return nil, nil, err
			}
			return nil, nil, refused(t.node.ID(), m)
		case closed:
			return nil, nil, errors.New("p2p: table closed")
		}
		select {
		case <-changes:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// SignForwarded takes the forwarded player's roster signature.
func (t *Table) SignForwarded(signKey ed25519.PublicKey, sig []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	j, seat := t.forwardedJoiner(signKey)
	switch {
	case j == nil:
		return errors.New("p2p: no forwarded seat for that key")
	case t.offer == nil:
		return fmt.Errorf("p2p: seat %d signed before the roster was offered", seat)
	case !ed25519.Verify(j.req.SignKey, ledger.RosterSigningBytes(t.game), sig):
		return fmt.Errorf("p2p: seat %d (%s): bad roster signature", seat, j.req.Name)
	}
	if j.sig == nil {
		j.sig = append([]byte(nil), sig...)
		j.done = true
		t.broadcast()
	}
	return nil
}

// peerIDOf is the peer id whose identity is the Ed25519 key pub.
func peerIDOf(pub ed25519.PublicKey) (peer.ID, error) {
	k, err := crypto.UnmarshalEd25519PublicKey(pub)
	if err != nil {
		return "", err
	}
	return peer.IDFromPublicKey(k)
}
