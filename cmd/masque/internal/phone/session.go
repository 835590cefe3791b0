// Package phone serves phones their seat (docs/phones.md): the page, its
// WebAssembly seat (cmd/masque/internal/phoneseat, built by
// cmd/masque/internal/phone/seatwasm) and one WebSocket per phone, over
// which it seats the phone at the table this machine hosts and then
// forwards its sealed frames into the room and the room's to it
// (p2p.Node.Forward). It checks nothing of what it forwards: the seats
// do; it can only delay or drop the phone's frames.
package phone

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/games/registry"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p"
)

// Conn is one phone's message connection (a WebSocket): text messages
// carry control messages, binary ones forward packets.
type Conn interface {
	// Read returns the next message and whether it is binary.
	Read(ctx context.Context) (msg []byte, binary bool, err error)
	// Write sends a message.
	Write(ctx context.Context, msg []byte, binary bool) error
}

// Config configures a [Hub].
type Config struct {
	Node *p2p.Node
	// Token is the secret in the URL's fragment a phone must give.
	Token string
	// Game is the table's game (the registry's name).
	Game string
	// Timeout and Window are the table's patience and answer window, for
	// the phones to play by (each seat keeps its own timers).
	Timeout, Window time.Duration
	// OnSeated, if set, is told each phone seated (its name and seat).
	OnSeated func(name string, seat int)
	// Log, if set, is told of what went wrong with a phone.
	Log func(format string, args ...any)
	// OnTable, if set, is told the signed table when a phone's seating
	// at another peer's table ends (SetCreator): every phone's is the
	// same table.
	OnTable func(*p2p.Seating)
	// HelloTimeout is how long a connection may take to say its hello
	// (0: DefaultHelloTimeout).
	HelloTimeout time.Duration
}

// DefaultHelloTimeout is how long a new connection has to answer the
// challenge with its hello: a phone does at once; a connection that says
// nothing is closed, so that nobody on the LAN holds connections open
// without the token.
const DefaultHelloTimeout = 20 * time.Second

// MaxWaiting is how many connections from one address may wait for
// their hello at once, and MaxWaitingAll from all: one more is refused
// at once. Per address, so that one machine on the LAN holding
// connections open does not keep the others' phones out.
const (
	MaxWaiting    = 4
	MaxWaitingAll = 256
)

// remoteAddr is a [Conn] that knows its remote address (a WebSocket's
// client); the hub counts waiting connections per IP address.
type remoteAddr interface{ RemoteAddr() string }

// addrOf is c's remote IP address, or "" if unknown.
func addrOf(c Conn) string {
	ra, ok := c.(remoteAddr)
	if !ok {
		return ""
	}
	a := ra.RemoteAddr()
	if host, _, err := net.SplitHostPort(a); err == nil {
		return host
	}
	return a
}

// MaxControl bounds a control message from a phone (a hello, a join with
// its card keys and proofs, a signature: a few hundred bytes).
const MaxControl = 16 << 10

// Hub seats phones at the table this machine hosts and forwards their
// frames.
type Hub struct {
	cfg Config

	mu      sync.Mutex
	table   *p2p.Table
	seating *p2p.Seating
	// creator is another peer's table this machine seats phones at
	// (join --phones, masque phones): its creator, its table id (zero
	// until known: the creator's refusal names it) and the next seat
	// as last heard.
	creator    *peer.AddrInfo
	remoteID   [16]byte
	remoteNext int
	// game is the other peer's table's game as its advertisement says
	// (SetGame: mDNS, a relay's directory), for the name page; its
	// roster says it once seating ends.
	game string
	// total is the other peer's table's seats as its creator told this
	// machine (its own seat's acceptance) or its advertisement says; 0:
	// not known.
	total      int
	changed    chan struct{}
	waiting    map[string]int // connections not past their hello yet, by IP address
	waitingAll int
	connected  int // phones whose frames are being forwarded
}

// Connected is how many phones are connected to their seats now.
func (h *Hub) Connected() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.connected
}

// NewHub makes a hub; [Hub.SetTable] and [Hub.SetSeating] give it the
// table as it opens and starts.
func NewHub(cfg Config) *Hub { return &Hub{cfg: cfg, changed: make(chan struct{})} }

// SetTable gives the hub the open table (seating).
func (h *Hub) SetTable(t *p2p.Table) {
	h.mu.Lock()
	h.table = t
	h.notifyLocked()
	h.mu.Unlock()
}

// SetCreator makes the hub seat phones at another peer's table (its
// creator's, asked through this machine: p2p.Node.JoinForwarded): id is
// its table id if known (zero: learnt from the creator's first refusal),
// next the next free seat if known (0: 1 is asked first).
func (h *Hub) SetCreator(creator peer.AddrInfo, id [16]byte, next int) {
	h.mu.Lock()
	h.creator, h.remoteID, h.remoteNext = &creator, id, max(next, 1)
	h.notifyLocked()
	h.mu.Unlock()
}

// SetSeating gives the hub the table every seat signed: phones start.
func (h *Hub) SetSeating(s *p2p.Seating) {
	h.mu.Lock()
	h.seating = s
	h.notifyLocked()
	h.mu.Unlock()
}

func (h *Hub) notifyLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

func (h *Hub) logf(format string, args ...any) {
	if h.cfg.Log != nil {
		h.cfg.Log(format, args...)
	}
}

// TableInfo is what a page shows before its player takes a seat: which
// game, who sits so far, whether the game has started (a phone without
// its stored seat can then take none).
type TableInfo struct {
	Game    string   `json:"game"` // the game's title ("The Grimm Masquerade")
	Kind    string   `json:"kind"` // its registry name ("grimm")
	Code    string   `json:"code,omitempty"`
	Players []string `json:"players,omitempty"` // seated so far, in seat order
	Seats   int      `json:"seats,omitempty"`   // the table's seats (0: not known yet)
	Started bool     `json:"started,omitempty"`
	// Another peer's table (join --phones, masque phones), before it
	// starts: Total is its seats if known (who sits is not: the creator
	// tells a joiner the names only in the roster, once every seat is
	// taken), and Unnamed says its game is not known either (a table
	// announced nowhere, joined by its invite: no advertisement names
	// it; the roster will).
	Total   int  `json:"total,omitempty"`
	Unnamed bool `json:"unnamed,omitempty"`
}

// SetGame names the game of another peer's table this machine seats
// phones at (join --phones, masque phones), as its advertisement gives
// it (the registry's name): the name page shows it before the player
// takes a seat. A hub with a game of its own (the host's) keeps it.
func (h *Hub) SetGame(game string) {
	h.mu.Lock()
	h.game = game
	h.notifyLocked()
	h.mu.Unlock()
}

// SetTotal gives the number of seats of another peer's table this
// machine seats phones at (join --phones, masque phones), as its creator
// or its advertisement told it: the name page says it.
func (h *Hub) SetTotal(n int) {
	h.mu.Lock()
	h.total = n
	h.notifyLocked()
	h.mu.Unlock()
}

// Info is the table's TableInfo now (Code is the server's to set).
func (h *Hub) Info() TableInfo {
	h.mu.Lock()
	t, s, kind, advertised := h.table, h.seating, h.cfg.Game, false
	if kind == "" {
		kind, advertised = h.game, true
	}
	remote, total := h.creator != nil, h.total
	h.mu.Unlock()
	if s != nil && s.Roster != nil && s.Roster.Game != "" {
		kind, advertised = s.Roster.Game, false // the signed roster's word
	}
	in := TableInfo{Game: kind, Kind: kind}
	if g, err := registry.Lookup(kind); err == nil {
		in.Game = g.Title()
	} else if advertised {
		in = TableInfo{} // anyone can advertise anything: only a game masque knows is named
	}
	switch {
	case s != nil:
		in.Started, in.Seats = true, len(s.Roster.Seats)
		for _, si := range s.Roster.Seats {
			in.Players = append(in.Players, si.Name)
		}
	case t != nil:
		in.Players = t.Names()
		_, in.Seats = t.Taken()
	case remote:
		in.Total, in.Unnamed = total, in.Kind == ""
	}
	return in
}

func readControl(ctx context.Context, c Conn) (phoneseat.Control, error) {
	for {
		msg, bin, err := c.Read(ctx)
		if err != nil {
			return phoneseat.Control{}, err
		}
		if bin {
			continue // a packet before the table started: nothing to forward it to
		}
		return parseControl(msg)
	}
}

// parseControl decodes a control message from a phone, of at most
// MaxControl bytes.
func parseControl(msg []byte) (phoneseat.Control, error) {
	var m phoneseat.Control
	if len(msg) > MaxControl {
		return m, fmt.Errorf("control message of %d bytes, limit %d", len(msg), MaxControl)
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return m, fmt.Errorf("control message: %w", err)
	}
	return m, nil
}

func writeControl(ctx context.Context, c Conn, m phoneseat.Control) error {
	raw, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.Write(ctx, raw, false)
}

// Hello is a phone's first message, checked: its token, and its
// signature on the server's challenge (the key it speaks for).
type hello struct {
	name string
	key  ed25519.PublicKey
	game []byte
}

// Serve runs one phone's connection until it closes or ctx ends.
func (h *Hub) Serve(ctx context.Context, c Conn) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hl, err := h.hello(ctx, c)
	if err != nil {
		writeControl(ctx, c, phoneseat.Control{T: "error", Reason: err.Error()})
		return err
	}
	seat := -1
	if hl.game != nil {
		seat = h.heldSeat(hl)
	}
	if seat < 0 && hl.game == nil && h.started() {
		err := errors.New(NoSeatAfterStart)
		writeControl(ctx, c, phoneseat.Control{T: "error", Reason: err.Error()})
		return err
	}
	if seat < 0 {
		if seat, err = h.seat(ctx, c, hl); err != nil {
			writeControl(ctx, c, phoneseat.Control{T: "error", Reason: err.Error()})
			return err
		}
	}
	return h.forward(ctx, c, hl, seat)
}

// hello challenges a new connection and checks its hello, within the
// hello timeout and while at most MaxWaiting connections wait for theirs.
func (h *Hub) hello(ctx context.Context, c Conn) (hello, error) {
	addr := addrOf(c)
	h.mu.Lock()
	if h.waiting == nil {
		h.waiting = map[string]int{}
	}
	if n := h.waiting[addr]; n >= MaxWaiting || h.waitingAll >= MaxWaitingAll {
		h.mu.Unlock()
		if n >= MaxWaiting {
			return hello{}, fmt.Errorf("%d connections from %s are waiting to say hello already: try again", n, addr)
		}
		return hello{}, fmt.Errorf("%d connections are waiting to say hello already: try again", MaxWaitingAll)
	}
	h.waiting[addr]++
	h.waitingAll++
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.waitingAll--
		if h.waiting[addr]--; h.waiting[addr] == 0 {
			delete(h.waiting, addr)
		}
		h.mu.Unlock()
	}()
	wait := h.cfg.HelloTimeout
	if wait <= 0 {
		wait = DefaultHelloTimeout
	}
	hctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	nonce := make([]byte, 32)
	if _, err := rand.Read(nonce); err != nil {
		return hello{}, err
	}
	if err := writeControl(hctx, c, phoneseat.Control{T: "challenge", Nonce: nonce}); err != nil {
		return hello{}, err
	}
	m, err := readControl(hctx, c)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return hello{}, fmt.Errorf("no hello within %v", wait)
		}
		return hello{}, err
	}
	return h.checkHello(m, nonce)
}

// Token compares a phone's token with the table's, in constant time.
func (h *Hub) token(got string) bool {
	return len(h.cfg.Token) > 0 && subtle.ConstantTimeCompare([]byte(got), []byte(h.cfg.Token)) == 1
}

func (h *Hub) checkHello(m phoneseat.Control, nonce []byte) (hello, error) {
	if m.T != "hello" {
		return hello{}, fmt.Errorf("first message %q, want hello", m.T)
	}
	if !h.token(m.Token) {
		return hello{}, errors.New("wrong or missing token: scan the table's code again")
	}
	if len(m.Key) != ed25519.PublicKeySize || !ed25519.Verify(m.Key, append([]byte(phoneseat.HelloContext), nonce...), m.Sig) {
		return hello{}, errors.New("hello: bad signature on the challenge")
	}
	return hello{name: m.Name, key: m.Key, game: m.Game}, nil
}

// NoSeatAfterStart is the hub's answer to a phone that holds no seat
// (nothing stored: a new phone, or one whose storage was cleared) once
// the table's game started.
const NoSeatAfterStart = "this table's game has started: this phone holds no seat at it (a seat it held is lost with its storage, and the table times it out)"

// started says whether every seat signed the table.
func (h *Hub) started() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seating != nil
}

// heldSeat is the seat of the started table whose key the phone holds
// (a reload), or -1.
func (h *Hub) heldSeat(hl hello) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seating == nil || string(hl.game) != string(h.seating.GameID[:]) {
		return -1
	}
	for i, s := range h.seating.Roster.Seats {
		if string(s.SignKey) == string(hl.key) {
			return i
		}
	}
	return -1
}

// seat seats the phone: the table's id and next seat, its join (card
// keys proven for that seat), the roster offer and its signature, then
// the signed table.
func (h *Hub) seat(ctx context.Context, c Conn, hl hello) (int, error) {
	h.mu.Lock()
	t, remote := h.table, h.creator != nil
	h.mu.Unlock()
	if t == nil && remote {
		return h.seatRemote(ctx, c, hl)
	}
	if t == nil {
		return 0, errors.New("this table is not seating players")
	}
	id := t.ID()
	taken, _ := t.Taken()
	if err := writeControl(ctx, c, phoneseat.Control{T: "table", ID: id[:], Seat: taken, Kind: h.cfg.Game}); err != nil {
		return 0, err
	}
	seat := 0
	for seat == 0 {
		m, err := readControl(ctx, c)
		if err != nil {
			t.ForwardedAway(hl.key)
			return 0, err
		}
		if m.T != "join" {
			return 0, fmt.Errorf("message %q, want join", m.T)
		}
		got, err := t.SeatForwarded(p2p.ForwardedJoin{Seat: m.Seat, Name: hl.name, SignKey: hl.key, CardKey: m.Card})
		var no *p2p.JoinRefusedError
		switch {
		case errors.As(err, &no):
			if err := writeControl(ctx, c, phoneseat.Control{T: "refused", Seat: no.Seat, Reason: no.Reason}); err != nil {
				return 0, err
			}
			if no.Seat == 0 {
				return 0, err
			}
		case err != nil:
			return 0, err
		default:
			seat = got
		}
	}
	if err := writeControl(ctx, c, phoneseat.Control{T: "seated", Seat: seat}); err != nil {
		t.ForwardedAway(hl.key)
		return 0, err
	}
	if h.cfg.OnSeated != nil {
		h.cfg.OnSeated(hl.name, seat)
	}
	roster, addrs, err := t.ForwardedOffer(ctx)
	if err != nil {
		return 0, err
	}
	enc, err := roster.MarshalBinary()
	if err != nil {
		return 0, err
	}
	if err := writeControl(ctx, c, phoneseat.Control{T: "offer", Roster: enc, Addrs: addrs}); err != nil {
		t.ForwardedAway(hl.key)
		return 0, err
	}
	m, err := readControl(ctx, c)
	if err != nil {
		t.ForwardedAway(hl.key)
		return 0, err
	}
	if m.T != "sign" {
		return 0, fmt.Errorf("message %q, want sign", m.T)
	}
	if err := t.SignForwarded(hl.key, m.Sig); err != nil {
		return 0, err
	}
	// Wait for the other seats' signatures.
	for {
		h.mu.Lock()
		s, ch := h.seating, h.changed
		h.mu.Unlock()
		if s != nil {
			return seat, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}

// seatRemote is seat at another peer's table: each step of the phone's
// seating is carried to the creator on a forwarded join of its own
// (p2p.RemoteJoin); the creator's refusals name the table and the next
// free seat, for which the phone proves its card keys again.
func (h *Hub) seatRemote(ctx context.Context, c Conn, hl hello) (int, error) {
	h.mu.Lock()
	creator, id, next := *h.creator, h.remoteID, h.remoteNext
	h.mu.Unlock()
	if err := writeControl(ctx, c, phoneseat.Control{T: "table", ID: id[:], Seat: next, Kind: h.cfg.Game}); err != nil {
		return 0, err
	}
	var rj *p2p.RemoteJoin
	for tries := 0; rj == nil; tries++ {
		if tries == 2*ledger.MaxSeats {
			return 0, errors.New("the table's creator keeps refusing the phone's seat")
		}
		m, err := readControl(ctx, c)
		if err != nil {
			return 0, err
		}
		if m.T != "join" {
			return 0, fmt.Errorf("message %q, want join", m.T)
		}
		rj, err = h.cfg.Node.JoinForwarded(ctx, creator, id, p2p.ForwardedJoin{Seat: m.Seat, Name: hl.name, SignKey: hl.key, CardKey: m.Card})
		var no *p2p.JoinRefusedError
		switch {
		case errors.As(err, &no) && no.Seat != 0 && no.TableID != id:
			// The proof was for another table id: now it is known.
			id = no.TableID
			h.mu.Lock()
			h.remoteID, h.remoteNext = id, no.Seat
			h.mu.Unlock()
			if err := writeControl(ctx, c, phoneseat.Control{T: "table", ID: id[:], Seat: no.Seat, Kind: h.cfg.Game}); err != nil {
				return 0, err
			}
		case errors.As(err, &no):
			if err := writeControl(ctx, c, phoneseat.Control{T: "refused", Seat: no.Seat, Reason: no.Reason}); err != nil {
				return 0, err
			}
			if no.Seat == 0 {
				return 0, err
			}
		case err != nil:
			return 0, err
		}
	}
	defer rj.Close()
	seat := rj.Seat()
	h.mu.Lock()
	taken, total := rj.Taken()
	if taken > h.remoteNext {
		h.remoteNext = taken
	}
	if total > 0 {
		h.total = total // the creator's word, for the next phones' name page
	}
	h.mu.Unlock()
	if err := writeControl(ctx, c, phoneseat.Control{T: "seated", Seat: seat}); err != nil {
		return 0, err
	}
	if h.cfg.OnSeated != nil {
		h.cfg.OnSeated(hl.name, seat)
	}
	roster, addrs, err := rj.Offer(ctx)
	if err != nil {
		return 0, err
	}
	enc, err := roster.MarshalBinary()
	if err != nil {
		return 0, err
	}
	if err := writeControl(ctx, c, phoneseat.Control{T: "offer", Roster: enc, Addrs: addrs}); err != nil {
		return 0, err
	}
	m, err := readControl(ctx, c)
	if err != nil {
		return 0, err
	}
	if m.T != "sign" {
		return 0, fmt.Errorf("message %q, want sign", m.T)
	}
	s, err := rj.Sign(ctx, m.Sig)
	if err != nil {
		return 0, err
	}
	h.mu.Lock()
	if h.seating == nil {
		h.seating = s
		h.notifyLocked()
	}
	same := h.seating.GameID == s.GameID
	h.mu.Unlock()
	if !same {
		return 0, errors.New("the phone was seated at another table than this machine's")
	}
	if h.cfg.OnTable != nil {
		h.cfg.OnTable(s)
	}
	return seat, nil
}

// forward sends the phone the signed table and then carries its packets
// into the room and the room's frames to it.
func (h *Hub) forward(ctx context.Context, c Conn, hl hello, seat int) error {
	h.mu.Lock()
	s := h.seating
	h.mu.Unlock()
	enc, err := s.Roster.MarshalBinary()
	if err != nil {
		return err
	}
	var sigs [][]byte
	for _, sg := range s.Table.Sigs {
		sigs = append(sigs, append([]byte(nil), sg[:]...))
	}
	if seat < 0 || seat >= len(s.Roster.Seats) {
		return fmt.Errorf("phone seat %d of a %d-seat table", seat, len(s.Roster.Seats))
	}
	// The seat's name as the roster has it (checked at seating): a
	// reloaded phone's hello name is checked by nothing.
	name := s.Roster.Seats[seat].Name
	out := newFrameQueue(MaxQueued)
	fw, err := h.cfg.Node.Forward(s.Table, uint8(seat), out.push)
	if err != nil {
		return err
	}
	defer fw.Close()
	h.mu.Lock()
	h.connected++
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.connected--
		h.mu.Unlock()
	}()
	// The table's move time, when it sets one, is every seat's patience
	// (as netsession.Start has it).
	timeout := h.cfg.Timeout
	if mt := netsession.MoveTime(s.Roster); mt > 0 && timeout > 0 && mt > timeout {
		timeout = mt
	}
	if err := writeControl(ctx, c, phoneseat.Control{T: "start", Seat: seat, Roster: enc, Addrs: s.Table.Addrs, Sigs: sigs,
		TimeoutMS: timeout.Milliseconds(), WindowMS: h.cfg.Window.Milliseconds()}); err != nil {
		return err
	}
	// The table chat: the messages kept so far, then each new one, as
	// chat control messages (best effort: past maxQueuedChat waiting, a
	// message is dropped, as the network may drop one).
	chats := make(chan []byte, maxQueuedChat)
	kept := fw.OnChat(func(enc []byte) {
		select {
		case chats <- enc:
		default:
		}
	})
	// The last ones, leaving room for new ones.
	for _, enc := range kept[max(0, len(kept)-maxQueuedChat/2):] {
		select {
		case chats <- enc:
		default:
		}
	}
	errc := make(chan error, 2)
	go func() {
		for {
			b, ok := out.pop(ctx)
			if !ok {
				return
			}
			if err := c.Write(ctx, b, true); err != nil {
				errc <- err
				return
			}
		}
	}()
	go func() {
		for {
			select {
			case enc := <-chats:
				if err := writeControl(ctx, c, phoneseat.Control{T: "chat", Chat: enc}); err != nil {
					errc <- err
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		for {
			msg, bin, err := c.Read(ctx)
			if err != nil {
				errc <- err
				return
			}
			if !bin {
				// A chat message the phone signed: the room checks it
				// as any seat's, and sends it on.
				if m, err := parseControl(msg); err != nil || m.T != "chat" {
					h.logf("phone %s (seat %d): a control message after the start: %v", name, seat, err)
				} else if err := fw.Chat(m.Chat); err != nil {
					h.logf("phone %s (seat %d): %v", name, seat, err)
				}
				continue
			}
			if err := fw.Send(msg); err != nil {
				h.logf("phone %s (seat %d): %v", name, seat, err)
			}
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// maxQueuedChat bounds the chat messages waiting for one phone.
const maxQueuedChat = 256

// MaxQueued bounds the bytes a phone's forwarder holds for the phone
// (frames from the table it has not read yet): the forwarder hands on
// what seats send unchecked, so a seat flooding large packets at a phone
// that reads slowly would otherwise make the host hold them all.
const MaxQueued = 16 << 20

// maxQueuedFrames bounds their number.
const maxQueuedFrames = 4096

// frameQueue is the frames waiting for one phone, bounded in bytes and
// in number; past either bound a frame is dropped (the phone syncs what
// it misses).
type frameQueue struct {
	max    int
	mu     sync.Mutex
	frames [][]byte
	bytes  int
	wake   chan struct{}
}

func newFrameQueue(max int) *frameQueue {
	return &frameQueue{max: max, wake: make(chan struct{}, 1)}
}

// push queues b, or drops it past the bounds; it never blocks.
func (q *frameQueue) push(b []byte) {
	q.mu.Lock()
	if q.bytes+len(b) > q.max || len(q.frames) >= maxQueuedFrames {
		q.mu.Unlock()
		return
	}
	q.frames = append(q.frames, b)
	q.bytes += len(b)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop waits for the oldest frame; false once ctx ends.
func (q *frameQueue) pop(ctx context.Context) ([]byte, bool) {
	for {
		q.mu.Lock()
		if len(q.frames) > 0 {
			b := q.frames[0]
			q.frames[0] = nil
			q.frames = q.frames[1:]
			q.bytes -= len(b)
			q.mu.Unlock()
			return b, true
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return nil, false
		}
	}
}
