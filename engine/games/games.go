// Package games is the contract between masque and a game: what the
// command line, the local and networked sessions, the script runner and
// the replay and verify glue need from a game, in one interface ([Game]),
// so that none of them switches on a game's name.
//
// A game package provides its rules (an [engine.State] and a
// [table.Game]), its data, its text and its bot; it implements [Rules]
// (everything but the bot) and its bot package turns it into a [Game]
// with [WithBot]. The list of games masque knows is a plain function in
// package engine/games/registry, the one package that imports every game.
//
// What a seat sees of a game is the game's too: its viewer (package
// engine/seatview), in a package of its own beside the rules, joins the
// game with [WithView].
// docs/games.md describes the contract and how the two Mascarade editions
// implement it.
package games

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Rules is what a game's own package provides: everything masque needs
// of a game except its bot (a bot package imports its rules, so the rules
// package cannot return it; see [WithBot]).
type Rules interface {
	// Name is the game's frozen name in rosters and on the command line
	// ("mascarade2").
	Name() string
	// Title is the game's name for people ("Mascarade (2nd edition)").
	Title() string
	// Players returns how many players the game is for.
	Players() (min, max int)
	// Table is the game's binding to the table layer.
	Table() table.Game
	// SetupHelp describes the game's own setup, chosen with --scenario
	// (its zero value: the game has none).
	SetupHelp() SetupHelp
	// Configure checks a setup chosen on the command line (choice is the
	// --scenario value, "" for the game's default) for a number of
	// players, before anyone is seated. load reads a file the choice
	// names. An error a person must fix is a *[UsageError].
	Configure(players int, choice string, load Loader) (Setup, error)
	// PlayerNames reads the player names, in seat order, back from the
	// game's canonical options.
	PlayerNames(options []byte) ([]string, error)
	// ParseScript parses a script whose header names this game. load
	// reads the files the script names (may be nil). Errors are
	// *[ScriptError] values naming the line.
	ParseScript(src []byte, load Loader) (Script, error)
	// FormatMove returns the public text of m applied to s (a state of
	// this game), as a script line without any secret: "Anna swap Boris".
	FormatMove(s engine.State, m engine.Move) string
	// CardName returns the name of card kind c ("card(N)" if unknown).
	CardName(c engine.Card) string
	// Summarize returns the public result of s (a state of this game), or
	// ok=false if s is not one (nil: before the deal).
	Summarize(s engine.State) (sum Summary, ok bool)
	// FixedDeal reports whether the game's canonical options fix any part
	// of what the table deals or draws (roles, characters, a deck's order,
	// a round's cards or first player: a scripted table's deal, chosen by
	// whoever wrote the options) instead of leaving it to the players'
	// coins and shuffles; false for options that do not decode (the table
	// refuses those anyway). A game whose options cannot fix anything
	// returns false. Every network table refuses such options and verify
	// and replay flag them, through [DealFixed]: a game that adds a way to
	// fix its deal must report it here.
	FixedDeal(options []byte) bool
}

// Game is a game masque can play: its [Rules], its bot and its viewer.
type Game interface {
	Rules
	// NewBot returns the bot of seat, created at the deal (s is the
	// game's initial state), whose choices are deterministic given seed.
	NewBot(s engine.State, seat engine.Seat, seed uint64) (Bot, error)
	// Viewer returns what the game's seats see: its narration and its
	// view (package engine/seatview; see [WithView]).
	Viewer() seatview.Viewer
}

// BotMaker creates a game's bot (see [Game.NewBot]).
type BotMaker func(s engine.State, seat engine.Seat, seed uint64) (Bot, error)

// WithBot returns the game made of a game package's rules and its bot.
func WithBot(r Rules, newBot BotMaker) Game { return withBot{r, newBot} }

type withBot struct {
	Rules
	newBot BotMaker
}

func (g withBot) Viewer() seatview.Viewer { return tellingViewer{g.Rules} }

func (g withBot) NewBot(s engine.State, seat engine.Seat, seed uint64) (Bot, error) {
	return g.newBot(s, seat, seed)
}

// Loader returns the contents of a file a command line or a script names.
type Loader func(name string) ([]byte, error)

// SetupHelp describes a game's own setup (the --scenario flag).
type SetupHelp struct {
	// Usage is the flag's help for this game, "" when the game takes no
	// setup. A `NAME` in backquotes names the value, as in package flag.
	Usage string
	// Choices are the built-in values, for completion.
	Choices []string
	// Default says what the game plays without a setup, for the hint of
	// a setup given to a game that takes none.
	Default string
}

// Setup is a game's setup, checked for a number of players.
type Setup interface {
	// Options returns the game's canonical options (the roster's game
	// options) for the seated names, checked.
	Options(names []string) ([]byte, error)
}

// UsageError is an error in what a person chose (a flag's value): the
// command exits with status 2, printing Hint, if any, after the error.
type UsageError struct {
	Err  error
	Hint string
}

func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *UsageError) Unwrap() error { return e.Err }

// Bot chooses one seat's moves.
type Bot interface {
	// Choose returns the seat's move in state s (a state of the bot's
	// game) with its secret bits (one per hidden swap the move causes,
	// nil when none), or ok=false if the seat has no move.
	Choose(s engine.State) (m engine.Move, bits []bool, ok bool)
	// Observe tells the bot what its seat learnt in a completed step.
	Observe(o Observation)
}

// Observation is what one seat learnt in one completed step: the public
// effects and facts, and what it alone knows.
type Observation struct {
	Effects []engine.Effect // the public effects, in order
	Facts   []engine.Fact   // the cards revealed to all, in order
	Seen    []engine.Fact   // the cards this seat saw privately (its peeks, cards shown to it), in effect order
	Swap    bool            // the secret bit, if this seat made the step's swap
}

// Script is a parsed script: the table it sets up and its lines, which
// the game plays with its own semantics.
type Script interface {
	// Seats returns the player names, in seat order.
	Seats() []string
	// Table returns the table options (the game's options and, if the
	// script fixes it, the deal). The runner sets the table's own flags.
	Table() (table.Options, error)
	// Play plays the script's lines on t, which has just dealt. Errors
	// are *[ScriptError] values naming the line.
	Play(t Table) error
}

// Table is a table a script is played on (a local table of real seats,
// or a test's oracle).
type Table interface {
	// Rules returns the rules state now (nil before the deal).
	Rules() engine.State
	// Move plays m for seat with the move's secret bits.
	Move(seat engine.Seat, m engine.Move, bits []bool) error
}

// ScriptError is an error tied to a line of a script.
type ScriptError struct {
	Line int
	Err  error
}

func (e *ScriptError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *ScriptError) Unwrap() error { return e.Err }

// Lookup returns the game called name in list.
func Lookup(list []Game, name string) (Game, error) {
	for _, g := range list {
		if g.Name() == name {
			return g, nil
		}
	}
	return nil, fmt.Errorf("unknown game %q (%s)", name, strings.Join(Names(list), ", "))
}

// Names returns the names of the games in list, in order.
func Names(list []Game) []string {
	out := make([]string, len(list))
	for i, g := range list {
		out[i] = g.Name()
	}
	return out
}

// WithSetup returns the games in list that take a setup (--scenario).
func WithSetup(list []Game) []Game {
	return slices.DeleteFunc(slices.Clone(list), func(g Game) bool { return g.SetupHelp().Usage == "" })
}

// KnowingBot is a [Bot] that reads what its seat knows now from the table
// layer (table.Player.Known: the cards it has seen in slots that still
// hold them) instead of rebuilding it from observations. Sessions call
// ChooseKnowing when a game's bot implements it.
type KnowingBot interface {
	Bot
	// ChooseKnowing is Choose, given what the seat knows, by slot.
	ChooseKnowing(s engine.State, known map[engine.Slot]engine.Card) (m engine.Move, bits []bool, ok bool)
}

// SetupTeller is a [Rules] that can tell its setup, read from the game's
// canonical options, for people joining a table ("variants: jewels,
// abilities"); "" for the game's default setup.
type SetupTeller interface {
	TellSetup(options []byte) string
}

// SealingBot is a [Bot] that makes sealed choices (commitments it opens
// later, as a Grimm Eavesdrop portrait). Given a secret its session keeps
// with the seat's records, it derives their nonces from it instead of
// drawing them at random, so that the bot of a restarted seat can still
// open what the bot before the restart sealed.
type SealingBot interface {
	Bot
	// SealWith sets the secret the bot's sealing nonces come from.
	SealWith(salt [32]byte)
}

// KnowingTable is a [Table] that can say what a seat knows now, by slot
// (table.Player.Known): a script naming a card of a hidden hand is
// resolved with it.
type KnowingTable interface {
	Table
	Known(seat engine.Seat) map[engine.Slot]engine.Card
}

// DealFixed returns how table options o of game g fix the deal, or ""
// when they fix nothing (the deal is drawn from the players' coins or
// shuffles). It is the one rule for both ways a roster can fix a deal:
// the table's own fixed deal ([table.Options].Deal, any game) and the
// game's options ([Rules.FixedDeal]: Mafia's roles, a Grimm round).
// Fixed deals are for scripted tables ('masque script', tests): a
// networked roster that real joiners sign must never fix one (the
// joiners, the host and a restarting peer refuse it), and verify and
// replay flag a transcript whose roster does.
func DealFixed(g Rules, o *table.Options) string {
	switch {
	case o.Deal != nil:
		return fmt.Sprintf("the table options fix %d cards", len(o.Deal))
	case g.FixedDeal(o.Game):
		return fmt.Sprintf("the %s options fix it", g.Name())
	}
	return ""
}

// Hidden is a hidden card worth showing when a transcript's keys are
// published (replay --reveal): its slot and what it is to people.
type Hidden struct {
	Slot  engine.Slot
	Label string // "Anna's character", "Boris's hand"
}

// Revealer is implemented by games whose replay --reveal shows hidden
// cards named by the rules state rather than by the Mascarade family's
// narration: every character and hidden hand after each step.
type Revealer interface {
	HiddenCards(s engine.State) []Hidden
}

// Teller is implemented by a game's table binding ([Rules.Table]) when it
// tells its moves and reveals in words for people ("Anna gives the Crown
// to Boris"), rather than as script lines: the play screen's log, demo
// and replay use it. you is the seat the words speak to in the second
// person ("you give ..."), or -1 for none.
type Teller interface {
	// SayMove tells move m, made in state s.
	SayMove(s engine.State, m engine.Move, you engine.Seat) string
	// SayFacts tells what a completed reveal or joint coin made public:
	// before is the state that waited for it, after the state once it was
	// learnt; facts are the reveal's cards, or one coin (Slot -1).
	SayFacts(before, after engine.State, facts []engine.Fact, you engine.Seat) []string
	// CardWords names a card for people ("Big Bad Wolf").
	CardWords(c engine.Card) string
}

// StateOf returns s as a state of the game whose states are S (a pointer
// type), or ok=false for nil or another game's state: how a game's
// [Rules] methods that take any [engine.State] find their own.
func StateOf[S comparable](s engine.State) (st S, ok bool) {
	var zero S
	st, ok = s.(S)
	return st, ok && st != zero
}

// FormatMoveOf is a [Rules.FormatMove] for the game whose states are S:
// format says a move of one of its states; anything else (nil, another
// game's state) gets the neutral "seat(N) kind [args]", the kind named
// by kindName.
func FormatMoveOf[S comparable](s engine.State, m engine.Move, format func(S, engine.Move) string, kindName func(uint8) string) string {
	st, ok := StateOf[S](s)
	if !ok {
		return neutralMove(m, kindName)
	}
	return format(st, m)
}

// neutralMove says a move without its game's state: "seat(N) kind [args]".
func neutralMove(m engine.Move, kindName func(uint8) string) string {
	return fmt.Sprintf("seat(%d) %s %v", m.Seat, kindName(m.Kind), m.Args)
}

// NightBot is a [Bot] of a game with secret night actions (Mafia's
// ballots and checks, table.BodyActions). Before each choice its session
// tells it what its seat knows from the seat's own player and replica
// ([NightBot.See]); for each of the seat's decisions
// (table.Player.Decisions) it chooses a target ([NightBot.Decide]).
type NightBot interface {
	Bot
	// See tells the bot what its seat knows now: pl is the seat's player,
	// t its replica.
	See(pl *table.Player, t *table.Table)
	// Decide returns the seat's target for decision d (an effect of
	// table.Player.Decisions) in state s.
	Decide(s engine.State, d engine.Effect) engine.Seat
}

// Knower is implemented by a game's table binding ([Rules.Table]) whose
// seats know privately more than the cards they saw (Mafia: a seat's
// role and team, the mates it recognised, the answers to its checks). A
// session hands what it returns to the seat's own screen
// (seatview.Input.Private), never to another seat's.
type Knower interface {
	// Knowledge returns what the seat of pl knows now at t (its replica),
	// in state s.
	Knowledge(s engine.State, pl *table.Player, t *table.Table) any
}

// ActingTable is a [Table] that carries out secret night actions
// (table.BodyActions): a script's night lines are posted through it.
type ActingTable interface {
	Table
	// ActionsDue returns the seat whose actions entry the table waits
	// for, or ok=false when it waits for none.
	ActionsDue() (seat engine.Seat, ok bool)
	// Decisions returns the parts of seat's due actions that need its
	// choice (table.Player.Decisions).
	Decisions(seat engine.Seat) []engine.Effect
	// Act posts seat's actions entry with its choices by power.
	Act(seat engine.Seat, choices map[uint8]engine.Seat) error
}

// Leaver is a [Rules] whose players may leave a game for good while it
// goes on (Mafia: the seat is eliminated, its role shown, and the others
// play on without it). LeaveMove returns seat's move to leave in state s
// (a state of the game), and false when the seat cannot leave now: it is
// out already, or the game is over. The table takes the move only when a
// move of that seat is due.
type Leaver interface {
	LeaveMove(s engine.State, seat engine.Seat) (engine.Move, bool)
}

// WithView returns game g whose seats' screens show what v, the game's
// own viewer, decides (its narration and its view: package
// engine/seatview). A game without one ([WithBot] alone) is told entry by
// entry ([TellingNarrator]) and has no view.
func WithView(g Game, v seatview.Viewer) Game { return withView{g, v} }

type withView struct {
	Game
	v seatview.Viewer
}

func (g withView) Viewer() seatview.Viewer { return g.v }
