package p2p

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
	"golang.org/x/crypto/cryptobyte"
)

// Message types: the first byte of every frame. See docs/p2p.md.
const (
	msgHello     = roomcore.MsgHello   // log stream opener: game id, sender's seat
	msgEntry     = roomcore.MsgEntry   // an accepted entry and the sender's state hash after it
	msgVerdict   = roomcore.MsgVerdict // a verdict that ended the sender's table
	msgSyncReq   = roomcore.MsgSyncReq // game id, first position wanted, maximum count
	msgSyncEnd   = roomcore.MsgSyncEnd // end of a sync answer: the server's next position
	msgEcho      = roomcore.MsgEcho    // position, entry hash, the sender's state hash after it
	msgDone      = roomcore.MsgDone    // log length, state hash: the sender has every seat's echo of the end
	msgWatchReq  = 8                   // spectator: table id, first position wanted
	msgWatchTab  = 9                   // to a spectator: the roster and every seat's roster signature
	msgJoinReq   = 10                  // table id, seat asked for, name, signing key, card key, addresses
	msgJoinOK    = 11                  // seat given, seats taken, seats total
	msgJoinNo    = 12                  // refusal code, table id, next free seat, reason
	msgRoster    = 13                  // roster and every seat's addresses
	msgRosterSig = 14                  // the sender's signature on the roster
	msgRosterAll = 15                  // every seat's signature
)

// Limits on join-protocol fields beyond those of package ledger.
const (
	maxAddrs     = 16
	maxAddrBytes = 512
	maxReason    = 1024
	// maxRosterBytes bounds an offered roster's encoding.
	maxRosterBytes = 1 << 20
)

func encode(typ byte, f func(b *cryptobyte.Builder)) []byte {
	var b cryptobyte.Builder
	b.AddUint8(typ)
	f(&b)
	out, err := b.Bytes()
	if err != nil {
		// Only reachable when a length prefix overflows, which the
		// limits checked before encoding rule out.
		panic("p2p: encode: " + err.Error())
	}
	return out
}

// The log and sync protocols' frames are encoded by package roomcore.
var (
	encodeHello      = roomcore.EncodeHello
	encodeEntryMsg   = roomcore.EncodeEntry
	encodeEcho       = roomcore.EncodeEcho
	encodeDone       = roomcore.EncodeDone
	encodeSyncReq    = roomcore.EncodeSyncReq
	encodeSyncEnd    = roomcore.EncodeSyncEnd
	encodeVerdictMsg = roomcore.EncodeVerdict
)

// message is a decoded frame; which fields are set depends on Type.
// The log and sync protocols' fields are roomcore's (Msg.Seat is also a
// roster signature's seat; join OK: the seat given; join refused: the
// next free seat, 0: none).
type message struct {
	roomcore.Msg
	Join    *joinRequest
	TableID [16]byte    // join refused: the table that refused (zero: no such table)
	Code    RefusalCode // join refused
	Taken   uint8       // join OK
	Total   uint8       // join OK
	Reason  string      // join refused
	Roster  []byte      // roster message: encoded roster
	Addrs   [][][]byte  // roster message: per seat binary multiaddrs
	Sig     [ed25519.SignatureSize]byte
	Sigs    [][ed25519.SignatureSize]byte
}

// msgName names a message type in errors.
func msgName(typ byte) string {
	switch typ {
	case msgWatchReq:
		return "watch request"
	case msgWatchTab:
		return "watch table"
	case msgJoinReq:
		return "join request"
	case msgJoinOK:
		return "join OK"
	case msgJoinNo:
		return "join refused"
	case msgRoster:
		return "roster"
	case msgRosterSig:
		return "roster signature"
	case msgRosterAll:
		return "all signatures"
	}
	return roomcore.MsgName(typ)
}

// decode parses a frame strictly: unknown types, short fields, values out
// of range and trailing bytes are errors. The join protocol's messages
// (types 10 to 15) name the offending field.
func decode(frame []byte) (*message, error) {
	if len(frame) > 0 && frame[0] >= msgHello && frame[0] <= msgDone {
		cm, err := roomcore.Decode(frame)
		if err != nil {
			return nil, err
		}
		return &message{Msg: *cm}, nil
	}
	s := cryptobyte.String(frame)
	m := new(message)
	if !s.ReadUint8(&m.Type) {
		return nil, errors.New("empty frame")
	}
	var err error
	ok := true
	switch m.Type {
	case msgWatchReq:
		ok = s.CopyBytes(m.TableID[:]) && s.ReadUint64(&m.From)
	case msgWatchTab:
		err = readWatchTable(&s, m)
	case msgJoinReq:
		m.Join, err = readJoinRequest(&s)
	case msgJoinOK:
		err = readJoinOK(&s, m)
	case msgJoinNo:
		err = readJoinNo(&s, m)
	case msgRoster:
		err = readRosterOffer(&s, m)
	case msgRosterSig:
		if !s.ReadUint8(&m.Seat) {
			err = errors.New("seat: truncated")
		} else if !s.CopyBytes(m.Sig[:]) {
			err = errors.New("signature: truncated")
		}
	case msgRosterAll:
		err = readRosterAll(&s, m)
	default:
		return nil, fmt.Errorf("unknown message type %d", m.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("message type %d (%s): %w", m.Type, msgName(m.Type), err)
	}
	if !ok {
		return nil, fmt.Errorf("message type %d (%s): truncated or over a limit", m.Type, msgName(m.Type))
	}
	if !s.Empty() {
		return nil, fmt.Errorf("message type %d (%s): %d trailing bytes after the last field", m.Type, msgName(m.Type), len(s))
	}
	return m, nil
}

func addAddrs(b *cryptobyte.Builder, addrs [][]byte) {
	n := min(len(addrs), maxAddrs)
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
	if n > maxAddrs {
		return nil, fmt.Errorf("address count: %d, limit %d", n, maxAddrs)
	}
	var out [][]byte
	for i := range int(n) {
		var a cryptobyte.String
		if !s.ReadUint16LengthPrefixed(&a) {
			return nil, fmt.Errorf("address %d: truncated", i)
		}
		if len(a) > maxAddrBytes {
			return nil, fmt.Errorf("address %d: %d bytes, limit %d", i, len(a), maxAddrBytes)
		}
		out = append(out, append([]byte(nil), a...))
	}
	return out, nil
}

// joinRequest is what a joiner sends the table's creator.
type joinRequest struct {
	TableID [16]byte
	// Seat is the seat the joiner asks for (its card key may be bound to
	// it); 0 takes the next free seat, whichever it is.
	Seat    uint8
	Name    string
	SignKey ed25519.PublicKey
	CardKey []byte
	Addrs   [][]byte
}

// encodeJoinRequest: table id [16], seat u8 (0: any), name (u8 len),
// signing key [32], card key (u16 len), addresses.
func encodeJoinRequest(r *joinRequest) []byte {
	return encode(msgJoinReq, func(b *cryptobyte.Builder) {
		b.AddBytes(r.TableID[:])
		b.AddUint8(r.Seat)
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(r.Name)) })
		b.AddBytes(r.SignKey)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(r.CardKey) })
		addAddrs(b, r.Addrs)
	})
}

func readJoinRequest(s *cryptobyte.String) (*joinRequest, error) {
	r := new(joinRequest)
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

// encodeJoinOK: the seat given u8, seats taken u8, seats total u8.
func encodeJoinOK(seat, taken, total uint8) []byte {
	return encode(msgJoinOK, func(b *cryptobyte.Builder) { b.AddUint8(seat); b.AddUint8(taken); b.AddUint8(total) })
}

// readJoinOK decodes a join OK: a joiner's seat is 1..total-1 (seat 0 is
// the creator's), and the seats taken include it.
func readJoinOK(s *cryptobyte.String, m *message) error {
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

// encodeJoinNo: refusal code u8, table id [16] (zero: no such table), the
// next free seat u8 (0: none), reason (u16 len). The code and the reason
// come together in r, so that they agree.
func encodeJoinNo(table [16]byte, seat uint8, r refusal) []byte {
	return encode(msgJoinNo, func(b *cryptobyte.Builder) {
		b.AddUint8(uint8(r.Code))
		b.AddBytes(table[:])
		b.AddUint8(seat)
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(truncate(r.Reason, maxReason))) })
	})
}

// readJoinNo decodes a join refused: a known code; a zero table id exactly
// when the code is [RefusedNoSuchTable]; no next free seat (0) when the
// table has started, is full or does not exist.
func readJoinNo(s *cryptobyte.String, m *message) error {
	var r cryptobyte.String
	var code uint8
	if !s.ReadUint8(&code) {
		return errors.New("code: truncated")
	}
	m.Code = RefusalCode(code)
	if !m.Code.known() {
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
	case m.Seat != 0 && !m.Code.seatFree():
		return fmt.Errorf("seat: %d with code %d (%s), want 0 (none)", m.Seat, m.Code, m.Code)
	case !s.ReadUint16LengthPrefixed(&r):
		return errors.New("reason: truncated")
	case len(r) > maxReason:
		return fmt.Errorf("reason: %d bytes, limit %d", len(r), maxReason)
	}
	m.Reason = string(r)
	return nil
}

// encodeRosterOffer: roster (u32 len), u8 seat count, per seat an address
// list.
func encodeRosterOffer(roster []byte, addrs [][][]byte) []byte {
	return encode(msgRoster, func(b *cryptobyte.Builder) {
		b.AddUint32(uint32(len(roster)))
		b.AddBytes(roster)
		b.AddUint8(uint8(len(addrs)))
		for _, a := range addrs {
			addAddrs(b, a)
		}
	})
}

func readRosterOffer(s *cryptobyte.String, m *message) error {
	var n32 uint32
	var raw []byte
	var n uint8
	switch {
	case !s.ReadUint32(&n32):
		return errors.New("roster length: truncated")
	case n32 > maxRosterBytes:
		return fmt.Errorf("roster: %d bytes, limit %d", n32, maxRosterBytes)
	case !s.ReadBytes(&raw, int(n32)):
		return errors.New("roster: truncated")
	case !s.ReadUint8(&n):
		return errors.New("seat count: truncated")
	case n > ledger.MaxSeats:
		return fmt.Errorf("seat count: %d, limit %d", n, ledger.MaxSeats)
	}
	m.Roster = append([]byte(nil), raw...)
	for i := range int(n) {
		addrs, err := readAddrs(s)
		if err != nil {
			return fmt.Errorf("seat %d's addresses: %w", i, err)
		}
		m.Addrs = append(m.Addrs, addrs)
	}
	return nil
}

// encodeRosterSig: the sender's seat u8, its signature [64].
func encodeRosterSig(seat uint8, sig []byte) []byte {
	return encode(msgRosterSig, func(b *cryptobyte.Builder) { b.AddUint8(seat); b.AddBytes(sig) })
}

// encodeRosterAll: u8 count, signature [64] each.
func encodeRosterAll(sigs [][ed25519.SignatureSize]byte) []byte {
	return encode(msgRosterAll, func(b *cryptobyte.Builder) {
		b.AddUint8(uint8(len(sigs)))
		for _, s := range sigs {
			b.AddBytes(s[:])
		}
	})
}

func readRosterAll(s *cryptobyte.String, m *message) error {
	var n uint8
	if !s.ReadUint8(&n) {
		return errors.New("signature count: truncated")
	}
	if n > ledger.MaxSeats {
		return fmt.Errorf("signature count: %d, limit %d", n, ledger.MaxSeats)
	}
	for i := range int(n) {
		var sig [ed25519.SignatureSize]byte
		if !s.CopyBytes(sig[:]) {
			return fmt.Errorf("signature %d: truncated", i)
		}
		m.Sigs = append(m.Sigs, sig)
	}
	return nil
}

// encodeWatchReq: table id [16] (zero: the seat's only open game), the
// first position wanted u64.
func encodeWatchReq(table [16]byte, from uint64) []byte {
	return encode(msgWatchReq, func(b *cryptobyte.Builder) { b.AddBytes(table[:]); b.AddUint64(from) })
}

// encodeWatchTable: roster (u32 len, ledger.Roster encoding), u8 count,
// signature [64] each (seat order).
func encodeWatchTable(roster []byte, sigs [][ed25519.SignatureSize]byte) []byte {
	return encode(msgWatchTab, func(b *cryptobyte.Builder) {
		b.AddUint32(uint32(len(roster)))
		b.AddBytes(roster)
		b.AddUint8(uint8(len(sigs)))
		for _, s := range sigs {
			b.AddBytes(s[:])
		}
	})
}

func readWatchTable(s *cryptobyte.String, m *message) error {
	var n32 uint32
	var raw []byte
	switch {
	case !s.ReadUint32(&n32):
		return errors.New("roster length: truncated")
	case n32 > maxRosterBytes:
		return fmt.Errorf("roster: %d bytes, limit %d", n32, maxRosterBytes)
	case !s.ReadBytes(&raw, int(n32)):
		return errors.New("roster: truncated")
	}
	m.Roster = append([]byte(nil), raw...)
	return readRosterAll(s, m)
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
