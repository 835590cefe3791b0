package mafia

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// speaker tells things to one seat: "you" for it, names for the others.
type speaker = games.Speaker

func listAnd(xs []string) string { return games.ListAnd(xs, "nobody") }

// article returns "a" or "an" for a card's words, "the" for a role of
// which a game has one (the Commissar, the Don).
func article(c engine.Card) string {
	switch c {
	case Commissar, Nurse, Butterfly, Don, Madman:
		return "the " + CardWords(c)
	}
	if strings.ContainsRune("AEIOU", rune(CardWords(c)[0])) {
		return "an " + CardWords(c)
	}
	return "a " + CardWords(c)
}

// SayMove tells move m, made in state s, in plain words; you is the seat
// spoken to in the second person (-1 for none). A move that ends the
// first day's question or the day's vote also tells how it ended when
// nobody is condemned ("No vote today", "nobody is eliminated today").
func SayMove(s *State, m engine.Move, you engine.Seat) string {
	out := sayMove(s, m, you)
	if ns, _, err := s.Play(m); err == nil {
		if end := sayDayEnd(s, ns, you); end != "" {
			out += " " + end
		}
	}
	return out
}

// sayDayEnd tells how the first day's question or the day's vote ended
// with the move from before to after, or "" if it did not end. A player
// condemned is named (their answer and elimination tell the rest); a
// player leaving during the vote does not end it.
func sayDayEnd(before, after *State, you engine.Seat) string {
	w := speaker{Names: after, You: you}
	switch c := after.condemned; {
	case before.phase == PhaseHold && after.phase == PhaseVote:
		return "Most of the living want a vote: the vote begins."
	case before.phase == PhaseHold && after.phase != PhaseHold:
		return "No vote today: most of the living did not want one."
	case before.phase != PhaseVote || after.phase == PhaseVote:
		return ""
	case after.phase == PhaseDayAnswer:
		return fmt.Sprintf("%s %s the most votes.", w.Name(c), w.Verb(c, "has", "have"))
	case after.phase == WaitReveal && c != NoSeat:
		return fmt.Sprintf("%s %s the most votes and %s eliminated.", w.Name(c), w.Verb(c, "has", "have"), w.Verb(c, "is", "are"))
	case after.phase == WaitReveal:
		return ""
	case after.side == SideDraw:
		return "The vote is tied: the game ends in a draw."
	case after.phase != PhaseOver:
		return "Nobody is eliminated today: no player has the most votes."
	}
	return ""
}

func sayMove(s *State, m engine.Move, you engine.Seat) string {
	w := speaker{Names: s, You: you}
	p := m.Seat
	a := m.Args
	switch {
	case m.Kind == MoveHold && len(a) == 1 && a[0] == 1:
		return fmt.Sprintf("%s %s to hold a vote today.", w.Name(p), w.Verb(p, "wants", "want"))
	case m.Kind == MoveHold:
		return fmt.Sprintf("%s %s no vote today.", w.Name(p), w.Verb(p, "wants", "want"))
	case m.Kind == MoveVote && len(a) == 1 && a[0] < 0:
		return fmt.Sprintf("%s %s.", w.Name(p), w.Verb(p, "abstains", "abstain"))
	case m.Kind == MoveVote && len(a) == 1:
		return fmt.Sprintf("%s %s to eliminate %s.", w.Name(p), w.Verb(p, "votes", "vote"), w.Ref(engine.Seat(a[0])))
	case m.Kind == MovePass && s.phase == PhaseDayAnswer:
		return fmt.Sprintf("%s %s no card and %s to the vote.", w.Name(p), w.Verb(p, "plays", "play"), w.Verb(p, "submits", "submit"))
	case m.Kind == MovePass:
		return fmt.Sprintf("%s %s no card against the attack.", w.Name(p), w.Verb(p, "plays", "play"))
	case m.Kind == MoveLeave:
		return fmt.Sprintf("%s %s the game.", w.Name(p), w.Verb(p, "leaves", "leave"))
	case m.Kind == MoveCard && len(a) == 3:
		c := engine.Card(a[0])
		out := fmt.Sprintf("%s %s %s", w.Name(p), w.Verb(p, "plays", "play"), article(c))
		switch {
		case c == Misfire:
			out += ": the shot misses"
		case c == Alibi:
			out += ": nobody is eliminated today"
		case Direction(c) != 0:
			to := s.Neighbour(p, Direction(c))
			what := "the attack"
			if IsDay(c) {
				what = "the elimination"
			}
			out += fmt.Sprintf(": %s moves to %s", what, w.Ref(to))
		}
		return out + "."
	}
	return FormatMove(s, m)
}

// SayFacts tells what a completed step made public: before is the state
// that waited for the facts, after the state once they were learnt.
func SayFacts(before, after *State, facts []engine.Fact, you engine.Seat) []string {
	w := speaker{Names: after, You: you}
	var out []string
	switch before.phase {
	case WaitKill:
		if before.oneVote && after.phase == WaitKill {
			break // a one-vote kill's test of an empty code sum: nothing to say
		}
		out = append(out, fmt.Sprintf("Night %d is over and the city wakes up.", before.day))
		if after.phase == WaitCoin {
			var ns []string
			for _, p := range after.tied {
				ns = append(ns, w.Ref(p))
			}
			out = append(out, fmt.Sprintf("The mafia's votes are tied between %s: a joint coin decides.", listAnd(ns)))
		}
		out = append(out, sayAttacks(w, before, after)...)
	case WaitCoin:
		out = append(out, "The coin has decided.")
		out = append(out, sayAttacks(w, before, after)...)
	case WaitPick:
		out = append(out, sayAttacks(w, before, after)...)
	case WaitProtect:
		for _, p := range before.asked {
			_, saved, dated := after.Attacked(p)
			switch {
			case saved:
				out = append(out, fmt.Sprintf("%s %s attacked, but the Nurse saved %s.", w.Name(p), w.Verb(p, "was", "were"), w.Verb(p, "them", "you")))
			case dated:
				out = append(out, fmt.Sprintf("%s %s attacked, but %s with the Night Butterfly and %s.", w.Name(p), w.Verb(p, "was", "were"), w.Verb(p, "was", "were"), w.Verb(p, "survives", "survive")))
			default:
				out = append(out, fmt.Sprintf("%s %s attacked, and nobody protected %s.", w.Name(p), w.Verb(p, "was", "were"), w.Verb(p, "them", "you")))
			}
		}
	case WaitReveal:
		for i, p := range before.elim {
			r := facts[i].Card
			if before.left[p] {
				out = append(out, fmt.Sprintf("%s left the game: %s %s %s.", w.Name(p), w.Verb(p, "they", "you"), w.Verb(p, "were", "were"), article(r)))
				continue
			}
			out = append(out, fmt.Sprintf("%s %s out of the game: %s %s %s.", w.Name(p), w.Verb(p, "is", "are"), w.Verb(p, "they", "you"), w.Verb(p, "were", "were"), article(r)))
			if (r == Commissar || r == Don) && before.Incidents() {
				out = append(out, fmt.Sprintf("The %s is out: everyone alive draws an incident card.", CardWords(r)))
			}
		}
		if after.joined && !before.joined && before.InPlay(Madman) {
			out = append(out, "The first mafia member is out: the Madman joins the mafia.")
		}
	case WaitDate:
		switch d := after.date; {
		case d == NoSeat:
		case after.phase == PhaseDateAnswer:
			out = append(out, fmt.Sprintf("The Night Butterfly was attacked, and she spent the night with %s: %s %s with her unless %s %s a Misfire.",
				w.Ref(d), w.Ref(d), w.Verb(d, "dies", "die"), w.Verb(d, "they", "you"), w.Verb(d, "play", "play")))
		case before.Alive(d):
			out = append(out, fmt.Sprintf("The Night Butterfly was attacked, and she spent the night with %s, who %s with her.", w.Ref(d), w.Verb(d, "dies", "die")))
		}
	case WaitFinal:
		for i, f := range facts {
			p := engine.Seat(f.Slot)
			_ = i
			out = append(out, fmt.Sprintf("%s %s %s.", w.Name(p), w.Verb(p, "was", "were"), article(f.Card)))
		}
	}
	if after.Over() && !before.Over() {
		switch after.side {
		case SideMafia:
			out = append(out, "The mafia win: at most one civilian is left.")
		case SideCivilians:
			out = append(out, "The civilians win: every mafia member is out.")
		case SideDraw:
			out = append(out, "The day's vote is tied: the game is a draw.")
		}
	}
	return out
}

// sayAttacks tells who the night's kill tallies name.
func sayAttacks(w speaker, before, after *State) []string {
	if after.phase == WaitCoin || after.phase == WaitPick {
		return nil
	}
	var ns []string
	for p := range engine.Seat(after.n) {
		if a, _, _ := after.Attacked(p); a {
			ns = append(ns, w.Ref(p))
		}
	}
	return []string{fmt.Sprintf("Attacked in the night: %s.", listAnd(ns))}
}

// SayMove implements [games.Teller] with [SayMove].
func (Game) SayMove(s engine.State, m engine.Move, you engine.Seat) string {
	return games.SayMoveOf(s, m, you, SayMove, KindName)
}

// SayFacts implements [games.Teller] with [SayFacts].
func (Game) SayFacts(before, after engine.State, facts []engine.Fact, you engine.Seat) []string {
	return games.SayFactsOf(before, after, facts, you, SayFacts)
}

// Prompt tells seat p what it must do now, in plain words, or "" when
// nothing is due from it.
func Prompt(s *State, p engine.Seat) string {
	if s.Next().Kind != engine.NeedMove || s.turn != p {
		return ""
	}
	switch s.phase {
	case PhaseHold:
		// The screen's notice of the answers says when the vote is held.
		return "It is the first day: do you want to hold a vote today?"
	case PhaseVote:
		return "Vote to eliminate one other living player, or abstain."
	case PhaseDayAnswer:
		return "The vote eliminates you: play an Alibi or an Evidence card, or accept it."
	case PhaseNightAnswer:
		return "You were attacked in the night: play a Misfire or a Ricochet, or accept it."
	case PhaseDateAnswer:
		return "The Night Butterfly you spent the night with was attacked: play a Misfire to survive, or accept it."
	}
	return ""
}
