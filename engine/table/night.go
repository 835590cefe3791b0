package table

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// This file carries out the secret actions of a night (Mafia): powered
// ballots (engine.EffectBallot), checks (engine.EffectCheck) and tags
// (engine.EffectTag), which every seat of the request posts together in
// one actions entry; the views of the checks; and the tallies of the
// ballots (engine.EffectTally). docs/protocol.md §5 and mental SPEC.md §9.

// ActionPost is one seat's posted part of an actions request: a powered
// ballot, a check or a tag.
type ActionPost struct {
	Ballot *mental.PowerBallot
	Check  *mental.Check
	Tag    [mental.TagSize]byte
}

// TagPost is a tag a seat posted (engine.EffectTag).
type TagPost struct {
	Round int
	Seat  engine.Seat
	Slot  engine.Slot // the seat's own card, whose component Comp the tag is of
	Comp  int
	Tag   [mental.TagSize]byte
}

// tally is the sum of the last ballots of one power, and each voter's
// ballot (for a tally of some voters' ballots, engine.Effect.Voters).
type tally struct {
	targets []engine.Seat
	sum     mental.BallotSum
	voters  []engine.Seat
	// ballots are the voters' checked ballots' entries, encoded (64 bytes
	// a ciphertext, as on the wire), decoded again only by a tally of some
	// voters or a one-vote mix: kept decoded until the power's next
	// ballots, the last night's were a fifth of a Mafia table's memory,
	// 18 tables in one process (issue 28).
	ballots [][]byte
}

// encodeBallot returns b's entries' encodings (their cached wire bytes),
// for a tally to keep.
func encodeBallot(b *mental.PowerBallot) ([]byte, error) {
	out := make([]byte, 0, 64*len(b.Entries))
	for _, ct := range b.Entries {
		enc, err := mental.Card{ct}.AppendBinary(nil)
		if err != nil {
			return nil, err
		}
		out = append(out, enc[1:]...)
	}
	return out, nil
}

// ballot decodes voter i's ballot's entries kept by encodeBallot.
func (tl tally) ballot(i int) (*mental.PowerBallot, error) {
	enc := tl.ballots[i]
	b := &mental.PowerBallot{Entries: make([]mental.Ciphertext, len(enc)/64)}
	for k := range b.Entries {
		c, err := mental.UnmarshalCard(append([]byte{1}, enc[64*k:64*(k+1)]...))
		if err != nil {
			return nil, fmt.Errorf("internal: seat %d's kept ballot: %w", tl.voters[i], err)
		}
		b.Entries[k] = c[0]
	}
	return b, nil
}

// ActionContext is the context of the j-th part of the actions entry at
// pos by seat: (game id, pos << 8 | j, seat). The parts' labels (mental
// SPEC §9) keep them apart from a move's swaps and statements.
func (t *Table) ActionContext(pos uint64, seat int, j int) mental.Context {
	return mental.Context{Table: t.gameID, Pos: pos<<8 | uint64(j), Seat: uint32(seat)}
}

// Tags returns every tag posted so far, in the order posted.
func (t *Table) Tags() []TagPost { return slices.Clone(t.st.tags) }

// queueAction adds a ballot, check or tag to the actions request at the
// end of the queue when it is by the same seats and not yet started, or
// starts a new one.
func (s *state) queueAction(t *Table, ef engine.Effect) error {
	n := len(t.roster.Seats)
	if len(ef.Seats) == 0 || len(ef.Slots) != len(ef.Seats) {
		return fmt.Errorf("internal: a %s by %d seats over %d slots", ef.Kind, len(ef.Seats), len(ef.Slots))
	}
	for i, seat := range ef.Seats {
		if seat < 0 || int(seat) >= n || slices.Contains(ef.Seats[:i], seat) {
			return fmt.Errorf("internal: a %s by seats %v", ef.Kind, ef.Seats)
		}
		if s.retired[seat] {
			return fmt.Errorf("internal: a %s by seat %d, which has retired", ef.Kind, seat)
		}
		if sl := ef.Slots[i]; sl < 0 || int(sl) >= len(s.slots) {
			return fmt.Errorf("internal: a %s about slot %d", ef.Kind, sl)
		}
	}
	targets := func() error {
		if len(ef.Targets) == 0 || len(ef.Targets) > mental.MaxBallotEntries {
			return fmt.Errorf("internal: a %s over %d targets", ef.Kind, len(ef.Targets))
		}
		for i, seat := range ef.Targets {
			if seat < 0 || int(seat) >= n || slices.Contains(ef.Targets[:i], seat) {
				return fmt.Errorf("internal: a %s over targets %v", ef.Kind, ef.Targets)
			}
		}
		return nil
	}
	switch ef.Kind {
	case engine.EffectBallot:
		if err := targets(); err != nil {
			return err
		}
		if len(ef.Cards) == 0 || len(ef.Roles) == 0 {
			return errors.New("internal: a ballot names no power holders or no roles")
		}
	case engine.EffectCheck:
		if err := targets(); err != nil {
			return err
		}
		if len(ef.Cards) == 0 || len(ef.TargetSlots) != len(ef.Targets) {
			return errors.New("internal: a check names no holders, or not one slot per target")
		}
		for _, sl := range ef.TargetSlots {
			if sl < 0 || int(sl) >= len(s.slots) {
				return fmt.Errorf("internal: a check of slot %d", sl)
			}
		}
		if ef.Comp < 0 || ef.Comp >= t.width || ef.Neutral < 0 || int(ef.Neutral) >= t.game.Kinds() {
			return fmt.Errorf("internal: a check of component %d with neutral card %d", ef.Comp, ef.Neutral)
		}
		// A check re-masks the component for the checker to open: never
		// one that may hold the group secret (mental SPEC §9.3).
		if _, ok := t.secretComp([]int{ef.Comp}); ok {
			return fmt.Errorf("internal: a check of component %d, which holds the group secret in some card", ef.Comp)
		}
	case engine.EffectTag:
		if ef.Comp < 0 || ef.Comp >= t.width || ef.Round < 0 || ef.Neutral < 0 || int(ef.Neutral) >= t.game.Kinds() {
			return fmt.Errorf("internal: a tag of component %d, round %d, neutral card %d", ef.Comp, ef.Round, ef.Neutral)
		}
	}
	if k := len(s.pending); k > 0 {
		// Tags are a request of their own: a seat recognises its mates
		// before it makes the choices that follow (the Madman who just
		// joined, before the night's kill).
		isTag := func(e engine.Effect) bool { return e.Kind == engine.EffectTag }
		if last := s.pending[k-1]; last.Kind == engine.EffectBallot && last.next == 0 &&
			slices.Equal(last.Seats, ef.Seats) && len(last.Parts) < MaxActions &&
			isTag(last.Parts[0]) == isTag(ef) {
			last.Parts = append(slices.Clip(last.Parts), cloneEffect(ef))
			return nil
		}
	}
	s.pending = append(s.pending, &Request{Kind: engine.EffectBallot, Seats: slices.Clone(ef.Seats), Parts: []engine.Effect{cloneEffect(ef)}})
	return nil
}

// cloneEffect copies an effect's slices.
func cloneEffect(ef engine.Effect) engine.Effect {
	ef.Slots, ef.Seats, ef.Cards = slices.Clone(ef.Slots), slices.Clone(ef.Seats), slices.Clone(ef.Cards)
	ef.Comps, ef.Targets, ef.TargetSlots = slices.Clone(ef.Comps), slices.Clone(ef.Targets), slices.Clone(ef.TargetSlots)
	ef.Roles, ef.AddPowers, ef.Mix = slices.Clone(ef.Roles), slices.Clone(ef.AddPowers), slices.Clone(ef.Mix)
	ef.Voters = slices.Clone(ef.Voters)
	return ef
}

// queueTally queues the opening of the sum of the last ballots of a power
// at some of its targets (every target when ef.Seats is empty), by public
// shares of every seat. Tallies asked together are one request: one
// shares entry per seat opens them all, and the rules learn their facts
// together, part by part.
func (s *state) queueTally(t *Table, ef engine.Effect) error {
	for i, pw := range ef.AddPowers {
		if pw == ef.Power || slices.Contains(ef.AddPowers[:i], pw) {
			return fmt.Errorf("internal: a tally of power %d adding powers %v", ef.Power, ef.AddPowers)
		}
	}
	if len(ef.Voters) > 0 && (len(ef.AddPowers) > 0 || len(ef.Mix) > 0 || ef.Picked || ef.Tested) {
		return fmt.Errorf("internal: a tally of power %d by voters %v adding %v or mixed", ef.Power, ef.Voters, ef.AddPowers)
	}
	for i, v := range ef.Voters {
		if v < 0 || int(v) >= len(t.roster.Seats) || slices.Contains(ef.Voters[:i], v) {
			return fmt.Errorf("internal: a tally of power %d by voters %v", ef.Power, ef.Voters)
		}
	}
	if len(ef.Mix) > 0 || ef.Picked || ef.Tested {
		return s.queueMix(t, ef)
	}
	part := engine.Effect{Kind: engine.EffectTally, Power: ef.Power, Seats: slices.Clone(ef.Seats), AddPowers: slices.Clone(ef.AddPowers),
		Voters: slices.Clone(ef.Voters)}
	if k := len(s.pending); k > 0 {
		if last := s.pending[k-1]; last.Kind == engine.EffectTally && !last.Tested && last.next == 0 && last.Cards == nil &&
			len(last.Parts) > 0 && len(last.Parts) < MaxActions && !last.Parts[0].Picked {
			last.Parts = append(slices.Clip(last.Parts), part)
			return nil
		}
	}
	r := &Request{Kind: engine.EffectTally, Parts: []engine.Effect{part}}
	for seat := range len(t.roster.Seats) {
		r.Seats = append(r.Seats, engine.Seat(seat))
	}
	s.pending = append(s.pending, r)
	return nil
}

// queueMix queues a one-vote mix (a shuffle of the voters' code sums by
// every seat of ef.Mix in turn), a test of one mixed card or a pick (the
// opening of one mixed card's code), mental SPEC §9.8, or a plurality
// kill (§9.9). Each is a request of its own. (The mixed tally, §9.6, is
// withdrawn: a mix is a one-vote mix or a plurality kill's.)
func (s *state) queueMix(t *Table, ef engine.Effect) error {
	n := len(t.roster.Seats)
	all := func() []engine.Seat {
		var out []engine.Seat
		for seat := range n {
			out = append(out, engine.Seat(seat))
		}
		return out
	}
	if ef.Plurality != 0 {
		return s.queuePlurality(t, ef, all())
	}
	if ef.Tested {
		// A blinded identity test of card Pick of the last one-vote mix:
		// every seat in seat order posts a step (a retired seat's
		// computed), mental SPEC §9.8.
		if len(ef.Mix) > 0 || ef.Picked || ef.Votes || len(ef.Seats) > 0 || len(ef.AddPowers) > 0 || ef.Pick < 0 {
			return fmt.Errorf("internal: a test of card %d of power %d", ef.Pick, ef.Power)
		}
		s.pending = append(s.pending, &Request{Kind: engine.EffectTally, Tested: true, Test: ef.Pick, Power: ef.Power, Seats: all()})
		return nil
	}
	if ef.Picked {
		if ef.Votes || len(ef.Mix) > 0 || len(ef.Seats) > 0 || ef.Pick < 0 || len(ef.AddPowers)+1 > mental.MaxMixCodes {
			return fmt.Errorf("internal: a pick of pair %d of power %d adding %v", ef.Pick, ef.Power, ef.AddPowers)
		}
		part := engine.Effect{Kind: engine.EffectTally, Power: ef.Power, Picked: true, Pick: ef.Pick, AddPowers: slices.Clone(ef.AddPowers)}
		s.pending = append(s.pending, &Request{Kind: engine.EffectTally, Parts: []engine.Effect{part}, Seats: all()})
		return nil
	}
	if !ef.Votes || len(ef.Seats) > 0 || len(ef.AddPowers) > 0 {
		return fmt.Errorf("internal: a mix of power %d at seats %v adding %v, not a one-vote mix", ef.Power, ef.Seats, ef.AddPowers)
	}
	for i, seat := range ef.Mix {
		if seat < 0 || int(seat) >= n || slices.Contains(ef.Mix[:i], seat) || s.retired[seat] {
			return fmt.Errorf("internal: a one-vote mix shuffled by seats %v", ef.Mix)
		}
	}
	// A one-vote mix: the voters' code sums shuffled, nothing opened (the
	// tests follow, asked by the rules).
	s.pending = append(s.pending, &Request{Kind: engine.EffectShuffle, Mixed: true, Votes: true, Power: ef.Power, Seats: slices.Clone(ef.Mix)})
	return nil
}

// queuePlurality queues a plurality kill (mental SPEC §9.9): the count
// lookups of ef.Mix (the power's voters), their mix, the tests of every
// mixed code sum, the kill table's mix, the tests of every row's key and
// the pick of the true row's payload, in that order. Only the pick
// brings the rules facts.
func (s *state) queuePlurality(t *Table, ef engine.Effect, all []engine.Seat) error {
	n := len(t.roster.Seats)
	k := ef.Plurality
	if k < mental.MinKillVotes || k > mental.MaxKillVotes || ef.Votes || ef.Tested || ef.Picked || len(ef.Seats) > 0 ||
		len(ef.Mix) == 0 || len(ef.AddPowers)+1 > mental.MaxMixCodes {
		return fmt.Errorf("internal: a plurality kill of %d votes of power %d by seats %v adding %v", k, ef.Power, ef.Mix, ef.AddPowers)
	}
	for i, seat := range ef.Mix {
		if seat < 0 || int(seat) >= n || slices.Contains(ef.Mix[:i], seat) || s.retired[seat] {
			return fmt.Errorf("internal: a plurality kill shuffled by seats %v", ef.Mix)
		}
	}
	mix := func() []engine.Seat { return slices.Clone(ef.Mix) }
	pick := engine.Effect{Kind: engine.EffectTally, Power: ef.Power, Picked: true, Pick: 0, AddPowers: slices.Clone(ef.AddPowers)}
	s.pending = append(s.pending,
		&Request{Kind: engine.EffectTally, Lookup: true, Plurality: k, Power: ef.Power, Seats: mix()},
		&Request{Kind: engine.EffectShuffle, Mixed: true, Votes: true, Plurality: k, Power: ef.Power, Seats: mix()},
		&Request{Kind: engine.EffectTally, Tested: true, Plurality: k, Test: -1, Power: ef.Power, Seats: slices.Clone(all)},
		&Request{Kind: engine.EffectShuffle, Mixed: true, Rows: true, Plurality: k, Power: ef.Power, Seats: mix()},
		&Request{Kind: engine.EffectTally, Tested: true, Rows: true, Plurality: k, Test: -1, Power: ef.Power, Seats: slices.Clone(all)},
		&Request{Kind: engine.EffectTally, Parts: []engine.Effect{pick}, Seats: slices.Clone(all)})
	return nil
}

// snapshotLookup checks, when a plurality kill's lookups reach the head
// of the queue, that its authors are the power's voters in their order.
func (s *state) snapshotLookup(r *Request) error {
	tl, ok := s.tallies[r.Power]
	if !ok || !slices.Equal(tl.voters, r.Seats) {
		return fmt.Errorf("internal: count lookups of power %d by seats %v, whose voters are %v", r.Power, r.Seats, tl.voters)
	}
	r.Cards = []mental.Card{}
	r.Targets, r.Powers = nil, nil
	return nil
}

// applyLookup applies e, one voter's count lookup of a plurality kill
// (mental SPEC §9.9): proven from its own ballot of the power and the
// power's tally; its (code sum, count) card joins the cards to mix.
func (s *state) applyLookup(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	tl := s.tallies[r.Power]
	ballot, err := tl.ballot(r.next)
	if err != nil {
		return nil, err
	}
	entries := ballot.Entries
	if b.Lookup == nil || b.LookupTargets != len(entries) {
		return nil, because(ReasonBadLookup, fmt.Errorf("the count lookup of %s is over %d targets, the ballots over %d", t.powerLabel(r.Power), b.LookupTargets, len(entries)))
	}
	ctx, l := t.ctx(e.Pos, seat), b.Lookup
	if t.deferred != nil {
		jk, sum := t.joint, tl.sum
		t.deferred.stage(func(bt *mental.Batch) {
			bt.AddCountLookup(fmt.Sprintf("count lookup of %s by seat %d", t.powerLabel(r.Power), seat), ctx, jk, entries, sum, l)
		})
	} else if err := mental.VerifyCountLookup(ctx, t.joint, entries, tl.sum, l); err != nil {
		return nil, because(ReasonBadLookup, fmt.Errorf("the count lookup of %s: %w", t.powerLabel(r.Power), err))
	}
	card, err := mental.VoteCard(entries, l)
	if err != nil {
		return nil, because(ReasonBadLookup, err)
	}
	r.Cards = append(slices.Clip(r.Cards), card)
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// completePlurality carries a plurality kill on when its lookups or a
// round of tests complete: the lookups' cards are the cards to mix; the
// tests of the mixed code sums find the k votes, from which the kill
// table is laid; the tests of the rows' keys find the true row, whose
// payload is what the pick opens (mental SPEC §9.9).
func (s *state) completePlurality(r *Request) error {
	var cards []mental.Card
	switch {
	case r.Lookup:
		cards = r.Cards
	case !r.Rows:
		votes, err := mental.KillVotes(identities(r.Cards), r.Plurality)
		if err != nil {
			return fmt.Errorf("the plurality kill of power %d: %w", r.Power, err)
		}
		mixed := s.mixes[r.Power]
		var vs []mental.Card
		for _, p := range votes {
			vs = append(vs, mixed[p])
		}
		if cards, err = mental.KillRows(vs); err != nil {
			return fmt.Errorf("the plurality kill of power %d: %w", r.Power, err)
		}
	default:
		w, err := mental.KillRowWinner(identities(r.Cards))
		if err != nil {
			return fmt.Errorf("the plurality kill of power %d: %w", r.Power, err)
		}
		payload, err := mental.KillRowPayload(s.mixes[r.Power][w])
		if err != nil {
			return err
		}
		cards = []mental.Card{payload}
	}
	mixes := maps.Clone(s.mixes)
	if mixes == nil {
		mixes = map[uint8][]mental.Card{}
	}
	mixes[r.Power] = cards
	s.mixes = mixes
	return nil
}

// identities reports, for each tested card as the last step left it,
// whether its B is the identity (the tested ciphertext encrypts it).
func identities(cards []mental.Card) []bool {
	out := make([]bool, len(cards))
	for i, c := range cards {
		out[i] = c[0].B.Equal(mental.Identity()) == 1
	}
	return out
}

// snapshotMix lays out the cards a mix shuffles when it reaches the head
// of the queue: a one-vote mix's code sums of its power's last ballots,
// or a plurality kill's cards.
func (s *state) snapshotMix(r *Request) error {
	if r.Plurality > 0 {
		// A plurality kill's vote mix or kill table mix: the cards its
		// lookups or vote tests left.
		cards := s.mixes[r.Power]
		want := MixWidth
		if len(cards) == 0 || len(cards) > mental.MaxShuffle || (r.Votes && len(cards) != len(r.Seats)) {
			return fmt.Errorf("internal: a plurality kill's mix of %d cards by %d seats", len(cards), len(r.Seats))
		}
		for _, c := range cards {
			if c.Width() != want {
				return fmt.Errorf("internal: a plurality kill's mix of a width-%d card", c.Width())
			}
		}
		r.Cards = slices.Clone(cards)
		return nil
	}
	tl, ok := s.tallies[r.Power]
	if !ok || !r.Votes {
		return fmt.Errorf("internal: a mix of power %d, not a one-vote mix of posted ballots", r.Power)
	}
	// One card per voter, in the voters' order: its ballot's code sum.
	for i := range tl.ballots {
		b, err := tl.ballot(i)
		if err != nil {
			return err
		}
		sum, err := mental.AddPowerBallots(b)
		if err != nil {
			return fmt.Errorf("internal: seat %d's ballot of power %d: %w", tl.voters[i], r.Power, err)
		}
		c, err := sum.CodeSum()
		if err != nil {
			return err
		}
		r.Cards = append(r.Cards, c)
	}
	return nil
}

// snapshotTest takes the card a blinded identity test starts from: card
// r.Test of the power's last mix, which must be a one-vote mix.
func (s *state) snapshotTest(r *Request) error {
	if r.Plurality > 0 {
		// Every card of the mix: the code sums (component 0) of the
		// vote cards, or the keys (component 0) of the kill table's rows.
		for _, c := range s.mixes[r.Power] {
			if c.Width() != MixWidth {
				return fmt.Errorf("internal: a plurality kill's test of a width-%d card", c.Width())
			}
			key, err := mental.KillRowKey(c)
			if err != nil {
				return err
			}
			r.Cards = append(r.Cards, key)
			r.Targets, r.Powers = append(r.Targets, -1), append(r.Powers, r.Power)
		}
		if len(r.Cards) == 0 || len(r.Cards) > mental.MaxShuffle {
			return fmt.Errorf("internal: a plurality kill's test of %d cards", len(r.Cards))
		}
		return nil
	}
	cards, ok := s.mixes[r.Power]
	if !ok || r.Test >= len(cards) || len(cards[r.Test]) != VoteMixWidth {
		return fmt.Errorf("internal: a test of card %d of power %d, whose one-vote mix has %d cards", r.Test, r.Power, len(cards))
	}
	r.Cards = []mental.Card{cards[r.Test].Clone()}
	r.Targets, r.Powers = []engine.Seat{-1}, []uint8{r.Power}
	return nil
}

// snapshotPick takes the card of a pick: the code of card part.Pick of
// the power's last mix, with the added powers' code sums.
func (s *state) snapshotPick(r *Request, part engine.Effect) error {
	pairs, ok := s.mixes[part.Power]
	if !ok {
		return fmt.Errorf("internal: a pick of power %d, whose cards nobody mixed", part.Power)
	}
	tl := s.tallies[part.Power]
	if part.Pick >= len(pairs) {
		return fmt.Errorf("internal: a pick of card %d of %d", part.Pick, len(pairs))
	}
	var add []mental.BallotSum
	for _, pw := range part.AddPowers {
		more, ok := s.tallies[pw]
		if !ok || !slices.Equal(more.targets, tl.targets) {
			return fmt.Errorf("internal: a pick of power %d adding power %d, whose ballots are not over its targets %v", part.Power, pw, tl.targets)
		}
		add = append(add, more.sum)
	}
	c, err := mental.MixPick(pairs[part.Pick], len(tl.targets), add...)
	if err != nil {
		return err
	}
	r.Cards = []mental.Card{c}
	r.Targets = []engine.Seat{-1}
	r.Powers = []uint8{part.Power}
	r.PickTargets = slices.Clone(tl.targets)
	r.PickCodes = 1 + len(add)
	return nil
}

// pickFacts opens a completed pick: a tally fact for each of its targets,
// the number of its codes that name it.
func (s *state) pickFacts(r *Request) ([]engine.Fact, error) {
	var all [][]*mental.Element
	for i := range r.Seats {
		all = append(all, r.Shares[i][0])
	}
	m, err := mental.Open(r.Cards[0], all)
	if err != nil {
		return nil, err
	}
	counts, err := mental.MixTargets(m[0], len(r.PickTargets), r.PickCodes)
	if err != nil {
		return nil, fmt.Errorf("the pick of power %d: %w", r.Powers[0], err)
	}
	facts := make([]engine.Fact, len(counts))
	for i, c := range counts {
		facts[i] = engine.Fact{Slot: engine.FactTally, Seat: r.PickTargets[i], Count: c}
	}
	return facts, nil
}

// snapshotTally takes a tally's cards from the sums of the ballots of its
// parts' powers, when it reaches the head of the queue.
func (s *state) snapshotTally(r *Request) error {
	if r.Tested {
		return s.snapshotTest(r)
	}
	if r.Lookup {
		return s.snapshotLookup(r)
	}
	for _, part := range r.Parts {
		if part.Picked {
			if err := s.snapshotPick(r, part); err != nil {
				return err
			}
			continue
		}
		tl, ok := s.tallies[part.Power]
		if !ok {
			return fmt.Errorf("internal: a tally of power %d, for which nobody posted ballots", part.Power)
		}
		sum := tl.sum
		if len(part.Voters) > 0 {
			var bs []*mental.PowerBallot
			for _, v := range part.Voters {
				i := slices.Index(tl.voters, v)
				if i < 0 {
					return fmt.Errorf("internal: a tally of power %d by seat %d, not one of its voters %v", part.Power, v, tl.voters)
				}
				b, err := tl.ballot(i)
				if err != nil {
					return err
				}
				bs = append(bs, b)
			}
			var err error
			if sum, err = mental.AddPowerBallots(bs...); err != nil {
				return err
			}
		}
		for _, pw := range part.AddPowers {
			more, ok := s.tallies[pw]
			if !ok || !slices.Equal(more.targets, tl.targets) {
				return fmt.Errorf("internal: a tally of power %d adding power %d, whose ballots are not over its targets %v", part.Power, pw, tl.targets)
			}
			var err error
			if sum, err = sum.Plus(more.sum); err != nil {
				return err
			}
		}
		targets := part.Seats
		if len(targets) == 0 {
			targets = tl.targets
		}
		for _, target := range targets {
			i := slices.Index(tl.targets, target)
			if i < 0 {
				return fmt.Errorf("internal: a tally of power %d at seat %d, not one of its targets %v", part.Power, target, tl.targets)
			}
			c, err := sum.Component(i)
			if err != nil {
				return err
			}
			r.Cards = append(r.Cards, c)
			r.Targets = append(r.Targets, target)
			r.Powers = append(r.Powers, part.Power)
		}
	}
	return nil
}

// viewedRole is what a statement about seat's own card in slot (its kind,
// component 0) is made over: the view's card, the index of component 0 in
// it and the encrypted shares.
func (s *state) viewedRole(seat engine.Seat, slot engine.Slot) (mental.Card, int, []*mental.EncryptedShare, error) {
	v, err := s.proveTarget(seat, slot, 0)
	if err != nil {
		return nil, 0, nil, err
	}
	c, comp := v.viewed(0)
	return c, comp, v.sent, nil
}

func kindsOf(cards []engine.Card) []int {
	out := make([]int, len(cards))
	for i, c := range cards {
		out[i] = int(c)
	}
	return out
}

func seatsOf(seats []engine.Seat) []uint32 {
	out := make([]uint32, len(seats))
	for i, s := range seats {
		out[i] = uint32(s)
	}
	return out
}

// powerStatement is the statement of voter i's ballot for part ef.
func (s *state) powerStatement(t *Table, ef engine.Effect, i int) (*mental.PowerStatement, error) {
	seat := ef.Seats[i]
	c, comp, sent, err := s.viewedRole(seat, ef.Slots[i])
	if err != nil {
		return nil, err
	}
	return &mental.PowerStatement{Power: ef.Power, Roles: kindsOf(ef.Roles), Holders: kindsOf(ef.Cards),
		Targets: seatsOf(ef.Targets), SelfAllowed: ef.SelfAllowed, X: t.joint.Keys[seat], Y: t.views[seat],
		Card: c, Comp: comp, Sent: sent}, nil
}

// checkStatement is the statement of checker i's check for part ef.
func (s *state) checkStatement(t *Table, ef engine.Effect, i int) (*mental.CheckStatement, error) {
	seat := ef.Seats[i]
	c, comp, sent, err := s.viewedRole(seat, ef.Slots[i])
	if err != nil {
		return nil, err
	}
	cards := make([]mental.Card, len(ef.TargetSlots))
	for k, sl := range ef.TargetSlots {
		cards[k] = s.slots[sl]
	}
	return &mental.CheckStatement{Holders: kindsOf(ef.Cards), Mandatory: len(ef.Roles) > 0, Roles: kindsOf(ef.Roles),
		X: t.joint.Keys[seat], Y: t.views[seat], Card: c, Comp: comp, Sent: sent,
		Targets: seatsOf(ef.Targets), TargetCards: cards, TargetComp: ef.Comp, Neutral: int(ef.Neutral)}, nil
}

// applyActions applies e, one seat's actions entry: a part for each part
// of the request, each checked against its statement.
func (s *state) applyActions(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	i := r.next
	if len(b.Actions) != len(r.Parts) {
		return nil, because(ReasonActionCount, fmt.Errorf("the entry carries %d actions, the request has %d", len(b.Actions), len(r.Parts)))
	}
	posts := make([]ActionPost, len(r.Parts))
	var hash ledger.Hash // e's, once needed (Shared)
	// A live table checks the entry's ballots and checks in one batch
	// (one multi-scalar multiplication: they share their bases); if the
	// batch fails, or a later part does not decode, the parts before are
	// checked one by one, in order, so the error is the one a part-by-part
	// check gives.
	var (
		batch   mental.Batch
		singles []func() error
	)
	verified := func() error {
		if batch.Len() == 0 || batch.Verify() == nil {
			return nil
		}
		for _, verify := range singles {
			if err := verify(); err != nil {
				return err
			}
		}
		return because(ReasonBadBallot, errors.New("internal: the entry's proofs fail together but hold one by one"))
	}
	for j, ef := range r.Parts {
		ctx := t.ActionContext(e.Pos, seat, j)
		data := b.Actions[j]
		switch ef.Kind {
		case engine.EffectBallot:
			st, err := s.powerStatement(t, ef, i)
			if err != nil {
				return nil, firstOf(verified(), err)
			}
			pb, err := mental.UnmarshalPowerBallot(data, st, uint32(seat))
			if err != nil {
				return nil, firstOf(verified(), because(ReasonBadBallot, fmt.Errorf("ballot %d (%s): %w", j, t.powerLabel(ef.Power), err)))
			}
			name := fmt.Sprintf("ballot %d (%s)", j, t.powerLabel(ef.Power))
			if t.deferred != nil {
				t.deferred.stage(func(bt *mental.Batch) { bt.AddPowerBallot(name, ctx, t.joint, st, pb) })
			} else {
				batch.AddPowerBallot(name, ctx, t.joint, st, pb)
				singles = append(singles, func() error {
					if err := mental.VerifyPowerBallot(ctx, t.joint, st, pb); err != nil {
						return because(ReasonBadBallot, fmt.Errorf("%s: %w", name, err))
					}
					return nil
				})
			}
			// The table keeps the entries (for the tally), not the proof.
			posts[j].Ballot = &mental.PowerBallot{Entries: pb.Entries}
			if t.shared != nil {
				if hash == (ledger.Hash{}) {
					hash = e.Hash()
				}
				posts[j].Ballot = keep(t.shared, sharedKey{entry: hash, kind: sharedBallot, i: j}, posts[j].Ballot)
			}
		case engine.EffectCheck:
			st, err := s.checkStatement(t, ef, i)
			if err != nil {
				return nil, firstOf(verified(), err)
			}
			c, err := mental.UnmarshalCheck(data, st, uint32(seat))
			if err != nil {
				return nil, firstOf(verified(), because(ReasonBadCheck, fmt.Errorf("check %d: %w", j, err)))
			}
			name := fmt.Sprintf("check %d", j)
			if t.deferred != nil {
				t.deferred.stage(func(bt *mental.Batch) { bt.AddCheck(name, ctx, t.joint, st, c) })
			} else {
				batch.AddCheck(name, ctx, t.joint, st, c)
				singles = append(singles, func() error {
					if err := mental.VerifyCheck(ctx, t.joint, st, c); err != nil {
						return because(ReasonBadCheck, fmt.Errorf("%s: %w", name, err))
					}
					return nil
				})
			}
			// The checker's view needs Q, not the proof.
			posts[j].Check = &mental.Check{Q: c.Q}
		case engine.EffectTag:
			if len(data) != mental.TagSize {
				return nil, firstOf(verified(), because(ReasonBadTag, fmt.Errorf("tag %d is %d bytes, want %d", j, len(data), mental.TagSize)))
			}
			copy(posts[j].Tag[:], data)
		}
	}
	if err := verified(); err != nil {
		return nil, err
	}
	r.Posts = append(r.Posts, posts)
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.completeActions(t, e.Pos+1, r)
}

// firstOf returns first if it is not nil, else then.
func firstOf(first, then error) error {
	if first != nil {
		return first
	}
	return then
}

// completeActions pops a filled actions request: the ballots of each power
// are summed for its tallies, the tags recorded, and every check is
// viewed by its poster alone (a check view, served next).
func (s *state) completeActions(t *Table, next uint64, r *Request) error {
	s.pending = s.pending[1:]
	var views []*Request
	for j, ef := range r.Parts {
		switch ef.Kind {
		case engine.EffectBallot:
			var bs []*mental.PowerBallot
			var kept [][]byte
			for i := range r.Seats {
				b := r.Posts[i][j].Ballot
				enc, err := encodeBallot(b)
				if err != nil {
					return fmt.Errorf("the ballots of %s: %w", t.powerLabel(ef.Power), err)
				}
				bs, kept = append(bs, b), append(kept, enc)
			}
			sum, err := mental.AddPowerBallots(bs...)
			if err != nil {
				return fmt.Errorf("the ballots of %s: %w", t.powerLabel(ef.Power), err)
			}
			tallies := make(map[uint8]tally, len(s.tallies)+1)
			for k, v := range s.tallies {
				tallies[k] = v
			}
			tallies[ef.Power] = tally{targets: slices.Clone(ef.Targets), sum: sum, voters: slices.Clone(r.Seats), ballots: kept}
			s.tallies = tallies
		case engine.EffectTag:
			tags := slices.Clip(s.tags)
			for i, seat := range r.Seats {
				tags = append(tags, TagPost{Round: ef.Round, Seat: seat, Slot: ef.Slots[i], Comp: ef.Comp, Tag: r.Posts[i][j].Tag})
			}
			s.tags = tags
		case engine.EffectCheck:
			v := &Request{Kind: engine.EffectCheck, Power: ef.Power, Checkers: slices.Clone(r.Seats)}
			for i := range r.Seats {
				v.Cards = append(v.Cards, r.Posts[i][j].Check.Q)
			}
			for seat := range len(t.roster.Seats) {
				v.Seats = append(v.Seats, engine.Seat(seat))
			}
			views = append(views, v)
		}
	}
	s.pending = append(views, s.pending...)
	if err := s.settle(t, next); err != nil {
		return err
	}
	s.maybeEnd(t)
	return nil
}

// checkRecipients lists whom author sends shares of a check view to: every
// checker but itself, in order.
func (r *Request) checkRecipients(author engine.Seat) []engine.Seat {
	var out []engine.Seat
	for _, c := range r.Checkers {
		if c != author {
			out = append(out, c)
		}
	}
	return out
}

// applyCheckShares applies e, one seat's shares of a check view: its share
// of every other checker's card, encrypted to that checker.
func (s *state) applyCheckShares(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	rec := r.checkRecipients(engine.Seat(seat))
	if len(b.Shares) != 0 || len(b.EncShares) != len(rec) {
		return nil, because(ReasonShareCount, fmt.Errorf("expected %d encrypted shares, got %d plain and %d encrypted", len(rec), len(b.Shares), len(b.EncShares)))
	}
	X, ctx := t.joint.Keys[seat], t.ctx(e.Pos, seat)
	var batch mental.Batch
	add := func(f func(*mental.Batch)) { f(&batch) }
	verify := batch.Verify
	if t.deferred != nil {
		add = t.deferred.stage
		verify = func() error { return nil }
	}
	for j, c := range rec {
		k := slices.Index(r.Checkers, c)
		name := fmt.Sprintf("encrypted share of seat %d's check", c)
		Y, card, es := t.views[c], r.Cards[k], b.EncShares[j]
		add(func(bt *mental.Batch) { bt.AddEncryptedShare(name, ctx, X, Y, card, es) })
	}
	if err := verify(); err != nil {
		return nil, because(ReasonBadShare, err)
	}
	r.Enc = append(r.Enc, t.keepShares(e, withoutProofs(b.EncShares)))
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// checkSentTo returns the encrypted shares of checker's card that it
// received in a completed check view, from every other author in seat
// order.
func (r *Request) checkSentTo(checker engine.Seat) ([]*mental.EncryptedShare, error) {
	var out []*mental.EncryptedShare
	for i, author := range r.Seats {
		if author == checker {
			continue
		}
		rec := r.checkRecipients(author)
		j := slices.Index(rec, checker)
		if j < 0 || i >= len(r.Enc) || j >= len(r.Enc[i]) {
			return nil, fmt.Errorf("table: seat %d receives no share of its check from seat %d", checker, author)
		}
		out = append(out, r.Enc[i][j])
	}
	return out, nil
}

// Mix returns the cards of power's last mix as the last shuffler left
// them: a one-vote kill's code sums (mental SPEC §9.8) or a plurality
// kill's (code sum, count) cards or kill table rows (§9.9); nil before
// any.
func (t *Table) Mix(power uint8) []mental.Card { return slices.Clone(t.st.mixes[power]) }
