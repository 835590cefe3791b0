package games

import (
	"strings"

	"github.com/masque-games/masque/engine"
)

// Namer names the seats of a table (a game's state).
type Namer interface {
	Name(p engine.Seat) string
}

// Speaker tells a game's events to one reader, the seat You ("you"; -1
// for nobody), naming the other seats by Names: the games' words
// ([Teller]) are built with it.
type Speaker struct {
	Names Namer
	You   engine.Seat
}

// Ref names p inside a sentence: "you", or p's name.
func (w Speaker) Ref(p engine.Seat) string {
	if p == w.You {
		return "you"
	}
	return w.Names.Name(p)
}

// Name names p at the start of a sentence: "You", or p's name.
func (w Speaker) Name(p engine.Seat) string {
	if p == w.You {
		return "You"
	}
	return w.Names.Name(p)
}

// Verb picks the third or the second person of a verb for p.
func (w Speaker) Verb(p engine.Seat, third, second string) string {
	if p == w.You {
		return second
	}
	return third
}

// Their is p's possessive: "your", or "Anna's".
func (w Speaker) Their(p engine.Seat) string {
	if p == w.You {
		return "your"
	}
	return w.Names.Name(p) + "'s"
}

// TheirOwn is the possessive pronoun of p as the subject: "your" or
// "their".
func (w Speaker) TheirOwn(p engine.Seat) string {
	if p == w.You {
		return "your"
	}
	return "their"
}

// ListAnd joins words as a list: "a", "a and b", "a, b and c"; none for
// an empty list.
func ListAnd(xs []string, none string) string {
	switch len(xs) {
	case 0:
		return none
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
