package p2p

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/store"
)

// Forwarded seats (docs/phones.md, docs/protocol.md "Sealed frames").
//
// A seat whose player has no libp2p node of its own (a phone's browser)
// is reached through another peer, its forwarder: the roster gives the
// seat its own peer id and signing key, and as its only address the bare
// "/p2p/<forwarder>". Every frame to or from such a seat is sealed
// (roomcore.Seal: signed by the seat it comes from) and travels as a
// forward packet on ProtocolForward: the seat it is for (u8; 255: every
// seat but the sender), then the sealed frame. A room takes a sealed
// frame as its seat's whatever peer carried it, and only if its seal
// checks; the forwarder can drop, delay or replay frames, as a relay
// can, and change none.

// ProtocolForward carries forward packets: one long-lived stream from a
// node to each peer it sends sealed frames through.
const ProtocolForward protocol.ID = "/masque/fwd/1"

// ToEvery is a forward packet's destination for every seat but the
// sender.
const ToEvery = 255

// maxForwardPacket bounds one forward packet: the largest frame with the
// seal's envelope.
func (n *Node) maxForwardPacket() int { return n.maxFrame + 256 }

// forwarderOf returns the peer a seat is reached through: its address
// list's bare "/p2p/<peer>" naming another peer than the seat's own.
func forwarderOf(self peer.ID, addrs []ma.Multiaddr) (peer.ID, bool) {
	for _, a := range addrs {
		ps := ma.Split(a)
		if len(ps) != 1 || ps[0].Protocol().Code != ma.P_P2P {
			continue
		}
		id, err := peer.Decode(ps[0].Value())
		if err == nil && id != self {
			return id, true
		}
	}
	return "", false
}

// ForwardAddr is the address a forwarded seat's roster entry carries: the
// forwarder's peer id alone.
func ForwardAddr(forwarder peer.ID) ma.Multiaddr {
	a, _ := ma.NewMultiaddr("/p2p/" + forwarder.String())
	return a
}

// nodeForward is a node's share of forwarding: the senders of forward
// packets (one per peer) and the forwarded seats it serves.
type nodeForward struct {
	mu      sync.Mutex
	senders map[peer.ID]*fwdSender
	ends    map[fwdKey]*Forwarder
}

type fwdKey struct {
	game ledger.Hash
	seat uint8
}

// fwdSender writes forward packets to one peer on a ProtocolForward
// stream, in order, reconnecting with backoff; the oldest are dropped
// past maxQueue (sync repairs what a seat misses).
type fwdSender struct {
	n     *Node
	peer  peer.ID
	mu    sync.Mutex
	addrs []ma.Multiaddr
	queue [][]byte
	wake  chan struct{}
}

// fwdSend queues a forward packet for peer p (dialled at addrs if need be).
func (n *Node) fwdSend(p peer.ID, addrs []ma.Multiaddr, packet []byte) {
	n.fwd.mu.Lock()
	if n.fwd.senders == nil {
		n.fwd.senders = make(map[peer.ID]*fwdSender)
	}
	s := n.fwd.senders[p]
	if s == nil {
		s = &fwdSender{n: n, peer: p, wake: make(chan struct{}, 1)}
		n.fwd.senders[p] = s
		go s.run()
	}
	n.fwd.mu.Unlock()
	s.mu.Lock()
	if len(addrs) > 0 {
		s.addrs = addrs
	}
	if len(s.queue) >= maxQueue {
		s.queue = s.queue[1:]
	}
	s.queue = append(s.queue, packet)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *fwdSender) run() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-s.n.closing
		cancel()
	}()
	var st network.Stream
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	backoff := 50 * time.Millisecond
	for {
		s.mu.Lock()
		q, addrs := s.queue, s.addrs
		s.queue = nil
		s.mu.Unlock()
		if len(q) == 0 {
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if st == nil {
			var err error
			st, err = s.open(ctx, addrs)
			if err != nil {
				s.mu.Lock()
				s.queue = append(q, s.queue...)
				if len(s.queue) > maxQueue {
					s.queue = s.queue[len(s.queue)-maxQueue:]
				}
				s.mu.Unlock()
				select {
				case <-time.After(backoff):
				case <-ctx.Done():
					return
				}
				backoff = min(2*backoff, 2*time.Second)
				continue
			}
			backoff = 50 * time.Millisecond
		}
		st.SetWriteDeadline(time.Now().Add(10 * time.Second))
		var buf []byte
		for _, f := range q {
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(f)))
			buf = append(buf, f...)
		}
		if _, err := st.Write(buf); err != nil {
			// What did not leave is repaired by sync.
			st.Reset()
			st = nil
		}
	}
}

func (s *fwdSender) open(ctx context.Context, addrs []ma.Multiaddr) (network.Stream, error) {
	ctx, cancel := context.WithTimeout(allowLimited(ctx), 5*time.Second)
	defer cancel()
	h := s.n.host
	if c := h.Network().Connectedness(s.peer); c != network.Connected && c != network.Limited {
		s.n.clearBackoff(s.peer)
		if err := h.Connect(ctx, peer.AddrInfo{ID: s.peer, Addrs: addrs}); err != nil {
			return nil, err
		}
	}
	return h.NewStream(ctx, s.peer, ProtocolForward)
}

// sealedGame reads a sealed frame's game id without checking it (the
// room or the forwarded seat it reaches checks the seal).
func sealedGame(sealed []byte) (ledger.Hash, bool) {
	var g ledger.Hash
	if len(sealed) < 1+len(g) || sealed[0] != roomcore.MsgSealed {
		return g, false
	}
	copy(g[:], sealed[1:])
	return g, true
}

// handleForward takes forward packets from a peer: each goes to the local
// room whose seat it is for, or to the forwarded seat this node serves.
func (n *Node) handleForward(s network.Stream) {
	remote := s.Conn().RemotePeer()
	r := bufio.NewReader(s)
	for {
		packet, err := n.readPacket(r, s)
		if err != nil {
			if !isClosed(err) {
				n.peerError(remote, fmt.Errorf("forward stream: %w", err))
			}
			s.Reset()
			return
		}
		if err := n.forwardIn(remote, packet); err != nil {
			n.peerError(remote, err)
		}
	}
}

// readPacket reads one forward packet, its buffer beyond the first chunk
// reserved in the stream's resource-manager scope until it is handled
// (as readMsgLimit's frames).
func (n *Node) readPacket(r *bufio.Reader, s network.Stream) ([]byte, error) {
	reserved := 0
	defer func() {
		if reserved > 0 {
			s.Scope().ReleaseMemory(reserved)
		}
	}()
	return readFrame(r, n.maxForwardPacket(), func(grow int) error {
		if err := s.Scope().ReserveMemory(grow, network.ReservationPriorityMedium); err != nil {
			return err
		}
		reserved += grow
		return nil
	})
}

// forwardIn hands a forward packet that came from peer remote to its
// destination on this node. Only a seat's peer, or the peer a seat is
// reached through, may send one: an outsider's packets are dropped
// before any signature is checked.
func (n *Node) forwardIn(remote peer.ID, packet []byte) error {
	if len(packet) < 2 {
		return errors.New("forward packet: truncated")
	}
	to, sealed := packet[0], packet[1:]
	game, ok := sealedGame(sealed)
	if !ok {
		return errors.New("forward packet: not a sealed frame")
	}
	if r := n.room(game); r != nil && r.self == to {
		if !r.forwarding().rt.carries(remote) {
			return fmt.Errorf("forward packet for game %x: the sender is not seated there, nor a seat's path", game[:4])
		}
		return r.onSealed(sealed)
	}
	n.fwd.mu.Lock()
	f := n.fwd.ends[fwdKey{game, to}]
	n.fwd.mu.Unlock()
	if f != nil {
		if !f.rt.carries(remote) {
			return fmt.Errorf("forward packet for game %x: the sender is not seated there, nor a seat's path", game[:4])
		}
		f.toSeat(sealed)
		return nil
	}
	// The room may not be open yet (or no longer): the sender's sync
	// repairs what is lost.
	return nil
}

// seatRoutes is how a node reaches each seat of a table: its peer, the
// forwarder it is reached through (empty: direct) and its addresses.
type seatRoutes struct {
	peers []peer.ID
	via   []peer.ID
	addrs [][]ma.Multiaddr
}

// carries says whether p is a seat's peer or a seat's forwarder.
func (rt *seatRoutes) carries(p peer.ID) bool {
	return slices.Contains(rt.peers, p) || slices.Contains(rt.via, p)
}

func routesOf(peers []peer.ID, addrs [][]ma.Multiaddr) *seatRoutes {
	rt := &seatRoutes{peers: peers, addrs: addrs, via: make([]peer.ID, len(peers))}
	for i := range peers {
		if f, ok := forwarderOf(peers[i], addrs[i]); ok {
			rt.via[i] = f
		}
	}
	return rt
}

// sendSealed sends a sealed frame to seat to of game: to the local room
// or forwarded seat when this node is its path, else as a forward packet
// to its forwarder or its own peer.
func (n *Node) sendSealed(game ledger.Hash, rt *seatRoutes, to uint8, sealed []byte) {
	p := rt.peers[to]
	if v := rt.via[to]; v != "" {
		p = v
	}
	if p == n.ID() {
		if err := n.forwardIn(p, append([]byte{to}, sealed...)); err != nil {
			n.log.Debug("forward to a local seat", "seat", to, "err", err)
		}
		return
	}
	var addrs []ma.Multiaddr
	for i, id := range rt.peers {
		if id == p {
			addrs = rt.addrs[i]
		}
	}
	if addrs == nil {
		addrs = rt.viaAddrs(p)
	}
	n.fwdSend(p, addrs, append([]byte{to}, sealed...))
}

// viaAddrs are the addresses of forwarder p that holds no seat (a
// 'masque phones' process): those of its seats' addresses that end in
// /p2p/<p>, without that part.
func (rt *seatRoutes) viaAddrs(p peer.ID) []ma.Multiaddr {
	var out []ma.Multiaddr
	for i, v := range rt.via {
		if v != p {
			continue
		}
		for _, a := range rt.addrs[i] {
			if info, err := peer.AddrInfoFromP2pAddr(a); err == nil && info.ID == p {
				out = append(out, info.Addrs...)
			}
		}
	}
	return out
}

// roomForward is a room's state for its forwarded seats.
type roomForward struct {
	rt *seatRoutes
	mu sync.Mutex
	// syncs[s] is the sync request to forwarded seat s in flight: its
	// nonce, when it was made and its sync slot's stamp (startSync).
	syncs map[uint8]fwdSync
	// answered[s] is when a sealed sync request of seat s was last
	// answered (one answer per syncAnswerGap: a forwarder replaying a
	// request cannot make this seat sign without end).
	answered map[uint8]time.Time
}

type fwdSync struct {
	nonce uint64
	asked time.Time
	stamp int64
}

// syncAnswerGap is the least time between two sealed sync answers to one
// seat.
const syncAnswerGap = 100 * time.Millisecond

// forwarding returns the room's forwarding state (made on first use).
func (r *Room) forwarding() *roomForward {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fwd == nil {
		r.fwd = &roomForward{rt: routesOf(r.peers, r.addrs), syncs: map[uint8]fwdSync{}, answered: map[uint8]time.Time{}}
	}
	return r.fwd
}

// connected says whether this node reaches seat now: a connection to
// its peer, or, for a forwarded seat, to its forwarder (this node: the
// seat's path is open here, Node.Forward).
func (r *Room) connected(seat uint8) bool {
	via := r.forwarding().rt.via[seat]
	switch {
	case via == "":
		return r.node.host.Network().Connectedness(r.peers[seat]) == network.Connected
	case via == r.node.ID():
		r.node.fwd.mu.Lock()
		defer r.node.fwd.mu.Unlock()
		return r.node.fwd.ends[fwdKey{r.game, seat}] != nil
	}
	return r.node.host.Network().Connectedness(via) == network.Connected
}

// forwarded says whether seat is reached through a forwarder.
func (r *Room) forwarded(seat int) bool { return r.forwarding().rt.via[seat] != "" }

// sendSeat sends frame to seat: on its log stream, or sealed through its
// forwarder.
func (r *Room) sendSeat(seat int, frame []byte) {
	if !r.forwarded(seat) {
		if s := r.senders[seat]; s != nil {
			s.send(frame)
		}
		return
	}
	r.sendSealed(uint8(seat), 0, frame)
}

func (r *Room) sendSealed(seat uint8, nonce uint64, frame []byte) {
	sealed, err := roomcore.Seal(r.node.id.SigningKey(), r.game, r.self, nonce, frame)
	if err != nil {
		r.node.log.Warn("seal a frame", "err", err)
		return
	}
	r.node.sendSealed(r.game, r.forwarding().rt, seat, sealed)
}

// forwardSync asks a forwarded seat for its entries from position from
// (a sealed sync request; the answer comes back sealed, see onSealed). It
// returns false for a seat reached directly.
func (r *Room) forwardSync(seat uint8, from uint64) bool {
	if !r.forwarded(int(seat)) {
		return false
	}
	stamp, ok := r.startSync(int(seat))
	if !ok {
		return true
	}
	var nb [8]byte
	rand.Read(nb[:])
	nonce := binary.BigEndian.Uint64(nb[:]) | 1
	f := r.forwarding()
	f.mu.Lock()
	f.syncs[seat] = fwdSync{nonce: nonce, asked: time.Now(), stamp: stamp}
	f.mu.Unlock()
	r.sendSealed(seat, nonce, encodeSyncReq(r.game, from, maxSyncBatch))
	return true
}

// onSealed takes a sealed frame that a forwarder carried: checked
// against the roster, it is its seat's, whichever peer carried it.
func (r *Room) onSealed(raw []byte) error {
	sd, m, err := roomcore.OpenSealed(raw, r.game, r.keys)
	if err != nil {
		return err
	}
	if sd.Seat == r.self {
		return fmt.Errorf("sealed frame from this seat (%d): replayed back to it", sd.Seat)
	}
	f := r.forwarding()
	switch m.Type {
	case msgEntry, msgVerdict, msgEcho, msgDone:
		r.deliver(inbound{seat: sd.Seat, msg: &message{Msg: *m}})
	case msgSyncReq:
		f.mu.Lock()
		last := f.answered[sd.Seat]
		if time.Since(last) < syncAnswerGap {
			f.mu.Unlock()
			return nil
		}
		f.answered[sd.Seat] = time.Now()
		f.mu.Unlock()
		r.answerSealed(sd.Seat, sd.Nonce, m.From, m.Max)
	case msgSyncEnd:
		f.mu.Lock()
		q, ok := f.syncs[sd.Seat]
		if !ok || sd.Nonce != q.nonce {
			f.mu.Unlock()
			// An old answer replayed, or one to a request given up.
			return nil
		}
		delete(f.syncs, sd.Seat)
		f.mu.Unlock()
		r.endSync(int(sd.Seat), q.stamp)
		r.deliver(inbound{seat: sd.Seat, msg: &message{Msg: roomcore.Msg{Type: msgSynced, From: m.From}}, asked: q.asked})
	}
	return nil
}

// answerSealed answers seat's sealed sync request: the entries from
// position from, the verdict if the table ended, the log's length, each
// sealed with the request's nonce.
func (r *Room) answerSealed(seat uint8, nonce, from uint64, max uint32) {
	entries, states, next := r.entriesFrom(from, min(max, maxSyncBatch))
	for i, e := range entries {
		if frame, err := encodeEntryMsg(e, states[i]); err == nil {
			r.sendSealed(seat, nonce, frame)
		}
	}
	if v := r.Verdict(); v != nil {
		if frame, err := encodeVerdictMsg(v); err == nil {
			r.sendSealed(seat, nonce, frame)
		}
	}
	r.sendSealed(seat, nonce, encodeSyncEnd(next))
}

// Forwarder carries one forwarded seat's frames (a phone's, over its
// WebSocket) into the table and the table's frames to it. Make one with
// [Node.Forward].
type Forwarder struct {
	n    *Node
	key  fwdKey
	rt   *seatRoutes
	seat uint8
	to   func(sealed []byte)
	chat func(enc []byte) // n.fwd.mu guards it
}

// Forward makes this node the path of seat of the table tb, whose roster
// entry names this node as its forwarder ([ForwardAddr]): sealed frames
// for the seat are handed to toSeat (it must not block), and the seat's
// forward packets are sent with [Forwarder.Send]. The forwarder checks
// nothing of what it carries: the seats do.
func (n *Node) Forward(tb store.Table, seat uint8, toSeat func(sealed []byte)) (*Forwarder, error) {
	game, err := tb.Roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	if int(seat) >= len(tb.Roster.Seats) || len(tb.Addrs) != len(tb.Roster.Seats) {
		return nil, fmt.Errorf("p2p: forward seat %d of a %d-seat table", seat, len(tb.Roster.Seats))
	}
	var peers []peer.ID
	var addrs [][]ma.Multiaddr
	for i, s := range tb.Roster.Seats {
		id, err := seatPeerID(s)
		if err != nil {
			return nil, fmt.Errorf("p2p: roster seat %d: %w", i, err)
		}
		peers = append(peers, id)
		addrs = append(addrs, parseAddrs(tb.Addrs[i]))
	}
	rt := routesOf(peers, addrs)
	if rt.via[seat] != n.ID() {
		return nil, fmt.Errorf("p2p: seat %d is not forwarded by this node (%s)", seat, n.ID())
	}
	f := &Forwarder{n: n, key: fwdKey{game, seat}, rt: rt, seat: seat, to: toSeat}
	n.fwd.mu.Lock()
	defer n.fwd.mu.Unlock()
	if n.fwd.ends == nil {
		n.fwd.ends = make(map[fwdKey]*Forwarder)
	}
	n.fwd.ends[f.key] = f
	return f, nil
}

func (f *Forwarder) toSeat(sealed []byte) { f.to(sealed) }

// Send carries a forward packet from the seat (destination seat u8 or
// ToEvery, then a sealed frame) to its destinations.
func (f *Forwarder) Send(packet []byte) error {
	if len(packet) < 2 || len(packet) > f.n.maxForwardPacket() {
		return fmt.Errorf("p2p: forward packet of %d bytes from seat %d", len(packet), f.seat)
	}
	to, sealed := packet[0], packet[1:]
	if g, ok := sealedGame(sealed); !ok || g != f.key.game {
		return fmt.Errorf("p2p: forward packet from seat %d: not a sealed frame of its table", f.seat)
	}
	for s := range uint8(len(f.rt.peers)) {
		if s != f.seat && (to == ToEvery || to == s) {
			f.n.sendSealed(f.key.game, f.rt, s, sealed)
		}
	}
	return nil
}

// Close stops forwarding to the seat (its frames from the table are
// dropped until a new Forward).
func (f *Forwarder) Close() {
	f.n.fwd.mu.Lock()
	defer f.n.fwd.mu.Unlock()
	if f.n.fwd.ends[f.key] == f {
		delete(f.n.fwd.ends, f.key)
	}
}

// OnChat has the table chat's messages handed to the seat by fn (it must
// not block): each message this node's room keeps from then on but the
// seat's own, encoded (package chat; signed by its author, which the
// seat checks). It returns the messages kept so far (the seat's own
// among them: a seat that reloaded takes its sequence numbers on from
// them). A node that holds no seat at the table has no chat to give.
func (f *Forwarder) OnChat(fn func(enc []byte)) [][]byte {
	f.n.fwd.mu.Lock()
	f.chat = fn
	f.n.fwd.mu.Unlock()
	r := f.n.room(f.key.game)
	if r == nil {
		return nil
	}
	var out [][]byte
	for _, m := range r.chat.Messages() {
		out = append(out, m.Marshal())
	}
	return out
}

// Chat carries a chat message the seat wrote (encoded, package chat) to
// the table: this node's room checks it as any seat's (its seat's
// signature, its text, its rate, the game's gate), keeps it and sends it
// on to every other seat (chatproto.Table.Relay). A message of another
// seat or another table is refused.
func (f *Forwarder) Chat(enc []byte) error {
	m, err := chat.Unmarshal(enc)
	if err != nil {
		return fmt.Errorf("p2p: chat from seat %d: %w", f.seat, err)
	}
	if m.Game != f.key.game || m.Seat != f.seat {
		return fmt.Errorf("p2p: chat from seat %d: a message of seat %d of game %x", f.seat, m.Seat, m.Game[:4])
	}
	r := f.n.room(f.key.game)
	if r == nil {
		return fmt.Errorf("p2p: chat from seat %d: this node holds no seat at game %x to carry it", f.seat, m.Game[:4])
	}
	return r.chat.Relay(m)
}

// chatToForwarded hands m to the forwarded seats of game this node
// carries, but its author's.
func (n *Node) chatToForwarded(game ledger.Hash, m *chat.Message) {
	n.fwd.mu.Lock()
	var fns []func([]byte)
	for k, f := range n.fwd.ends {
		if k.game == game && k.seat != m.Seat && f.chat != nil {
			fns = append(fns, f.chat)
		}
	}
	n.fwd.mu.Unlock()
	if len(fns) == 0 {
		return
	}
	enc := m.Marshal()
	for _, fn := range fns {
		fn(enc)
	}
}
