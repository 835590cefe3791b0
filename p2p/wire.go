package p2p

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"golang.org/x/crypto/cryptobyte"
)

// Message types: the first byte of every frame. See docs/p2p.md.
const (
	msgHello     = 1  // log stream opener: game id, sender's seat
	msgEntry     = 2  // an accepted entry and the sender's state hash after it
	msgVerdict   = 3  // a verdict that ended the sender's table
	msgSyncReq   = 4  // game id, first position wanted, maximum count
	msgSyncEnd   = 5  // end of a sync answer: the server's next position
	msgJoinReq   = 10 // table id, name, signing key, card key, addresses
	msgJoinOK    = 11 // seats taken, seats total
	msgJoinNo    = 12 // reason
	msgRoster    = 13 // roster and every seat's addresses
	msgRosterSig = 14 // the sender's signature on the roster
	msgRosterAll = 15 // every seat's signature
)

// Limits on join-protocol fields beyond those of package ledger.
const (
	maxAddrs     = 16
	maxAddrBytes = 512
	maxReason    = 1024
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

func addEntry(b *cryptobyte.Builder, e *ledger.Entry) error {
	enc, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	b.AddUint32(uint32(len(enc)))
	b.AddBytes(enc)
	return nil
}

func readEntry(s *cryptobyte.String) (*ledger.Entry, error) {
	var n uint32
	var raw []byte
	if !s.ReadUint32(&n) || n > ledger.MaxBodyBytes+1024 || !s.ReadBytes(&raw, int(n)) {
		return nil, errors.New("truncated entry")
	}
	return ledger.UnmarshalEntry(raw)
}

func encodeHello(game ledger.Hash, seat uint8) []byte {
	return encode(msgHello, func(b *cryptobyte.Builder) { b.AddBytes(game[:]); b.AddUint8(seat) })
}

func encodeEntryMsg(e *ledger.Entry, state ledger.Hash) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(msgEntry)
	b.AddBytes(state[:])
	if err := addEntry(&b, e); err != nil {
		return nil, err
	}
	return b.Bytes()
}

func encodeSyncReq(game ledger.Hash, from uint64, max uint32) []byte {
	return encode(msgSyncReq, func(b *cryptobyte.Builder) { b.AddBytes(game[:]); b.AddUint64(from); b.AddUint32(max) })
}

func encodeSyncEnd(next uint64) []byte {
	return encode(msgSyncEnd, func(b *cryptobyte.Builder) { b.AddUint64(next) })
}

// message is a decoded frame; which fields are set depends on Type.
type message struct {
	Type    byte
	Game    ledger.Hash // hello, sync request
	Seat    uint8       // hello
	Entry   *ledger.Entry
	State   ledger.Hash // entry: sender's state hash after Entry
	Verdict *Verdict
	From    uint64 // sync request: first position; sync end: server's next position
	Max     uint32 // sync request
	Join    *joinRequest
	Taken   uint8 // join OK
	Total   uint8 // join OK
	Reason  string
	Roster  []byte     // roster message: encoded roster
	Addrs   [][][]byte // roster message: per seat binary multiaddrs
	Sig     [ed25519.SignatureSize]byte
	Sigs    [][ed25519.SignatureSize]byte
}

// decode parses a frame strictly: unknown types, short fields and trailing
// bytes are errors.
func decode(frame []byte) (*message, error) {
	s := cryptobyte.String(frame)
	m := new(message)
	if !s.ReadUint8(&m.Type) {
		return nil, errors.New("empty frame")
	}
	var err error
	ok := true
	switch m.Type {
	case msgHello:
		ok = s.CopyBytes(m.Game[:]) && s.ReadUint8(&m.Seat)
	case msgEntry:
		ok = s.CopyBytes(m.State[:])
		if ok {
			m.Entry, err = readEntry(&s)
		}
	case msgVerdict:
		var raw []byte
		var n uint32
		ok = s.ReadUint32(&n) && n <= 4*(ledger.MaxBodyBytes+1024) && s.ReadBytes(&raw, int(n))
		if ok {
			m.Verdict, err = UnmarshalVerdict(raw)
		}
	case msgSyncReq:
		ok = s.CopyBytes(m.Game[:]) && s.ReadUint64(&m.From) && s.ReadUint32(&m.Max)
	case msgSyncEnd:
		ok = s.ReadUint64(&m.From)
	case msgJoinReq:
		m.Join, err = readJoinRequest(&s)
	case msgJoinOK:
		ok = s.ReadUint8(&m.Taken) && s.ReadUint8(&m.Total)
	case msgJoinNo:
		var r cryptobyte.String
		ok = s.ReadUint16LengthPrefixed(&r) && len(r) <= maxReason
		m.Reason = string(r)
	case msgRoster:
		var n32 uint32
		var raw []byte
		ok = s.ReadUint32(&n32) && n32 <= 1<<20 && s.ReadBytes(&raw, int(n32))
		m.Roster = append([]byte(nil), raw...)
		var n uint8
		ok = ok && s.ReadUint8(&n) && n <= ledger.MaxSeats
		for i := 0; ok && i < int(n); i++ {
			var addrs [][]byte
			addrs, ok = readAddrs(&s)
			m.Addrs = append(m.Addrs, addrs)
		}
	case msgRosterSig:
		ok = s.ReadUint8(&m.Seat) && s.CopyBytes(m.Sig[:])
	case msgRosterAll:
		var n uint8
		ok = s.ReadUint8(&n) && n <= ledger.MaxSeats
		for i := 0; ok && i < int(n); i++ {
			var sig [ed25519.SignatureSize]byte
			ok = s.CopyBytes(sig[:])
			m.Sigs = append(m.Sigs, sig)
		}
	default:
		return nil, fmt.Errorf("unknown message type %d", m.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("message type %d: %w", m.Type, err)
	}
	if !ok {
		return nil, fmt.Errorf("message type %d: truncated or over a limit", m.Type)
	}
	if !s.Empty() {
		return nil, fmt.Errorf("message type %d: %d trailing bytes", m.Type, len(s))
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

func readAddrs(s *cryptobyte.String) ([][]byte, bool) {
	var n uint8
	if !s.ReadUint8(&n) || n > maxAddrs {
		return nil, false
	}
	var out [][]byte
	for range int(n) {
		var a cryptobyte.String
		if !s.ReadUint16LengthPrefixed(&a) || len(a) > maxAddrBytes {
			return nil, false
		}
		out = append(out, append([]byte(nil), a...))
	}
	return out, true
}

// joinRequest is what a joiner sends the table's creator.
type joinRequest struct {
	TableID [16]byte
	Name    string
	SignKey ed25519.PublicKey
	CardKey []byte
	Addrs   [][]byte
}

func encodeJoinRequest(r *joinRequest) []byte {
	return encode(msgJoinReq, func(b *cryptobyte.Builder) {
		b.AddBytes(r.TableID[:])
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
	if !s.CopyBytes(r.TableID[:]) || !s.ReadUint8LengthPrefixed(&name) || !s.CopyBytes(r.SignKey) ||
		!s.ReadUint16LengthPrefixed(&card) {
		return nil, errors.New("truncated join request")
	}
	if len(name) == 0 || len(name) > ledger.MaxNameBytes {
		return nil, fmt.Errorf("name must be 1..%d bytes", ledger.MaxNameBytes)
	}
	if len(card) > ledger.MaxKeyBytes {
		return nil, fmt.Errorf("card key is %d bytes, limit %d", len(card), ledger.MaxKeyBytes)
	}
	r.Name, r.CardKey = string(name), append([]byte(nil), card...)
	var ok bool
	if r.Addrs, ok = readAddrs(s); !ok {
		return nil, errors.New("bad address list")
	}
	return r, nil
}
