package p2p

import (
	"context"
	"fmt"
	"time"
)

// What this peer knows of the other seats' logs, and the two rules built
// on it (issue 29):
//
//   - A timeout is declared only when the entry waited for is truly
//     missing on the seats this peer reaches: a sync request made after
//     the timer ran out was answered without it, and no seat reports
//     holding it (an echo, an entry, a done). A peer back from a network
//     outage that hears an echo of the entry fetches it and goes on; it
//     does not blame the honest seat whose entry it missed.
//   - A seat whose state directory says it has signed entries before
//     (store.SignedFile) asks the other seats for the log before it signs
//     anything in a run: its own log may have lost entries it published
//     (a lost write, a directory restored from a backup), and signing that
//     position again would be an equivocation.

// peerLog is what this peer knows of another seat's log. Owned by Run.
type peerLog struct {
	// claim is one past the highest position the seat reported holding
	// (an echo, an entry with its state hash, a done, a sync answer).
	claim uint64
	// asked is when the last sync request this seat answered was made,
	// length the log length its answer reported.
	asked  time.Time
	length uint64
}

// msgSynced is an internal inbox message, never on the wire: a sync
// answer ended (after the entries it brought); From is the server's log
// length, inbound.asked when the request was made.
const msgSynced = 253

// claimAt records that seat reported holding position pos.
func (r *Room) claimAt(seat uint8, pos uint64) {
	if int(seat) < len(r.peerLogs) && seat != r.self {
		r.peerLogs[seat].claim = max(r.peerLogs[seat].claim, pos+1)
	}
}

// onSynced records a seat's sync answer: its log had length entries when
// it answered the request made at asked.
func (r *Room) onSynced(seat uint8, length uint64, asked time.Time) {
	if int(seat) >= len(r.peerLogs) || seat == r.self {
		return
	}
	p := &r.peerLogs[seat]
	if asked.After(p.asked) {
		p.asked, p.length = asked, length
	}
	if length > 0 {
		r.claimAt(seat, length-1)
	}
}

// heldElsewhere says whether a seat reports holding the entry at pos
// (so that it exists, and is fetched), for at most limit from the first
// such report seen at pos: a seat that echoes an entry it never serves
// delays this peer by that much, and no more.
func (r *Room) heldElsewhere(pos uint64, now time.Time, limit time.Duration) bool {
	held := false
	for s, p := range r.peerLogs {
		if uint8(s) != r.self && p.claim > pos {
			held = true
		}
	}
	if !held {
		return false
	}
	if r.heldPos != pos || r.heldSince.IsZero() {
		r.heldPos, r.heldSince = pos, now
	}
	return now.Sub(r.heldSince) < limit
}

// checkedMissing says whether a sync request made at or after since was
// answered by some other seat without the entry at pos. At a table with
// no seat besides this one and the one due, the due seat's silence is
// all there is to go by: true.
func (r *Room) checkedMissing(pos uint64, since time.Time) bool {
	if len(r.peers) <= 2 {
		return true
	}
	for s, p := range r.peerLogs {
		if uint8(s) != r.self && !p.asked.IsZero() && !p.asked.Before(since) && p.length <= pos {
			return true
		}
	}
	return false
}

// mayDeclare says whether this peer may declare the seat due at pos
// silent now: the entry is missing on the seats it reaches. Otherwise it
// asks them again (fetching the entry if one reports it).
func (r *Room) mayDeclare(ctx context.Context, pos uint64, now time.Time) bool {
	if r.heldElsewhere(pos, now, r.cfg.Timeout) {
		// A timeout there would blame a seat whose entry exists.
		r.syncAll(ctx, pos, nil)
		return false
	}
	if r.checkedMissing(pos, r.waitSince.Add(r.cfg.Timeout)) {
		return true
	}
	r.syncAll(ctx, pos, nil)
	return false
}

// authorCheckWait is how long a seat that must check what it signed
// before (see mayAuthor) waits for every other seat's answer once one
// has answered.
func (r *Room) authorCheckWait() time.Duration { return 4 * r.cfg.Tick }

// mayAuthor says whether the local seat may sign the entry at pos now.
// In a run of a state directory whose seat signed entries before, not
// before the other seats have told it their logs (every one of them, or
// at least one and authorCheckWait has passed), nor while one reports
// holding that entry (this seat's own, signed before and lost here: it is
// fetched) for up to authorCheckWait. With no answer it waits: it never
// signs a position it may have signed before without checking.
func (r *Room) mayAuthor(ctx context.Context, pos uint64, now time.Time) bool {
	if !r.checkFirst {
		return true
	}
	if r.heldElsewhere(pos, now, r.authorCheckWait()) {
		r.syncAll(ctx, pos, nil)
		return false
	}
	answered, others := 0, 0
	for s, p := range r.peerLogs {
		if uint8(s) == r.self {
			continue
		}
		others++
		if !p.asked.Before(r.runStart) {
			answered++
		}
	}
	if answered == others || answered > 0 && now.Sub(r.runStart) >= r.authorCheckWait() {
		r.checkFirst = false
		return true
	}
	return false
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

// checkTooLong ends a run whose seat has waited three timeouts for any
// seat to tell it what it signed before (mayAuthor), as a peer cut off
// from every seat does: it has signed nothing meanwhile, and blames
// nobody. At a table without a timeout it waits on.
func (r *Room) checkTooLong(now time.Time, pos uint64) error {
	if !r.checking || r.cfg.Timeout <= 0 || now.Sub(r.runStart) < 3*r.cfg.Timeout {
		return nil
	}
	return fmt.Errorf("p2p: %w since this program started (%v): it must learn from another seat what it signed before it signs entry %d again (its state directory may have lost entries it published)",
		ErrNoContact, now.Sub(r.runStart).Round(time.Second), pos)
}
