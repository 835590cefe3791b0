// Package mafiatest is a fake table for Mafia's rules: it carries out the
// rules' effects on a deal it knows in full, with plain values instead of
// cryptography. Shuffles follow a fixed deal or a seeded random stream;
// ballots are plain choices given per seat ([Table.Choose]); tallies count
// them; a check answers the checker alone; tags let the holders of the
// group secret recognise each other; coins come from the seeded stream or
// are searched until they pick what a script asks for; every proven
// statement is checked against the deal, and a false one is rejected as
// the prover's fault (*[ProofError]). A retired seat may take no part in
// anything after its retirement.
//
// The table also keeps what each seat privately knows
// ([mafia.Knowledge]), for the bot and for tests.
package mafiatest

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/fake"
	"github.com/masque-games/masque/engine/mafia"
)

// ProofError is a statement about one's own card that is false (or about
// a card the prover never saw): the table rejects the entry and names the
// prover.
type ProofError = fake.ProofError

// Rules of the night choices the fake table refuses (the real table's
// proofs make such ballots impossible).
const (
	RuleNoNight = "no-night-choice" // no night's ballots are being posted
	RuleNoPower = "no-power"        // the seat does not hold the power tonight
)

// Need is a night choice the table waits for: seat must choose a target
// for power among targets.
type Need struct {
	Seat    engine.Seat
	Power   uint8
	Targets []engine.Seat
}

// Table is a fake table with a known deal.
type Table struct {
	State     *mafia.State
	fake.Deal                    // the true deal and what each seat knows
	Know      []*mafia.Knowledge // per seat: what it knows privately
	Moves     []string           // the moves played, as text
	// Effects counts the effects carried out, by kind.
	Effects map[engine.EffectKind]int
	// Last holds every effect carried out since the last move, in order.
	Last []engine.Effect
	// Facts holds every fact fed to the rules since the last move.
	Facts []engine.Fact
	// Retired marks the seats that published their card keys.
	Retired []bool
	// OnFacts, if set, is told every batch of facts the rules learn, with
	// the states before and after (for the log's words).
	OnFacts func(before, after *mafia.State, facts []engine.Fact)

	rng      *rand.Rand
	choices  map[engine.Seat]map[uint8]engine.Seat
	ballots  map[uint8]map[engine.Seat]int         // power → target → ballots
	btargets map[uint8][]engine.Seat               // power → the ballot's targets
	bvoter   map[uint8]map[engine.Seat]engine.Seat // power → voter holding it → its target
	mixes    map[uint8][]engine.Seat               // power → its mixed cards' votes (NoSeat: none), in the shuffled order
	pending  []engine.Effect                       // effects not carried out yet
	batch    fake.Batch                            // what the pending batch has asked for so far
	coinWant engine.Seat
}

// New seats a table for options o: lays out nothing itself but carries
// out the rules' opening (the fixed deal of o.Fixed, or shuffles from
// seed).
func New(o mafia.Options, seed uint64) (*Table, error) {
	s, err := mafia.NewGame(o)
	if err != nil {
		return nil, err
	}
	n := s.Players()
	t := &Table{
		State:    s,
		Deal:     fake.NewDeal(n),
		Effects:  map[engine.EffectKind]int{},
		Retired:  make([]bool, n),
		rng:      fake.NewRand(seed),
		choices:  map[engine.Seat]map[uint8]engine.Seat{},
		ballots:  map[uint8]map[engine.Seat]int{},
		bvoter:   map[uint8]map[engine.Seat]engine.Seat{},
		btargets: map[uint8][]engine.Seat{},
		mixes:    map[uint8][]engine.Seat{},
		coinWant: mafia.NoSeat,
	}
	for p := range engine.Seat(n) {
		t.Know = append(t.Know, mafia.NewKnowledge(p))
	}
	if err := t.carry(s.Opening()); err != nil {
		return nil, fmt.Errorf("opening: %w", err)
	}
	return t, nil
}

// Known returns what seat p knows, by slot.
func (t *Table) Known(p engine.Seat) map[engine.Slot]engine.Card { return maps.Clone(t.Views[p]) }

// Knowledge returns a copy of what seat p knows privately.
func (t *Table) Knowledge(p engine.Seat) *mafia.Knowledge { return t.Know[p].Clone() }

// RoleOf returns seat p's true role (the fake table knows the deal).
func (t *Table) RoleOf(p engine.Seat) engine.Card { return t.Truth[t.State.RoleSlot(p)] }

// Waiting reports whether the table waits for night choices ([Table.Needs]).
func (t *Table) Waiting() bool { return t.pending != nil }

// WantCoin fixes what the next coin breaking the mafia's tie picks: the
// table searches coins until [mafia.CoinPick] gives p.
func (t *Table) WantCoin(p engine.Seat) { t.coinWant = p }

// Play applies a move: the rules check it, the table checks its proofs,
// then carries out its effects and feeds facts until the rules wait for a
// move, the game ends, or a night choice is missing.
func (t *Table) Play(m engine.Move) error {
	if t.Waiting() {
		return fmt.Errorf("%s: the table waits for night choices, not a move", t.State.Name(m.Seat))
	}
	text := mafia.FormatMove(t.State, m)
	ns, eff, err := t.State.Play(m)
	if err != nil {
		return err
	}
	for _, e := range eff {
		if e.Kind == engine.EffectProve {
			if err := t.checkProof(e); err != nil {
				return err
			}
		}
	}
	t.State = ns
	t.Moves = append(t.Moves, text)
	t.Last, t.Facts = nil, nil
	return t.carry(eff)
}

// Needs returns the night choices the table waits for (none when it does
// not wait).
func (t *Table) Needs() []Need {
	if !t.Waiting() {
		return nil
	}
	e := t.pending[0]
	var out []Need
	for _, p := range e.Seats {
		if t.holds(p, e) {
			if _, ok := t.choices[p][e.Power]; !ok {
				out = append(out, Need{Seat: p, Power: e.Power, Targets: slices.DeleteFunc(slices.Clone(e.Targets), func(q engine.Seat) bool { return q == p })})
			}
		}
	}
	return out
}

// Choose gives seat p's secret night choice for power (the target, or
// the seat checked) and carries on if nothing else is missing. It is an
// error to choose for a power the seat does not hold tonight, or a target
// it may not name.
func (t *Table) Choose(p engine.Seat, power uint8, target engine.Seat) error {
	if !t.Waiting() {
		return &engine.RuleError{Seat: p, Rule: RuleNoNight, Msg: fmt.Sprintf("%s makes no night choice now: %s", t.State.Name(p), mafia.NoNightWhy(t.State))}
	}
	var e *engine.Effect
	for i := range t.pending {
		x := t.pending[i]
		if (x.Kind == engine.EffectBallot || x.Kind == engine.EffectCheck) && x.Power == power {
			e = &t.pending[i]
			break
		}
	}
	if e == nil || !slices.Contains(e.Seats, p) || !t.holds(p, *e) {
		return &engine.RuleError{Seat: p, Rule: RuleNoPower,
			Msg: fmt.Sprintf("%s does not hold the %s power tonight: %s", t.State.Name(p), mafia.PowerName(power), mafia.NightRule(power))}
	}
	if target == p || !slices.Contains(e.Targets, target) {
		return &engine.RuleError{Seat: p, Rule: mafia.RuleBadTarget,
			Msg: fmt.Sprintf("%s may not name %s for %s: a night choice names one other living player", t.State.Name(p), t.State.Name(target), mafia.PowerName(power))}
	}
	if t.choices[p] == nil {
		t.choices[p] = map[uint8]engine.Seat{}
	}
	t.choices[p][power] = target
	return t.Resume()
}

// Resume carries on the pending effects if no choice is missing.
func (t *Table) Resume() error {
	if !t.Waiting() || len(t.Needs()) > 0 {
		return nil
	}
	eff := t.pending
	t.pending = nil
	return t.carry(eff)
}

// holds reports whether seat p holds the power of a ballot or check: its
// role is one of e.Cards.
func (t *Table) holds(p engine.Seat, e engine.Effect) bool {
	return slices.Contains(e.Cards, t.Truth[t.State.RoleSlot(p)])
}

func (t *Table) checkProof(e engine.Effect) error {
	if int(e.By) < len(t.Retired) && t.Retired[e.By] {
		return &ProofError{Seat: e.By, Msg: "a retired seat proves nothing"}
	}
	return t.CheckProof(e, mafia.CardName)
}

// acting checks that no retired seat is asked to act in e.
func (t *Table) acting(e engine.Effect) error {
	var who []engine.Seat
	switch e.Kind {
	case engine.EffectPeek, engine.EffectProve:
		who = []engine.Seat{e.By}
	case engine.EffectBallot, engine.EffectCheck, engine.EffectTag, engine.EffectShuffle:
		who = e.Seats
	}
	for _, p := range who {
		if int(p) < len(t.Retired) && t.Retired[p] {
			return fmt.Errorf("%v asks retired seat %d to act", e.Kind, p)
		}
	}
	return nil
}

// carry carries out a batch of effects, feeding the facts and coins the
// rules then wait for, until they wait for a move or a night choice is
// missing.
func (t *Table) carry(eff []engine.Effect) error {
	for {
		for i, e := range eff {
			if err := t.acting(e); err != nil {
				return err
			}
			if (e.Kind == engine.EffectBallot || e.Kind == engine.EffectCheck) && len(t.neededFor(e)) > 0 {
				t.pending = slices.Clone(eff[i:])
				return nil
			}
			t.Last = append(t.Last, e)
			t.Effects[e.Kind]++
			if ok, err := t.Carry(e, &t.batch, t.shuffle, t.peek); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			switch e.Kind {
			case engine.EffectBallot:
				t.ballot(e)
			case engine.EffectTally:
				t.tally(e)
			case engine.EffectCheck:
				t.check(e)
			case engine.EffectTag:
				t.tag(e)
			case engine.EffectRetire:
				t.Retired[e.By] = true
			default:
				return fmt.Errorf("unexpected effect %v", e.Kind)
			}
		}
		facts, done, err := t.batch.Next(t.State.Next().Kind == engine.NeedFacts, func() ([32]byte, error) { return t.coin(), nil })
		if err != nil || done {
			return err
		}
		t.Facts = append(t.Facts, facts...)
		ns, more, err := t.State.LearnFacts(facts)
		if err != nil {
			return err
		}
		if t.OnFacts != nil {
			t.OnFacts(t.State, ns, facts)
		}
		t.State, eff = ns, more
	}
}

func (t *Table) neededFor(e engine.Effect) []engine.Seat {
	var out []engine.Seat
	for _, p := range e.Seats {
		if t.holds(p, e) {
			if _, ok := t.choices[p][e.Power]; !ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// shuffle permutes the truth of a shuffle's slots at random; everyone
// forgets them.
func (t *Table) shuffle(e engine.Effect) {
	cards := make([]engine.Card, len(e.Slots))
	for i, sl := range e.Slots {
		cards[i] = t.Truth[sl]
	}
	t.rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	for i, sl := range e.Slots {
		t.Truth[sl] = cards[i]
		for _, v := range t.Views {
			delete(v, sl)
		}
	}
}

// peek carries out a private view: a role tuple's components (0, 1, 3 at
// the deal; 4 at the join) or an incident card.
func (t *Table) peek(e engine.Effect) {
	sl := e.Slots[0]
	c := t.Truth[sl]
	k := t.Know[e.By]
	if !mafia.IsRole(c) {
		t.Views[e.By][sl] = c
		k.Hand[sl] = c
		return
	}
	tuple := mafia.Tuple(c)
	comps := e.Comps
	if len(comps) == 0 {
		comps = []int{0, 1, 2, 3, 4}
	}
	for _, i := range comps {
		switch i {
		case mafia.CompRole:
			t.Views[e.By][sl] = c
			k.Role = c
		case mafia.CompTeamBefore, mafia.CompTeamAfter:
			k.Mafia = tuple[i].Kind == mafia.MafiaTeam
		case mafia.CompSecretAfter:
			k.Mafia = k.Mafia || tuple[i].GroupSecret
		}
	}
}

func (t *Table) ballot(e engine.Effect) {
	sums := map[engine.Seat]int{}
	by := map[engine.Seat]engine.Seat{}
	for _, p := range e.Seats {
		if !t.holds(p, e) {
			continue
		}
		sums[t.choices[p][e.Power]]++
		by[p] = t.choices[p][e.Power]
		delete(t.choices[p], e.Power)
	}
	t.ballots[e.Power] = sums
	t.bvoter[e.Power] = by
	t.btargets[e.Power] = slices.Clone(e.Targets)
}

func (t *Table) tally(e engine.Effect) {
	if len(e.Mix) > 0 && e.Votes {
		// A one-vote mix: each voter's code sum (its target, or none) in
		// a random order; nothing opens. The randomness drawn depends on
		// neither the votes nor the deal: two positions and which vote
		// comes first (the script's `coin` line, when it names one of two
		// different votes, fixes that instead).
		voters := t.btargets[e.Power]
		var votes []engine.Seat
		for _, v := range voters {
			if q, ok := t.bvoter[e.Power][v]; ok {
				votes = append(votes, q)
			}
		}
		// Drawn from a stream of the night alone (public), not from the
		// table's seed: the shuffles' order is independent of the deal,
		// and two tables with the same public history draw the same.
		pub := rand.New(rand.NewPCG(uint64(t.State.Day()), 27))
		perm := pub.Perm(len(voters))
		flip := pub.IntN(2) == 1
		if want := t.coinWant; want != mafia.NoSeat {
			t.coinWant = mafia.NoSeat
			if len(votes) == 2 && votes[0] != votes[1] && slices.Contains(votes, want) {
				flip = votes[0] != want
			}
		}
		if flip && len(votes) == 2 {
			votes[0], votes[1] = votes[1], votes[0]
		}
		order := make([]engine.Seat, len(voters))
		for i := range order {
			order[i] = mafia.NoSeat
		}
		pos := slices.Clone(perm[:min(len(votes), len(perm))])
		slices.Sort(pos)
		for i, q := range votes[:len(pos)] {
			order[pos[i]] = q
		}
		t.mixes[e.Power] = order
		return
	}
	if e.Plurality > 0 {
		// A plurality kill (mental SPEC §9.9): the first vote, in a
		// uniformly random order of the votes, whose target was named
		// most, picked with the added powers' codes; nothing else
		// opens. The order is drawn from a stream of the night alone
		// (public), as a one-vote mix's; the script's `coin` line, when
		// it names one of the tied targets, fixes the pick instead.
		var votes []engine.Seat
		for _, v := range t.btargets[e.Power] {
			if q, ok := t.bvoter[e.Power][v]; ok {
				votes = append(votes, q)
			}
		}
		if len(votes) != e.Plurality {
			panic(fmt.Sprintf("mafiatest: a plurality kill of %d votes, %d cast", e.Plurality, len(votes)))
		}
		pub := rand.New(rand.NewPCG(uint64(t.State.Day()), 28))
		pub.Shuffle(len(votes), func(i, j int) { votes[i], votes[j] = votes[j], votes[i] })
		count := map[engine.Seat]int{}
		top := 0
		for _, q := range votes {
			count[q]++
			top = max(top, count[q])
		}
		won := mafia.NoSeat
		if want := t.coinWant; want != mafia.NoSeat && count[want] == top {
			won = want
		}
		t.coinWant = mafia.NoSeat
		for _, q := range votes {
			if won == mafia.NoSeat && count[q] == top {
				won = q
			}
		}
		t.mixes[e.Power] = []engine.Seat{won}
		t.tally(engine.Effect{Kind: engine.EffectTally, Power: e.Power, Picked: true, Pick: 0, AddPowers: e.AddPowers})
		return
	}
	if e.Tested {
		// A blinded identity test: whether card Pick holds a vote.
		n := 0
		if t.mixes[e.Power][e.Pick] != mafia.NoSeat {
			n = 1
		}
		t.batch.Facts = append(t.batch.Facts, engine.Fact{Slot: engine.FactBlind, Seat: -1, Count: n})
		return
	}
	if len(e.Mix) > 0 {
		panic(fmt.Sprintf("mafiatest: a mix of power %d that is neither a one-vote mix nor a plurality kill", e.Power))
	}
	if e.Picked {
		won := t.mixes[e.Power][e.Pick]
		for _, p := range t.btargets[e.Power] {
			n := 0
			if p == won {
				n = 1
			}
			for _, pw := range e.AddPowers {
				n += t.ballots[pw][p]
			}
			t.batch.Facts = append(t.batch.Facts, engine.Fact{Slot: engine.FactTally, Seat: p, Count: n})
		}
		return
	}
	at := e.Seats
	if len(at) == 0 {
		at = t.btargets[e.Power]
	}
	for _, p := range at {
		n := t.ballots[e.Power][p]
		if len(e.Voters) > 0 {
			// Only these voters' ballots: a voter without the power
			// adds an empty one.
			n = 0
			for _, v := range e.Voters {
				if q, ok := t.bvoter[e.Power][v]; ok && q == p {
					n++
				}
			}
		}
		for _, pw := range e.AddPowers {
			n += t.ballots[pw][p]
		}
		t.batch.Facts = append(t.batch.Facts, engine.Fact{Slot: engine.FactTally, Seat: p, Count: n})
	}
}

// check answers the checker alone: the team component Comp of the
// target's role tuple.
func (t *Table) check(e engine.Effect) {
	for _, p := range e.Seats {
		if !t.holds(p, e) {
			continue
		}
		q := t.choices[p][e.Power]
		delete(t.choices[p], e.Power)
		k := slices.Index(e.Targets, q)
		tuple := mafia.Tuple(t.Truth[e.TargetSlots[k]])
		t.Know[p].Checks[q] = tuple[e.Comp].Kind == mafia.MafiaTeam
	}
}

// tag lets the seats holding the group secret in component Comp
// recognise each other.
func (t *Table) tag(e engine.Effect) {
	var holders []engine.Seat
	for _, p := range e.Seats {
		if mafia.Tuple(t.Truth[t.State.RoleSlot(p)])[e.Comp].GroupSecret {
			holders = append(holders, p)
		}
	}
	for _, p := range holders {
		k := t.Know[p]
		for _, q := range holders {
			if q != p && !slices.Contains(k.Mates, q) {
				k.Mates = append(k.Mates, q)
			}
		}
		slices.Sort(k.Mates)
	}
}

// coin returns a random coin, or one that picks the wanted seat among the
// tied.
func (t *Table) coin() [32]byte {
	tied := t.State.Tied()
	want := t.coinWant
	t.coinWant = mafia.NoSeat
	for range 1 << 10 {
		c := fake.Coin(t.rng)
		if want == mafia.NoSeat || !slices.Contains(tied, want) || mafia.CoinPick(tied, c) == want {
			return c
		}
	}
	return fake.Coin(t.rng)
}

// Player chooses one seat's moves and night choices (the bot, in
// playouts).
type Player interface {
	Move(s *mafia.State, k *mafia.Knowledge) (engine.Move, bool)
	Night(s *mafia.State, k *mafia.Knowledge, power uint8, targets []engine.Seat) engine.Seat
}

// Step makes one step with players (one per seat): the night choices the
// table waits for, or the move due. It reports false when the game is
// over.
func (t *Table) Step(players []Player) (bool, error) {
	if t.Waiting() {
		for _, nd := range t.Needs() {
			q := players[nd.Seat].Night(t.State, t.Know[nd.Seat].Clone(), nd.Power, nd.Targets)
			if err := t.Choose(nd.Seat, nd.Power, q); err != nil {
				return false, err
			}
		}
		return true, nil
	}
	need := t.State.Next()
	if need.Kind != engine.NeedMove {
		return false, nil
	}
	m, ok := players[need.Seat].Move(t.State, t.Know[need.Seat].Clone())
	if !ok {
		return false, fmt.Errorf("seat %d has no move", need.Seat)
	}
	return true, t.Play(m)
}
