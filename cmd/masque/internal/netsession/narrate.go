package netsession

import (
	"fmt"
	"sort"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
)

// Narrator tells the game as everyone at the table sees it: the deal, each
// move (never whether a swap was real), reveals, coins and the end. Each
// line goes to its function, without a newline. A nil Narrator says
// nothing.
type Narrator struct {
	line func(string)
}

// NewNarrator returns a narrator calling line for every line.
func NewNarrator(line func(string)) *Narrator { return &Narrator{line: line} }

func (n *Narrator) printf(format string, args ...any) {
	n.line(fmt.Sprintf(format, args...))
}

func (n *Narrator) deal(s *mascarade.State) {
	if n == nil {
		return
	}
	var cards []string
	for sl, c := range s.Deal() {
		cards = append(cards, fmt.Sprintf("%s %s", s.SlotName(engine.Slot(sl)), mascarade.CardName(c)))
	}
	n.printf("dealt face up (joint coin of every seat): %s", strings.Join(cards, ", "))
	n.printf("every player has %d coins", s.Coins(0))
}

func (n *Narrator) move(s *mascarade.State, m engine.Move) {
	if n == nil {
		return
	}
	line := mascarade.FormatMove(s, m)
	if mascarade.HasSecretSwap(s, m) {
		line += "   (swapped or not: only they know)"
	}
	n.printf("turn %3d  %s", s.Turn(), line)
}

func (n *Narrator) reveal(s *mascarade.State, facts []engine.Fact) {
	if n == nil {
		return
	}
	var out []string
	for _, f := range facts {
		out = append(out, fmt.Sprintf("%s is the %s", s.SlotName(f.Slot), mascarade.CardName(f.Card)))
	}
	n.printf("          revealed: %s", strings.Join(out, ", "))
}

func (n *Narrator) stepEnd(before, after *mascarade.State) {
	if n == nil {
		return
	}
	var ch []string
	for p := range engine.Seat(after.Players()) {
		if b, a := before.Coins(p), after.Coins(p); a != b {
			ch = append(ch, fmt.Sprintf("%s %d→%d", after.Name(p), b, a))
		}
	}
	if b, a := before.Court(), after.Court(); a != b {
		ch = append(ch, fmt.Sprintf("court %d→%d", b, a))
	}
	if len(ch) > 0 {
		n.printf("          coins: %s", strings.Join(ch, ", "))
	}
	if after.Over() {
		var ws []string
		for _, w := range after.Winners() {
			ws = append(ws, after.Name(w))
		}
		sort.Strings(ws)
		n.printf("game over after %d turns: %s won", after.Turn(), strings.Join(ws, ", "))
	}
}
