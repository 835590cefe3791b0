package roomcore

import (
	"fmt"
	"time"
)

// What this peer knows of the other seats' logs, and the two rules built
// on it (issue 29):
//
//   - A timeout is declared only when the entry waited for is truly
//     missing on the seats this peer reaches: a sync request made after
//     the timer ran out was answered without it (or a seat declared its
//     author silent there), and no seat reports holding it (an echo, an
//     entry, a done). A peer back from a network
//     outage that hears an echo of the entry fetches it and goes on; it
//     does not blame the honest seat whose entry it missed.
//   - A seat whose state directory says it has signed entries before
//     (Config.Signed) asks the other seats for the log before it signs
//     anything in a run: its own log may have lost entries it published
//     (a lost write, a directory restored from a backup), and signing that
//     position again would be an equivocation.

// peerLog is what this peer knows of another seat's log.
type peerLog struct {
	// claim is one past the highest position the seat reported holding
	// (an echo, an entry with its state hash, a done, a sync answer).
	claim uint64
	// asked is when the last sync request this seat answered was made,
	// length the log length its answer reported.
	asked  time.Time
	length uint64
}

// claimAt records that seat reported holding position pos.
func (c *Core) claimAt(seat uint8, pos uint64) {
	if int(seat) < len(c.peerLogs) && seat != c.self {
		c.peerLogs[seat].claim = max(c.peerLogs[seat].claim, pos+1)
	}
}

// onSynced records a seat's sync answer: its log had length entries when
// it answered the request made at asked.
func (c *Core) onSynced(seat uint8, length uint64, asked time.Time) {
	if int(seat) >= len(c.peerLogs) || seat == c.self {
		return
	}
	p := &c.peerLogs[seat]
	if asked.After(p.asked) {
		p.asked, p.length = asked, length
	}
	if length > 0 {
		c.claimAt(seat, length-1)
	}
}

// heldElsewhere says whether a seat reports holding the entry at pos
// (so that it exists, and is fetched), for at most limit from the first
// such report seen at pos: a seat that echoes an entry it never serves
// delays this peer by that much, and no more.
func (c *Core) heldElsewhere(pos uint64, now time.Time, limit time.Duration) bool {
	held := false
	for s, p := range c.peerLogs {
		if uint8(s) != c.self && p.claim > pos {
			held = true
		}
	}
	if !held {
		return false
	}
	if c.heldPos != pos || c.heldSince.IsZero() {
		c.heldPos, c.heldSince = pos, now
	}
	return now.Sub(c.heldSince) < limit
}

// checkedMissing says whether a sync request made at or after since was
// answered by some other seat without the entry at pos, or some other
// seat declared the seat due at pos silent there (its signed timeout
// verdict: it does not hold the entry, and an honest seat that declared
// never will; a colluder could as well answer a sync without it). At a
// table with no seat besides this one and the one due, the due seat's
// silence is all there is to go by: true.
func (c *Core) checkedMissing(pos uint64, since time.Time) bool {
	if c.n <= 2 || len(c.declared[pos]) > 0 && pos == c.next() {
		return true
	}
	for s, p := range c.peerLogs {
		if uint8(s) != c.self && !p.asked.IsZero() && !p.asked.Before(since) && p.length <= pos {
			return true
		}
	}
	return false
}

// mayDeclare says whether this peer may declare the seat due at pos
// silent now: the entry is missing on the seats it reaches. Otherwise it
// asks them again (fetching the entry if one reports it).
func (c *Core) mayDeclare(pos uint64, now time.Time) bool {
	if c.heldElsewhere(pos, now, c.cfg.Timeout) {
		// A timeout there would blame a seat whose entry exists.
		c.syncAll(pos, nil)
		return false
	}
	if c.checkedMissing(pos, c.waitSince.Add(c.cfg.Timeout)) {
		return true
	}
	c.syncAll(pos, nil)
	return false
}

// authorCheckWait is how long a seat that must check what it signed
// before (see mayAuthor) waits for every other seat's answer once one
// has answered.
func (c *Core) authorCheckWait() time.Duration { return 4 * c.cfg.Tick }

// mayAuthor says whether the local seat may sign the entry at pos now.
// In a run of a state directory whose seat signed entries before, not
// before the other seats have told it their logs (every one of them, or
// at least one and authorCheckWait has passed), nor while one reports
// holding that entry (this seat's own, signed before and lost here: it is
// fetched) for up to authorCheckWait. With no answer it waits: it never
// signs a position it may have signed before without checking.
func (c *Core) mayAuthor(pos uint64, now time.Time) bool {
	if !c.checkFirst {
		return true
	}
	if c.heldElsewhere(pos, now, c.authorCheckWait()) {
		c.syncAll(pos, nil)
		return false
	}
	answered, others := 0, 0
	for s, p := range c.peerLogs {
		if uint8(s) == c.self {
			continue
		}
		others++
		if !p.asked.Before(c.runStart) {
			answered++
		}
	}
	if answered == others || answered > 0 && now.Sub(c.runStart) >= c.authorCheckWait() {
		c.checkFirst = false
		return true
	}
	return false
}

// checkTooLong ends a run whose seat has waited three timeouts for any
// seat to tell it what it signed before (mayAuthor), as a peer cut off
// from every seat does: it has signed nothing meanwhile, and blames
// nobody. At a table without a timeout it waits on.
func (c *Core) checkTooLong(now time.Time, pos uint64) error {
	if !c.checking || c.cfg.Timeout <= 0 || now.Sub(c.runStart) < 3*c.cfg.Timeout {
		return nil
	}
	return fmt.Errorf("p2p: %w since this program started (%v): it must learn from another seat what it signed before it signs entry %d again (its state directory may have lost entries it published)",
		ErrNoContact, now.Sub(c.runStart).Round(time.Second), pos)
}

// lateApply is how long after this seat first learnt that an entry
// exists (a seat's echo or done naming it, or the entry itself) it may be
// applied here before the delay is logged: at a table where every seat
// applies an entry within milliseconds, a second means a frame held up
// somewhere (a sender, a stream, the inbox) or a missing predecessor.
const lateApply = time.Second

// entrySeen is what a seat knows of an entry's way to it.
type entrySeen struct {
	first     time.Time // the first frame naming it reached this node
	firstVia  string    // "echo", "done" or "entry"
	firstSeat uint8     // the seat whose frame that was
	recv      time.Time // the entry itself first reached this node (zero: not yet)
	recvSeat  uint8     // from which seat (its author, or a sync answer's server)
	handled   time.Time // the step that took that frame
}

// saw records that a frame from seat naming entry pos (the entry itself
// when entry is set) reached this node at at. Only positions not yet
// applied and within maxAhead are kept.
func (c *Core) saw(pos uint64, seat uint8, via string, at time.Time, entry bool) {
	next := c.next()
	if pos < next || pos >= next+maxAhead {
		return
	}
	s := c.seen[pos]
	if s == nil {
		s = &entrySeen{first: at, firstVia: via, firstSeat: seat}
		c.seen[pos] = s
	} else if at.Before(s.first) {
		s.first, s.firstVia, s.firstSeat = at, via, seat
	}
	if entry && s.recv.IsZero() {
		s.recv, s.recvSeat, s.handled = at, seat, c.now
	}
}

// appliedAt logs entry pos, by seat, applied at now, when that is more
// than lateApply after this seat first learnt it exists, with the
// timestamps (Unix microseconds) that say where it was held: between the
// first echo and the entry's arrival (the network or the sender), in the
// inbox (this seat busy), or after it was handled (waiting for an earlier
// entry: prev_applied_us, when the entry before it was applied here,
// is then close to applied_us). The local seat's own entries are not
// timed, but count as the previous entry.
func (c *Core) appliedAt(pos uint64, seat uint8, now time.Time) {
	s, prev := c.seen[pos], c.lastApplied
	delete(c.seen, pos)
	c.lastApplied = now
	if s == nil || seat == c.self || now.Sub(s.first) <= lateApply {
		return
	}
	us := func(t time.Time) int64 {
		if t.IsZero() {
			return 0
		}
		return t.UnixMicro()
	}
	c.log.Warn("entry applied late", "pos", pos, "seat", seat, "late", now.Sub(s.first).Round(time.Millisecond),
		"first_us", us(s.first), "first_via", s.firstVia, "first_from", s.firstSeat,
		"received_us", us(s.recv), "received_from", s.recvSeat, "handled_us", us(s.handled),
		"prev_applied_us", us(prev), "applied_us", now.UnixMicro())
}
