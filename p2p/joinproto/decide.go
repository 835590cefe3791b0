package joinproto

import (
	"bytes"
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine/ledger"
)

// PeerID is a peer's identity as the decisions compare and name it: its
// bytes (a seat's ledger.SeatInfo.PeerID) as a string type that prints
// itself. Package p2p's is libp2p's peer.ID.
type PeerID interface {
	~string
	fmt.Stringer
}

// Joiner is a seat a joiner holds, as [Admit] sees it.
type Joiner[ID PeerID] struct {
	Peer    ID
	Request *Request
	// Connected: a stream serves the seat now (it is not away).
	Connected bool
	// Left: it closed its stream after the roster was offered.
	Left bool
}

// Table is a creator's table as [Admit] sees it.
type Table[ID PeerID] struct {
	// Seats is the table's size (the creator's seat included).
	Seats int
	// Creator and Name are the creator's peer and seat name (seat 0).
	Creator ID
	Name    string
	// Started: seating is closed. Closed: the table was withdrawn.
	Started, Closed bool
	// Joiners hold seats 1, 2, ... in order.
	Joiners []Joiner[ID]
	// Validate and ValidateSeat, if set, are the table's checks of a
	// joiner's name and card key, and of a joiner for the seat it would
	// take; an error refuses it (RefusedCardKey, RefusedSeat).
	Validate     func(name string, cardKey []byte) error
	ValidateSeat func(seat int, info ledger.SeatInfo) error
	// SeatPeer derives a seat's peer from its record, failing unless the
	// peer's key is the record's signing key.
	SeatPeer func(ledger.SeatInfo) (ID, error)
}

// Admission is the creator's decision on a join request.
type Admission struct {
	// Kind says what to do.
	Kind AdmitKind
	// Index is the record of the seat given again (Back, Retake): seat
	// Index+1.
	Index int
	// Seat is the seat given; with a refusal, the next free seat (the
	// one the joiner would get if it asked again for it; 0 when the table
	// is full or has started).
	Seat int
	// Taken is the seats taken once the seat is given (the creator's
	// included).
	Taken int
	// Refusal says why, when Kind is Refused.
	Refusal *Refusal
}

// AdmitKind is the kind of an [Admission].
type AdmitKind uint8

// The kinds of admission.
const (
	// Refused: the joiner gets no seat (Admission.Refusal says why).
	Refused AdmitKind = iota
	// New: the joiner takes the next free seat, a new record.
	New
	// Back: the joiner holding seat Index+1 asks again with the same
	// request (its old stream may not have failed yet on the creator's
	// side): it gets the same seat, on its new stream.
	Back
	// Retake: the peer holding seat Index+1, its stream gone, asks again
	// with another name or card key before the table starts (its program
	// restarted with new keys): the seat's record takes the new request.
	Retake
)

// Admit decides on peer's join request req at table t. It neither
// changes t nor blocks: the caller applies the admission (and calls it
// with the table's state held still).
func Admit[ID PeerID](t *Table[ID], peer ID, req *Request) Admission {
	next := 1 + len(t.Joiners)
	for i, o := range t.Joiners {
		if o.Peer != peer || t.Closed || o.Left {
			continue
		}
		if o.Request.Name == req.Name && bytes.Equal(o.Request.CardKey, req.CardKey) && bytes.Equal(o.Request.SignKey, req.SignKey) &&
			(req.Seat == 0 || int(req.Seat) == i+1) {
			return Admission{Kind: Back, Index: i, Seat: i + 1, Taken: next}
		}
		if !t.Started && !o.Connected && bytes.Equal(o.Request.SignKey, req.SignKey) {
			// While the old stream lives, it is refused as already
			// seated below: two programs sharing one identity.
			return retake(t, i, peer, req)
		}
	}
	refused := func(seat int, r *Refusal) Admission { return Admission{Kind: Refused, Seat: seat, Refusal: r} }
	switch {
	case t.Closed || t.Started:
		return refused(0, Refuse(RefusedStarted, "table has started"))
	case next >= t.Seats:
		return refused(0, Refuse(RefusedFull, "table is full"))
	}
	if err := ledger.CheckSigningKey(req.SignKey); err != nil {
		return refused(next, Refuse(RefusedSignKey, "signing key refused: %v", err))
	}
	if id, err := t.SeatPeer(ledger.SeatInfo{PeerID: []byte(peer), SignKey: req.SignKey}); err != nil || id != peer {
		return refused(next, Refuse(RefusedSignKey, "signing key is not the key of the connecting peer"))
	}
	switch {
	case peer == t.Creator:
		return refused(next, Refuse(RefusedAlreadySeated, "already seated"))
	case strings.EqualFold(req.Name, t.Name):
		return refused(next, Refuse(RefusedNameTaken, "name %q is taken", req.Name))
	}
	for _, o := range t.Joiners {
		if o.Peer == peer {
			return refused(next, Refuse(RefusedAlreadySeated, "already seated"))
		}
		if strings.EqualFold(o.Request.Name, req.Name) {
			return refused(next, Refuse(RefusedNameTaken, "name %q is taken", req.Name))
		}
	}
	if req.Seat != 0 && int(req.Seat) != next {
		return refused(next, Refuse(RefusedSeatNotFree, "seat %d is not free; the next seat is %d", req.Seat, next))
	}
	if no := t.validate(next, peer, req); no != nil {
		return refused(next, no)
	}
	return Admission{Kind: New, Seat: next, Taken: next + 1}
}

// retake decides on the request of the peer holding seat i+1 with
// another name or card key, its stream gone: it takes its seat back if
// it asks for that seat (or any) and the table's checks accept it there.
func retake[ID PeerID](t *Table[ID], i int, peer ID, req *Request) Admission {
	seat, next := i+1, 1+len(t.Joiners)
	refused := func(r *Refusal) Admission { return Admission{Kind: Refused, Seat: seat, Refusal: r} }
	if req.Seat != 0 && int(req.Seat) != seat {
		return refused(Refuse(RefusedSeatNotFree, "you hold seat %d; ask for it", seat))
	}
	if strings.EqualFold(req.Name, t.Name) {
		return refused(Refuse(RefusedNameTaken, "name %q is taken", req.Name))
	}
	for j, x := range t.Joiners {
		if j != i && strings.EqualFold(x.Request.Name, req.Name) {
			return refused(Refuse(RefusedNameTaken, "name %q is taken", req.Name))
		}
	}
	if no := t.validate(seat, peer, req); no != nil {
		return refused(no)
	}
	return Admission{Kind: Retake, Index: i, Seat: seat, Taken: next}
}

// validate runs the table's checks of req for seat.
func (t *Table[ID]) validate(seat int, peer ID, req *Request) *Refusal {
	if t.Validate != nil {
		if err := t.Validate(req.Name, req.CardKey); err != nil {
			return Refuse(RefusedCardKey, "card key refused: %v", err)
		}
	}
	if t.ValidateSeat != nil {
		info := ledger.SeatInfo{Name: req.Name, PeerID: []byte(peer), SignKey: req.SignKey, Keys: req.CardKey}
		if err := t.ValidateSeat(seat, info); err != nil {
			return Refuse(RefusedSeat, "seat refused: %v", err)
		}
	}
	return nil
}

// OfferCheck is what a joiner checks a roster offer against.
type OfferCheck[ID PeerID] struct {
	// Creator is the table's creator (it must hold seat 0), Self the
	// joiner.
	Creator, Self ID
	// TableID is the table asked for; zero: any.
	TableID [16]byte
	// Name, CardKey and Seat are the joiner's request (Seat 0: any seat).
	Name    string
	CardKey []byte
	Seat    int
	// SeatPeer derives a seat's peer from its record, failing unless the
	// peer's key is the record's signing key.
	SeatPeer func(ledger.SeatInfo) (ID, error)
	// Validate, if set, checks every other seat; CheckRoster, if set, the
	// roster as a whole. An error refuses the offer.
	Validate    func(seat int, info ledger.SeatInfo) error
	CheckRoster func(r *ledger.Roster) error
}

// Offer is a roster offer a joiner accepted.
type Offer struct {
	Roster *ledger.Roster
	GameID ledger.Hash
	// Seat is the joiner's seat in the roster.
	Seat uint8
	// Addrs are every seat's binary multiaddrs, in seat order.
	Addrs [][][]byte
}

// CheckOffer checks a roster offer (a decoded MsgRoster): the joiner holds
// exactly the seat it asked for (its name and card key, at c.Seat if set),
// seat 0 is the creator, every seat's peer is its signing key's and holds
// no other seat, and c's checks accept each seat and the roster. The
// error says which seat or field is wrong.
func CheckOffer[ID PeerID](m *Msg, c OfferCheck[ID]) (*Offer, error) {
	roster, err := ledger.UnmarshalRoster(m.Roster)
	if err != nil {
		return nil, err
	}
	if len(m.Addrs) != len(roster.Seats) {
		return nil, fmt.Errorf("%d address lists for %d seats", len(m.Addrs), len(roster.Seats))
	}
	if c.TableID != ([16]byte{}) && roster.TableID != c.TableID {
		return nil, fmt.Errorf("roster is for another table")
	}
	seat := -1
	for i, si := range roster.Seats {
		id, err := c.SeatPeer(si)
		if err != nil {
			return nil, fmt.Errorf("seat %d: %w", i, err)
		}
		if i == 0 && id != c.Creator {
			return nil, fmt.Errorf("seat 0 is not the creator")
		}
		if id == c.Self {
			if seat >= 0 || si.Name != c.Name || !bytes.Equal(si.Keys, c.CardKey) {
				return nil, fmt.Errorf("the roster changed our seat")
			}
			seat = i
			continue
		}
		for j := range i {
			if string(roster.Seats[j].PeerID) == string(si.PeerID) {
				return nil, fmt.Errorf("peer %s holds two seats", id)
			}
		}
		if c.Validate != nil {
			if err := c.Validate(i, si); err != nil {
				return nil, fmt.Errorf("seat %d (%s): %w", i, si.Name, err)
			}
		}
	}
	if seat < 0 {
		return nil, fmt.Errorf("the roster has no seat for us")
	}
	if c.Seat != 0 && seat != c.Seat {
		return nil, fmt.Errorf("the roster has us at seat %d, we asked for %d", seat, c.Seat)
	}
	if c.CheckRoster != nil {
		if err := c.CheckRoster(roster); err != nil {
			return nil, fmt.Errorf("the roster offered: %w", err)
		}
	}
	game, err := roster.GameID()
	if err != nil {
		return nil, err
	}
	return &Offer{Roster: roster, GameID: game, Seat: uint8(seat), Addrs: m.Addrs}, nil
}

// CheckSigs checks the signatures that seal a roster (a decoded
// MsgRosterAll's): one per seat, each the seat's signature on game (the
// roster's game id).
func CheckSigs(roster *ledger.Roster, game ledger.Hash, sigs [][ed25519.SignatureSize]byte) error {
	if len(sigs) != len(roster.Seats) {
		return fmt.Errorf("expected %d roster signatures", len(roster.Seats))
	}
	msg := ledger.RosterSigningBytes(game)
	for i, sg := range sigs {
		if !ed25519.Verify(roster.Seats[i].SignKey, msg, sg[:]) {
			return fmt.Errorf("seat %d's roster signature is bad", i)
		}
	}
	return nil
}
