package mafia

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
)

var kindNames = map[uint8]string{
	MoveHold: "hold", MoveVote: "vote", MovePass: "pass", MoveCard: "play", MoveLeave: "leave",
}

// KindName returns the script verb of a move kind.
func KindName(k uint8) string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind(%d)", k)
}

// FormatMove returns the public text of m in s as a script line: "Anna
// hold yes", "Anna vote Boris", "Anna vote abstain", "Anna pass", "Anna
// play Misfire slot=7", "Anna leave". [ParseMove] reads it back.
func FormatMove(s *State, m engine.Move) string {
	parts := []string{s.Name(m.Seat), KindName(m.Kind)}
	a := m.Args
	switch {
	case m.Kind == MoveHold && len(a) == 1:
		parts = append(parts, map[bool]string{true: "yes", false: "no"}[a[0] == 1])
	case m.Kind == MoveVote && len(a) == 1:
		if a[0] < 0 {
			parts = append(parts, "abstain")
		} else {
			parts = append(parts, s.Name(engine.Seat(a[0])))
		}
	case m.Kind == MoveCard && len(a) == 3:
		parts = append(parts, CardName(engine.Card(a[0])), "slot="+strconv.Itoa(a[1]))
		if a[2] != 0 {
			parts = append(parts, strconv.Itoa(a[2]))
		}
	default:
		for _, x := range a {
			parts = append(parts, strconv.Itoa(x))
		}
	}
	return strings.Join(parts, " ")
}

// ParseMove reads seat p's move from its script tokens (the verb first):
// hold yes|no, vote NAME|abstain, pass, play CARD slot=N,
// leave. A play line without slot= is completed by [NameHidden].
func ParseMove(s *State, p engine.Seat, tokens []string) (engine.Move, error) {
	m := engine.Move{Seat: p}
	if len(tokens) == 0 {
		return m, fmt.Errorf("empty move")
	}
	verb, args := strings.ToLower(tokens[0]), tokens[1:]
	switch verb {
	case "hold":
		m.Kind = MoveHold
		if len(args) != 1 {
			return m, fmt.Errorf("hold: want yes or no")
		}
		switch strings.ToLower(args[0]) {
		case "yes":
			m.Args = []int{1}
		case "no":
			m.Args = []int{0}
		default:
			return m, fmt.Errorf("hold: want yes or no, got %q", args[0])
		}
	case "vote":
		m.Kind = MoveVote
		if len(args) != 1 {
			return m, fmt.Errorf("vote: want a player or abstain")
		}
		if strings.EqualFold(args[0], "abstain") {
			m.Args = []int{-1}
			break
		}
		t, err := s.SeatByName(args[0])
		if err != nil {
			return m, fmt.Errorf("vote: %w", err)
		}
		m.Args = []int{int(t)}
	case "pass", "leave":
		m.Kind = MovePass
		if verb == "leave" {
			m.Kind = MoveLeave
		}
		if len(args) != 0 {
			return m, fmt.Errorf("%s takes no arguments", verb)
		}
	case "play":
		m.Kind = MoveCard
		if len(args) == 1 {
			// A card named without its slot is one the player was not
			// found to hold ([NameHidden] names the slots of held ones).
			if c, err := ParseCard(args[0]); err == nil && IsIncident(c) {
				return m, fmt.Errorf("%s: %s holds no %s: a player plays an incident card of their own hand", RuleNotInHand, s.Name(p), CardWords(c))
			}
		}
		if len(args) == 3 && strings.EqualFold(args[2], "butterfly") {
			return m, fmt.Errorf("play: no Butterfly claim: her date is opened from the date ballots of the seats that answered with a card")
		}
		if len(args) != 2 {
			return m, fmt.Errorf("play: want CARD slot=N")
		}
		c, err := ParseCard(args[0])
		if err != nil || !IsIncident(c) {
			return m, fmt.Errorf("play: %q is not an incident card", args[0])
		}
		v, ok := strings.CutPrefix(strings.ToLower(args[1]), "slot=")
		sl, err := strconv.Atoi(v)
		if !ok || err != nil {
			return m, fmt.Errorf("play: want slot=N, got %q", args[1])
		}
		m.Args = []int{int(c), sl, 0}
	default:
		return m, fmt.Errorf("unknown verb %q (hold, vote, pass, play, leave)", tokens[0])
	}
	return m, nil
}

// NameHidden completes "play CARD" by seat p into "play CARD slot=N" with a slot of p's hand that p knows holds CARD
// (known: what p knows, by slot). Other tokens are returned as they are.
func NameHidden(s *State, p engine.Seat, known map[engine.Slot]engine.Card, tokens []string) []string {
	if len(tokens) < 2 || !strings.EqualFold(tokens[0], "play") {
		return tokens
	}
	if len(tokens) >= 3 && strings.HasPrefix(strings.ToLower(tokens[2]), "slot=") {
		return tokens
	}
	c, err := ParseCard(tokens[1])
	if err != nil {
		return tokens
	}
	for _, sl := range s.Hand(p) {
		if v, ok := known[sl]; ok && v == c {
			out := []string{tokens[0], tokens[1], "slot=" + strconv.Itoa(int(sl))}
			return append(out, tokens[2:]...)
		}
	}
	return tokens
}
