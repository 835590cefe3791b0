// Package toygame is a small game that exists to test the game contract
// (engine/games): it is no registered game and no command imports it, so
// it is not in the shipped binary. A test adds it to a games list with
// one line and plays it through the real commands.
//
// High card: every player is dealt one hidden number card (the deck is
// shuffled by every seat in turn, so nobody knows the deal). For
// [Rounds] rounds, in seat order, each player on their turn may peek at
// their own card or pass. Then every card is revealed and the highest
// card wins.
package toygame

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Name is the game's frozen name.
const Name = "toygame"

// Rounds is how many turns each player takes before the reveal.
const Rounds = 2

// The moves' kinds.
const (
	MovePeek uint8 = iota // look at one's own card
	MovePass              // do nothing
)

// MaxPlayers is the most players (and card kinds: one card per player).
const MaxPlayers = 5

var cardNames = []string{"one", "two", "three", "four", "five"}

// Game is the toy game's rules, table binding and description.
type Game struct{}

var (
	_ games.Rules     = Game{}
	_ games.Describer = Game{}
)

// Name is the game's name in rosters.
func (Game) Name() string { return Name }

// Title is the game's name for people.
func (Game) Title() string { return "High Card (a toy)" }

// Players returns 2..MaxPlayers.
func (Game) Players() (int, int) { return 2, MaxPlayers }

// Table returns the game's table binding.
func (Game) Table() table.Game { return tableGame{} }

// SetupHelp: the game has no setup.
func (Game) SetupHelp() games.SetupHelp { return games.SetupHelp{} }

// About describes the game.
func (Game) About() games.About { return about() }

func about() games.About {
	return games.About{
		Summary: "Each player holds one hidden number card; on their turn a player peeks at it or passes; after " +
			fmt.Sprint(Rounds) + " rounds every card is revealed and the highest wins.",
		Hides:  "Each player's card, dealt face down by everyone's shuffles; a peek shows it to its holder alone.",
		Script: "header 'game toygame players=NAME,NAME,...'; then one line per turn: 'NAME peek' or 'NAME pass'.",
	}
}

// Configure checks a table of players; the game takes no setup choice.
func (Game) Configure(players int, choice string, _ games.Loader) (games.Setup, error) {
	if choice != "" {
		return nil, &games.UsageError{Err: errors.New("toygame takes no scenario")}
	}
	if players < 2 || players > MaxPlayers {
		return nil, fmt.Errorf("toygame is for 2..%d players, not %d", MaxPlayers, players)
	}
	return setup{players}, nil
}

type setup struct{ players int }

func (s setup) Options(names []string) ([]byte, error) {
	if len(names) != s.players {
		return nil, fmt.Errorf("toygame: %d names for %d players", len(names), s.players)
	}
	return encodeNames(names)
}

// PlayerNames decodes the canonical options: the player names.
func (Game) PlayerNames(options []byte) ([]string, error) { return decodeNames(options) }

// FormatMove returns "NAME peek" or "NAME pass".
func (Game) FormatMove(s engine.State, m engine.Move) string {
	st, ok := s.(State)
	if !ok || int(m.Seat) < 0 || int(m.Seat) >= len(st.names) {
		return fmt.Sprintf("seat %d move %d", m.Seat, m.Kind)
	}
	return st.names[m.Seat] + " " + verb(m.Kind)
}

func verb(k uint8) string {
	switch k {
	case MovePeek:
		return "peek"
	case MovePass:
		return "pass"
	}
	return fmt.Sprintf("move(%d)", k)
}

// CardName names card c.
func (Game) CardName(c engine.Card) string {
	if c < 0 || int(c) >= len(cardNames) {
		return fmt.Sprintf("card(%d)", c)
	}
	return cardNames[c]
}

// Summarize returns the public result of s.
func (g Game) Summarize(s engine.State) (games.Summary, bool) {
	st, ok := s.(State)
	if !ok {
		return games.Summary{}, false
	}
	sum := games.Summary{Over: st.over, Unit: "points"}
	for i, n := range st.names {
		v := 0
		if st.over {
			v = int(st.cards[i]) + 1
		}
		sum.Scores = append(sum.Scores, games.Score{Name: n, Value: v})
	}
	if st.over {
		w := st.Winner()
		sum.Winners = []string{st.names[w]}
		sum.Head = fmt.Sprintf("%s holds the %s", st.names[w], g.CardName(st.cards[w]))
	} else {
		sum.Head = fmt.Sprintf("turn %d of %d", st.turn+1, st.total())
	}
	return sum, true
}

// FixedDeal: the options fix nothing.
func (Game) FixedDeal([]byte) bool { return false }

// ParseScript parses a toy script.
func (Game) ParseScript(src []byte, _ games.Loader) (games.Script, error) {
	const usage = "game toygame players=NAME,NAME,..."
	sc := &script{}
	err := games.ScanScript(src, 1000, usage, func(f []string) error {
		return games.HeaderPairs(f, Name, usage, func(k, v string) error {
			if k != "players" {
				return fmt.Errorf("unknown key %q", k)
			}
			sc.names = strings.Split(v, ",")
			return nil
		})
	}, func(no int, text string, f []string) error {
		if err := games.SeatLine(sc.names, f, text); err != nil {
			return err
		}
		if len(f) != 2 {
			return fmt.Errorf("expected NAME peek|pass, got %q", text)
		}
		var k uint8
		switch strings.ToLower(f[1]) {
		case "peek":
			k = MovePeek
		case "pass":
			k = MovePass
		default:
			return fmt.Errorf("unknown move %q (peek or pass)", f[1])
		}
		seat := slices.IndexFunc(sc.names, func(n string) bool { return strings.EqualFold(n, f[0]) })
		sc.lines = append(sc.lines, scriptLine{no, engine.Move{Seat: engine.Seat(seat), Kind: k}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := encodeNames(sc.names); err != nil {
		return nil, &games.ScriptError{Line: 1, Err: err}
	}
	return sc, nil
}

// Viewer returns the game's viewer.
func Viewer() seatview.Viewer { return viewer{} }

// NewBot returns a seat's bot: it peeks on its first turn, then passes.
func NewBot(s engine.State, seat engine.Seat, _ uint64) (games.Bot, error) {
	st, ok := s.(State)
	if !ok || int(seat) < 0 || int(seat) >= len(st.names) {
		return nil, fmt.Errorf("toygame: no bot for seat %d of %T", seat, s)
	}
	return &bot{seat: seat}, nil
}

type bot struct {
	seat   engine.Seat
	peeked bool
}

func (b *bot) Choose(s engine.State) (engine.Move, []bool, bool) {
	st, ok := s.(State)
	if !ok || st.Next() != (engine.Need{Kind: engine.NeedMove, Seat: b.seat}) {
		return engine.Move{}, nil, false
	}
	if !b.peeked {
		b.peeked = true
		return engine.Move{Seat: b.seat, Kind: MovePeek}, nil, true
	}
	return engine.Move{Seat: b.seat, Kind: MovePass}, nil, true
}

func (b *bot) Observe(games.Observation) {}
