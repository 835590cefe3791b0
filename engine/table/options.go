package table

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/cryptobyte"

	"github.com/masque-games/masque/engine"
)

// Game is what the table needs from a game package.
type Game interface {
	// Name is the game's name as it appears in rosters ("mascarade").
	Name() string
	// Kinds is the number of card kinds; cards are 0..Kinds()-1.
	Kinds() int
	// Deck returns the cards to deal, one per slot, in a canonical order,
	// for the game's canonical options encoding.
	Deck(options []byte) ([]engine.Card, error)
	// New returns the initial rules state for a deal (the card in each
	// slot, a permutation of Deck).
	New(options []byte, deal []engine.Card) (engine.State, error)
}

// Seated is implemented by games whose options name the players: the
// table refuses a roster whose seats are not exactly those players, in
// order (a roster every seat signed could otherwise play a game among
// other players than it seats).
type Seated interface {
	PlayerNames(options []byte) ([]string, error)
}

// HiddenDealer is implemented by games whose cards are dealt face down:
// instead of a public deal from joint coins, every seat in turn shuffles
// the deck (Deck's cards, one per slot) with a proof (mental SPEC.md §5),
// and the rules start without knowing the deal (New gets a nil deal).
type HiddenDealer interface {
	HiddenDeal() bool
}

// Opener is implemented by games whose rules begin with their own effects
// instead of a deal: when Opens is true the table skips the deal coins,
// lays the game's Deck face up in its canonical order, one card per slot
// (or the options' fixed deal, which New then receives), calls New with a
// nil deal, and carries out the effects of the initial state's
// [engine.Opening] (sets, shuffles, peeks, reveals, coins) before the
// first move. A game cannot both open and deal by shuffles
// ([HiddenDealer]).
type Opener interface {
	Opens() bool
}

// ViewBatcher is implemented by games whose private views are batched:
// peeks the rules ask for one after another, of different slots, opening
// the same components, are one request, in which every seat posts one
// shares entry holding its share of every slot it does not view itself
// (docs/protocol.md §5). Mafia's deal views every seat's role in n
// entries instead of n·(n−1). Games that do not batch keep one request
// per peek.
type ViewBatcher interface {
	BatchViews() bool
}

// Options are a table's settings: the game's own options and what the
// table adds around them. Their encoding is the roster's Options field.
type Options struct {
	Game []byte // the game's canonical options
	// Deal fixes the deal (scripted tables); nil deals at random from a
	// joint coin.
	Deal []engine.Card
	// PublishKeys: after the game every seat posts its secret key, so the
	// transcript can be replayed with every card shown.
	PublishKeys bool
	// HideMemory: the table asks every player's screen not to show the
	// seat's memory panel (what it saw and when): players remember by
	// themselves, as at a real table. The rules are unaffected.
	HideMemory bool
	// MoveTime, if not 0, is how long every peer waits for a player's
	// move before the table stops with a timeout verdict: a table option,
	// so that everyone at the table gives people the same time (whole
	// seconds, at most MaxMoveTime). 0 leaves it to each peer.
	MoveTime time.Duration
}

// MaxMoveTime is the longest MoveTime the encoding holds.
const MaxMoveTime = 65535 * time.Second

const (
	flagPublishKeys = 1 << iota
	flagFixedDeal
	flagHideMemory
	flagMoveTime
)

// MarshalBinary returns the canonical encoding of o.
func (o *Options) MarshalBinary() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(o.Game) })
	var flags uint8
	if o.PublishKeys {
		flags |= flagPublishKeys
	}
	if o.Deal != nil {
		flags |= flagFixedDeal
	}
	if o.HideMemory {
		flags |= flagHideMemory
	}
	if o.MoveTime != 0 {
		if o.MoveTime < time.Second || o.MoveTime > MaxMoveTime || o.MoveTime%time.Second != 0 {
			return nil, fmt.Errorf("table options: move time %v: want whole seconds, 1s..%v", o.MoveTime, MaxMoveTime)
		}
		flags |= flagMoveTime
	}
	b.AddUint8(flags)
	if o.Deal != nil {
		if len(o.Deal) > 64 {
			return nil, errors.New("table options: deal longer than 64 cards")
		}
		b.AddUint8(uint8(len(o.Deal)))
		for _, c := range o.Deal {
			if c < 0 || c > 255 {
				return nil, fmt.Errorf("table options: card %d out of range", c)
			}
			b.AddUint8(uint8(c))
		}
	}
	if o.MoveTime != 0 {
		b.AddUint16(uint16(o.MoveTime / time.Second))
	}
	return b.Bytes()
}

// UnmarshalOptions decodes table options strictly.
func UnmarshalOptions(data []byte) (*Options, error) {
	s := cryptobyte.String(data)
	var game cryptobyte.String
	var flags uint8
	if !s.ReadUint16LengthPrefixed(&game) || !s.ReadUint8(&flags) {
		return nil, errors.New("table options: truncated")
	}
	if flags&^(flagPublishKeys|flagFixedDeal|flagHideMemory|flagMoveTime) != 0 {
		return nil, fmt.Errorf("table options: unknown flags %#x", flags)
	}
	o := &Options{Game: append([]byte{}, game...), PublishKeys: flags&flagPublishKeys != 0, HideMemory: flags&flagHideMemory != 0}
	if flags&flagFixedDeal != 0 {
		var n uint8
		if !s.ReadUint8(&n) || n == 0 || n > 64 {
			return nil, errors.New("table options: bad deal length")
		}
		o.Deal = make([]engine.Card, n)
		for i := range o.Deal {
			var c uint8
			if !s.ReadUint8(&c) {
				return nil, errors.New("table options: deal truncated")
			}
			o.Deal[i] = engine.Card(c)
		}
	}
	if flags&flagMoveTime != 0 {
		var secs uint16
		if !s.ReadUint16(&secs) || secs == 0 {
			return nil, errors.New("table options: bad move time")
		}
		o.MoveTime = time.Duration(secs) * time.Second
	}
	if !s.Empty() {
		return nil, fmt.Errorf("table options: %d trailing bytes", len(s))
	}
	return o, nil
}
