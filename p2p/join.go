package p2p

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
	msmux "github.com/multiformats/go-multistream"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/joinproto"
	"github.com/masque-games/masque/p2p/store"
)

// TableConfig describes a table the local node creates. The creator takes
// seat 0; joiners take the next seats in the order they were accepted.
type TableConfig struct {
	// ID identifies the table in the lobby and in join requests; zero
	// means a random one.
	ID [16]byte
	// Game and Options go into the roster unchanged.
	Game    string
	Options []byte
	// Seats is the number of seats, the creator's included (1..16).
	Seats int
	// Name and CardKey are the creator's seat.
	Name    string
	CardKey []byte
	// Validate, if set, checks a joiner's name and card key (the mental
	// public key and its proof); an error refuses the seat with its text.
	Validate func(name string, cardKey []byte) error
	// ValidateSeat, if set, checks a joiner for the seat it would take
	// (card key proofs are bound to the seat): info has its name, peer id,
	// signing key and card key. An error refuses the seat with its text.
	// With ValidateSeat set, a joiner leaving before the table starts also
	// drops the joiners after it (their seats would move), so that they ask
	// again.
	ValidateSeat func(seat int, info ledger.SeatInfo) error
	// OptionsFor, if set, computes the roster's options from the seated
	// players' names (seat order) when seating closes, instead of Options.
	OptionsFor func(names []string) ([]byte, error)
	// OnChange, if set, is called (it must not block) when a seat is taken
	// or freed, e.g. to update the lobby advertisement.
	OnChange func(taken, total int)
	// Patience is how long a joiner that lost its connection keeps its
	// seat (it may ask again and get it back), and how long the roster
	// agreement may take once seating is closed. 0 means
	// [DefaultPatience].
	Patience time.Duration
	// Held are seats taken before the table opened: a creator whose
	// program stopped during seating opens its table again (the same ID)
	// with the seats it recorded ([Table.Held]). Each is held as for a
	// joiner whose connection dropped: its player asking again (its
	// program reconnects on its own) gets it back, and one that stays
	// away for Patience loses it.
	Held []HeldSeat
}

// HeldSeat is a joiner's seat as its table holds it: the join request
// that took it. A creator records them during seating (durably) to open
// the table again after a crash ([TableConfig.Held]).
type HeldSeat struct {
	Name    string
	SignKey ed25519.PublicKey
	CardKey []byte
	Addrs   [][]byte
	// Relayed: a player reached through a peer that forwarded its join
	// (a phone, joinfwd.go), not on its own connection. Such a seat is
	// not held again by [TableConfig.Held] (its forwarder asks for it
	// another way): a creator does not open its table again with one.
	Relayed bool
}

// DefaultPatience is the default of [TableConfig.Patience] and
// [JoinConfig.Patience]: the default time a table waits for a silent
// player during play.
const DefaultPatience = 2 * time.Minute

func (c *TableConfig) patience() time.Duration {
	if c.Patience > 0 {
		return c.Patience
	}
	return DefaultPatience
}

// Seating is the result of a roster agreement: everything needed to create
// the table's state directory (store.Create) and open its room.
type Seating struct {
	Roster *ledger.Roster
	GameID ledger.Hash
	Seat   uint8
	// Table holds the roster, every seat's signature and addresses.
	Table store.Table
}

// Table is an open table on its creator's node, accepting joiners until it
// is full or [Table.Start] is called.
//
// A joiner holds its seat across dropped connections: asking again (the
// same peer, name and card key) gets the same seat back on the new
// stream, and a seat whose joiner lost its stream is held for
// [TableConfig.Patience] before it is freed. Only a joiner that closes its
// stream (it gave up) or stays away that long frees its seat at once.
type Table struct {
	node  *Node
	cfg   TableConfig
	ready chan struct{}
	once  sync.Once

	mu      sync.Mutex
	joiners []*joiner
	started bool
	closed  bool
	// changes is closed (and replaced) whenever the state the joiners'
	// sessions act on changes.
	changes chan struct{}
	// offer is the roster offer once seating is closed, game its game id;
	// all is every seat's signature once collected; refusal is sent
	// instead of the offer when the options could not be computed.
	offer   []byte
	game    ledger.Hash
	all     []byte
	refusal []byte
}

// joiner is a seat taken by a joiner. Its fields after observed are
// guarded by the table's mutex.
type joiner struct {
	peer     peer.ID
	req      *joinproto.Request
	observed ma.Multiaddr

	gen    uint64         // the current session (stream) serving the seat
	s      network.Stream // that stream; nil while the joiner is away
	away   time.Time      // when it lost its stream (zero: connected)
	left   bool           // it closed its stream after the roster was offered
	sig    []byte         // its verified roster signature
	done   bool           // it has every signature
	active bool           // a session is running for it
	// forwarded: a player reached through this node (joinfwd.go), with
	// no stream of its own.
	forwarded bool
	// via: a player reached through another peer, which asked for its
	// seat (a forwarded join request, joinfwd.go) on stream s.
	via peer.ID
}

type joinFrame struct {
	m   *joinproto.Msg
	err error
}

// CreateTable opens a table for joiners on [ProtocolJoin].
func (n *Node) CreateTable(cfg TableConfig) (*Table, error) {
	if cfg.Seats < 1 || cfg.Seats > ledger.MaxSeats {
		return nil, fmt.Errorf("p2p: table of %d seats, want 1..%d", cfg.Seats, ledger.MaxSeats)
	}
	if len(cfg.Name) == 0 || len(cfg.Name) > ledger.MaxNameBytes {
		return nil, fmt.Errorf("p2p: name must be 1..%d bytes", ledger.MaxNameBytes)
	}
	if cfg.ID == ([16]byte{}) {
		rand.Read(cfg.ID[:])
	}
	t := &Table{node: n, cfg: cfg, ready: make(chan struct{}), changes: make(chan struct{})}
	if len(cfg.Held) >= cfg.Seats {
		return nil, fmt.Errorf("p2p: %d seats held at a table of %d", len(cfg.Held), cfg.Seats)
	}
	now := time.Now()
	for i, h := range cfg.Held {
		id, err := peerIDOf(h.SignKey)
		if err != nil {
			return nil, fmt.Errorf("p2p: held seat %d (%q): signing key: %w", i+1, h.Name, err)
		}
		if h.Relayed {
			return nil, fmt.Errorf("p2p: held seat %d (%q) was reached through another peer: it cannot be held again", i+1, h.Name)
		}
		if len(h.Name) == 0 || len(h.Name) > ledger.MaxNameBytes || len(h.CardKey) > ledger.MaxKeyBytes {
			return nil, fmt.Errorf("p2p: held seat %d: bad name or card key length", i+1)
		}
		req := &joinproto.Request{TableID: cfg.ID, Seat: uint8(i + 1), Name: h.Name, SignKey: h.SignKey, CardKey: h.CardKey, Addrs: h.Addrs}
		t.joiners = append(t.joiners, &joiner{peer: id, req: req, gen: 1, away: now})
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.tables[cfg.ID] != nil {
		return nil, fmt.Errorf("p2p: table %x is already open", cfg.ID[:4])
	}
	n.tables[cfg.ID] = t
	if cfg.Seats == 1 {
		t.Start()
	}
	return t, nil
}

// ExpectTable tells the node that it is about to open table id again (a
// creator resuming its seating after a crash): until then, a join
// request for it is not refused as for no such table (its joiner would
// take its seat for lost); its stream is reset, and the joiner asks
// again.
func (n *Node) ExpectTable(id [16]byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.reopening == nil {
		n.reopening = make(map[[16]byte]bool)
	}
	n.reopening[id] = true
}

// ID is the table id (the roster's TableID).
func (t *Table) ID() [16]byte { return t.cfg.ID }

// Taken reports the seats taken (the creator's included) and the total.
func (t *Table) Taken() (taken, total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return 1 + len(t.joiners), t.cfg.Seats
}

// Names are the players seated so far, the creator's first, in seat
// order.
func (t *Table) Names() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := []string{t.cfg.Name}
	for _, j := range t.joiners {
		out = append(out, j.req.Name)
	}
	return out
}

// Held returns the joiners' seats (seat 1 first), for a creator that
// records its seating ([TableConfig.Held]).
func (t *Table) Held() []HeldSeat {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]HeldSeat, 0, len(t.joiners))
	for _, j := range t.joiners {
		out = append(out, HeldSeat{Name: j.req.Name, SignKey: bytes.Clone(j.req.SignKey), CardKey: bytes.Clone(j.req.CardKey), Addrs: j.req.Addrs,
			Relayed: j.forwarded || j.via != ""})
	}
	return out
}

// Start closes seating with the seats taken so far.
func (t *Table) Start() { t.once.Do(func() { close(t.ready) }) }

// Close withdraws the table and drops its joiners.
func (t *Table) Close() error {
	t.node.mu.Lock()
	if t.node.tables[t.cfg.ID] == t {
		delete(t.node.tables, t.cfg.ID)
	}
	t.node.mu.Unlock()
	t.mu.Lock()
	t.closed = true
	for _, j := range t.joiners {
		if j.s != nil {
			j.s.Reset()
		}
		j.gen++
	}
	t.broadcast()
	t.mu.Unlock()
	return nil
}

// broadcast wakes every session waiting for a change; t.mu is held.
func (t *Table) broadcast() {
	close(t.changes)
	t.changes = make(chan struct{})
}

func (t *Table) changed() {
	if t.cfg.OnChange != nil {
		taken, total := t.Taken()
		t.cfg.OnChange(taken, total)
	}
}

// admit decides on a join request (joinproto.Admit) and applies the
// decision. It returns the seat's record (j, or the record of the seat
// j's peer already holds when it asks again: it gets the same seat back,
// on its new stream), the record's session number, the seat given and the
// seats taken with it; or a refusal, with in seat the next free seat (the
// one the joiner would get if it asked again for it, 0 when the table is
// full or has started).
func (t *Table) admit(j *joiner) (rec *joiner, gen uint64, seat, taken int, no *joinproto.Refusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	view := joinproto.Table[peer.ID]{Seats: t.cfg.Seats, Creator: t.node.ID(), Name: t.cfg.Name,
		Started: t.started, Closed: t.closed, Validate: t.cfg.Validate, ValidateSeat: t.cfg.ValidateSeat, SeatPeer: seatPeerID}
	for _, o := range t.joiners {
		view.Joiners = append(view.Joiners, joinproto.Joiner[peer.ID]{Peer: o.peer, Request: o.req, Connected: o.s != nil, Left: o.left})
	}
	d := joinproto.Admit(&view, j.peer, j.req)
	switch d.Kind {
	case joinproto.Refused:
		return nil, 0, d.Seat, 0, d.Refusal
	case joinproto.New:
		j.gen = 1
		t.joiners = append(t.joiners, j)
		if d.Taken == t.cfg.Seats {
			t.Start()
		}
		t.broadcast()
		return j, j.gen, d.Seat, d.Taken, nil
	}
	// Back or Retake: the seat's record, on the new stream (its old one
	// may not have failed yet on our side); a retake with the new request.
	o := t.joiners[d.Index]
	if o.s != nil {
		o.s.Reset()
	}
	o.gen++
	if d.Kind == joinproto.Retake {
		o.req = j.req
	}
	o.s, o.away, o.observed, o.via = j.s, time.Time{}, j.observed, j.via
	if j.via != "" {
		o.req.Addrs = j.req.Addrs // its path may have changed
	}
	t.broadcast()
	return o, o.gen, d.Seat, d.Taken, nil
}

// otherPath refuses a join request for the player who through via (""
// for its own connection) when who holds a seat reached another way:
// a forwarder can neither ask again for a seat another forwarder (or
// the player's own node, or this creator) serves, nor a player's own
// node for a seat a forwarder serves once seating closed. Without it, a
// forwarded request repeating a seat's public request would take that
// seat's stream (its roster agreement) from it.
//
// One exception: before seating closes, the player's own connection
// (which proves its key: the connection's identity is the key's) takes
// back a seat a forwarder claimed for that key (which proves nothing
// until the roster is signed). A player's peer id is public and names
// its key, so a forwarder could otherwise ask first under a key it does
// not hold, shut the player out, and leave the table waiting for a
// roster signature no one can give, in that player's name.
func (t *Table) otherPath(who, via peer.ID) *joinproto.Refusal {
	if via == who {
		return joinproto.Refuse(RefusedSignKey, "a forwarded join for the forwarder's own key")
	}
	var claimed peer.ID // a forwarder whose claim the player took back
	var seat int
	defer func() {
		if claimed != "" {
			t.node.peerError(claimed, fmt.Errorf("join: asked for seat %d under the key of %s, who then joined itself", seat, who))
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, o := range t.joiners {
		if o.peer != who {
			continue
		}
		if via == "" && o.via != "" && !o.forwarded && !t.started && !t.closed {
			claimed, seat = o.via, i+1
			if o.s != nil {
				o.s.Reset()
				o.s = nil
			}
			o.gen++
			o.away, o.active, o.via = time.Now(), false, ""
			t.broadcast()
			continue
		}
		if o.via != via || o.forwarded {
			return joinproto.Refuse(RefusedAlreadySeated, "seat %d is that player's, reached another way", i+1)
		}
	}
	return nil
}

// seatOf returns j's seat (1..), or 0 if it holds none; t.mu is held.
func (t *Table) seatOf(j *joiner) int {
	for i, o := range t.joiners {
		if o == j {
			return i + 1
		}
	}
	return 0
}

// serveJoiner runs on the join stream's handler goroutine: it admits or
// refuses the joiner, then serves its seat on this stream until the roster
// agreement is over, the stream fails, or a newer stream of the same
// joiner takes over.
func (t *Table) serveJoiner(s network.Stream, r *bufio.Reader, req *joinproto.Request, via peer.ID) {
	who := s.Conn().RemotePeer()
	if via != "" {
		// A forwarded join request: the seat is the player's of the
		// request's key, reached through the peer that asked.
		id, err := peerIDOf(req.SignKey)
		if err != nil {
			t.mu.Lock()
			next := 1 + len(t.joiners)
			t.mu.Unlock()
			WriteFrame(s, joinproto.EncodeRefused(t.cfg.ID, uint8(next), *joinproto.Refuse(RefusedSignKey, "signing key refused: %v", err)))
			s.Close()
			return
		}
		who = id
		req.Addrs = forwardedAddrs(via, req.Addrs)
	}
	if no := t.otherPath(who, via); no != nil {
		WriteFrame(s, joinproto.EncodeRefused(t.cfg.ID, 0, *no))
		s.Close()
		return
	}
	j, gen, seat, taken, no := t.admit(&joiner{peer: who, req: req, s: s, observed: s.Conn().RemoteMultiaddr(), via: via})
	if no != nil && no.Code == RefusedAlreadySeated && via == "" {
		// Our peer holds a seat on another connection: a second program
		// with its identity, or the same program restarted while that
		// connection has not failed on our side yet (QUIC notices a dead
		// peer only after its idle timeout). A dead program does not
		// answer a ping on the old connection: the seat is then held as
		// for a dropped connection, and this request retakes it.
		if old := t.heldOn(s.Conn()); old != nil {
			if err := t.node.connAlive(context.Background(), old); err != nil {
				t.node.log.Info("join: the seat's old connection is dead: the restarted joiner retakes it",
					"peer", old.RemotePeer(), "err", err)
				t.dropConn(old)
				j, gen, seat, taken, no = t.admit(&joiner{peer: s.Conn().RemotePeer(), req: req, s: s, observed: s.Conn().RemoteMultiaddr()})
			}
		}
	}
	if no != nil {
		WriteFrame(s, joinproto.EncodeRefused(t.cfg.ID, uint8(seat), *no))
		s.Close()
		return
	}
	t.mu.Lock()
	fresh := gen == 1
	j.active = true
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		if j.gen == gen {
			j.active = false
			t.broadcast()
		}
		t.mu.Unlock()
	}()
	// seat and taken come from admit, under the lock that gave the seat:
	// another joiner admitted meanwhile does not change what this one is
	// told.
	if err := WriteFrame(s, joinproto.EncodeOK(uint8(seat), uint8(taken), uint8(t.cfg.Seats))); err != nil {
		t.lost(j, gen)
		return
	}
	if fresh {
		t.changed()
	}
	frames := make(chan joinFrame, 1)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		for {
			m, err := t.node.readJoin(r, s)
			select {
			case frames <- joinFrame{m, err}:
			case <-quit:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	sentOffer, sentAll := false, false
	for {
		t.mu.Lock()
		current := j.gen == gen
		offer, all, refusal, changes, game := t.offer, t.all, t.refusal, t.changes, t.game
		seat = t.seatOf(j)
		t.mu.Unlock()
		if !current || seat == 0 {
			s.Reset() // superseded by a newer stream, or dropped
			return
		}
		switch {
		case refusal != nil:
			WriteFrame(s, refusal)
			s.CloseWrite()
			select { // let the joiner read it before the stream goes
			case <-frames:
			case <-time.After(2 * time.Second):
			}
			return
		case offer != nil && !sentOffer:
			if err := WriteFrame(s, offer); err != nil {
				t.lost(j, gen)
				return
			}
			sentOffer = true
		case all != nil && sentOffer && !sentAll:
			if err := WriteFrame(s, all); err != nil {
				t.lost(j, gen)
				return
			}
			s.CloseWrite()
			sentAll = true
		}
		if offer != nil && !sentOffer || all != nil && sentOffer && !sentAll {
			continue
		}
		select {
		case f := <-frames:
			switch {
			case f.err != nil && sentAll:
				// It read every signature and closed its side.
				t.mu.Lock()
				if j.gen == gen {
					j.done = true
				}
				t.mu.Unlock()
				s.Close()
				return
			case f.err != nil && errors.Is(f.err, io.EOF):
				t.leave(j, gen) // it gave up
				return
			case f.err != nil:
				t.lost(j, gen)
				return
			case f.m.Type == msgRosterSig && sentOffer && int(f.m.Seat) == seat &&
				ed25519.Verify(j.req.SignKey, ledger.RosterSigningBytes(game), f.m.Sig[:]):
				t.mu.Lock()
				if j.sig == nil {
					j.sig = bytes.Clone(f.m.Sig[:])
					t.broadcast()
				}
				t.mu.Unlock()
			default:
				t.node.peerError(s.Conn().RemotePeer(), fmt.Errorf("join: seat %d sent message type %d, not its roster signature", seat, f.m.Type))
				t.leave(j, gen)
				return
			}
		case <-changes:
		}
	}
}

// handleJoin serves a join stream: a joiner asking a table of this node
// for a seat, or a seat of a finished roster agreement asking again.
func (n *Node) handleJoin(s network.Stream) {
	remote := s.Conn().RemotePeer()
	r := bufio.NewReader(s)
	s.SetReadDeadline(time.Now().Add(30 * time.Second))
	m, err := n.readJoinLimit(r, s, MaxJoinReqFrame)
	if err != nil || m.Type != msgJoinReq && m.Type != msgJoinFwd {
		if err == nil {
			err = fmt.Errorf("join stream opened with message type %d", m.Type)
		}
		n.peerError(remote, err)
		s.Reset()
		return
	}
	s.SetReadDeadline(time.Time{})
	n.mu.Lock()
	t := n.tables[m.Request.TableID]
	if t == nil && m.Request.TableID == ([16]byte{}) && len(n.tables) == 1 {
		for _, only := range n.tables {
			t = only
		}
	}
	n.mu.Unlock()
	// A forwarded join request (msgJoinFwd) is for the player of its
	// signing key, reached through the peer that sent it.
	var via peer.ID
	who, whoErr := remote, error(nil)
	if m.Type == msgJoinFwd {
		via = remote
		who, whoErr = peerIDOf(m.Request.SignKey)
	}
	if t == nil {
		if st := n.seatedFor(m.Request.TableID, who); st != nil && whoErr == nil {
			n.serveSeated(s, r, m.Request, st, who)
			return
		}
		n.mu.Lock()
		expected := n.reopening[m.Request.TableID]
		n.mu.Unlock()
		if expected {
			// Its creator is opening it again (ExpectTable): the joiner
			// asks again, as for a dropped connection, rather than being
			// told its table is gone.
			s.Reset()
			return
		}
		WriteFrame(s, joinproto.EncodeRefused([16]byte{}, 0, joinproto.NoSuchTable()))
		s.Close()
		return
	}
	t.serveJoiner(s, r, m.Request, via)
}

// readJoin reads one frame of the join protocol from s; a frame of
// another protocol comes back with only its Type. Errors name the peer.
func (n *Node) readJoin(r *bufio.Reader, s network.Stream) (*joinproto.Msg, error) {
	return n.readJoinLimit(r, s, n.maxFrame)
}

// readJoinLimit is readJoin with a frame limit.
func (n *Node) readJoinLimit(r *bufio.Reader, s network.Stream, limit int) (*joinproto.Msg, error) {
	m, err := n.readMsgLimit(r, s, limit)
	if err != nil {
		return nil, err
	}
	if m.Join == nil {
		return &joinproto.Msg{Type: m.Type}, nil
	}
	return m.Join, nil
}

// heldOn returns the connection on which the peer of c holds a seat, if
// that is another connection than c and seating is still open.
func (t *Table) heldOn(c network.Conn) network.Conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started || t.closed {
		return nil
	}
	for _, o := range t.joiners {
		if o.peer == c.RemotePeer() && !o.left && o.s != nil && o.s.Conn() != c {
			return o.s.Conn()
		}
	}
	return nil
}

// dropConn treats every seat served on c as lost (c is dead: its peer
// did not answer a ping on it), then closes c.
func (t *Table) dropConn(c network.Conn) {
	t.mu.Lock()
	for _, o := range t.joiners {
		if o.s != nil && o.s.Conn() == c {
			o.s.Reset()
			o.s = nil
			o.away = time.Now()
		}
	}
	t.broadcast()
	t.mu.Unlock()
	c.Close()
}

// lost marks that j's stream (session gen) failed: it keeps its seat for
// the table's patience, and may ask again to get it back.
func (t *Table) lost(j *joiner, gen uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if j.gen != gen {
		return
	}
	if j.s != nil {
		j.s.Reset()
		j.s = nil
	}
	j.away = time.Now()
	t.broadcast()
}

// leave is j closing its stream (session gen) on purpose, or breaking the
// protocol: before seating closes its seat is freed at once; after, the
// roster agreement fails.
func (t *Table) leave(j *joiner, gen uint64) {
	t.mu.Lock()
	if j.gen != gen {
		t.mu.Unlock()
		return
	}
	if j.s != nil {
		j.s.Reset()
		j.s = nil
	}
	if t.started {
		j.left = true
		t.broadcast()
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	t.drop(j)
}

// reap frees the seats of joiners away for longer than the table's
// patience, while seating is open.
func (t *Table) reap() {
	t.mu.Lock()
	var gone []*joiner
	for _, j := range t.joiners {
		if !t.started && j.s == nil && !j.away.IsZero() && time.Since(j.away) > t.cfg.patience() {
			gone = append(gone, j)
		}
	}
	t.mu.Unlock()
	for _, j := range gone {
		t.drop(j)
	}
}

// drop frees a joiner's seat if seating is still open.
func (t *Table) drop(j *joiner) {
	t.mu.Lock()
	if j.s != nil {
		j.s.Reset()
		j.s = nil
	}
	freed := false
	var moved []*joiner
	if !t.started {
		for i, o := range t.joiners {
			if o == j {
				if t.cfg.ValidateSeat != nil || askedSeat(t.joiners[i+1:]) {
					// The later joiners were checked for (or asked
					// for) seats that would now move: let them ask
					// again.
					moved = append(moved, t.joiners[i+1:]...)
					t.joiners = t.joiners[:i]
				} else {
					t.joiners = append(t.joiners[:i], t.joiners[i+1:]...)
				}
				freed = true
				break
			}
		}
	}
	for _, o := range moved {
		if o.s != nil {
			o.s.Reset()
			o.s = nil
		}
		o.gen++
	}
	if freed {
		t.broadcast()
	}
	t.mu.Unlock()
	if freed {
		t.changed()
	}
}

// askedSeat reports whether one of js asked for a particular seat.
func askedSeat(js []*joiner) bool {
	for _, j := range js {
		if j.req.Seat != 0 {
			return true
		}
	}
	return false
}

func addrBytes(addrs []ma.Multiaddr) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	for _, a := range addrs {
		if a == nil || seen[string(a.Bytes())] || len(out) == joinproto.MaxAddrs {
			continue
		}
		seen[string(a.Bytes())] = true
		out = append(out, a.Bytes())
	}
	return out
}

// Seat waits until the table is full (or Start is called), then runs the
// roster agreement: it sends every joiner the roster and all addresses,
// collects every seat's signature and sends them all to everyone. A joiner
// whose connection drops meanwhile keeps its seat and gets the roster (and
// the signatures) again when it asks again, within the table's patience;
// one that asks after Seat returned gets them from the node (see
// [Node.Join]).
func (t *Table) Seat(ctx context.Context) (*Seating, error) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
wait:
	for {
		select {
		case <-t.ready:
			break wait
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
			t.reap()
		}
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil, errors.New("p2p: table closed")
	}
	t.started = true
	js := append([]*joiner(nil), t.joiners...)
	t.mu.Unlock()
	defer t.Close()
	var err error

	ctx, cancel := context.WithTimeout(ctx, t.cfg.patience())
	defer cancel()
	id := t.node.id
	options := t.cfg.Options
	if t.cfg.OptionsFor != nil {
		names := []string{t.cfg.Name}
		for _, j := range js {
			names = append(names, j.req.Name)
		}
		if options, err = t.cfg.OptionsFor(names); err != nil {
			t.mu.Lock()
			t.refusal = joinproto.EncodeRefused(t.cfg.ID, 0, *joinproto.Refuse(RefusedOther, "options: %v", err))
			t.broadcast()
			t.mu.Unlock()
			// Let the joiners read the refusal before Close resets
			// the streams (a reset loses what they have not read).
			t.settle(ctx, js, 2*time.Second, func(j *joiner) bool { return !j.active })
			return nil, fmt.Errorf("p2p: table options: %w", err)
		}
	}
	roster := &ledger.Roster{TableID: t.cfg.ID, Game: t.cfg.Game, Options: options,
		Seats: []ledger.SeatInfo{{Name: t.cfg.Name, PeerID: []byte(id.PeerID()), SignKey: id.PublicKey(), Keys: t.cfg.CardKey}}}
	addrs := [][][]byte{addrBytes(t.node.announce())}
	t.mu.Lock()
	for _, j := range js {
		roster.Seats = append(roster.Seats, ledger.SeatInfo{Name: j.req.Name, PeerID: []byte(j.peer), SignKey: j.req.SignKey, Keys: j.req.CardKey})
		as := parseAddrs(j.req.Addrs)
		switch {
		case j.via != "":
			// Reached through its forwarder: the forwarder's addresses,
			// each ending in /p2p/<forwarder> (forwardedAddrs).
			if j.observed != nil {
				as = append(as, j.observed.Encapsulate(ForwardAddr(j.via)))
			}
		case j.observed != nil:
			as = append(as, j.observed)
		}
		addrs = append(addrs, addrBytes(as))
	}
	t.mu.Unlock()
	game, err := roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("p2p: roster: %w", err)
	}
	enc, _ := roster.MarshalBinary()
	offer := joinproto.EncodeRosterOffer(enc, addrs)
	t.mu.Lock()
	t.offer, t.game = offer, game
	t.broadcast()
	t.mu.Unlock()
	sigs := make([][ed25519.SignatureSize]byte, len(roster.Seats))
	copy(sigs[0][:], ed25519.Sign(id.SigningKey(), ledger.RosterSigningBytes(game)))
	for {
		t.mu.Lock()
		var missing []string
		for i, j := range js {
			seat := i + 1
			if j.left {
				t.mu.Unlock()
				by := ""
				if j.via != "" {
					// Its forwarder gave up for it (or sent a bad
					// signature): named, as the seat's key proved nothing.
					by = ", asked for by forwarder " + j.via.String()
				}
				return nil, fmt.Errorf("p2p: seat %d (%s%s) left during the roster agreement", seat, j.req.Name, by)
			}
			if j.sig == nil {
				what := "connected"
				if j.s == nil {
					what = "away since " + j.away.Format(time.TimeOnly)
				}
				if j.via != "" {
					// A forwarded request proves nothing of its key
					// until this signature: its path is named, not
					// only the peer id the key makes.
					what = "asked for by forwarder " + j.via.String() + ", " + what
				}
				missing = append(missing, fmt.Sprintf("seat %d (%s, %s)", seat, j.req.Name, what))
				continue
			}
			copy(sigs[seat][:], j.sig)
		}
		changes := t.changes
		t.mu.Unlock()
		if len(missing) == 0 {
			break
		}
		select {
		case <-changes:
		case <-ctx.Done():
			return nil, fmt.Errorf("p2p: roster agreement: no signature after %v from %s: %w",
				t.cfg.patience(), strings.Join(missing, ", "), ctx.Err())
		}
	}
	all := joinproto.EncodeRosterAll(sigs)
	seating := &Seating{Roster: roster, GameID: game, Seat: 0,
		Table: store.Table{Roster: roster, Sigs: sigs, Addrs: addrs}}
	t.node.remember(seating, offer, all)
	t.mu.Lock()
	t.all = all
	t.broadcast()
	t.mu.Unlock()
	// Wait for joiners to read every signature and close their side, so
	// that the last frame is read before the streams are torn down. One
	// that does not will ask again and be answered from what the node
	// remembers.
	t.settle(ctx, js, 2*time.Second, func(j *joiner) bool { return j.done })
	return seating, nil
}

// settle waits up to d (or until ctx is done) until ok holds for every
// joiner of js; ok is called with t.mu held.
func (t *Table) settle(ctx context.Context, js []*joiner, d time.Duration, ok func(*joiner) bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		t.mu.Lock()
		all := true
		for _, j := range js {
			all = all && ok(j)
		}
		changes := t.changes
		t.mu.Unlock()
		if all {
			return
		}
		select {
		case <-changes:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// JoinConfig says which table to join and as whom.
type JoinConfig struct {
	// Creator is the table creator's peer id and addresses (from the
	// lobby, a join code lookup, or a /p2p multiaddr).
	Creator peer.AddrInfo
	// TableID selects one of the creator's tables; zero means its only one.
	TableID [16]byte
	// Name and CardKey are the joiner's seat.
	Name    string
	CardKey []byte
	// Seat, if not 0, is the seat asked for (1..15), e.g. because CardKey's
	// proof is bound to it. The creator refuses the join if it is not the
	// next free seat (the [JoinRefusedError] says which one is), and the
	// roster must give us exactly that seat. 0 takes the next free seat.
	Seat int
	// Validate, if set, checks every other seat of the offered roster
	// (their card keys' proofs); an error abandons the join.
	Validate func(seat int, info ledger.SeatInfo) error
	// CheckRoster, if set, checks the offered roster as a whole (its game
	// and options, e.g. that the creator did not fix the deal) before the
	// joiner signs it; an error abandons the join unsigned.
	CheckRoster func(r *ledger.Roster) error
	// OnAccepted, if set, is called once the creator has given a seat,
	// with the seats taken (ours included) and the total.
	OnAccepted func(taken, total int)
	// OnSeated, if set, is called when OnAccepted is, with the seat given
	// too. Unless Seat was set (or the creator validates seats), the seat
	// may still move down if an earlier joiner leaves before the table
	// starts; [Seating.Seat] is final.
	OnSeated func(seat, taken, total int)
	// Patience bounds how long, once the creator has given us a seat, the
	// join keeps asking again across dropped connections without any
	// contact with the table (the creator, or once we signed the roster,
	// any seat). 0 means [DefaultPatience]. Before a seat is given, a
	// creator that cannot be reached is an error at once (wrapping
	// [ErrUnreachable]): the caller decides how long to wait for it.
	Patience time.Duration
	// OnLost, if set, is called when the connection to the creator fails
	// after it gave us a seat and before the roster is offered (its
	// program may have stopped): Join asks again. OnBack, if set, is
	// called when the creator, asked again after that, gives the same seat
	// back (the creator's program reconnected, or was run again and
	// resumed its table), with the seats taken and the total.
	OnLost func(err error)
	OnBack func(seat, taken, total int)
}

// JoinRefusedError is the error [Node.Join] returns when the table's
// creator refuses the seat.
type JoinRefusedError struct {
	Creator peer.ID
	// Code says why, for programs (e.g. [RefusedNameTaken]: ask again
	// with another name).
	Code RefusalCode
	// Reason is the creator's text, for people.
	Reason string
	// TableID is the table that refused (zero: the creator has no such
	// table).
	TableID [16]byte
	// Seat is the next free seat, the one a new join request would get
	// (card key proofs are bound to it); 0 when there is none (the table
	// is full or has started, or there is no such table).
	Seat int
}

func (e *JoinRefusedError) Error() string {
	reason := e.Reason
	if reason == "" {
		reason = e.Code.String()
	}
	return fmt.Sprintf("p2p: join %s: refused: %s", e.Creator, reason)
}

func refused(who peer.ID, m *joinproto.Msg) *JoinRefusedError {
	return &JoinRefusedError{Creator: who, Code: m.Code, Reason: m.Reason, TableID: m.TableID, Seat: int(m.Seat)}
}

// ErrUnreachable is wrapped by the error [Node.Join] returns when it could
// not reach the table's creator: no connection to it could be made (every
// address failed, the dial timed out or libp2p's dial backoff held it
// back), or the connection was lost before the join stream opened. The
// cause is wrapped as well, e.g. a [*swarm.DialError] or
// [swarm.ErrDialBackoff]. The creator may be starting: asking again later
// can succeed. A join abandoned because its context is done is not
// ErrUnreachable.
var ErrUnreachable = errors.New("creator unreachable")

// ErrSameIdentity is returned by [Node.Join] when the table's creator is
// this node's own identity: two players on one machine share a
// configuration directory, hence one peer identity, and cannot sit at one
// table that way.
var ErrSameIdentity = errors.New("the table was opened with this same identity")

// joinDialTimeout bounds connecting to a creator and opening the join
// stream.
const joinDialTimeout = 15 * time.Second

// openJoin connects to the creator and opens the join stream.
func (n *Node) openJoin(ctx context.Context, creator peer.AddrInfo) (network.Stream, error) {
	who := creator.ID
	cctx, cancel := context.WithTimeout(allowLimited(ctx), joinDialTimeout)
	defer cancel()
	// An invite's TCP address: the creator's QUIC address on the same
	// port is tried too, first (see QUICSiblings), unless the creator's
	// TCP port refused us a moment ago: nothing listens there, and a QUIC
	// dial to a port nobody listens on is not refused, it times out (5 s).
	var guessed []ma.Multiaddr
	if !n.refusedTCP.recent(who, time.Now()) {
		given := len(creator.Addrs)
		creator.Addrs = QUICSiblings(creator.Addrs)
		guessed = creator.Addrs[given:]
	}
	err := n.host.Connect(cctx, creator)
	if err != nil && tcpRefused(err) {
		n.refusedTCP.note(who, time.Now())
		for _, a := range guessed { // the peerstore would dial them again
			n.host.Peerstore().SetAddr(who, a, 0)
		}
	}
	if err == nil {
		var s network.Stream
		if s, err = n.host.NewStream(cctx, who, ProtocolJoin); err == nil {
			return s, nil
		}
	}
	if ctx.Err() == nil && n.unreachable(who, err) {
		return nil, fmt.Errorf("p2p: join %s: %w: %w", who, ErrUnreachable, err)
	}
	return nil, fmt.Errorf("p2p: join %s: %w", who, err)
}

// unreachable reports whether err, from connecting to peer p or opening a
// stream to it, means that p could not be reached: a dial failed (the
// swarm's *DialError, which also carries its backoff), or there is no
// connection to p after all. A peer that answered but failed later (its
// identify timed out, it does not speak the protocol) is reachable, and so
// is this node itself (dialling oneself is a mistake, not a peer still
// starting).
func (n *Node) unreachable(p peer.ID, err error) bool {
	if p == n.ID() || errors.Is(err, swarm.ErrDialToSelf) {
		return false
	}
	var de *swarm.DialError
	c := n.host.Network().Connectedness(p)
	return errors.As(err, &de) || errors.Is(err, swarm.ErrDialBackoff) ||
		c != network.Connected && c != network.Limited
}

// Join asks a table's creator for a seat and takes part in the roster
// agreement. It blocks until the roster is signed by every seat, the
// creator refuses (a [*JoinRefusedError]; its Code says why), the creator
// cannot be reached before it gave a seat (an error wrapping
// [ErrUnreachable]), the table stays out of reach for
// [JoinConfig.Patience] after, or ctx is done.
//
// Every step is retried across dropped connections: Join asks again with
// the same request, and the creator gives the same seat back (and the
// roster, if it was offered). Once we signed the roster, Join also asks
// the other seats, which answer with the roster and every signature when
// they have them.
func (n *Node) Join(ctx context.Context, cfg JoinConfig) (*Seating, error) {
	who := cfg.Creator.ID
	if cfg.Seat < 0 || cfg.Seat >= ledger.MaxSeats {
		return nil, fmt.Errorf("p2p: join: seat %d, want 0 (any) or 1..%d", cfg.Seat, ledger.MaxSeats-1)
	}
	if who == n.ID() {
		return nil, fmt.Errorf("p2p: join %s: %w", who, ErrSameIdentity)
	}
	if len(cfg.Name) == 0 || len(cfg.Name) > ledger.MaxNameBytes || len(cfg.CardKey) > ledger.MaxKeyBytes {
		return nil, errors.New("p2p: join: bad name or card key length")
	}
	return n.joinRetry(ctx, cfg, &joinState{})
}

// joinRetry is [Node.Join]'s loop of attempts, from what st says was
// learnt so far.
func (n *Node) joinRetry(ctx context.Context, cfg JoinConfig, st *joinState) (*Seating, error) {
	who := cfg.Creator.ID
	patience := cfg.Patience
	if patience <= 0 {
		patience = DefaultPatience
	}
	contact := time.Now()
	backoff := 100 * time.Millisecond
	var lastErr error
	for attempt := 0; ; attempt++ {
		target := cfg.Creator
		if st.signed && attempt%2 == 1 {
			// The creator may be out of our reach and the others not:
			// ask the next seat for the roster and the signatures.
			if other, ok := st.other(n.ID()); ok {
				target = other
			}
		}
		seating, err := n.joinOnce(ctx, cfg, target, st)
		if err == nil {
			n.remember(seating, st.offer, joinproto.EncodeRosterAll(seating.Table.Sigs))
			return seating, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var tr *transientError
		if !errors.As(err, &tr) {
			return nil, err
		}
		if tr.contact {
			contact, backoff = time.Now(), 100*time.Millisecond
		}
		if st.given != 0 && st.seating == nil && !st.lost && tr.target == who {
			st.lost = true
			if cfg.OnLost != nil {
				cfg.OnLost(tr.err)
			}
		}
		if st.given == 0 && errors.Is(err, ErrUnreachable) {
			return nil, tr.err
		}
		if st.given == 0 && tr.target == who && errors.Is(err, msmux.ErrNotSupported[protocol.ID]{}) {
			// It answered, and serves no table: asking again will not
			// change that (a relay, another program or version).
			return nil, fmt.Errorf("%w: the peer does not serve %s (not a table's creator, or another version of masque)", tr.err, ProtocolJoin)
		}
		if lastErr == nil || tr.target == who || !errors.Is(err, ErrUnreachable) {
			lastErr = tr.err
		}
		if time.Since(contact) > patience {
			what := "the creator"
			if st.signed {
				what = "any seat"
			}
			if !errors.Is(lastErr, ErrUnreachable) {
				lastErr = fmt.Errorf("%w: %w", ErrUnreachable, lastErr)
			}
			return nil, fmt.Errorf("p2p: join %s: no contact with %s since %s (patience %v): %w", who, what,
				contact.Format(time.TimeOnly), patience, lastErr)
		}
		n.log.Debug("join: asking again", "table", who, "asked", tr.target, "err", tr.err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
		// Without the swarm's dial backoff cleared, the next dial would
		// fail at once.
		n.clearBackoff(target.ID)
	}
}

// joinState is what a join learnt so far, across its attempts.
type joinState struct {
	given   int      // the seat given (0: none yet)
	seating *Seating // from the roster offered, once checked
	offer   []byte   // that offer, as sent
	signed  bool     // we sent our roster signature
	next    int      // the seat asked last among the others
	lost    bool     // the creator's connection failed since it seated us
}

// other returns the next seat (not us, not the creator) to ask for the
// roster's signatures, with its addresses from the roster offer.
func (st *joinState) other(self peer.ID) (peer.AddrInfo, bool) {
	if st.seating == nil {
		return peer.AddrInfo{}, false
	}
	seats := st.seating.Roster.Seats
	for range seats {
		st.next = st.next%(len(seats)-1) + 1
		id, err := seatPeerID(seats[st.next])
		if err != nil || id == self {
			continue
		}
		info := peer.AddrInfo{ID: id}
		if st.next < len(st.seating.Table.Addrs) {
			info.Addrs = parseAddrs(st.seating.Table.Addrs[st.next])
		}
		return info, true
	}
	return peer.AddrInfo{}, false
}

// transientError is a join attempt that failed on the network (a dial, or
// a stream that broke): asking again may succeed. contact says whether the
// attempt reached the peer at all.
type transientError struct {
	target  peer.ID
	contact bool
	err     error
}

func (e *transientError) Error() string { return e.err.Error() }
func (e *transientError) Unwrap() error { return e.err }

// joinOnce is one attempt of [Node.Join], asking target (the creator, or
// another seat once we signed the roster). Network failures come back as
// a *transientError; anything else ends the join.
func (n *Node) joinOnce(ctx context.Context, cfg JoinConfig, target peer.AddrInfo, st *joinState) (*Seating, error) {
	who := cfg.Creator.ID
	s, err := n.openJoin(ctx, target)
	if err != nil {
		return nil, &transientError{target: target.ID, err: err}
	}
	stop := context.AfterFunc(ctx, func() {
		// Giving up: close the stream (not reset it), so that the
		// creator frees the seat at once instead of holding it as for a
		// connection that dropped.
		s.Close()
	})
	defer stop()
	defer s.Close()
	netErr := func(err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &transientError{target: target.ID, contact: true, err: fmt.Errorf("p2p: join %s: %w", who, err)}
	}
	id := n.id
	req := &joinproto.Request{TableID: cfg.TableID, Seat: uint8(cfg.Seat), Name: cfg.Name, SignKey: id.PublicKey(),
		CardKey: cfg.CardKey, Addrs: addrBytes(n.announce())}
	if st.seating != nil {
		req.TableID, req.Seat = st.seating.Roster.TableID, st.seating.Seat
	} else if st.given != 0 && cfg.Seat == 0 {
		req.Seat = 0 // our seat may have moved down meanwhile
	}
	if err := WriteFrame(s, joinproto.EncodeRequest(req)); err != nil {
		return nil, netErr(err)
	}
	r := bufio.NewReader(s)
	m, err := n.readJoin(r, s)
	if err != nil {
		return nil, netErr(err)
	}
	switch {
	case m.Type == msgJoinNo && target.ID != who:
		// Another seat that has not finished the agreement (or never
		// heard of us): ask elsewhere.
		return nil, &transientError{target: target.ID, err: refused(target.ID, m)}
	case m.Type == msgJoinNo:
		return nil, refused(target.ID, m)
	case m.Type == msgJoinOK:
		if cfg.Seat != 0 && int(m.Seat) != cfg.Seat {
			return nil, fmt.Errorf("p2p: join %s: given seat %d, asked for %d", who, m.Seat, cfg.Seat)
		}
		if st.seating != nil && m.Seat != st.seating.Seat {
			return nil, fmt.Errorf("p2p: join %s: given seat %d, the roster has us at %d", who, m.Seat, st.seating.Seat)
		}
		if st.lost && st.given == int(m.Seat) {
			st.lost = false
			if cfg.OnBack != nil {
				cfg.OnBack(int(m.Seat), int(m.Taken), int(m.Total))
			}
		}
		if st.given != int(m.Seat) {
			st.lost = false
			if cfg.OnAccepted != nil {
				cfg.OnAccepted(int(m.Taken), int(m.Total))
			}
			if cfg.OnSeated != nil {
				cfg.OnSeated(int(m.Seat), int(m.Taken), int(m.Total))
			}
		}
	default:
		return nil, fmt.Errorf("p2p: join %s: unexpected message type %d", who, m.Type)
	}
	if st.seating == nil {
		st.given = int(m.Seat)
	}
	if m, err = n.readJoin(r, s); err != nil {
		return nil, netErr(fmt.Errorf("waiting for the roster: %w", err))
	}
	switch m.Type {
	case msgRoster:
	case msgJoinNo: // the creator could not close seating (its options)
		return nil, refused(target.ID, m)
	default:
		return nil, fmt.Errorf("p2p: join %s: unexpected message type %d", who, m.Type)
	}
	offer := joinproto.EncodeRosterOffer(m.Roster, m.Addrs)
	if st.seating == nil {
		seating, err := n.checkOffer(m, cfg, who)
		if err != nil {
			return nil, err
		}
		// A seat only moves down, when an earlier joiner leaves.
		if int(seating.Seat) > st.given {
			return nil, fmt.Errorf("p2p: join %s: given seat %d, the roster has us at %d", who, st.given, seating.Seat)
		}
		st.seating, st.offer = seating, offer
	} else if !bytes.Equal(offer, st.offer) {
		return nil, fmt.Errorf("p2p: join %s: offered a roster other than the one offered before (asked %s)", who, target.ID)
	}
	seating := st.seating
	sig := ed25519.Sign(id.SigningKey(), ledger.RosterSigningBytes(seating.GameID))
	if err := WriteFrame(s, joinproto.EncodeRosterSig(seating.Seat, sig)); err != nil {
		return nil, netErr(err)
	}
	if !st.signed {
		n.predial(seating)
	}
	st.signed = true
	if m, err = n.readJoin(r, s); err != nil {
		return nil, netErr(fmt.Errorf("waiting for signatures: %w", err))
	}
	if m.Type != msgRosterAll {
		return nil, fmt.Errorf("p2p: join %s: expected %d roster signatures", who, len(seating.Roster.Seats))
	}
	if err := joinproto.CheckSigs(seating.Roster, seating.GameID, m.Sigs); err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w (sent by %s)", who, err, target.ID)
	}
	out := *seating
	out.Table.Sigs = m.Sigs
	return &out, nil
}

// predial dials, in the background, the seats of an offered roster that
// this seat's room will dial when the game starts (those above it, each
// with its own node: one connection per pair, see dialYield), while the
// creator collects the roster's signatures. At a table of 13 the 66
// connections between joiners (a handshake and an identify exchange each)
// were all set up in the game's first second, and on a busy machine the
// first entries reached some seats over a second after they were signed
// (issue 28); the room finds them open, or its own dial joins the one
// under way. A roster that is not signed in the end leaves idle
// connections, which the connection manager closes.
func (n *Node) predial(s *Seating) {
	n.mu.Lock()
	n.expectLocked(s.GameID)
	n.mu.Unlock()
	if len(s.Table.Addrs) != len(s.Roster.Seats) {
		return
	}
	var peers []peer.ID
	var addrs [][]ma.Multiaddr
	for i, seat := range s.Roster.Seats {
		id, err := seatPeerID(seat)
		if err != nil {
			return
		}
		peers = append(peers, id)
		addrs = append(addrs, parseAddrs(s.Table.Addrs[i]))
	}
	rt := routesOf(peers, addrs)
	for i := int(s.Seat) + 1; i < len(peers); i++ {
		if rt.via[i] != "" || n.host.Network().Connectedness(peers[i]) == network.Connected {
			continue // reached through a forwarder, or connected already
		}
		go func() {
			ctx, cancel := context.WithTimeout(allowLimited(context.Background()), 5*time.Second)
			defer cancel()
			n.clearBackoff(peers[i])
			if err := n.host.Connect(ctx, peer.AddrInfo{ID: peers[i], Addrs: addrs[i]}); err != nil {
				n.log.Debug("dial of a seat while the roster is signed failed", "seat", i, "err", err)
			}
		}()
	}
}

// seatedTable is a roster agreement this node took part in, kept so that
// a seat that missed the last message (every signature) can ask again.
type seatedTable struct {
	roster *ledger.Roster
	game   ledger.Hash
	offer  []byte
	all    []byte
}

// maxSeated bounds the roster agreements a node remembers.
const maxSeated = 16

// remember keeps a finished roster agreement (the offer as sent, and
// every signature) to answer seats that ask again.
func (n *Node) remember(s *Seating, offer, all []byte) {
	n.mu.Lock()
	defer n.mu.Unlock()
	id := s.Roster.TableID
	if _, ok := n.seated[id]; !ok {
		n.seatedOrder = append(n.seatedOrder, id)
	}
	n.seated[id] = &seatedTable{roster: s.Roster, game: s.GameID, offer: offer, all: all}
	n.expectLocked(s.GameID)
	for len(n.seatedOrder) > maxSeated {
		delete(n.seated, n.seatedOrder[0])
		n.seatedOrder = n.seatedOrder[1:]
	}
}

// seatedFor returns the finished roster agreement of table id (zero: the
// only one that seats p), if p holds a seat in it.
func (n *Node) seatedFor(id [16]byte, p peer.ID) *seatedTable {
	n.mu.Lock()
	defer n.mu.Unlock()
	if st := n.seated[id]; st != nil {
		return st
	}
	if id != ([16]byte{}) {
		return nil
	}
	var found *seatedTable
	for _, st := range n.seated {
		for _, si := range st.roster.Seats[1:] {
			if peer.ID(si.PeerID) == p {
				if found != nil {
					return nil
				}
				found = st
			}
		}
	}
	return found
}

// serveSeated answers a seat asking again after the roster agreement is
// over: the same seat, the roster offer, and once it signed, every
// signature. Anyone else is refused as at a started table.
func (n *Node) serveSeated(s network.Stream, r *bufio.Reader, req *joinproto.Request, st *seatedTable, remote peer.ID) {
	seats := st.roster.Seats
	seat := 0
	for i := 1; i < len(seats); i++ {
		if peer.ID(seats[i].PeerID) == remote {
			seat = i
		}
	}
	if seat == 0 || seats[seat].Name != req.Name || !bytes.Equal(seats[seat].Keys, req.CardKey) ||
		req.Seat != 0 && int(req.Seat) != seat {
		WriteFrame(s, joinproto.EncodeRefused(st.roster.TableID, 0, *joinproto.Refuse(RefusedStarted, "table has started")))
		s.Close()
		return
	}
	total := uint8(len(seats))
	if WriteFrame(s, joinproto.EncodeOK(uint8(seat), total, total)) != nil || WriteFrame(s, st.offer) != nil {
		s.Reset()
		return
	}
	s.SetReadDeadline(time.Now().Add(30 * time.Second))
	m, err := n.readJoin(r, s)
	if err != nil || m.Type != msgRosterSig || int(m.Seat) != seat ||
		!ed25519.Verify(seats[seat].SignKey, ledger.RosterSigningBytes(st.game), m.Sig[:]) {
		s.Reset()
		return
	}
	if WriteFrame(s, st.all) != nil {
		s.Reset()
		return
	}
	s.CloseWrite()
	s.SetReadDeadline(time.Now().Add(5 * time.Second))
	io.Copy(io.Discard, r)
	s.Close()
}

// checkOffer verifies a roster offer (joinproto.CheckOffer): we hold
// exactly the seat we asked for (our name and card key, at cfg.Seat if
// set), every seat's peer id is its signing key, and the caller accepts
// each seat and the roster.
func (n *Node) checkOffer(m *joinproto.Msg, cfg JoinConfig, who peer.ID) (*Seating, error) {
	o, err := joinproto.CheckOffer(m, joinproto.OfferCheck[peer.ID]{Creator: who, Self: n.ID(), TableID: cfg.TableID,
		Name: cfg.Name, CardKey: cfg.CardKey, Seat: cfg.Seat, SeatPeer: seatPeerID, Validate: cfg.Validate, CheckRoster: cfg.CheckRoster})
	if err != nil {
		return nil, fmt.Errorf("p2p: join %s: %w", who, err)
	}
	return &Seating{Roster: o.Roster, GameID: o.GameID, Seat: o.Seat,
		Table: store.Table{Roster: o.Roster, Addrs: o.Addrs}}, nil
}
