package masquerade

import (
	"encoding"
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// Game binds the edition E names to the table layer (engine/table's Game
// interface): options travel as their canonical encoding. It also
// implements the game contract ([games.Rules]); the edition's bot package
// adds the bot.
type Game[O encoding.BinaryMarshaler, E Of[O]] struct{}

// Name returns the edition's name in rosters.
func (Game[O, E]) Name() string { return edition[O, E]().Game }

// About describes the edition for people ([games.Describer]).
func (Game[O, E]) About() games.About { return edition[O, E]().About }

// Kinds returns the number of card kinds: cards are 0..Kinds()-1 (kind 0
// is never dealt).
func (Game[O, E]) Kinds() int { return len(edition[O, E]().Cards.Cards) + 1 }

// Deck returns the cards to deal, one per slot, in canonical (card value)
// order: the normalized set of the options.
func (Game[O, E]) Deck(options []byte) ([]engine.Card, error) {
	ed := edition[O, E]()
	o, err := ed.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	_, set, _, _ := ed.Parts(ed.Normalize(o))
	return set, nil
}

// New returns the initial rules state for a deal (the card in each slot,
// a permutation of the deck).
func (Game[O, E]) New(options []byte, deal []engine.Card) (engine.State, error) {
	ed := edition[O, E]()
	o, err := ed.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	s, err := NewState[O, E](o, deal)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ed.Game, err)
	}
	return s, nil
}

// Title returns the game's name for people.
func (Game[O, E]) Title() string { return edition[O, E]().Title }

// Players returns the smallest and largest player counts.
func (Game[O, E]) Players() (min, max int) {
	ed := edition[O, E]()
	return ed.MinPlayers, ed.MaxPlayers
}

// Table returns the game itself: its binding to the table layer.
func (g Game[O, E]) Table() table.Game { return g }

// SetupHelp describes the edition's setup.
func (Game[O, E]) SetupHelp() games.SetupHelp { return edition[O, E]().SetupHelp }

// Configure returns the edition's setup for players and a choice.
func (Game[O, E]) Configure(players int, choice string, load games.Loader) (games.Setup, error) {
	return edition[O, E]().Configure(players, choice, load)
}

// FixedDeal returns false: the game's options fix no part of the deal
// (a scripted table fixes it with the table options' Deal instead, which
// [games.DealFixed] reports).
func (Game[O, E]) FixedDeal([]byte) bool { return false }

// PlayerNames reads the player names back from canonical options.
func (Game[O, E]) PlayerNames(options []byte) ([]string, error) {
	ed := edition[O, E]()
	o, err := ed.Unmarshal(options)
	if err != nil {
		return nil, err
	}
	players, _, _, _ := ed.Parts(o)
	return players, nil
}

// ParseScript implements [games.Rules] with the edition's script reader:
// load reads the files a header names (the 2nd edition's scenarios).
func (Game[O, E]) ParseScript(src []byte, load games.Loader) (games.Script, error) {
	return edition[O, E]().ParseScript(src, load)
}

// FormatMove is [State.FormatMove] for a state of this edition.
func (Game[O, E]) FormatMove(s engine.State, m engine.Move) string {
	return games.FormatMoveOf(s, m, (*State[O, E]).FormatMove, KindName)
}

// CardName returns the English name of card c.
func (Game[O, E]) CardName(c engine.Card) string { return edition[O, E]().Cards.Name(c) }

// Summarize returns the public result of a state of this edition.
func (Game[O, E]) Summarize(s engine.State) (games.Summary, bool) {
	return SummarizeOf[*State[O, E]](s, edition[O, E]().Title)
}

// Setup is a table's setup: the cards in play and the purse.
type Setup[O encoding.BinaryMarshaler, E Of[O]] struct {
	Set   []engine.Card // nil: the edition's default for the player count
	Coins int           // 0: the book's purse
}

// Options returns the canonical options for the seated names, checked
// against the book's constraints.
func (su Setup[O, E]) Options(names []string) ([]byte, error) {
	ed := edition[O, E]()
	o := ed.Normalize(ed.Make(names, su.Set, su.Coins))
	if err := ed.Validate(o); err != nil {
		return nil, err
	}
	return o.MarshalBinary()
}

// Script is a parsed scripted table of the edition E names: its options
// (as given, not normalized), its fixed deal and its lines. The header
// and the lines are the edition's ([Spec.ParseScript]); each line is
// SEAT VERB ARGS, turned into a move against a state with
// [State.ParseMove].
type Script[O encoding.BinaryMarshaler, E Of[O]] struct {
	Options  O
	Scenario string        // the 2nd edition's scenario= name, "" without it
	Deal     []engine.Card // nil: the deal is random, drawn by the table
	Lines    []ScriptLine
}

// Seats returns the script's player names (the contract's [games.Script]).
func (sc *Script[O, E]) Seats() []string {
	players, _, _, _ := edition[O, E]().Parts(sc.Options)
	return players
}

// Table returns the script's table options: its game options and deal.
func (sc *Script[O, E]) Table() (table.Options, error) { return ScriptTable(sc.Options, sc.Deal) }

// Play plays the script's lines on t (see [LinePlayer]).
func (sc *Script[O, E]) Play(t games.Table) error {
	return LinePlayer[*State[O, E]]{
		ParseMove:     (*State[O, E]).ParseMove,
		HasSecretSwap: (*State[O, E]).HasSecretSwap,
	}.Play(t, sc.Lines)
}

// ParseScript reads src's lines with the edition's header reader, which
// returns the script its header describes.
func ParseScript[O encoding.BinaryMarshaler, E Of[O]](src []byte, header func(fields []string) (*Script[O, E], error)) (*Script[O, E], error) {
	var out *Script[O, E]
	lines, err := ParseLines(src, edition[O, E]().Game, func(fields []string) ([]string, error) {
		s, err := header(fields)
		if err != nil {
			return nil, err
		}
		out = s
		players, _, _, _ := edition[O, E]().Parts(s.Options)
		return players, nil
	})
	if err != nil {
		return nil, err
	}
	out.Lines = lines
	return out, nil
}

// ScriptParser returns an edition's [Spec.ParseScript] from its script
// reader.
func ScriptParser[O encoding.BinaryMarshaler, E Of[O]](parse func(src []byte, load games.Loader) (*Script[O, E], error)) func([]byte, games.Loader) (games.Script, error) {
	return func(src []byte, load games.Loader) (games.Script, error) {
		sc, err := parse(src, load)
		if err != nil {
			return nil, err // not a typed nil
		}
		return sc, nil
	}
}

// OracleOf returns the omniscient oracle ([Oracle]) of a new game s of
// an edition, dealt deal (the true cards, one per slot); name prefixes
// its errors.
func OracleOf[O encoding.BinaryMarshaler, E Of[O]](name string, s *State[O, E], deal []engine.Card) *Oracle[*State[O, E]] {
	return NewOracle(OracleRules[*State[O, E]]{Name: name, ParseMove: (*State[O, E]).ParseMove}, s, deal)
}

// RunOracle plays a parsed script on its oracle (name prefixes its
// errors) with [Script.OracleDeal] (see [Oracle.PlayLine] for the
// semantics). On an illegal line it returns the oracle as it was before
// that line, with the error.
func RunOracle[O encoding.BinaryMarshaler, E Of[O]](name string, sc *Script[O, E]) (*Oracle[*State[O, E]], error) {
	deal := sc.OracleDeal()
	s, err := NewState[O, E](sc.Options, deal)
	if err != nil {
		return nil, &ScriptError{Line: 1, Err: err}
	}
	t := OracleOf(name, s, deal)
	return t, t.RunLines(sc.Lines)
}

// FinalState plays a script, as parsed (with the parser's error), on its
// oracle and returns the final state; see [RunOracle]. Errors carry the
// line number (a *[ScriptError]), wrapping the [engine.RuleError] of an
// illegal line.
func FinalState[O encoding.BinaryMarshaler, E Of[O]](name string, sc *Script[O, E], err error) (*State[O, E], error) {
	if err != nil {
		return nil, err
	}
	t, err := RunOracle(name, sc)
	if t == nil {
		return nil, err
	}
	return t.State, err
}

// OracleDeal returns the deal a script is played with by the oracle: its
// deal= cards, or else the normalized set in card order (the oracle has
// no joint coin; a real table deals at random).
func (sc *Script[O, E]) OracleDeal() []engine.Card {
	if sc.Deal != nil {
		return append([]engine.Card(nil), sc.Deal...)
	}
	ed := edition[O, E]()
	_, set, _, _ := ed.Parts(ed.Normalize(sc.Options))
	return set
}
