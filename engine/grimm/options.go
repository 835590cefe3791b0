package grimm

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Options are a game's settings. The zero Charms means [DefaultCharms].
type Options struct {
	Players []string // 2 to 5 names, in seat order
	// Advanced-mode variants (alone or combined).
	Bets      bool // bet cards and the "Learn a secret" action (3-5 players)
	Jewels    bool // one jewel per player per round
	Abilities bool // ability cards for the players with the fewest roses
	Charms    Charms
	// Fixed fixes rounds' deals (scripted tables through the real stack;
	// see [FixedRound]); Fixed[r-1] is round r's, nil: dealt at random.
	Fixed [Rounds]*FixedRound
}

// Normalize returns the options with defaults filled in.
func (o Options) Normalize() Options {
	o.Players = append([]string(nil), o.Players...)
	if o.Charms == (Charms{}) {
		o.Charms = DefaultCharms()
	}
	return o
}

// Validate checks normalized options.
func (o Options) Validate() error {
	n := len(o.Players)
	if n < 2 || n > 5 {
		return fmt.Errorf("grimm: %d players (2 to 5 play)", n)
	}
	seen := map[string]bool{}
	for _, p := range o.Players {
		if p == "" || len(p) > 32 || strings.ContainsAny(p, " \t\r\n,=#") {
			return fmt.Errorf("grimm: bad player name %q", p)
		}
		k := strings.ToLower(p)
		if seen[k] {
			return fmt.Errorf("grimm: player %q named twice", p)
		}
		seen[k] = true
	}
	if o.Bets && n == 2 {
		return errors.New("grimm: bets are not played with 2 players")
	}
	for _, f := range o.Fixed {
		if f == nil {
			continue
		}
		if err := f.validate(n, o.Bets); err != nil {
			return err
		}
	}
	return o.Charms.Validate()
}

const optionsVersion = 1

const (
	flagBets = 1 << iota
	flagJewels
	flagAbilities
	flagFixed
)

// MarshalBinary returns the canonical encoding of the normalized options:
//
//	u8 version (1)
//	u8 number of players, then each name as u8-length-prefixed UTF-8
//	u8 flags (1 bets, 2 jewels, 4 abilities)
//	8 × (u8 boon, u8 bane), characters in card order
//	with flag 8 (fixed rounds): per round a fixed deal (see appendFixed)
func (o Options) MarshalBinary() ([]byte, error) {
	o = o.Normalize()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return o.appendBinary(nil), nil
}

func (o Options) appendBinary(dst []byte) []byte {
	b := cryptobyte.NewBuilder(dst)
	games.AppendPlayers(b, optionsVersion, o.Players)
	var f uint8
	if o.Bets {
		f |= flagBets
	}
	if o.Jewels {
		f |= flagJewels
	}
	if o.Abilities {
		f |= flagAbilities
	}
	if o.IsFixed() {
		f |= flagFixed
	}
	b.AddUint8(f)
	for ch := EvilQueen; ch <= Hansel; ch++ {
		b.AddUint8(uint8(o.Charms.Boon[ch]))
		b.AddUint8(uint8(o.Charms.Bane[ch]))
	}
	if o.IsFixed() {
		appendFixed(b, o.Fixed)
	}
	return b.BytesOrPanic()
}

// UnmarshalOptions decodes options encoded by [Options.MarshalBinary]; it
// accepts only valid options in canonical form.
func UnmarshalOptions(data []byte) (Options, error) {
	s := cryptobyte.String(data)
	var f uint8
	players, err := games.ReadPlayers(&s, optionsVersion, GameName)
	if err != nil {
		return Options{}, err
	}
	o := Options{Players: players}
	if !s.ReadUint8(&f) || f&^(flagBets|flagJewels|flagAbilities|flagFixed) != 0 {
		return Options{}, errors.New("grimm: options: bad flags")
	}
	o.Bets, o.Jewels, o.Abilities = f&flagBets != 0, f&flagJewels != 0, f&flagAbilities != 0
	for ch := EvilQueen; ch <= Hansel; ch++ {
		var boon, bane uint8
		if !s.ReadUint8(&boon) || !s.ReadUint8(&bane) {
			return Options{}, errors.New("grimm: options: truncated charms")
		}
		o.Charms.Boon[ch], o.Charms.Bane[ch] = engine.Card(boon), engine.Card(bane)
	}
	if f&flagFixed != 0 {
		fx, err := readFixed(&s)
		if err != nil {
			return Options{}, err
		}
		if o.Fixed = fx; !o.IsFixed() {
			return Options{}, errors.New("grimm: options: the fixed flag without a fixed round")
		}
	}
	if !s.Empty() {
		return Options{}, errors.New("grimm: options: trailing bytes")
	}
	if err := o.Validate(); err != nil {
		return Options{}, fmt.Errorf("grimm: options: %w", err)
	}
	return o, nil
}
