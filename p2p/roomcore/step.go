package roomcore

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/masque-games/masque/engine/ledger"
)

// InputKind says what an [Input] brings.
type InputKind uint8

// Input kinds.
const (
	// InMsg: a frame from seat Seat (on its log stream, or in a sync
	// answer) that reached this node at At: Msg is an entry, a verdict,
	// an echo or a done.
	InMsg InputKind = iota + 1
	// InSynced: a sync answer from seat Seat ended, after the entries it
	// brought (stepped as InMsg before); Length is the server's log
	// length, Asked when the request was made, At when the answer ended.
	InSynced
	// InAuthored: the local author's answer for position Pos: Body, or
	// Err (a Ready's AuthorPos asked for it).
	InAuthored
	// InTick: the driver's ticker (every Config.Tick).
	InTick
	// InTimer: a timer a Ready asked for (Timer) has run out.
	InTimer
	// InWake: something the core may wait for changed (the chat has
	// delivered this seat's messages).
	InWake
)

// Input is one thing that happened to the seat, stepped at Now.
type Input struct {
	Kind InputKind
	Now  time.Time
	Seat uint8
	Msg  *Msg
	At   time.Time
	// InSynced.
	Asked  time.Time
	Length uint64
	// InAuthored.
	Pos  uint64
	Body []byte
	Err  error
	// InTimer.
	Timer Timer
}

// TimerKind names a timer a Ready asks for.
type TimerKind uint8

// Timer kinds.
const (
	// TimerEchoFlush: the echo delay is over, broadcast the latest echo.
	TimerEchoFlush TimerKind = iota + 1
	// TimerFetchCheck: check whether the entry seat Seat echoed at
	// position Pos is still missing, and fetch it from that seat.
	TimerFetchCheck
)

// Timer asks the driver to step an InTimer input carrying it After from
// now.
type Timer struct {
	Kind  TimerKind
	After time.Duration
	Seat  uint8
	Pos   uint64
}

// SyncRequest asks the driver to fetch seat Seat's entries from position
// From on (at most MaxSyncBatch per request, repeated while full), and to
// step each as InMsg, then InSynced. A driver keeps one request per seat
// in flight and may drop a new one while one is.
type SyncRequest struct {
	Seat uint8
	From uint64
}

// PeerError is a fault of seat Seat's that the core found and ignored
// (the driver logs it against the seat's peer).
type PeerError struct {
	Seat uint8
	Err  error
}

// MissingDone is a seat whose done message did not come by EndWait, and
// why as far as this seat can tell.
type MissingDone struct {
	Seat uint8
	Why  string
}

// Ready is what a step brings out, to be carried out in this order:
//
//  1. MarkSigned: record in the state directory that this seat signs
//     entries (before any of them leaves).
//  2. Entries: write them to the state directory and sync it (their
//     state hashes, States, may then be served).
//  3. Save: store the verdict record (a [MarshalStoredVerdict]) that ends
//     the table.
//  4. Frames: broadcast each, in order, to every other seat.
//  5. Syncs, Timers, StopAuthor and AuthorPos, Waits, PeerErrors,
//     MissingDones: in any order.
//
// Then, if Err is set, the run ends with it; if Outcome is, the run is
// over with it.
type Ready struct {
	MarkSigned bool
	Entries    []*ledger.Entry
	States     []ledger.Hash
	Save       []byte
	Frames     [][]byte
	Syncs      []SyncRequest
	Timers     []Timer
	// StopAuthor: the table moved past the position being authored;
	// cancel it (its answer is still stepped, and ignored).
	StopAuthor bool
	// Author: ask the local author for the entry at AuthorPos.
	Author    bool
	AuthorPos uint64
	// Waits are the awaited position, whenever it changes and on every
	// tick (Connected set for the local seat only).
	Waits        []Wait
	PeerErrors   []PeerError
	MissingDones []MissingDone
	Outcome      *Outcome
	Err          error
}

// CheckStored reads a state directory's verdict record (nil: none), and
// checks it like a received one: its signature and evidence against the
// roster (Verify), then against the replayed log. A verdict that fails
// is refused with an error: the directory was altered. A good one ends
// the table: the returned outcome is the run's.
func (c *Core) CheckStored(raw []byte) (*Outcome, error) {
	if raw == nil {
		return nil, nil
	}
	v, decl, err := UnmarshalStoredVerdict(raw)
	if err == nil {
		err = v.Verify(c.roster)
	}
	if err == nil {
		err = c.checkStored(v, decl)
	}
	if err != nil {
		return nil, err
	}
	c.done = true
	return c.outcome(v), nil
}

// Start begins the run at now: every seat counts as heard from, the other
// seats are asked for the entries this seat misses (unless its log is
// empty and it never signed), and the local author is asked for its
// entry if it is due.
func (c *Core) Start(now time.Time) Ready {
	c.now = now
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug("run started", "seat", c.self, "entries", c.next(), "t_us", now.UnixMicro())
	}
	c.running = true
	c.waitPos, c.waitSince = ^uint64(0), now
	c.lastSync = now
	for i := range c.heard {
		if c.heard[i].IsZero() {
			c.heard[i] = now
		}
	}
	if c.next() > 0 || c.cfg.Signed {
		// A seat back with a log (or one that signed before) asks what
		// it missed. A fresh one has nothing to catch up on that the
		// peers' log streams, which keep what they could not deliver,
		// do not bring: 12 sync streams per seat at a table of 13, and
		// the connections they dial, were a third of a short game's
		// packets (issue 28).
		c.syncAll(c.next(), nil)
	}
	c.runStart, c.checkFirst = now, c.cfg.Signed
	c.start = c.next()
	c.top()
	return c.take()
}

// Step handles one input. It returns whether more inputs may be stepped
// before [Core.Ready] (a batch of messages, made durable by one sync):
// false once the inputs led to a verdict or an error, and after a tick or
// the author's answer (each is followed by Ready at once).
func (c *Core) Step(in Input) bool {
	if c.done {
		return false
	}
	c.now = in.Now
	if c.buffered && (in.Kind != InMsg || in.Msg.Type != MsgEntry) && c.applyBuffered() {
		// The entries before this input proved a verdict, or failed
		// locally: the batch ends here (this input is moot).
		return false
	}
	if c.tentative > 0 && !holds(in) {
		// Every input but an entry, an echo or a done may act on the
		// state (an echo, the author's entry, a verdict, the end): the
		// entries applied unsettled are checked first.
		if c.v, c.err = c.checkProofs(); c.v != nil || c.err != nil {
			return false
		}
	}
	_, _, more := c.cfg.Replica.Next()
	switch in.Kind {
	case InMsg:
		c.contact(in.Seat, in.At)
		c.deferApply = in.Msg.Type == MsgEntry
		v, err := c.handle(in)
		c.deferApply = false
		if c.refused != nil {
			// Settled on the way, an entry was refused: it comes first.
			v, err, c.refused = c.refused, nil, nil
		}
		c.v, c.err = c.settleFirst(v, err)
		return c.v == nil && c.err == nil
	case InSynced:
		c.contact(in.Seat, in.At)
		c.onSynced(in.Seat, in.Length, in.Asked)
		return true
	case InTimer:
		c.onTimer(in.Timer)
		return true
	case InWake:
		return true
	case InAuthored:
		c.authoring = false
		if more {
			c.v, c.err = c.onAuthored(in)
		}
	case InTick:
		if more {
			c.tick(in.Now)
		} else {
			c.tickEnd(in.Now)
		}
	}
	return false
}

// Ready finishes the step: it makes the entries applied durable and sends
// them, ends the table on a verdict found, and prepares the wait for the
// next input (the local author asked for its entry when it is due).
func (c *Core) Ready() Ready {
	if !c.done {
		c.applyBuffered()
		if c.tentative > 0 && c.mustCheck() {
			c.v, c.err = c.settleFirst(c.v, c.err)
			if c.v == nil && c.err == nil {
				c.v, c.err = c.checkProofs()
			}
		}
		c.flush()
		switch v, err := c.v, c.err; {
		case err != nil:
			c.end(nil, err)
		case v != nil:
			if _, _, more := c.cfg.Replica.Next(); more {
				c.conclude(v)
			} else {
				// Found in the batch that brought the game's last entry,
				// or after it.
				c.afterEnd(v)
			}
		}
		c.v, c.err = nil, nil
		if !c.done {
			c.top()
		}
	}
	return c.take()
}

// holds says whether input in leaves the entries applied unsettled as
// they are: an entry (applied unsettled in turn), an echo or a done (a
// seat's report about an unsettled position waits for it to settle).
func holds(in Input) bool {
	return in.Kind == InMsg && (in.Msg.Type == MsgEntry || in.Msg.Type == MsgEcho || in.Msg.Type == MsgDone)
}

// mustCheck says whether the Ready must settle the entries applied
// unsettled: it ends the table or brings anything out that speaks for the
// state (a verdict, a frame, the record that this seat signs), the local
// seat is due to author, the game is over, or MaxRun entries wait.
func (c *Core) mustCheck() bool {
	_, seat, more := c.cfg.Replica.Next()
	return c.v != nil || c.err != nil || !more || seat == c.self || c.tentative >= MaxRun ||
		len(c.rd.Frames) > 0 || c.rd.Save != nil || c.rd.MarkSigned || c.rd.Outcome != nil || c.rd.Err != nil
}

// settleFirst returns the verdict or error an input led to (v, err), or,
// when entries are applied unsettled, the refusal of one of them, which
// a seat that checks entry by entry would have reached first.
func (c *Core) settleFirst(v *Verdict, err error) (*Verdict, error) {
	if (v == nil && err == nil) || c.tentative == 0 {
		return v, err
	}
	if sv, serr := c.checkProofs(); sv != nil || serr != nil {
		return sv, serr
	}
	return v, err
}

func (c *Core) take() Ready {
	rd := c.rd
	c.rd = Ready{}
	return rd
}

// end ends the run with an outcome or an error.
func (c *Core) end(out *Outcome, err error) {
	c.done = true
	c.rd.Outcome, c.rd.Err = out, err
}

// top is the start of the run loop's turn: what the seat does before it
// waits for the next input.
func (c *Core) top() {
	pos, seat, ok := c.cfg.Replica.Next()
	if !ok {
		c.topEnd()
		return
	}
	if next := c.next(); pos != next {
		c.end(nil, fmt.Errorf("p2p: replica expects position %d, log has %d entries", pos, next))
		return
	}
	if int(seat) >= c.n {
		c.end(nil, fmt.Errorf("p2p: replica expects seat %d at position %d; roster has %d seats", seat, pos, c.n))
		return
	}
	if c.authoring && c.authorPos < pos {
		// The table moved past the position being authored (this
		// seat's own entry, signed before, came from a peer).
		c.rd.StopAuthor = true
	}
	c.checking = seat == c.self && !c.authoring && !c.mayAuthor(pos, c.now)
	if seat == c.self && !c.authoring && !c.checking {
		c.authoring, c.authorPos = true, pos
		c.rd.Author, c.rd.AuthorPos = true, pos
	}
	if pos != c.waitPos {
		c.waitPos, c.waitSince = pos, c.now
		c.emitWait(pos, seat)
	}
}

// topEnd is top once the replica says the game is over. Every seat
// echoes the last entry (its state hash after it); a seat that has every
// other seat's echo says done; a seat leaves once every other seat said
// done, so that no one still needs it. Seats silent at EndWait are listed
// as unconfirmed.
func (c *Core) topEnd() {
	c.settle()
	c.missing = c.unconfirmed()
	if c.next() == c.start {
		// Only a replay of a finished log: tell waiting peers.
		c.sendDone()
		c.end(c.outcome(nil), nil)
		return
	}
	// No later entry will replace the echo of the last one, and every
	// other seat waits for it (our state hash after the last entry)
	// before it says done: it goes at once, not after EchoDelay (every
	// seat of a 13-process table waited 57–99 ms at the end for the
	// echoes; issue 28).
	c.sendEcho()
	if len(c.missing) == 0 && (c.cfg.ChatIdle == nil || c.cfg.ChatIdle()) {
		c.sendDone()
		if c.allDone() {
			c.logExit("every seat said done")
			c.end(c.outcome(nil), nil)
			return
		}
	}
	if c.over.IsZero() {
		c.over = c.now
	}
}

// logExit logs how long this seat waited to leave after the game was
// over here (its last entry applied): a warning over lateApply (a stall:
// a state hash or a done that came late or never), else at debug level.
func (c *Core) logExit(why string) {
	waited := time.Duration(0)
	if !c.over.IsZero() {
		waited = c.now.Sub(c.over)
	}
	if waited > lateApply {
		c.log.Warn("game over; left late", "waited", waited.Round(time.Millisecond), "why", why,
			"entries", len(c.entries), "unconfirmed", c.missing, "over_us", c.over.UnixMicro(), "left_us", c.now.UnixMicro())
		return
	}
	c.log.Debug("game over; leaving", "waited", waited, "why", why, "t_us", c.now.UnixMicro())
}

// onAuthored takes the local author's answer.
func (c *Core) onAuthored(in Input) (*Verdict, error) {
	if in.Pos != c.next() {
		// The entry came from a peer meanwhile (issue 29): the author's
		// answer, or its error, is moot.
		return nil, nil
	}
	if in.Err != nil {
		return nil, fmt.Errorf("p2p: author of position %d: %w", in.Pos, in.Err)
	}
	c.rd.MarkSigned = true
	c.traceEntry("entry authored", in.Pos, c.self)
	e := &ledger.Entry{Pos: in.Pos, Seat: c.self, Prev: c.prevHash(), Body: in.Body}
	e.Sign(c.game, c.cfg.SignKey)
	return c.onEntry(-1, e, ledger.Hash{}, false)
}

// tick is the ticker's turn while the game goes on: the countdown, the
// timeout verdict once the due seat has been silent for Timeout (never
// when this peer is cut off from the table, nor while the entry may
// exist elsewhere), and a sync of a stalled position every two ticks.
func (c *Core) tick(now time.Time) {
	pos, seat, _ := c.cfg.Replica.Next()
	c.emitWait(pos, seat)
	var v *Verdict
	if seat != c.self && c.cfg.Timeout > 0 && now.Sub(c.waitSince) >= c.cfg.Timeout {
		if since, cut := c.cutOff(now, seat); cut {
			// Cut off from every seat: the due seat's silence may be
			// ours. Blame nobody; give up only after long.
			if now.Sub(since) >= 3*c.cfg.Timeout {
				c.end(nil, fmt.Errorf("p2p: %w since %s (%v), waiting for seat %d at entry %d",
					ErrNoContact, since.Format(time.TimeOnly), now.Sub(since).Round(time.Second), seat, pos))
				return
			}
			if now.Sub(c.lastCutLog) >= 10*time.Second {
				c.lastCutLog = now
				c.log.Info("no contact with any seat: no timeout verdict", "since", since, "seat", seat, "pos", pos)
			}
		} else if !c.mayDeclare(pos, now) {
			// The entry may exist: asked for, not declared.
		} else if tv, err := c.timeout(pos, seat, now.Sub(c.waitSince)); err != nil {
			c.end(nil, err)
			return
		} else {
			v = tv
			c.v = v
		}
	}
	if err := c.checkTooLong(now, pos); err != nil {
		c.end(nil, err)
		return
	}
	if (seat != c.self || c.checking) && now.Sub(c.waitSince) >= 2*c.cfg.Tick && now.Sub(c.lastSync) >= 2*c.cfg.Tick && v == nil {
		c.lastSync = now
		c.syncAll(c.next(), nil)
	}
}

// tickEnd is the ticker's turn once the game is over here: at EndWait the
// run ends (with a verdict still held, or listing the seats that did not
// confirm the end); meanwhile, every two ticks, the seats missing are
// asked again, or our done is sent again.
func (c *Core) tickEnd(now time.Time) {
	if now.Sub(c.over) >= c.cfg.EndWait {
		if len(c.held) > 0 {
			// A seat that never confirmed the end may have stopped on
			// this verdict before it.
			c.conclude(c.held[0])
			return
		}
		if len(c.missing) > 0 {
			c.log.Warn("game over; no state hash after the last entry from some seats", "seats", c.missing)
		}
		c.rd.MissingDones = c.MissingDones(c.missing)
		c.logExit("EndWait ran out")
		out := c.outcome(nil)
		out.Unconfirmed = c.missing
		c.end(out, nil)
		return
	}
	if now.Sub(c.lastSync) >= 2*c.cfg.Tick {
		// Their echoes, or done messages, may have been lost: a sync
		// answer carries the server's state hash.
		c.lastSync = now
		if len(c.missing) > 0 {
			c.syncAll(c.next()-1, c.missing)
		} else if c.sentDone {
			c.sentDone = false
			c.sendDone()
		}
	}
}

// onTimer handles a timer a Ready asked for.
func (c *Core) onTimer(t Timer) {
	switch t.Kind {
	case TimerEchoFlush:
		c.echoArmed = false
		if c.echo == nil {
			return
		}
		// Entries kept coming: wait until the table is quiet for
		// EchoDelay, at most EchoMaxDelay after the first echo held.
		if wait := min(c.echoLast.Add(EchoDelay).Sub(c.now), c.echoFirst.Add(EchoMaxDelay).Sub(c.now)); wait > 0 {
			c.echoArmed = true
			c.rd.Timers = append(c.rd.Timers, Timer{Kind: TimerEchoFlush, After: wait})
			return
		}
		c.sendEcho()
	case TimerFetchCheck:
		c.onFetchCheck(t)
	}
}

// RefetchDelay is how long an entry fetched from a seat that reported it
// may stay missing before it is fetched from the next seat that did: the
// answer was lost (a stream reset), or the seat does not answer.
const RefetchDelay = 4 * FetchDelay

// onFetchCheck is the check FetchDelay after an echo of an entry this
// seat misses (t.Pos, reported by t.Seat), or RefetchDelay after it was
// fetched: while the entry at the next position is missing and a seat
// reported holding it, it is fetched, then fetched again from the next
// such seat, until it comes. Left to the tick's sync of a stalled
// position it came a second or more late, and only the seat due next
// waited for it: the table waits for that seat, so no other echo comes
// (issue 28's late entries at the next author).
func (c *Core) onFetchCheck(t Timer) {
	c.fetchArmed = false
	if c.due() || !c.running {
		return
	}
	next := c.next()
	if next > t.Pos {
		// The entry checked for came, but the one now missing was
		// reported while this check was armed (which armed nothing):
		// check it in turn, giving its author's copy FetchDelay.
		if s, ok := c.reporter(next, t.Seat); ok {
			c.armFetch(FetchDelay, s, next)
		}
		return
	}
	c.syncAll(next, []uint8{t.Seat})
	// Until the tick's sync of a stalled position takes over (two ticks
	// into the wait), so that seats that report an entry they never
	// serve cost a few requests, not a stream of them.
	if s, ok := c.reporter(next, t.Seat+1); ok && c.now.Sub(c.waitSince) < 2*c.cfg.Tick {
		c.armFetch(RefetchDelay, s, next)
	}
}

// armFetch asks for a fetch check of the entry at pos, from seat, after d.
func (c *Core) armFetch(d time.Duration, seat uint8, pos uint64) {
	c.fetchArmed = true
	c.rd.Timers = append(c.rd.Timers, Timer{Kind: TimerFetchCheck, After: d, Seat: seat, Pos: pos})
}

// reporter returns a seat, other than this one, that reported holding
// the entry at pos (an echo, an entry or a done at or after it, a sync
// answer that reached it): the first in seat order from seat from on,
// round the table. Once one did, the seat due at pos (the next position)
// counts too: it signed the entry, and sends no echo of its own entries.
func (c *Core) reporter(pos uint64, from uint8) (uint8, bool) {
	author := -1
	if p, seat, ok := c.cfg.Replica.Next(); ok && p == pos && seat != c.self {
		author = int(seat)
	}
	found := false
	for s := range c.peerLogs {
		if uint8(s) != c.self && c.peerLogs[s].claim > pos {
			found = true
		}
	}
	if !found {
		return 0, false
	}
	for i := range c.n {
		s := uint8((int(from) + i) % c.n)
		if s != c.self && (c.peerLogs[s].claim > pos || int(s) == author) {
			return s, true
		}
	}
	return 0, false
}

// flush sends the entries applied since the last Ready once they are
// durable (the Ready writes and syncs them first): the local seat's own
// entries whole (with our state hash after each), every other seat's as
// an echo (position, entry hash, state hash). A peer missing an entry
// fetches it from a seat that echoed it.
func (c *Core) flush() {
	c.forget()
	c.handed = int(c.checked())
	for _, e := range c.unsent {
		state, hash := c.states[e.Pos], c.hashes[e.Pos]
		c.rd.Entries = append(c.rd.Entries, e)
		c.rd.States = append(c.rd.States, state)
		if e.Seat == c.self {
			if frame, err := EncodeEntry(e, state); err == nil {
				// The entry replaces the echo held (of the entry before
				// it, onto which it chains): it says that we hold that
				// entry, and our state after this one.
				c.echo = nil
				c.broadcast(frame)
			}
		} else {
			if c.echo == nil {
				c.echoFirst = c.now
			}
			c.echo, c.echoLast = EncodeEcho(e.Pos, hash, state), c.now
			if !c.echoArmed {
				c.echoArmed = true
				c.rd.Timers = append(c.rd.Timers, Timer{Kind: TimerEchoFlush, After: EchoDelay})
			}
		}
	}
	c.unsent = c.unsent[:0]
}

// sendEcho broadcasts the latest echo, if it has not gone yet.
func (c *Core) sendEcho() {
	if c.echo != nil {
		c.broadcast(c.echo)
		c.echo = nil
	}
}

// sendDone tells every other seat, once, that the game is over here
// with this log and final state.
func (c *Core) sendDone() {
	if c.sentDone || c.next() == 0 {
		return
	}
	c.sentDone = true
	c.sendEcho()
	n := len(c.entries)
	c.broadcast(EncodeDone(uint64(n), c.states[n-1]))
}

// allDone says whether every other seat has said done with our log's
// length and our final state.
func (c *Core) allDone() bool {
	next := c.next()
	state := c.states[next-1]
	for s := range uint8(c.n) {
		if s == c.self {
			continue
		}
		d, ok := c.dones[s]
		if !ok && c.retired(s) {
			continue
		}
		if !ok || d.Len != next || d.State != state {
			return false
		}
	}
	return true
}

// MissingDones lists, once the game is over here, each other seat whose
// done message (with our log's length and final state) has not come, and
// why as far as this seat can tell: it never confirmed the end's state
// hash (in missing), it said done with another log, or it confirmed the
// end but its done was lost (it left, or its stream broke, before
// delivering it).
func (c *Core) MissingDones(missing []uint8) []MissingDone {
	next := c.next()
	if next == 0 {
		return nil
	}
	state := c.states[next-1]
	var out []MissingDone
	for s := range uint8(c.n) {
		if s == c.self || c.retired(s) {
			continue
		}
		d, ok := c.dones[s]
		var why string
		switch {
		case ok && (d.Len != next || d.State != state):
			why = fmt.Sprintf("it said done with %d entries and another final state", d.Len)
		case ok:
			continue
		case slices.Contains(missing, s):
			why = "no state hash after the last entry from it either"
		default:
			why = "it confirmed the last entry's state but its done never arrived"
		}
		out = append(out, MissingDone{Seat: s, Why: why})
	}
	return out
}

// emitWait reports the awaited position.
func (c *Core) emitWait(pos uint64, seat uint8) {
	w := Wait{Pos: pos, Seat: seat, Local: seat == c.self, Waited: c.now.Sub(c.waitSince), Connected: seat == c.self}
	w.Checking = w.Local && c.checking
	if !w.Local && int(seat) < c.n {
		if last, cut := c.cutOff(c.now, seat); cut {
			w.NoContactSince = last
		}
	}
	if c.cfg.Timeout > 0 {
		w.Left = max(0, c.cfg.Timeout-w.Waited)
	}
	c.rd.Waits = append(c.rd.Waits, w)
}

func (c *Core) outcome(v *Verdict) *Outcome {
	if v != nil {
		c.verdict = v
	}
	end := End(c.verdict, len(c.entries))
	out := &Outcome{Verdict: v, Entries: uint64(end), StateHash: c.cfg.Replica.StateHash(), Later: slices.Clone(c.later)}
	if end < len(c.entries) && end > 0 {
		out.StateHash = c.states[end-1]
	}
	return out
}

// conclude stores and announces a verdict, and ends the run with it. A
// timeout declared by other seats is stored with the declarations that
// made this peer adopt it (majorityTimeout), so that a restart can
// recount them (checkStored).
func (c *Core) conclude(v *Verdict) {
	var decl []*Verdict
	if v.Kind == VerdictTimeout && v.Declarer != c.self {
		votes := c.declared[v.Pos]
		for s := range uint8(c.n) {
			if d := votes[s]; d != nil && s != v.Declarer {
				decl = append(decl, d)
			}
		}
	}
	enc, err := MarshalStoredVerdict(v, decl)
	if err != nil {
		c.end(nil, fmt.Errorf("p2p: verdict: %w", err))
		return
	}
	c.rd.Save = enc
	if frame, err := EncodeVerdict(v); err == nil {
		c.sendEcho()
		c.broadcast(frame)
	}
	c.end(c.outcome(v), nil)
}
