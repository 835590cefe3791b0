package toygame

import (
	"errors"
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// tableGame is the game's binding to the table layer: a hidden deal of
// one card per player (slot i is seat i's card).
type tableGame struct{}

var (
	_ table.HiddenDealer = tableGame{}
	_ table.Seated       = tableGame{}
)

func (tableGame) Name() string                           { return Name }
func (tableGame) Kinds() int                             { return MaxPlayers }
func (tableGame) HiddenDeal() bool                       { return true }
func (tableGame) About() games.About                     { return about() }
func (tableGame) PlayerNames(o []byte) ([]string, error) { return decodeNames(o) }

func (tableGame) Deck(options []byte) ([]engine.Card, error) {
	names, err := decodeNames(options)
	if err != nil {
		return nil, err
	}
	deck := make([]engine.Card, len(names))
	for i := range deck {
		deck[i] = engine.Card(i)
	}
	return deck, nil
}

// New returns the initial state; deal must be nil (table.HiddenDealer).
func (tableGame) New(options []byte, deal []engine.Card) (engine.State, error) {
	names, err := decodeNames(options)
	if err != nil {
		return nil, err
	}
	// The deal is hidden (shuffled by every seat): the rules never know
	// where a card went.
	if deal != nil {
		return nil, errors.New("toygame: the deal is hidden (shuffled by every seat), never given")
	}
	return State{names: names}, nil
}

// State is the rules state. It is an immutable value.
type State struct {
	names []string
	turn  int           // moves made
	over  bool          // every card is revealed
	cards []engine.Card // the revealed cards, by seat, once over
}

func (s State) total() int { return Rounds * len(s.names) }

// Names returns the players' names, in seat order.
func (s State) Names() []string { return s.names }

// Turn returns how many turns were played.
func (s State) Turn() int { return s.turn }

// Over reports whether every card is revealed.
func (s State) Over() bool { return s.over }

// Card returns seat p's revealed card (ok=false before the reveal).
func (s State) Card(p engine.Seat) (engine.Card, bool) {
	if !s.over {
		return 0, false
	}
	return s.cards[p], true
}

// Winner returns the seat of the highest card (only once over).
func (s State) Winner() engine.Seat {
	w := 0
	for i, c := range s.cards {
		if c > s.cards[w] {
			w = i
		}
	}
	return engine.Seat(w)
}

// Next reports what the rules wait for.
func (s State) Next() engine.Need {
	switch {
	case s.over:
		return engine.Need{Kind: engine.NeedNothing}
	case s.turn >= s.total():
		return engine.Need{Kind: engine.NeedFacts}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: engine.Seat(s.turn % len(s.names))}
}

// Apply plays m: a peek shows the mover its own card.
func (s State) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	need := s.Next()
	if need.Kind != engine.NeedMove {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "no-move-now", Msg: "the table waits for no move"}
	}
	if m.Seat != need.Seat {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "not-your-turn", Msg: fmt.Sprintf("it is %s's turn", s.names[need.Seat])}
	}
	if len(m.Args) != 0 {
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "bad-args", Msg: "peek and pass take no arguments"}
	}
	var eff []engine.Effect
	switch m.Kind {
	case MovePeek:
		eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: m.Seat, Slots: []engine.Slot{engine.Slot(m.Seat)}})
	case MovePass:
	default:
		return nil, nil, &engine.RuleError{Seat: m.Seat, Rule: "unknown-move", Msg: fmt.Sprintf("move kind %d (peek or pass)", m.Kind)}
	}
	n := s
	n.turn++
	if n.turn == n.total() {
		all := make([]engine.Slot, len(s.names))
		for i := range all {
			all[i] = engine.Slot(i)
		}
		eff = append(eff, engine.Effect{Kind: engine.EffectReveal, Slots: all})
	}
	return n, eff, nil
}

// Learn takes the revealed cards: the game is over.
func (s State) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	if s.Next().Kind != engine.NeedFacts {
		return nil, nil, errors.New("toygame: facts when none are awaited")
	}
	if len(facts) != len(s.names) {
		return nil, nil, fmt.Errorf("toygame: %d facts for %d cards", len(facts), len(s.names))
	}
	cards := make([]engine.Card, len(facts))
	for i, f := range facts {
		if f.Slot != engine.Slot(i) || f.Card < 0 || int(f.Card) >= len(s.names) {
			return nil, nil, fmt.Errorf("toygame: fact %d: slot %d card %d", i, f.Slot, f.Card)
		}
		cards[i] = f.Card
	}
	n := s
	n.over, n.cards = true, cards
	return n, nil, nil
}

// AppendBinary appends the canonical encoding of the state.
func (s State) AppendBinary(b []byte) ([]byte, error) {
	enc, err := encodeNames(s.names)
	if err != nil {
		return nil, err
	}
	b = append(b, enc...)
	b = append(b, byte(s.turn))
	if !s.over {
		return append(b, 0), nil
	}
	b = append(b, 1)
	for _, c := range s.cards {
		b = append(b, byte(c))
	}
	return b, nil
}

// encodeNames is the canonical options: a count, then each name's
// length and bytes.
func encodeNames(names []string) ([]byte, error) {
	if len(names) < 2 || len(names) > MaxPlayers {
		return nil, fmt.Errorf("toygame: %d players (2..%d)", len(names), MaxPlayers)
	}
	seen := map[string]bool{}
	b := []byte{byte(len(names))}
	for _, n := range names {
		if n == "" || len(n) > 32 || seen[n] {
			return nil, fmt.Errorf("toygame: player name %q is empty, too long or given twice", n)
		}
		seen[n] = true
		b = append(b, byte(len(n)))
		b = append(b, n...)
	}
	return b, nil
}

func decodeNames(b []byte) ([]string, error) {
	if len(b) == 0 {
		return nil, errors.New("toygame: empty options")
	}
	count, b := int(b[0]), b[1:]
	var names []string
	for range count {
		if len(b) == 0 || len(b) < 1+int(b[0]) {
			return nil, errors.New("toygame: options cut short")
		}
		names = append(names, string(b[1:1+int(b[0])]))
		b = b[1+int(b[0]):]
	}
	if len(b) != 0 {
		return nil, errors.New("toygame: trailing bytes in options")
	}
	if _, err := encodeNames(names); err != nil {
		return nil, err
	}
	return names, nil
}

// script is a parsed toy script.
type script struct {
	names []string
	lines []scriptLine
}

type scriptLine struct {
	no int
	m  engine.Move
}

func (sc *script) Seats() []string { return sc.names }

func (sc *script) Table() (table.Options, error) {
	enc, err := encodeNames(sc.names)
	if err != nil {
		return table.Options{}, err
	}
	return table.Options{Game: enc}, nil
}

func (sc *script) Play(t games.Table) error {
	for _, l := range sc.lines {
		if err := t.Move(l.m.Seat, l.m, nil); err != nil {
			return &games.ScriptError{Line: l.no, Err: fmt.Errorf("%s: %w", sc.names[l.m.Seat], err)}
		}
	}
	return nil
}
