// Package remoteseat drives a seat whose frames travel through a
// forwarder (a phone's browser seat, whose page's server carries its
// frames into the room: docs/phones.md): a [roomcore.Core] fed and
// emptied through sealed frames (roomcore.Seal, docs/protocol.md "Sealed
// frames") instead of libp2p streams. Like the core it is pure: no
// goroutines, no network, no clock, no storage; it builds for
// GOOS=js GOARCH=wasm. Its caller persists what an [Out] says before it
// sends the Out's packets.
package remoteseat

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/roomcore"
)

// ToEvery is a packet's destination for every other seat.
const ToEvery = 255

// Packet is a forward packet for the forwarder to carry: To (a seat, or
// ToEvery) then a sealed frame; Bytes is that encoding.
type Packet struct {
	To     uint8
	Sealed []byte
}

// Bytes is the packet's encoding on the forwarder's wire.
func (p Packet) Bytes() []byte { return append([]byte{p.To}, p.Sealed...) }

// Out is what a step brings out: the core's Ready (persist its
// MarkSigned, Entries and Save first, then send Packets; its Frames are
// in Packets, sealed; Timers, Author, Waits as the core says).
type Out struct {
	roomcore.Ready
	Packets []Packet
}

// syncAsk is a sync request in flight to one seat.
type syncAsk struct {
	nonce uint64
	asked time.Time
}

// syncAskWait is how long a sync request stays in flight (the next one
// to that seat waits for it).
const syncAskWait = 5 * time.Second

// answerGap is the least time between two sync answers to one seat (a
// forwarder replaying a request cannot make this seat sign without end).
const answerGap = 100 * time.Millisecond

// Seat is one forwarded seat.
type Seat struct {
	core     *roomcore.Core
	game     ledger.Hash
	self     uint8
	key      ed25519.PrivateKey
	keys     []ed25519.PublicKey
	asks     map[uint8]syncAsk
	answered map[uint8]time.Time
	// Faults are the bad packets seen (a forwarder's or a seat's), most
	// recent last, at most 64: a page shows them, a test reads them.
	Faults []error
}

// New makes the seat's core (cfg as for roomcore.New) and replays the
// stored entries through it.
func New(cfg roomcore.Config, stored []*ledger.Entry) (*Seat, error) {
	c, err := roomcore.New(cfg, stored)
	if err != nil {
		return nil, err
	}
	s := &Seat{core: c, game: c.Game(), self: cfg.Self, key: cfg.SignKey,
		asks: map[uint8]syncAsk{}, answered: map[uint8]time.Time{}}
	for _, si := range cfg.Roster.Seats {
		s.keys = append(s.keys, si.SignKey)
	}
	return s, nil
}

// Core is the seat's replication core (its log, its verdict).
func (s *Seat) Core() *roomcore.Core { return s.core }

// CheckStored is the core's (a stored verdict ends the table).
func (s *Seat) CheckStored(raw []byte) (*roomcore.Outcome, error) { return s.core.CheckStored(raw) }

// Start begins the run at now.
func (s *Seat) Start(now time.Time) Out { return s.out(now, s.core.Start(now)) }

// Tick is the ticker's turn (every Config.Tick).
func (s *Seat) Tick(now time.Time) Out {
	s.core.Step(roomcore.Input{Kind: roomcore.InTick, Now: now})
	return s.ready(now)
}

// Timer steps a timer an Out asked for.
func (s *Seat) Timer(now time.Time, t roomcore.Timer) Out {
	s.core.Step(roomcore.Input{Kind: roomcore.InTimer, Now: now, Timer: t})
	return s.ready(now)
}

// Authored hands the core the local player's entry body for pos (or the
// error that stopped it).
func (s *Seat) Authored(now time.Time, pos uint64, body []byte, err error) Out {
	s.core.Step(roomcore.Input{Kind: roomcore.InAuthored, Now: now, Pos: pos, Body: body, Err: err})
	return s.ready(now)
}

// Receive takes a sealed frame the forwarder carried. One that does not
// check (its seal, its table, its form) is dropped and recorded in
// Faults, and the error returned; the seat goes on.
func (s *Seat) Receive(now time.Time, sealed []byte) (Out, error) {
	sd, m, err := roomcore.OpenSealed(sealed, s.game, s.keys)
	if err == nil && sd.Seat == s.self {
		err = fmt.Errorf("sealed frame from this seat (%d): replayed back to it", sd.Seat)
	}
	if err != nil {
		s.fault(err)
		return Out{}, err
	}
	var extra []Packet
	switch m.Type {
	case roomcore.MsgEntry, roomcore.MsgVerdict, roomcore.MsgEcho, roomcore.MsgDone:
		s.core.Step(roomcore.Input{Kind: roomcore.InMsg, Now: now, Seat: sd.Seat, Msg: m, At: now})
	case roomcore.MsgSyncReq:
		if last, ok := s.answered[sd.Seat]; !ok || now.Sub(last) >= answerGap {
			s.answered[sd.Seat] = now
			extra = s.answer(sd.Seat, sd.Nonce, m.From, m.Max)
		}
	case roomcore.MsgSyncEnd:
		ask, ok := s.asks[sd.Seat]
		if !ok || ask.nonce != sd.Nonce {
			// A replayed answer, or one to a request given up.
			return Out{}, nil
		}
		delete(s.asks, sd.Seat)
		s.core.Step(roomcore.Input{Kind: roomcore.InSynced, Now: now, Seat: sd.Seat, At: now, Asked: ask.asked, Length: m.From})
	}
	o := s.ready(now)
	o.Packets = append(o.Packets, extra...)
	return o, nil
}

func (s *Seat) fault(err error) {
	if len(s.Faults) >= 64 {
		s.Faults = s.Faults[1:]
	}
	s.Faults = append(s.Faults, err)
}

// answer is the sync answer to seat: the entries held from position
// from, the verdict if the table ended here, the log's length; each
// sealed with the request's nonce.
func (s *Seat) answer(seat uint8, nonce, from uint64, max uint32) []Packet {
	log, states := s.core.Log()
	n := uint64(len(log))
	var out []Packet
	if from < n {
		end := min(n, from+uint64(min(max, roomcore.MaxSyncBatch)))
		for i := from; i < end; i++ {
			if frame, err := roomcore.EncodeEntry(log[i], states[i]); err == nil {
				out = s.seal(out, seat, nonce, frame)
			}
		}
	}
	if v := s.core.Verdict(); v != nil {
		if frame, err := roomcore.EncodeVerdict(v); err == nil {
			out = s.seal(out, seat, nonce, frame)
		}
	}
	return s.seal(out, seat, nonce, roomcore.EncodeSyncEnd(n))
}

func (s *Seat) seal(out []Packet, to uint8, nonce uint64, frame []byte) []Packet {
	sealed, err := roomcore.Seal(s.key, s.game, s.self, nonce, frame)
	if err != nil {
		s.fault(err)
		return out
	}
	return append(out, Packet{To: to, Sealed: sealed})
}

func (s *Seat) ready(now time.Time) Out { return s.out(now, s.core.Ready()) }

// out seals a Ready's frames and turns its sync requests into sealed
// requests (one in flight per seat).
func (s *Seat) out(now time.Time, rd roomcore.Ready) Out {
	o := Out{Ready: rd}
	for _, f := range rd.Frames {
		o.Packets = s.seal(o.Packets, ToEvery, 0, f)
	}
	for _, q := range rd.Syncs {
		if a, ok := s.asks[q.Seat]; ok && now.Sub(a.asked) < syncAskWait {
			continue
		}
		nonce, err := newNonce()
		if err != nil {
			s.fault(err)
			continue
		}
		s.asks[q.Seat] = syncAsk{nonce: nonce, asked: now}
		o.Packets = s.seal(o.Packets, q.Seat, nonce, roomcore.EncodeSyncReq(s.game, q.From, roomcore.MaxSyncBatch))
	}
	return o
}

func newNonce() (uint64, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, errors.New("remoteseat: no randomness for a sync nonce")
	}
	return binary.BigEndian.Uint64(b[:]) | 1, nil
}
