package p2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	quic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
)

// Stream protocols, one per purpose. See docs/p2p.md for their frames.
const (
	// ProtocolLog carries entries, echoes, done messages and verdicts,
	// one long-lived stream from each seat to each other seat. Version 2:
	// an entry travels whole from its author only; the other seats send
	// echoes (position, entry hash, state hash) and, at the end, done.
	ProtocolLog protocol.ID = "/masque/log/2"
	// ProtocolSync answers "send me the entries from position n".
	ProtocolSync protocol.ID = "/masque/sync/1"
	// ProtocolJoin asks a table's creator for a seat and carries the
	// roster agreement. Version 2: the seat is a field of the join
	// request, join OK and join refused messages.
	ProtocolJoin protocol.ID = "/masque/join/2"
)

// DefaultListenAddrs returns the addresses used when [Config.ListenAddrs] is empty: every IPv4
// interface, a port chosen by the system, over TCP and QUIC.
func DefaultListenAddrs() []string {
	return []string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"}
}

// Config configures a [Node].
type Config struct {
	// Identity is the player's key; required.
	Identity *identity.Identity
	// ListenAddrs are multiaddrs to listen on; empty means
	// DefaultListenAddrs. Ignored by [NewNodeWithHost].
	ListenAddrs []string
	// MaxFrame limits one incoming frame; 0 means DefaultMaxFrame.
	MaxFrame int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Relays are relay servers (circuit v2, e.g. 'masque relay'), for
	// peers behind NATs. Empty: no relay at all, as on a LAN. Set: the
	// node dials and accepts /p2p-circuit connections, holds a
	// reservation on every relay (AutoRelay), upgrades relayed
	// connections to direct ones by hole punching (DCUtR) where the NATs
	// allow, and announces its circuit addresses ([Node.Addrs]).
	Relays []peer.AddrInfo
	// OnPeerError, if set, is called (from network goroutines; it must not
	// block) with every error a peer's input causes: oversize or malformed
	// frames, bad signatures, unknown games. The error names the peer.
	OnPeerError func(peer.ID, error)
}

// Node is a player's libp2p host with masque's stream protocols. One node
// can serve several tables and rooms at once.
type Node struct {
	host     host.Host
	id       *identity.Identity
	maxFrame int
	log      *slog.Logger
	onErr    func(peer.ID, error)
	ownsHost bool
	relays   []peer.AddrInfo

	mu     sync.Mutex
	rooms  map[ledger.Hash]*Room
	tables map[[16]byte]*Table
	// reopening are tables about to be opened again (ExpectTable).
	reopening map[[16]byte]bool
	// roomOpened is closed (and replaced) whenever a room opens: parked
	// spectators and log streams wait on it; parked and parkedLogs
	// count them.
	roomOpened chan struct{}
	parked     int
	parkedLogs int
	// expected are the games this node signed a roster of whose room
	// has not closed here (see awaitLogRoom), with when each was added.
	expected map[ledger.Hash]time.Time
	// closing is closed by Close: parked spectators stop waiting.
	closing   chan struct{}
	closeOnce sync.Once
	// seated are the finished roster agreements (see remember), oldest
	// first in seatedOrder.
	seated      map[[16]byte]*seatedTable
	seatedOrder [][16]byte
	// stop ends the node's background work (keepRelays).
	stop context.CancelFunc
	// punches are the hole punches' outcomes (nil without relays).
	punches *punchLog
	// resv are the reservations keepRelays made, by relay (see
	// renewReservation).
	resv relayReservations
	// inbound watches inbound handshakes (NewNode's nodes only).
	inbound *inboundWatch
	// refusedTCP are the creators whose TCP port refused a join's dial
	// lately (openJoin then guesses no QUIC address).
	refusedTCP refusals
	// fwd are the forward packets' senders and the forwarded seats this
	// node is the path of (forward.go).
	fwd nodeForward
}

// NewNode starts a libp2p host with the Ed25519 identity, TCP and QUIC,
// Noise and yamux, and no NAT mapping or libp2p mDNS (discovery is
// package lobby's job). Relays, hole punching and AutoRelay are on only
// when cfg.Relays names relays (see relayOptions).
func NewNode(cfg Config) (*Node, error) {
	if cfg.Identity == nil {
		return nil, errors.New("p2p: Config.Identity is required")
	}
	addrs := cfg.ListenAddrs
	if len(addrs) == 0 {
		addrs = DefaultListenAddrs()
	}
	// TCP and QUIC on one port number, if one is free for both (see
	// QUICSiblings); if it is taken meanwhile, the addresses as given.
	same := samePort(addrs)
	watch := newInboundWatch()
	h, punches, err := newNodeHost(cfg, same, watch)
	if err != nil && !slices.Equal(same, addrs) {
		h, punches, err = newNodeHost(cfg, addrs, watch)
	}
	if err != nil {
		return nil, err
	}
	n, err := NewNodeWithHost(h, cfg)
	if err != nil {
		h.Close()
		return nil, err
	}
	n.ownsHost = true
	n.punches = punches
	n.inbound = watch
	ctx, cancel := context.WithCancel(context.Background())
	n.stop = cancel
	go n.watchInbound(ctx)
	if len(cfg.Relays) > 0 {
		go n.keepRelays(ctx)
	}
	return n, nil
}

// newNodeHost starts NewNode's libp2p host, listening on addrs.
func newNodeHost(cfg Config, addrs []string, watch *inboundWatch) (host.Host, *punchLog, error) {
	opts := []libp2p.Option{
		libp2p.ConnectionGater(watch),
		libp2p.Identity(cfg.Identity.PrivKey()),
		libp2p.ListenAddrStrings(addrs...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(quic.NewTransport),
		quicReuseOption(),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.DisableMetrics(),
	}
	var punches *punchLog
	if len(cfg.Relays) == 0 {
		rm, err := nodeResourceManager(nil)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, libp2p.DisableRelay(), libp2p.ResourceManager(rm))
	} else {
		punches = newPunchLog()
		ro, err := relayOptions(cfg.Relays, punches)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, ro...)
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("p2p: start host: %w", err)
	}
	return h, punches, nil
}

// watchInbound checks the inbound handshakes every second until ctx is
// done.
func (n *Node) watchInbound(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n.inbound.check(now)
		}
	}
}

// NewNodeWithHost wraps an existing host (a mocknet host in tests) whose
// identity must be cfg.Identity. Closing the node does not close h.
func NewNodeWithHost(h host.Host, cfg Config) (*Node, error) {
	if cfg.Identity == nil {
		return nil, errors.New("p2p: Config.Identity is required")
	}
	if h.ID() != cfg.Identity.PeerID() {
		return nil, fmt.Errorf("p2p: host is %s, identity is %s", h.ID(), cfg.Identity.PeerID())
	}
	n := &Node{
		host:       h,
		id:         cfg.Identity,
		maxFrame:   cfg.MaxFrame,
		log:        cfg.Logger,
		onErr:      cfg.OnPeerError,
		relays:     cfg.Relays,
		rooms:      make(map[ledger.Hash]*Room),
		roomOpened: make(chan struct{}),
		closing:    make(chan struct{}),
		tables:     make(map[[16]byte]*Table),
		seated:     make(map[[16]byte]*seatedTable),
	}
	if n.maxFrame <= 0 {
		n.maxFrame = DefaultMaxFrame
	}
	if n.log == nil {
		n.log = slog.New(slog.DiscardHandler)
	}
	h.SetStreamHandler(ProtocolLog, n.handleLog)
	h.SetStreamHandler(ProtocolSync, n.handleSync)
	h.SetStreamHandler(ProtocolJoin, n.handleJoin)
	h.SetStreamHandler(ProtocolChat, n.handleChat)
	h.SetStreamHandler(ProtocolWatch, n.handleWatch)
	h.SetStreamHandler(ProtocolForward, n.handleForward)
	return n, nil
}

// Host is the underlying libp2p host.
func (n *Node) Host() host.Host { return n.host }

// ID is the node's peer id.
func (n *Node) ID() peer.ID { return n.host.ID() }

// Identity is the node's key.
func (n *Node) Identity() *identity.Identity { return n.id }

// Addrs are the node's addresses, each ending in /p2p/<id>, as a joiner
// dials them: its circuit addresses through every relay first (if it has
// relays), then its listen addresses.
func (n *Node) Addrs() []ma.Multiaddr {
	info := peer.AddrInfo{ID: n.host.ID(), Addrs: n.announce()}
	out, err := peer.AddrInfoToP2pAddrs(&info)
	if err != nil {
		return nil
	}
	return out
}

// announce are the addresses this node gives others (in join requests
// and rosters): circuit addresses through its relays, then the host's.
func (n *Node) announce() []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, a := range append(CircuitAddrs(n.relays), n.host.Addrs()...) {
		if !slices.ContainsFunc(out, a.Equal) {
			out = append(out, a)
		}
	}
	return out
}

// Relays are the relays the node was configured with.
func (n *Node) Relays() []peer.AddrInfo { return slices.Clone(n.relays) }

// Close stops the node's handlers and, if NewNode started the host, the
// host. Rooms and tables should be closed first.
func (n *Node) Close() error {
	n.closeOnce.Do(func() { close(n.closing) })
	if n.stop != nil {
		n.stop()
	}
	for _, p := range []protocol.ID{ProtocolLog, ProtocolSync, ProtocolJoin, ProtocolChat, ProtocolWatch, ProtocolForward} {
		n.host.RemoveStreamHandler(p)
	}
	if n.ownsHost {
		return n.host.Close()
	}
	return nil
}

// peerError reports an error caused by a peer's input.
func (n *Node) peerError(p peer.ID, err error) {
	err = fmt.Errorf("peer %s: %w", p, err)
	n.log.Warn("peer error", "peer", p, "err", err)
	if n.onErr != nil {
		n.onErr(p, err)
	}
}

// readMsg reads and decodes one frame from s; errors name the peer.
func (n *Node) readMsg(r *bufio.Reader, s network.Stream) (*message, error) {
	return n.readMsgLimit(r, s, n.maxFrame)
}

// readMsgLimit is readMsg with a frame limit (a stream's first frame has
// a small one: MaxHelloFrame, ...). A frame's buffer beyond the first
// chunk is reserved in the stream's resource-manager scope, and released
// once the frame is decoded: the resource manager bounds what every peer
// together can make this node hold.
func (n *Node) readMsgLimit(r *bufio.Reader, s network.Stream, limit int) (*message, error) {
	reserved := 0
	reserve := func(grow int) error {
		if err := s.Scope().ReserveMemory(grow, network.ReservationPriorityMedium); err != nil {
			return err
		}
		reserved += grow
		return nil
	}
	defer func() {
		if reserved > 0 {
			s.Scope().ReleaseMemory(reserved)
		}
	}()
	frame, err := readFrame(r, limit, reserve)
	if err != nil {
		return nil, fmt.Errorf("peer %s: %w", s.Conn().RemotePeer(), err)
	}
	m, err := decode(frame)
	if err != nil {
		return nil, fmt.Errorf("peer %s: %w", s.Conn().RemotePeer(), err)
	}
	return m, nil
}

func (n *Node) room(game ledger.Hash) *Room {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.rooms[game]
}

// logPark is how long a log stream for a game whose roster this node
// signed but whose room is not open here yet waits for it to open, and
// maxParkedLogs how many may wait at once (more, and streams for any
// other game, are reset at once). The seats of a table start their rooms when
// each learns the roster, some a few hundred milliseconds after others
// on a busy machine: a seat that starts early writes its first entries
// on its log streams at once, and a stream reset because the receiver's
// room was not open yet lost them (the writes had succeeded), to be
// fetched only at the receiver's tick's sync a second later (issue 28's
// stalls at the start of 13-process games).
const (
	logPark       = 5 * time.Second
	maxParkedLogs = 64
)

// expectLocked notes that this node signed game's roster: its room will
// open here soon (n.mu is held). Entries older than expectFor are
// dropped.
func (n *Node) expectLocked(game ledger.Hash) {
	if n.expected == nil {
		n.expected = make(map[ledger.Hash]time.Time)
	}
	now := time.Now()
	for g, at := range n.expected {
		if now.Sub(at) > expectFor {
			delete(n.expected, g)
		}
	}
	n.expected[game] = now
}

// expectFor is how long after this node signed a game's roster a log
// stream for it waits for its room.
const expectFor = time.Hour

// awaitLogRoom returns the open room of game, waiting up to logPark for
// it to open if this node signed its roster and its room has not closed
// here; nil if it does not open, if this node expects no such game (a
// game it closed, or never joined: the stream is reset at once, and its
// sender tries again later), or if too many log streams wait already.
func (n *Node) awaitLogRoom(game ledger.Hash) *Room {
	if r := n.room(game); r != nil {
		return r
	}
	n.mu.Lock()
	if at, ok := n.expected[game]; !ok || time.Since(at) > expectFor || n.parkedLogs >= maxParkedLogs {
		n.mu.Unlock()
		return nil
	}
	n.parkedLogs++
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		n.parkedLogs--
		n.mu.Unlock()
	}()
	deadline := time.NewTimer(logPark)
	defer deadline.Stop()
	for {
		n.mu.Lock()
		opened, r := n.roomOpened, n.rooms[game]
		n.mu.Unlock()
		if r != nil {
			return r
		}
		select {
		case <-opened:
		case <-deadline.C:
			return nil
		case <-n.closing:
			return nil
		}
	}
}

func (n *Node) handleLog(s network.Stream) {
	remote := s.Conn().RemotePeer()
	r := bufio.NewReader(s)
	s.SetReadDeadline(time.Now().Add(10 * time.Second))
	hello, err := n.readMsgLimit(r, s, MaxHelloFrame)
	if err != nil || hello.Type != msgHello {
		if err == nil {
			err = fmt.Errorf("log stream opened with message type %d", hello.Type)
		}
		n.peerError(remote, err)
		s.Reset()
		return
	}
	s.SetReadDeadline(time.Time{})
	room := n.awaitLogRoom(hello.Game)
	if room == nil {
		// Not necessarily an error: the peer may have started the game
		// long before us. It retries.
		n.log.Debug("log stream for a game not open here: reset", "peer", remote, "game", fmt.Sprintf("%x", hello.Game[:4]))
		s.Reset()
		return
	}
	seat, ok := room.seatOf(remote)
	if !ok || seat != hello.Seat {
		n.peerError(remote, fmt.Errorf("log stream for game %x: not seat %d", hello.Game[:4], hello.Seat))
		s.Reset()
		return
	}
	if !room.track(s) {
		s.Reset()
		return
	}
	defer room.untrack(s)
	for {
		m, err := n.readMsg(r, s)
		if err != nil {
			if !isClosed(err) {
				n.peerError(remote, err)
			}
			s.Reset()
			return
		}
		if m.Type != msgEntry && m.Type != msgVerdict && m.Type != msgEcho && m.Type != msgDone {
			n.peerError(remote, fmt.Errorf("message type %d on a log stream", m.Type))
			s.Reset()
			return
		}
		if !room.deliver(inbound{seat: seat, msg: m}) {
			s.Reset()
			return
		}
	}
}

func (n *Node) handleSync(s network.Stream) {
	remote := s.Conn().RemotePeer()
	defer s.Close()
	s.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(s)
	req, err := n.readMsgLimit(r, s, MaxSyncReqFrame)
	if err != nil || req.Type != msgSyncReq {
		if err == nil {
			err = fmt.Errorf("sync stream opened with message type %d", req.Type)
		}
		n.peerError(remote, err)
		s.Reset()
		return
	}
	room := n.room(req.Game)
	if room == nil {
		s.Reset()
		return
	}
	if _, ok := room.seatOf(remote); !ok {
		n.peerError(remote, fmt.Errorf("sync for game %x: not seated", req.Game[:4]))
		s.Reset()
		return
	}
	entries, states, next := room.entriesFrom(req.From, min(req.Max, maxSyncBatch))
	w := bufio.NewWriter(s)
	for i, e := range entries {
		frame, err := encodeEntryMsg(e, states[i])
		if err != nil || WriteFrame(w, frame) != nil {
			s.Reset()
			return
		}
	}
	if v := room.Verdict(); v != nil {
		// A peer that was away when the table stopped learns why.
		if frame, err := encodeVerdictMsg(v); err != nil || WriteFrame(w, frame) != nil {
			s.Reset()
			return
		}
	}
	if WriteFrame(w, encodeSyncEnd(next)) != nil || w.Flush() != nil {
		s.Reset()
	}
}

func isClosed(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, network.ErrReset) ||
		errors.Is(err, io.EOF)
}
