// Package watchproto is the watch protocol's pure part (/masque/watch/1):
// its two messages with their strict decoder, and what a spectator
// checks of what a seat sends it ([CheckTable], [Follower]). A spectator
// holds no seat and no key: it reads a table's public log from one seat
// and believes nothing on that seat's word alone.
//
// It holds no stream and no clock, and builds for a browser (GOOS=js
// GOARCH=wasm). Package p2p serves spectators from a seat's room and
// follows a seat (Node.Watch) over libp2p streams.
//
// # The exchange
//
// The spectator sends one watch request ([EncodeRequest]: the table, the
// first position wanted) and closes its side. The seat answers a watch
// table ([EncodeTable]: the roster and every seat's roster signature),
// then an entry frame of the log protocol (package roomcore) for every
// durable entry from that position on, as it becomes durable, then, once
// the game is over there, its verdict if any and a sync end.
package watchproto

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/internal/wirefmt"
)

// Message types: the first byte of a frame. Their values are on the wire
// (the log and sync protocols use 1 to 7, the join protocol 10 to 15).
const (
	MsgRequest = 8 // spectator: table id, first position wanted
	MsgTable   = 9 // to a spectator: the roster and every seat's roster signature
)

// MaxRequestFrame limits a spectator's only frame (a watch request is 25
// bytes).
const MaxRequestFrame = 64

// MaxTableFrame limits a watch table frame: the largest roster and a
// signature per seat.
const MaxTableFrame = wirefmt.MaxRosterBytes + 64*ledger.MaxSeats + 64

// MsgName names a watch message type in errors ("unknown" for others).
func MsgName(typ byte) string {
	switch typ {
	case MsgRequest:
		return "watch request"
	case MsgTable:
		return "watch table"
	}
	return "unknown"
}

// Msg is a decoded watch frame; which fields are set depends on Type.
type Msg struct {
	Type byte
	// TableID and From: watch request, the table (zero: the seat's only
	// open game) and the first position wanted.
	TableID [16]byte
	From    uint64
	// Roster and Sigs: watch table, the encoded roster and every seat's
	// roster signature, in seat order.
	Roster []byte
	Sigs   [][ed25519.SignatureSize]byte
}

// EncodeRequest: table id [16] (zero: the seat's only open game), the
// first position wanted u64.
func EncodeRequest(table [16]byte, from uint64) []byte {
	return wirefmt.Encode(MsgRequest, func(b *cryptobyte.Builder) { b.AddBytes(table[:]); b.AddUint64(from) })
}

// EncodeTable: roster (u32 len, ledger.Roster encoding), u8 count,
// signature [64] each (seat order).
func EncodeTable(roster []byte, sigs [][ed25519.SignatureSize]byte) []byte {
	return wirefmt.Encode(MsgTable, func(b *cryptobyte.Builder) {
		wirefmt.AddRoster(b, roster)
		wirefmt.AddSigs(b, sigs)
	})
}

// Decode parses a watch frame (type 8 or 9) strictly: an unknown type, a
// short field, a value out of range or trailing bytes is an error that
// names the message and the field.
func Decode(frame []byte) (*Msg, error) {
	s := cryptobyte.String(frame)
	m := new(Msg)
	if !s.ReadUint8(&m.Type) {
		return nil, errors.New("empty frame")
	}
	var err error
	switch m.Type {
	case MsgRequest:
		switch {
		case !s.CopyBytes(m.TableID[:]):
			err = errors.New("table id: truncated")
		case !s.ReadUint64(&m.From):
			err = errors.New("first position: truncated")
		}
	case MsgTable:
		if m.Roster, err = wirefmt.ReadRoster(&s); err == nil {
			m.Sigs, err = wirefmt.ReadSigs(&s)
		}
	default:
		return nil, fmt.Errorf("unknown message type %d", m.Type)
	}
	if err := wirefmt.Finish(m.Type, MsgName(m.Type), s, true, err); err != nil {
		return nil, err
	}
	return m, nil
}
