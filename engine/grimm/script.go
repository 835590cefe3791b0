package grimm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Script is a parsed scripted table:
//
//	# comments start with '#'
//	game grimm players=Kristina,Alexander,Maria [variants=bets,jewels]
//	round 1 chars=RedRidingHood,EvilQueen,Beast items=GlassSlipper,Crown,Mirror,Clock,Treats actions=toast,dance first=Kristina
//	Kristina pick GlassSlipper
//	Alexander pick Crown
//	random Boris=Crown         # what the next coin's random picks must give
//	expect roses=Kristina:1 tokens=Maria:Beast unmasked=Alexander
//
// A round line fixes what the table deals in that round (all keys
// optional): chars= the characters in character-slot order (the seats'
// first, one each, or two each with 2 players; the rest of the 8 go to the
// character deck in card order unless listed too), items= the top of the
// item deck, top first (the draft row is the first players+2, or 6 with 2
// players; the rest of the 48 follow in canonical order), actions= the
// round's two action cards, first= the round's first player. A random line
// fixes what the next Dance or Exchange coin gives: NAME=ITEM for the item
// each named seat passes (for an Exchange, the target's two items as
// NAME=ITEM,ITEM). The table running the script (package grimmtest)
// deals accordingly and searches coins with [State.PreviewCoin] until one
// gives the wanted outcome. Every other line is SEAT VERB ARGS
// ([ParseMove]) or an expect line, checked by the runner.
type Script struct {
	Options Options
	Rounds  map[int]RoundSpec
	Lines   []ScriptLine
}

// RoundSpec fixes one round's deal in a script; nil or empty fields are
// left to chance.
type RoundSpec struct {
	Chars   []engine.Card
	Items   []engine.Card
	Actions []Action
	First   string
}

// ScriptLine is one line of a script after the header and round lines.
// Its Seat is "" for random and expect lines; its Verb is "random",
// "expect", or a move's verb.
type ScriptLine games.ScriptLine

// ScriptError is an error tied to a line of a script (the contract's).
type ScriptError = games.ScriptError

// MaxScriptLines bounds the work a hostile script can cause.
const MaxScriptLines = 1 << 16

// ParseScript parses a script. It checks the header and the round lines;
// the moves are checked when played.
func ParseScript(src []byte) (*Script, error) {
	return games.ParseHeaded(src, MaxScriptLines, "game grimm players=...", parseHeader, func(sc *Script, no int, text string, f []string) error {
		if strings.EqualFold(f[0], "round") {
			return sc.parseRound(f[1:])
		}
		l, err := games.ReadLine(sc.Options.Players, no, text, f, "random", "expect")
		if err == nil {
			sc.Lines = append(sc.Lines, ScriptLine(l))
		}
		return err
	})
}

func (s *Script) hasPlayer(name string) bool {
	for _, p := range s.Options.Players {
		if strings.EqualFold(p, name) {
			return true
		}
	}
	return false
}

const headerUsage = "game grimm players=NAMES [variants=bets,jewels]"

func parseHeader(f []string) (*Script, error) {
	s := &Script{Rounds: map[int]RoundSpec{}}
	err := games.HeaderPairs(f, GameName, headerUsage, func(k, v string) error {
		switch k {
		case "players":
			s.Options.Players = strings.Split(v, ",")
		case "variants":
			for _, x := range strings.Split(strings.ToLower(v), ",") {
				switch x {
				case "bets":
					s.Options.Bets = true
				case "jewels":
					s.Options.Jewels = true
				case "abilities":
					s.Options.Abilities = true
				default:
					return fmt.Errorf("unknown variant %q (bets, jewels, abilities)", x)
				}
			}
		default:
			return fmt.Errorf("unknown key %q (players, variants)", k)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.Options.Players) == 0 {
		return nil, errors.New("header: players= is required")
	}
	if err := s.Options.Normalize().Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	return s, nil
}

func (s *Script) parseRound(f []string) error {
	if len(f) == 0 {
		return errors.New("round: want the round number N then KEY=VALUE pairs (round N KEY=VALUE ...)")
	}
	r, err := strconv.Atoi(f[0])
	if err != nil || r < 1 || r > Rounds {
		return fmt.Errorf("round: bad round number %q", f[0])
	}
	if _, dup := s.Rounds[r]; dup {
		return fmt.Errorf("round %d given twice", r)
	}
	var spec RoundSpec
	n := len(s.Options.Players)
	for _, kv := range f[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return fmt.Errorf("round: expected KEY=VALUE, got %q", kv)
		}
		list := strings.Split(v, ",")
		switch strings.ToLower(k) {
		case "chars":
			var used [NumKinds]bool
			for _, x := range list {
				c, err := ParseCharacter(x)
				if err != nil {
					return fmt.Errorf("round: %w", err)
				}
				if used[c] {
					return fmt.Errorf("round: %s dealt twice", CardName(c))
				}
				used[c] = true
				spec.Chars = append(spec.Chars, c)
			}
			seats := n
			if n == 2 {
				seats = 4
			}
			if len(spec.Chars) < seats {
				return fmt.Errorf("round: chars= names %d characters, the seats hold %d", len(spec.Chars), seats)
			}
		case "items":
			var cnt [NumKinds]int
			for _, x := range list {
				it, err := ParseItem(x)
				if err != nil {
					return fmt.Errorf("round: %w", err)
				}
				if cnt[it]++; cnt[it] > ItemCopies {
					return fmt.Errorf("round: more than %d %s", ItemCopies, CardName(it))
				}
				spec.Items = append(spec.Items, it)
			}
		case "actions":
			if len(list) != 2 {
				return errors.New("round: actions= names two action cards")
			}
			for _, x := range list {
				a, err := ParseAction(x)
				if err == nil && a == MaskOff {
					return errors.New("round: Mask off! is always in play, not drawn: actions= names the round's two drawn action cards")
				}
				if err != nil {
					return fmt.Errorf("round: bad action card %q", x)
				}
				spec.Actions = append(spec.Actions, a)
			}
			if spec.Actions[0] == spec.Actions[1] {
				return errors.New("round: the two action cards must differ")
			}
		case "first":
			if !s.hasPlayer(v) {
				return fmt.Errorf("round: no player named %q", v)
			}
			spec.First = v
		default:
			return fmt.Errorf("round: unknown key %q (chars, items, actions, first)", k)
		}
	}
	// Checked here, so that a mistake names this line, not the header.
	if _, err := s.Options.Normalize().FixRound(spec); err != nil {
		return fmt.Errorf("round %d: %w", r, err)
	}
	s.Rounds[r] = spec
	return nil
}

// FullChars completes a round's chars= list to all 8 character slots: the
// listed ones first, then the others in card order.
func FullChars(listed []engine.Card) []engine.Card {
	out := append([]engine.Card(nil), listed...)
	for _, c := range Characters() {
		if !containsCard(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// FullItems completes an items= list to the whole deck of 48: the listed
// ones first, then the rest in canonical order.
func FullItems(listed []engine.Card) []engine.Card {
	var left [NumKinds]int
	for _, it := range Items() {
		left[it] = ItemCopies
	}
	out := append([]engine.Card(nil), listed...)
	for _, it := range listed {
		left[it]--
	}
	for _, it := range Items() {
		for range left[it] {
			out = append(out, it)
		}
	}
	return out
}

func containsCard(v []engine.Card, c engine.Card) bool {
	for _, x := range v {
		if x == c {
			return true
		}
	}
	return false
}
