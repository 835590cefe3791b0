package roomcore

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/internal/wirefmt"
	"golang.org/x/crypto/cryptobyte"
)

// Message types of the log and sync protocols: the first byte of every
// frame (docs/protocol.md). The other protocols' types are 8 and 9 (watch,
// package watchproto) and 10 to 15 (join, package joinproto).
const (
	MsgHello   = 1 // log stream opener: game id, sender's seat
	MsgEntry   = 2 // an accepted entry and the sender's state hash after it
	MsgVerdict = 3 // a verdict that ended the sender's table
	MsgSyncReq = 4 // game id, first position wanted, maximum count
	MsgSyncEnd = 5 // end of a sync answer: the server's next position
	MsgEcho    = 6 // position, entry hash, the sender's state hash after it
	MsgDone    = 7 // log length, state hash: the sender has every seat's echo of the end
)

// Msg is a decoded frame of the log or sync protocol; which fields are
// set depends on Type.
type Msg struct {
	Type    byte
	Game    ledger.Hash // hello, sync request
	Seat    uint8       // hello
	Entry   *ledger.Entry
	State   ledger.Hash // entry, echo: sender's state hash after the entry; done: its final state
	Hash    ledger.Hash // echo: the entry's hash
	Pos     uint64      // echo: the entry's position; done: the log's length
	Verdict *Verdict
	From    uint64 // sync request: first position; sync end: server's next position
	Max     uint32 // sync request
}

// MsgName names a message type of the log and sync protocols in errors
// ("unknown" for others).
func MsgName(typ byte) string {
	switch typ {
	case MsgHello:
		return "hello"
	case MsgEntry:
		return "entry"
	case MsgVerdict:
		return "verdict"
	case MsgSyncReq:
		return "sync request"
	case MsgSyncEnd:
		return "sync end"
	case MsgEcho:
		return "echo"
	case MsgDone:
		return "done"
	}
	return "unknown"
}

// encode builds a frame: the type byte, then what f adds.
func encode(typ byte, f func(b *cryptobyte.Builder)) []byte { return wirefmt.Encode(typ, f) }

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

// EncodeHello: game id [32], the sender's seat u8.
func EncodeHello(game ledger.Hash, seat uint8) []byte {
	return encode(MsgHello, func(b *cryptobyte.Builder) { b.AddBytes(game[:]); b.AddUint8(seat) })
}

// EncodeEntry: state hash [32], then the entry (u32 length, encoding).
func EncodeEntry(e *ledger.Entry, state ledger.Hash) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint8(MsgEntry)
	b.AddBytes(state[:])
	if err := addEntry(&b, e); err != nil {
		return nil, err
	}
	return b.Bytes()
}

// EncodeEcho: position u64, entry hash [32], state hash [32]: the sender
// holds, durably, entry pos with that hash and reached that state after it.
func EncodeEcho(pos uint64, entry, state ledger.Hash) []byte {
	return encode(MsgEcho, func(b *cryptobyte.Builder) { b.AddUint64(pos); b.AddBytes(entry[:]); b.AddBytes(state[:]) })
}

// EncodeDone: log length u64, state hash [32]: the game is over for the
// sender after that many entries, in that state, and every other seat has
// echoed the last entry with that state to it.
func EncodeDone(length uint64, state ledger.Hash) []byte {
	return encode(MsgDone, func(b *cryptobyte.Builder) { b.AddUint64(length); b.AddBytes(state[:]) })
}

// EncodeSyncReq: game id [32], first position u64, maximum count u32.
func EncodeSyncReq(game ledger.Hash, from uint64, max uint32) []byte {
	return encode(MsgSyncReq, func(b *cryptobyte.Builder) { b.AddBytes(game[:]); b.AddUint64(from); b.AddUint32(max) })
}

// EncodeSyncEnd: the server's next position u64.
func EncodeSyncEnd(next uint64) []byte {
	return encode(MsgSyncEnd, func(b *cryptobyte.Builder) { b.AddUint64(next) })
}

// EncodeVerdict: the verdict's encoding (u32 length, [Verdict.MarshalBinary]).
func EncodeVerdict(v *Verdict) ([]byte, error) {
	enc, err := v.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return encode(MsgVerdict, func(b *cryptobyte.Builder) { b.AddUint32(uint32(len(enc))); b.AddBytes(enc) }), nil
}

// Decode parses a frame of the log or sync protocol (types 1 to 7)
// strictly: unknown types, short fields, values out of range and trailing
// bytes are errors.
func Decode(frame []byte) (*Msg, error) {
	s := cryptobyte.String(frame)
	m := new(Msg)
	if !s.ReadUint8(&m.Type) {
		return nil, errors.New("empty frame")
	}
	var err error
	ok := true
	switch m.Type {
	case MsgHello:
		ok = s.CopyBytes(m.Game[:]) && s.ReadUint8(&m.Seat)
	case MsgEntry:
		ok = s.CopyBytes(m.State[:])
		if ok {
			m.Entry, err = readEntry(&s)
		}
	case MsgVerdict:
		var raw []byte
		var n uint32
		ok = s.ReadUint32(&n) && n <= 4*(ledger.MaxBodyBytes+1024) && s.ReadBytes(&raw, int(n))
		if ok {
			m.Verdict, err = UnmarshalVerdict(raw)
		}
	case MsgSyncReq:
		ok = s.CopyBytes(m.Game[:]) && s.ReadUint64(&m.From) && s.ReadUint32(&m.Max)
	case MsgSyncEnd:
		ok = s.ReadUint64(&m.From)
	case MsgEcho:
		ok = s.ReadUint64(&m.Pos) && s.CopyBytes(m.Hash[:]) && s.CopyBytes(m.State[:])
	case MsgDone:
		ok = s.ReadUint64(&m.Pos) && s.CopyBytes(m.State[:])
		if ok && m.Pos == 0 {
			err = errors.New("log length: 0; a game has at least one entry")
		}
	default:
		return nil, fmt.Errorf("unknown message type %d", m.Type)
	}
	if err := wirefmt.Finish(m.Type, MsgName(m.Type), s, ok, err); err != nil {
		return nil, err
	}
	return m, nil
}
