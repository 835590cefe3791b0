package mafia

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Card kinds. The seven roles come first, then the six incident cards,
// then the two team values and the neutral secret value that role
// tuples carry as components (docs/mafia.md §2).
const (
	Civilian  engine.Card = iota // plain civilian
	Commissar                    // checks one player a night
	Nurse                        // saves one other player a night
	Butterfly                    // the Night Butterfly: dates one other player a night
	Mafioso                      // plain mafioso
	Don                          // head of the mafia: his choice decides
	Madman                       // kills alone until he joins the mafia

	Misfire       // answers a night attack: the attack fails
	RicochetLeft  // moves a night attack to the next living seat on the left
	RicochetRight // moves a night attack to the next living seat on the right
	Alibi         // answers a day elimination: nobody is eliminated
	EvidenceLeft  // moves a day elimination to the next living seat on the left
	EvidenceRight // moves a day elimination to the next living seat on the right

	NotMafia  // the team value "not mafia"
	MafiaTeam // the team value "mafia"
	Neutral   // the neutral secret value (not the group secret)

	// NumKinds is the number of card kinds.
	NumKinds = int(Neutral) + 1
)

// TupleLen is the number of components of a role card (docs/mafia.md §2):
// role, team before the join, team after, secret before, secret after.
const TupleLen = 5

// Role tuple components.
const (
	CompRole         = 0 // the role
	CompTeamBefore   = 1 // team before the Madman joins
	CompTeamAfter    = 2 // team after the Madman joins
	CompSecretBefore = 3 // secret before the join
	CompSecretAfter  = 4 // secret after the join
)

var cardNames = [NumKinds]string{
	"Civilian", "Commissar", "Nurse", "Butterfly", "Mafioso", "Don", "Madman",
	"Misfire", "RicochetLeft", "RicochetRight", "Alibi", "EvidenceLeft", "EvidenceRight",
	"NotMafia", "Mafia", "Neutral",
}

var cardWords = [NumKinds]string{
	"Civilian", "Commissar", "Nurse", "Night Butterfly", "Mafioso", "Don", "Madman",
	"Misfire", "Ricochet (left)", "Ricochet (right)", "Alibi", "Evidence (left)", "Evidence (right)",
	"not mafia", "mafia", "neutral",
}

// CardName returns the script name of card kind c ("card(N)" if unknown).
func CardName(c engine.Card) string {
	if c < 0 || int(c) >= NumKinds {
		return fmt.Sprintf("card(%d)", int(c))
	}
	return cardNames[c]
}

// CardWords returns the name of card kind c for people ("Night
// Butterfly").
func CardWords(c engine.Card) string {
	if c < 0 || int(c) >= NumKinds {
		return fmt.Sprintf("card(%d)", int(c))
	}
	return cardWords[c]
}

// ParseCard reads a card kind by its script name (case-insensitive).
func ParseCard(name string) (engine.Card, error) {
	for i, n := range cardNames {
		if strings.EqualFold(n, name) {
			return engine.Card(i), nil
		}
	}
	return 0, fmt.Errorf("no card named %q", name)
}

// IsRole reports whether c is a role card.
func IsRole(c engine.Card) bool { return c >= Civilian && c <= Madman }

// IsIncident reports whether c is an incident card.
func IsIncident(c engine.Card) bool { return c >= Misfire && c <= EvidenceRight }

// IsMafia reports whether role r is on the mafia side (Don, Mafioso and
// the Madman, who counts as mafia for the end of the game).
func IsMafia(r engine.Card) bool { return r == Mafioso || r == Don || r == Madman }

// IsNight reports whether incident card c answers a night attack.
func IsNight(c engine.Card) bool { return c == Misfire || c == RicochetLeft || c == RicochetRight }

// IsDay reports whether incident card c answers a day elimination.
func IsDay(c engine.Card) bool { return c == Alibi || c == EvidenceLeft || c == EvidenceRight }

// Direction returns the direction a Ricochet or Evidence card moves
// what it answers: +1 left (clockwise, the next seat), -1 right, 0 for
// cards that move nothing.
func Direction(c engine.Card) int {
	switch c {
	case RicochetLeft, EvidenceLeft:
		return 1
	case RicochetRight, EvidenceRight:
		return -1
	}
	return 0
}

// Tuple returns the components of card kind c laid face up
// ([engine.Tupler]): a role is the five-component tuple of docs/mafia.md
// §2, every other card a single component, itself.
func Tuple(c engine.Card) []engine.Component {
	if !IsRole(c) {
		return []engine.Component{{Kind: c}}
	}
	secret := engine.Component{GroupSecret: true}
	neutral := engine.Component{Kind: Neutral}
	notMafia := engine.Component{Kind: NotMafia}
	mafia := engine.Component{Kind: MafiaTeam}
	switch c {
	case Don, Mafioso:
		return []engine.Component{{Kind: c}, mafia, mafia, secret, secret}
	case Madman:
		return []engine.Component{{Kind: c}, notMafia, mafia, neutral, secret}
	}
	return []engine.Component{{Kind: c}, notMafia, notMafia, neutral, neutral}
}

// IncidentCounts are the copies of each incident card in the deck, in
// card order from Misfire: 4 Misfire, 3 Ricochet left, 3 Ricochet right,
// 4 Alibi, 3 Evidence left, 3 Evidence right.
var IncidentCounts = [6]int{4, 3, 3, 4, 3, 3}

// IncidentDeckSize is the number of incident cards (20).
const IncidentDeckSize = 20

// HandLimit is the most incident cards a player holds.
const HandLimit = 3

// CanonicalIncidents returns the incident deck face up in canonical
// order (card order, copies together).
func CanonicalIncidents() []engine.Card {
	out := make([]engine.Card, 0, IncidentDeckSize)
	for i, n := range IncidentCounts {
		for range n {
			out = append(out, Misfire+engine.Card(i))
		}
	}
	return out
}

// Counts are a player count's role counts (the book's table, README item
// 5): civilian specials, mafia specials, plain mafiosi; civilians are the
// rest with every special in play, and at most MaxCivilians (the book's
// range of plain civilians for the row: 4, 5, 6, 7, 10; the box holds
// 10).
type Counts struct {
	CivilSpecials, MafiaSpecials, Mafiosi, Civilians int
	MaxCivilians                                     int
}

// MinPlayers and MaxPlayers bound the table: the book's 5 to 19 people
// less the moderator.
const (
	MinPlayers = 4
	MaxPlayers = 18
)

// CountsFor returns the role counts for n players (4 to 18).
func CountsFor(n int) (Counts, error) {
	var c Counts
	switch {
	case n < MinPlayers || n > MaxPlayers:
		return c, fmt.Errorf("mafia: %d players (%d to %d play)", n, MinPlayers, MaxPlayers)
	case n <= 5:
		c = Counts{0, 0, 1, 0, 4}
	case n <= 8:
		c = Counts{1, 0, 2, 0, 5}
	case n <= 11:
		c = Counts{2, 1, 2, 0, 6}
	case n <= 14:
		c = Counts{3, 2, 2, 0, 7}
	default:
		c = Counts{3, 2, 3, 0, 10}
	}
	c.Civilians = n - c.CivilSpecials - c.MafiaSpecials - c.Mafiosi
	return c, nil
}

// CivilSpecials and MafiaSpecials are the specials in the order the
// default deals take them.
var (
	CivilSpecials = []engine.Card{Commissar, Nurse, Butterfly}
	MafiaSpecials = []engine.Card{Don, Madman}
)

// DefaultSpecials returns the specials dealt to n players by default:
// the first of [CivilSpecials] and [MafiaSpecials] within the counts.
func DefaultSpecials(n int) []engine.Card {
	c, err := CountsFor(n)
	if err != nil {
		return nil
	}
	out := slices.Clone(CivilSpecials[:c.CivilSpecials])
	return append(out, MafiaSpecials[:c.MafiaSpecials]...)
}

// RoleDeck returns the role cards dealt to n players with the given
// specials (nil: [DefaultSpecials]) in canonical order (card order). A
// table may choose other specials within the counts, or fewer: the plain
// mafiosi are the book's count, and every other seat is a plain
// civilian, as long as their number stays within the book's range
// ([Counts.MaxCivilians]); so 18 players take every special.
func RoleDeck(n int, specials []engine.Card) ([]engine.Card, error) {
	c, err := CountsFor(n)
	if err != nil {
		return nil, err
	}
	if specials == nil {
		specials = DefaultSpecials(n)
	}
	civ, maf := 0, 0
	seen := map[engine.Card]bool{}
	for _, r := range specials {
		switch {
		case seen[r]:
			return nil, fmt.Errorf("mafia: special %s chosen twice", CardName(r))
		case slices.Contains(CivilSpecials, r):
			civ++
		case slices.Contains(MafiaSpecials, r):
			maf++
		default:
			return nil, fmt.Errorf("mafia: %s is not a special role", CardName(r))
		}
		seen[r] = true
	}
	if civ > c.CivilSpecials || maf > c.MafiaSpecials {
		return nil, fmt.Errorf("mafia: %d players take at most %d civilian and %d mafia specials (chosen: %d and %d)",
			n, c.CivilSpecials, c.MafiaSpecials, civ, maf)
	}
	civilians := n - len(specials) - c.Mafiosi
	if civilians > c.MaxCivilians {
		return nil, fmt.Errorf("mafia: %d players with %d specials need %d plain civilians, but the book's table has at most %d for %d players: choose at least %d specials",
			n, len(specials), civilians, c.MaxCivilians, n, n-c.Mafiosi-c.MaxCivilians)
	}
	deck := slices.Clone(specials)
	for range civilians {
		deck = append(deck, Civilian)
	}
	for range c.Mafiosi {
		deck = append(deck, Mafioso)
	}
	slices.Sort(deck)
	return deck, nil
}
