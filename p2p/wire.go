package p2p

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/p2p/joinproto"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/watchproto"
)

// Message types: the first byte of every frame. See docs/p2p.md. Each
// protocol's package holds its messages: the log and sync protocols'
// (1 to 7) are package roomcore's, the watch protocol's (8, 9) package
// watchproto's, the join protocol's (10 to 15) package joinproto's.
const (
	msgHello     = roomcore.MsgHello      // log stream opener: game id, sender's seat
	msgEntry     = roomcore.MsgEntry      // an accepted entry and the sender's state hash after it
	msgVerdict   = roomcore.MsgVerdict    // a verdict that ended the sender's table
	msgSyncReq   = roomcore.MsgSyncReq    // game id, first position wanted, maximum count
	msgSyncEnd   = roomcore.MsgSyncEnd    // end of a sync answer: the server's next position
	msgEcho      = roomcore.MsgEcho       // position, entry hash, the sender's state hash after it
	msgDone      = roomcore.MsgDone       // log length, state hash: the sender has every seat's echo of the end
	msgWatchReq  = watchproto.MsgRequest  // spectator: table id, first position wanted
	msgWatchTab  = watchproto.MsgTable    // to a spectator: the roster and every seat's roster signature
	msgJoinReq   = joinproto.MsgRequest   // table id, seat asked for, name, signing key, card key, addresses
	msgJoinOK    = joinproto.MsgOK        // seat given, seats taken, seats total
	msgJoinNo    = joinproto.MsgRefused   // refusal code, table id, next free seat, reason
	msgRoster    = joinproto.MsgRoster    // roster and every seat's addresses
	msgRosterSig = joinproto.MsgRosterSig // the sender's signature on the roster
	msgRosterAll = joinproto.MsgRosterAll // every seat's signature
	msgJoinFwd   = joinproto.MsgForwarded // a join request for a player reached through the sender
)

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

// message is a decoded frame of any of the protocols. Type is always set;
// the log and sync protocols' fields are roomcore's, the watch protocol's
// are in Watch, the join protocol's in Join.
type message struct {
	roomcore.Msg
	Watch *watchproto.Msg
	Join  *joinproto.Msg
}

// msgName names a message type in errors.
func msgName(typ byte) string {
	switch {
	case typ >= msgWatchReq && typ <= msgWatchTab:
		return watchproto.MsgName(typ)
	case typ >= msgJoinReq && typ <= msgRosterAll, typ == msgJoinFwd:
		return joinproto.MsgName(typ)
	}
	return roomcore.MsgName(typ)
}

// decode parses a frame strictly, with its protocol's decoder: unknown
// types, short fields, values out of range and trailing bytes are
// errors, naming the message and (but for the log protocol's) the field.
func decode(frame []byte) (*message, error) {
	if len(frame) == 0 {
		return nil, errors.New("empty frame")
	}
	switch typ := frame[0]; {
	case typ >= msgHello && typ <= msgDone:
		cm, err := roomcore.Decode(frame)
		if err != nil {
			return nil, err
		}
		return &message{Msg: *cm}, nil
	case typ >= msgWatchReq && typ <= msgWatchTab:
		wm, err := watchproto.Decode(frame)
		if err != nil {
			return nil, err
		}
		return &message{Msg: roomcore.Msg{Type: typ}, Watch: wm}, nil
	case typ >= msgJoinReq && typ <= msgRosterAll, typ == msgJoinFwd:
		jm, err := joinproto.Decode(frame)
		if err != nil {
			return nil, err
		}
		return &message{Msg: roomcore.Msg{Type: typ}, Join: jm}, nil
	default:
		return nil, fmt.Errorf("unknown message type %d", typ)
	}
}

// RefusalCode says why a table's creator refused a join (package
// joinproto's): a [JoinRefusedError]'s Code.
type RefusalCode = joinproto.RefusalCode

// Refusal codes (see package joinproto).
const (
	RefusedOther         = joinproto.RefusedOther
	RefusedNoSuchTable   = joinproto.RefusedNoSuchTable
	RefusedStarted       = joinproto.RefusedStarted
	RefusedFull          = joinproto.RefusedFull
	RefusedSignKey       = joinproto.RefusedSignKey
	RefusedAlreadySeated = joinproto.RefusedAlreadySeated
	RefusedNameTaken     = joinproto.RefusedNameTaken
	RefusedSeatNotFree   = joinproto.RefusedSeatNotFree
	RefusedCardKey       = joinproto.RefusedCardKey
	RefusedSeat          = joinproto.RefusedSeat
)
