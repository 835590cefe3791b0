package mafia

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// Script is a parsed scripted table:
//
//	# comments start with '#'
//	game mafia players=Anna,Boris,Clara,Dima,Egor roles=Mafioso,Civilian,Civilian,Civilian,Civilian deck=Misfire,Alibi
//	Anna hold yes                 # first day: shall we vote?
//	Anna vote Boris               # or: Anna vote abstain
//	Boris kill Clara              # a secret night choice
//	Clara play Misfire            # an incident card from Clara's hand
//	Clara pass                    # let the attack or the elimination stand
//	coin Anna                     # the next coin breaking the mafia's tie picks Anna
//	expect alive=Anna,Boris day=2 role=Clara:Civilian hand=Anna:1
//
// Header keys (all but players= optional): players= the names in seat
// order (4 to 18); specials= the special roles in play (default: the
// book's, [DefaultSpecials]); incidents=off plays without incident cards;
// tie=draw makes a tied day vote a draw; roles= fixes each seat's role, in
// seat order (the specials then default to those it names); deck= fixes
// the top of the incident deck, top first (the rest follow in canonical
// order): the first card goes to the first seat, and so on, the next ones
// are drawn in order. A fixed deal is written in the options ([Fixed]):
// the table lays it out face up instead of shuffling.
//
// Lines are moves (NAME hold yes|no, vote NAME|abstain, pass, play CARD,
// leave: [ParseMove]), secret night choices (NAME kill|save|
// date|check NAME: the mafia's or the Madman's kill, the Nurse's save,
// the Night Butterfly's date, the Commissar's check; given to the table
// carrying the night's ballots, never logged), coin lines and expect
// lines ([CheckExpect], and the fake table's private keys).
type Script struct {
	Options Options
	Lines   []ScriptLine
}

// ScriptLine is one line of a script after the header.
// Its Seat is "" for coin and expect lines; its Verb is "coin",
// "expect", a night verb or a move's verb.
type ScriptLine games.ScriptLine

// NightVerbs are the secret night choices' verbs, with their powers
// ("kill" is the Madman's power while he kills alone).
var NightVerbs = map[string]uint8{"kill": PowerKill, "save": PowerSave, "date": PowerDate, "check": PowerCheck}

// IsNightLine reports whether a line is a secret night choice.
func (l ScriptLine) IsNightLine() bool {
	_, ok := NightVerbs[l.Verb]
	return ok && l.Seat != ""
}

// ScriptError is an error tied to a line of a script (the contract's).
type ScriptError = games.ScriptError

// MaxScriptLines bounds the work a hostile script can cause.
const MaxScriptLines = 1 << 16

const headerUsage = "game mafia players=NAMES [specials=ROLES] [incidents=off] [tie=draw] [roles=ROLES] [deck=CARDS]"

// ParseScript parses a script. It checks the header; lines are checked
// when played.
func ParseScript(src []byte) (*Script, error) {
	return games.ParseHeaded(src, MaxScriptLines, headerUsage, parseHeader, func(sc *Script, no int, text string, f []string) error {
		l, err := games.ReadLine(sc.Options.Players, no, text, f, "coin", "expect")
		if err == nil {
			sc.Lines = append(sc.Lines, ScriptLine(l))
		}
		return err
	})
}

func parseCards(v string, ok func(engine.Card) bool, what string) ([]engine.Card, error) {
	var out []engine.Card
	for _, x := range strings.Split(v, ",") {
		c, err := ParseCard(x)
		if err != nil || !ok(c) {
			return nil, fmt.Errorf("%q is not %s", x, what)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseHeader(f []string) (*Script, error) {
	s := &Script{}
	var roles, deck []engine.Card
	specialsGiven := false
	err := games.HeaderPairs(f, GameName, headerUsage, func(k, v string) error {
		var err error
		switch k {
		case "players":
			s.Options.Players = strings.Split(v, ",")
		case "specials":
			specialsGiven = true
			if strings.EqualFold(v, "none") {
				s.Options.Specials = []engine.Card{}
				break
			}
			s.Options.Specials, err = parseCards(v, func(c engine.Card) bool {
				return slices.Contains(CivilSpecials, c) || slices.Contains(MafiaSpecials, c)
			}, "a special role")
		case "incidents":
			if !strings.EqualFold(v, "off") && !strings.EqualFold(v, "on") {
				return fmt.Errorf("incidents=on|off, got %q", v)
			}
			s.Options.NoIncidents = strings.EqualFold(v, "off")
		case "tie":
			if !strings.EqualFold(v, "draw") && !strings.EqualFold(v, "nobody") {
				return fmt.Errorf("tie=draw|nobody, got %q", v)
			}
			s.Options.TieDraw = strings.EqualFold(v, "draw")
		case "roles":
			roles, err = parseCards(v, IsRole, "a role")
		case "deck":
			deck, err = parseCards(v, IsIncident, "an incident card")
		default:
			return fmt.Errorf("unknown key %q (players, specials, incidents, tie, roles, deck)", k)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(s.Options.Players) == 0 {
		return nil, errors.New("header: players= is required")
	}
	if deck != nil && roles == nil {
		return nil, errors.New("header: deck= needs roles= (a fixed deal fixes both)")
	}
	if deck != nil && s.Options.NoIncidents {
		return nil, errors.New("header: deck= with incidents=off")
	}
	if roles != nil {
		if !specialsGiven {
			s.Options.Specials = []engine.Card{}
			for _, r := range roles {
				if r != Civilian && r != Mafioso {
					s.Options.Specials = append(s.Options.Specials, r)
				}
			}
		}
		s.Options.Fixed = &Fixed{Roles: roles}
		if !s.Options.NoIncidents {
			full, err := FullIncidents(deck)
			if err != nil {
				return nil, fmt.Errorf("header: deck: %w", err)
			}
			s.Options.Fixed.Incidents = full
		}
	}
	if err := s.Options.Normalize().Validate(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	return s, nil
}

// FullIncidents completes the top of an incident deck to all 20 cards:
// the listed ones first, then the rest in canonical order.
func FullIncidents(top []engine.Card) ([]engine.Card, error) {
	left := map[engine.Card]int{}
	for i, n := range IncidentCounts {
		left[Misfire+engine.Card(i)] = n
	}
	out := slices.Clone(top)
	for _, c := range top {
		if left[c]--; left[c] < 0 {
			return nil, fmt.Errorf("more %s cards than the deck holds", CardName(c))
		}
	}
	for _, c := range CanonicalIncidents() {
		if left[c] > 0 {
			left[c]--
			out = append(out, c)
		}
	}
	return out, nil
}

// CheckExpect checks a script's public expectations against s: alive=
// the living players (exactly, "none" for nobody), dead= players out of
// the game, day=N, over=yes|no, side=mafia|civilians|draw, winners=
// names, role=NAME:ROLE (revealed roles), hand=NAME:N (hand sizes),
// turn=NAME, phase=NAME ([Phase.String]), joined=yes|no, deck=N (cards
// in the incident deck), attacked=NAME:no|open|saved|dated, votes=
// NAME:NAME|abstain|none (the day vote so far).
func CheckExpect(s *State, tokens []string) error {
	names := func(ps []engine.Seat) string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = s.Name(p)
		}
		return strings.Join(out, ",")
	}
	seats := func(v string) ([]engine.Seat, error) {
		if v == "none" {
			return nil, nil
		}
		var out []engine.Seat
		for _, x := range strings.Split(v, ",") {
			p, err := s.SeatByName(x)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		slices.Sort(out)
		return out, nil
	}
	yes := func(b bool) string { return map[bool]string{true: "yes", false: "no"}[b] }
	for _, kv := range tokens {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("expect: want KEY=VALUE, got %q", kv)
		}
		var got, want string
		switch strings.ToLower(k) {
		case "alive", "winners":
			ps, err := seats(v)
			if err != nil {
				return fmt.Errorf("expect %s: %w", k, err)
			}
			want = names(ps)
			if strings.EqualFold(k, "alive") {
				got = names(s.Living())
			} else {
				got = names(s.Winners())
			}
		case "dead":
			ps, err := seats(v)
			if err != nil {
				return fmt.Errorf("expect dead: %w", err)
			}
			for _, p := range ps {
				if s.Alive(p) {
					return fmt.Errorf("expect dead: %s is alive", s.Name(p))
				}
			}
			continue
		case "day":
			got, want = strconv.Itoa(s.Day()), v
		case "over":
			got, want = yes(s.Over()), strings.ToLower(v)
		case "joined":
			got, want = yes(s.Joined()), strings.ToLower(v)
		case "side":
			got, want = s.Result().String(), strings.ToLower(v)
		case "turn":
			got, want = s.Name(s.Turn()), v
			if s.Next().Kind != engine.NeedMove {
				got = "nobody"
			}
		case "phase":
			got, want = s.Phase().String(), strings.ToLower(v)
		case "deck":
			got, want = strconv.Itoa(len(s.Pile())), v
		case "role", "hand", "attacked", "votes":
			for _, pair := range strings.Split(v, ",") {
				name, val, ok := strings.Cut(pair, ":")
				if !ok {
					return fmt.Errorf("expect %s: want NAME:VALUE, got %q", k, pair)
				}
				p, err := s.SeatByName(name)
				if err != nil {
					return fmt.Errorf("expect %s: %w", k, err)
				}
				var g string
				switch strings.ToLower(k) {
				case "role":
					g = "hidden"
					if r, ok := s.Revealed(p); ok {
						g = CardName(r)
					}
				case "hand":
					g = strconv.Itoa(len(s.Hand(p)))
				case "votes":
					switch v := s.Votes()[p]; {
					case v == -2:
						g = "none"
					case v == -1:
						g = "abstain"
					default:
						g = s.Name(engine.Seat(v))
					}
				default:
					a, sv, dt := s.Attacked(p)
					switch {
					case !a:
						g = "no"
					case sv:
						g = "saved"
					case dt:
						g = "dated"
					default:
						g = "open"
					}
				}
				if !strings.EqualFold(g, val) {
					return fmt.Errorf("expect %s: %s is %s, want %s", k, s.Name(p), g, val)
				}
			}
			continue
		default:
			return fmt.Errorf("expect: unknown key %q", k)
		}
		if !strings.EqualFold(got, want) {
			return fmt.Errorf("expect %s: got %s, want %s", k, got, want)
		}
	}
	return nil
}

// String returns the phase's name in scripts and logs.
func (p Phase) String() string {
	switch p {
	case PhaseHold:
		return "hold"
	case PhaseVote:
		return "vote"
	case PhaseDayAnswer:
		return "day-answer"
	case PhaseNightAnswer:
		return "night-answer"
	case PhaseDateAnswer:
		return "date-answer"
	case WaitKill:
		return "wait-kill"
	case WaitCoin:
		return "wait-coin"
	case WaitProtect:
		return "wait-protect"
	case WaitReveal:
		return "wait-reveal"
	case WaitDate:
		return "wait-date"
	case WaitFinal:
		return "wait-final"
	case PhaseOver:
		return "over"
	case WaitPick:
		return "wait-pick"
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}
