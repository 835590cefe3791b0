package grimmtest

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// Run plays a script on a fake table seeded with seed. It stops at the
// first failing line with a *[grimm.ScriptError] wrapping the cause (a
// parse error, a *[engine.RuleError], a *fake.ProofError (engine/games/fake) or a failed
// expectation) and returns the table as it was before that line.
func Run(sc *grimm.Script, seed uint64) (*Table, error) {
	t, err := New(sc.Options, seed, sc.Rounds)
	if err != nil {
		return nil, err
	}
	for _, l := range sc.Lines {
		if err := t.line(l); err != nil {
			return t, &grimm.ScriptError{Line: l.LineNo, Err: err}
		}
	}
	return t, nil
}

func (t *Table) line(l grimm.ScriptLine) error {
	switch l.Verb {
	case "random":
		return t.randomLine(l.Tokens)
	case "expect":
		return t.Expect(l.Tokens)
	}
	p, err := t.State.SeatByName(l.Seat)
	if err != nil {
		return err
	}
	tokens := t.handItem(p, l.Tokens)
	m, err := grimm.ParseMove(t.State, p, tokens)
	if err != nil {
		return err
	}
	return t.Play(m)
}

func (t *Table) randomLine(tokens []string) error {
	w := map[engine.Seat][]engine.Card{}
	for _, kv := range tokens {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("random: want NAME=ITEM[,ITEM], got %q", kv)
		}
		p, err := t.State.SeatByName(k)
		if err != nil {
			return fmt.Errorf("random: %w", err)
		}
		for _, x := range strings.Split(v, ",") {
			it, err := grimm.ParseItem(x)
			if err != nil {
				return fmt.Errorf("random: %w", err)
			}
			w[p] = append(w[p], it)
		}
	}
	t.Want(w)
	return nil
}

// Expect checks KEY=VALUE expectations against the state
// ([grimm.CheckExpect]).
func (t *Table) Expect(tokens []string) error { return grimm.CheckExpect(t.State, tokens) }

// handItem names a card of a hidden hand or a bet card by its slot
// ([grimm.NameHidden]), using p's view.
func (t *Table) handItem(p engine.Seat, tokens []string) []string {
	return grimm.NameHidden(t.State, p, t.Views[p], tokens)
}
