package mafiaview

import (
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Answer is an incident card a player played against a night attack:
// a public act (docs/mafia.md §11.1, A11), which the morning's
// announcement tells after the attack it answered.
type Answer struct {
	Day  int         // the night's number ([mafia.State.Day] during it)
	Seat engine.Seat // who played it
	Card engine.Card // a Misfire or a Ricochet
	// To is where a Ricochet moved the attack ([mafia.NoSeat]: nobody
	// living to take it, or a Misfire).
	To engine.Seat
}

// Record is the public record Mafia's view reads ([seatview.Input.Record]):
// the incident cards played against night attacks, oldest first.
type Record struct {
	Answers []Answer
}

// note adds move m to the record if it answers a night attack in state
// prior (the state the move was played in).
func (r *Record) note(prior engine.State, m engine.Move) {
	s, ok := prior.(*mafia.State)
	if !ok || s == nil || s.Phase() != mafia.PhaseNightAnswer || m.Kind != mafia.MoveCard || len(m.Args) < 1 {
		return
	}
	c := engine.Card(m.Args[0])
	if !mafia.IsNight(c) {
		return
	}
	to := mafia.NoSeat
	if d := mafia.Direction(c); d != 0 {
		to = s.Neighbour(m.Seat, d)
	}
	r.Answers = append(r.Answers, Answer{Day: s.Day(), Seat: m.Seat, Card: c, To: to})
}

// night returns the answers of night day, in order.
func (r *Record) night(day int) []Answer {
	if r == nil {
		return nil
	}
	var out []Answer
	for _, a := range r.Answers {
		if a.Day == day {
			out = append(out, a)
		}
	}
	return out
}

// recorder is Mafia's narrator: the games' telling narrator, keeping
// the night answers for the morning's announcement.
type recorder struct {
	seatview.Narrator
	prev engine.State
	rec  Record
}

func (n *recorder) Start(t *table.Table) []string {
	n.prev = t.Rules()
	return n.Narrator.Start(t)
}

func (n *recorder) Follow(t *table.Table, e *ledger.Entry) (seatview.Told, error) {
	prior := n.prev
	n.prev = t.Rules()
	told, err := n.Narrator.Follow(t, e)
	if err != nil {
		return told, err
	}
	if b, err := t.Body(e); err == nil && b.Kind == table.BodyMove && prior != nil {
		m := b.Move
		m.Seat = engine.Seat(e.Seat)
		n.rec.note(prior, m)
	}
	return told, nil
}

// Record implements [seatview.Narrator]: a copy of the night answers.
func (n *recorder) Record() any {
	return &Record{Answers: slices.Clone(n.rec.Answers)}
}
