package table

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/mental"
)

// CheckResult is the answer to one of this seat's checks: the team
// component of Target's card held Team (a card kind: the game's "mafia"
// or "not mafia").
type CheckResult struct {
	Pos    uint64 // the entry that completed the check's view
	Target engine.Seat
	Team   engine.Card
}

// ErrNoChoice: an actions entry needs a choice the caller did not give
// (the seat holds a power, which it must use), or was given a choice for
// a power it does not hold.
var ErrNoChoice = errors.New("a choice is missing or not allowed")

// pendingActions returns the actions request this seat must post now and
// its index among the request's seats, or ok=false.
func (p *Player) pendingActions(t *Table) (*Request, int, bool) {
	seat, kind, ok := t.Expect()
	if !ok || int(seat) != p.Seat || kind != BodyActions {
		return nil, 0, false
	}
	r := t.st.pending[0]
	return r, slices.Index(r.Seats, seat), true
}

// kindIn returns the kind this seat's last view of slot opened (its
// component 0), or ok=false.
func (p *Player) kindIn(t *Table, slot engine.Slot) (engine.Card, bool) {
	m, ok := p.Opened(t, slot, 0)
	if !ok {
		return 0, false
	}
	k, ok := t.cat.Kind(m)
	return engine.Card(k), ok
}

// Decisions returns the parts of the actions this seat must post now that
// need its choice: the ballots and checks whose power its own card holds
// (the others it posts by itself, empty). Nil when it has none, or when
// no actions of this seat are due.
func (p *Player) Decisions(t *Table) []engine.Effect {
	r, i, ok := p.pendingActions(t)
	if !ok {
		return nil
	}
	var out []engine.Effect
	for _, ef := range r.Parts {
		if ef.Kind == engine.EffectTag {
			continue
		}
		if k, ok := p.kindIn(t, ef.Slots[i]); ok && slices.Contains(ef.Cards, k) {
			out = append(out, cloneEffect(ef))
		}
	}
	return out
}

// ActionsBody returns this seat's actions entry for the pending actions
// request: for each ballot, a vote for choices[Power] if its card holds
// the power (an empty ballot if not), for a check, a check of
// choices[Power] (the neutral card if it holds no such power), and for a
// tag, the tag of the group secret its card holds (noise if none). A
// holder of a power without a choice, or a choice for a power the seat
// does not hold, is refused (ErrNoChoice).
func (p *Player) ActionsBody(t *Table, choices map[uint8]engine.Seat) (*Body, error) {
	r, i, ok := p.pendingActions(t)
	if !ok {
		_, kind, more := t.Expect()
		return nil, fmt.Errorf("table: %s has no night actions to post now (the table waits for %v, %v)", t.seatName(p.Seat), kind, more)
	}
	seat := engine.Seat(p.Seat)
	name := t.seatName(p.Seat)
	pos := t.Pos()
	b := &Body{Kind: BodyActions}
	used := map[uint8]bool{}
	checked := engine.Seat(-1)
	for j, ef := range r.Parts {
		ctx := t.ActionContext(pos, p.Seat, j)
		var enc []byte
		switch ef.Kind {
		case engine.EffectBallot, engine.EffectCheck:
			kind, ok := p.kindIn(t, ef.Slots[i])
			if !ok {
				return nil, fmt.Errorf("table: %s cannot post part %d of the night's actions: it has not looked at its own card (slot %d): %w", name, j, ef.Slots[i], ErrNotViewed)
			}
			holds := slices.Contains(ef.Cards, kind)
			target, chose := choices[ef.Power]
			verb, what := t.powerWords(ef.Power)
			choice := mental.NoVote
			if chose {
				used[ef.Power] = true
				choice = slices.Index(ef.Targets, target)
				if choice < 0 {
					return nil, fmt.Errorf("table: %s cannot %s %s (%s): the choice names one of %s: %w", name, verb, t.seatName(int(target)), what, t.seatNames(ef.Targets), ErrNoChoice)
				}
			}
			switch {
			case holds && !chose && (ef.Kind == engine.EffectBallot || len(ef.Roles) > 0):
				return nil, fmt.Errorf("table: %s must choose whom to %s tonight: %s's card gives them %s: %w", name, verb, name, what, ErrNoChoice)
			case !holds && chose:
				return nil, fmt.Errorf("table: %s cannot %s tonight: %s's card does not give them %s: %w", name, verb, name, what, ErrNoChoice)
			}
			if ef.Kind == engine.EffectBallot {
				st, err := t.st.powerStatement(t, ef, i)
				if err != nil {
					return nil, err
				}
				pb, err := mental.ProvePowerBallot(ctx, t.joint, p.card, p.view, st, choice)
				if err != nil {
					return nil, fmt.Errorf("table: %s's ballot for %s: %w", name, what, err)
				}
				sec, err := pb.Secret().MarshalBinary()
				if err != nil {
					return nil, fmt.Errorf("table: %s's ballot for %s: %w", name, what, err)
				}
				p.RememberBallotSecret(sec)
				if enc, err = pb.MarshalBinary(); err != nil {
					return nil, fmt.Errorf("table: %s's ballot for %s: %w", name, what, err)
				}
			} else {
				st, err := t.st.checkStatement(t, ef, i)
				if err != nil {
					return nil, err
				}
				c, err := mental.ProveCheck(ctx, t.joint, p.card, p.view, st, choice)
				if err != nil {
					return nil, fmt.Errorf("table: %s's check: %w", name, err)
				}
				if chose {
					checked = ef.Targets[choice]
				}
				if enc, err = c.MarshalBinary(); err != nil {
					return nil, fmt.Errorf("table: %s's check: %w", name, err)
				}
			}
		case engine.EffectTag:
			m, ok := p.Opened(t, ef.Slots[i], ef.Comp)
			if !ok {
				return nil, fmt.Errorf("table: %s cannot tag: it has not opened component %d of its own card: %w", name, ef.Comp, ErrNotViewed)
			}
			tag := mental.TagFor(m, int(ef.Neutral), t.gameID, uint64(ef.Round), uint32(seat))
			enc = tag[:]
		}
		b.Actions = append(b.Actions, enc)
	}
	for power := range choices {
		if !used[power] {
			verb, what := t.powerWords(power)
			return nil, fmt.Errorf("table: %s cannot %s now: the table asks nobody for %s tonight: %w", name, verb, what, ErrNoChoice)
		}
	}
	if checked >= 0 {
		p.checkTargets[pos] = checked
	}
	return b, nil
}

// CheckTargets returns the seats this seat checked, by the position of its
// actions entry: a seat's secret, which it keeps to know, after a restart,
// whom each answer is about ([Player.RememberCheckTarget]).
func (p *Player) CheckTargets() map[uint64]engine.Seat { return maps.Clone(p.checkTargets) }

// RememberCheckTarget tells a restarted player whom it checked in its
// actions entry at pos.
func (p *Player) RememberCheckTarget(pos uint64, target engine.Seat) { p.checkTargets[pos] = target }

// observeCheck opens this seat's own check when its view completes.
func (p *Player) observeCheck(t *Table, pos uint64, r *Request) error {
	k := slices.Index(r.Checkers, engine.Seat(p.Seat))
	if k < 0 {
		return nil
	}
	// Whom this seat checked: its latest check target before this view.
	target, at := engine.Seat(-1), uint64(0)
	for q, s := range p.checkTargets {
		if q < pos && (target < 0 || q > at) {
			target, at = s, q
		}
	}
	if target < 0 {
		return nil // it checked nobody: the neutral card
	}
	delete(p.checkTargets, at)
	sent, err := r.checkSentTo(engine.Seat(p.Seat))
	if err != nil {
		return err
	}
	pts, err := p.card.ViewedPoints(p.view, r.Cards[k], sent)
	if err != nil {
		return fmt.Errorf("table: seat %d opening its check: %w", p.Seat, err)
	}
	team, ok := t.cat.Kind(pts[0])
	if !ok {
		return fmt.Errorf("table: seat %d's check opens to no known card", p.Seat)
	}
	p.Checks = append(p.Checks, CheckResult{Pos: pos, Target: target, Team: engine.Card(team)})
	return nil
}

// Mates returns the seats whose tags this seat recognises: those that
// hold the group secret it holds, by any tag round in which it holds it
// (the seat itself excluded), in seat order.
func (p *Player) Mates(t *Table) []engine.Seat {
	tags := t.Tags()
	var out []engine.Seat
	for _, own := range tags {
		if int(own.Seat) != p.Seat {
			continue
		}
		S, ok := p.Opened(t, own.Slot, own.Comp)
		if !ok {
			continue
		}
		for _, tp := range tags {
			if tp.Round != own.Round || tp.Seat == own.Seat || slices.Contains(out, tp.Seat) {
				continue
			}
			if mental.TagMatches(S, t.gameID, uint64(tp.Round), uint32(tp.Seat), tp.Tag) {
				out = append(out, tp.Seat)
			}
		}
	}
	slices.Sort(out)
	return out
}

// seatName is seat's name in the roster, for refusals ("seat N" if it
// has none).
func (t *Table) seatName(seat int) string {
	if seat >= 0 && seat < len(t.roster.Seats) && t.roster.Seats[seat].Name != "" {
		return t.roster.Seats[seat].Name
	}
	return fmt.Sprintf("seat %d", seat)
}

// seatNames lists seats by name ("Anna, Boris and Sasha").
func (t *Table) seatNames(seats []engine.Seat) string {
	var ns []string
	for _, s := range seats {
		ns = append(ns, t.seatName(int(s)))
	}
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1]
}

// powerWords says a night power in words: the verb of a choice for it and
// what it is, from the game ([engine.PowerTeller]), or "night power N".
func (t *Table) powerWords(power uint8) (verb, what string) {
	if pt, ok := t.st.rules.(engine.PowerTeller); ok {
		return pt.PowerWords(power)
	}
	return "make that night choice", fmt.Sprintf("night power %d", power)
}

// powerLabel names a night power for an auditor: its number in the
// protocol and, where the game says it, what it is ("power 1, a mafia
// vote").
func (t *Table) powerLabel(power uint8) string {
	if _, ok := t.st.rules.(engine.PowerTeller); ok {
		_, what := t.powerWords(power)
		return fmt.Sprintf("power %d, %s", power, what)
	}
	return fmt.Sprintf("power %d", power)
}

// BallotSecrets returns the encoded secrets of the last ballots this seat
// cast (mental.BallotSecret.MarshalBinary, oldest first): a seat's
// secrets, which it keeps in its own records so that, restarted between
// its kill ballot and its count lookup (a plurality kill, mental SPEC
// §9.9), it can still prove the lookup ([Player.RememberBallotSecret]).
// Never send them.
func (p *Player) BallotSecrets() [][]byte {
	out := make([][]byte, len(p.ballotSecrets))
	for i, b := range p.ballotSecrets {
		out[i] = slices.Clone(b)
	}
	return out
}

// RememberBallotSecret tells a (restarted) player the secret of a ballot
// it cast, as [Player.BallotSecrets] encoded it. It is checked against the
// ballot's entries only when a lookup needs it.
func (p *Player) RememberBallotSecret(b []byte) {
	for _, have := range p.ballotSecrets {
		if slices.Equal(have, b) {
			return
		}
	}
	p.ballotSecrets = append(slices.Clip(p.ballotSecrets), slices.Clone(b))
	if len(p.ballotSecrets) > maxBallotSecrets {
		p.ballotSecrets = slices.Clone(p.ballotSecrets[len(p.ballotSecrets)-maxBallotSecrets:])
	}
}

// ErrNoBallotSecret: a seat must prove a count lookup from its kill
// ballot's secret, which it no longer has (it restarted without its
// records).
var ErrNoBallotSecret = errors.New("the ballot's secret is not kept")

// lookup returns this seat's count lookup of the pending plurality kill
// (mental SPEC §9.9): proven from the secret of its own ballot of the
// power, as posted, and the power's tally.
func (p *Player) lookup(t *Table) (*Body, error) {
	r := t.Pending()
	tl, ok := t.st.tallies[r.Power]
	i := slices.Index(tl.voters, engine.Seat(p.Seat))
	if !ok || i < 0 {
		return nil, fmt.Errorf("table: %s has no ballot of %s to look its count up with", t.seatName(p.Seat), t.powerLabel(r.Power))
	}
	ballot, err := tl.ballot(i)
	if err != nil {
		return nil, err
	}
	entries := ballot.Entries
	for k := len(p.ballotSecrets) - 1; k >= 0; k-- {
		sec, err := mental.UnmarshalBallotSecret(p.ballotSecrets[k], t.joint, entries)
		if err != nil {
			continue
		}
		l, err := mental.ProveCountLookup(t.ctx(t.Pos(), p.Seat), t.joint, sec, tl.sum)
		if err != nil {
			return nil, fmt.Errorf("table: %s's count lookup of %s: %w", t.seatName(p.Seat), t.powerLabel(r.Power), err)
		}
		return &Body{Kind: BodyLookup, Lookup: l, LookupTargets: len(entries)}, nil
	}
	return nil, fmt.Errorf("table: %s's count lookup of %s: %w", t.seatName(p.Seat), t.powerLabel(r.Power), ErrNoBallotSecret)
}
