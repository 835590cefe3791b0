package p2p

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/roomcore"
)

// ProtocolChat carries one table chat message per stream, from its author
// to each other seat: a u16 length, then the message (package chat); the
// receiver answers one byte, 0 (kept, or seen before) or 1 (refused), and
// closes. A stream reset without an answer (the receiver's game is not
// open yet, say) is tried again a few times.

const ProtocolChat protocol.ID = "/masque/chat/1"

// chatQueue bounds the messages waiting for one peer; beyond it the oldest
// are dropped (chat is best effort: a peer that was away misses them).
const chatQueue = 32

// ErrChatBarred is wrapped by [Room.Chat]'s error when the seat may not
// write (RoomConfig.MayChat).
var ErrChatBarred = errors.New("this seat may not write in the chat now")

// ErrChatRate is wrapped by [Room.Chat]'s error when the seat wrote too
// much too fast.
var ErrChatRate = errors.New("too many messages")

// chatState is a room's chat: what it has seen, its limits, its senders.
type chatState struct {
	mu      sync.Mutex
	seen    map[chatKey]bool
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
}

type chatKey struct {
	seat uint8
	seq  uint32
}

func (r *Room) initChat(restored []*chat.Message) {
	c := &r.chat
	c.seen, c.count, c.queues = map[chatKey]bool{}, map[uint8]int{}, map[uint8]chan []byte{}
	c.send, c.recv, c.now = chat.SendLimiter(), chat.ReceiveLimiter(), time.Now
	c.nextSeq = 1
	for _, m := range restored {
		if m.Game != r.game || c.seen[chatKey{m.Seat, m.Seq}] {
			continue
		}
		c.seen[chatKey{m.Seat, m.Seq}] = true
		c.count[m.Seat]++
		if m.Seat == r.self && m.Seq >= c.nextSeq {
			c.nextSeq = m.Seq + 1
		}
	}
}

// Chat cleans text (package chat's Clean), signs it as the local seat's
// next message, hands it to RoomConfig.OnChat and sends it to every other
// seat (in the background; a seat that cannot be reached misses it). It
// refuses a seat barred by RoomConfig.MayChat (ErrChatBarred), a seat
// over its rate (ErrChatRate) and an empty text (chat.ErrEmpty).
func (r *Room) Chat(text string) (*chat.Message, error) {
	clean, err := chat.Clean(text)
	if err != nil {
		return nil, err
	}
	if r.cfg.MayChat != nil && !r.cfg.MayChat(r.self) {
		return nil, ErrChatBarred
	}
	c := &r.chat
	c.mu.Lock()
	now := c.now()
	if c.count[r.self] >= chat.MaxPerAuthor {
		c.mu.Unlock()
		return nil, fmt.Errorf("%w: %d in this game, the most", ErrChatRate, chat.MaxPerAuthor)
	}
	if !c.send.Allow(r.self, now) {
		wait := c.send.Wait(r.self, now)
		c.mu.Unlock()
		return nil, fmt.Errorf("%w: wait %.0f s", ErrChatRate, max(1, wait.Seconds()))
	}
	m := &chat.Message{Game: r.game, Seat: r.self, Seq: c.nextSeq, Time: now, Text: clean}
	if err := m.Sign(r.node.id.SigningKey()); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	c.nextSeq++
	c.seen[chatKey{m.Seat, m.Seq}] = true
	c.count[m.Seat]++
	// Our own receivers' limit counts our messages too, so that the
	// restart of a chatty seat does not make peers drop its next ones.
	c.recv.Allow(r.self, now)
	enc := m.Marshal()
	for i := range r.peers {
		if uint8(i) != r.self {
			r.chatSendLocked(uint8(i), enc)
		}
	}
	c.mu.Unlock()
	if r.cfg.OnChat != nil {
		r.cfg.OnChat(m)
	}
	return m, nil
}

// chatSendLocked queues enc for seat, starting its sender if needed.
// chat.mu is held.
func (r *Room) chatSendLocked(seat uint8, enc []byte) {
	c := &r.chat
	q := c.queues[seat]
	if q == nil {
		r.mu.RLock()
		closed := r.closed
		r.mu.RUnlock()
		if closed {
			return
		}
		q = make(chan []byte, chatQueue)
		c.queues[seat] = q
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			r.chatSender(seat, q)
		}()
	}
	select {
	case q <- enc:
		c.sending++
	default:
		select { // full: drop the oldest
		case <-q:
			c.sending--
		default:
		}
		select {
		case q <- enc:
			c.sending++
		default:
		}
	}
}

// chatSent counts one message delivered (or given up) and, when none is
// left, wakes the room's Run, which may be waiting to say done.
func (r *Room) chatSent() {
	c := &r.chat
	c.mu.Lock()
	c.sending--
	idle := c.sending == 0
	c.mu.Unlock()
	if idle {
		select {
		case r.inbox <- inbound{msg: &message{Msg: roomcore.Msg{Type: msgWake}}}:
		default:
		}
	}
}

// chatIdle says whether every message this seat wrote has been delivered
// or given up.
func (r *Room) chatIdle() bool {
	r.chat.mu.Lock()
	defer r.chat.mu.Unlock()
	return r.chat.sending <= 0
}

// chatTries is how many times a message is offered to a seat that does
// not answer, the waits between them doubling from chatRetry.
const (
	chatTries = 6
	chatRetry = 250 * time.Millisecond
)

// chatSender delivers one peer's queued messages in order, one stream
// each, trying each up to chatTries times while the peer does not answer.
func (r *Room) chatSender(seat uint8, q chan []byte) {
	for {
		select {
		case <-r.ctx.Done():
			return
		case enc := <-q:
			wait := chatRetry
			for try := 1; ; try++ {
				err := r.sendChat(seat, enc)
				if err == nil || errors.Is(err, errChatRefused) || try == chatTries || r.ctx.Err() != nil {
					if err != nil && r.ctx.Err() == nil {
						r.node.log.Debug("chat: not delivered", "seat", seat, "tries", try, "err", err)
					}
					r.chatSent()
					break
				}
				select {
				case <-r.ctx.Done():
					return
				case <-time.After(wait):
				}
				wait *= 2
			}
		}
	}
}

// errChatRefused: the receiver refused the message (no retry).
var errChatRefused = errors.New("chat message refused by the receiver")

func (r *Room) sendChat(seat uint8, enc []byte) error {
	ctx, cancel := context.WithTimeout(allowLimited(r.ctx), 10*time.Second)
	defer cancel()
	h := r.node.host
	p := r.peers[seat]
	if c := h.Network().Connectedness(p); c != network.Connected && c != network.Limited {
		if err := h.Connect(ctx, peer.AddrInfo{ID: p, Addrs: r.addrs[seat]}); err != nil {
			return err
		}
	}
	st, err := h.NewStream(ctx, p, ProtocolChat)
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
		return errChatRefused
	}
	return nil
}

// receiveChat checks a message from peer from and, if it is new, keeps it
// and hands it to RoomConfig.OnChat. A refusal is an error for the node's
// peer-error report; a message seen before is not.
func (r *Room) receiveChat(from peer.ID, m *chat.Message) error {
	if _, ok := r.seatOf(from); !ok {
		return fmt.Errorf("chat from a peer with no seat at game %x", r.game[:4])
	}
	if int(m.Seat) >= len(r.keys) {
		return fmt.Errorf("chat: seat %d is not at the table", m.Seat)
	}
	if err := m.Verify(r.keys[m.Seat]); err != nil {
		return err
	}
	if r.cfg.MayChat != nil && !r.cfg.MayChat(m.Seat) {
		return fmt.Errorf("chat: seat %d may not write now: message %d dropped", m.Seat, m.Seq)
	}
	c := &r.chat
	c.mu.Lock()
	k := chatKey{m.Seat, m.Seq}
	switch {
	case c.seen[k]:
		c.mu.Unlock()
		return nil
	case c.count[m.Seat] >= chat.MaxPerAuthor:
		c.mu.Unlock()
		return fmt.Errorf("chat: seat %d sent more than %d messages: dropped", m.Seat, chat.MaxPerAuthor)
	case !c.recv.Allow(m.Seat, c.now()):
		c.mu.Unlock()
		return fmt.Errorf("chat: seat %d writes too fast: message %d dropped", m.Seat, m.Seq)
	}
	c.seen[k] = true
	c.count[m.Seat]++
	c.mu.Unlock()
	if r.cfg.OnChat != nil {
		r.cfg.OnChat(m)
	}
	return nil
}

// handleChat reads one chat message and hands it to its room.
func (n *Node) handleChat(s network.Stream) {
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
		n.peerError(remote, fmt.Errorf("chat message of %d bytes, at most %d", size, chat.MaxMessage))
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
		n.peerError(remote, err)
		s.Reset()
		return
	}
	room := n.room(m.Game)
	if room == nil {
		s.Reset()
		return
	}
	ack := []byte{0}
	if err := room.receiveChat(remote, m); err != nil {
		n.peerError(remote, err)
		ack[0] = 1
	}
	s.Write(ack)
}
