// Package grimmtest is a fake table for The Grimm Masquerade's rules: it
// carries out the rules' effects on a deal it knows in full, without
// cryptography. Shuffles follow a script's fixed deal or a seeded random
// stream; reveals feed the true cards back; coins come from the seeded
// stream, or are searched (with [grimm.State.PreviewCoin]) until they
// give what a script asks for; every proven statement is checked against
// the deal, and a false one is rejected as the prover's fault
// (*[fake.ProofError]). It tracks what every seat has seen, for
// [grimm.State.LegalMoves].
package grimmtest

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/fake"
	"github.com/masque-games/masque/engine/grimm"
)

// Table is a fake table with a known deal.
type Table struct {
	State     *grimm.State
	fake.Deal          // the true deal and what each seat knows
	Moves     []string // the moves played, as text
	// Effects counts the effects carried out, by kind.
	Effects map[engine.EffectKind]int
	// Last holds every effect carried out for the last move (those of the
	// move and those the facts it led to produced), in order.
	Last []engine.Effect

	rng    *rand.Rand
	rounds map[int]grimm.RoundSpec
	want   map[engine.Seat][]engine.Card // the next Dance/Exchange coin
}

// MaxCoinTries bounds the search for a coin that gives a script's
// outcome (a round's two actions and first player match one coin in 75
// at worst, so 1024 tries fail by chance with probability below 1e-5; a given seed
// is deterministic).
const MaxCoinTries = 1 << 10

// New seats a table: lays out the canonical deck face up, carries out the
// opening and feeds the first coin. rounds may fix the deals (nil: all
// random from seed).
func New(opts grimm.Options, seed uint64, rounds map[int]grimm.RoundSpec) (*Table, error) {
	s, err := grimm.NewGame(opts)
	if err != nil {
		return nil, err
	}
	t := &Table{
		State:   s,
		Deal:    fake.NewDeal(0),
		Effects: map[engine.EffectKind]int{},
		rng:     fake.NewRand(seed),
		rounds:  rounds,
	}
	o := s.Options()
	deck := grimm.Characters()
	deck = append(deck, grimm.FullItems(nil)...)
	if o.Bets {
		for _, c := range grimm.Characters() {
			deck = append(deck, grimm.BetBase+c)
		}
	}
	for i, c := range deck {
		t.Truth[engine.Slot(i)] = c
	}
	for range s.Players() {
		t.Views = append(t.Views, maps.Clone(t.Truth))
	}
	if err := t.carry(s.Opening()); err != nil {
		return nil, fmt.Errorf("opening: %w", err)
	}
	return t, nil
}

// Known returns what seat p knows, for [grimm.State.LegalMoves].
func (t *Table) Known(p engine.Seat) map[engine.Slot]engine.Card { return maps.Clone(t.Views[p]) }

// Want fixes what the next Dance or Exchange coin must give: for each
// seat, the items it passes (in slot order of the chosen cards).
func (t *Table) Want(w map[engine.Seat][]engine.Card) { t.want = w }

// Play applies a move: the rules check it, the table checks its proofs,
// then carries out its effects and feeds facts and coins until the rules
// wait for a move (or the game ends).
func (t *Table) Play(m engine.Move) error {
	text := grimm.FormatMove(t.State, m)
	ns, eff, err := t.State.Play(m)
	if err != nil {
		return err
	}
	for _, e := range eff {
		if e.Kind != engine.EffectProve {
			continue
		}
		if err := t.checkProof(e); err != nil {
			return err
		}
	}
	t.State = ns
	t.Moves = append(t.Moves, text)
	t.Last = nil
	return t.carry(eff)
}

func (t *Table) checkProof(e engine.Effect) error { return t.CheckProof(e, grimm.CardName) }

// carry carries out a batch of effects, feeding the facts and coins the
// rules then wait for, until they wait for a move.
func (t *Table) carry(eff []engine.Effect) error {
	for {
		var b fake.Batch
		t.Last = append(t.Last, eff...)
		for _, e := range eff {
			t.Effects[e.Kind]++
			ok, err := t.Carry(e, &b, t.shuffle, t.peek)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("unexpected effect %v", e.Kind)
			}
		}
		facts, done, err := b.Next(t.State.Next().Kind == engine.NeedFacts, t.coin)
		if err != nil || done {
			return err
		}
		ns, more, err := t.State.Know(facts)
		if err != nil {
			return err
		}
		t.State, eff = ns, more
	}
}

// peek shows the peeking seat its slot's card.
func (t *Table) peek(e engine.Effect) { t.Views[e.By][e.Slots[0]] = t.Truth[e.Slots[0]] }

// shuffle permutes the truth of a shuffle's slots: a new round's deal
// follows the script when it fixes it; any other shuffle is random. A
// seat shuffling alone knows the result if it knew every card before;
// everyone else forgets the slots.
func (t *Table) shuffle(e engine.Effect) {
	cards := make([]engine.Card, len(e.Slots))
	for i, sl := range e.Slots {
		cards[i] = t.Truth[sl]
	}
	spec := t.rounds[t.State.Round()]
	switch {
	case len(e.Slots) == grimm.NumCharacters && e.Slots[0] == grimm.CharSlot0 && spec.Chars != nil:
		cards = grimm.FullChars(spec.Chars)
	case len(e.Slots) == grimm.NumItems && e.Slots[0] == grimm.ItemSlot0 && spec.Items != nil:
		cards = grimm.FullItems(spec.Items)
	default:
		t.rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	}
	for i, sl := range e.Slots {
		t.Truth[sl] = cards[i]
	}
	for p, v := range t.Views {
		alone := len(e.Seats) == 1 && e.Seats[0] == engine.Seat(p)
		for _, sl := range e.Slots {
			if alone {
				v[sl] = t.Truth[sl]
			} else {
				delete(v, sl)
			}
		}
	}
}

// coin returns a coin: random, or searched so that it gives what the
// script fixed (the round's actions and first player, or the next random
// passes).
func (t *Table) coin() ([32]byte, error) {
	spec := t.rounds[t.State.Round()]
	want := t.want
	for range MaxCoinTries {
		c := fake.Coin(t.rng)
		out, ok := t.State.PreviewCoin(c)
		if !ok {
			return c, nil
		}
		if out.Passes == nil && t.roundFits(out, spec) {
			return c, nil
		}
		if out.Passes != nil && t.passesFit(out.Passes, want) {
			t.want = nil
			return c, nil
		}
	}
	return [32]byte{}, errors.New("no coin gives what the script asks for (actions, first player or random passes)")
}

func (t *Table) roundFits(out grimm.CoinOutcome, spec grimm.RoundSpec) bool {
	if len(spec.Actions) == 2 {
		a, b := out.Actions[0], out.Actions[1]
		if !(a == spec.Actions[0] && b == spec.Actions[1]) && !(a == spec.Actions[1] && b == spec.Actions[0]) {
			return false
		}
	}
	if spec.First != "" {
		p, err := t.State.SeatByName(spec.First)
		if err != nil || p != out.First {
			return false
		}
	}
	return true
}

func (t *Table) passesFit(ps []grimm.Pass, want map[engine.Seat][]engine.Card) bool {
	for p, items := range want {
		var got []engine.Card
		for _, x := range ps {
			if x.From == p {
				got = append(got, t.Truth[x.Slot])
			}
		}
		a, b := slices.Clone(got), slices.Clone(items)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return false
		}
	}
	return true
}
