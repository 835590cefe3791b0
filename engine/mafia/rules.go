package mafia

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
)

// Apply returns the state after move m and the effects the table must
// carry out, or a *[engine.RuleError] naming the seat and the rule if m
// is illegal now. The receiver is not modified.
func (s *State) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	return asState(s.Play(m))
}

// asState turns a step's concrete result into the engine's (no typed nil
// state beside an error).
func asState(ns *State, eff []engine.Effect, err error) (engine.State, []engine.Effect, error) {
	if err != nil {
		return nil, nil, err
	}
	return ns, eff, nil
}

// stepFunc is one of the rules' steps, carried out on a clone: a move's
// (A is engine.Move) or the facts' (A is []engine.Fact).
type stepFunc[A any] func(*State, A) ([]engine.Effect, error)

// moveSteps are the moves' steps, by the phase that waits for them.
var moveSteps = map[Phase]stepFunc[engine.Move]{
	PhaseHold:        (*State).applyHold,
	PhaseVote:        (*State).applyVote,
	PhaseDayAnswer:   (*State).applyDayAnswer,
	PhaseNightAnswer: (*State).applyNightAnswer,
	PhaseDateAnswer:  (*State).applyDateAnswer,
}

// factSteps are the facts' steps, by the phase that waits for them.
var factSteps = map[Phase]stepFunc[[]engine.Fact]{
	WaitKill:    (*State).learnKill,
	WaitCoin:    (*State).learnCoin,
	WaitPick:    (*State).learnPick,
	WaitProtect: (*State).learnProtect,
	WaitReveal:  (*State).learnReveal,
	WaitDate:    (*State).learnDate,
	WaitFinal:   (*State).learnFinal,
}

// step carries out the step of steps due in s's phase with a on a clone
// of s, or returns none when no step is due.
func step[A any](s *State, steps map[Phase]stepFunc[A], a A, none error) (*State, []engine.Effect, error) {
	do, ok := steps[s.phase]
	if !ok {
		return nil, nil, none
	}
	c := s.clone()
	eff, err := do(c, a)
	if err != nil {
		return nil, nil, err
	}
	return c, eff, nil
}

// Play is [State.Apply] returning the concrete state.
func (s *State) Play(m engine.Move) (*State, []engine.Effect, error) {
	p := m.Seat
	switch {
	case s.phase == PhaseOver:
		return nil, nil, ruleErr(p, RuleGameOver, "the game is over")
	case s.Next().Kind == engine.NeedFacts:
		return nil, nil, ruleErr(p, RuleWaitingFacts, "the table owes the rules facts, not a move")
	case p < 0 || int(p) >= s.n:
		return nil, nil, ruleErr(p, RuleNoSeat, "no seat %d at a table of %d", p, s.n)
	case !s.alive[p]:
		return nil, nil, ruleErr(p, RuleDead, "%s is out of the game and acts no more", s.Name(p))
	}
	if m.Kind == MoveLeave {
		if len(m.Args) != 0 {
			return nil, nil, ruleErr(p, RuleBadArgs, "leave takes no arguments")
		}
		c := s.clone()
		return c, c.leave(p), nil
	}
	if p != s.turn {
		return nil, nil, ruleErr(p, RuleNotYourTurn, "it is %s's move, not %s's", s.Name(s.turn), s.Name(p))
	}
	return step(s, moveSteps, m, ruleErr(p, RuleWrongMove, "no move is due"))
}

func (s *State) resetVotes() {
	s.hold = make([]int8, s.n)
	s.votes = make([]int, s.n)
	for i := range s.n {
		s.hold[i] = -1
		s.votes[i] = -2
	}
}

// firstVoter returns the first living seat that has not voted (or
// answered the first day's question) yet, or NoSeat.
func (s *State) firstVoter() engine.Seat {
	for p := range engine.Seat(s.n) {
		if !s.alive[p] {
			continue
		}
		if (s.phase == PhaseHold && s.hold[p] < 0) || (s.phase == PhaseVote && s.votes[p] == -2) {
			return p
		}
	}
	return NoSeat
}

func (s *State) wantKind(m engine.Move, kinds ...uint8) error {
	if !slices.Contains(kinds, m.Kind) {
		return ruleErr(m.Seat, RuleWrongMove, "%s cannot %s now: %s", s.Name(m.Seat), KindName(m.Kind), s.dueWords())
	}
	return nil
}

// dueWords says which move is due now, for a refusal.
func (s *State) dueWords() string {
	switch s.phase {
	case PhaseHold:
		return "day 1 asks first whether to hold a vote (hold yes or hold no)"
	case PhaseVote:
		return fmt.Sprintf("it is day %d's vote (vote NAME, or vote abstain)", s.day)
	case PhaseDayAnswer:
		return fmt.Sprintf("the vote eliminates %s, who answers (play an Alibi or an Evidence, or pass)", s.Name(s.condemned))
	case PhaseNightAnswer:
		return fmt.Sprintf("%s answers the night's attack (play a Misfire or a Ricochet, or pass)", s.Name(s.turn))
	case PhaseDateAnswer:
		return fmt.Sprintf("%s answers the Night Butterfly's fate (play a Misfire, or pass)", s.Name(s.turn))
	}
	return "no move is due"
}

func (s *State) applyHold(m engine.Move) ([]engine.Effect, error) {
	if err := s.wantKind(m, MoveHold); err != nil {
		return nil, err
	}
	if len(m.Args) != 1 || (m.Args[0] != 0 && m.Args[0] != 1) {
		return nil, ruleErr(m.Seat, RuleBadArgs, "hold takes yes or no")
	}
	s.hold[m.Seat] = int8(m.Args[0])
	return s.afterHold(), nil
}

func (s *State) afterHold() []engine.Effect {
	s.phase = PhaseHold
	if t := s.firstVoter(); t != NoSeat {
		s.turn = t
		return nil
	}
	yes := 0
	for _, p := range s.Living() {
		if s.hold[p] == 1 {
			yes++
		}
	}
	if 2*yes > len(s.Living()) {
		s.phase = PhaseVote
		s.turn = s.firstVoter()
		return nil
	}
	return s.startNight()
}

func (s *State) applyVote(m engine.Move) ([]engine.Effect, error) {
	if err := s.wantKind(m, MoveVote); err != nil {
		return nil, err
	}
	if len(m.Args) != 1 {
		return nil, ruleErr(m.Seat, RuleBadArgs, "vote takes one player or abstain")
	}
	t := engine.Seat(m.Args[0])
	if t != NoSeat && (t == m.Seat || !s.Alive(t)) {
		return nil, ruleErr(m.Seat, RuleBadTarget, "a vote names one other living player")
	}
	s.votes[m.Seat] = int(t)
	return s.afterVote(), nil
}

func (s *State) afterVote() []engine.Effect {
	s.phase = PhaseVote
	if t := s.firstVoter(); t != NoSeat {
		s.turn = t
		return nil
	}
	count := make([]int, s.n)
	top := 0
	for _, p := range s.Living() {
		if t := s.votes[p]; t >= 0 && s.alive[t] {
			count[t]++
			top = max(top, count[t])
		}
	}
	var most []engine.Seat
	for p := range engine.Seat(s.n) {
		if top > 0 && count[p] == top {
			most = append(most, p)
		}
	}
	switch {
	case len(most) == 0:
		return s.startNight()
	case len(most) > 1 && s.opts.TieDraw:
		s.side = SideDraw
		return s.final()
	case len(most) > 1:
		return s.startNight()
	}
	return s.condemn(most[0])
}

// condemn starts the elimination of p by day: p may answer first.
func (s *State) condemn(p engine.Seat) []engine.Effect {
	s.condemned = p
	if s.Incidents() && len(s.hands[p]) > 0 {
		s.phase = PhaseDayAnswer
		s.turn = p
		return nil
	}
	return s.eliminate([]engine.Seat{p}, afterDay)
}

// playCard checks that m plays an incident card of one of kinds from the
// mover's hand and moves it back to the deck's bottom; it returns the
// card and the proof.
func (s *State) playCard(m engine.Move, ok func(engine.Card) bool, what string) (engine.Card, engine.Effect, error) {
	p := m.Seat
	if len(m.Args) != 3 {
		return 0, engine.Effect{}, ruleErr(p, RuleBadArgs, "a card move takes the card, its slot and a 0 (once the Butterfly claim)")
	}
	card, slot := engine.Card(m.Args[0]), engine.Slot(m.Args[1])
	if !ok(card) {
		return 0, engine.Effect{}, ruleErr(p, RuleWrongCard, "%s does not answer %s", CardWords(card), what)
	}
	i := slices.Index(s.hands[p], slot)
	if i < 0 {
		return 0, engine.Effect{}, ruleErr(p, RuleNotInHand, "slot %d is not one of %s's incident cards", slot, s.Name(p))
	}
	s.hands[p] = slices.Delete(s.hands[p], i, i+1)
	s.pile = append(s.pile, slot)
	s.stale = true
	return card, engine.Effect{Kind: engine.EffectProve, By: p, Slots: []engine.Slot{slot}, Cards: []engine.Card{card}}, nil
}

// answerPass checks an answer to an elimination or an attack (a pass or
// an incident card) and reports whether it is a pass, which takes no
// arguments.
func (s *State) answerPass(m engine.Move) (bool, error) {
	if err := s.wantKind(m, MovePass, MoveCard); err != nil {
		return false, err
	}
	if m.Kind == MovePass && len(m.Args) != 0 {
		return false, ruleErr(m.Seat, RuleBadArgs, "pass takes no arguments")
	}
	return m.Kind == MovePass, nil
}

// playUnclaimed is [State.playCard] for a card move, whose third
// argument is 0 (it was the Butterfly claim before issue 27; noClaim
// says why there is none).
func (s *State) playUnclaimed(m engine.Move, ok func(engine.Card) bool, what, noClaim string) (engine.Card, engine.Effect, error) {
	card, proof, err := s.playCard(m, ok, what)
	if err == nil && m.Args[2] != 0 {
		err = ruleErr(m.Seat, RuleBadArgs, "%s", noClaim)
	}
	return card, proof, err
}

func (s *State) applyDayAnswer(m engine.Move) ([]engine.Effect, error) {
	p := m.Seat
	if pass, err := s.answerPass(m); err != nil || pass {
		if err != nil {
			return nil, err
		}
		return s.eliminate([]engine.Seat{p}, afterDay), nil
	}
	card, proof, err := s.playUnclaimed(m, IsDay, "a day elimination", "no Butterfly claim by day")
	if err != nil {
		return nil, err
	}
	eff := []engine.Effect{proof}
	if card == Alibi {
		s.condemned = NoSeat
		return append(eff, s.startNight()...), nil
	}
	u := s.Neighbour(p, Direction(card))
	if u == NoSeat {
		s.condemned = NoSeat
		return append(eff, s.startNight()...), nil
	}
	return append(eff, s.condemn(u)...), nil
}

func (s *State) applyNightAnswer(m engine.Move) ([]engine.Effect, error) {
	p := m.Seat
	if pass, err := s.answerPass(m); err != nil || pass {
		if err != nil {
			return nil, err
		}
		s.queue = s.queue[1:]
		s.dying = append(s.dying, p)
		return s.nextAnswer(), nil
	}
	card, proof, err := s.playUnclaimed(m, IsNight, "a night attack",
		"no Butterfly claim: her date is opened from the date ballots of the seats that answered with a card (docs/mafia.md §11.3, L3)")
	if err != nil {
		return nil, err
	}
	eff := []engine.Effect{proof}
	if slices.Contains(s.powers, PowerDate) && !slices.Contains(s.answered, p) {
		// If p is the Butterfly, her date dies even though she survives:
		// the night's end opens the date ballots of the seats that
		// answered with a card, hers one-hot, everyone else's empty.
		s.answered = append(s.answered, p)
	}
	s.queue = s.queue[1:]
	if card == Misfire {
		return append(eff, s.nextAnswer()...), nil
	}
	u := s.Neighbour(p, Direction(card))
	switch {
	case u == NoSeat || slices.Contains(s.dying, u) || slices.Contains(s.queue, u):
		// Nobody to move to, or a player already dying or still to answer
		// the attacks on them together.
	case s.attacked[u]:
		if pr := s.prot[u]; pr == protNone {
			s.queue = append([]engine.Seat{u}, s.queue...)
		}
	default:
		s.attacked[u] = true
		s.queue = append([]engine.Seat{u}, s.queue...)
		return append(eff, s.askProtection([]engine.Seat{u})...), nil
	}
	return append(eff, s.nextAnswer()...), nil
}

func (s *State) applyDateAnswer(m engine.Move) ([]engine.Effect, error) {
	if pass, err := s.answerPass(m); err != nil || pass {
		if err != nil {
			return nil, err
		}
		return s.eliminate([]engine.Seat{m.Seat}, afterNight2), nil
	}
	_, proof, err := s.playUnclaimed(m, func(c engine.Card) bool { return c == Misfire },
		"the Night Butterfly's fate (only a Misfire does)", "no Butterfly claim for her date")
	if err != nil {
		return nil, err
	}
	s.then = afterNight2
	return append([]engine.Effect{proof}, s.finish()...), nil
}

func (s *State) leave(p engine.Seat) []engine.Effect {
	s.resume = s.phase
	s.left[p] = true
	return s.eliminate([]engine.Seat{p}, afterLeave)
}

// startNight begins night day+1: the ballots of every power in play, the
// Commissar's check, and the kill tallies.
func (s *State) startNight() []engine.Effect {
	s.day++
	s.resetVotes()
	s.attacked = make([]bool, s.n)
	s.prot = make([]uint8, s.n)
	s.queue, s.dying, s.asked, s.tied = nil, nil, nil, nil
	s.plural = false
	s.oneVote, s.voteTest = false, 0
	s.bflyHit, s.answered, s.fwd = false, nil, false
	s.date, s.condemned, s.madVictim = NoSeat, NoSeat, NoSeat
	s.targets = s.Living()
	slots := make([]engine.Slot, len(s.targets))
	for i, p := range s.targets {
		slots[i] = s.RoleSlot(p)
	}
	s.powers = nil
	ballot := func(power uint8, roles ...engine.Card) engine.Effect {
		s.powers = append(s.powers, power)
		return engine.Effect{Kind: engine.EffectBallot, Power: power, Seats: slices.Clone(s.targets),
			Slots: slices.Clone(slots), Cards: roles, Roles: s.RoleKinds(), Targets: slices.Clone(s.targets)}
	}
	eff := []engine.Effect{ballot(PowerKill, s.KillRoles()...)}
	if s.InPlay(Madman) && !s.joined {
		eff = append(eff, ballot(PowerMadman, Madman))
	}
	if s.InPlay(Nurse) {
		eff = append(eff, ballot(PowerSave, Nurse))
	}
	if s.InPlay(Butterfly) {
		eff = append(eff, ballot(PowerDate, Butterfly))
	}
	if s.InPlay(Commissar) {
		comp := CompTeamBefore
		if s.joined {
			comp = CompTeamAfter
		}
		s.powers = append(s.powers, PowerCheck)
		eff = append(eff, engine.Effect{Kind: engine.EffectCheck, Power: PowerCheck, Seats: slices.Clone(s.targets),
			Slots: slices.Clone(slots), Cards: []engine.Card{Commissar}, Roles: s.RoleKinds(), Comp: comp,
			Targets: slices.Clone(s.targets), TargetSlots: slices.Clone(slots), Neutral: NotMafia})
	}
	switch {
	case s.AttacksMerged():
		// One tally of both attacks: it names the attacked, not by whom.
		eff = append(eff, engine.Effect{Kind: engine.EffectTally, Power: PowerKill, AddPowers: []uint8{PowerMadman}})
	case s.KillPlurality():
		// Three or more votes: the plurality decides, a tie uniformly
		// among the tied, and only the victim opens (with the Madman's
		// added): every living seat looks its vote's count up, shuffles
		// the (code, count) cards and the kill table laid from the votes,
		// and tests them (mental SPEC §9.9).
		s.plural = true
		ef := engine.Effect{Kind: engine.EffectTally, Power: PowerKill, Mix: slices.Clone(s.targets), Plurality: s.killHolders()}
		if slices.Contains(s.powers, PowerMadman) {
			ef.AddPowers = []uint8{PowerMadman}
		}
		eff = append(eff, ef)
	case s.KillOneVote():
		// Two votes: a uniformly random one of them decides. Every living
		// seat shuffles the kill ballots' code sums; they are tested, in
		// the shuffled order, until the first that is a vote.
		s.oneVote = true
		eff = append(eff,
			engine.Effect{Kind: engine.EffectTally, Power: PowerKill, Mix: slices.Clone(s.targets), Votes: true},
			engine.Effect{Kind: engine.EffectTally, Power: PowerKill, Tested: true, Pick: 0})
	default:
		eff = append(eff, engine.Effect{Kind: engine.EffectTally, Power: PowerKill})
	}
	s.phase = WaitKill
	return eff
}

// askProtection opens the save and date tallies at newly attacked seats.
func (s *State) askProtection(seats []engine.Seat) []engine.Effect {
	var eff []engine.Effect
	for _, pw := range []uint8{PowerSave, PowerDate} {
		if slices.Contains(s.powers, pw) {
			eff = append(eff, engine.Effect{Kind: engine.EffectTally, Power: pw, Seats: slices.Clone(seats)})
		}
	}
	if len(eff) == 0 {
		for _, p := range seats {
			s.prot[p] = protNone
		}
		return s.nextAnswer()
	}
	s.asked = slices.Clone(seats)
	s.phase = WaitProtect
	return eff
}

// nextAnswer asks the next attacked player who can answer, or ends the
// night's attacks.
func (s *State) nextAnswer() []engine.Effect {
	for len(s.queue) > 0 {
		t := s.queue[0]
		switch {
		case !s.alive[t], s.prot[t] != protNone, slices.Contains(s.dying, t):
			s.queue = s.queue[1:]
			continue
		case s.Incidents() && len(s.hands[t]) > 0:
			s.phase = PhaseNightAnswer
			s.turn = t
			return nil
		}
		s.queue = s.queue[1:]
		s.dying = append(s.dying, t)
	}
	if len(s.dying) > 0 {
		d := slices.Clone(s.dying)
		slices.Sort(d)
		return s.eliminate(d, afterNight1)
	}
	return s.dateOrFinish()
}

// dateOrFinish opens the Butterfly's date if she was attacked and not
// saved, or ends the night. When her death showed it, the whole date
// tally opens; when seats answered an attack with a card, the sum of
// their date ballots opens at the living targets: her date if she was
// one of them, else nothing, and nobody learns which of them she is
// (docs/mafia.md §11.3, L3).
func (s *State) dateOrFinish() []engine.Effect {
	if slices.Contains(s.powers, PowerDate) {
		switch {
		case s.bflyHit:
			s.phase = WaitDate
			return []engine.Effect{{Kind: engine.EffectTally, Power: PowerDate}}
		case len(s.answered) > 0:
			s.phase, s.fwd = WaitDate, true
			return []engine.Effect{{Kind: engine.EffectTally, Power: PowerDate, Voters: slices.Sorted(slices.Values(s.answered)),
				Seats: s.livingTargets()}}
		}
	}
	s.then = afterNight2
	return s.finish()
}

// livingTargets returns tonight's targets still living, in order.
func (s *State) livingTargets() []engine.Seat {
	var out []engine.Seat
	for _, p := range s.targets {
		if s.alive[p] {
			out = append(out, p)
		}
	}
	return out
}

// eliminate reveals the roles of seats (component 0 only).
func (s *State) eliminate(seats []engine.Seat, then after) []engine.Effect {
	s.elim = slices.Clone(seats)
	s.then = then
	s.phase = WaitReveal
	slots := make([]engine.Slot, len(seats))
	for i, p := range seats {
		slots[i] = s.RoleSlot(p)
	}
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: slots, Comps: []int{CompRole}}}
}

// finish ends a step with eliminations: draws, the Madman's join (unless
// the game ends), the end check, then what follows.
func (s *State) finish() []engine.Effect {
	var eff []engine.Effect
	living := s.Living()
	for ; s.drawsDue > 0; s.drawsDue-- {
		if !s.Incidents() || len(s.pile) == 0 {
			continue
		}
		if s.stale && s.opts.Fixed == nil {
			eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: slices.Clone(s.pile), Seats: slices.Clone(living)})
		}
		s.stale = false
		for _, p := range living {
			if len(s.hands[p]) < HandLimit && len(s.pile) > 0 {
				sl := s.pile[0]
				s.pile = s.pile[1:]
				s.hands[p] = append(s.hands[p], sl)
				eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{sl}, Comps: []int{0}})
			}
		}
	}
	side := s.checkEnd() // the join's views are not asked when the game ends now
	if s.joinDue {
		s.joinDue = false
		if s.InPlay(Madman) && side == SideNone {
			slots := make([]engine.Slot, len(living))
			for i, p := range living {
				slots[i] = s.RoleSlot(p)
				eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{slots[i]}, Comps: []int{CompSecretAfter}})
			}
			s.tagRound++
			eff = append(eff, engine.Effect{Kind: engine.EffectTag, Seats: slices.Clone(living), Slots: slots,
				Comp: CompSecretAfter, Round: s.tagRound, Neutral: Neutral})
		}
	}
	if side != SideNone {
		s.side = side
		return append(eff, s.final()...)
	}
	switch s.then {
	case afterNight2:
		s.resetVotes()
		s.phase = PhaseVote
		s.turn = s.firstVoter()
	case afterDay:
		eff = append(eff, s.startNight()...)
	case afterLeave:
		eff = append(eff, s.resumeAfterLeave()...)
	}
	return eff
}

// resumeAfterLeave goes back to what a leave interrupted.
func (s *State) resumeAfterLeave() []engine.Effect {
	switch s.resume {
	case PhaseHold:
		return s.afterHold()
	case PhaseVote:
		for p, t := range s.votes {
			if t >= 0 && !s.alive[t] {
				s.votes[p] = -1
			}
		}
		return s.afterVote()
	case PhaseDayAnswer:
		if !s.alive[s.condemned] {
			s.condemned = NoSeat
			return s.startNight()
		}
		s.phase = PhaseDayAnswer
		s.turn = s.condemned
		return nil
	case PhaseNightAnswer:
		s.queue = slices.DeleteFunc(s.queue, func(p engine.Seat) bool { return !s.alive[p] })
		s.dying = slices.DeleteFunc(s.dying, func(p engine.Seat) bool { return !s.alive[p] })
		return s.nextAnswer()
	case PhaseDateAnswer:
		if !s.alive[s.date] {
			s.then = afterNight2
			return s.finish()
		}
		s.phase = PhaseDateAnswer
		s.turn = s.date
		return nil
	}
	return nil
}

// checkEnd returns the side that has won, if any: the civilians when
// every mafia member (the Madman included) is out, the mafia when at most
// one civilian is left.
func (s *State) checkEnd() Side {
	switch {
	case s.MafiaAlive() == 0:
		return SideCivilians
	case s.CiviliansAlive() <= 1:
		return SideMafia
	}
	return SideNone
}

// final reveals every living role at the end of the game.
func (s *State) final() []engine.Effect {
	var slots []engine.Slot
	for _, p := range s.Living() {
		if s.role[p] < 0 {
			slots = append(slots, s.RoleSlot(p))
		}
	}
	if len(slots) == 0 {
		s.phase = PhaseOver
		return nil
	}
	s.phase = WaitFinal
	return []engine.Effect{{Kind: engine.EffectReveal, Slots: slots, Comps: []int{CompRole}}}
}

// Learn returns the state after facts (tallies, a coin, revealed roles)
// and any further effects.
func (s *State) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	return asState(s.LearnFacts(facts))
}

// LearnFacts is [State.Learn] returning the concrete state.
func (s *State) LearnFacts(facts []engine.Fact) (*State, []engine.Effect, error) {
	return step(s, factSteps, facts, ruleErr(NoSeat, RuleNoFactsWanted, "no facts are due"))
}

// tallies checks facts as k tallies over seats, in order, and returns
// the counts.
func tallies(facts []engine.Fact, seats []engine.Seat, k int) ([][]int, error) {
	if len(facts) != k*len(seats) {
		return nil, factsErr("want %d tally facts, got %d", k*len(seats), len(facts))
	}
	out := make([][]int, k)
	for j := range k {
		out[j] = make([]int, len(seats))
		for i, p := range seats {
			f := facts[j*len(seats)+i]
			if f.Slot != engine.FactTally || f.Seat != p || f.Count < 0 || f.Count > len(seats) {
				return nil, factsErr("tally fact %d: want seat %d's count", j*len(seats)+i, p)
			}
			out[j][i] = f.Count
		}
	}
	return out, nil
}

func (s *State) learnKill(facts []engine.Fact) ([]engine.Effect, error) {
	if s.AttacksMerged() {
		return s.learnAttacks(facts)
	}
	if s.oneVote {
		return s.learnTest(facts)
	}
	if s.plural {
		// The plurality kill's pick: the attacked, never by whom.
		return s.learnPick(facts)
	}
	k := 1
	mad := slices.Contains(s.powers, PowerMadman)
	if mad {
		k = 2
	}
	t, err := tallies(facts, s.targets, k)
	if err != nil {
		return nil, err
	}
	top, sum := 0, 0
	for _, c := range t[0] {
		top = max(top, c)
		sum += c
	}
	if top == 0 || (s.InPlay(Don) && sum != 1) {
		return nil, factsErr("the mafia's kill tally is %d ballots", sum)
	}
	var most []engine.Seat
	for i, c := range t[0] {
		if c == top {
			most = append(most, s.targets[i])
		}
	}
	if mad {
		sum := 0
		for i, c := range t[1] {
			sum += c
			if c > 0 {
				s.madVictim = s.targets[i]
			}
		}
		if sum != 1 {
			return nil, factsErr("the Madman's tally is %d ballots", sum)
		}
	}
	if len(most) > 1 {
		s.tied = most
		s.phase = WaitCoin
		return []engine.Effect{{Kind: engine.EffectCoin}}, nil
	}
	return s.attackVictims(most[0]), nil
}

// CoinPick returns the seat a joint coin picks among the n tied seats, by
// rejection sampling over the coin's bytes: the first byte b, in order,
// below 256 − (256 mod n) picks tied[b mod n]; each accepted byte value
// picks every seat equally often, so the pick is uniform. If all 32
// bytes are refused (probability ((256 mod n)/256)^32, below 2^-154 for
// n ≤ 18), the pick is tied[0].
func CoinPick(tied []engine.Seat, coin [32]byte) engine.Seat {
	if len(tied) == 0 {
		return NoSeat
	}
	n := len(tied)
	limit := 256 - 256%n
	for _, b := range coin {
		if int(b) < limit {
			return tied[int(b)%n]
		}
	}
	return tied[0]
}

// Tied returns the seats tied in the mafia's vote while the coin is due.
func (s *State) Tied() []engine.Seat { return slices.Clone(s.tied) }

// learnTest reads a blinded identity test of the shuffled code sum
// voteTest of a one-vote kill: a vote is picked (its target opened, with
// the Madman's added), an empty ballot's code sum sends the test to the
// next one (mental SPEC §9.8).
func (s *State) learnTest(facts []engine.Fact) ([]engine.Effect, error) {
	if len(facts) != 1 || facts[0].Slot != engine.FactBlind || (facts[0].Count != 0 && facts[0].Count != 1) {
		return nil, factsErr("want the test of code sum %d", s.voteTest)
	}
	if facts[0].Count == 1 {
		return s.pick(s.voteTest), nil
	}
	s.voteTest++
	if s.voteTest >= len(s.targets) {
		return nil, factsErr("no code sum of the %d is a vote", len(s.targets))
	}
	return []engine.Effect{{Kind: engine.EffectTally, Power: PowerKill, Tested: true, Pick: s.voteTest}}, nil
}

// pick opens the target of the shuffled code sum k of the mafia's
// one-vote mix, with the Madman's target added when he has a ballot
// tonight.
func (s *State) pick(k int) []engine.Effect {
	s.phase = WaitPick
	ef := engine.Effect{Kind: engine.EffectTally, Power: PowerKill, Picked: true, Pick: k}
	if slices.Contains(s.powers, PowerMadman) {
		ef.AddPowers = []uint8{PowerMadman}
	}
	return []engine.Effect{ef}
}

// learnPick reads the opened pick: one attack (the mafia's), or two (the
// Madman's added, one seat when both named it), never by whom.
func (s *State) learnPick(facts []engine.Fact) ([]engine.Effect, error) {
	t, err := tallies(facts, s.targets, 1)
	if err != nil {
		return nil, err
	}
	want := 1
	if slices.Contains(s.powers, PowerMadman) {
		want = 2
	}
	var victims []engine.Seat
	sum := 0
	for i, c := range t[0] {
		sum += c
		if c > 0 {
			victims = append(victims, s.targets[i])
		}
	}
	if sum != want {
		return nil, factsErr("the pick names %d attacks, want %d", sum, want)
	}
	return s.attack(victims), nil
}

func (s *State) learnCoin(facts []engine.Fact) ([]engine.Effect, error) {
	if len(facts) != 1 || facts[0].Slot != -1 {
		return nil, factsErr("want one coin")
	}
	v := CoinPick(s.tied, facts[0].Coin)
	s.tied = nil
	return s.attackVictims(v), nil
}

// learnAttacks reads the one tally of the mafia's kill and the Madman's
// ballots added together: two votes in all, one by each; the seats with a
// count are attacked (one seat when both named it).
func (s *State) learnAttacks(facts []engine.Fact) ([]engine.Effect, error) {
	t, err := tallies(facts, s.targets, 1)
	if err != nil {
		return nil, err
	}
	var victims []engine.Seat
	sum := 0
	for i, c := range t[0] {
		sum += c
		if c > 0 {
			victims = append(victims, s.targets[i])
		}
	}
	if sum != 2 {
		return nil, factsErr("the attacks' tally is %d ballots, want the mafia's and the Madman's", sum)
	}
	return s.attack(victims), nil
}

func (s *State) attackVictims(mafia engine.Seat) []engine.Effect {
	victims := []engine.Seat{mafia}
	if s.madVictim != NoSeat && s.madVictim != mafia {
		victims = append(victims, s.madVictim)
	}
	return s.attack(victims)
}

// attack marks victims attacked and asks their protection.
func (s *State) attack(victims []engine.Seat) []engine.Effect {
	slices.Sort(victims)
	for _, p := range victims {
		s.attacked[p] = true
	}
	s.queue = slices.Clone(victims)
	return s.askProtection(victims)
}

func (s *State) learnProtect(facts []engine.Fact) ([]engine.Effect, error) {
	var k []uint8
	for _, pw := range []uint8{PowerSave, PowerDate} {
		if slices.Contains(s.powers, pw) {
			k = append(k, pw)
		}
	}
	t, err := tallies(facts, s.asked, len(k))
	if err != nil {
		return nil, err
	}
	for i, p := range s.asked {
		saved, dated := false, false
		for j, pw := range k {
			if t[j][i] > 1 {
				return nil, factsErr("%s tally of %d at seat %d", PowerName(pw), t[j][i], p)
			}
			saved = saved || (pw == PowerSave && t[j][i] > 0)
			dated = dated || (pw == PowerDate && t[j][i] > 0)
		}
		switch {
		case saved && dated:
			s.prot[p] = protSavedDate
		case saved:
			s.prot[p] = protSaved
		case dated:
			s.prot[p] = protDated
		default:
			s.prot[p] = protNone
		}
	}
	s.asked = nil
	return s.nextAnswer(), nil
}

func (s *State) learnReveal(facts []engine.Fact) ([]engine.Effect, error) {
	if len(facts) != len(s.elim) {
		return nil, factsErr("want %d roles, got %d", len(s.elim), len(facts))
	}
	if err := s.checkRoles(s.elim, facts); err != nil {
		return nil, err
	}
	var eff []engine.Effect
	for i, p := range s.elim {
		r := facts[i].Card
		s.role[p] = r
		s.alive[p] = false
		eff = append(eff, engine.Effect{Kind: engine.EffectRetire, By: p})
		if len(s.hands[p]) > 0 {
			s.pile = append(s.pile, s.hands[p]...)
			s.hands[p] = nil
			s.stale = true
		}
		if r == Commissar || r == Don {
			s.drawsDue++
		}
		if (r == Don || r == Mafioso) && !s.joined {
			s.joined, s.joinDue = true, true
		}
		if r == Butterfly && s.then == afterNight1 && s.prot[p] == protNone && s.attacked[p] {
			s.bflyHit = true
		}
	}
	s.queue = slices.DeleteFunc(s.queue, func(p engine.Seat) bool { return !s.alive[p] })
	s.dying = slices.DeleteFunc(s.dying, func(p engine.Seat) bool { return !s.alive[p] })
	s.elim = nil
	if s.then == afterNight1 {
		return append(eff, s.dateOrFinish()...), nil
	}
	return append(eff, s.finish()...), nil
}

// checkRoles checks revealed roles: each fact is the role slot of its
// seat, and no role is revealed more often than the deck holds it.
func (s *State) checkRoles(seats []engine.Seat, facts []engine.Fact) error {
	left := map[engine.Card]int{}
	for _, c := range s.deck {
		left[c]++
	}
	for p := range s.n {
		if s.role[p] >= 0 {
			left[s.role[p]]--
		}
	}
	for i, p := range seats {
		f := facts[i]
		if f.Slot != s.RoleSlot(p) || !IsRole(f.Card) {
			return factsErr("fact %d: want seat %d's role", i, p)
		}
		if left[f.Card]--; left[f.Card] < 0 {
			return factsErr("more %s cards revealed than the deck holds", CardName(f.Card))
		}
	}
	return nil
}

func (s *State) learnDate(facts []engine.Fact) ([]engine.Effect, error) {
	at := s.targets
	if s.fwd {
		at = s.livingTargets()
	}
	t, err := tallies(facts, at, 1)
	if err != nil {
		return nil, err
	}
	sum := 0
	date := NoSeat
	for i, c := range t[0] {
		sum += c
		if c > 0 {
			date = at[i]
		}
	}
	switch {
	case s.fwd && sum == 0:
		// None of the seats that answered with a card is the Butterfly
		// (or her date is no longer living).
		s.fwd = false
		s.then = afterNight2
		return s.finish(), nil
	case sum != 1:
		return nil, factsErr("the date tally is %d ballots", sum)
	}
	s.fwd = false
	s.date = date
	d := s.date
	switch {
	case !s.alive[d]:
		s.then = afterNight2
		return s.finish(), nil
	case s.Incidents() && len(s.hands[d]) > 0:
		s.phase = PhaseDateAnswer
		s.turn = d
		return nil, nil
	}
	return s.eliminate([]engine.Seat{d}, afterNight2), nil
}

func (s *State) learnFinal(facts []engine.Fact) ([]engine.Effect, error) {
	var seats []engine.Seat
	for _, p := range s.Living() {
		if s.role[p] < 0 {
			seats = append(seats, p)
		}
	}
	if len(facts) != len(seats) {
		return nil, factsErr("want %d roles, got %d", len(seats), len(facts))
	}
	if err := s.checkRoles(seats, facts); err != nil {
		return nil, err
	}
	for i, p := range seats {
		s.role[p] = facts[i].Card
	}
	s.phase = PhaseOver
	return nil, nil
}
