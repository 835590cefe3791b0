package grimm

import (
	"errors"
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

var (
	_ table.Game     = Game{}
	_ table.Opener   = Game{}
	_ games.Rules    = Game{}
	_ games.Revealer = Game{}
)

// Opens implements table.Opener: the table carries out [State.Opening]
// (shuffles by every seat, private looks, the round's coin) instead of a
// deal.
func (Game) Opens() bool { return true }

// Title returns the game's name for people.
func (Game) Title() string { return "The Grimm Masquerade" }

// Players returns 2 and 5.
func (Game) Players() (min, max int) { return 2, 5 }

// Table returns the game itself: its binding to the table layer.
func (g Game) Table() table.Game { return g }

// variantNames are the advanced variants, as --scenario names them.
var variantNames = []string{"bets", "jewels", "abilities"}

// SetupHelp describes the setup: the advanced variants.
func (Game) SetupHelp() games.SetupHelp {
	return games.SetupHelp{
		Usage:   "the advanced variants, VARIANTS a comma-separated list of bets, jewels and abilities (bets with 3 to 5 players; default: the basic game)",
		Choices: []string{"bets", "jewels", "abilities", "bets,jewels", "jewels,abilities", "bets,jewels,abilities"},
		Default: "The Grimm Masquerade plays the basic game without --scenario",
	}
}

// Setup is a table's setup: the advanced variants in play.
type Setup struct {
	Bets, Jewels, Abilities bool
}

// Configure reads the variants chosen with --scenario ("" for the basic
// game) for a number of players.
func (Game) Configure(players int, choice string, _ games.Loader) (games.Setup, error) {
	var su Setup
	if strings.TrimSpace(choice) == "" {
		return su, nil
	}
	for _, v := range strings.Split(strings.ToLower(choice), ",") {
		switch strings.TrimSpace(v) {
		case "bets":
			su.Bets = true
		case "jewels":
			su.Jewels = true
		case "abilities":
			su.Abilities = true
		default:
			return nil, &games.UsageError{Err: fmt.Errorf("--scenario: unknown variant %q", v),
				Hint: "the variants are " + strings.Join(variantNames, ", ") + ", comma-separated"}
		}
	}
	if su.Bets && players == 2 {
		return nil, &games.UsageError{Err: errors.New("--scenario: bets are not played with 2 players"),
			Hint: "choose jewels or abilities, or 3 to 5 players"}
	}
	return su, nil
}

// Options returns the canonical options for the seated names.
func (su Setup) Options(names []string) ([]byte, error) {
	o := Options{Players: names, Bets: su.Bets, Jewels: su.Jewels, Abilities: su.Abilities}
	return o.MarshalBinary()
}

// PlayerNames reads the player names back from canonical options.
func (Game) PlayerNames(options []byte) ([]string, error) { return hiddenDeal.PlayerNames(options) }

// TellSetup implements games.SetupTeller: the advanced variants in play
// ("variants: bets, jewels"), "" for the basic game or options that do
// not decode.
func (Game) TellSetup(options []byte) string {
	o, err := UnmarshalOptions(options)
	if err != nil {
		return ""
	}
	var v []string
	for _, x := range []struct {
		on   bool
		name string
	}{{o.Bets, "bets"}, {o.Jewels, "jewels"}, {o.Abilities, "abilities"}} {
		if x.on {
			v = append(v, x.name)
		}
	}
	if len(v) == 0 {
		return ""
	}
	return "variants: " + strings.Join(v, ", ")
}

// FixedDeal reports whether options fix some round's deal ([FixedRound]).
func (Game) FixedDeal(options []byte) bool {
	o, err := UnmarshalOptions(options)
	return err == nil && o.IsFixed()
}

// FormatMove is [FormatMove] for a state of this game.
func (Game) FormatMove(s engine.State, m engine.Move) string {
	return games.FormatMoveOf(s, m, FormatMove, KindName)
}

// CardName is [CardName].
func (Game) CardName(c engine.Card) string { return CardName(c) }

// Summarize returns the public result: over, winners, the headline, each
// player's roses, and the JSON fields roses ({name: n}), round and
// unmasked (the names of the unmasked players).
func (Game) Summarize(s engine.State) (games.Summary, bool) {
	st, ok := games.StateOf[*State](s)
	if !ok {
		return games.Summary{}, false
	}
	sum := games.Summary{Over: st.Over(), Unit: "roses"}
	roses := map[string]int{}
	unmasked := []string{}
	for p := range engine.Seat(st.Players()) {
		roses[st.Name(p)] = st.Roses(p)
		sum.Scores = append(sum.Scores, games.Score{Name: st.Name(p), Value: st.Roses(p)})
		if st.Unmasked(p) {
			unmasked = append(unmasked, st.Name(p))
		}
	}
	for _, w := range st.Winners() {
		sum.Winners = append(sum.Winners, st.Name(w))
	}
	if st.Over() {
		sum.Head = fmt.Sprintf("The Grimm Masquerade, over after round %d", st.Round())
	} else {
		sum.Head = fmt.Sprintf("The Grimm Masquerade, round %d, %s's turn (%s)", st.Round(), st.Name(st.Turn()), st.Step())
	}
	sum.Fields = []games.Field{{Key: "roses", Value: roses}, {Key: "round", Value: st.Round()}, {Key: "unmasked", Value: unmasked}}
	return sum, true
}

// HiddenCards names every character slot of a seat, every card of an
// unmasked seat's hidden hand and every bet card held, for replay
// --reveal.
func (Game) HiddenCards(s engine.State) []games.Hidden {
	return games.HiddenCardsOf(s, func(st *State, p engine.Seat) []games.Hidden {
		var out []games.Hidden
		for i, sl := range st.CharSlotsOf(p) {
			label := st.Name(p) + "'s character"
			if st.Players() == 2 {
				label = fmt.Sprintf("%s's %s character", st.Name(p), [2]string{"left", "right"}[i])
			}
			out = append(out, games.Hidden{Slot: sl, Label: label})
		}
		for _, sl := range st.Hand(p) {
			out = append(out, games.Hidden{Slot: sl, Label: st.Name(p) + "'s hand"})
		}
		for _, sl := range st.BetsOf(p) {
			out = append(out, games.Hidden{Slot: sl, Label: st.Name(p) + "'s bet"})
		}
		return out
	})
}

// ParseScript implements [games.Rules] with [ParseScript]: the script's
// round lines become the options' fixed rounds ([FixedRound]), so that a
// scripted table through the real stack deals what the script says.
func (Game) ParseScript(src []byte, _ games.Loader) (games.Script, error) {
	sc, err := ParseScript(src)
	if err != nil {
		return nil, err
	}
	return games.OptionsScript{Players: sc.Options.Players, Options: sc.tableOptions, Lines: realScript{sc}.Play}, nil
}

// realScript is a script played through the real stack.
type realScript struct{ *Script }

// tableOptions returns the canonical options of the script's table: the
// game's options with the script's round lines as fixed rounds.
func (sc *Script) tableOptions() ([]byte, error) {
	o := sc.Options.Normalize()
	for r, spec := range sc.Rounds {
		f, err := o.FixRound(spec)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		o.Fixed[r-1] = f
	}
	return o.MarshalBinary()
}

// ErrRandomLine: a script's random line, which only the fake table
// (grimmtest) can honour by searching coins; through the real stack every
// coin is joint and nobody can choose it.
var ErrRandomLine = errors.New("random lines need the fake table (engine/grimm/grimmtest): through the real stack every coin is joint and nobody chooses it")

// Play plays the lines on t: moves (a card of a hidden hand, or a bet
// card, named by the seat's own knowledge when t is a
// [games.KnowingTable]), expect lines ([CheckExpect]).
func (sc realScript) Play(t games.Table) error {
	for _, l := range sc.Lines {
		st, err := games.StartedRules[*State](t, l.LineNo)
		if err != nil {
			return err
		}
		switch l.Verb {
		case "random":
			return &games.ScriptError{Line: l.LineNo, Err: ErrRandomLine}
		case "expect":
			if err := CheckExpect(st, l.Tokens); err != nil {
				return &games.ScriptError{Line: l.LineNo, Err: err}
			}
			continue
		}
		if err := games.PlayMoveLine(t, st, l.LineNo, l.Seat, l.Tokens, NameHidden, ParseMove); err != nil {
			return statementWords(st, err)
		}
	}
	return nil
}

// statementWords says a refused false statement (a hint, an unmasking or
// a win the seat's own card contradicts) with the cards' names.
func statementWords(s *State, err error) error {
	var fe *table.FalseStatementError
	var se *games.ScriptError
	if !errors.As(err, &fe) || !errors.As(err, &se) {
		return err
	}
	var said []string
	for _, k := range fe.Kinds {
		said = append(said, The(engine.Card(k)))
	}
	name, is := s.Name(fe.Seat), The(engine.Card(fe.Kind))
	msg := fmt.Sprintf("%s cannot prove being %s: %s is %s, and the table refuses a false proof", name, listOr(said), name, is)
	if fe.Not {
		msg = fmt.Sprintf("%s cannot hint %s: a hint proves \"I am not %s\", and %s is %s; the table refuses a false proof (unmask instead when the rules ask)",
			name, listOr(said), listOr(said), name, is)
	}
	return &games.ScriptError{Line: se.Line, Err: &falseStatement{msg}}
}

// falseStatement is a false statement refused, in words; it wraps
// table.ErrFalseStatement.
type falseStatement struct{ msg string }

func (e *falseStatement) Error() string { return e.msg }
func (e *falseStatement) Unwrap() error { return table.ErrFalseStatement }

// listOr joins names as "a", "a or b", "a, b or c".
func listOr(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// NameHidden rewrites "give NAME ITEM" by an unmasked seat (whose hand is
// hidden, so a script cannot know the slots) into "give NAME slot=N", and
// "bet CHARACTER" into "bet SLOT", using what the seat knows (known, by
// slot). Other tokens are returned as they are.
func NameHidden(s *State, p engine.Seat, known map[engine.Slot]engine.Card, tokens []string) []string {
	if len(tokens) == 2 && strings.EqualFold(tokens[0], "bet") {
		if c, err := ParseCharacter(tokens[1]); err == nil {
			for _, sl := range s.BetDeck() {
				if v, ok := known[sl]; ok && v == BetBase+c {
					return []string{tokens[0], fmt.Sprint(int(sl))}
				}
			}
		}
	}
	hand := s.Hand(p)
	if len(tokens) != 3 || !strings.EqualFold(tokens[0], "give") || len(hand) == 0 {
		return tokens
	}
	it, err := ParseItem(tokens[2])
	if err != nil {
		return tokens
	}
	for _, sl := range hand {
		if c, ok := known[sl]; ok && c == it {
			return []string{tokens[0], tokens[1], "slot=" + fmt.Sprint(int(sl))}
		}
	}
	return tokens
}

var _ games.Teller = Game{}

// SayMove implements [games.Teller] with [SayMove].
func (Game) SayMove(s engine.State, m engine.Move, you engine.Seat) string {
	return games.SayMoveOf(s, m, you, SayMove, KindName)
}

// SayFacts implements [games.Teller] with [SayFacts].
func (Game) SayFacts(before, after engine.State, facts []engine.Fact, you engine.Seat) []string {
	return games.SayFactsOf(before, after, facts, you, SayFacts)
}
