package mafia

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Options are a table's settings.
type Options struct {
	Players []string // 4 to 18 names, in seat order
	// Specials are the special roles in play (nil: [DefaultSpecials]);
	// see [RoleDeck].
	Specials []engine.Card
	// NoIncidents plays without incident cards.
	NoIncidents bool
	// TieDraw ends the game as a draw when a day vote ties (default: a
	// tie eliminates nobody).
	TieDraw bool
	// Fixed fixes the deal (scripted tables, tests): nil deals at random.
	Fixed *Fixed
}

// Fixed is a fixed deal, written in the options (so in the roster: every
// replica and auditor sees that the table did not shuffle). The role and
// incident cards are laid out face up in this order by an
// [engine.EffectSet] instead of being shuffled, and incident cards that
// go back to the deck go to its bottom instead of being reshuffled. Each
// seat still views its own cards privately.
type Fixed struct {
	Roles     []engine.Card // seat i's role is Roles[i]: a permutation of the role deck
	Incidents []engine.Card // the incident deck, top first: a permutation of the 20 (nil without incidents)
}

// Normalize returns the options with defaults filled in.
func (o Options) Normalize() Options {
	o.Players = slices.Clone(o.Players)
	if o.Specials == nil {
		o.Specials = DefaultSpecials(len(o.Players))
	} else {
		o.Specials = slices.Clone(o.Specials)
	}
	slices.Sort(o.Specials)
	if o.Specials == nil {
		o.Specials = []engine.Card{}
	}
	return o
}

// Validate checks normalized options.
func (o Options) Validate() error {
	n := len(o.Players)
	if n < MinPlayers || n > MaxPlayers {
		return fmt.Errorf("mafia: %d players (%d to %d play)", n, MinPlayers, MaxPlayers)
	}
	seen := map[string]bool{}
	for _, p := range o.Players {
		if p == "" || len(p) > 32 || strings.ContainsAny(p, " \t\r\n,=#:") {
			return fmt.Errorf("mafia: bad player name %q", p)
		}
		k := strings.ToLower(p)
		if seen[k] {
			return fmt.Errorf("mafia: player %q named twice", p)
		}
		seen[k] = true
	}
	deck, err := RoleDeck(n, o.Specials)
	if err != nil {
		return err
	}
	if f := o.Fixed; f != nil {
		if !sameCards(f.Roles, deck) {
			return errors.New("mafia: the fixed roles are not the role deck")
		}
		switch {
		case o.NoIncidents && f.Incidents != nil:
			return errors.New("mafia: fixed incident cards without incident cards")
		case !o.NoIncidents && !sameCards(f.Incidents, CanonicalIncidents()):
			return errors.New("mafia: the fixed incident deck is not the 20 incident cards")
		}
	}
	return nil
}

func sameCards(a, b []engine.Card) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

const optionsVersion = 1

const (
	flagNoIncidents = 1 << iota
	flagTieDraw
	flagFixed
)

// MarshalBinary returns the canonical encoding of the normalized options:
//
//	u8 version (1)
//	u8 number of players, then each name as u8-length-prefixed UTF-8
//	u8 flags (1 no incidents, 2 tie is a draw, 4 fixed deal)
//	u8 number of specials, then each (card kind, ascending)
//	with flag 4: u8 role per seat; without flag 1, u8 × 20 incident deck
func (o Options) MarshalBinary() ([]byte, error) {
	o = o.Normalize()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	b := cryptobyte.NewBuilder(nil)
	games.AppendPlayers(b, optionsVersion, o.Players)
	var f uint8
	if o.NoIncidents {
		f |= flagNoIncidents
	}
	if o.TieDraw {
		f |= flagTieDraw
	}
	if o.Fixed != nil {
		f |= flagFixed
	}
	b.AddUint8(f)
	b.AddUint8(uint8(len(o.Specials)))
	for _, c := range o.Specials {
		b.AddUint8(uint8(c))
	}
	if o.Fixed != nil {
		for _, c := range o.Fixed.Roles {
			b.AddUint8(uint8(c))
		}
		for _, c := range o.Fixed.Incidents {
			b.AddUint8(uint8(c))
		}
	}
	return b.Bytes()
}

// UnmarshalOptions decodes options encoded by [Options.MarshalBinary]; it
// accepts only valid options in canonical form.
func UnmarshalOptions(data []byte) (Options, error) {
	s := cryptobyte.String(data)
	var f, ns uint8
	players, err := games.ReadPlayers(&s, optionsVersion, GameName)
	if err != nil {
		return Options{}, err
	}
	o := Options{Players: players}
	if !s.ReadUint8(&f) || f&^(flagNoIncidents|flagTieDraw|flagFixed) != 0 || !s.ReadUint8(&ns) {
		return Options{}, errors.New("mafia: options: bad flags")
	}
	o.NoIncidents, o.TieDraw = f&flagNoIncidents != 0, f&flagTieDraw != 0
	o.Specials = []engine.Card{}
	for range ns {
		var c uint8
		if !s.ReadUint8(&c) {
			return Options{}, errors.New("mafia: options: truncated specials")
		}
		o.Specials = append(o.Specials, engine.Card(c))
	}
	if f&flagFixed != 0 {
		o.Fixed = &Fixed{}
		truncated := errors.New("mafia: options: truncated fixed deal")
		if o.Fixed.Roles, err = games.ReadCards(&s, len(players), truncated); err != nil {
			return Options{}, err
		}
		if !o.NoIncidents {
			if o.Fixed.Incidents, err = games.ReadCards(&s, IncidentDeckSize, truncated); err != nil {
				return Options{}, err
			}
		}
	}
	if !s.Empty() {
		return Options{}, errors.New("mafia: options: trailing bytes")
	}
	if err := o.Validate(); err != nil {
		return Options{}, err
	}
	again, err := o.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		return Options{}, errors.New("mafia: options: not canonical")
	}
	return o, nil
}
