package roomcore

import (
	"fmt"
	"github.com/masque-games/masque/engine/ledger"
	"time"
)

// majority is how many seats make more than half the table: the fewest
// declarations that no coalition of half the table or fewer can give,
// and, at two seats, more than the one other seat.
func (c *Core) majority() int { return c.n/2 + 1 }

// diverged stops this peer: n other seats, more than half the table,
// report another state after entry pos than this peer's replica, which is
// the odd one. It signs a statement naming only itself, keeps it as the
// table's verdict (sync answers and spectators carry it) and sends it, so
// that the others end with it instead of timing this seat out. The
// returned error ends the run; nothing is stored.
func (c *Core) diverged(pos uint64, n int) error {
	err := fmt.Errorf("p2p: after entry %d, %d of the %d other seats report another state than this peer's replica: this peer's copy of the game is wrong (a bug in this masque, or a damaged state directory); it stops, blaming nobody",
		pos, n, c.n-1)
	v := &Verdict{Kind: VerdictDivergence, Game: c.game, Pos: pos, Seat: c.self, Declarer: c.self,
		Reason: fmt.Sprintf("this seat's replica disagrees after entry %d with %d of the %d other seats; it stopped", pos, n, c.n-1)}
	if serr := v.Sign(c.cfg.SignKey); serr != nil {
		return err
	}
	c.verdict = v
	if frame, ferr := EncodeVerdict(v); ferr == nil {
		c.sendEcho()
		c.broadcast(frame)
	}
	return err
}

// onVerdict handles a peer's verdict: self-proving ones are adopted, an
// invalid entry is judged by running it through our own replica, a
// seat's statement that it stopped is kept for its timeout (onStatement),
// and a timeout is judged by onTimeout. After the game's last entry the
// verdicts this returns are reported beside the finished game unless it
// is disputed (see afterEnd).
func (c *Core) onVerdict(from uint8, v *Verdict) (*Verdict, error) {
	if err := v.Verify(c.roster); err != nil {
		c.peerError(int(from), err)
		return nil, nil
	}
	switch v.Kind {
	case VerdictEquivocation:
		return v, nil
	case VerdictInvalidEntry:
		return c.onEntry(int(from), v.Evidence[0], ledger.Hash{}, false)
	case VerdictTimeout:
		return c.onTimeout(from, v)
	case VerdictDivergence:
		c.onStatement(from, v)
		return nil, nil
	}
	c.log.Info("peer stopped its table", "seat", from, "verdict", v.String())
	return nil, nil
}

// onTimeout handles a peer's timeout verdict. It is never adopted on the
// declarer's word: only when this peer can check it, that is the game is
// not over, the named seat is the one due at exactly our next position
// (not us), and our own timer for that position has run out too (then
// our own verdict says the same); or when more than half the table
// declared it, for a position this peer is past or for the one it waits
// at (majorityTimeout). Otherwise it is logged and the table goes on: a
// seat that signs "seat 1 silent at position 2^40", or a timeout after
// the last entry, stops nobody.
func (c *Core) onTimeout(from uint8, v *Verdict) (*Verdict, error) {
	pos, seat, ok := c.cfg.Replica.Next()
	if !ok {
		c.log.Info("peer's timeout verdict not adopted: the game is over here", "seat", from, "verdict", v.String())
		return nil, nil
	}
	c.record(v)
	if v.Pos == pos && v.Seat == seat && v.Pos == c.waitPos && seat != c.self &&
		c.cfg.Timeout > 0 && c.now.Sub(c.waitSince) >= c.cfg.Timeout && c.ownTimeout(pos, seat, c.now) {
		// Our own timer says the same, and the run loop would declare
		// it: the verdict is ours too, signed by this peer.
		return c.timeout(pos, seat, c.now.Sub(c.waitSince))
	}
	if adopted, err := c.majorityTimeout(v); adopted != nil || err != nil {
		return adopted, err
	}
	c.log.Info("peer's timeout verdict not adopted: this peer cannot confirm it", "seat", from, "verdict", v.String())
	return nil, nil
}

// ownTimeout applies the run loop's rule for declaring seat, due at pos,
// silent now, once this peer's timer has run out: not cut off from the
// table, and the entry missing on the seats it reaches (mayDeclare; it
// asks them again otherwise). A peer's timeout verdict is adopted on our
// own timer only under the same rule: a colluder's verdict must not make
// this peer, back from an outage, blame a seat whose entry another seat
// holds (issue 29).
func (c *Core) ownTimeout(pos uint64, seat uint8, now time.Time) bool {
	if _, cut := c.cutOff(now, seat); cut {
		return false
	}
	return c.mayDeclare(pos, now)
}

// timeout returns this peer's signed verdict that seat was silent at pos
// for waited; or, when seat said it stopped (its replica disagreed with
// most of the table), that seat's own statement: a peer that stops on a
// divergence is not blamed for the silence that follows.
func (c *Core) timeout(pos uint64, seat uint8, waited time.Duration) (*Verdict, error) {
	if st := c.statements[seat]; st != nil {
		return st, nil
	}
	v := &Verdict{Kind: VerdictTimeout, Game: c.game, Pos: pos, Seat: seat,
		Reason:   fmt.Sprintf("seat %d (%s) silent for %v", seat, c.roster.Seats[seat].Name, waited.Round(time.Millisecond)),
		Declarer: c.self}
	if err := v.Sign(c.cfg.SignKey); err != nil {
		return nil, err
	}
	return v, nil
}

// counts says whether v, a verified timeout verdict received while the
// game goes on, is a declaration this peer counts (record,
// majorityTimeout): by a seat other than this one and the one it names,
// of the seat that authored a position this peer is past (held: the
// entry reached it too late for the declarer) or of the seat due at the
// position it waits at (due).
func (c *Core) counts(v *Verdict) (held, due bool) {
	if v.Declarer == v.Seat || v.Declarer == c.self {
		return false, false
	}
	pos, seat, ok := c.cfg.Replica.Next()
	held = v.Pos < c.next() && c.seats[v.Pos] == v.Seat
	due = ok && v.Pos == pos && v.Seat == seat
	return held, due
}

// record keeps v, a verified timeout verdict, among the declarations for
// its position if it counts there. It returns how many distinct seats
// have declared it (0: it does not count).
func (c *Core) record(v *Verdict) int {
	if held, due := c.counts(v); !held && !due {
		return 0
	}
	votes := c.declared[v.Pos]
	if votes == nil {
		votes = make(map[uint8]*Verdict)
		c.declared[v.Pos] = votes
	}
	votes[v.Declarer] = v
	return len(votes)
}

// majorityTimeout adopts a timeout verdict, while the game goes on, once
// more than half the table, the seat named and this one left out, have
// declared the same seat silent at the same position: either one this
// peer is already past (it holds the entry the declarers waited for,
// which reached it, or which it authored, too late for them), or the one
// it waits at, its own timer not yet run out (it started later than
// theirs: the previous entry reached this peer late) or its own rule not
// yet met (nobody left to answer its sync). No coalition of half the
// table or fewer can make it so, and at two seats only one's own timer
// counts (issue 23, item 2): a minority cannot cut an honest seat's time
// short; a majority of colluders could end the table anyway. Then this
// peer adopts their verdict (for the position it waits at, the named
// seat's own statement that it stopped, if it has one, as its own timer
// would), so that every honest peer ends with the same log (cut before
// that position, see [End]) and the same verdict; but never one that
// names this peer: the table ended without it (its entry reached the
// table too late, or it is still authoring it), and it stops with an
// error wrapping [ErrTimedOut], blaming nobody and storing nothing. One
// seat's word alone stops nobody: a peer can stop a table only by going
// silent, never by lying.
func (c *Core) majorityTimeout(v *Verdict) (*Verdict, error) {
	held, due := c.counts(v)
	if !held && !due {
		return nil, nil
	}
	votes := c.record(v)
	if votes < c.majority() {
		return nil, nil
	}
	if v.Seat == c.self {
		if held {
			return nil, fmt.Errorf("p2p: %w: %d of the %d seats declared this seat silent at entry %d, which reached them too late; the table ended there without it",
				ErrTimedOut, votes, c.n, v.Pos)
		}
		return nil, fmt.Errorf("p2p: %w: %d of the %d seats declared this seat silent at entry %d before it was sent; the table ended there without it",
			ErrTimedOut, votes, c.n, v.Pos)
	}
	if held {
		c.log.Info("adopting a timeout at a position this peer is past: most of the table stopped there", "verdict", v.String(), "seats", votes)
		return v, nil
	}
	if st := c.statements[v.Seat]; st != nil {
		return st, nil
	}
	c.log.Info("adopting a timeout at the position this peer waits at: most of the table stopped there", "verdict", v.String(), "seats", votes)
	return v, nil
}

// onStatement keeps a seat's own statement that it stopped (a divergence
// verdict it declared about itself): when that seat is then timed out,
// the table ends with its statement instead (see timeout). The first
// time, it is passed on to every seat, so that all have it when their
// timers run out, even if its author sent it to one peer only. A
// divergence verdict naming another seat than its declarer is one seat's
// word about another: logged, never adopted.
func (c *Core) onStatement(from uint8, v *Verdict) {
	if v.Seat != v.Declarer || v.Seat == c.self {
		c.log.Info("peer's divergence verdict not adopted: it does not name its own declarer", "seat", from, "verdict", v.String())
		return
	}
	if c.statements[v.Seat] != nil {
		return
	}
	c.statements[v.Seat] = v
	c.log.Info("a seat stopped: its replica disagrees with most of the table", "verdict", v.String())
	if frame, err := EncodeVerdict(v); err == nil {
		c.broadcast(frame)
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
// held when Config.EndWait runs out ends the table: the honest seats did
// not reach the same end (a seat got another last entry, or stopped on
// the verdict before the end).
func (c *Core) afterEnd(v *Verdict) {
	c.held = append(c.held, v)
	c.settle()
}

// settle moves the held verdicts that the finished game stands against
// (see afterEnd) to later.
func (c *Core) settle() {
	kept := c.held[:0]
	for _, v := range c.held {
		if !c.endHeld(v.Seat) {
			kept = append(kept, v)
			continue
		}
		c.log.Warn("a verdict found after the game's last entry: the finished game stands, the verdict is reported beside it", "verdict", v.String())
		c.later = append(c.later, v)
	}
	c.held = kept
}

// endHeld says whether more than half the seats other than accused
// (retired ones left out) hold this peer's log to its end: this one, and
// those that reported our state after its last entry.
func (c *Core) endHeld(accused uint8) bool {
	next := c.next()
	holders, seats := 0, 0
	for s := range uint8(c.n) {
		if s == accused || (s != c.self && c.retired(s)) {
			continue
		}
		seats++
		if s == c.self || c.confirmed[s] >= next {
			holders++
		}
	}
	return 2*holders > seats
}

// checkStored says whether this peer could have stored v, a verified
// verdict, with the declarations decl beside it, at the end of the
// replayed log: a self-proving equivocation; its own invalid-entry or
// timeout verdict for the entry due next; a timeout it adopted for a
// position it holds, declared by other seats, stored with their
// declarations (lateDeclared: more than half the table); or a seat's
// statement that it stopped, ending the table where that seat was due.
// Never a timeout naming this seat, nor one after the game's last entry.
func (c *Core) checkStored(v *Verdict, decl []*Verdict) error {
	next := c.next()
	pos, due, ok := c.cfg.Replica.Next()
	late := v.Kind == VerdictTimeout && ok && v.Declarer != c.self && v.Seat != c.self
	if len(decl) > 0 && !late {
		return fmt.Errorf("%v: %d declarations stored beside it, but only a timeout declared by other seats is stored with declarations", v, len(decl))
	}
	switch v.Kind {
	case VerdictEquivocation:
		return nil
	case VerdictInvalidEntry:
		if v.Declarer == c.self && ok && v.Pos == pos && v.Seat == due {
			return nil
		}
	case VerdictTimeout:
		switch {
		case v.Seat == c.self:
			return fmt.Errorf("%v: it names this seat, and this peer adopts no verdict naming its own seat", v)
		case !ok:
			return fmt.Errorf("%v: the log holds the whole game, and no timeout is adopted after its last entry", v)
		case v.Declarer == c.self && v.Pos == pos && v.Seat == due:
			return nil
		case v.Declarer != c.self && v.Declarer != v.Seat &&
			(v.Pos < next && c.seats[v.Pos] == v.Seat || v.Pos == pos && v.Seat == due):
			return c.lateDeclared(v, decl)
		}
	case VerdictDivergence:
		if v.Seat == v.Declarer && v.Seat != c.self && ok && v.Seat == due {
			return nil
		}
	}
	if ok {
		return fmt.Errorf("%v: not a verdict this seat could have stored after %d entries (seat %d due at entry %d)", v, next, due, pos)
	}
	return fmt.Errorf("%v: not a verdict this seat could have stored after %d entries (the whole game)", v, next)
}

// lateDeclared checks the declarations stored with v, a timeout declared
// by other seats that this peer adopted (majorityTimeout), for a position
// it is past or the one it waited at: with v, each signed by a different
// seat, neither the seat named nor this one, of the same seat at the same
// position, and more than half the table in all. A state directory
// holding one colluder's signed timeout cannot pass it off as adopted.
func (c *Core) lateDeclared(v *Verdict, decl []*Verdict) error {
	seen := map[uint8]bool{v.Declarer: true}
	for _, d := range decl {
		if d.Kind != VerdictTimeout || d.Game != v.Game || d.Pos != v.Pos || d.Seat != v.Seat {
			return fmt.Errorf("%v: a declaration stored beside it is another verdict than the one adopted: %v", v, d)
		}
		if err := d.Verify(c.roster); err != nil {
			return fmt.Errorf("%v: a declaration stored beside it: %w", v, err)
		}
		if d.Declarer == c.self || d.Declarer == v.Seat {
			return fmt.Errorf("%v: a declaration stored beside it is by seat %d, which does not count", v, d.Declarer)
		}
		if seen[d.Declarer] {
			return fmt.Errorf("%v: declared twice by seat %d", v, d.Declarer)
		}
		seen[d.Declarer] = true
	}
	if len(seen) < c.majority() {
		return fmt.Errorf("%v: a timeout this peer adopted, but only %d of the %d seats declared it (the declarations stored beside it); more than half the table must have", v, len(seen), c.n)
	}
	return nil
}

// SpectatorAdopts applies a seat's rule to verdict v, verified, that a
// spectator received from the seat it watches after next entries (prev:
// the hash of the last). A spectator hears one seat and has no timer of
// its own, so it accepts only what it can check itself: an equivocation
// (it proves itself); an invalid-entry verdict whose evidence is the
// next entry and that the rules refuse (onEntry, the spectator's rules,
// is given it: its error is the rules' refusal; if it takes the entry,
// the seat's verdict was false: an error); a seat's statement that its
// own replica disagreed with the table (it names only its signer). A
// timeout rests on its declarer's timer: false, never accepted.
func SpectatorAdopts(v *Verdict, next uint64, prev ledger.Hash, onEntry func(*ledger.Entry) error) (bool, error) {
	switch v.Kind {
	case VerdictEquivocation:
		return true, nil
	case VerdictDivergence:
		return v.Seat == v.Declarer, nil
	case VerdictInvalidEntry:
		e := v.Evidence[0]
		if e.Pos != next || e.Prev != prev {
			return false, nil
		}
		if onEntry(e) != nil {
			return true, nil
		}
		return false, fmt.Errorf("the seat's verdict (%v) calls entry %d by seat %d invalid, and the rules accept it", v, e.Pos, e.Seat)
	}
	return false, nil
}
