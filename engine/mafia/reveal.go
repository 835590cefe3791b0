package mafia

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

var _ games.NightRevealer = Game{}

// SayBallots implements [games.NightRevealer]: one sentence per voter,
// in seat order ("Anna (Don) votes to kill Igor", "Fedor (Nurse) saves
// Igor").
func (Game) SayBallots(s engine.State, power uint8, votes map[engine.Seat]engine.Seat, open func(engine.Slot) engine.Card) []string {
	st, ok := games.StateOf[*State](s)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range sortedSeats(votes) {
		out = append(out, SayBallot(st, power, p, votes[p], open(st.RoleSlot(p))))
	}
	return out
}

// SayBallot tells one opened ballot: voter, whose role is role, named
// target for power.
func SayBallot(s *State, power uint8, voter, target engine.Seat, role engine.Card) string {
	who := fmt.Sprintf("%s (%s)", s.Name(voter), CardWords(role))
	switch power {
	case PowerKill:
		return fmt.Sprintf("%s votes to kill %s", who, s.Name(target))
	case PowerMadman:
		return fmt.Sprintf("%s picks %s as his own victim", who, s.Name(target))
	case PowerSave:
		return fmt.Sprintf("%s saves %s", who, s.Name(target))
	case PowerDate:
		return fmt.Sprintf("%s spends the night with %s", who, s.Name(target))
	}
	return fmt.Sprintf("%s names %s (%s)", who, s.Name(target), PowerName(power))
}

// SayChecks implements [games.NightRevealer]: what each Commissar's check
// answered ("Egor (Commissar) checks a player of the mafia"); the other
// seats' checks re-mask the neutral card and say nothing.
func (Game) SayChecks(s engine.State, answers map[engine.Seat]engine.Card, open func(engine.Slot) engine.Card) []string {
	st, ok := games.StateOf[*State](s)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range sortedSeats(answers) {
		if role := open(st.RoleSlot(p)); role == Commissar {
			team := "not of the mafia"
			if answers[p] == MafiaTeam {
				team = "of the mafia"
			}
			out = append(out, fmt.Sprintf("%s (%s) checks a player %s (whom: a check hides even from the published keys)",
				st.Name(p), CardWords(role), team))
		}
	}
	return out
}

func sortedSeats[V any](m map[engine.Seat]V) []engine.Seat {
	out := make([]engine.Seat, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
