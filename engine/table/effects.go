package table

import (
	"fmt"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/mental"
)

// This file carries out the effects that later games need: a shuffle of
// some slots by some seats, a statement about one's own card carried by a
// move, and a joint coin (docs/protocol.md §5).

// statementIndex is added to the index of a move's i-th statement proof in
// its context, so that no statement proof shares a context with a swap
// proof of the same entry (swap i uses pos << 8 | i, i < 4).
const statementIndex = 0x80

// StatementContext is the context of the i-th statement proof of the move
// entry at pos, by seat: (game id, pos << 8 | 0x80 | i, seat). Every
// not-held proof of one "none of" statement shares it (each binds its own
// kind).
func (t *Table) StatementContext(pos uint64, seat int, i int) mental.Context {
	return mental.Context{Table: t.gameID, Pos: pos<<8 | statementIndex | uint64(i), Seat: uint32(seat)}
}

// CoinPoint returns the public point of the coin being drawn (or just
// drawn) by r, a coin request: mental.CoinPoint(game id, r.At).
func (t *Table) CoinPoint(r *Request) *mental.Element { return mental.CoinPoint(t.gameID, r.At) }

// applyShuffle applies e, one seat's shuffle of the slots of the shuffle
// request at the head of the queue.
func (s *state) applyShuffle(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	if r.Mixed {
		return s.applyMix(t, e, b)
	}
	if len(b.Deck) != len(r.Slots) {
		return nil, because(ReasonBadShuffle, fmt.Errorf("the shuffled deck has %d cards, the shuffle is of %d slots", len(b.Deck), len(r.Slots)))
	}
	in := make([]mental.Card, len(r.Slots))
	for i, sl := range r.Slots {
		in[i] = s.slots[sl]
	}
	ctx := t.ctx(e.Pos, seat)
	if t.deferred != nil {
		out, p := b.Deck, b.Shuffle
		t.deferred.stage(func(bt *mental.Batch) {
			bt.AddShuffle(fmt.Sprintf("shuffle of %d slots by seat %d", len(in), seat), t.joint, ctx, in, out, p)
		})
	} else if err := t.joint.VerifyShuffle(ctx, in, b.Deck, b.Shuffle); err != nil {
		return nil, because(ReasonBadShuffle, fmt.Errorf("shuffle of slots %v: %w", r.Slots, err))
	}
	for i, sl := range r.Slots {
		s.slots[sl] = b.Deck[i]
	}
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// applyMix applies e, one seat's shuffle of a mix (mental SPEC §9.8,
// §9.9): a shuffle of the cards as the last seat left them, of their
// width.
func (s *state) applyMix(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	if len(b.Deck) != len(r.Cards) {
		return nil, because(ReasonBadShuffle, fmt.Errorf("the shuffled cards are %d, the mix of power %d has %d", len(b.Deck), r.Power, len(r.Cards)))
	}
	if w := r.Cards[0].Width(); b.Deck[0].Width() != w {
		return nil, because(ReasonBadShuffle, fmt.Errorf("the shuffled cards are of width %d, the mix of power %d's of width %d", b.Deck[0].Width(), r.Power, w))
	}
	in := r.Cards
	ctx := t.ctx(e.Pos, seat)
	if t.deferred != nil {
		out, p := b.Deck, b.Shuffle
		t.deferred.stage(func(bt *mental.Batch) {
			bt.AddShuffle(fmt.Sprintf("shuffle of the mix of power %d by seat %d", r.Power, seat), t.joint, ctx, in, out, p)
		})
	} else if err := t.joint.VerifyShuffle(ctx, in, b.Deck, b.Shuffle); err != nil {
		return nil, because(ReasonBadShuffle, fmt.Errorf("shuffle of the mix of power %d: %w", r.Power, err))
	}
	r.Cards = slices.Clone(b.Deck)
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// applyBlind applies e, one seat's steps of the blinded identity tests at
// the head of the queue (mental SPEC §9.8, §9.9): one step per tested
// card, in order, each verified against the card as the previous step
// left it, whose place its output takes.
func (s *state) applyBlind(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	X, ctx := t.joint.Keys[seat], t.ctx(e.Pos, seat)
	if len(b.Blinds) != len(r.Cards) {
		return nil, because(ReasonBadBlind, fmt.Errorf("the entry carries %d steps, the test of power %d is of %d cards", len(b.Blinds), r.Power, len(r.Cards)))
	}
	name := func(i int) string {
		if r.Plurality > 0 {
			what := "code sum"
			if r.Rows {
				what = "kill-table row"
			}
			return fmt.Sprintf("the test of %s %d of power %d", what, i, r.Power)
		}
		return fmt.Sprintf("the test of card %d of power %d", r.Test, r.Power)
	}
	var batch mental.Batch
	out := make([]mental.Card, len(r.Cards))
	for i, st := range b.Blinds {
		in := r.Cards[i]
		if st == nil || len(st.Out) != 1 || st.Out[0].A.Equal(mental.Identity()) == 1 {
			// Staged or batched, the output's plaintext test is read now:
			// a step that cannot be verified at all is refused here.
			return nil, because(ReasonBadBlind, fmt.Errorf("%s: the step's A is the identity", name(i)))
		}
		what := fmt.Sprintf("blind step: %s by seat %d", name(i), seat)
		if t.deferred != nil {
			t.deferred.stage(func(bt *mental.Batch) { bt.AddBlindStep(what, ctx, X, in, st) })
		} else {
			batch.AddBlindStep(what, ctx, X, in, st)
		}
		out[i] = st.Out
	}
	if batch.Len() > 0 {
		if err := batch.Verify(); err != nil {
			return nil, because(ReasonBadBlind, err)
		}
	}
	r.Cards = out
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// applyCoinShare applies e, one seat's share of the coin at the head of
// the queue.
func (s *state) applyCoinShare(t *Table, e *ledger.Entry, b *Body) (*Request, error) {
	r := s.pending[0]
	seat := int(e.Seat)
	X, Q, ctx, cs := t.joint.Keys[seat], t.CoinPoint(r), t.ctx(e.Pos, seat), b.CoinShare
	if t.deferred != nil {
		t.deferred.stage(func(bt *mental.Batch) {
			bt.AddCoinShare(fmt.Sprintf("coin share by seat %d", seat), ctx, X, Q, cs)
		})
	} else if err := mental.VerifyCoinShare(ctx, X, Q, cs); err != nil {
		return nil, because(ReasonBadShare, fmt.Errorf("coin share: %w", err))
	}
	r.Coins = append(r.Coins, cs)
	r.next++
	if r.next < len(r.Seats) {
		return nil, nil
	}
	return r, s.complete(t, e.Pos+1, r)
}

// statementKinds checks an EffectProve's set of kinds.
func statementKinds(t *Table, ef engine.Effect) ([]int, error) {
	if len(ef.Cards) == 0 || len(ef.Cards) > MaxStatementKinds {
		return nil, fmt.Errorf("internal: a statement about %d kinds, want 1..%d", len(ef.Cards), MaxStatementKinds)
	}
	kinds := make([]int, len(ef.Cards))
	for i, c := range ef.Cards {
		if c < 0 || int(c) >= t.game.Kinds() {
			return nil, fmt.Errorf("internal: a statement about card %d, the game has %d kinds", c, t.game.Kinds())
		}
		kinds[i] = int(c)
	}
	return kinds, nil
}

// proveTarget is what a statement by seat about component comp of the
// card in slot is proven over: the seat's last private view of the slot
// that opened the component, which must still hold the same ciphertext.
func (s *state) proveTarget(seat engine.Seat, slot engine.Slot, comp int) (slotView, error) {
	if slot < 0 || int(slot) >= len(s.slots) {
		return slotView{}, fmt.Errorf("internal: a statement about slot %d", slot)
	}
	v, ok := s.viewOf(slot, seat, comp)
	if !ok {
		if comp != 0 {
			return slotView{}, because(ReasonNotViewed, fmt.Errorf("seat %d never viewed component %d of slot %d privately", seat, comp, slot))
		}
		return slotView{}, because(ReasonNotViewed, fmt.Errorf("seat %d never viewed slot %d privately", seat, slot))
	}
	if !v.card.Equal(s.slots[slot]) {
		return slotView{}, because(ReasonStaleView, fmt.Errorf("slot %d changed since seat %d viewed it", slot, seat))
	}
	return v, nil
}

// applyProve checks the i-th statement proof of a move's entry against
// the EffectProve ef.
func (s *state) applyProve(t *Table, e *ledger.Entry, ef engine.Effect, sp *StatementProof, i int) error {
	if len(ef.Slots) != 1 {
		return fmt.Errorf("internal: a statement about %d slots", len(ef.Slots))
	}
	kinds, err := statementKinds(t, ef)
	if err != nil {
		return err
	}
	slot, seat := ef.Slots[0], int(e.Seat)
	comp, err := statementComp(t, ef)
	if err != nil {
		return err
	}
	v, err := s.proveTarget(ef.By, slot, comp)
	if err != nil {
		return err
	}
	what := "one of"
	if ef.Not {
		what = "none of"
	}
	if sp.Not != ef.Not || sp.size() != len(kinds) {
		return because(ReasonBadStatement, fmt.Errorf("statement %d: the proof is not of %q %d kinds", i, what, len(kinds)))
	}
	ctx := t.StatementContext(e.Pos, seat, i)
	c, comp := v.viewed(comp)
	X, Y := t.joint.Keys[seat], t.views[seat]
	name := fmt.Sprintf("statement %d: slot %d is %s %v", i, slot, what, kinds)
	if t.deferred != nil {
		sent, proof := v.sent, *sp
		kinds := slices.Clone(kinds)
		t.deferred.stage(func(bt *mental.Batch) {
			if !proof.Not {
				bt.AddViewedHolding(name, ctx, X, Y, c, comp, sent, kinds, proof.Holding)
				return
			}
			for j, k := range kinds {
				bt.AddNotHeld(fmt.Sprintf("%s (%d)", name, j), ctx, X, Y, c, comp, sent, k, proof.NotHeld[j])
			}
		})
		return nil
	}
	if !sp.Not {
		err = mental.VerifyViewedHolding(ctx, X, Y, c, comp, v.sent, kinds, sp.Holding)
	} else {
		for j, k := range kinds {
			if err = mental.VerifyNotHeld(ctx, X, Y, c, comp, v.sent, k, sp.NotHeld[j]); err != nil {
				break
			}
		}
	}
	if err != nil {
		return because(ReasonBadStatement, fmt.Errorf("%s: %w", name, err))
	}
	return nil
}

// CanProve reports whether seat may make a statement about slot now: it
// viewed the slot (its card's kind, component 0) privately and the slot
// still holds the card it viewed.
func (t *Table) CanProve(seat engine.Seat, slot engine.Slot) bool {
	_, err := t.st.proveTarget(seat, slot, 0)
	return err == nil
}

// statementComp is the component an EffectProve is about: its one Comps
// entry, or 0.
func statementComp(t *Table, ef engine.Effect) (int, error) {
	switch {
	case len(ef.Comps) == 0:
		return 0, nil
	case len(ef.Comps) == 1 && ef.Comps[0] >= 0 && ef.Comps[0] < t.width:
		return ef.Comps[0], nil
	}
	return 0, fmt.Errorf("internal: a statement about components %v of width-%d cards", ef.Comps, t.width)
}
