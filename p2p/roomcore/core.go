package roomcore

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// Replica is the replicated state machine (the engine's table layer
// implements it). A Core calls it from its caller's goroutine only.
type Replica interface {
	// Next reports the position and the seat that must author the next
	// entry; ok=false when the game is over.
	Next() (pos uint64, seat uint8, ok bool)
	// Apply validates e (already signature-checked by the core, and
	// chained onto the previous entry) as entry number Next().pos and
	// applies it. A non-nil error means the author broke the rules: the
	// table stops with a verdict blaming e.Seat. Apply must leave the
	// state unchanged when it fails.
	Apply(e *ledger.Entry) error
	// StateHash is the hash of the state after the last applied entry.
	StateHash() ledger.Hash
}

// VerifiedApplier is a [Replica] that can apply an entry whose author's
// signature has already been checked against the roster (the core checks
// every received entry's signature before it buffers it, and signs the
// local seat's own): the core calls ApplyVerified instead of Apply when
// the replica has it, so that each signature is checked once.
// ApplyVerified must check everything Apply does but the signature.
type VerifiedApplier interface {
	ApplyVerified(e *ledger.Entry) error
}

// BatchApplier is a [VerifiedApplier] that can apply a run of entries
// that arrived together (a sync answer, entries queued while the seat
// was busy), their signatures checked by the core, with the proofs of
// the whole run checked in one batch (engine/table's ApplyBatch). The
// core calls it when the entry after the next one is buffered too.
//
// ApplyBatch asks next for the entry it expects at each position and
// seat (nil ends the run), applies at most max, and calls applied after
// each entry with the state hash after it, in order (applied must not
// call the replica). It returns nil when every entry next gave applied,
// or the first entry refused and its error, which must be what
// ApplyVerified entry by entry would have returned for it (the same
// entry, seat and reason: blame stays exact), with the entries before it
// applied and the state after them.
type BatchApplier interface {
	ApplyBatch(next func(pos uint64, seat uint8) *ledger.Entry, max int, applied func(e *ledger.Entry, state ledger.Hash)) (failed *ledger.Entry, err error)
}

// MaxRun bounds the entries a [BatchApplier] is given at once, and the
// entries a [DeferredApplier] holds unsettled.
const MaxRun = 128

// DeferredApplier is a [BatchApplier] that checks the group proofs of the
// entries it receives across entries (engine/table's ApplyDeferred and
// Settle): each received entry is applied at once, its rules and state
// (so Next says whose turn it is), with its proofs added to a pending
// batch, and the batch is checked (Settle) before the seat acts on the
// state in any way. Entries reach a live seat one at a time (the next
// author builds on an entry as soon as it is applied), so batching what
// arrives together (ApplyBatch) seldom applies.
//
// The core holds the entries applied deferred (unsettled) at the end of
// its log, and settles them before anything vouches for them or builds
// on them: before a Ready writes or echoes an entry (an unchecked entry
// is never durable, echoed or served), before the local author is asked
// for its entry, before a done, a verdict or the end, and before any
// input but an entry, an echo or a done is handled (ticks, timers, sync
// answers, verdicts, the author's answer). A seat's reports about an
// unsettled position are kept and compared once it settles.
//
// ApplyDeferred applies e (its signature checked by the core, chained
// onto the log) and returns nil, or, when e breaks a rule, the first
// entry refused and its error, those ApplyVerified entry by entry would
// give (an earlier unsettled entry's bad proof comes first), with the
// entries before it settled. Settle checks the pending batch and returns
// nil, or the first entry refused and its error, likewise. Both call
// settled for each entry that becomes settled, in order, with the state
// hash after it (settled must not call the replica). DefersProofs says
// whether the replica wants this (a bot's seat; a person's screen shows
// each entry as it is applied, so its seat checks each entry at once).
type DeferredApplier interface {
	BatchApplier
	DefersProofs() bool
	ApplyDeferred(e *ledger.Entry, settled func(e *ledger.Entry, state ledger.Hash)) (failed *ledger.Entry, err error)
	Settle(settled func(e *ledger.Entry, state ledger.Hash)) (failed *ledger.Entry, err error)
}

// Retirer is a [Replica] whose seats may retire for good before the end
// of the game (a player out of the game that published its card key,
// whose part the table computes from then on; its program may stop). At
// the end the core does not wait for a retired seat's state hash or done
// message: it counts them if they come, and does not list the seat as
// unconfirmed if they do not.
type Retirer interface {
	Retired(seat uint8) bool
}

// Wait describes whom the table is waiting for, for a countdown display.
type Wait struct {
	Pos    uint64
	Seat   uint8
	Local  bool          // the local seat must author Pos
	Waited time.Duration // since Pos became the next position here
	Left   time.Duration // until the timeout verdict; 0 when there is no limit
	// Connected: this node has a connection to the seat's peer (always
	// true for the local seat). A seat waited for that is not connected
	// may have stopped: its player can rejoin by starting it again. The
	// core sets it for the local seat only; the driver, which knows the
	// connections, for the others.
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

// ErrNoContact is wrapped by the error that ends a run when this peer
// heard from no seat for three times the table's timeout while waiting:
// it blames nobody (see [Wait.NoContactSince]).
var ErrNoContact = errors.New("no contact with any seat")

// ErrTimedOut is wrapped by the error that ends a run when more than half
// the table declared the local seat silent at a position whose entry it
// authored but which reached them too late (a crash between writing and
// sending it), or that it is still due at: the table ended there without
// this seat. It blames
// nobody, and no verdict naming the local seat is adopted or stored.
var ErrTimedOut = errors.New("the table timed this seat out")

// Outcome is how a table's game ended.
type Outcome struct {
	// Verdict is nil when the game ran to its end (Replica.Next said so).
	Verdict *Verdict
	// Entries is the length of the log.
	Entries uint64
	// StateHash is the replica's final state hash.
	StateHash ledger.Hash
	// Unconfirmed lists, for a game that ran to its end in this run, the
	// seats whose state hash after the last entry did not arrive within
	// Config.EndWait (a peer gone or unreachable): their replicas may
	// disagree with ours on the final state.
	Unconfirmed []uint8
	// Later are the verdicts found after this peer had the game's last
	// entry (a seat that signs another version of one of its past
	// entries once it has lost): the finished game's outcome stands, and
	// they are reported beside it, not stored.
	Later []*Verdict
}

// Config configures a [Core].
type Config struct {
	// Roster is the roster every seat signed; Self the local seat in it,
	// SignKey its signing key.
	Roster  *ledger.Roster
	Self    uint8
	SignKey ed25519.PrivateKey
	// Replica is a fresh state machine for this roster.
	Replica Replica
	// Timeout is how long a silent seat is waited for before the timeout
	// verdict; 0 waits forever.
	Timeout time.Duration
	// Tick is how often the driver steps a tick; 0 means 500ms.
	Tick time.Duration
	// EndWait is how long a run, once the replica says the game is over,
	// waits for every other seat's state hash after the last entry; 0
	// means 10 ticks.
	EndWait time.Duration
	// Signed: the state directory says this seat signed entries before
	// (it asks the other seats for the log before it signs again).
	Signed bool
	// ChatIdle, if set, says whether the table chat has delivered this
	// seat's messages: at the end, done waits for it. Nil: always idle.
	ChatIdle func() bool
	// Log receives the core's diagnostics; nil discards them.
	Log *slog.Logger
	// Read, if set, reads back accepted entries from the state directory
	// (store.Store.Read): the core then keeps only the latest HotEntries
	// entries in memory (issue 28), the others' authors and hashes, and
	// reads an older entry back when it needs it whole (the proof of an
	// equivocation). The driver must write a Ready's entries where Read
	// finds them before the next Step (written; synced to disk before a
	// frame reports them, see p2p's driver.carry). Nil: every entry stays in memory.
	Read func(from, to uint64) ([]*ledger.Entry, error)
}

// HotEntries is how many of the latest accepted entries a core with
// [Config.Read] keeps in memory.
const HotEntries = 64

// Limits of the replication protocol.
const (
	maxAhead = 512 // positions beyond the next one buffered from early arrivals (a sync answer's worth)
	// MaxSyncBatch is the most entries one sync answer carries.
	MaxSyncBatch = 512
	// maxPendingBytes bounds the bodies of one author's entries buffered
	// ahead of the next position: an honest seat's entries are a few
	// hundred bytes (moves), a few KiB (shares among 13 seats) or about
	// 20 KiB (a 64-card shuffle), and a whole 13-seat game's log is
	// about 123 KiB, so 4 MiB is never reached honestly; a seat that
	// signs 512 future entries of 1 MiB each no longer makes every peer
	// hold 512 MiB. The entry due next is always taken.
	maxPendingBytes = 4 << 20
)

// FetchDelay is how long an entry that a peer has echoed may stay missing
// before it is fetched from that peer: the author's own copy is usually a
// moment behind the first echo, not lost.
const FetchDelay = 50 * time.Millisecond

// EchoDelay is how long an echo waits before it is sent: a newer one
// replaces it meanwhile (it says as much about the log, whose entries
// chain, and reports a later state) and the wait starts again, up to
// EchoMaxDelay after the first echo not sent; so an echo goes out once
// the table has been quiet for EchoDelay (it waits for a seat), or every
// EchoMaxDelay while entries keep coming: a fast table sends each peer a
// few echoes a second, not one per entry. It is sent at once before the
// local seat's done or verdict; the local seat's own entry replaces it
// (the entry chains onto the one echoed, and carries our state after
// it).
const EchoDelay = 50 * time.Millisecond

// EchoMaxDelay bounds how long an echo waits while newer ones keep
// replacing it (see EchoDelay).
const EchoMaxDelay = 5 * EchoDelay

// Core is one seat's replication state machine. It is not safe for
// concurrent use: one goroutine steps it (see the package comment).
type Core struct {
	cfg    Config
	log    *slog.Logger
	roster *ledger.Roster
	game   ledger.Hash
	self   uint8
	n      int
	keys   []ed25519.PublicKey
	// weak[s] is why seat s's roster key may sign nothing
	// (ledger.CheckSigningKey), nil for a good key.
	weak []error

	// entries[i] is entry i; with Config.Read, nil for those forgotten
	// (below forgotten: durable, and older than the latest HotEntries).
	entries   []*ledger.Entry
	seats     []uint8 // seats[i] = entries[i].Seat
	forgotten int
	// handed is the number of entries handed to the driver by a Ready
	// before the current step: durable (see Config.Read).
	handed int
	hashes []ledger.Hash // hashes[i] = entries[i].Hash()
	states []ledger.Hash // states[i] = state hash after entries[i]
	// memo keeps the hashes of the latest entries hashed (entryHash): a
	// received entry is hashed when its sender's report is recorded and
	// again when it is applied. hashed counts the hashes computed.
	memo   [8]hashMemo
	memoAt int
	hashed int
	// verdict is the verdict that ended this table, once there is one.
	verdict *Verdict

	pending map[uint64]map[uint8]*ledger.Entry
	// pendingBytes[s] is the size of seat s's entries in pending.
	pendingBytes []int
	// buffered: entries were buffered (onEntry) and not yet applied: a
	// run of entry messages is applied together (applyBuffered) before
	// any other input or the Ready, so that a BatchApplier checks the
	// run's proofs in one batch.
	buffered bool
	// deferApply: Step is handling an entry message, whose entry is
	// buffered (buffered), not applied at once.
	deferApply bool
	// unsent are the entries applied since the last Ready: it writes
	// them, and sends them once they are synced.
	unsent []*ledger.Entry
	// tentative is how many entries at the end of the log a
	// DeferredApplier applied with their proofs not yet checked: they are
	// not in unsent, and reports about them wait (see checkProofs).
	// settling: checkProofs is under way; settleErr is the first local
	// error of an entry settled, at settleErrPos.
	tentative    int
	settling     bool
	settleErr    error
	settleErrPos uint64
	// refused is a verdict checkProofs reached while an input was
	// handled (before a divergence): it replaces the input's outcome.
	refused *Verdict
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
	// a TimerEchoFlush is scheduled; echoFirst is when the first echo not
	// sent was made, echoLast when the latest was (see EchoDelay).
	echo                []byte
	echoArmed           bool
	echoFirst, echoLast time.Time
	reports             map[uint64][]posReport // by position, in seat order
	// disagree[pos] are the seats whose state hash after pos differs
	// from ours.
	disagree map[uint64]map[uint8]bool
	// confirmed[s] is one past the last position after which seat s
	// reported the same state hash as ours.
	confirmed []uint64
	// waitPos is the position the table waits at, since waitSince: the
	// local timer behind timeout verdicts, ours and the peers' we adopt.
	waitPos   uint64
	waitSince time.Time
	// declared[pos] are the other seats' declarations, by declarer, that
	// the seat due at pos was silent there, for a position this peer
	// holds or waits at (see record, majorityTimeout). One adopted is
	// stored with them (conclude); those for the position waited at also
	// say the entry is missing there (checkedMissing).
	declared map[uint64]map[uint8]*Verdict
	// statements[s] is seat s's own signed word that it stopped, its
	// replica disagreeing with more than half the table (a divergence
	// verdict naming its declarer): a timeout of s ends the table with it
	// instead, blaming nobody (see timeout).
	statements []*Verdict
	// held are verdicts found after the game's last entry, waiting for
	// more than half the seats but the one they name to hold the end;
	// later those reported beside the finished game (Outcome.Later). See
	// afterEnd.
	held, later []*Verdict
	// peerLogs[s] is what this peer knows of seat s's log, heldPos and
	// heldSince when a seat first reported holding the entry waited for
	// (see comeback.go).
	peerLogs  []peerLog
	heldPos   uint64
	heldSince time.Time
	// runStart is when the run started; checkFirst: the local seat signed
	// entries in this state directory before, and asks the other seats
	// for the log before it signs again (mayAuthor); checking: it is
	// waiting for their answers.
	runStart   time.Time
	checkFirst bool
	checking   bool
	// heard[s] is when seat s was last heard from (any frame, or a sync
	// answered); zero before the run.
	heard []time.Time
	// seen[pos] is when this seat first learnt that entry pos exists and
	// when the entry itself reached it, for positions not yet applied
	// (see lateApply).
	seen map[uint64]*entrySeen
	// lastApplied is when the last entry was applied here (appliedAt).
	lastApplied time.Time

	// The run: started (Start), authoring (an Author request is out for
	// authorPos), when the last stall sync and cut-off log were, the log's
	// length when the run started, and when the game ended here (over).
	running    bool
	authoring  bool
	authorPos  uint64
	lastSync   time.Time
	lastCutLog time.Time
	start      uint64
	over       time.Time
	missing    []uint8
	// The step under way: its time, what it brings out, and the verdict
	// or error its inputs led to.
	now  time.Time
	rd   Ready
	v    *Verdict
	err  error
	done bool
}

// New makes a core for cfg and replays the stored entries through its
// replica: signatures, chain and rules are checked again, so a tampered
// state directory is caught.
func New(cfg Config, stored []*ledger.Entry) (*Core, error) {
	if cfg.Roster == nil || cfg.Replica == nil {
		return nil, errors.New("roomcore: Config needs Roster and Replica")
	}
	if int(cfg.Self) >= len(cfg.Roster.Seats) {
		return nil, fmt.Errorf("roomcore: seat %d of a %d-seat roster", cfg.Self, len(cfg.Roster.Seats))
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 500 * time.Millisecond
	}
	if cfg.EndWait <= 0 {
		cfg.EndWait = 10 * cfg.Tick
	}
	game, err := cfg.Roster.GameID()
	if err != nil {
		return nil, fmt.Errorf("roomcore: %w", err)
	}
	n := len(cfg.Roster.Seats)
	c := &Core{
		cfg: cfg, log: cfg.Log, roster: cfg.Roster, game: game, self: cfg.Self, n: n,
		pending:      make(map[uint64]map[uint8]*ledger.Entry),
		pendingBytes: make([]int, n),
		reports:      make(map[uint64][]posReport),
		dones:        make(map[uint8]echoReport),
		disagree:     make(map[uint64]map[uint8]bool),
		confirmed:    make([]uint64, n),
		declared:     make(map[uint64]map[uint8]*Verdict),
		statements:   make([]*Verdict, n),
		peerLogs:     make([]peerLog, n),
		heard:        make([]time.Time, n),
		seen:         make(map[uint64]*entrySeen),
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	for _, s := range cfg.Roster.Seats {
		c.keys = append(c.keys, s.SignKey)
		// Checked once here, not with every signature (verify): a
		// weak key's seat can sign nothing.
		c.weak = append(c.weak, ledger.CheckSigningKey(s.SignKey))
	}
	if err := c.replay(stored); err != nil {
		return nil, err
	}
	// The stored entries are durable: those but the latest go.
	c.handed = len(c.entries)
	c.forget()
	return c, nil
}

// replay re-applies stored entries. Their positions, authors, chain and
// signatures are checked one by one; a replica that is a BatchApplier
// applies them in runs (their proofs checked together), the first entry
// refused failing the replay as when they are applied one by one.
func (c *Core) replay(entries []*ledger.Entry) error {
	if _, ok := c.cfg.Replica.(BatchApplier); !ok {
		return c.replayEach(entries)
	}
	// The first entry that does not chain or whose signature fails ends
	// what may be applied; its error comes after those of the entries
	// before it.
	good := len(entries)
	var bad error
	prev := c.game
	for i, e := range entries {
		if e.Prev != prev {
			good, bad = i, fmt.Errorf("p2p: replay: entry %d does not chain", e.Pos)
			break
		}
		if err := c.verify(e); err != nil {
			good, bad = i, fmt.Errorf("p2p: replay: %w", err)
			break
		}
		prev = e.Hash()
	}
	ba := c.cfg.Replica.(BatchApplier)
	for len(c.entries) < good {
		i := len(c.entries)
		next := func(pos uint64, seat uint8) *ledger.Entry {
			if pos >= uint64(good) || entries[pos].Pos != pos || entries[pos].Seat != seat {
				return nil
			}
			return entries[pos]
		}
		failed, err := ba.ApplyBatch(next, MaxRun, func(e *ledger.Entry, state ledger.Hash) {
			c.entries = append(c.entries, e)
			c.seats = append(c.seats, e.Seat)
			c.hashes = append(c.hashes, e.Hash())
			c.states = append(c.states, state)
		})
		if failed != nil {
			return fmt.Errorf("p2p: replay: entry %d: %w", failed.Pos, err)
		}
		if len(c.entries) == i {
			// Not what the replica expects (or the game is over): its
			// error, as one by one.
			if err := c.replayEach(entries[i:good]); err != nil {
				return err
			}
		}
	}
	if bad != nil {
		// Its error as one by one would give it (the position and author
		// are checked before the chain and the signature).
		if err := c.replayEach(entries[good : good+1]); err != nil {
			return err
		}
	}
	return bad
}

// replayEach re-applies stored entries one by one, after those already
// replayed.
func (c *Core) replayEach(entries []*ledger.Entry) error {
	prev := c.prevHash()
	for _, e := range entries {
		pos, seat, ok := c.cfg.Replica.Next()
		if !ok || pos != e.Pos || seat != e.Seat {
			return fmt.Errorf("p2p: replay: stored entry %d by seat %d is not what the replica expects", e.Pos, e.Seat)
		}
		if e.Prev != prev {
			return fmt.Errorf("p2p: replay: entry %d does not chain", e.Pos)
		}
		if err := c.verify(e); err != nil {
			return fmt.Errorf("p2p: replay: %w", err)
		}
		if err := c.apply(e); err != nil {
			return fmt.Errorf("p2p: replay: entry %d: %w", e.Pos, err)
		}
		prev = e.Hash()
		c.entries = append(c.entries, e)
		c.seats = append(c.seats, e.Seat)
		c.hashes = append(c.hashes, prev)
		c.states = append(c.states, c.cfg.Replica.StateHash())
	}
	return nil
}

// verify checks e's signature against its author's roster key, each key
// checked once (New).
func (c *Core) verify(e *ledger.Entry) error {
	if int(e.Seat) >= c.n || c.weak[e.Seat] != nil {
		return fmt.Errorf("entry %d: bad signature for seat %d", e.Pos, e.Seat)
	}
	return e.VerifySignatureCheckedKey(c.game, c.keys[e.Seat])
}

// apply applies an entry whose signature the core has checked (or made):
// through ApplyVerified when the replica has it, so that the signature is
// not checked again.
func (c *Core) apply(e *ledger.Entry) error {
	if va, ok := c.cfg.Replica.(VerifiedApplier); ok {
		return va.ApplyVerified(e)
	}
	return c.cfg.Replica.Apply(e)
}

// Game is the hash of the roster.
func (c *Core) Game() ledger.Hash { return c.game }

// Self is the local seat.
func (c *Core) Self() uint8 { return c.self }

// Log returns the accepted entries and the state hash after each (the
// slices are the core's: the caller must not modify them, and they
// change with the next step). With [Config.Read], the entries older than
// the latest [HotEntries] are nil once durable.
func (c *Core) Log() ([]*ledger.Entry, []ledger.Hash) {
	n := c.checked()
	return c.entries[:n], c.states[:n]
}

// Verdict returns the verdict that ended the table, or nil.
func (c *Core) Verdict() *Verdict { return c.verdict }

// Confirmed returns, for each seat, one past the last position after which
// it reported the same state hash as ours (a copy).
func (c *Core) Confirmed() []uint64 { return slices.Clone(c.confirmed) }

// Done says whether the run is over (a Ready carried its Outcome or Err).
func (c *Core) Done() bool { return c.done }

// End is the length of the game's log: all of it, but for a table a
// timeout verdict stopped at position p, whose log ends before p. An
// entry at p that reached this peer only (its author was late, or this
// peer is that author, back from a crash) is not part of the game: the
// seats that timed its author out never had it.
func End(v *Verdict, length int) int {
	if v != nil && v.Kind == VerdictTimeout && v.Pos < uint64(length) {
		return int(v.Pos)
	}
	return length
}

func (c *Core) next() uint64 { return uint64(len(c.entries)) }

// checked is the length of the log whose entries' proofs are checked
// (all of it but the tentative entries).
func (c *Core) checked() uint64 { return uint64(len(c.entries) - c.tentative) }

// entryAt returns accepted entry pos, read back with Config.Read if the
// core no longer holds it.
func (c *Core) entryAt(pos uint64) (*ledger.Entry, error) {
	if e := c.entries[pos]; e != nil {
		return e, nil
	}
	es, err := c.cfg.Read(pos, pos+1)
	if err != nil {
		return nil, fmt.Errorf("p2p: read back entry %d: %w", pos, err)
	}
	if len(es) != 1 || es[0].Hash() != c.hashes[pos] {
		return nil, fmt.Errorf("p2p: entry %d read back from the state directory is not the one accepted", pos)
	}
	return es[0], nil
}

// forget drops from memory the durable entries older than the latest
// HotEntries (Config.Read reads them back).
func (c *Core) forget() {
	if c.cfg.Read == nil {
		return
	}
	upto := min(c.handed, len(c.entries)-HotEntries)
	for ; c.forgotten < upto; c.forgotten++ {
		c.entries[c.forgotten] = nil
	}
}

func (c *Core) prevHash() ledger.Hash {
	if len(c.hashes) == 0 {
		return c.game
	}
	return c.hashes[len(c.hashes)-1]
}

// retired says whether the replica has seat retired ([Retirer]).
func (c *Core) retired(seat uint8) bool {
	rt, ok := c.cfg.Replica.(Retirer)
	return ok && rt.Retired(seat)
}

// contactWindow is how recently a peer must have heard from another seat
// to trust that a silent seat is silent for everyone, not only for it: a
// stalled room asks every seat for entries every two ticks, and each
// answer is contact.
func (c *Core) contactWindow() time.Duration { return 20 * c.cfg.Tick }

// contact records that seat was heard from at at.
func (c *Core) contact(seat uint8, at time.Time) {
	if int(seat) < len(c.heard) && at.After(c.heard[seat]) {
		c.heard[seat] = at
	}
}

// cutOff reports whether this peer has heard from no seat other than
// itself and due within the contact window, and since when. At a table
// with no such seat (two seats) it is never cut off: the due seat's
// silence is all there is to go by.
func (c *Core) cutOff(now time.Time, due uint8) (since time.Time, cut bool) {
	others := 0
	for i := range c.heard {
		if uint8(i) == c.self || uint8(i) == due {
			continue
		}
		others++
		if c.heard[i].After(since) {
			since = c.heard[i]
		}
	}
	if others == 0 {
		return time.Time{}, false
	}
	return since, now.Sub(since) > c.contactWindow()
}

// peerError reports a fault of seat's (from = -1: the local author; not
// reported).
func (c *Core) peerError(seat int, err error) {
	if seat >= 0 {
		c.rd.PeerErrors = append(c.rd.PeerErrors, PeerError{Seat: uint8(seat), Err: err})
	}
}

// broadcast sends frame to every other seat, after what the Ready
// persists.
func (c *Core) broadcast(frame []byte) { c.rd.Frames = append(c.rd.Frames, frame) }

// syncAll asks every peer (or only those in seats, if not nil) for the
// entries from position from on.
func (c *Core) syncAll(from uint64, seats []uint8) {
	for i := range uint8(c.n) {
		if i == c.self || (seats != nil && !slices.Contains(seats, i)) {
			continue
		}
		c.rd.Syncs = append(c.rd.Syncs, SyncRequest{Seat: i, From: from})
	}
}

// traceEntry logs, at debug level, an entry's progress with a timestamp
// in microseconds (processes on one machine share the clock: the NAT
// lab's latency benchmark, .ci/nat-bench.sh, subtracts them).
func (c *Core) traceEntry(what string, pos uint64, seat uint8) {
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug(what, "pos", pos, "seat", seat, "t_us", c.now.UnixMicro())
	}
}

// traceReceived logs, at debug level, that entry pos reached this node
// from seat at at (before the inbox: the step that takes it may come
// later), the first time only.
func (c *Core) traceReceived(pos uint64, from uint8, at time.Time) {
	if s := c.seen[pos]; s != nil && !s.recv.IsZero() {
		return
	}
	if pos < c.next() || !c.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	c.log.Debug("entry received", "pos", pos, "from", from, "t_us", at.UnixMicro())
}

// pendingSize is what a buffered entry counts against its author's
// budget: its body and a fixed allowance for the rest.
func pendingSize(e *ledger.Entry) int { return len(e.Body) + 256 }

// dropPending forgets the entries buffered for pos.
func (c *Core) dropPending(pos uint64) {
	for s, e := range c.pending[pos] {
		c.pendingBytes[s] -= pendingSize(e)
	}
	delete(c.pending, pos)
}

// echoReport is what a seat reported about a position: the hash of the
// entry it holds there and its state hash after it (for a done message:
// Entry is unused, State the final state, and the map key the seat).
type echoReport struct {
	Entry, State ledger.Hash
	Len          uint64 // done: the log's length
}

// posReport is a seat's report about a position. A position's reports
// are a short list, one per seat that reported (in a live game mostly
// the author's alone), kept in seat order: a map per position was 3 % of
// the bytes a live seat allocated.
type posReport struct {
	echoReport
	seat uint8
}

// hashMemo is an entry and its hash.
type hashMemo struct {
	e *ledger.Entry
	h ledger.Hash
}

// entryHash returns e.Hash(), from the memo if e was among the latest
// entries hashed. Entries are never modified once they reach the core (a
// forged variant is a new *ledger.Entry), and the memo holds the pointer,
// so it is never reused for another entry.
func (c *Core) entryHash(e *ledger.Entry) ledger.Hash {
	for i := range c.memo {
		if c.memo[i].e == e {
			return c.memo[i].h
		}
	}
	h := e.Hash()
	c.hashed++
	c.memo[c.memoAt] = hashMemo{e: e, h: h}
	c.memoAt = (c.memoAt + 1) % len(c.memo)
	return h
}
