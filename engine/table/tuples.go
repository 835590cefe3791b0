package table

import (
	"errors"
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/mental"
)

// setTuples reads the tuple layout of rules that implement engine.Tupler.
// Every card on the table has the width of the widest tuple: a kind whose
// tuple is shorter is padded with copies of its first component (Mafia's
// incident cards, one component, lie as five copies of it), so that
// every shuffle, share and proof is of one width. Each component is a
// kind of the game or the group secret; kinds whose Tuple is empty are
// components only and are never laid out as cards.
func (t *Table) setTuples(rules engine.State) error {
	tp, ok := rules.(engine.Tupler)
	if !ok {
		return nil
	}
	n := t.game.Kinds()
	tuples := make([][]engine.Component, n)
	width := 0
	for k := range n {
		comps := tp.Tuple(engine.Card(k))
		if len(comps) == 0 {
			continue
		}
		if len(comps) > mental.MaxWidth {
			return fmt.Errorf("card kind %d is a tuple of %d components, at most %d", k, len(comps), mental.MaxWidth)
		}
		width = max(width, len(comps))
		for i, c := range comps {
			if !c.GroupSecret && (c.Kind < 0 || int(c.Kind) >= n) {
				return fmt.Errorf("card kind %d: component %d is kind %d, the game has %d kinds", k, i, c.Kind, n)
			}
		}
		tuples[k] = slices.Clone(comps)
	}
	if width == 0 {
		return errors.New("the rules lay out no card as a tuple")
	}
	for k, comps := range tuples {
		for comps != nil && len(comps) < width {
			comps = append(comps, comps[0])
		}
		tuples[k] = comps
	}
	t.tuples, t.width = tuples, width
	return nil
}

// faceUpChecked returns card kind c laid face up: one point, or its tuple
// (setTuples) component by component.
func (t *Table) faceUpChecked(c engine.Card) (mental.Card, error) {
	if t.tuples == nil {
		return mental.FaceUp(mental.CardPoint(int(c))), nil
	}
	if c < 0 || int(c) >= len(t.tuples) || t.tuples[c] == nil {
		return nil, fmt.Errorf("card kind %d is not laid out as a tuple", c)
	}
	card := make(mental.Card, len(t.tuples[c]))
	for i, comp := range t.tuples[c] {
		if comp.GroupSecret {
			// (−Q, identity): decrypts to S = x·Q (mental SPEC.md §9.1).
			card[i] = mental.GroupSecretComponent(t.gameID)
			continue
		}
		card[i] = mental.FaceUp(mental.CardPoint(int(comp.Kind)))[0]
	}
	return card, nil
}

// faceUp is faceUpChecked for kinds already checked (a set's cards are
// checked when it is queued).
func (t *Table) faceUp(c engine.Card) mental.Card {
	card, err := t.faceUpChecked(c)
	if err != nil {
		// queue checked every set's kinds; the deck's are checked when
		// the table opens.
		panic("table: " + err.Error())
	}
	return card
}

// secretComp returns the first of comps (every component when comps is
// nil) that holds the group secret in some card kind's tuple.
func (t *Table) secretComp(comps []int) (int, bool) {
	for _, tuple := range t.tuples {
		for i, c := range tuple {
			if c.GroupSecret && (comps == nil || slices.Contains(comps, i)) {
				return i, true
			}
		}
	}
	return 0, false
}
