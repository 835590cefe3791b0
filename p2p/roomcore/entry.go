package roomcore

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine/ledger"
)

// The path every frame from a seat takes: entries (onEntry, advance),
// echoes, dones, and what they report of the seats' logs and states.

// handle handles a message from a seat.
func (c *Core) handle(in Input) (*Verdict, error) {
	m := in.Msg
	switch m.Type {
	case MsgEntry:
		c.traceReceived(m.Entry.Pos, in.Seat, in.At)
		c.saw(m.Entry.Pos, in.Seat, "entry", in.At, true)
		// An all-zero state hash means the sender reports none (it relays
		// an entry it has not applied).
		return c.onEntry(int(in.Seat), m.Entry, m.State, m.State != ledger.Hash{})
	case MsgVerdict:
		return c.onVerdict(in.Seat, m.Verdict)
	case MsgEcho:
		c.saw(m.Pos, in.Seat, "echo", in.At, false)
		return c.onEcho(in.Seat, m.Pos, m.Hash, m.State)
	case MsgDone:
		if m.Pos > 0 {
			c.saw(m.Pos-1, in.Seat, "done", in.At, false)
		}
		return nil, c.onDone(in.Seat, m.Pos, m.State)
	}
	return nil, nil
}

// due says whether the entry the replica expects next is buffered.
func (c *Core) due() bool {
	pos, seat, ok := c.cfg.Replica.Next()
	return !ok || c.pending[pos][seat] != nil
}

// onEcho handles a seat's echo: it holds entry pos, whose hash is entry,
// and reached state after it. Another entry hash than ours makes us fetch
// that seat's entries (an equivocation proves itself); an echo of an
// entry we miss makes us fetch it from that seat, unless it arrives on its
// own within FetchDelay.
func (c *Core) onEcho(from uint8, pos uint64, entry, state ledger.Hash) (*Verdict, error) {
	next := c.next()
	if pos >= next+maxAhead {
		c.peerError(int(from), fmt.Errorf("echo of entry %d, more than %d positions ahead of %d", pos, maxAhead, next))
		return nil, nil
	}
	if err := c.report(int(from), pos, entry, state); err != nil {
		return nil, err
	}
	if pos >= next && !c.due() && !c.fetchArmed && c.running {
		c.fetchArmed = true
		c.rd.Timers = append(c.rd.Timers, Timer{Kind: TimerFetchCheck, After: FetchDelay, Seat: from, Pos: next})
	}
	return nil, nil
}

// onDone records a seat's done: its log has length entries and ends in
// state, and it has every other seat's echo of the end.
func (c *Core) onDone(from uint8, length uint64, state ledger.Hash) error {
	c.dones[from] = echoReport{State: state, Len: length}
	c.claimAt(from, length-1)
	if length == c.next() {
		// A done is also an echo of the last entry's state.
		return c.report(int(from), length-1, c.hashes[length-1], state)
	}
	return nil
}

// conflictAt handles a seat that holds another entry than ours at pos
// (its echo's entry hash differs): it fetches that seat's entries from
// the last position they agreed on; the differing entry then proves an
// equivocation (or is dropped as a forgery) on the path every entry
// takes.
func (c *Core) conflictAt(seat uint8, pos uint64) {
	c.peerError(int(seat), fmt.Errorf("seat %d echoes another entry than this peer's at position %d; fetching its entries", seat, pos))
	c.conflict = true
	if c.running {
		c.syncAll(min(pos, c.confirmed[seat]), []uint8{seat})
	}
}

// confirm records that seat reported our state hash after pos.
func (c *Core) confirm(seat uint8, pos uint64) {
	c.confirmed[seat] = max(c.confirmed[seat], pos+1)
}

// unconfirmed lists the other seats that have not reported our state hash
// after the last entry of the log.
func (c *Core) unconfirmed() []uint8 {
	var out []uint8
	next := c.next()
	for s := range uint8(c.n) {
		if s != c.self && c.confirmed[s] < next && !c.retired(s) {
			out = append(out, s)
		}
	}
	return out
}

// report records the entry hash and the state hash seat from reported
// for pos, and compares them with ours if we are there already.
func (c *Core) report(from int, pos uint64, entry, state ledger.Hash) error {
	if from < 0 {
		return nil
	}
	if pos < c.checked() {
		if entry != c.hashes[pos] {
			c.conflictAt(uint8(from), pos)
			return nil
		}
		return c.compare(uint8(from), pos, state, c.states[pos])
	}
	c.claimAt(uint8(from), pos)
	if from >= c.n {
		return nil // never read (accepted reads the table's seats)
	}
	r := posReport{echoReport: echoReport{Entry: entry, State: state}, seat: uint8(from)}
	m := c.reports[pos]
	i, found := slices.BinarySearchFunc(m, r.seat, func(p posReport, s uint8) int { return cmp.Compare(p.seat, s) })
	if found {
		m[i] = r // the seat's latest report replaces its earlier one
	} else {
		c.reports[pos] = slices.Insert(m, i, r)
	}
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
func (c *Core) compare(seat uint8, pos uint64, theirs, mine ledger.Hash) error {
	if theirs == mine {
		c.confirm(seat, pos)
		return nil
	}
	c.peerError(int(seat), fmt.Errorf("seat %d reports another state hash after entry %d than this peer's; ignored", seat, pos))
	d := c.disagree[pos]
	if d == nil {
		d = make(map[uint8]bool)
		c.disagree[pos] = d
	}
	d[seat] = true
	if len(d) >= c.majority() {
		if c.tentative > 0 && !c.settling {
			// A seat checking entry by entry would have refused an
			// unsettled entry before it stopped here.
			v, err := c.checkProofs()
			if err != nil {
				return err
			}
			if v != nil {
				c.refused = v
				return nil
			}
		}
		return c.diverged(pos, len(d))
	}
	return nil
}

func (c *Core) equivocation(a, b *ledger.Entry) (*Verdict, error) {
	v := &Verdict{Kind: VerdictEquivocation, Game: c.game, Pos: a.Pos, Seat: a.Seat,
		Reason:   fmt.Sprintf("seat %d signed two different entries for position %d", a.Seat, a.Pos),
		Evidence: SortEvidence(a, b), Declarer: c.self}
	if err := v.Sign(c.cfg.SignKey); err != nil {
		return nil, err
	}
	return v, nil
}

// onEntry is the single path every entry takes, the local author's
// included (from = -1). It returns a verdict when the entry proves one.
func (c *Core) onEntry(from int, e *ledger.Entry, state ledger.Hash, hasState bool) (*Verdict, error) {
	if int(e.Seat) >= c.n {
		c.peerError(from, fmt.Errorf("entry %d names seat %d; the table has %d", e.Pos, e.Seat, c.n))
		return nil, nil
	}
	next := c.next()
	if e.Pos < next {
		haveHash := c.hashes[e.Pos]
		if e.Hash() == haveHash {
			if hasState {
				return nil, c.report(from, e.Pos, haveHash, state)
			}
			return nil, nil
		}
		if err := c.verify(e); err != nil {
			c.peerError(from, err)
			return nil, nil
		}
		if c.seats[e.Pos] == e.Seat {
			have, err := c.entryAt(e.Pos)
			if err != nil {
				return nil, err
			}
			return c.equivocation(have, e)
		}
		c.peerError(from, fmt.Errorf("entry %d signed by seat %d, which was not its author", e.Pos, e.Seat))
		return nil, nil
	}
	if e.Pos >= next+maxAhead {
		c.peerError(from, fmt.Errorf("entry %d is more than %d positions ahead of %d", e.Pos, maxAhead, next))
		return nil, nil
	}
	at := c.pending[e.Pos]
	if old := at[e.Seat]; old != nil {
		if old.Hash() == e.Hash() {
			if hasState {
				return nil, c.report(from, e.Pos, old.Hash(), state)
			}
			return nil, nil
		}
		if err := c.verify(e); err != nil {
			c.peerError(from, err)
			return nil, nil
		}
		return c.equivocation(old, e)
	}
	if from >= 0 {
		if err := c.verify(e); err != nil {
			c.peerError(from, err)
			return nil, nil
		}
	}
	if size := pendingSize(e); e.Pos != next && c.pendingBytes[e.Seat]+size > maxPendingBytes {
		c.peerError(from, fmt.Errorf("entry %d by seat %d dropped: %d bytes of that seat's entries are already waiting ahead of position %d (limit %d); it is fetched again when due",
			e.Pos, e.Seat, c.pendingBytes[e.Seat], next, maxPendingBytes))
		return nil, nil
	}
	if at == nil {
		at = make(map[uint8]*ledger.Entry)
		c.pending[e.Pos] = at
	}
	at[e.Seat] = e
	c.pendingBytes[e.Seat] += pendingSize(e)
	if hasState {
		if err := c.report(from, e.Pos, c.entryHash(e), state); err != nil {
			return nil, err
		}
	}
	if from >= 0 && e.Pos > next && !c.due() && !c.fetchArmed && c.running {
		// An entry ahead says the sender holds those before it (they
		// chain): one missing here is fetched as for an echo (onEcho),
		// which a fast table sends seldom (EchoDelay).
		c.armFetch(RefetchDelay, uint8(from), next)
	}
	if c.deferApply {
		// A received entry: applied with the entries that come right
		// after it, if any, before any other input (Step) or at the
		// Ready.
		c.buffered = true
		return nil, nil
	}
	return c.advance()
}

// applyBuffered applies the entries buffered since the last input that
// was not an entry (advance), unless a verdict or an error is already
// held; it reports whether one is now.
func (c *Core) applyBuffered() bool {
	if c.buffered && c.v == nil && c.err == nil {
		c.buffered = false
		c.v, c.err = c.settleFirst(c.advance())
	}
	return c.v != nil || c.err != nil
}

// advance applies buffered entries for as long as the next expected one is
// there.
func (c *Core) advance() (*Verdict, error) {
	for {
		pos, seat, ok := c.cfg.Replica.Next()
		if !ok {
			return nil, nil
		}
		e := c.pending[pos][seat]
		if e == nil {
			return nil, nil
		}
		reason := ""
		ba, batches := c.cfg.Replica.(BatchApplier)
		da, defers := c.deferrer()
		if e.Prev != c.prevHash() {
			if e.Seat != c.self && pos > 0 {
				// This entry may chain onto another version of the entry
				// before it, which that entry's author signed besides
				// ours (a fork it showed some seats): it shows no fault
				// of its own author. It is held, and the author's log is
				// fetched (as by conflictAt): the other version proves the
				// equivocation; if none comes, the author times out.
				// Judging it here let two colluders, relaying an honest
				// seat's entry signed onto the other version faster than
				// its author's echo, make this peer blame that seat.
				if !c.conflict {
					c.log.Info("an entry follows another version of the entry before it: fetching its author's log", "pos", pos, "seat", e.Seat)
					c.conflict = true
					if c.running {
						c.syncAll(min(pos-1, c.confirmed[e.Seat]), []uint8{e.Seat})
					}
				}
				return nil, nil
			}
			reason = "previous hash does not match the log"
		} else if defers && e.Seat != c.self {
			c.settling, c.settleErr = true, nil
			failed, err := da.ApplyDeferred(e, c.settledOne)
			c.settling = false
			if c.settleErr != nil {
				c.rollbackTo(c.settleErrPos + 1)
				return nil, c.settleErr
			}
			if failed == nil && err == nil {
				c.dropPending(pos)
				if pos == c.next() {
					// Applied unsettled (had it failed and then applied
					// one by one, settledOne has taken it).
					c.appendLog(e, c.cfg.Replica.StateHash())
					c.tentative++
				}
				continue
			}
			if failed == nil || err == nil {
				return nil, fmt.Errorf("p2p: replica refused entry %d without an error", pos)
			}
			c.rollbackTo(failed.Pos)
			e, pos, reason = failed, failed.Pos, err.Error()
		} else if c.tentative > 0 {
			// The local seat's own entry (from a peer) is checked on a
			// settled log.
			if v, err := c.checkProofs(); v != nil || err != nil {
				return v, err
			}
			continue
		} else if batches && len(c.pending[pos+1]) > 0 {
			n, failed, refused, err := c.applyRun(ba)
			if err != nil {
				return nil, err
			}
			if failed == nil {
				if n == 0 {
					return nil, fmt.Errorf("p2p: replica applied none of a run from entry %d", pos)
				}
				continue
			}
			e, pos, reason = failed, failed.Pos, refused.Error()
		} else if err := c.apply(e); err != nil {
			reason = err.Error()
		}
		c.dropPending(pos)
		if reason != "" {
			return c.refuse(e, reason)
		}
		if err := c.accepted(e, c.cfg.Replica.StateHash()); err != nil {
			return nil, err
		}
	}
}

// refuse is the outcome of entry e refused by the replica for reason:
// an invalid-entry verdict against its author, or a local error for the
// local author's own entry.
func (c *Core) refuse(e *ledger.Entry, reason string) (*Verdict, error) {
	if e.Seat == c.self {
		return nil, fmt.Errorf("p2p: the local author's entry %d was rejected: %s", e.Pos, reason)
	}
	v := &Verdict{Kind: VerdictInvalidEntry, Game: c.game, Pos: e.Pos, Seat: e.Seat,
		Reason: reason, Evidence: []*ledger.Entry{e}, Declarer: c.self}
	if err := v.Sign(c.cfg.SignKey); err != nil {
		return nil, err
	}
	return v, nil
}

// deferrer returns the replica as a DeferredApplier when it checks
// proofs across entries and the run is on (a restart's replay applies
// its runs whole).
func (c *Core) deferrer() (DeferredApplier, bool) {
	da, ok := c.cfg.Replica.(DeferredApplier)
	if !ok || !c.running || !da.DefersProofs() {
		return nil, false
	}
	return da, true
}

// checkProofs settles the tentative entries: the replica checks their
// proofs in one batch. It returns nil when they held (each entry is then
// accepted as if just applied: written, echoed, its reports compared),
// or the verdict (or local error) a seat that checks entry by entry
// would have reached first, the log cut back to the entries before it.
func (c *Core) checkProofs() (*Verdict, error) {
	if c.tentative == 0 {
		return nil, nil
	}
	da, ok := c.cfg.Replica.(DeferredApplier)
	if !ok {
		return nil, fmt.Errorf("p2p: %d entries unsettled by a replica that does not defer", c.tentative)
	}
	c.settling, c.settleErr = true, nil
	failed, err := da.Settle(c.settledOne)
	c.settling = false
	if c.settleErr != nil {
		c.rollbackTo(c.settleErrPos + 1)
		return nil, c.settleErr
	}
	if failed == nil {
		if err != nil || c.tentative != 0 {
			return nil, fmt.Errorf("p2p: replica settled %d entries of %d (%v)", int(c.checked()), len(c.entries), err)
		}
		return nil, nil
	}
	if err == nil {
		return nil, fmt.Errorf("p2p: replica refused entry %d without an error", failed.Pos)
	}
	c.rollbackTo(failed.Pos)
	return c.refuse(failed, err.Error())
}

// settledOne takes an entry the replica settled (its proofs checked),
// with the state hash after it: a tentative entry is accepted; one not
// yet in the log (applied one by one after a failed batch) is recorded
// and accepted. The first local error stops the others (settleErr).
func (c *Core) settledOne(e *ledger.Entry, state ledger.Hash) {
	if c.settleErr != nil {
		return
	}
	var err error
	if e.Pos == c.next() {
		c.dropPending(e.Pos)
		err = c.accepted(e, state)
	} else if e.Pos == c.checked() && c.hashes[e.Pos] == c.entryHash(e) {
		c.tentative--
		err = c.vouch(e)
	} else {
		err = fmt.Errorf("p2p: replica settled entry %d, not the log's next unsettled one (%d)", e.Pos, c.checked())
	}
	if err != nil {
		c.settleErr, c.settleErrPos = err, e.Pos
	}
}

// rollbackTo cuts the log back to its first pos entries: the tentative
// entries from pos on, which the replica undid (an entry before them was
// refused, or settled with a local error).
func (c *Core) rollbackTo(pos uint64) {
	if pos >= c.next() {
		c.tentative = 0
		return
	}
	if pos < c.checked() {
		pos = c.checked()
	}
	c.entries, c.seats, c.hashes, c.states = c.entries[:pos], c.seats[:pos], c.hashes[:pos], c.states[:pos]
	c.tentative = 0
}

// applyRun applies the run of buffered entries that starts at the next
// position, each chained onto the one before it, through ba (their
// proofs checked together), and records each entry applied. It returns
// how many applied, the entry refused, if any, and why, or a local error.
func (c *Core) applyRun(ba BatchApplier) (n int, failed *ledger.Entry, refused, err error) {
	start := c.next()
	given := make(map[uint64]ledger.Hash)
	next := func(pos uint64, seat uint8) *ledger.Entry {
		e := c.pending[pos][seat]
		if e == nil {
			return nil
		}
		prev, ok := c.prevHash(), pos == start
		if !ok {
			prev, ok = given[pos-1]
		}
		if !ok || e.Prev != prev {
			// Left to advance: it holds an entry that follows another
			// version of the one before it.
			return nil
		}
		given[pos] = e.Hash()
		return e
	}
	type done struct {
		e     *ledger.Entry
		state ledger.Hash
	}
	var applied []done
	failed, refused = ba.ApplyBatch(next, MaxRun, func(e *ledger.Entry, state ledger.Hash) {
		applied = append(applied, done{e, state})
	})
	for _, a := range applied {
		c.dropPending(a.e.Pos)
		if err := c.accepted(a.e, a.state); err != nil {
			return 0, nil, nil, err
		}
	}
	if failed != nil && refused == nil {
		return 0, nil, nil, fmt.Errorf("p2p: replica refused entry %d without an error", failed.Pos)
	}
	return len(applied), failed, refused, nil
}

// accepted records entry e, just applied, and state, the replica's state
// hash after it, and compares it with what the seats reported for its
// position.
func (c *Core) accepted(e *ledger.Entry, state ledger.Hash) error {
	c.appendLog(e, state)
	return c.vouch(e)
}

// appendLog appends entry e, just applied (settled or not), and state, the
// replica's state hash after it, to the log.
func (c *Core) appendLog(e *ledger.Entry, state ledger.Hash) {
	pos := e.Pos
	c.traceEntry("entry applied", pos, e.Seat)
	c.appliedAt(pos, e.Seat, c.now)
	hash := c.entryHash(e)
	c.entries = append(c.entries, e)
	c.seats = append(c.seats, e.Seat)
	c.hashes = append(c.hashes, hash)
	c.states = append(c.states, state)
}

// vouch takes entry e of the log, its proofs checked, as this seat's
// own: the Ready writes, syncs and sends it, and what the seats reported
// for its position is compared with our state after it.
func (c *Core) vouch(e *ledger.Entry) error {
	pos := e.Pos
	hash, state := c.hashes[pos], c.states[pos]
	c.unsent = append(c.unsent, e)
	reports := c.reports[pos]
	delete(c.reports, pos)
	for _, h := range reports {
		if h.Entry != hash {
			c.conflictAt(h.seat, pos)
			continue
		}
		if err := c.compare(h.seat, pos, h.State, state); err != nil {
			return err
		}
	}
	return nil
}
