// Package chatproto is the table chat's network protocol
// (/masque/chat/1): one seat's record of a table's chat (what it has
// seen, each author's count, its own sequence numbers, the rate limits)
// and the streams that carry its messages to the other seats, each tried
// a few times. The messages themselves are package chat's. Package p2p
// opens one [Table] per game and routes the protocol's streams to it
// ([Handle]).
package chatproto

import (
	"context"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/chat"
)

// Protocol carries one table chat message per stream, from its author
// to each other seat: a u16 length, then the message (package chat); the
// receiver answers one byte, 0 (kept, or seen before) or 1 (refused), and
// closes. A stream reset without an answer (the receiver's game is not
// open yet, say) is tried again a few times.
const Protocol protocol.ID = "/masque/chat/1"

// queueLen bounds the messages waiting for one peer; beyond it the oldest
// are dropped (chat is best effort: a peer that was away misses them).
const queueLen = 32

// ErrBarred is wrapped by [Table.Write]'s error when the seat may not
// write (Config.MayChat).
var ErrBarred = errors.New("this seat may not write in the chat now")

// ErrRate is wrapped by [Table.Write]'s error when the seat wrote too
// much too fast.
var ErrRate = errors.New("too many messages")

// Config configures a [Table].
type Config struct {
	// Host carries the streams; Game is the game id, Self the local seat,
	// SignKey its key; Peers, Keys and Addrs are every seat's peer id,
	// signing key and addresses (the roster's).
	Host    host.Host
	Game    ledger.Hash
	Self    uint8
	SignKey ed25519.PrivateKey
	Peers   []peer.ID
	Keys    []ed25519.PublicKey
	Addrs   [][]ma.Multiaddr
	// Via are the forwarders of forwarded seats (a phone's: its page's
	// server, docs/phones.md), "" for a seat reached directly. A
	// forwarded seat has no node to take a chat stream: nobody sends it
	// one; its forwarder, a seat itself, hands it the table's messages,
	// and carries its messages to the table ([Table.Relay]).
	Via []peer.ID
	// Restored are the messages this seat kept from an earlier run (a
	// restart: its own sequence numbers go on after them, and they are
	// not accepted again).
	Restored []*chat.Message
	// OnChat, if set, is called with every new message, the seat's own
	// included, from network goroutines; it must not block. MayChat, if
	// set, says whether a seat may write now: its messages are refused
	// when it says no, on sending and on receipt.
	OnChat  func(*chat.Message)
	MayChat func(seat uint8) bool
	// Idle, if set, is called (it must not block) when every message this
	// seat wrote has been delivered or given up.
	Idle func()
	// Dial wraps the context of a stream's opening (p2p allows limited,
	// relayed connections); nil leaves it as it is.
	Dial func(context.Context) context.Context
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

// Table is one seat's chat at one table. Its methods are safe for
// concurrent use.
type Table struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	seen    map[key]bool
	count   map[uint8]int
	nextSeq uint32
	send    *chat.Limiter
	recv    *chat.Limiter
	queues  map[uint8]chan []byte
	now     func() time.Time
	// sending counts this seat's messages queued or being delivered: the
	// done exchange waits for them (a seat says done once its messages
	// reached every seat, or were given up).
	sending int
	// kept are the messages kept, in the order they came (a forwarded
	// seat that connects again is given them: [Table.Messages]).
	kept []*chat.Message
}

type key struct {
	seat uint8
	seq  uint32
}

// New makes a seat's chat at a table.
func New(cfg Config) *Table {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Dial == nil {
		cfg.Dial = func(ctx context.Context) context.Context { return ctx }
	}
	t := &Table{cfg: cfg, seen: map[key]bool{}, count: map[uint8]int{}, queues: map[uint8]chan []byte{},
		send: chat.SendLimiter(), recv: chat.ReceiveLimiter(), now: time.Now, nextSeq: 1}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	for _, m := range cfg.Restored {
		if m.Game != cfg.Game || t.seen[key{m.Seat, m.Seq}] {
			continue
		}
		t.seen[key{m.Seat, m.Seq}] = true
		t.count[m.Seat]++
		t.kept = append(t.kept, m)
		if m.Seat == cfg.Self && m.Seq >= t.nextSeq {
			t.nextSeq = m.Seq + 1
		}
	}
	return t
}

// Close stops the senders (messages not delivered yet are dropped) and
// waits for them.
func (t *Table) Close() {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
}

// Write cleans text (package chat's Clean), signs it as the local seat's
// next message, hands it to Config.OnChat and sends it to every other
// seat (in the background; a seat that cannot be reached misses it). It
// refuses a seat barred by Config.MayChat (ErrBarred), a seat over its
// rate (ErrRate) and an empty text (chat.ErrEmpty).
func (t *Table) Write(text string) (*chat.Message, error) {
	clean, err := chat.Clean(text)
	if err != nil {
		return nil, err
	}
	self := t.cfg.Self
	if t.cfg.MayChat != nil && !t.cfg.MayChat(self) {
		return nil, ErrBarred
	}
	t.mu.Lock()
	now := t.now()
	if t.count[self] >= chat.MaxPerAuthor {
		t.mu.Unlock()
		return nil, fmt.Errorf("%w: %d in this game, the most", ErrRate, chat.MaxPerAuthor)
	}
	if !t.send.Allow(self, now) {
		wait := t.send.Wait(self, now)
		t.mu.Unlock()
		return nil, fmt.Errorf("%w: wait %.0f s", ErrRate, max(1, wait.Seconds()))
	}
	m := &chat.Message{Game: t.cfg.Game, Seat: self, Seq: t.nextSeq, Time: now, Text: clean}
	if err := m.Sign(t.cfg.SignKey); err != nil {
		t.mu.Unlock()
		return nil, err
	}
	t.nextSeq++
	t.seen[key{m.Seat, m.Seq}] = true
	t.count[m.Seat]++
	t.kept = append(t.kept, m)
	// Our own receivers' limit counts our messages too, so that the
	// restart of a chatty seat does not make peers drop its next ones.
	t.recv.Allow(self, now)
	t.sendLocked(m)
	t.mu.Unlock()
	if t.cfg.OnChat != nil {
		t.cfg.OnChat(m)
	}
	return m, nil
}

// sendLocked queues m for every seat but this one and its author, that
// takes chat streams (not a forwarded seat: its forwarder hands it the
// table's messages). t.mu is held.
func (t *Table) sendLocked(m *chat.Message) {
	enc := m.Marshal()
	for i := range t.cfg.Peers {
		s := uint8(i)
		if s == t.cfg.Self || s == m.Seat || i < len(t.cfg.Via) && t.cfg.Via[i] != "" {
			continue
		}
		t.queueLocked(s, enc)
	}
}

// Messages are the messages kept so far (this seat's, the restored and
// the received), in the order they came.
func (t *Table) Messages() []*chat.Message {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.kept)
}

// queueLocked queues enc for seat, starting its sender if needed. t.mu
// is held.
func (t *Table) queueLocked(seat uint8, enc []byte) {
	q := t.queues[seat]
	if q == nil {
		if t.closed {
			return
		}
		q = make(chan []byte, queueLen)
		t.queues[seat] = q
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			t.sender(seat, q)
		}()
	}
	select {
	case q <- enc:
		t.sending++
	default:
		select { // full: drop the oldest
		case <-q:
			t.sending--
		default:
		}
		select {
		case q <- enc:
			t.sending++
		default:
		}
	}
}

// sent counts one message delivered (or given up) and, when none is
// left, calls Config.Idle.
func (t *Table) sent() {
	t.mu.Lock()
	t.sending--
	idle := t.sending == 0
	t.mu.Unlock()
	if idle && t.cfg.Idle != nil {
		t.cfg.Idle()
	}
}

// Idle says whether every message this seat wrote has been delivered or
// given up.
func (t *Table) Idle() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sending <= 0
}

// tries is how many times a message is offered to a seat that does not
// answer, the waits between them doubling from retry.
const (
	tries = 6
	retry = 250 * time.Millisecond
)

// sender delivers one peer's queued messages in order, one stream each,
// trying each up to tries times while the peer does not answer.
func (t *Table) sender(seat uint8, q chan []byte) {
	for {
		select {
		case <-t.ctx.Done():
			return
		case enc := <-q:
			wait := retry
			for try := 1; ; try++ {
				err := t.deliver(seat, enc)
				if err == nil || errors.Is(err, errRefused) || try == tries || t.ctx.Err() != nil {
					if err != nil && t.ctx.Err() == nil {
						t.cfg.Log.Debug("chat: not delivered", "seat", seat, "tries", try, "err", err)
					}
					t.sent()
					break
				}
				select {
				case <-t.ctx.Done():
					return
				case <-time.After(wait):
				}
				wait *= 2
			}
		}
	}
}

// errRefused: the receiver refused the message (no retry).
var errRefused = errors.New("chat message refused by the receiver")

// deliver offers enc to seat on a new stream.
func (t *Table) deliver(seat uint8, enc []byte) error {
	ctx, cancel := context.WithTimeout(t.cfg.Dial(t.ctx), 10*time.Second)
	defer cancel()
	h := t.cfg.Host
	p := t.cfg.Peers[seat]
	if c := h.Network().Connectedness(p); c != network.Connected && c != network.Limited {
		if err := h.Connect(ctx, peer.AddrInfo{ID: p, Addrs: t.cfg.Addrs[seat]}); err != nil {
			return err
		}
	}
	st, err := h.NewStream(ctx, p, Protocol)
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetDeadline(time.Now().Add(10 * time.Second))
	frame := binary.BigEndian.AppendUint16(nil, uint16(len(enc)))
	if _, err := st.Write(append(frame, enc...)); err != nil {
		st.Reset()
		return err
	}
	st.CloseWrite()
	var ack [1]byte
	if _, err := io.ReadFull(st, ack[:]); err != nil {
		return fmt.Errorf("no answer: %w", err)
	}
	if ack[0] != 0 {
		return errRefused
	}
	return nil
}

// Receive checks a message from peer from and, if it is new, keeps it
// and hands it to Config.OnChat. A refusal is an error for the node's
// peer-error report; a message seen before is not.
func (t *Table) Receive(from peer.ID, m *chat.Message) error {
	seated := false
	for i, p := range t.cfg.Peers {
		seated = seated || p == from && uint8(i) != t.cfg.Self
	}
	if !seated {
		return fmt.Errorf("chat from a peer with no seat at game %x", t.cfg.Game[:4])
	}
	_, err := t.accept(m, false)
	return err
}

// Relay takes a message of a forwarded seat that this node carries (a
// phone's, from its page: docs/phones.md): checked as a received
// message is (its seat's signature, its text, the rate, the game's
// gate), kept, handed to Config.OnChat and sent on to every other seat,
// as if its author's node had sent it; a forwarder can only drop a
// seat's messages, never write or change one. A message seen before is
// no error, and not sent again.
func (t *Table) Relay(m *chat.Message) error {
	if int(m.Seat) >= len(t.cfg.Via) || t.cfg.Via[m.Seat] == "" || t.cfg.Via[m.Seat] != t.cfg.Host.ID() {
		return fmt.Errorf("chat: seat %d is not a seat this node carries", m.Seat)
	}
	_, err := t.accept(m, true)
	return err
}

// accept checks and keeps a message of another seat, and sends it on
// when relay is set; it reports whether the message was new.
func (t *Table) accept(m *chat.Message, relay bool) (bool, error) {
	if m.Game != t.cfg.Game {
		return false, fmt.Errorf("chat: a message of game %x, not %x", m.Game[:4], t.cfg.Game[:4])
	}
	if int(m.Seat) >= len(t.cfg.Keys) {
		return false, fmt.Errorf("chat: seat %d is not at the table", m.Seat)
	}
	if err := m.Verify(t.cfg.Keys[m.Seat]); err != nil {
		return false, err
	}
	if t.cfg.MayChat != nil && !t.cfg.MayChat(m.Seat) {
		return false, fmt.Errorf("chat: seat %d may not write now: message %d dropped", m.Seat, m.Seq)
	}
	t.mu.Lock()
	k := key{m.Seat, m.Seq}
	switch {
	case t.seen[k]:
		t.mu.Unlock()
		return false, nil
	case t.count[m.Seat] >= chat.MaxPerAuthor:
		t.mu.Unlock()
		return false, fmt.Errorf("chat: seat %d sent more than %d messages: dropped", m.Seat, chat.MaxPerAuthor)
	case !t.recv.Allow(m.Seat, t.now()):
		t.mu.Unlock()
		return false, fmt.Errorf("chat: seat %d writes too fast: message %d dropped", m.Seat, m.Seq)
	}
	t.seen[k] = true
	t.count[m.Seat]++
	t.kept = append(t.kept, m)
	if relay {
		t.sendLocked(m)
	}
	t.mu.Unlock()
	if t.cfg.OnChat != nil {
		t.cfg.OnChat(m)
	}
	return true, nil
}

// Handle reads one chat message from s and hands it to the table of its
// game (table returns nil when that game is not open here: the stream is
// reset, and the sender tries again); peerError is told of a peer's
// fault.
func Handle(s network.Stream, table func(game ledger.Hash) *Table, peerError func(peer.ID, error)) {
	remote := s.Conn().RemotePeer()
	defer s.Close()
	s.SetDeadline(time.Now().Add(10 * time.Second))
	var hdr [2]byte
	if _, err := io.ReadFull(s, hdr[:]); err != nil {
		s.Reset()
		return
	}
	size := int(binary.BigEndian.Uint16(hdr[:]))
	if size > chat.MaxMessage {
		peerError(remote, fmt.Errorf("chat message of %d bytes, at most %d", size, chat.MaxMessage))
		s.Reset()
		return
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(s, buf); err != nil {
		s.Reset()
		return
	}
	m, err := chat.Unmarshal(buf)
	if err != nil {
		peerError(remote, err)
		s.Reset()
		return
	}
	t := table(m.Game)
	if t == nil {
		s.Reset()
		return
	}
	ack := []byte{0}
	if err := t.Receive(remote, m); err != nil {
		peerError(remote, err)
		ack[0] = 1
	}
	s.Write(ack)
}
