package p2p

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/joinproto"
	"github.com/masque-games/masque/p2p/store"
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
	t.mu.Lock()
	for i, o := range t.joiners {
		if o.peer == id && !o.forwarded {
			t.mu.Unlock()
			return 0, &JoinRefusedError{Creator: t.node.ID(), Code: RefusedAlreadySeated, TableID: t.cfg.ID,
				Reason: fmt.Sprintf("seat %d is that player's, reached another way", i+1)}
		}
	}
	t.mu.Unlock()
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

// forwardedAddrs is the address list of a player reached through via,
// from a forwarded join request's addresses: the bare ForwardAddr(via)
// first (the seat's path), then those of the given addresses that end in
// /p2p/<via> (where its forwarder may be dialled); any other address is
// dropped: a forwarder speaks for its own addresses only.
func forwardedAddrs(via peer.ID, raw [][]byte) [][]byte {
	out := [][]byte{ForwardAddr(via).Bytes()}
	for _, a := range parseAddrs(raw) {
		if info, err := peer.AddrInfoFromP2pAddr(a); err == nil && info.ID == via && len(info.Addrs) == 1 {
			out = append(out, a.Bytes())
		}
	}
	return out
}

// RemoteJoin is a forwarded player's join at another peer's table, asked
// by this node, its forwarder, with a forwarded join request
// ([joinproto.MsgForwarded]) on one join stream: the creator admits the
// player as it would admit it joining itself (its key, its card keys for
// the next free seat, its name), with this node's addresses as its path;
// the player checks the roster offered and signs it itself ([RemoteJoin.Sign]).
// The forwarder checks nothing of what it carries but the signatures it
// is handed at the end. Make one with [Node.JoinForwarded].
type RemoteJoin struct {
	n       *Node
	creator peer.ID
	s       network.Stream
	r       *bufio.Reader
	seat    int
	taken   int
	total   int
	offer   *joinproto.Msg
}

// JoinForwarded asks the table's creator for a seat for the forwarded
// player req, reached through this node. A refusal is a
// *[JoinRefusedError] (its TableID and Seat are the table's and the next
// free seat: card key proofs are bound to them); a creator that cannot be
// reached is an error wrapping [ErrUnreachable]. The stream is dropped
// when ctx ends or Close is called.
func (n *Node) JoinForwarded(ctx context.Context, creator peer.AddrInfo, tableID [16]byte, req ForwardedJoin) (*RemoteJoin, error) {
	if req.Seat < 0 || req.Seat >= ledger.MaxSeats {
		return nil, fmt.Errorf("p2p: forwarded join: seat %d, want 0 (any) or 1..%d", req.Seat, ledger.MaxSeats-1)
	}
	if len(req.Name) == 0 || len(req.Name) > ledger.MaxNameBytes || len(req.CardKey) > ledger.MaxKeyBytes || len(req.SignKey) != ed25519.PublicKeySize {
		return nil, errors.New("p2p: forwarded join: bad name, signing key or card key length")
	}
	s, err := n.openJoin(ctx, creator)
	if err != nil {
		return nil, err
	}
	j := &RemoteJoin{n: n, creator: creator.ID, s: s, r: bufio.NewReader(s)}
	addrs := [][]byte{ForwardAddr(n.ID()).Bytes()}
	for _, a := range n.announce() {
		addrs = append(addrs, a.Encapsulate(ForwardAddr(n.ID())).Bytes())
	}
	jr := &joinproto.Request{TableID: tableID, Seat: uint8(req.Seat), Name: req.Name, SignKey: req.SignKey, CardKey: req.CardKey, Addrs: addrBytes(parseAddrs(addrs))}
	stop := context.AfterFunc(ctx, func() { s.Reset() })
	defer stop()
	if err := WriteFrame(s, joinproto.EncodeForwarded(jr)); err != nil {
		s.Reset()
		return nil, fmt.Errorf("p2p: forwarded join %s: %w", creator.ID, err)
	}
	m, err := n.readJoin(j.r, s)
	if err != nil {
		s.Reset()
		return nil, fmt.Errorf("p2p: forwarded join %s: %w", creator.ID, err)
	}
	switch m.Type {
	case msgJoinNo:
		s.Close()
		return nil, refused(creator.ID, m)
	case msgJoinOK:
		j.seat, j.taken, j.total = int(m.Seat), int(m.Taken), int(m.Total)
		return j, nil
	}
	s.Reset()
	return nil, fmt.Errorf("p2p: forwarded join %s: unexpected message type %d", creator.ID, m.Type)
}

// Seat is the seat given; Taken and Total the seats taken (this one
// included) and the table's seats, as the creator said.
func (j *RemoteJoin) Seat() int { return j.seat }

// Taken is the seats taken when this one was given, and the table's seats.
func (j *RemoteJoin) Taken() (taken, total int) { return j.taken, j.total }

// Offer waits until seating closes and returns the roster offered and
// every seat's addresses, for the player to check and sign.
func (j *RemoteJoin) Offer(ctx context.Context) (*ledger.Roster, [][][]byte, error) {
	stop := context.AfterFunc(ctx, func() { j.s.Reset() })
	defer stop()
	m, err := j.n.readJoin(j.r, j.s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("p2p: forwarded join %s: waiting for the roster: %w", j.creator, err)
	}
	switch m.Type {
	case msgRoster:
	case msgJoinNo:
		return nil, nil, refused(j.creator, m)
	default:
		return nil, nil, fmt.Errorf("p2p: forwarded join %s: unexpected message type %d", j.creator, m.Type)
	}
	r, err := ledger.UnmarshalRoster(m.Roster)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: forwarded join %s: roster: %w", j.creator, err)
	}
	if len(m.Addrs) != len(r.Seats) || j.seat >= len(r.Seats) {
		return nil, nil, fmt.Errorf("p2p: forwarded join %s: a roster of %d seats with %d address lists, for seat %d", j.creator, len(r.Seats), len(m.Addrs), j.seat)
	}
	j.offer = m
	return r, m.Addrs, nil
}

// Sign sends the player's roster signature and waits for every seat's:
// the table, every signature checked (the player checks them again).
func (j *RemoteJoin) Sign(ctx context.Context, sig []byte) (*Seating, error) {
	if j.offer == nil {
		return nil, errors.New("p2p: forwarded join: signed before the roster was offered")
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("p2p: forwarded join: a roster signature of %d bytes", len(sig))
	}
	stop := context.AfterFunc(ctx, func() { j.s.Reset() })
	defer stop()
	if err := WriteFrame(j.s, joinproto.EncodeRosterSig(uint8(j.seat), sig)); err != nil {
		return nil, fmt.Errorf("p2p: forwarded join %s: %w", j.creator, err)
	}
	m, err := j.n.readJoin(j.r, j.s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("p2p: forwarded join %s: waiting for the signatures: %w", j.creator, err)
	}
	r, _ := ledger.UnmarshalRoster(j.offer.Roster)
	game, err := r.GameID()
	if err != nil {
		return nil, err
	}
	if m.Type != msgRosterAll {
		return nil, fmt.Errorf("p2p: forwarded join %s: message type %d, want every roster signature", j.creator, m.Type)
	}
	if err := joinproto.CheckSigs(r, game, m.Sigs); err != nil {
		return nil, fmt.Errorf("p2p: forwarded join %s: %w", j.creator, err)
	}
	j.s.Close()
	return &Seating{Roster: r, GameID: game, Seat: uint8(j.seat), Table: store.Table{Roster: r, Sigs: m.Sigs, Addrs: j.offer.Addrs}}, nil
}

// Close drops the join's stream (its work done, or the player's page
// gone): until the table is signed, the creator holds the seat for its
// patience, as for a joiner whose connection dropped, and the same
// request through this node gets it back.
func (j *RemoteJoin) Close() { j.s.Reset() }
