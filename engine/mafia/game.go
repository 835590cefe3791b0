package mafia

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/table"
)

// GameName is the game's name in rosters and script headers.
const GameName = "mafia"

// Game binds Mafia to the table layer and implements [games.Rules].
// Options travel as their canonical encoding ([Options.MarshalBinary]).
// The deal is hidden: the state implements [engine.Opening]. The night's
// secret choices are table.BodyActions entries (ballots, checks, tags),
// which sessions ask of the seats that hold a power ([games.NightBot]).
type Game struct{}

var (
	_ table.Game      = Game{}
	_ table.Opener    = Game{}
	_ games.Rules     = Game{}
	_ games.Revealer  = Game{}
	_ games.Teller    = Game{}
	_ games.Knower    = Game{}
	_ engine.ChatGate = (*State)(nil)
	_ engine.Opening  = (*State)(nil)
	_ engine.Tupler   = (*State)(nil)
)

// Name returns [GameName].
func (Game) Name() string { return GameName }

// Title returns the game's name for people.
func (Game) Title() string { return "Mafia: Random Incident" }

// Players returns 4 and 18.
func (Game) Players() (min, max int) { return MinPlayers, MaxPlayers }

// Table returns the game itself: its binding to the table layer.
func (g Game) Table() table.Game { return g }

// Opens implements table.Opener: the table carries out [State.Opening]
// instead of a deal.
// BatchViews is true: the views the rules ask for together are one
// request (table.ViewBatcher).
func (Game) BatchViews() bool { return true }

func (Game) Opens() bool { return true }

// Kinds returns the number of card kinds ([NumKinds]).
func (Game) Kinds() int { return NumKinds }

// hiddenDeal is the table binding Mafia shares with the other games
// whose deal is hidden.
var hiddenDeal = games.HiddenDeal[Options, *State]{
	Game: GameName, Unmarshal: UnmarshalOptions, Layout: deckFor, NewGame: NewGame,
	Players: func(o Options) []string { return o.Players },
}

// Deck returns the cards laid out face up before the opening, one per
// slot: the role deck (slots 0..n-1, card order) and, with incident
// cards, the 20 incident cards (slots n..n+19, canonical order).
func (Game) Deck(options []byte) ([]engine.Card, error) { return hiddenDeal.Deck(options) }

func deckFor(o Options) []engine.Card {
	d, _ := RoleDeck(len(o.Players), o.Specials)
	if !o.NoIncidents {
		d = append(d, CanonicalIncidents()...)
	}
	return d
}

// New returns the initial rules state. The deal must be nil (hidden) or
// the canonical deck of [Game.Deck].
func (Game) New(options []byte, deal []engine.Card) (engine.State, error) {
	return hiddenDeal.New(options, deal)
}

// SetupHelp describes the setup: the specials and the options.
func (Game) SetupHelp() games.SetupHelp {
	return games.SetupHelp{
		Usage: "the table's choices, SETUP a comma-separated list of special roles (Commissar, Nurse, Butterfly, Don, Madman; at most the book's counts), " +
			"no-incidents and tie-draw (default: the book's specials for the player count, incident cards, a tied vote eliminates nobody)",
		Choices: []string{"no-incidents", "tie-draw", "Commissar,Nurse,Butterfly,Don,Madman"},
		Default: "Mafia plays the book's specials for the player count, with incident cards, without --scenario",
	}
}

// Setup is a table's setup.
type Setup struct {
	Specials    []engine.Card // nil: the default
	NoIncidents bool
	TieDraw     bool
}

// Configure reads the setup chosen with --scenario for a number of
// players.
func (Game) Configure(players int, choice string, _ games.Loader) (games.Setup, error) {
	var su Setup
	if strings.TrimSpace(choice) == "" {
		return su, nil
	}
	for _, v := range strings.Split(choice, ",") {
		v = strings.TrimSpace(v)
		switch strings.ToLower(v) {
		case "no-incidents":
			su.NoIncidents = true
			continue
		case "tie-draw":
			su.TieDraw = true
			continue
		case "no-specials":
			su.Specials = []engine.Card{}
			continue
		}
		c, err := ParseCard(v)
		if err != nil || (!slices.Contains(CivilSpecials, c) && !slices.Contains(MafiaSpecials, c)) {
			return nil, &games.UsageError{Err: fmt.Errorf("--scenario: unknown choice %q", v),
				Hint: "choose special roles (Commissar, Nurse, Butterfly, Don, Madman), no-specials, no-incidents or tie-draw, comma-separated"}
		}
		su.Specials = append(su.Specials, c)
	}
	if _, err := RoleDeck(players, su.Specials); err != nil {
		return nil, &games.UsageError{Err: fmt.Errorf("--scenario: %w", err)}
	}
	return su, nil
}

// Options returns the canonical options for the seated names.
func (su Setup) Options(names []string) ([]byte, error) {
	o := Options{Players: names, Specials: su.Specials, NoIncidents: su.NoIncidents, TieDraw: su.TieDraw}
	return o.MarshalBinary()
}

// PlayerNames reads the player names back from canonical options.
func (Game) PlayerNames(options []byte) ([]string, error) { return hiddenDeal.PlayerNames(options) }

// FixedDeal reports whether options fix the deal.
func (Game) FixedDeal(options []byte) bool {
	o, err := UnmarshalOptions(options)
	return err == nil && o.Fixed != nil
}

// FormatMove is [FormatMove] for a state of this game.
func (Game) FormatMove(s engine.State, m engine.Move) string {
	return games.FormatMoveOf(s, m, FormatMove, KindName)
}

// CardName is [CardName].
func (Game) CardName(c engine.Card) string { return CardName(c) }

// CardWords is [CardWords].
func (Game) CardWords(c engine.Card) string { return CardWords(c) }

// Summarize returns the public result: over, winners, the headline, and
// the JSON fields side ("mafia", "civilians", "draw" or ""), alive (the
// living players' names) and day.
func (Game) Summarize(s engine.State) (games.Summary, bool) {
	st, ok := games.StateOf[*State](s)
	if !ok {
		return games.Summary{}, false
	}
	sum := games.Summary{Over: st.Over(), Unit: "alive"}
	alive, out := []string{}, []string{}
	for p := range engine.Seat(st.Players()) {
		v := 0
		if st.Alive(p) {
			v = 1
			alive = append(alive, st.Name(p))
		} else {
			out = append(out, st.Name(p))
		}
		sum.Scores = append(sum.Scores, games.Score{Name: st.Name(p), Value: v})
	}
	sum.Tally = "alive: " + games.ListAnd(alive, "nobody") + "; out: " + games.ListAnd(out, "nobody")
	for _, w := range st.Winners() {
		sum.Winners = append(sum.Winners, st.Name(w))
	}
	if st.Over() {
		sum.Head = fmt.Sprintf("Mafia, over on day %d: %s", st.Day(), map[Side]string{
			SideMafia: "the mafia win", SideCivilians: "the civilians win", SideDraw: "a draw"}[st.Result()])
	} else {
		sum.Head = fmt.Sprintf("Mafia, day %d (%s), %d alive", st.Day(), st.Phase(), len(alive))
	}
	sum.Fields = []games.Field{{Key: "side", Value: st.Result().String()}, {Key: "alive", Value: alive}, {Key: "day", Value: st.Day()}}
	return sum, true
}

// HiddenCards names every seat's role card and incident cards, for
// replay --reveal.
func (Game) HiddenCards(s engine.State) []games.Hidden {
	return games.HiddenCardsOf(s, func(st *State, p engine.Seat) []games.Hidden {
		out := []games.Hidden{{Slot: st.RoleSlot(p), Label: st.Name(p) + "'s role"}}
		for _, sl := range st.Hand(p) {
			out = append(out, games.Hidden{Slot: sl, Label: st.Name(p) + "'s incident card"})
		}
		return out
	})
}

// ParseScript implements [games.Rules] with [ParseScript]: a fixed deal
// travels in the options.
func (Game) ParseScript(src []byte, _ games.Loader) (games.Script, error) {
	sc, err := ParseScript(src)
	if err != nil {
		return nil, err
	}
	return games.OptionsScript{Players: sc.Options.Players, Options: sc.Options.MarshalBinary, Lines: realScript{sc}.Play}, nil
}

// realScript is a script played through the real stack.
type realScript struct{ *Script }

// ErrCoinLine: a coin line through the real stack, where coins are the
// seats' joint coins and nobody can fix them: coin lines are for the fake
// table (engine/mafia/mafiatest) only.
var ErrCoinLine = errors.New("a coin line fixes a coin, which only the fake table (engine/mafia/mafiatest) can: at a real table the coins are the seats' joint coins")

// ErrNotAsked: a script's night line for a seat the table does not ask
// for actions that night.
var ErrNotAsked = errors.New("a night choice the table does not ask for")

// NightError is a refused night line in words (the player, the rule, and
// the right move where there is one); it wraps the sentinel of its kind
// ([ErrNotAsked], or table.ErrNoChoice).
type NightError struct {
	Msg string
	Err error
}

func (e *NightError) Error() string { return e.Msg }

// Unwrap returns the sentinel.
func (e *NightError) Unwrap() error { return e.Err }

// NightRule says who makes the night choice of power, for refusals.
func NightRule(power uint8) string {
	switch power {
	case PowerKill:
		return "only the mafia choose the night's victim (the Don alone while he lives, otherwise every mafioso), and the Madman kills alone only until the first mafia member is out"
	case PowerMadman:
		return "the Madman kills alone only until the first mafia member is out; then he votes with the mafia"
	case PowerSave:
		return "only the Nurse saves, one other living player"
	case PowerDate:
		return "only the Night Butterfly spends the night with someone, one other living player"
	case PowerCheck:
		return "only the Commissar checks a player"
	}
	return "no such night power"
}

// NoNightWhy says why no night choice is due in s: it is day.
func NoNightWhy(s *State) string {
	if s.Day() == 1 {
		return "it is day 1; night 1, the recognition night, came before it and nobody acts in it: the first night choices are made at night 2, after this day"
	}
	return fmt.Sprintf("it is day %d: the night's choices are made at night, after the day's vote", s.Day())
}

// nightVerb is the script verb of power.
func nightVerb(power uint8) string {
	if power == PowerMadman {
		return "kill"
	}
	return PowerName(power)
}

// checkNight checks seat's night choices (by power) against what the
// table asks of it (ds, its decisions): every choice one of its powers,
// naming a target it may name, and every power it holds chosen.
func checkNight(s *State, seat engine.Seat, choices map[uint8]engine.Seat, ds []engine.Effect) error {
	name := s.Name(seat)
	powers := slices.Sorted(maps.Keys(choices))
	for _, pw := range powers {
		target := choices[pw]
		i := slices.IndexFunc(ds, func(d engine.Effect) bool { return d.Power == pw })
		if i < 0 {
			return &NightError{Msg: fmt.Sprintf("%s cannot %s tonight: %s", name, nightVerb(pw), NightRule(pw)), Err: ErrNotAsked}
		}
		d := ds[i]
		switch {
		case target == seat && !d.SelfAllowed:
			return &NightError{Msg: fmt.Sprintf("%s cannot %s themselves: a night choice names one other living player", name, nightVerb(pw)), Err: table.ErrNoChoice}
		case !slices.Contains(d.Targets, target):
			return &NightError{Msg: fmt.Sprintf("%s cannot %s %s: %s is out of the game, and a night choice names a living player", name, nightVerb(pw), s.Name(target), s.Name(target)), Err: table.ErrNoChoice}
		}
	}
	for _, d := range ds {
		if _, ok := choices[d.Power]; !ok {
			return &NightError{Msg: fmt.Sprintf("%s must choose whom to %s tonight (%s): add a line %q before the next move", name, nightVerb(d.Power),
				powerWhat(d.Power), name+" "+nightVerb(d.Power)+" NAME"), Err: table.ErrNoChoice}
		}
	}
	return nil
}

// powerWhat says what night power is, for refusals ("a mafia vote").
func powerWhat(power uint8) string {
	return map[uint8]string{PowerKill: "a mafia vote", PowerMadman: "the Madman's own victim", PowerSave: "the Nurse's save", PowerDate: "the Night Butterfly's date", PowerCheck: "the Commissar's check"}[power]
}

// PowerWords implements [engine.PowerTeller]: the script verb of power
// ("kill") and what it is ("a mafia vote").
func (s *State) PowerWords(power uint8) (verb, what string) {
	if powerWhat(power) == "" {
		return "make that night choice", fmt.Sprintf("a night power Mafia does not have (number %d)", power)
	}
	return nightVerb(power), powerWhat(power)
}

// Knowledge implements [games.Knower]: a *[Knowledge] ([KnowledgeOf]),
// nil when s is not a Mafia state.
func (Game) Knowledge(s engine.State, pl *table.Player, t *table.Table) any {
	st, ok := games.StateOf[*State](s)
	if !ok || pl == nil || t == nil {
		return nil
	}
	return KnowledgeOf(st, pl, t)
}

func holds(ds []engine.Effect, power uint8) bool {
	return slices.ContainsFunc(ds, func(d engine.Effect) bool { return d.Power == power })
}

// MayChat implements [engine.ChatGate]: the dead may read the table chat
// but not write in it, until the game is over.
func (s *State) MayChat(seat engine.Seat) bool { return s.Over() || s.Alive(seat) }

// Play plays the lines on t: moves (an incident card named by the seat's
// own knowledge when t is a [games.KnowingTable]), expect lines and, when
// t is a [games.ActingTable], the night's secret choices. A night line
// gives its seat's choice; the choices are posted, seat by seat in the
// order the table asks, when the next line that is not a night line comes
// (or the script ends): a seat without a line posts no choice.
func (sc realScript) Play(t games.Table) error {
	night := map[engine.Seat]map[uint8]engine.Seat{}
	lineOf := map[engine.Seat]int{}   // the last night line of each seat
	verbOf := map[engine.Seat]uint8{} // the power of that line
	lastNight := 0
	flush := func(lineNo int) error {
		at, ok := t.(games.ActingTable)
		if !ok {
			if len(night) > 0 {
				return &games.ScriptError{Line: lastNight, Err: errors.New("this table cannot carry out night choices")}
			}
			return nil
		}
		if _, due := at.ActionsDue(); !due && len(night) > 0 {
			st, _ := t.Rules().(*State)
			seat := firstLine(night, lineOf)
			if st != nil {
				return &games.ScriptError{Line: lineOf[seat], Err: &NightError{
					Msg: fmt.Sprintf("%s cannot %s now: %s", st.Name(seat), nightVerb(verbOf[seat]), NoNightWhy(st)), Err: ErrNotAsked}}
			}
		}
		for {
			seat, due := at.ActionsDue()
			if !due {
				break
			}
			st, _ := t.Rules().(*State)
			choices := night[seat]
			if v, ok := choices[PowerKill]; ok && !holds(at.Decisions(seat), PowerKill) && holds(at.Decisions(seat), PowerMadman) {
				// "kill" is the Madman's own kill while he kills alone.
				delete(choices, PowerKill)
				choices[PowerMadman] = v
			}
			if st != nil {
				if err := checkNight(st, seat, choices, at.Decisions(seat)); err != nil {
					line := lineOf[seat]
					if line == 0 {
						line = lineNo
					}
					return &games.ScriptError{Line: line, Err: err}
				}
			}
			if err := at.Act(seat, choices); err != nil {
				line := lineOf[seat]
				if line == 0 {
					line = lineNo
				}
				name := fmt.Sprintf("seat %d", seat)
				if st != nil {
					name = st.Name(seat)
				}
				return &games.ScriptError{Line: line, Err: fmt.Errorf("%s's night actions: %w", name, err)}
			}
			delete(night, seat)
		}
		if len(night) > 0 {
			// Seats the table did not ask: out of the game, or holding no
			// power tonight (their empty choice went by itself).
			seat := firstLine(night, lineOf)
			st, _ := t.Rules().(*State)
			err := error(ErrNotAsked)
			switch pw := verbOf[seat]; {
			case st == nil:
			case !st.Alive(seat):
				err = &NightError{Msg: fmt.Sprintf("%s cannot %s: %s is out of the game and makes no night choices", st.Name(seat), nightVerb(pw), st.Name(seat)), Err: ErrNotAsked}
			default:
				err = &NightError{Msg: fmt.Sprintf("%s cannot %s tonight: %s", st.Name(seat), nightVerb(pw), NightRule(pw)), Err: ErrNotAsked}
			}
			return &games.ScriptError{Line: lineOf[seat], Err: err}
		}
		clear(lineOf)
		clear(verbOf)
		lastNight = 0
		return nil
	}
	for _, l := range sc.Lines {
		st, err := games.StartedRules[*State](t, l.LineNo)
		if err != nil {
			return err
		}
		if l.IsNightLine() {
			p, err := st.SeatByName(l.Seat)
			if err != nil {
				return &games.ScriptError{Line: l.LineNo, Err: err}
			}
			if len(l.Tokens) != 2 {
				return &games.ScriptError{Line: l.LineNo, Err: fmt.Errorf("expected %s %s NAME", l.Seat, l.Verb)}
			}
			q, err := st.SeatByName(l.Tokens[1])
			if err != nil {
				return &games.ScriptError{Line: l.LineNo, Err: err}
			}
			power := NightVerbs[l.Verb]
			if night[p] == nil {
				night[p] = map[uint8]engine.Seat{}
			}
			night[p][power] = q
			lineOf[p], lastNight, verbOf[p] = l.LineNo, l.LineNo, power
			continue
		}
		if err := flush(l.LineNo); err != nil {
			return err
		}
		st, _ = t.Rules().(*State)
		switch l.Verb {
		case "expect":
			if err := CheckExpect(st, l.Tokens); err != nil {
				return &games.ScriptError{Line: l.LineNo, Err: err}
			}
			continue
		case "coin":
			return &games.ScriptError{Line: l.LineNo, Err: ErrCoinLine}
		}
		if err := games.PlayMoveLine(t, st, l.LineNo, l.Seat, l.Tokens, NameHidden, ParseMove); err != nil {
			return err
		}
	}
	return flush(0)
}

// firstLine returns the seat of night whose line (lineOf) comes first.
func firstLine(night map[engine.Seat]map[uint8]engine.Seat, lineOf map[engine.Seat]int) engine.Seat {
	best := NoSeat
	for p := range night {
		if best == NoSeat || lineOf[p] < lineOf[best] {
			best = p
		}
	}
	return best
}
