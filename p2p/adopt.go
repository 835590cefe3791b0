package p2p

import (
	"errors"
	"fmt"
)

// ErrTimedOut is wrapped by [Room.Run]'s error when more than half the
// table declared the local seat silent at a position whose entry it
// authored but which reached them too late (a crash between writing and
// sending it): the table ended there without this seat. It blames
// nobody, and no verdict naming the local seat is adopted or stored.
var ErrTimedOut = errors.New("the table timed this seat out")

// majority is how many seats make more than half the table: the fewest
// declarations that no coalition of half the table or fewer can give,
// and, at two seats, more than the one other seat.
func (r *Room) majority() int { return len(r.peers)/2 + 1 }

// diverged stops this peer: n other seats, more than half the table,
// report another state after entry pos than this peer's replica, which is
// the odd one. It signs a statement naming only itself, keeps it as the
// room's verdict (sync answers and spectators carry it) and sends it, so
// that the others end with it instead of timing this seat out. The
// returned error is Run's; nothing is stored.
func (r *Room) diverged(pos uint64, n int) error {
	err := fmt.Errorf("p2p: after entry %d, %d of the %d other seats report another state than this peer's replica: this peer's copy of the game is wrong (a bug in this masque, or a damaged state directory); it stops, blaming nobody",
		pos, n, len(r.peers)-1)
	v := &Verdict{Kind: VerdictDivergence, Game: r.game, Pos: pos, Seat: r.self, Declarer: r.self,
		Reason: fmt.Sprintf("this seat's replica disagrees after entry %d with %d of the %d other seats; it stopped", pos, n, len(r.peers)-1)}
	if serr := v.Sign(r.node.id.SigningKey()); serr != nil {
		return err
	}
	r.mu.Lock()
	r.verdict = v
	r.mu.Unlock()
	if frame, ferr := encodeVerdictMsg(v); ferr == nil {
		r.sendEcho()
		r.broadcast(frame)
	}
	return err
}

// onStatement keeps a seat's own statement that it stopped (a divergence
// verdict it declared about itself): when that seat is then timed out,
// the table ends with its statement instead (see timeout). The first
// time, it is passed on to every seat, so that all have it when their
// timers run out, even if its author sent it to one peer only. A
// divergence verdict naming another seat than its declarer is one seat's
// word about another: logged, never adopted.
func (r *Room) onStatement(from uint8, v *Verdict) {
	if v.Seat != v.Declarer || v.Seat == r.self {
		r.node.log.Info("peer's divergence verdict not adopted: it does not name its own declarer", "peer", r.peers[from], "verdict", v.String())
		return
	}
	if r.statements[v.Seat] != nil {
		return
	}
	r.statements[v.Seat] = v
	r.node.log.Info("a seat stopped: its replica disagrees with most of the table", "verdict", v.String())
	if frame, err := encodeVerdictMsg(v); err == nil {
		r.broadcast(frame)
	}
}

// afterEnd handles a verdict found (or adopted) once this peer holds the
// game's last entry: a losing seat signing another version of one of its
// past entries, say. The finished game's outcome stands against it once
// more than half the seats other than the one it names hold this log's
// end (this one, and those that reported our state after the last
// entry): a coalition of half the table or fewer, the named seat
// included, cannot hold that back. The verdict is then reported beside
// the outcome (Outcome.Later). Until then it is held (settle); one still
// held when RoomConfig.EndWait runs out ends the table: the honest seats
// did not reach the same end (a seat got another last entry, or stopped
// on the verdict before the end).
func (r *Room) afterEnd(v *Verdict) {
	r.held = append(r.held, v)
	r.settle()
}

// settle moves the held verdicts that the finished game stands against
// (see afterEnd) to later.
func (r *Room) settle() {
	kept := r.held[:0]
	for _, v := range r.held {
		if !r.endHeld(v.Seat) {
			kept = append(kept, v)
			continue
		}
		r.node.log.Warn("a verdict found after the game's last entry: the finished game stands, the verdict is reported beside it", "verdict", v.String())
		r.later = append(r.later, v)
	}
	r.held = kept
}

// endHeld says whether more than half the seats other than accused
// (retired ones left out) hold this peer's log to its end: this one, and
// those that reported our state after its last entry.
func (r *Room) endHeld(accused uint8) bool {
	next := r.next()
	r.mu.RLock()
	defer r.mu.RUnlock()
	holders, seats := 0, 0
	for s := range uint8(len(r.peers)) {
		if s == accused || (s != r.self && r.retired(s)) {
			continue
		}
		seats++
		if s == r.self || r.confirmed[s] >= next {
			holders++
		}
	}
	return 2*holders > seats
}

// storedVerdict reads the verdict in the state directory, if any, and
// checks it like a received one: its signature and evidence against the
// roster (Verify), then checkStored against the replayed log. A verdict
// that fails is refused with an error: the directory was altered.
func (r *Room) storedVerdict() (*Verdict, error) {
	raw, err := r.cfg.Store.Verdict()
	if err != nil || raw == nil {
		return nil, err
	}
	v, err := UnmarshalVerdict(raw)
	if err == nil {
		err = v.Verify(r.roster)
	}
	if err == nil {
		err = r.checkStored(v)
	}
	if err != nil {
		return nil, fmt.Errorf("p2p: the verdict in the state directory %s is refused (the directory was altered or damaged): %w", r.cfg.Store.Dir(), err)
	}
	return v, nil
}

// checkStored says whether this peer could have stored v, a verified
// verdict, at the end of the replayed log: a self-proving equivocation;
// its own invalid-entry or timeout verdict for the entry due next; a
// timeout it adopted for a position it holds, declared by another seat
// (it cannot recount the seats that declared it); or a seat's statement
// that it stopped, ending the table where that seat was due. Never a
// timeout naming this seat, nor one after the game's last entry.
func (r *Room) checkStored(v *Verdict) error {
	next := r.next()
	pos, due, ok := r.cfg.Replica.Next()
	switch v.Kind {
	case VerdictEquivocation:
		return nil
	case VerdictInvalidEntry:
		if v.Declarer == r.self && ok && v.Pos == pos && v.Seat == due {
			return nil
		}
	case VerdictTimeout:
		switch {
		case v.Seat == r.self:
			return fmt.Errorf("%v: it names this seat, and this peer adopts no verdict naming its own seat", v)
		case !ok:
			return fmt.Errorf("%v: the log holds the whole game, and no timeout is adopted after its last entry", v)
		case v.Declarer == r.self && v.Pos == pos && v.Seat == due:
			return nil
		case v.Declarer != r.self && v.Declarer != v.Seat && v.Pos < next && r.logSeat(v.Pos) == v.Seat:
			return nil
		}
	case VerdictDivergence:
		if v.Seat == v.Declarer && v.Seat != r.self && ok && v.Seat == due {
			return nil
		}
	}
	if ok {
		return fmt.Errorf("%v: not a verdict this seat could have stored after %d entries (seat %d due at entry %d)", v, next, due, pos)
	}
	return fmt.Errorf("%v: not a verdict this seat could have stored after %d entries (the whole game)", v, next)
}

// logSeat is the author of log entry pos, which the log holds.
func (r *Room) logSeat(pos uint64) uint8 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.log[pos].Seat
}
