package mascarade

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/masque-games/masque/engine/masquerade"
)

// Script is a parsed scripted table (the format of issue 3):
//
//	# comments start with '#'
//	game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Thief,King,Judge,Bishop,Cheat
//	Anna swap Boris yes
//	Dima claim King
//	Anna challenge
//
// The header takes players=NAMES and optionally deal=CHARACTERS (one per
// slot, in slot order), set=CHARACTERS (a custom set), coins=N and, as an
// extension, centre=N (centre cards with 6+ players; by default implied by
// the size of deal= or set=, else 0). Each later line is SEAT VERB ARGS;
// lines are turned into moves against a state with [ParseMove].
//
// Scenario is always "" in the 1st edition.
type Script = masquerade.Script[Options, ed]

// ScriptLine is one action line of a script.
type ScriptLine = masquerade.ScriptLine

// ScriptError is an error tied to a line of a script.
type ScriptError = masquerade.ScriptError

// ParseScript parses a script. It checks the header's options against the
// book's constraints and that every line names a player; the moves
// themselves are checked when played.
func ParseScript(src []byte) (*Script, error) {
	return masquerade.ParseScript(src, parseHeader)
}

const headerUsage = "game mascarade players=NAMES [deal=...] [set=...] [coins=N]"

func parseHeader(fields []string) (*Script, error) {
	var h masquerade.CommonHeader
	center := -1
	err := h.Read(fields, GameName, headerUsage, ParseCards, func(k, v string) error {
		var err error
		switch k {
		case "centre", "center":
			center, err = strconv.Atoi(v)
			if err == nil && (center < 0 || center > 2) {
				err = fmt.Errorf("%s=%s: must be 0, 1 or 2", k, v)
			}
		default:
			err = fmt.Errorf("unknown key %q (players, deal, set, coins, centre)", k)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s := &Script{Options: Options{Players: h.Players, Set: h.Set, Coins: h.Coins}, Deal: h.Deal}
	p := len(s.Options.Players)
	if s.Deal != nil && s.Options.Set != nil {
		if !masquerade.SameCards(s.Deal, s.Options.Set) {
			return nil, fmt.Errorf("header: deal=%s does not use the cards of set=%s", FormatCards(s.Deal), FormatCards(s.Options.Set))
		}
	}
	if s.Options.Set == nil && s.Deal != nil {
		s.Options.Set = slices.Clone(s.Deal)
	}
	switch {
	case center >= 0:
		s.Options.Center = center
	case p >= 6 && s.Options.Set != nil:
		s.Options.Center = len(s.Options.Set) - p
	}
	n := s.Options.Normalize()
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if s.Deal != nil {
		if want := n.Cards(); len(s.Deal) != want {
			return nil, fmt.Errorf("header: deal has %d cards, the table has %d slots", len(s.Deal), want)
		}
	}
	return s, nil
}
