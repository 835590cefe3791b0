package p2p

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/chat"
	"github.com/masque-games/masque/p2p/chatproto"
	"github.com/masque-games/masque/p2p/roomcore"
	"github.com/masque-games/masque/p2p/store"
)

// The replication protocol's decisions (which entry to fetch, when a seat
// is late, timeout verdicts and their adoption) are made by a
// [roomcore.Core], with no I/O and no clock of its own. A Room is its
// driver: it feeds the core the frames its peers send, its author's
// entries and the ticks of a timer, and carries out each [roomcore.Ready]
// (the state directory, the log streams, sync requests, timers).

// Author produces the local seat's next entry body when it is this seat's
// turn (a player's UI or a bot). It must return when ctx is done.
type Author func(ctx context.Context, pos uint64) (body []byte, err error)

// RoomConfig configures a [Room].
type RoomConfig struct {
	// Store is the table's state directory, opened with store.Create or
	// store.Open. Entries already in it are replayed through Replica when
	// the room opens. The caller closes it after the room.
	Store *store.Store
	// Replica is a fresh state machine for this roster.
	Replica Replica
	// Author writes the local seat's entries.
	Author Author
	// Timeout is how long a silent seat is waited for before the timeout
	// verdict; 0 waits forever.
	Timeout time.Duration
	// Tick is how often OnWait is called and stalled positions are synced;
	// 0 means 500ms.
	Tick time.Duration
	// OnWait, if set, is called from the room's goroutine whenever the
	// awaited position changes and on every tick. It must not block.
	OnWait func(Wait)
	// EndWait is how long Run, once the replica says the game is over,
	// waits for every other seat's state hash after the last entry, so
	// that a divergence at the end is caught like any other; seats that
	// have not reported it by then are listed in Outcome.Unconfirmed. 0
	// means 10 ticks.
	EndWait time.Duration

	// The table chat (Room.Chat, ProtocolChat): kept out of the log and
	// the rules. Chat are the messages this seat kept from an earlier run
	// (a restart: its own sequence numbers go on after them, and they are
	// not accepted again). OnChat, if set, is called with every new
	// message, the seat's own included, from network goroutines; it must
	// not block. MayChat, if set, says whether a seat may write now (a
	// game may bar some seats, e.g. the players out of the game): its
	// messages are refused when it says no, on sending and on receipt.
	Chat    []*chat.Message
	OnChat  func(*chat.Message)
	MayChat func(seat uint8) bool

	// MaxSpectators bounds the spectators (ProtocolWatch) this seat
	// serves at once; 0 means DefaultMaxSpectators, a negative value none.
	MaxSpectators int
}

// DefaultMaxSpectators is how many spectators a seat serves at once when
// RoomConfig.MaxSpectators is 0.
const DefaultMaxSpectators = 8

// Limits of the replication protocol's I/O.
const (
	maxSyncBatch    = roomcore.MaxSyncBatch // entries per sync answer
	inboxSize       = 256
	maxAhead        = 512     // roomcore's: positions beyond the next one buffered (tests)
	maxPendingBytes = 4 << 20 // roomcore's: one author's entries buffered ahead (tests)
)

// Room replicates one game's log among its seats. Open it with
// [Node.OpenRoom], drive it with [Room.Run], and [Room.Close] it.
type Room struct {
	node   *Node
	cfg    RoomConfig
	roster *ledger.Roster
	game   ledger.Hash
	self   uint8
	peers  []peer.ID
	keys   []ed25519.PublicKey
	addrs  [][]ma.Multiaddr

	ctx    context.Context // the room's lifetime; Close cancels it
	cancel context.CancelFunc
	wg     sync.WaitGroup
	inbox  chan inbound
	ran    atomic.Bool

	// core is the replication state machine, owned by the Run goroutine
	// (and by OpenRoom before it).
	core *roomcore.Core

	mu sync.RWMutex // guards the fields below, read by sync handlers
	// log and states are the entries written to the state directory
	// (this seat's own ones synced: see driver.carry), and our state hash
	// after each: only those are served to anyone. log holds the latest
	// ones, from position logBase (see hotEntries); states every entry's
	// state hash.
	log     []*ledger.Entry
	logBase uint64
	states  []ledger.Hash
	// changed is closed (and replaced) when the log grows or the game
	// ends here (finished): spectators wait on it.
	changed  chan struct{}
	finished bool
	// spectators is how many spectators are being served.
	spectators int
	streams    map[network.Stream]struct{}
	closed     bool
	// verdict is the verdict that ended this table, once there is one:
	// sync answers carry it, so that a peer that was away learns it.
	verdict *Verdict
	// confirmed is the core's: for each seat, one past the last position
	// after which it reported the same state hash as ours (Held).
	confirmed []uint64

	// Owned by the Run goroutine.
	runCtx  context.Context
	senders []*sender
	// syncing[s] is when the sync request to seat s in flight was made
	// (Unix nanoseconds; 0: none), see startSync.
	syncing []atomic.Int64

	// chat is the table chat (its own protocol).
	chat *chatproto.Table
	// fwd is the state for the seats reached through a forwarder
	// (forward.go), made on first use; guarded by mu.
	fwd *roomForward
}

// inbound is what reaches the Run goroutine: a frame from a seat, the end
// of a sync answer, a timer or a wake.
type inbound struct {
	seat  uint8
	msg   *message
	asked time.Time // msgSynced: when the sync request was made
	// at is when the message reached this node (deliver): the inbox may
	// hold it a while before Run handles it.
	at    time.Time
	timer *roomcore.Timer // a core timer ran out (msg is nil)
}

// msgWake is an internal inbox message, never on the wire: something Run
// may wait for changed (the chat has delivered this seat's messages).
const msgWake = 254

// msgSynced is an internal inbox message, never on the wire: a sync
// answer ended (after the entries it brought); From is the server's log
// length, inbound.asked when the request was made.
const msgSynced = 253

// OpenRoom checks the stored roster, replays the stored log through
// cfg.Replica, and registers the room so that peers' streams reach it.
func (n *Node) OpenRoom(cfg RoomConfig) (*Room, error) {
	if cfg.Store == nil || cfg.Replica == nil || cfg.Author == nil {
		return nil, errors.New("p2p: RoomConfig needs Store, Replica and Author")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 500 * time.Millisecond
	}
	if cfg.EndWait <= 0 {
		cfg.EndWait = 10 * cfg.Tick
	}
	t := cfg.Store.Table()
	game, err := t.Roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	r := &Room{
		node: n, cfg: cfg, roster: t.Roster, game: game, self: 255,
		inbox:     make(chan inbound, inboxSize),
		streams:   make(map[network.Stream]struct{}),
		changed:   make(chan struct{}),
		confirmed: make([]uint64, len(t.Roster.Seats)),
		syncing:   make([]atomic.Int64, len(t.Roster.Seats)),
	}
	msg := ledger.RosterSigningBytes(game)
	for i, s := range t.Roster.Seats {
		id, err := seatPeerID(s)
		if err != nil {
			return nil, fmt.Errorf("p2p: roster seat %d: %w", i, err)
		}
		if !ed25519.Verify(s.SignKey, msg, t.Sigs[i][:]) {
			return nil, fmt.Errorf("p2p: roster seat %d (%s): bad roster signature", i, s.Name)
		}
		if id == n.ID() {
			r.self = uint8(i)
		}
		r.peers = append(r.peers, id)
		r.keys = append(r.keys, s.SignKey)
		r.addrs = append(r.addrs, parseAddrs(t.Addrs[i]))
	}
	if r.self == 255 {
		return nil, fmt.Errorf("p2p: this node (%s) has no seat in the roster", n.ID())
	}
	stored, err := cfg.Store.Entries()
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	r.core, err = roomcore.New(roomcore.Config{
		Roster: t.Roster, Self: r.self, SignKey: n.id.SigningKey(), Replica: cfg.Replica,
		Timeout: cfg.Timeout, Tick: cfg.Tick, EndWait: cfg.EndWait, Signed: cfg.Store.Signed(),
		ChatIdle: r.chatIdle, Log: n.log, Read: cfg.Store.Read,
	}, stored)
	if err != nil {
		return nil, err
	}
	entries, states := r.core.Log()
	// The entries replayed from the store stay there (read back when a
	// peer or the transcript asks for them); only their state hashes are
	// kept.
	r.logBase, r.states = uint64(len(entries)), slices.Clone(states)
	r.initChat(cfg.Chat)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.rooms[game] != nil {
		r.cancel()
		r.chat.Close()
		return nil, fmt.Errorf("p2p: game %x is already open", game[:4])
	}
	n.rooms[game] = r
	close(n.roomOpened)
	n.roomOpened = make(chan struct{})
	return r, nil
}

// seatPeerID decodes a seat's peer id and checks that it is the identity of
// the seat's signing key: one key per player.
func seatPeerID(s ledger.SeatInfo) (peer.ID, error) {
	id, err := peer.IDFromBytes(s.PeerID)
	if err != nil {
		return "", fmt.Errorf("peer id: %w", err)
	}
	pub, err := id.ExtractPublicKey()
	if err != nil {
		return "", fmt.Errorf("peer id %s: %w", id, err)
	}
	raw, err := pub.Raw()
	if err != nil || !bytes.Equal(raw, s.SignKey) {
		return "", fmt.Errorf("peer id %s is not the identity of the signing key", id)
	}
	return id, nil
}

func parseAddrs(raw [][]byte) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, b := range raw {
		if a, err := ma.NewMultiaddrBytes(b); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// GameID is the hash of the room's roster.
func (r *Room) GameID() ledger.Hash { return r.game }

// Seat is the local seat.
func (r *Room) Seat() uint8 { return r.self }

// Roster is the roster every seat signed.
func (r *Room) Roster() *ledger.Roster { return r.roster }

// Log returns a copy of the accepted entries (those synced to the state
// directory).
// directory), the older ones read back from it.
func (r *Room) Log() ([]*ledger.Entry, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.entriesLocked(0, uint64(r.end()))
}

// end is the length of the game's log (see [roomcore.End]). Callers hold
// r.mu.
func (r *Room) end() int { return roomcore.End(r.verdict, int(r.logLen())) }

// logLen is the number of entries written. Callers hold r.mu.
func (r *Room) logLen() uint64 { return r.logBase + uint64(len(r.log)) }

// hotEntries is how many of the latest written entries a room keeps in
// memory to answer the peers that fetch them as they come; older ones
// are read back from the state directory (issue 28).
const hotEntries = 64

// entriesLocked returns the written entries from up to to, those older
// than the hot ones read from the store. Callers hold r.mu.
func (r *Room) entriesLocked(from, to uint64) ([]*ledger.Entry, error) {
	if from >= to {
		return nil, nil
	}
	var out []*ledger.Entry
	if from < r.logBase {
		old, err := r.cfg.Store.Read(from, min(to, r.logBase))
		if err != nil {
			return nil, fmt.Errorf("p2p: %w", err)
		}
		out, from = old, min(to, r.logBase)
	}
	return append(out, r.log[from-r.logBase:to-r.logBase]...), nil
}

// keepHot drops all but the latest hotEntries entries from memory (they
// are in the store). Callers hold r.mu.
func (r *Room) keepHot() {
	if len(r.log) < 2*hotEntries {
		return
	}
	drop := len(r.log) - hotEntries
	r.log = append([]*ledger.Entry(nil), r.log[drop:]...)
	r.logBase += uint64(drop)
}

func (r *Room) seatOf(p peer.ID) (uint8, bool) {
	for i, id := range r.peers {
		if id == p && uint8(i) != r.self {
			return uint8(i), true
		}
	}
	return 0, false
}

func (r *Room) track(s network.Stream) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.streams[s] = struct{}{}
	return true
}

func (r *Room) untrack(s network.Stream) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.streams, s)
}

// deliver hands a message to the room's goroutine; false once it is closed.
func (r *Room) deliver(m inbound) bool {
	if m.at.IsZero() {
		m.at = time.Now()
	}
	select {
	case r.inbox <- m:
		return true
	case <-r.ctx.Done():
		return false
	}
}

func (r *Room) entriesFrom(from uint64, max uint32) ([]*ledger.Entry, []ledger.Hash, uint64) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := r.logLen()
	if from >= n {
		return nil, nil, n
	}
	end := min(n, from+uint64(max))
	entries, err := r.entriesLocked(from, end)
	if err != nil {
		r.node.log.Warn("cannot answer a sync", "from", from, "err", err)
		return nil, nil, n
	}
	return entries, append([]ledger.Hash(nil), r.states[from:end]...), n
}

// Close unregisters the room, stops its streams and goroutines. It does not
// close the store.
func (r *Room) Close() error {
	r.node.mu.Lock()
	if r.node.rooms[r.game] == r {
		delete(r.node.rooms, r.game)
	}
	delete(r.node.expected, r.game)
	r.node.mu.Unlock()
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.waitSpectators()
	r.mu.Lock()
	for s := range r.streams {
		s.Reset()
	}
	r.mu.Unlock()
	r.cancel()
	r.chat.Close()
	r.wg.Wait()
	return nil
}

// authorResult is what the Author goroutine hands back to Run.
type authorResult struct {
	pos  uint64
	body []byte
	err  error
}

// Run plays the game: it authors the local seat's entries, accepts, echoes
// and persists everyone's, and returns when the replica says the game is
// over, when a verdict stops the table, or with an error on a local failure
// (ctx done, disk error, the local author's entry rejected by the local
// replica). Once the replica says the game is over here, its outcome
// stands: a verdict found then (an equivocation on a past entry) is
// reported in Outcome.Later once more than half the seats other than the
// one it names hold the same end, and ends the table only if they do not
// by RoomConfig.EndWait. Run may be called once. After it returns the room keeps
// answering peers' sync requests until [Room.Close].
func (r *Room) Run(ctx context.Context) (*Outcome, error) {
	if r.ran.Swap(true) {
		return nil, errors.New("p2p: Room.Run called twice")
	}
	defer r.finish()
	raw, err := r.cfg.Store.Verdict()
	if err != nil {
		return nil, err
	}
	if out, err := r.core.CheckStored(raw); err != nil {
		return nil, fmt.Errorf("p2p: the verdict in the state directory %s is refused (the directory was altered or damaged): %w", r.cfg.Store.Dir(), err)
	} else if out != nil {
		r.publish()
		return out, nil
	}
	runCtx, stopRun := context.WithCancel(r.ctx)
	defer stopRun()
	defer context.AfterFunc(ctx, stopRun)()
	r.runCtx = runCtx

	r.senders = make([]*sender, len(r.peers))
	// A fresh run (an empty log: every seat starts at about the same
	// time) dials the higher seats at once, and leaves the lower ones to
	// dial it (dialYield).
	entries, _ := r.core.Log()
	fresh := len(entries) == 0
	for i, p := range r.peers {
		if uint8(i) == r.self || r.forwarded(i) {
			continue
		}
		s := newSender(r, p, r.addrs[i])
		if fresh && i < int(r.self) {
			// One connection per pair: the lower seat dials (below).
			s.yieldUntil = time.Now().Add(dialYield)
		}
		r.senders[i] = s
		r.wg.Add(1)
		go func() { defer r.wg.Done(); s.run(runCtx) }()
	}
	if fresh {
		for i := int(r.self) + 1; i < len(r.peers); i++ {
			if r.senders[i] != nil {
				r.wg.Add(1)
				go func() { defer r.wg.Done(); r.senders[i].connect(runCtx) }()
			}
		}
	}
	defer r.drainSenders()
	// Hole punching may make a direct connection to a seat we reach
	// through a relay: the sender then moves its stream onto it.
	defer r.watchDirect()()

	d := &driver{r: r, ctx: runCtx, authored: make(chan authorResult, 1), stopStale: func() {}}
	var authorCtx context.Context
	authorCtx, d.stopAuthor = context.WithCancel(runCtx)
	d.authorCtx = authorCtx
	defer func() { d.stopStale(); d.stopAuthor(); d.authorWG.Wait() }()

	ticker := time.NewTicker(r.cfg.Tick)
	defer ticker.Stop()
	rd := r.core.Start(time.Now())
	for {
		if err := d.carry(rd); err != nil {
			return nil, err
		}
		if rd.Err != nil {
			// Keep what was received (a failed sync changes nothing).
			_ = d.sync()
			return nil, rd.Err
		}
		if rd.Outcome != nil {
			return rd.Outcome, nil
		}
		select {
		case <-runCtx.Done():
			if err := d.sync(); err != nil {
				return nil, err
			}
			return nil, closedError(ctx)
		case m := <-r.inbox:
			more := r.core.Step(r.input(m))
			for i := 1; more && i < maxBatch; i++ {
				select {
				case m = <-r.inbox:
					more = r.core.Step(r.input(m))
				default:
					more = false
				}
			}
		case res := <-d.authored:
			r.core.Step(roomcore.Input{Kind: roomcore.InAuthored, Now: time.Now(), Pos: res.pos, Body: res.body, Err: res.err})
		case now := <-ticker.C:
			r.core.Step(roomcore.Input{Kind: roomcore.InTick, Now: now})
		}
		rd = r.core.Ready()
	}
}

// maxBatch bounds the inbox messages handled before the entries they
// brought are synced to the state directory and sent.
const maxBatch = 64

// input is the core's input for an inbox message.
func (r *Room) input(m inbound) roomcore.Input {
	in := roomcore.Input{Now: time.Now(), Seat: m.seat, At: m.at}
	switch {
	case m.timer != nil:
		in.Kind, in.Timer = roomcore.InTimer, *m.timer
	case m.msg.Type == msgSynced:
		in.Kind, in.Asked, in.Length = roomcore.InSynced, m.asked, m.msg.From
	case m.msg.Type == msgWake:
		in.Kind = roomcore.InWake
	default:
		in.Kind, in.Msg = roomcore.InMsg, &m.msg.Msg
	}
	return in
}

// driver is the Run goroutine's state for carrying out Ready: the local
// author's goroutine and its cancellation.
type driver struct {
	r          *Room
	ctx        context.Context
	authored   chan authorResult
	authorCtx  context.Context
	stopAuthor context.CancelFunc
	stopStale  context.CancelFunc
	authorWG   sync.WaitGroup
	// unsynced: entries written to the store since its last sync.
	unsynced bool
}

// sync makes the entries written so far durable.
func (d *driver) sync() error {
	if !d.unsynced {
		return nil
	}
	if err := d.r.cfg.Store.Sync(); err != nil {
		return fmt.Errorf("p2p: %w", err)
	}
	d.unsynced = false
	return nil
}

// carry carries out rd (see [roomcore.Ready]); an error is a local
// failure (the state directory) that ends the run.
func (d *driver) carry(rd roomcore.Ready) error {
	r := d.r
	if rd.MarkSigned {
		if err := r.cfg.Store.MarkSigned(); err != nil {
			return fmt.Errorf("p2p: %w", err)
		}
	}
	own := false
	for _, e := range rd.Entries {
		if err := r.cfg.Store.Write(e); err != nil {
			return fmt.Errorf("p2p: %w", err)
		}
		d.unsynced = true
		own = own || e.Seat == r.self
	}
	// The log is synced before anything that reports it leaves this
	// seat: its own entry, an echo, a done or a verdict (every frame the
	// core sends), the verdict record, the end. Other seats' entries
	// that no frame reports yet wait for the next sync (issue 28: an
	// fsync per entry received was 6-10 % of a seat's CPU): a crash of
	// the machine may lose them, only other seats' signed entries this
	// seat never vouched for, which it fetches again from its peers
	// (TestLostUnsyncedEntriesNoBlame). Sync answers and spectators may
	// get them before: they are their authors' statements, not this
	// seat's.
	if own || len(rd.Frames) > 0 || rd.Save != nil || rd.Outcome != nil {
		if err := d.sync(); err != nil {
			return err
		}
	}
	if len(rd.Entries) > 0 {
		r.mu.Lock()
		r.log = append(r.log, rd.Entries...)
		r.keepHot()
		r.states = append(r.states, rd.States...)
		r.notifyLocked()
		r.mu.Unlock()
	}
	if rd.Save != nil {
		if err := r.cfg.Store.SaveVerdict(rd.Save); err != nil {
			return err
		}
	}
	r.publish()
	for _, f := range rd.Frames {
		r.broadcast(f)
	}
	if len(rd.Entries) > 0 && r.node.log.Enabled(d.ctx, slog.LevelDebug) {
		// When the entries are written here (synced to disk if a frame
		// reports them, see above) and their frames handed to the
		// senders: .ci/lanstats times an entry from its author's "entry
		// authored" to this line at every seat. The message keeps its
		// name, "entries durable", for the scripts that read it.
		r.node.log.Debug("entries durable", "from", rd.Entries[0].Pos, "to", rd.Entries[len(rd.Entries)-1].Pos,
			"t_us", time.Now().UnixMicro())
	}
	for _, s := range rd.Syncs {
		r.syncSeat(d.ctx, s.Seat, s.From)
	}
	for _, t := range rd.Timers {
		time.AfterFunc(t.After, func() { r.deliver(inbound{seat: t.Seat, timer: &t}) })
	}
	if rd.StopAuthor {
		d.stopStale()
	}
	if rd.Author {
		pos := rd.AuthorPos
		actx, stop := context.WithCancel(d.authorCtx)
		d.stopStale = stop
		d.authorWG.Add(1)
		go func() {
			defer d.authorWG.Done()
			body, err := r.cfg.Author(actx, pos)
			d.authored <- authorResult{pos, body, err}
		}()
	}
	for _, w := range rd.Waits {
		r.emitWait(w)
	}
	for _, pe := range rd.PeerErrors {
		r.node.peerError(r.peers[pe.Seat], pe.Err)
	}
	r.logMissingDones(rd.MissingDones)
	return nil
}

// publish copies what other goroutines read of the core: the verdict and
// the seats' confirmations.
func (r *Room) publish() {
	v, confirmed := r.core.Verdict(), r.core.Confirmed()
	r.mu.Lock()
	r.verdict, r.confirmed = v, confirmed
	r.mu.Unlock()
}

// notifyLocked wakes the spectators; callers hold r.mu.
func (r *Room) notifyLocked() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// finish marks the game over here (Run returned): spectators get the rest
// of the log, the verdict if any, and the end.
func (r *Room) finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = true
	r.notifyLocked()
}

// retired says whether the replica has seat retired ([Retirer]).
func (r *Room) retired(seat uint8) bool {
	rt, ok := r.cfg.Replica.(Retirer)
	return ok && rt.Retired(seat)
}

// logMissingDones logs, when EndWait ran out, each other seat whose done
// message did not come, and why as far as this seat can tell (see
// [roomcore.Core.MissingDones]), with whether it is connected.
func (r *Room) logMissingDones(missing []roomcore.MissingDone) {
	for _, m := range missing {
		connected := r.connected(m.Seat)
		r.node.log.Warn("game over; no done message from a seat", "seat", m.Seat, "entries", r.logLen(),
			"waited", r.cfg.EndWait, "connected", connected, "why", m.Why)
	}
}

// emitWait passes the core's wait to OnWait, with whether this node is
// connected to the seat waited for.
func (r *Room) emitWait(w roomcore.Wait) {
	if r.cfg.OnWait == nil {
		return
	}
	if !w.Local && int(w.Seat) < len(r.peers) {
		w.Connected = r.connected(w.Seat)
	}
	r.cfg.OnWait(w)
}

// Verdict returns the verdict that ended the table, or nil.
func (r *Room) Verdict() *Verdict {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.verdict
}

func (r *Room) broadcast(frame []byte) {
	for i := range r.senders {
		if uint8(i) != r.self {
			r.sendSeat(i, frame)
		}
	}
}

// drainSenders gives queued frames (the last entries, a verdict) a short
// chance to leave before the senders stop.
func (r *Room) drainSenders() {
	start := time.Now()
	defer func() {
		// The exit's second part (the first, the end handshake, is the
		// core's "left late"): a peer slow to read its log stream.
		if took := time.Since(start); took > time.Second {
			r.node.log.Warn("game over; draining the log streams took long", "took", took.Round(time.Millisecond))
		} else {
			r.node.log.Debug("log streams drained", "took", took, "t_us", time.Now().UnixMicro())
		}
	}()
	deadline := time.After(2 * time.Second)
	for _, s := range r.senders {
		if s != nil {
			s.drain()
		}
	}
	for _, s := range r.senders {
		if s == nil {
			continue
		}
		select {
		case <-s.done:
		case <-deadline:
			return
		}
	}
}

// closedError is why Run stops when its context ends: the caller's
// cancellation, or the room closing under it.
func closedError(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.New("p2p: room closed")
}

// Held says whether every other seat that has not retired ([Retirer])
// has reported our state hash after pos: they all hold the log up to pos.
// A seat whose own entry they all hold may stop (a retired seat leaving
// the game) without taking the entry with it. Safe for concurrent use.
func (r *Room) Held(pos uint64) bool {
	r.mu.RLock()
	confirmed := slices.Clone(r.confirmed)
	r.mu.RUnlock()
	for s := range uint8(len(confirmed)) {
		if s != r.self && confirmed[s] <= pos && !r.retired(s) {
			return false
		}
	}
	return true
}

// syncSeat asks seat, in the background, for the entries from position
// from on, unless a request to it is in flight (startSync).
func (r *Room) syncSeat(ctx context.Context, seat uint8, from uint64) {
	if r.forwardSync(seat, from) {
		return
	}
	i := int(seat)
	stamp, ok := r.startSync(i)
	if !ok {
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer r.endSync(i, stamp)
		if err := r.syncFrom(ctx, seat, from); err != nil && ctx.Err() == nil {
			r.node.log.Debug("sync failed", "peer", r.peers[i], "err", err)
		}
	}()
}

// startSync takes seat i's sync slot for a new request, made now: the
// slot is free, or its request has run for syncAnswerWait (one stuck
// dialling through a network outage; a fresh one goes beside it). It
// returns the stamp that frees the slot (endSync).
func (r *Room) startSync(i int) (int64, bool) {
	now := time.Now()
	if t := r.syncing[i].Load(); t != 0 && now.Sub(time.Unix(0, t)) < syncAnswerWait {
		return 0, false
	}
	stamp := now.UnixNano()
	r.syncing[i].Store(stamp)
	return stamp, true
}

// endSync frees seat i's sync slot, unless a newer request holds it.
func (r *Room) endSync(i int, stamp int64) { r.syncing[i].CompareAndSwap(stamp, 0) }

func (r *Room) syncFrom(ctx context.Context, seat uint8, from uint64) error {
	for {
		got, err := r.syncOnce(ctx, seat, from)
		if err != nil || got < maxSyncBatch {
			return err
		}
		from += got
	}
}

// syncAnswerWait is how long a sync request waits for the first frame of
// its answer before the connections to the peer are taken for stalled.
var syncAnswerWait = 5 * time.Second

// stalled closes the connections to a seat that did not start answering a
// sync request in syncAnswerWait, so that the next attempt dials afresh.
// A connection whose path went dark (a network outage of tens of seconds)
// may otherwise stay open, its transport retransmitting with a growing
// backoff, and take as long again to carry anything once the path is
// back: a fresh dial gets through within a round trip. Nothing is lost:
// the log streams on it are reopened and what they carried is repaired
// by sync, as after any dropped connection.
func (r *Room) stalled(seat uint8) {
	p := r.peers[seat]
	if len(r.node.host.Network().ConnsToPeer(p)) == 0 {
		return
	}
	r.node.log.Info("no answer to a sync request: reconnecting", "seat", seat, "peer", p, "waited", syncAnswerWait)
	r.node.host.Network().ClosePeer(p)
}

// isTimeout reports whether err is a deadline's (yamux and QUIC streams
// report theirs as a net.Error with Timeout).
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// syncOnce asks one peer for up to maxSyncBatch entries from position from
// and feeds them to the room.
func (r *Room) syncOnce(ctx context.Context, seat uint8, from uint64) (uint64, error) {
	h := r.node.host
	p := r.peers[seat]
	asked := time.Now()
	cctx, cancel := context.WithTimeout(allowLimited(ctx), 10*time.Second)
	defer cancel()
	if int(seat) < len(r.senders) && r.senders[seat] != nil {
		if err := r.senders[seat].awaitDial(cctx); err != nil {
			return 0, err
		}
	}
	if c := h.Network().Connectedness(p); c != network.Connected && c != network.Limited {
		r.node.clearBackoff(p)
		if err := h.Connect(cctx, peer.AddrInfo{ID: p, Addrs: r.addrs[seat]}); err != nil {
			return 0, err
		}
	}
	s, err := newStreamNow(cctx, h, p, ProtocolSync)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	defer context.AfterFunc(ctx, func() { s.Reset() })()
	s.SetDeadline(time.Now().Add(30 * time.Second))
	if err := WriteFrame(s, encodeSyncReq(r.game, from, maxSyncBatch)); err != nil {
		s.Reset()
		return 0, err
	}
	s.CloseWrite()
	// The answer starts at once (the server reads it from memory): none
	// within syncAnswerWait means the path to the peer is stalled.
	s.SetReadDeadline(time.Now().Add(syncAnswerWait))
	br := bufio.NewReader(s)
	got := uint64(0)
	for first := true; ; first = false {
		m, err := r.node.readMsg(br, s)
		if err != nil {
			s.Reset()
			if first && isTimeout(err) && ctx.Err() == nil {
				r.stalled(seat)
			}
			return got, err
		}
		if first {
			s.SetReadDeadline(time.Now().Add(30 * time.Second))
		}
		if m.Type == msgSyncEnd {
			if took := time.Since(asked); took > slowOpen {
				r.node.log.Info("sync answer slow", "seat", seat, "from", from, "entries", got, "took", took.Round(time.Millisecond),
					"asked_us", asked.UnixMicro())
			}
			// After the entries it brought: the server's log length, as
			// of a request made at asked.
			r.deliver(inbound{seat: seat, msg: &message{Msg: roomcore.Msg{Type: msgSynced, From: m.From}}, asked: asked})
			return got, nil
		}
		if m.Type == msgVerdict {
			// The peer's table has ended: its verdict comes after the
			// entries it holds.
			if !r.deliver(inbound{seat: seat, msg: m}) {
				s.Reset()
				return got, nil
			}
			continue
		}
		if m.Type != msgEntry || m.Entry.Pos != from+got {
			s.Reset()
			err := fmt.Errorf("sync answer: message type %d, position %d; want entry %d", m.Type, entryPos(m), from+got)
			r.node.peerError(p, err)
			return got, err
		}
		got++
		if !r.deliver(inbound{seat: seat, msg: m}) {
			s.Reset()
			return got, nil
		}
	}
}

func entryPos(m *message) uint64 {
	if m.Entry != nil {
		return m.Entry.Pos
	}
	return 0
}

// roomVerdict returns the verdict of the node's open room for game, if
// any (tests).
func (n *Node) roomVerdict(game ledger.Hash) (*Verdict, bool) {
	r := n.room(game)
	if r == nil {
		return nil, false
	}
	return r.Verdict(), true
}
