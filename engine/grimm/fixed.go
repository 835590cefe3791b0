package grimm

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// FixedRound fixes what a round deals, for scripted tables played through
// the real stack ([Options].Fixed). It is written in the options, so in
// the roster: every replica and every auditor sees that the table did not
// shuffle (masque verify warns "fixed deal"). A fixed character or item
// deck is laid out face up by an [engine.EffectSet] instead of being
// shuffled by every seat, so every card of it is public; each seat still
// views its own character privately, so its statements are proven as at
// any table. Fixed action cards and first player replace what the round's
// coin would choose (the coin is still drawn).
type FixedRound struct {
	Chars   []engine.Card // all 8 characters in character-slot order; nil: shuffled
	Items   []engine.Card // all 48 items, top of the deck first; nil: shuffled
	Actions []Action      // the round's two action cards; nil: from the coin
	First   engine.Seat   // the round's first player; -1: by the rules
}

// fixed returns round r's fixed deal, or nil.
func (o Options) fixed(r int) *FixedRound {
	if r < 1 || r > len(o.Fixed) {
		return nil
	}
	return o.Fixed[r-1]
}

// IsFixed reports whether the options fix some round's deal (a scripted
// table: its deal was chosen by whoever wrote the roster).
func (o Options) IsFixed() bool {
	for _, f := range o.Fixed {
		if f != nil {
			return true
		}
	}
	return false
}

// FixRound returns the fixed deal of a script's round spec: the listed
// characters and items completed with [FullChars] and [FullItems]. Players
// are o's.
func (o Options) FixRound(spec RoundSpec) (*FixedRound, error) {
	if spec.Chars == nil && spec.Items == nil && spec.Actions == nil && spec.First == "" {
		return nil, nil
	}
	f := &FixedRound{First: -1}
	if spec.Chars != nil {
		f.Chars = FullChars(spec.Chars)
	}
	if spec.Items != nil {
		f.Items = FullItems(spec.Items)
	}
	if spec.Actions != nil {
		f.Actions = slices.Clone(spec.Actions)
	}
	if spec.First != "" {
		f.First = -1
		for i, p := range o.Players {
			if strings.EqualFold(p, spec.First) {
				f.First = engine.Seat(i)
			}
		}
		if f.First < 0 {
			return nil, fmt.Errorf("grimm: no player named %q", spec.First)
		}
	}
	return f, f.validate(len(o.Players), o.Bets)
}

func (f *FixedRound) validate(n int, bets bool) error {
	if f.Chars != nil {
		a, b := slices.Clone(f.Chars), Characters()
		slices.Sort(a)
		if !slices.Equal(a, b) {
			return errors.New("grimm: a fixed round's characters are not the 8 characters")
		}
	}
	if f.Items != nil {
		a, b := slices.Clone(f.Items), canonicalItems()
		slices.Sort(a)
		if !slices.Equal(a, b) {
			return errors.New("grimm: a fixed round's items are not the 48 items")
		}
	}
	if f.Actions != nil {
		deck := actionDeck(n, bets)
		if len(f.Actions) != 2 || f.Actions[0] == f.Actions[1] || !slices.Contains(deck, f.Actions[0]) || !slices.Contains(deck, f.Actions[1]) {
			var names []string
			for _, a := range deck {
				names = append(names, fmt.Sprint(a))
			}
			table := fmt.Sprintf("%d players", n)
			if bets {
				table += " with bets"
			}
			return fmt.Errorf("grimm: a round's two action cards %v are drawn from the action deck of %s: %s", f.Actions, table, strings.Join(names, ", "))
		}
	}
	if f.First < -1 || int(f.First) >= n {
		return fmt.Errorf("grimm: a fixed round's first player is seat %d", f.First)
	}
	return nil
}

const (
	fixChars = 1 << iota
	fixItems
	fixActions
	fixFirst
)

// appendFixed appends the fixed rounds: per round, u8 mask (0: not fixed;
// 1 characters, 2 items, 4 actions, 8 first player, 16 fixed), then 8
// characters, 48 items, 2 actions, the first seat, as present.
func appendFixed(b *cryptobyte.Builder, fx [Rounds]*FixedRound) {
	for _, f := range fx {
		if f == nil {
			b.AddUint8(0)
			continue
		}
		m := uint8(16)
		if f.Chars != nil {
			m |= fixChars
		}
		if f.Items != nil {
			m |= fixItems
		}
		if f.Actions != nil {
			m |= fixActions
		}
		if f.First >= 0 {
			m |= fixFirst
		}
		b.AddUint8(m)
		for _, c := range f.Chars {
			b.AddUint8(uint8(c))
		}
		for _, c := range f.Items {
			b.AddUint8(uint8(c))
		}
		for _, a := range f.Actions {
			b.AddUint8(uint8(a))
		}
		if f.First >= 0 {
			b.AddUint8(uint8(f.First))
		}
	}
}

func readFixed(s *cryptobyte.String) ([Rounds]*FixedRound, error) {
	var out [Rounds]*FixedRound
	truncated := errors.New("grimm: options: truncated fixed round")
	cards := func(k int) ([]engine.Card, error) { return games.ReadCards(s, k, truncated) }
	for r := range Rounds {
		var m uint8
		if !s.ReadUint8(&m) {
			return out, errors.New("grimm: options: truncated fixed rounds")
		}
		if m == 0 {
			continue
		}
		if m&16 == 0 || m&^31 != 0 {
			return out, fmt.Errorf("grimm: options: bad fixed round mask %#x", m)
		}
		f := &FixedRound{First: -1}
		var err error
		if m&fixChars != 0 {
			if f.Chars, err = cards(NumCharacters); err != nil {
				return out, err
			}
		}
		if m&fixItems != 0 {
			if f.Items, err = cards(NumItems); err != nil {
				return out, err
			}
		}
		if m&fixActions != 0 {
			a, err := cards(2)
			if err != nil {
				return out, err
			}
			f.Actions = []Action{Action(a[0]), Action(a[1])}
		}
		if m&fixFirst != 0 {
			a, err := cards(1)
			if err != nil {
				return out, err
			}
			f.First = engine.Seat(a[0])
		}
		out[r] = f
	}
	return out, nil
}
