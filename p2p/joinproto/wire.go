package joinproto

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/internal/wirefmt"
)

// Message types: the first byte of every frame on a join stream. Their
// values are on the wire (the log and sync protocols use 1 to 7, the watch
// protocol 8 and 9).
const (
	MsgRequest   = 10 // table id, seat asked for, name, signing key, card key, addresses
	MsgOK        = 11 // seat given, seats taken, seats total
	MsgRefused   = 12 // refusal code, table id, next free seat, reason
	MsgRoster    = 13 // roster and every seat's addresses
	MsgRosterSig = 14 // the sender's signature on the roster
	MsgRosterAll = 15 // every seat's signature
	// MsgForwarded is a join request for a player reached through the
	// sender, its forwarder (a phone's page served by the sender): the
	// fields of MsgRequest, for the seat of the player whose signing key
	// it names (its peer id is that key's), not the sender's. Type 16 is
	// the sealed frame's (roomcore.MsgSealed).
	MsgForwarded = 17
)

// Limits on the protocol's fields beyond those of package ledger.
const (
	// MaxAddrs bounds a seat's address list; MaxAddrBytes one address
	// (a binary multiaddr).
	MaxAddrs     = 16
	MaxAddrBytes = 512
	// MaxReason bounds a refusal's reason; a longer one is cut (on a
	// UTF-8 boundary) when encoded.
	MaxReason = 1024
	// MaxRosterBytes bounds an offered roster's encoding.
	MaxRosterBytes = wirefmt.MaxRosterBytes
)

// MsgName names a join message type in errors ("unknown" for others).
func MsgName(typ byte) string {
	switch typ {
	case MsgRequest:
		return "join request"
	case MsgOK:
		return "join OK"
	case MsgRefused:
		return "join refused"
	case MsgRoster:
		return "roster"
	case MsgRosterSig:
		return "roster signature"
	case MsgRosterAll:
		return "all signatures"
	case MsgForwarded:
		return "forwarded join request"
	}
	return "unknown"
}

// Request is what a joiner sends the table's creator.
type Request struct {
	// TableID selects one of the creator's tables; zero asks for its only
	// one.
	TableID [16]byte
	// Seat is the seat the joiner asks for (its card key may be bound to
	// it); 0 takes the next free seat, whichever it is.
	Seat    uint8
	Name    string
	SignKey ed25519.PublicKey
	CardKey []byte
	// Addrs are the joiner's binary multiaddrs (at most MaxAddrs are
	// encoded).
	Addrs [][]byte
}

// Msg is a decoded join frame; which fields are set depends on Type.
type Msg struct {
	Type byte
	// Request: the join request.
	Request *Request
	// Seat: join OK, the seat given; join refused, the next free seat (0:
	// none); roster signature, the signer's seat.
	Seat uint8
	// Taken and Total: join OK, the seats taken (the joiner's included)
	// and the table's seats.
	Taken, Total uint8
	// TableID, Code and Reason: join refused (TableID zero: no such
	// table).
	TableID [16]byte
	Code    RefusalCode
	Reason  string
	// Roster and Addrs: roster offer, the encoded roster and every seat's
	// binary multiaddrs.
	Roster []byte
	Addrs  [][][]byte
	// Sig: roster signature. Sigs: all signatures, in seat order.
	Sig  [ed25519.SignatureSize]byte
	Sigs [][ed25519.SignatureSize]byte
}

// Decode parses a join frame (types 10 to 15, and 17) strictly: an unknown type,
// a short field, a value out of range or trailing bytes is an error that
// names the message and the field.
func Decode(frame []byte) (*Msg, error) {
	s := cryptobyte.String(frame)
	m := new(Msg)
	if !s.ReadUint8(&m.Type) {
		return nil, errors.New("empty frame")
	}
	var err error
	switch m.Type {
	case MsgRequest, MsgForwarded:
		m.Request, err = readRequest(&s)
	case MsgOK:
		err = readOK(&s, m)
	case MsgRefused:
		err = readRefused(&s, m)
	case MsgRoster:
		err = readRosterOffer(&s, m)
	case MsgRosterSig:
		if !s.ReadUint8(&m.Seat) {
			err = errors.New("seat: truncated")
		} else if !s.CopyBytes(m.Sig[:]) {
			err = errors.New("signature: truncated")
		}
	case MsgRosterAll:
		m.Sigs, err = wirefmt.ReadSigs(&s)
	default:
		return nil, fmt.Errorf("unknown message type %d", m.Type)
	}
	if err := wirefmt.Finish(m.Type, MsgName(m.Type), s, true, err); err != nil {
		return nil, err
	}
	return m, nil
}

func addAddrs(b *cryptobyte.Builder, addrs [][]byte) {
	n := min(len(addrs), MaxAddrs)
	b.AddUint8(uint8(n))
	for _, a := range addrs[:n] {
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(a) })
	}
}

func readAddrs(s *cryptobyte.String) ([][]byte, error) {
	var n uint8
	if !s.ReadUint8(&n) {
		return nil, errors.New("address count: truncated")
	}
	if n > MaxAddrs {
		return nil, fmt.Errorf("address count: %d, limit %d", n, MaxAddrs)
	}
	var out [][]byte
	for i := range int(n) {
		var a cryptobyte.String
		if !s.ReadUint16LengthPrefixed(&a) {
			return nil, fmt.Errorf("address %d: truncated", i)
		}
		if len(a) > MaxAddrBytes {
			return nil, fmt.Errorf("address %d: %d bytes, limit %d", i, len(a), MaxAddrBytes)
		}
		out = append(out, append([]byte(nil), a...))
	}
	return out, nil
}

// EncodeRequest: table id [16], seat u8 (0: any), name (u8 len), signing
// key [32], card key (u16 len), addresses (u8 count, each u16 len).
func EncodeRequest(r *Request) []byte { return encodeRequest(MsgRequest, r) }

// EncodeForwarded is a forwarded join request ([MsgForwarded]): the
// fields of [EncodeRequest], for the player of r.SignKey.
func EncodeForwarded(r *Request) []byte { return encodeRequest(MsgForwarded, r) }

func encodeRequest(typ byte, r *Request) []byte {
	return wirefmt.Encode(typ, func(b *cryptobyte.Builder) {
		b.AddBytes(r.TableID[:])
		b.AddUint8(r.Seat)
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(r.Name)) })
		b.AddBytes(r.SignKey)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(r.CardKey) })
		addAddrs(b, r.Addrs)
	})
}

func readRequest(s *cryptobyte.String) (*Request, error) {
	r := new(Request)
	var name, card cryptobyte.String
	r.SignKey = make([]byte, ed25519.PublicKeySize)
	switch {
	case !s.CopyBytes(r.TableID[:]):
		return nil, errors.New("table id: truncated")
	case !s.ReadUint8(&r.Seat):
		return nil, errors.New("seat: truncated")
	case r.Seat >= ledger.MaxSeats:
		return nil, fmt.Errorf("seat: %d, want 0 (any) or 1..%d", r.Seat, ledger.MaxSeats-1)
	case !s.ReadUint8LengthPrefixed(&name):
		return nil, errors.New("name: truncated")
	case len(name) == 0 || len(name) > ledger.MaxNameBytes:
		return nil, fmt.Errorf("name: %d bytes, want 1..%d", len(name), ledger.MaxNameBytes)
	case !s.CopyBytes(r.SignKey):
		return nil, errors.New("signing key: truncated")
	case !s.ReadUint16LengthPrefixed(&card):
		return nil, errors.New("card key: truncated")
	case len(card) > ledger.MaxKeyBytes:
		return nil, fmt.Errorf("card key: %d bytes, limit %d", len(card), ledger.MaxKeyBytes)
	}
	r.Name, r.CardKey = string(name), append([]byte(nil), card...)
	var err error
	if r.Addrs, err = readAddrs(s); err != nil {
		return nil, fmt.Errorf("addresses: %w", err)
	}
	return r, nil
}

// EncodeOK: the seat given u8, seats taken u8, seats total u8.
func EncodeOK(seat, taken, total uint8) []byte {
	return wirefmt.Encode(MsgOK, func(b *cryptobyte.Builder) { b.AddUint8(seat); b.AddUint8(taken); b.AddUint8(total) })
}

// readOK decodes a join OK: a joiner's seat is 1..total-1 (seat 0 is the
// creator's), and the seats taken include it.
func readOK(s *cryptobyte.String, m *Msg) error {
	switch {
	case !s.ReadUint8(&m.Seat):
		return errors.New("seat: truncated")
	case !s.ReadUint8(&m.Taken):
		return errors.New("seats taken: truncated")
	case !s.ReadUint8(&m.Total):
		return errors.New("seats total: truncated")
	case m.Seat == 0 || m.Seat >= ledger.MaxSeats:
		return fmt.Errorf("seat: %d, want 1..%d", m.Seat, ledger.MaxSeats-1)
	case m.Total <= m.Seat || m.Total > ledger.MaxSeats:
		return fmt.Errorf("seats total: %d, want %d..%d (above the seat given)", m.Total, m.Seat+1, ledger.MaxSeats)
	case m.Taken <= m.Seat || m.Taken > m.Total:
		return fmt.Errorf("seats taken: %d, want %d..%d (the seat given, up to the total)", m.Taken, m.Seat+1, m.Total)
	}
	return nil
}

// EncodeRefused: refusal code u8, table id [16] (zero: no such table),
// the next free seat u8 (0: none), reason (u16 len, cut to MaxReason
// bytes). The code and the reason come together in r, so that they agree.
func EncodeRefused(table [16]byte, seat uint8, r Refusal) []byte {
	return wirefmt.Encode(MsgRefused, func(b *cryptobyte.Builder) {
		b.AddUint8(uint8(r.Code))
		b.AddBytes(table[:])
		b.AddUint8(seat)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(wirefmt.Truncate(r.Reason, MaxReason))) })
	})
}

// readRefused decodes a join refused: a known code; a zero table id
// exactly when the code is [RefusedNoSuchTable]; no next free seat (0)
// when the table has started, is full or does not exist.
func readRefused(s *cryptobyte.String, m *Msg) error {
	var r cryptobyte.String
	var code uint8
	if !s.ReadUint8(&code) {
		return errors.New("code: truncated")
	}
	m.Code = RefusalCode(code)
	if !m.Code.Known() {
		return fmt.Errorf("code: %d, unknown (want %d..%d)", code, refusedFirst, refusedLast)
	}
	noTable := m.Code == RefusedNoSuchTable
	switch {
	case !s.CopyBytes(m.TableID[:]):
		return errors.New("table id: truncated")
	case noTable && m.TableID != [16]byte{}:
		return fmt.Errorf("table id: %x with code %d (%s), want zero", m.TableID, m.Code, m.Code)
	case !noTable && m.TableID == [16]byte{}:
		return fmt.Errorf("table id: zero with code %d (%s); only %q has none", m.Code, m.Code, RefusedNoSuchTable)
	case !s.ReadUint8(&m.Seat):
		return errors.New("seat: truncated")
	case m.Seat >= ledger.MaxSeats:
		return fmt.Errorf("seat: %d, want 0 (none) or 1..%d", m.Seat, ledger.MaxSeats-1)
	case m.Seat != 0 && !m.Code.SeatFree():
		return fmt.Errorf("seat: %d with code %d (%s), want 0 (none)", m.Seat, m.Code, m.Code)
	case !s.ReadUint16LengthPrefixed(&r):
		return errors.New("reason: truncated")
	case len(r) > MaxReason:
		return fmt.Errorf("reason: %d bytes, limit %d", len(r), MaxReason)
	}
	m.Reason = string(r)
	return nil
}

// EncodeRosterOffer: roster (u32 len), u8 seat count, per seat an address
// list (as in a join request).
func EncodeRosterOffer(roster []byte, addrs [][][]byte) []byte {
	return wirefmt.Encode(MsgRoster, func(b *cryptobyte.Builder) {
		wirefmt.AddRoster(b, roster)
		b.AddUint8(uint8(len(addrs)))
		for _, a := range addrs {
			addAddrs(b, a)
		}
	})
}

func readRosterOffer(s *cryptobyte.String, m *Msg) error {
	var err error
	if m.Roster, err = wirefmt.ReadRoster(s); err != nil {
		return err
	}
	var n uint8
	switch {
	case !s.ReadUint8(&n):
		return errors.New("seat count: truncated")
	case n > ledger.MaxSeats:
		return fmt.Errorf("seat count: %d, limit %d", n, ledger.MaxSeats)
	}
	for i := range int(n) {
		addrs, err := readAddrs(s)
		if err != nil {
			return fmt.Errorf("seat %d's addresses: %w", i, err)
		}
		m.Addrs = append(m.Addrs, addrs)
	}
	return nil
}

// EncodeRosterSig: the sender's seat u8, its signature [64].
func EncodeRosterSig(seat uint8, sig []byte) []byte {
	return wirefmt.Encode(MsgRosterSig, func(b *cryptobyte.Builder) { b.AddUint8(seat); b.AddBytes(sig) })
}

// EncodeRosterAll: u8 count, signature [64] each, in seat order.
func EncodeRosterAll(sigs [][ed25519.SignatureSize]byte) []byte {
	return wirefmt.Encode(MsgRosterAll, func(b *cryptobyte.Builder) { wirefmt.AddSigs(b, sigs) })
}
