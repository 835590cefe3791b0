package games

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxNameLen is the longest player name, in bytes.
const MaxNameLen = 32

// ErrNameForm is the error of a name that is not 1 to [MaxNameLen]
// letters, digits, '_' or '-' ([CheckNameForm]).
var ErrNameForm = errors.New("want 1..32 letters, digits, '_' or '-'")

// NameChecker is implemented by a game (or its table binding) whose player names follow a rule
// of its own beyond the form every game's names share ([CheckNameForm]):
// Mascarade's players may not take a slot's name ("centre1").
type NameChecker interface {
	// CheckName returns why name, of the shared form, cannot be a
	// player's name in the game (the rule, in words); nil if it can.
	CheckName(name string) error
}

// CheckNameForm checks the form every game's player names share: 1 to
// [MaxNameLen] bytes of letters, digits, '_' or '-', so that a name
// stands in a roster, a script line (SEAT VERB ARGS, players=A,B) and on
// a screen as it is: no spaces, punctuation, control or bidi characters.
// Its error wraps [ErrNameForm].
func CheckNameForm(name string) error {
	if name == "" || len(name) > MaxNameLen || !utf8.ValidString(name) {
		return ErrNameForm
	}
	for _, r := range name {
		switch {
		case r == '_' || r == '-':
		case r >= '0' && r <= '9':
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r > 127 && unicode.IsLetter(r):
		default:
			return ErrNameForm
		}
	}
	return nil
}

// CheckName checks name as a player's name at a table of g: the shared
// form ([CheckNameForm]), then the game's own rule if it has one
// ([NameChecker], implemented by g or by its table binding,
// [Rules.Table]). The error says the rule broken, naming the game for
// its own.
func CheckName(g Rules, name string) error {
	if err := CheckNameForm(name); err != nil {
		return err
	}
	nc, ok := g.(NameChecker)
	if !ok {
		nc, ok = g.Table().(NameChecker)
	}
	if ok {
		if err := nc.CheckName(name); err != nil {
			return fmt.Errorf("%s: %w", g.Title(), err)
		}
	}
	return nil
}
