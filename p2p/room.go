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
	"github.com/masque-games/masque/p2p/store"
)

// Replica is the replicated state machine (the engine's table layer
// implements it). A Room calls it from one goroutine only.
type Replica interface {
	// Next reports the position and the seat that must author the next
	// entry; ok=false when the game is over.
	Next() (pos uint64, seat uint8, ok bool)
	// Apply validates e (already signature-checked by p2p, and chained onto
	// the previous entry) as entry number Next().pos and applies it. A
	// non-nil error means the author broke the rules: the table stops
	// with a verdict blaming e.Seat. Apply must leave the state unchanged
	// when it fails.
	Apply(e *ledger.Entry) error
	// StateHash is the hash of the state after the last applied entry.
	StateHash() ledger.Hash
}

// VerifiedApplier is a [Replica] that can apply an entry whose author's
// signature has already been checked against the roster (p2p checks every
// received entry's signature before it buffers it, and signs the local
// seat's own): a Room calls ApplyVerified instead of Apply when the
// replica has it, so that each signature is checked once. ApplyVerified
// must check everything Apply does but the signature.
type VerifiedApplier interface {
	ApplyVerified(e *ledger.Entry) error
}

// Retirer is a [Replica] whose seats may retire for good before the end
// of the game (Mafia: a seat out of the game that published its card key,
// whose part the table computes from then on; its program may stop). At
// the end a Room does not wait for a retired seat's state hash or done
// message: it counts them if they come, and does not list the seat as
// unconfirmed if they do not.
type Retirer interface {
	Retired(seat uint8) bool
}

// Author produces the local seat's next entry body when it is this seat's
// turn (a player's UI or a bot). It must return when ctx is done.
type Author func(ctx context.Context, pos uint64) (body []byte, err error)

// Wait describes whom the table is waiting for, for a countdown display.
type Wait struct {
	Pos    uint64
	Seat   uint8
	Local  bool          // the local seat must author Pos
	Waited time.Duration // since Pos became the next position here
	Left   time.Duration // until the timeout verdict; 0 when there is no limit
	// Connected: this node has a connection to the seat's peer (always
	// true for the local seat). A seat waited for that is not connected
	// may have stopped: its player can rejoin by starting it again.
	Connected bool
	// NoContactSince, when not zero, is when this peer last heard from
	// any seat other than the one waited for: it is cut off from the
	// table, and declares no timeout verdict (the silence may be its own)
	// until it hears from one again.
	NoContactSince time.Time
	// Checking: the local seat is due, but signed entries before in this
	// state directory and waits for the other seats to tell it what it
	// signed (its log may have lost some), so as never to sign a position
	// twice. It signs nothing until one answers.
	Checking bool
}

// ErrNoContact is wrapped by [Room.Run]'s error when this peer heard from
// no seat for three times the table's timeout while waiting: it blames
// nobody (see [Wait.NoContactSince]).
var ErrNoContact = errors.New("no contact with any seat")

// contactWindow is how recently a peer must have heard from another seat
// to trust that a silent seat is silent for everyone, not only for it: a
// stalled room asks every seat for entries every two ticks, and each
// answer is contact.
func (r *Room) contactWindow() time.Duration { return 20 * r.cfg.Tick }

// contact records that seat was heard from now.
func (r *Room) contact(seat uint8) {
	if int(seat) < len(r.heard) {
		r.heard[seat].Store(time.Now().UnixNano())
	}
}

// cutOff reports whether this peer has heard from no seat other than
// itself and due within the contact window, and since when. At a table
// with no such seat (two seats) it is never cut off: the due seat's
// silence is all there is to go by.
func (r *Room) cutOff(now time.Time, due uint8) (since time.Time, cut bool) {
	var last int64
	others := 0
	for i := range r.heard {
		if uint8(i) == r.self || uint8(i) == due {
			continue
		}
		others++
		last = max(last, r.heard[i].Load())
	}
	if others == 0 {
		return time.Time{}, false
	}
	since = time.Unix(0, last)
	return since, now.Sub(since) > r.contactWindow()
}

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
	// game may bar some seats, e.g. the dead of a Mafia game): its
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

// Outcome is how a room's game ended.
type Outcome struct {
	// Verdict is nil when the game ran to its end (Replica.Next said so).
	Verdict *Verdict
	// Entries is the length of the log.
	Entries uint64
	// StateHash is the replica's final state hash.
	StateHash ledger.Hash
	// Unconfirmed lists, for a game that ran to its end in this Run, the
	// seats whose state hash after the last entry did not arrive within
	// RoomConfig.EndWait (a peer gone or unreachable): their replicas may
	// disagree with ours on the final state.
	Unconfirmed []uint8
	// Later are the verdicts found after this peer had the game's last
	// entry (a seat that signs another version of one of its past
	// entries once it has lost): the finished game's outcome stands, and
	// they are reported beside it, not stored. See [Room.Run].
	Later []*Verdict
}

// Limits of the replication protocol.
const (
	maxAhead     = 512 // positions beyond the next one buffered from early arrivals (a sync answer's worth)
	maxSyncBatch = 512 // entries per sync answer
	// maxPendingBytes bounds the bodies of one author's entries buffered
	// ahead of the next position: an honest seat's entries are a few
	// hundred bytes (moves), a few KiB (shares among 13 seats) or about
	// 20 KiB (a 64-card shuffle), and a whole 13-seat game's log is
	// about 123 KiB, so 4 MiB is never reached honestly; a seat that
	// signs 512 future entries of 1 MiB each no longer makes every peer
	// hold 512 MiB. The entry due next is always taken.
	maxPendingBytes = 4 << 20
	inboxSize       = 256
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

	mu  sync.RWMutex // guards the fields below, read by sync handlers
	log []*ledger.Entry
	// durable is how many entries of log are synced to the state
	// directory: only those are sent or served to anyone.
	durable int
	// changed is closed (and replaced) when durable grows or the game
	// ends here (finished): spectators wait on it.
	changed  chan struct{}
	finished bool
	// spectators is how many spectators are being served.
	spectators int
	hashes     []ledger.Hash // hashes[i] = log[i].Hash()
	states     []ledger.Hash // states[i] = state hash after log[i]
	streams    map[network.Stream]struct{}
	closed     bool
	// verdict is the verdict that ended this table, once there is one:
	// sync answers carry it, so that a peer that was away learns it.
	verdict *Verdict

	// Owned by the Run goroutine.
	runCtx  context.Context
	pending map[uint64]map[uint8]*ledger.Entry
	// unsent are the entries applied and written since the last sync of
	// the state directory: flush syncs them once, then sends them.
	unsent []*ledger.Entry
	// conflict: a seat echoed another entry hash than ours for a position
	// we hold; its entries are being fetched (an equivocation proves
	// itself). Meanwhile an entry that does not chain onto our log is held,
	// not judged: it may chain onto the other entry.
	conflict bool
	// fetchArmed: a delayed check for an entry peers echoed and we miss
	// is scheduled (see onEcho).
	fetchArmed bool
	// dones are the seats' done messages (the end of the game as they
	// have it), sentDone whether ours went out.
	dones    map[uint8]echoReport
	sentDone bool
	// echo is the latest echo not yet sent (nil: none), echoArmed whether
	// its msgEchoFlush is scheduled.
	echo      []byte
	echoArmed bool
	// pendingBytes[s] is the size of seat s's entries in pending.
	pendingBytes []int
	reports      map[uint64]map[uint8]echoReport
	// disagree[pos] are the seats whose state hash after pos differs
	// from ours.
	disagree map[uint64]map[uint8]bool
	// confirmed[s] is one past the last position after which seat s
	// reported the same state hash as ours (a seat's reports arrive in
	// order on its stream, each compared as it comes). Written under mu
	// (Held reads it from other goroutines).
	confirmed []uint64
	// waitPos is the position the table waits at, since waitSince: the
	// local timer behind timeout verdicts, ours and the peers' we adopt.
	waitPos   uint64
	waitSince time.Time
	// lateTimeouts[pos] are the seats that declared the seat due at pos
	// silent there when this peer already holds that entry (it authored
	// it, or got it, after they stopped waiting): see onVerdict.
	lateTimeouts map[uint64]map[uint8]bool
	// statements[s] is seat s's own signed word that it stopped, its
	// replica disagreeing with more than half the table (a divergence verdict
	// naming its declarer): a timeout of s ends the table with it
	// instead, blaming nobody (see timeout).
	statements []*Verdict
	// held are verdicts found after the game's last entry, waiting for
	// more than half the seats but the one they name to hold the end;
	// later those reported beside the finished game (Outcome.Later). See
	// afterEnd.
	held, later []*Verdict
	senders     []*sender
	// syncing[s] is when the sync request to seat s in flight was made
	// (Unix nanoseconds; 0: none), see startSync.
	syncing []atomic.Int64
	// peerLogs[s] is what this peer knows of seat s's log, heldPos and
	// heldSince when a seat first reported holding the entry waited for
	// (see comeback.go).
	peerLogs  []peerLog
	heldPos   uint64
	heldSince time.Time
	// runStart is when Run started; checkFirst: the local seat signed
	// entries in this state directory before, and asks the other seats
	// for the log before it signs again (mayAuthor); checking: it is
	// waiting for their answers.
	runStart   time.Time
	checkFirst bool
	checking   bool
	// heard[s] is when seat s was last heard from (any frame, or a sync
	// answered), in Unix nanoseconds; 0 before Run.
	heard []atomic.Int64

	chat chatState
}

type inbound struct {
	seat  uint8
	msg   *message
	asked time.Time // msgSynced: when the sync request was made
}

// echoReport is what a seat reported about a position: the hash of the
// entry it holds there and its state hash after it (for a done message:
// Entry is unused, State the final state, and the map key the seat).
type echoReport struct {
	Entry, State ledger.Hash
	Len          uint64 // done: the log's length
}

// msgFetchCheck is an internal inbox message, never on the wire (0 is no
// message type): check whether the entry a seat echoed at position From
// is still missing, and fetch it from that seat.
const msgFetchCheck = 0

// fetchDelay is how long an entry that a peer has echoed may stay missing
// before it is fetched from that peer: the author's own copy is usually a
// moment behind the first echo, not lost.
const fetchDelay = 50 * time.Millisecond

// msgEchoFlush is an internal inbox message, never on the wire: the echo
// delay is over, broadcast the latest echo.
const msgEchoFlush = 255

// msgWake is an internal inbox message, never on the wire: something Run
// may wait for changed (the chat has delivered this seat's messages).
const msgWake = 254

// echoDelay is how long an echo waits before it is sent: a newer one
// replaces it meanwhile (it says as much about the log, whose entries
// chain, and reports a later state), so a fast table sends each peer a
// few echoes a second, not one per entry. It is sent at once before the
// local seat's own entry, done or verdict.
const echoDelay = 50 * time.Millisecond

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
		inbox:        make(chan inbound, inboxSize),
		streams:      make(map[network.Stream]struct{}),
		changed:      make(chan struct{}),
		pending:      make(map[uint64]map[uint8]*ledger.Entry),
		pendingBytes: make([]int, len(t.Roster.Seats)),
		reports:      make(map[uint64]map[uint8]echoReport),
		dones:        make(map[uint8]echoReport),
		disagree:     make(map[uint64]map[uint8]bool),
		confirmed:    make([]uint64, len(t.Roster.Seats)),
		lateTimeouts: make(map[uint64]map[uint8]bool),
		statements:   make([]*Verdict, len(t.Roster.Seats)),
		syncing:      make([]atomic.Int64, len(t.Roster.Seats)),
		peerLogs:     make([]peerLog, len(t.Roster.Seats)),
		heard:        make([]atomic.Int64, len(t.Roster.Seats)),
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
	if err := r.replay(cfg.Store.Entries()); err != nil {
		return nil, err
	}
	r.initChat(cfg.Chat)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.rooms[game] != nil {
		r.cancel()
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

// replay re-applies stored entries: signatures, chain and rules are checked
// again, so a tampered state directory is caught.
func (r *Room) replay(entries []*ledger.Entry) error {
	prev := r.game
	for _, e := range entries {
		pos, seat, ok := r.cfg.Replica.Next()
		if !ok || pos != e.Pos || seat != e.Seat {
			return fmt.Errorf("p2p: replay: stored entry %d by seat %d is not what the replica expects", e.Pos, e.Seat)
		}
		if e.Prev != prev {
			return fmt.Errorf("p2p: replay: entry %d does not chain", e.Pos)
		}
		if err := e.VerifySignature(r.game, r.keys[e.Seat]); err != nil {
			return fmt.Errorf("p2p: replay: %w", err)
		}
		if err := r.apply(e); err != nil {
			return fmt.Errorf("p2p: replay: entry %d: %w", e.Pos, err)
		}
		prev = e.Hash()
		r.log = append(r.log, e)
		r.hashes = append(r.hashes, prev)
		r.states = append(r.states, r.cfg.Replica.StateHash())
	}
	r.durable = len(r.log)
	return nil
}

// apply applies an entry whose signature p2p has checked (or made):
// through ApplyVerified when the replica has it, so that the signature is
// not checked again.
func (r *Room) apply(e *ledger.Entry) error {
	if va, ok := r.cfg.Replica.(VerifiedApplier); ok {
		return va.ApplyVerified(e)
	}
	return r.cfg.Replica.Apply(e)
}

// GameID is the hash of the room's roster.
func (r *Room) GameID() ledger.Hash { return r.game }

// Seat is the local seat.
func (r *Room) Seat() uint8 { return r.self }

// Roster is the roster every seat signed.
func (r *Room) Roster() *ledger.Roster { return r.roster }

// Log returns a copy of the accepted entries.
func (r *Room) Log() []*ledger.Entry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*ledger.Entry(nil), r.log[:r.end()]...)
}

// end is the length of the game's log: all of it, but for a table a
// timeout verdict stopped at position p, whose log ends before p. An
// entry at p that reached this peer only (its author was late, or this
// peer is that author, back from a crash) is not part of the game: the
// seats that timed its author out never had it. Callers hold r.mu.
func (r *Room) end() int {
	if v := r.verdict; v != nil && v.Kind == VerdictTimeout && v.Pos < uint64(len(r.log)) {
		return int(v.Pos)
	}
	return len(r.log)
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
	r.contact(m.seat)
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
	n := uint64(r.durable)
	if from >= n {
		return nil, nil, n
	}
	end := min(n, from+uint64(max))
	return append([]*ledger.Entry(nil), r.log[from:end]...), append([]ledger.Hash(nil), r.states[from:end]...), n
}

// Close unregisters the room, stops its streams and goroutines. It does not
// close the store.
func (r *Room) Close() error {
	r.node.mu.Lock()
	if r.node.rooms[r.game] == r {
		delete(r.node.rooms, r.game)
	}
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
	if v, err := r.storedVerdict(); err != nil {
		return nil, err
	} else if v != nil {
		return r.outcome(v), nil
	}
	runCtx, stopRun := context.WithCancel(r.ctx)
	defer stopRun()
	defer context.AfterFunc(ctx, stopRun)()
	r.runCtx = runCtx

	r.senders = make([]*sender, len(r.peers))
	for i, p := range r.peers {
		if uint8(i) == r.self {
			continue
		}
		s := newSender(r, p, r.addrs[i])
		r.senders[i] = s
		r.wg.Add(1)
		go func() { defer r.wg.Done(); s.run(runCtx) }()
	}
	defer r.drainSenders()
	// Hole punching may make a direct connection to a seat we reach
	// through a relay: the sender then moves its stream onto it.
	defer r.watchDirect()()

	authored := make(chan authorResult, 1)
	authorCtx, stopAuthor := context.WithCancel(runCtx)
	var authorWG sync.WaitGroup
	defer func() { stopAuthor(); authorWG.Wait() }()
	authoring := false

	ticker := time.NewTicker(r.cfg.Tick)
	defer ticker.Stop()
	r.waitPos, r.waitSince = ^uint64(0), time.Now()
	lastSync := time.Now()
	var lastCutLog time.Time
	for i := range r.heard {
		// Every seat counts as heard from when the run starts.
		r.heard[i].CompareAndSwap(0, lastSync.UnixNano())
	}
	r.syncAll(runCtx, r.next(), nil)
	r.runStart, r.checkFirst = lastSync, r.cfg.Store.Signed()
	var authorPos uint64
	stopStale := func() {}
	defer func() { stopStale() }()
	// The game's last entry, once applied in this run, is followed by a
	// wait for every seat's state hash after it (EndWait).
	start := r.next()
	var over time.Time

	for {
		pos, seat, ok := r.cfg.Replica.Next()
		if !ok {
			// The end: every seat echoes the last entry (its state hash
			// after it); a seat that has every other seat's echo says
			// done; a seat leaves once every other seat said done, so
			// that no one still needs it. Seats silent at EndWait are
			// listed as unconfirmed.
			r.settle()
			missing := r.unconfirmed()
			if r.next() == start {
				// Only a replay of a finished log: tell waiting peers.
				r.sendDone()
				return r.outcome(nil), nil
			}
			if len(missing) == 0 && r.chatIdle() {
				r.sendDone()
				if r.allDone() {
					return r.outcome(nil), nil
				}
			}
			if over.IsZero() {
				over = time.Now()
			}
			var v *Verdict
			var err error
			select {
			case <-runCtx.Done():
				return nil, closedError(ctx)
			case m := <-r.inbox:
				v, err = r.handleBatch(m)
			case <-authored:
				// Not expected: the game ended while the local seat was
				// not due. Nothing to sign.
				authoring = false
			case now := <-ticker.C:
				if now.Sub(over) >= r.cfg.EndWait {
					if len(r.held) > 0 {
						// A seat that never confirmed the end may
						// have stopped on this verdict before it.
						return r.conclude(r.held[0])
					}
					if len(missing) > 0 {
						r.node.log.Warn("game over; no state hash after the last entry from some seats", "seats", missing)
					}
					out := r.outcome(nil)
					out.Unconfirmed = missing
					return out, nil
				}
				if now.Sub(lastSync) >= 2*r.cfg.Tick {
					// Their echoes, or done messages, may have been lost:
					// a sync answer carries the server's state hash.
					lastSync = now
					if len(missing) > 0 {
						r.syncAll(runCtx, r.next()-1, missing)
					} else if r.sentDone {
						r.sentDone = false
						r.sendDone()
					}
				}
			}
			if ferr := r.flush(); ferr != nil && err == nil {
				err = ferr
			}
			if err != nil {
				return nil, err
			}
			if v != nil {
				r.afterEnd(v)
			}
			continue
		}
		if next := r.next(); pos != next {
			return nil, fmt.Errorf("p2p: replica expects position %d, log has %d entries", pos, next)
		}
		if int(seat) >= len(r.peers) {
			return nil, fmt.Errorf("p2p: replica expects seat %d at position %d; roster has %d seats", seat, pos, len(r.peers))
		}
		if authoring && authorPos < pos {
			// The table moved past the position being authored (this
			// seat's own entry, signed before, came from a peer).
			stopStale()
		}
		r.checking = seat == r.self && !authoring && !r.mayAuthor(runCtx, pos, time.Now())
		if seat == r.self && !authoring && !r.checking {
			authoring, authorPos = true, pos
			actx, stop := context.WithCancel(authorCtx)
			stopStale = stop
			authorWG.Add(1)
			go func() {
				defer authorWG.Done()
				body, err := r.cfg.Author(actx, pos)
				authored <- authorResult{pos, body, err}
			}()
		}
		if pos != r.waitPos {
			r.waitPos, r.waitSince = pos, time.Now()
			r.emitWait(pos, seat, r.waitSince)
		}
		var v *Verdict
		var err error
		select {
		case <-runCtx.Done():
			return nil, closedError(ctx)
		case m := <-r.inbox:
			v, err = r.handleBatch(m)
		case res := <-authored:
			authoring = false
			if res.pos != r.next() {
				// The entry came from a peer meanwhile (issue 29): the
				// author's answer, or its error, is moot.
				continue
			}
			if res.err != nil {
				return nil, fmt.Errorf("p2p: author of position %d: %w", res.pos, res.err)
			}
			if err := r.cfg.Store.MarkSigned(); err != nil {
				return nil, fmt.Errorf("p2p: %w", err)
			}
			r.traceEntry("entry authored", res.pos, r.self)
			e := &ledger.Entry{Pos: res.pos, Seat: r.self, Prev: r.prevHash(), Body: res.body}
			e.Sign(r.game, r.node.id.SigningKey())
			v, err = r.onEntry(-1, e, ledger.Hash{}, false)
		case now := <-ticker.C:
			r.emitWait(pos, seat, r.waitSince)
			if seat != r.self && r.cfg.Timeout > 0 && now.Sub(r.waitSince) >= r.cfg.Timeout {
				if since, cut := r.cutOff(now, seat); cut {
					// Cut off from every seat: the due seat's silence
					// may be ours. Blame nobody; give up only after
					// long.
					if now.Sub(since) >= 3*r.cfg.Timeout {
						return nil, fmt.Errorf("p2p: %w since %s (%v), waiting for seat %d at entry %d",
							ErrNoContact, since.Format(time.TimeOnly), now.Sub(since).Round(time.Second), seat, pos)
					}
					if now.Sub(lastCutLog) >= 10*time.Second {
						lastCutLog = now
						r.node.log.Info("no contact with any seat: no timeout verdict", "since", since, "seat", seat, "pos", pos)
					}
				} else if !r.mayDeclare(runCtx, pos, now) {
					// The entry may exist: asked for, not declared.
				} else if v, err = r.timeout(pos, seat, now.Sub(r.waitSince)); err != nil {
					return nil, err
				}
			}
			if err := r.checkTooLong(now, pos); err != nil {
				return nil, err
			}
			if (seat != r.self || r.checking) && now.Sub(r.waitSince) >= 2*r.cfg.Tick && now.Sub(lastSync) >= 2*r.cfg.Tick && v == nil {
				lastSync = now
				r.syncAll(runCtx, r.next(), nil)
			}
		}
		if ferr := r.flush(); ferr != nil && err == nil {
			err = ferr
		}
		if err != nil {
			return nil, err
		}
		if _, _, more := r.cfg.Replica.Next(); v != nil && !more {
			// Found in the batch that brought the game's last entry.
			r.afterEnd(v)
		} else if v != nil {
			return r.conclude(v)
		}
	}
}

// maxBatch bounds the inbox messages handled before the entries they
// brought are synced to the state directory and sent.
const maxBatch = 64

// handleBatch handles m and whatever else is waiting in the inbox (up to
// maxBatch messages), so that the entries they bring are made durable by
// one sync (flush).
func (r *Room) handleBatch(m inbound) (*Verdict, error) {
	for i := 1; ; i++ {
		v, err := r.handle(m)
		if v != nil || err != nil || i == maxBatch {
			return v, err
		}
		select {
		case m = <-r.inbox:
		default:
			return nil, nil
		}
	}
}

// flush makes the entries applied since the last flush durable with one
// sync of the state directory, and only then sends them: the local
// seat's own entries whole (with our state hash after each), every other
// seat's as an echo (position, entry hash, state hash). A peer missing an
// entry fetches it from a seat that echoed it.
func (r *Room) flush() error {
	if len(r.unsent) == 0 {
		return nil
	}
	if err := r.cfg.Store.Sync(); err != nil {
		return fmt.Errorf("p2p: %w", err)
	}
	r.mu.Lock()
	r.durable = len(r.log)
	r.notifyLocked()
	r.mu.Unlock()
	for _, e := range r.unsent {
		r.mu.RLock()
		state, hash := r.states[e.Pos], r.hashes[e.Pos]
		r.mu.RUnlock()
		if e.Seat == r.self {
			if frame, err := encodeEntryMsg(e, state); err == nil {
				r.sendEcho()
				r.broadcast(frame)
			}
		} else {
			r.echo = encodeEcho(e.Pos, hash, state)
			if !r.echoArmed {
				r.echoArmed = true
				time.AfterFunc(echoDelay, func() { r.deliver(inbound{msg: &message{Type: msgEchoFlush}}) })
			}
		}
	}
	r.unsent = r.unsent[:0]
	return nil
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

// sendEcho broadcasts the latest echo, if it has not gone yet.
func (r *Room) sendEcho() {
	if r.echo != nil {
		r.broadcast(r.echo)
		r.echo = nil
	}
}

// sendDone tells every other seat, once, that the game is over here
// with this log and final state.
func (r *Room) sendDone() {
	if r.sentDone || r.next() == 0 {
		return
	}
	r.sentDone = true
	r.sendEcho()
	r.mu.RLock()
	n := len(r.log)
	state := r.states[n-1]
	r.mu.RUnlock()
	r.broadcast(encodeDone(uint64(n), state))
}

// retired says whether the replica has seat retired ([Retirer]).
func (r *Room) retired(seat uint8) bool {
	rt, ok := r.cfg.Replica.(Retirer)
	return ok && rt.Retired(seat)
}

// allDone says whether every other seat has said done with our log's
// length and our final state.
func (r *Room) allDone() bool {
	next := r.next()
	r.mu.RLock()
	state := r.states[next-1]
	r.mu.RUnlock()
	for s := range uint8(len(r.peers)) {
		if s == r.self {
			continue
		}
		d, ok := r.dones[s]
		if !ok && r.retired(s) {
			continue
		}
		if !ok || d.Len != next || d.State != state {
			return false
		}
	}
	return true
}

func (r *Room) emitWait(pos uint64, seat uint8, since time.Time) {
	if r.cfg.OnWait == nil {
		return
	}
	w := Wait{Pos: pos, Seat: seat, Local: seat == r.self, Waited: time.Since(since), Connected: seat == r.self}
	w.Checking = w.Local && r.checking
	if !w.Local && int(seat) < len(r.peers) {
		w.Connected = r.node.host.Network().Connectedness(r.peers[seat]) == network.Connected
		if last, cut := r.cutOff(time.Now(), seat); cut {
			w.NoContactSince = last
		}
	}
	if r.cfg.Timeout > 0 {
		w.Left = max(0, r.cfg.Timeout-w.Waited)
	}
	r.cfg.OnWait(w)
}

func (r *Room) next() uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return uint64(len(r.log))
}

func (r *Room) prevHash() ledger.Hash {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.hashes) == 0 {
		return r.game
	}
	return r.hashes[len(r.hashes)-1]
}

func (r *Room) outcome(v *Verdict) *Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v != nil {
		r.verdict = v
	}
	out := &Outcome{Verdict: v, Entries: uint64(r.end()), StateHash: r.cfg.Replica.StateHash(), Later: slices.Clone(r.later)}
	if n := r.end(); n < len(r.log) && n > 0 {
		out.StateHash = r.states[n-1]
	}
	return out
}

// Verdict returns the verdict that ended the table, or nil.
func (r *Room) Verdict() *Verdict {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.verdict
}

// conclude stores and announces a verdict.
func (r *Room) conclude(v *Verdict) (*Outcome, error) {
	enc, err := v.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("p2p: verdict: %w", err)
	}
	if err := r.cfg.Store.SaveVerdict(enc); err != nil {
		return nil, err
	}
	if frame, err := encodeVerdictMsg(v); err == nil {
		r.sendEcho()
		r.broadcast(frame)
	}
	return r.outcome(v), nil
}

func (r *Room) broadcast(frame []byte) {
	for _, s := range r.senders {
		if s != nil {
			s.send(frame)
		}
	}
}

// drainSenders gives queued frames (the last entries, a verdict) a short
// chance to leave before the senders stop.
func (r *Room) drainSenders() {
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

func (r *Room) handle(m inbound) (*Verdict, error) {
	switch m.msg.Type {
	case msgEntry:
		// An all-zero state hash means the sender reports none (it relays
		// an entry it has not applied).
		return r.onEntry(int(m.seat), m.msg.Entry, m.msg.State, m.msg.State != ledger.Hash{})
	case msgVerdict:
		return r.onVerdict(m.seat, m.msg.Verdict)
	case msgEcho:
		return r.onEcho(m.seat, m.msg.Pos, m.msg.Hash, m.msg.State)
	case msgDone:
		return nil, r.onDone(m.seat, m.msg.Pos, m.msg.State)
	case msgSynced:
		r.onSynced(m.seat, m.msg.From, m.asked)
	case msgEchoFlush:
		r.echoArmed = false
		r.sendEcho()
	case msgFetchCheck:
		r.fetchArmed = false
		if r.next() <= m.msg.Pos && !r.due() {
			r.syncAll(r.runCtx, r.next(), []uint8{m.seat})
		}
	}
	return nil, nil
}

// due says whether the entry the replica expects next is buffered.
func (r *Room) due() bool {
	pos, seat, ok := r.cfg.Replica.Next()
	return !ok || r.pending[pos][seat] != nil
}

// onEcho handles a seat's echo: it holds entry pos, whose hash is entry,
// and reached state after it. Another entry hash than ours makes us fetch
// that seat's entries (an equivocation proves itself); an echo of an
// entry we miss makes us fetch it from that seat, unless it arrives on its
// own within fetchDelay.
func (r *Room) onEcho(from uint8, pos uint64, entry, state ledger.Hash) (*Verdict, error) {
	next := r.next()
	if pos >= next+maxAhead {
		r.peerError(int(from), fmt.Errorf("echo of entry %d, more than %d positions ahead of %d", pos, maxAhead, next))
		return nil, nil
	}
	if err := r.report(int(from), pos, entry, state); err != nil {
		return nil, err
	}
	if pos >= next && !r.due() && !r.fetchArmed && r.runCtx != nil {
		r.fetchArmed = true
		check := inbound{seat: from, msg: &message{Type: msgFetchCheck, Pos: next}}
		time.AfterFunc(fetchDelay, func() { r.deliver(check) })
	}
	return nil, nil
}

// onDone records a seat's done: its log has length entries and ends in
// state, and it has every other seat's echo of the end.
func (r *Room) onDone(from uint8, length uint64, state ledger.Hash) error {
	r.dones[from] = echoReport{State: state, Len: length}
	r.claimAt(from, length-1)
	if length == r.next() {
		// A done is also an echo of the last entry's state.
		return r.report(int(from), length-1, r.hashAt(length-1), state)
	}
	return nil
}

// hashAt is the hash of log entry pos, which the log holds.
func (r *Room) hashAt(pos uint64) ledger.Hash {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.hashes[pos]
}

// conflictAt handles a seat that holds another entry than ours at pos
// (its echo's entry hash differs): it fetches that seat's entries from
// the last position they agreed on; the differing entry then proves an
// equivocation (or is dropped as a forgery) on the path every entry
// takes.
func (r *Room) conflictAt(seat uint8, pos uint64) {
	r.peerError(int(seat), fmt.Errorf("seat %d echoes another entry than this peer's at position %d; fetching its entries", seat, pos))
	r.conflict = true
	if r.runCtx != nil {
		r.syncAll(r.runCtx, min(pos, r.confirmed[seat]), []uint8{seat})
	}
}

func (r *Room) peerError(seat int, err error) {
	if seat >= 0 {
		r.node.peerError(r.peers[seat], err)
	}
}

// onEntry is the single path every entry takes, the local author's
// included (from = -1). It returns a verdict when the entry proves one.
func (r *Room) onEntry(from int, e *ledger.Entry, state ledger.Hash, hasState bool) (*Verdict, error) {
	if int(e.Seat) >= len(r.peers) {
		r.peerError(from, fmt.Errorf("entry %d names seat %d; the table has %d", e.Pos, e.Seat, len(r.peers)))
		return nil, nil
	}
	next := r.next()
	if e.Pos < next {
		r.mu.RLock()
		have, haveHash := r.log[e.Pos], r.hashes[e.Pos]
		r.mu.RUnlock()
		if e.Hash() == haveHash {
			if hasState {
				return nil, r.report(from, e.Pos, haveHash, state)
			}
			return nil, nil
		}
		if err := e.VerifySignature(r.game, r.keys[e.Seat]); err != nil {
			r.peerError(from, err)
			return nil, nil
		}
		if have.Seat == e.Seat {
			return r.equivocation(have, e)
		}
		r.peerError(from, fmt.Errorf("entry %d signed by seat %d, which was not its author", e.Pos, e.Seat))
		return nil, nil
	}
	if e.Pos >= next+maxAhead {
		r.peerError(from, fmt.Errorf("entry %d is more than %d positions ahead of %d", e.Pos, maxAhead, next))
		return nil, nil
	}
	at := r.pending[e.Pos]
	if old := at[e.Seat]; old != nil {
		if old.Hash() == e.Hash() {
			if hasState {
				return nil, r.report(from, e.Pos, old.Hash(), state)
			}
			return nil, nil
		}
		if err := e.VerifySignature(r.game, r.keys[e.Seat]); err != nil {
			r.peerError(from, err)
			return nil, nil
		}
		return r.equivocation(old, e)
	}
	if from >= 0 {
		if err := e.VerifySignature(r.game, r.keys[e.Seat]); err != nil {
			r.peerError(from, err)
			return nil, nil
		}
	}
	if size := pendingSize(e); e.Pos != next && r.pendingBytes[e.Seat]+size > maxPendingBytes {
		r.peerError(from, fmt.Errorf("entry %d by seat %d dropped: %d bytes of that seat's entries are already waiting ahead of position %d (limit %d); it is fetched again when due",
			e.Pos, e.Seat, r.pendingBytes[e.Seat], next, maxPendingBytes))
		return nil, nil
	}
	if at == nil {
		at = make(map[uint8]*ledger.Entry)
		r.pending[e.Pos] = at
	}
	at[e.Seat] = e
	r.pendingBytes[e.Seat] += pendingSize(e)
	if hasState {
		if err := r.report(from, e.Pos, e.Hash(), state); err != nil {
			return nil, err
		}
	}
	return r.advance()
}

// advance applies buffered entries for as long as the next expected one is
// there.
func (r *Room) advance() (*Verdict, error) {
	for {
		pos, seat, ok := r.cfg.Replica.Next()
		if !ok {
			return nil, nil
		}
		e := r.pending[pos][seat]
		if e == nil {
			return nil, nil
		}
		reason := ""
		if e.Prev != r.prevHash() {
			if r.conflict && e.Seat != r.self {
				// A seat holds another entry than ours before this one,
				// and its entries are being fetched: this one may chain
				// onto that entry. It is judged once the conflict is
				// resolved (an equivocation verdict), or its author times
				// out.
				return nil, nil
			}
			reason = "previous hash does not match the log"
		} else if err := r.apply(e); err != nil {
			reason = err.Error()
		}
		r.dropPending(pos)
		if reason != "" {
			if e.Seat == r.self {
				return nil, fmt.Errorf("p2p: the local author's entry %d was rejected: %s", pos, reason)
			}
			v := &Verdict{Kind: VerdictInvalidEntry, Game: r.game, Pos: pos, Seat: e.Seat,
				Reason: reason, Evidence: []*ledger.Entry{e}, Declarer: r.self}
			if err := v.Sign(r.node.id.SigningKey()); err != nil {
				return nil, err
			}
			return v, nil
		}
		r.traceEntry("entry applied", pos, e.Seat)
		state := r.cfg.Replica.StateHash()
		// Written now, synced and sent by flush once the batch is done.
		if err := r.cfg.Store.Write(e); err != nil {
			return nil, fmt.Errorf("p2p: %w", err)
		}
		hash := e.Hash()
		r.mu.Lock()
		r.log = append(r.log, e)
		r.hashes = append(r.hashes, hash)
		r.states = append(r.states, state)
		r.mu.Unlock()
		r.unsent = append(r.unsent, e)
		reports := r.reports[pos]
		delete(r.reports, pos)
		for s := range uint8(len(r.peers)) {
			if h, ok := reports[s]; ok {
				if h.Entry != hash {
					r.conflictAt(s, pos)
					continue
				}
				if err := r.compare(s, pos, h.State, state); err != nil {
					return nil, err
				}
			}
		}
	}
}

// traceEntry logs, at debug level, an entry's progress with a timestamp
// in microseconds (processes on one machine share the clock: the NAT
// lab's latency benchmark, .ci/nat-bench.sh, subtracts them).
func (r *Room) traceEntry(what string, pos uint64, seat uint8) {
	if r.node.log.Enabled(context.Background(), slog.LevelDebug) {
		r.node.log.Debug(what, "pos", pos, "seat", seat, "t_us", time.Now().UnixMicro())
	}
}

// pendingSize is what a buffered entry counts against its author's
// budget: its body and a fixed allowance for the rest.
func pendingSize(e *ledger.Entry) int { return len(e.Body) + 256 }

// dropPending forgets the entries buffered for pos.
func (r *Room) dropPending(pos uint64) {
	for s, e := range r.pending[pos] {
		r.pendingBytes[s] -= pendingSize(e)
	}
	delete(r.pending, pos)
}

// closedError is why Run stops when its context ends: the caller's
// cancellation, or the room closing under it.
func closedError(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return errors.New("p2p: room closed")
}

// confirm records that seat reported our state hash after pos.
func (r *Room) confirm(seat uint8, pos uint64) {
	r.mu.Lock()
	r.confirmed[seat] = max(r.confirmed[seat], pos+1)
	r.mu.Unlock()
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

// unconfirmed lists the other seats that have not reported our state hash
// after the last entry of the log.
func (r *Room) unconfirmed() []uint8 {
	var out []uint8
	next := r.next()
	for s := range uint8(len(r.peers)) {
		if s != r.self && r.confirmed[s] < next && !r.retired(s) {
			out = append(out, s)
		}
	}
	return out
}

// report records the entry hash and the state hash seat from reported
// for pos, and compares them with ours if we are there already.
func (r *Room) report(from int, pos uint64, entry, state ledger.Hash) error {
	if from < 0 {
		return nil
	}
	if pos < r.next() {
		r.mu.RLock()
		mine, hash := r.states[pos], r.hashes[pos]
		r.mu.RUnlock()
		if entry != hash {
			r.conflictAt(uint8(from), pos)
			return nil
		}
		return r.compare(uint8(from), pos, state, mine)
	}
	r.claimAt(uint8(from), pos)
	m := r.reports[pos]
	if m == nil {
		m = make(map[uint8]echoReport)
		r.reports[pos] = m
	}
	m[uint8(from)] = echoReport{Entry: entry, State: state}
	return nil
}

// compare checks seat's reported state hash after pos against ours.
//
// A report that differs proves nothing others can check: the reporter may
// be lying (the review's attack: a seat re-sends an old entry to one peer
// with a bogus state hash, and that peer used to stop, blaming it, while
// the others went on and timed it out) or its replica may be broken. So a
// differing report never stops the table: it is logged against the
// reporter, and the game goes on. Only when more than half the table
// (seats other than this one) report one state and this peer another is
// this peer's own replica the odd one: no coalition of half the table
// or fewer can make an honest peer stop (issue 23, item 3). It then stops
// with a local error, and tells the table so in a signed statement that
// names only itself (see diverged); the others end with that statement
// where they would time it out, so nobody blames it.
func (r *Room) compare(seat uint8, pos uint64, theirs, mine ledger.Hash) error {
	if theirs == mine {
		r.confirm(seat, pos)
		return nil
	}
	r.peerError(int(seat), fmt.Errorf("seat %d reports another state hash after entry %d than this peer's; ignored", seat, pos))
	d := r.disagree[pos]
	if d == nil {
		d = make(map[uint8]bool)
		r.disagree[pos] = d
	}
	d[seat] = true
	if len(d) >= r.majority() {
		return r.diverged(pos, len(d))
	}
	return nil
}

func (r *Room) equivocation(a, b *ledger.Entry) (*Verdict, error) {
	v := &Verdict{Kind: VerdictEquivocation, Game: r.game, Pos: a.Pos, Seat: a.Seat,
		Reason:   fmt.Sprintf("seat %d signed two different entries for position %d", a.Seat, a.Pos),
		Evidence: sortEvidence(a, b), Declarer: r.self}
	if err := v.Sign(r.node.id.SigningKey()); err != nil {
		return nil, err
	}
	return v, nil
}

// onVerdict handles a peer's verdict: self-proving ones are adopted, an
// invalid entry is judged by running it through our own replica, a
// seat's statement that it stopped is kept for its timeout (onStatement),
// and a timeout is judged by onTimeout. After the game's last entry the
// verdicts this returns are reported beside the finished game unless it
// is disputed (see afterEnd).
func (r *Room) onVerdict(from uint8, v *Verdict) (*Verdict, error) {
	if err := v.Verify(r.roster); err != nil {
		r.peerError(int(from), err)
		return nil, nil
	}
	switch v.Kind {
	case VerdictEquivocation:
		return v, nil
	case VerdictInvalidEntry:
		return r.onEntry(int(from), v.Evidence[0], ledger.Hash{}, false)
	case VerdictTimeout:
		return r.onTimeout(from, v)
	case VerdictDivergence:
		r.onStatement(from, v)
		return nil, nil
	}
	r.node.log.Info("peer stopped its table", "peer", r.peers[from], "verdict", v.String())
	return nil, nil
}

// onTimeout handles a peer's timeout verdict. It is never adopted on the
// declarer's word: only when this peer can check it, that is the game is
// not over, the named seat is the one due at exactly our next position
// (not us), and our own timer for that position has run out too (then
// our own verdict says the same); or, for a position this peer is past,
// when more than half the table declared it (lateTimeout). Otherwise it
// is logged and the table goes on: a seat that signs "seat 1 silent at
// position 2^40", or a timeout after the last entry, stops nobody.
func (r *Room) onTimeout(from uint8, v *Verdict) (*Verdict, error) {
	pos, seat, ok := r.cfg.Replica.Next()
	if ok && v.Pos == pos && v.Seat == seat && v.Pos == r.waitPos && seat != r.self &&
		r.cfg.Timeout > 0 && time.Since(r.waitSince) >= r.cfg.Timeout {
		// Our own timer says the same: the verdict is ours too, signed
		// by this peer.
		return r.timeout(pos, seat, time.Since(r.waitSince))
	}
	if ok {
		if late, err := r.lateTimeout(v); late != nil || err != nil {
			return late, err
		}
	}
	r.node.log.Info("peer's timeout verdict not adopted: this peer cannot confirm it", "peer", r.peers[from], "verdict", v.String())
	return nil, nil
}

// timeout returns this peer's signed verdict that seat was silent at pos
// for waited; or, when seat said it stopped (its replica disagreed with
// most of the table), that seat's own statement: a peer that stops on a
// divergence is not blamed for the silence that follows.
func (r *Room) timeout(pos uint64, seat uint8, waited time.Duration) (*Verdict, error) {
	if st := r.statements[seat]; st != nil {
		return st, nil
	}
	v := &Verdict{Kind: VerdictTimeout, Game: r.game, Pos: pos, Seat: seat,
		Reason:   fmt.Sprintf("seat %d (%s) silent for %v", seat, r.roster.Seats[seat].Name, waited.Round(time.Millisecond)),
		Declarer: r.self}
	if err := v.Sign(r.node.id.SigningKey()); err != nil {
		return nil, err
	}
	return v, nil
}

// lateTimeout handles a timeout verdict, while the game goes on, for a
// position this peer is already past: it holds the entry the declarer
// waited for, which reached it (or which it authored) too late for the
// declarer. Only when more than half the table, the seat named and this
// one left out, have declared the same seat silent at that position did
// the table end there: no coalition of half the table or fewer can
// make it so, and at two seats only one's own timer counts (issue 23,
// item 2). Then this peer adopts their verdict, so that every honest
// peer ends with the same log (cut before that position, see
// [Room.end]) and the same verdict; but never one that names this peer:
// if its own entry reached the table too late, it stops with an error
// wrapping [ErrTimedOut], blaming nobody and storing nothing. One seat's
// word alone stops nobody: a peer can stop a table only by going silent,
// never by lying.
func (r *Room) lateTimeout(v *Verdict) (*Verdict, error) {
	r.mu.RLock()
	held := v.Pos < uint64(len(r.log)) && r.log[v.Pos].Seat == v.Seat
	r.mu.RUnlock()
	if !held || v.Declarer == v.Seat || v.Declarer == r.self {
		return nil, nil
	}
	votes := r.lateTimeouts[v.Pos]
	if votes == nil {
		votes = make(map[uint8]bool)
		r.lateTimeouts[v.Pos] = votes
	}
	votes[v.Declarer] = true
	if len(votes) < r.majority() {
		return nil, nil
	}
	if v.Seat == r.self {
		return nil, fmt.Errorf("p2p: %w: %d of the %d seats declared this seat silent at entry %d, which reached them too late; the table ended there without it",
			ErrTimedOut, len(votes), len(r.peers), v.Pos)
	}
	r.node.log.Info("adopting a timeout at a position this peer is past: most of the table stopped there", "verdict", v.String(), "seats", len(votes))
	return v, nil
}

// syncAll asks every peer (or only those in seats, if not nil), in the
// background, for the entries from position from on.
func (r *Room) syncAll(ctx context.Context, from uint64, seats []uint8) {
	for i := range r.peers {
		if uint8(i) == r.self || (seats != nil && !slices.Contains(seats, uint8(i))) {
			continue
		}
		stamp, ok := r.startSync(i)
		if !ok {
			continue
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer r.endSync(i, stamp)
			if err := r.syncFrom(ctx, uint8(i), from); err != nil && ctx.Err() == nil {
				r.node.log.Debug("sync failed", "peer", r.peers[i], "err", err)
			}
		}()
	}
}

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
	if c := h.Network().Connectedness(p); c != network.Connected && c != network.Limited {
		r.node.clearBackoff(p)
		if err := h.Connect(cctx, peer.AddrInfo{ID: p, Addrs: r.addrs[seat]}); err != nil {
			return 0, err
		}
	}
	s, err := h.NewStream(cctx, p, ProtocolSync)
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
			// After the entries it brought: the server's log length, as
			// of a request made at asked.
			r.deliver(inbound{seat: seat, msg: &message{Type: msgSynced, From: m.From}, asked: asked})
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
