package p2p

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/watchproto"
)

// ProtocolWatch serves a table's public log to spectators: read-only
// peers that hold no seat and no key. See docs/p2p.md.
const ProtocolWatch protocol.ID = "/masque/watch/1"

// MaxWatchReqFrame limits a spectator's only frame (a watch request is 25
// bytes).
const MaxWatchReqFrame = watchproto.MaxRequestFrame

// watchWrite is how long a write to a spectator may take before the
// spectator is dropped: a slow spectator lags, then goes; it never holds
// the table.
const watchWrite = 10 * time.Second

// roomByTable returns the open room of table id (zero: the only open
// room), or nil.
func (n *Node) roomByTable(id [16]byte) *Room {
	n.mu.Lock()
	defer n.mu.Unlock()
	var only *Room
	for _, r := range n.rooms {
		if r.roster.TableID == id {
			return r
		}
		only = r
	}
	if id == ([16]byte{}) && len(n.rooms) == 1 {
		return only
	}
	return nil
}

// Parking: a spectator that asks before the table's game has opened
// here (it is still seating) waits for it, at most watchPark, and at most
// maxParked spectators wait at once (others are reset): a fast game must
// not start and end between two of its requests.
const (
	watchPark = time.Minute
	maxParked = 16
)

// awaitRoom returns the open room of table id, waiting up to watchPark for
// it to open; nil if it does not, or if too many spectators wait already.
func (n *Node) awaitRoom(id [16]byte) *Room {
	if r := n.roomByTable(id); r != nil {
		return r
	}
	n.mu.Lock()
	if n.parked >= maxParked {
		n.mu.Unlock()
		return nil
	}
	n.parked++
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		n.parked--
		n.mu.Unlock()
	}()
	deadline := time.After(watchPark)
	for {
		n.mu.Lock()
		opened := n.roomOpened
		n.mu.Unlock()
		if r := n.roomByTable(id); r != nil {
			return r
		}
		select {
		case <-opened:
		case <-deadline:
			return nil
		case <-n.closing:
			return nil
		}
	}
}

// addSpectator takes a spectator's place, if one is free.
func (r *Room) addSpectator() bool {
	limit := r.cfg.MaxSpectators
	if limit == 0 {
		limit = DefaultMaxSpectators
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.spectators >= limit {
		return false
	}
	r.spectators++
	return true
}

// spectatorGrace is how long Close waits for spectators to receive the
// end of a finished game before it resets their streams.
const spectatorGrace = time.Second

// waitSpectators gives the spectators of a finished game (Run has
// returned) up to spectatorGrace to receive its end; one that does not
// read is reset with the other streams after that.
func (r *Room) waitSpectators() {
	deadline := time.Now().Add(spectatorGrace)
	for time.Now().Before(deadline) {
		r.mu.RLock()
		busy := r.finished && r.spectators > 0
		r.mu.RUnlock()
		if !busy {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (r *Room) removeSpectator() {
	r.mu.Lock()
	r.spectators--
	r.mu.Unlock()
}

// watchFrom returns the written entries from position from (at most
// maxSyncBatch) with our state hash after each, a channel closed at the
// next change, and whether the game is over here.
func (r *Room) watchFrom(from uint64) ([]*ledger.Entry, []ledger.Hash, <-chan struct{}, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	end := r.logLen()
	if r.finished {
		end = min(end, uint64(r.end()))
	}
	if from >= end {
		return nil, nil, r.changed, r.finished
	}
	end = min(end, from+maxSyncBatch)
	entries, err := r.entriesLocked(from, end)
	if err != nil {
		r.node.log.Warn("cannot answer a spectator", "from", from, "err", err)
		return nil, nil, r.changed, false
	}
	return entries, append([]ledger.Hash(nil), r.states[from:end]...), r.changed, false
}

// handleWatch serves one spectator: the roster with every seat's
// signature, then every entry written (with this seat's state hash after
// it) as it is written, then, once the game is over here, the
// verdict if any and a sync end. Nothing is read after the request: a
// spectator cannot write to the table. Each spectator reads the log at
// its own pace, so it never slows the table; one whose writes stall for
// watchWrite is dropped, and seats serve at most RoomConfig.MaxSpectators
// at once (the others are reset).
func (n *Node) handleWatch(s network.Stream) {
	remote := s.Conn().RemotePeer()
	s.SetReadDeadline(time.Now().Add(10 * time.Second))
	req, err := n.readMsgLimit(bufio.NewReader(s), s, MaxWatchReqFrame)
	if err != nil || req.Type != msgWatchReq {
		if err == nil {
			err = fmt.Errorf("watch stream opened with message type %d (%s)", req.Type, msgName(req.Type))
		}
		n.peerError(remote, err)
		s.Reset()
		return
	}
	s.CloseRead()
	room := n.awaitRoom(req.Watch.TableID)
	if room == nil || !room.addSpectator() {
		s.Reset()
		return
	}
	defer room.removeSpectator()
	if !room.track(s) {
		s.Reset()
		return
	}
	defer room.untrack(s)
	t := room.cfg.Store.Table()
	enc, err := t.Roster.MarshalBinary()
	if err != nil {
		s.Reset()
		return
	}
	w := bufio.NewWriter(s)
	write := func(frame []byte) bool {
		s.SetWriteDeadline(time.Now().Add(watchWrite))
		return WriteFrame(w, frame) == nil
	}
	if !write(watchproto.EncodeTable(enc, t.Sigs)) {
		s.Reset()
		return
	}
	pos := req.Watch.From
	for {
		entries, states, changed, over := room.watchFrom(pos)
		for i, e := range entries {
			frame, err := encodeEntryMsg(e, states[i])
			if err != nil || !write(frame) {
				s.Reset()
				return
			}
		}
		pos += uint64(len(entries))
		if len(entries) > 0 {
			continue
		}
		if over {
			if v := room.Verdict(); v != nil {
				if frame, err := encodeVerdictMsg(v); err != nil || !write(frame) {
					s.Reset()
					return
				}
			}
			if !write(encodeSyncEnd(pos)) || w.Flush() != nil {
				s.Reset()
				return
			}
			s.Close()
			return
		}
		s.SetWriteDeadline(time.Now().Add(watchWrite))
		if w.Flush() != nil {
			s.Reset()
			return
		}
		select {
		case <-changed:
		case <-room.ctx.Done():
			s.Reset()
			return
		}
	}
}

// WatchConfig configures [Node.Watch].
type WatchConfig struct {
	// Seat is the seat's peer to follow (its id is checked by the libp2p
	// handshake, and must hold a seat in the roster it sends).
	Seat peer.AddrInfo
	// TableID is the table to follow; zero asks for the seat's only open
	// game.
	TableID [16]byte
	// From is the first position wanted (a spectator following again
	// after a broken stream), Prev the hash of the entry before it (zero
	// for From = 0: the game id). OnTable is called again.
	From uint64
	Prev ledger.Hash
	// OnTable is called once with the roster, after every seat's roster
	// signature has been checked; an error stops the watch.
	OnTable func(r *ledger.Roster, sigs [][ed25519.SignatureSize]byte) error
	// OnEntry is called with each entry in order, after its position, its
	// author's signature and its chain to the previous entry have been
	// checked (the rules are the caller's to check, e.g. with a
	// table.Table); an error stops the watch.
	OnEntry func(e *ledger.Entry) error
}

// WatchResult is what a watch saw.
type WatchResult struct {
	// Entries is the length of the log received and checked (From
	// included).
	Entries uint64
	// Verdict is the verdict that stopped the table, if any: checked
	// with Verdict.Verify against the roster, and accepted by the rule a
	// seat applies (see [Node.Watch]).
	Verdict *Verdict
	// Claim is a verdict the seat sent that a spectator cannot check (a
	// timeout: only its declarer's timer backs it): the seat's word, not
	// the table's verdict.
	Claim *Verdict
}

// Watch follows a table's public log as a spectator until the seat says
// the game is over there (then it returns), ctx ends or the stream
// breaks (an error; the entries so far were given to OnEntry). A
// spectator holds no seat: it only reads, and may be dropped by a seat
// that has enough spectators or that it cannot keep up with.
//
// A verdict the seat sends is accepted (WatchResult.Verdict) by the rule
// a seat applies, never on the word of the seat watched alone; see
// [watchproto.Follower]. One it cannot check is WatchResult.Claim.
func (n *Node) Watch(ctx context.Context, cfg WatchConfig) (*WatchResult, error) {
	if cfg.OnTable == nil || cfg.OnEntry == nil {
		return nil, errors.New("p2p: WatchConfig needs OnTable and OnEntry")
	}
	h := n.host
	cctx, cancel := context.WithTimeout(allowLimited(ctx), 20*time.Second)
	defer cancel()
	// A spectator asks again while the seat starts its game: an earlier
	// failed dial must not hold this one back.
	if sw, ok := h.Network().(interface{ Backoff() *swarm.DialBackoff }); ok {
		sw.Backoff().Clear(cfg.Seat.ID)
	}
	if err := h.Connect(cctx, cfg.Seat); err != nil {
		return nil, fmt.Errorf("p2p: watch: reach seat %s: %w", cfg.Seat.ID, err)
	}
	s, err := h.NewStream(cctx, cfg.Seat.ID, ProtocolWatch)
	if err != nil {
		return nil, fmt.Errorf("p2p: watch: open a stream to %s: %w", cfg.Seat.ID, err)
	}
	defer s.Reset()
	defer context.AfterFunc(ctx, func() { s.Reset() })()
	if err := WriteFrame(s, watchproto.EncodeRequest(cfg.TableID, cfg.From)); err != nil {
		return nil, fmt.Errorf("p2p: watch: %w", err)
	}
	s.CloseWrite()
	br := bufio.NewReader(s)
	fail := func(format string, args ...any) (*WatchResult, error) {
		return nil, fmt.Errorf("p2p: watch %s: "+format, append([]any{cfg.Seat.ID}, args...)...)
	}
	m, err := n.readMsgLimit(br, s, watchproto.MaxTableFrame)
	if err != nil {
		if ctx.Err() == nil && isClosed(err) {
			return fail("the seat refused (no such table, or enough spectators): %v", err)
		}
		return fail("%v", err)
	}
	if m.Type != msgWatchTab {
		return fail("first message is type %d (%s), want a watch table", m.Type, msgName(m.Type))
	}
	roster, game, err := watchproto.CheckTable(m.Watch, cfg.TableID, cfg.Seat.ID, seatPeerID)
	if err != nil {
		return fail("%v", err)
	}
	if err := cfg.OnTable(roster, m.Watch.Sigs); err != nil {
		return nil, err
	}
	res := &WatchResult{Entries: cfg.From}
	f := watchproto.NewFollower(roster, game, cfg.From, cfg.Prev)
	for {
		m, err := n.readMsg(br, s)
		if err != nil {
			return res, fmt.Errorf("p2p: watch %s: after %d entries: %w", cfg.Seat.ID, res.Entries, err)
		}
		switch m.Type {
		case msgEntry:
			if err := f.Check(m.Entry); err != nil {
				return res, fmt.Errorf("p2p: watch %s: %w", cfg.Seat.ID, err)
			}
			if err := cfg.OnEntry(m.Entry); err != nil {
				return res, err
			}
			f.Took(m.Entry)
		case msgVerdict:
			adopted, err := f.Verdict(m.Verdict, cfg.OnEntry)
			res.Entries = f.Next()
			switch {
			case err != nil:
				return res, fmt.Errorf("p2p: watch %s: %w", cfg.Seat.ID, err)
			case adopted:
				res.Verdict = m.Verdict
			default:
				res.Claim = m.Verdict
			}
		case msgSyncEnd:
			if err := f.End(m.From); err != nil {
				return res, fmt.Errorf("p2p: watch %s: %w", cfg.Seat.ID, err)
			}
			return res, nil
		default:
			return res, fmt.Errorf("p2p: watch %s: message type %d (%s) on a watch stream", cfg.Seat.ID, m.Type, msgName(m.Type))
		}
		res.Entries = f.Next()
	}
}
