package mafia

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// Powers: the night actions, bound into every ballot, tally and check
// proof ([engine.Effect].Power).
const (
	PowerKill   uint8 = iota + 1 // the mafia's kill
	PowerMadman                  // the Madman's kill, until he joins
	PowerSave                    // the Nurse's save
	PowerDate                    // the Night Butterfly's date
	PowerCheck                   // the Commissar's check
)

// PowerName returns a power's name ("kill", "madman", "save", "date",
// "check").
func PowerName(p uint8) string {
	switch p {
	case PowerKill:
		return "kill"
	case PowerMadman:
		return "madman"
	case PowerSave:
		return "save"
	case PowerDate:
		return "date"
	case PowerCheck:
		return "check"
	}
	return "power(?)"
}

// Move kinds.
const (
	MoveHold  uint8 = iota + 1 // first day: Args[0] 1 to hold the vote, 0 not to
	MoveVote                   // day vote: Args[0] the seat named, or -1 to abstain
	MovePass                   // answer nothing: the attack or elimination stands
	MoveCard                   // play an incident card: Args [card, hand slot, 0]
	MoveLeave                  // leave the game (any living seat, whenever a move is due)
)

// Phase is what the game is doing now.
type Phase uint8

// Phases. The ones named Wait... wait for facts (NeedFacts); Hold, Vote
// and the answers wait for a move.
const (
	PhaseHold        Phase = iota + 1 // first day: shall we vote?
	PhaseVote                         // the day vote
	PhaseDayAnswer                    // the player chosen may play Alibi or Evidence
	PhaseNightAnswer                  // an attacked player may play Misfire or Ricochet
	PhaseDateAnswer                   // the Butterfly's date may play a Misfire
	WaitKill                          // the kill tallies
	WaitCoin                          // the coin breaking the mafia's tie
	WaitProtect                       // the save and date tallies at the attacked seats
	WaitReveal                        // the roles of the eliminated
	WaitDate                          // the Butterfly's date tally
	WaitFinal                         // every living role, at the end
	PhaseOver                         // the game is over
	WaitPick                          // a one-vote or plurality kill's victim, and the Madman's
)

// Side is a game's result.
type Side uint8

// Results.
const (
	SideNone      Side = iota // the game goes on
	SideCivilians             // every mafia member is out
	SideMafia                 // at most one civilian is left
	SideDraw                  // a tied day vote, with the TieDraw option
)

// String returns "civilians", "mafia", "draw" or "".
func (s Side) String() string {
	switch s {
	case SideCivilians:
		return "civilians"
	case SideMafia:
		return "mafia"
	case SideDraw:
		return "draw"
	}
	return ""
}

// Protection of an attacked seat, learnt from the tallies.
const (
	protUnknown   uint8 = iota
	protNone            // neither saved nor dated
	protSaved           // saved by the Nurse
	protDated           // with the Night Butterfly
	protSavedDate       // both
)

// after says what follows an elimination.
type after uint8

const (
	afterNight1 after = iota + 1 // night deaths by attack: then the Butterfly's date
	afterNight2                  // the night's last deaths: then the day
	afterDay                     // the day's elimination: then the night
	afterLeave                   // a leave: then back to what was interrupted
)

// NoSeat marks "nobody" in seat fields.
const NoSeat engine.Seat = -1

// State is the public rules state of a game of Mafia. It never holds a
// hidden card: roles are known only once revealed. Values are immutable.
type State struct {
	opts  Options
	n     int
	deck  []engine.Card // the role cards in play, canonical order
	role  []engine.Card // per seat: the revealed role, or -1
	alive []bool
	left  []bool // per seat: left the game (rather than eliminated)
	hands [][]engine.Slot
	pile  []engine.Slot // the incident deck, top first
	stale bool          // cards went back to the deck since its last shuffle

	joined   bool // the Madman has joined the mafia
	tagRound int
	day      int
	phase    Phase
	turn     engine.Seat

	hold  []int8 // first day: -1 not yet, 0 no, 1 yes
	votes []int  // day vote: -2 not yet, -1 abstain, else the seat named

	// Night.
	powers  []uint8       // the powers whose ballots were posted tonight
	targets []engine.Seat // tonight's ballot targets
	tied    []engine.Seat // the mafia's tie, for the coin
	// plural: tonight's kill is a plurality kill (three or more kill
	// holders, no Don: docs/mafia.md §11.3, L1; mental SPEC §9.9): the
	// table opens only the pick, the plurality target with the Madman's
	// added.
	plural bool
	// oneVote: tonight's kill is a one-vote kill (exactly two kill
	// holders, no Don: docs/mafia.md §11.3, L1); voteTest is then the
	// shuffled code sum whose blinded identity test is due.
	oneVote   bool
	voteTest  int
	madVictim engine.Seat // the Madman's victim tonight, or NoSeat
	attacked  []bool
	prot      []uint8
	asked     []engine.Seat // the seats whose protection tallies are due
	queue     []engine.Seat // attacked seats still to answer, first first
	dying     []engine.Seat
	bflyHit   bool // the Butterfly was attacked and not saved, and died of it
	// answered: the seats that answered an attack with a card tonight
	// while the date ballots were posted; fwd: the date tally due is the
	// sum of their date ballots at the living targets.
	answered  []engine.Seat
	fwd       bool
	date      engine.Seat
	condemned engine.Seat

	// Eliminations.
	elim     []engine.Seat
	then     after
	resume   Phase
	drawsDue int
	joinDue  bool

	side Side
}

// NewGame returns the state before the opening for options o.
func NewGame(o Options) (*State, error) {
	o = o.Normalize()
	if err := o.Validate(); err != nil {
		return nil, err
	}
	n := len(o.Players)
	deck, _ := RoleDeck(n, o.Specials)
	s := &State{
		opts: o, n: n, deck: deck,
		role:  make([]engine.Card, n),
		alive: make([]bool, n),
		left:  make([]bool, n),
		hands: make([][]engine.Slot, n),
		day:   1, phase: PhaseHold,
		date: NoSeat, condemned: NoSeat, madVictim: NoSeat,
	}
	for i := range n {
		s.role[i] = -1
		s.alive[i] = true
	}
	s.resetVotes()
	if !o.NoIncidents {
		for i := range IncidentDeckSize {
			s.pile = append(s.pile, engine.Slot(n+i))
		}
		for p := range n {
			s.hands[p] = []engine.Slot{s.pile[0]}
			s.pile = s.pile[1:]
		}
	}
	s.tagRound = 1
	s.turn = s.firstVoter()
	return s, nil
}

func (s *State) clone() *State {
	c := *s
	c.deck = slices.Clone(s.deck)
	c.role = slices.Clone(s.role)
	c.alive = slices.Clone(s.alive)
	c.left = slices.Clone(s.left)
	c.hands = make([][]engine.Slot, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	c.pile = slices.Clone(s.pile)
	c.hold = slices.Clone(s.hold)
	c.votes = slices.Clone(s.votes)
	c.powers = slices.Clone(s.powers)
	c.targets = slices.Clone(s.targets)
	c.tied = slices.Clone(s.tied)
	c.answered = slices.Clone(s.answered)
	c.attacked = slices.Clone(s.attacked)
	c.prot = slices.Clone(s.prot)
	c.asked = slices.Clone(s.asked)
	c.queue = slices.Clone(s.queue)
	c.dying = slices.Clone(s.dying)
	c.elim = slices.Clone(s.elim)
	return &c
}

// Options returns the table's normalized options.
func (s *State) Options() Options { return s.opts }

// Players returns the number of seats.
func (s *State) Players() int { return s.n }

// Name returns seat p's name.
func (s *State) Name(p engine.Seat) string {
	if p < 0 || int(p) >= s.n {
		return "nobody"
	}
	return s.opts.Players[p]
}

// SeatByName returns the seat of the player called name
// (case-insensitive).
func (s *State) SeatByName(name string) (engine.Seat, error) {
	for i, p := range s.opts.Players {
		if equalFold(p, name) {
			return engine.Seat(i), nil
		}
	}
	return NoSeat, errNoPlayer(name)
}

// RoleDeck returns the role cards in play, canonical order.
func (s *State) RoleDeck() []engine.Card { return slices.Clone(s.deck) }

// Incidents reports whether incident cards are in play.
func (s *State) Incidents() bool { return !s.opts.NoIncidents }

// RoleSlot returns the slot of seat p's role card (slot p).
func (s *State) RoleSlot(p engine.Seat) engine.Slot { return engine.Slot(p) }

// Alive reports whether seat p is still in the game.
func (s *State) Alive(p engine.Seat) bool { return p >= 0 && int(p) < s.n && s.alive[p] }

// Left reports whether seat p left the game (rather than being
// eliminated).
func (s *State) Left(p engine.Seat) bool { return p >= 0 && int(p) < s.n && s.left[p] }

// Living returns the living seats in seat order.
func (s *State) Living() []engine.Seat {
	var out []engine.Seat
	for p := range engine.Seat(s.n) {
		if s.alive[p] {
			out = append(out, p)
		}
	}
	return out
}

// Revealed returns seat p's role if it was revealed (an eliminated seat,
// or every seat at the end).
func (s *State) Revealed(p engine.Seat) (engine.Card, bool) {
	if p < 0 || int(p) >= s.n || s.role[p] < 0 {
		return 0, false
	}
	return s.role[p], true
}

// Hand returns the slots of seat p's incident cards.
func (s *State) Hand(p engine.Seat) []engine.Slot {
	if p < 0 || int(p) >= s.n {
		return nil
	}
	return slices.Clone(s.hands[p])
}

// Pile returns the incident deck's slots, top first.
func (s *State) Pile() []engine.Slot { return slices.Clone(s.pile) }

// Joined reports whether the Madman has joined the mafia.
func (s *State) Joined() bool { return s.joined }

// Day returns the day number (night k comes before day k; night 1 is the
// recognition night).
func (s *State) Day() int { return s.day }

// Phase returns what the game is doing now.
func (s *State) Phase() Phase { return s.phase }

// Turn returns the seat whose move is due (when a move is due).
func (s *State) Turn() engine.Seat { return s.turn }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == PhaseOver }

// Result returns the winning side (SideNone while the game goes on).
func (s *State) Result() Side { return s.side }

// Winners returns the seats of the winning side, in seat order (dead
// ones included); none for a draw or a game going on.
func (s *State) Winners() []engine.Seat {
	if s.phase != PhaseOver {
		return nil
	}
	var out []engine.Seat
	for p := range engine.Seat(s.n) {
		r := s.role[p]
		if r < 0 {
			continue
		}
		if (s.side == SideMafia && IsMafia(r)) || (s.side == SideCivilians && !IsMafia(r)) {
			out = append(out, p)
		}
	}
	return out
}

// Condemned returns the seat a day vote or an Evidence card is
// eliminating now (during [PhaseDayAnswer]), or [NoSeat].
func (s *State) Condemned() engine.Seat { return s.condemned }

// Attacked reports whether seat p was attacked tonight (once the night's
// tallies are open), and, once known, whether it was saved or dated.
func (s *State) Attacked(p engine.Seat) (attacked, saved, dated bool) {
	if p < 0 || int(p) >= len(s.attacked) || !s.attacked[p] {
		return false, false, false
	}
	pr := s.prot[p]
	return true, pr == protSaved || pr == protSavedDate, pr == protDated || pr == protSavedDate
}

// Votes returns the day vote so far: per seat, the seat it named, -1 for
// an abstention, -2 for no vote yet.
func (s *State) Votes() []int { return slices.Clone(s.votes) }

// Holds returns the first day's "shall we vote" answers: per seat 1 yes,
// 0 no, -1 not yet.
func (s *State) Holds() []int8 { return slices.Clone(s.hold) }

// InPlay reports whether role r is in the deck and not yet revealed
// dead (it may be any living seat's).
func (s *State) InPlay(r engine.Card) bool { return s.inPlay(r) > 0 }

// inPlay counts the cards of role r in the deck not yet revealed by an
// elimination (public: the deck is public and every elimination reveals).
func (s *State) inPlay(r engine.Card) int {
	n := 0
	for _, c := range s.deck {
		if c == r {
			n++
		}
	}
	for p := range s.n {
		if !s.alive[p] && s.role[p] == r {
			n--
		}
	}
	return n
}

// AttacksMerged reports whether tonight's kill tally and the Madman's
// are one tally of their ballots added together (docs/mafia.md §11.3,
// L2): the Madman has a ballot of his own and the mafia's kill has one
// holder in play (the Don, or a lone kill holder), so its ballots sum to
// one vote and no majority needs the counts apart.
func (s *State) AttacksMerged() bool {
	return slices.Contains(s.powers, PowerMadman) && !s.KillMixed()
}

// KillMixed reports whether tonight's kill is shuffled before anything
// opens (docs/mafia.md §11.3, L1): without the Don, several kill holders
// are in play, so the mafia's votes decide by majority. With exactly two
// holders it is a one-vote kill ([State.KillOneVote]); with three or
// more, a plurality kill ([State.KillPlurality]). Either opens only the
// victim (with the Madman's added when he has a ballot).
func (s *State) KillMixed() bool {
	return !s.InPlay(Don) && s.killHolders() > 1
}

// KillPlurality reports whether tonight's kill is a plurality kill
// (docs/mafia.md §11.3, L1; mental SPEC §9.9): no Don and three or more
// kill holders in play (public: the role deck less the revealed dead).
// The most votes decide, a tie uniformly among the tied targets, and only
// the victim opens (with the Madman's added when he has a ballot): no
// count, no coin, the same entries whether the holders agreed or split.
func (s *State) KillPlurality() bool {
	return !s.InPlay(Don) && s.killHolders() > 2
}

// KillOneVote reports whether tonight's kill is a one-vote kill
// (docs/mafia.md §11.3, L1; mental SPEC §9.8): no Don and exactly two
// kill holders in play, counted from the public role deck less the roles
// the eliminations revealed. With two votes, "the majority, a tie by a
// uniform coin" is "a uniformly random one of the two votes": the kill
// ballots' code sums are shuffled and tested in the shuffled order until
// the first that is a vote, and only that vote's target opens (with the
// Madman's added when he has a ballot).
func (s *State) KillOneVote() bool {
	return !s.InPlay(Don) && s.killHolders() == 2
}

// killHolders counts the cards of the kill's holding roles in play.
func (s *State) killHolders() int {
	n := 0
	for _, r := range s.KillRoles() {
		n += s.inPlay(r)
	}
	return n
}

// MafiaAlive and CiviliansAlive count the living players of each side:
// public, since the role deck is public and every elimination reveals
// the role.
func (s *State) MafiaAlive() int {
	n := 0
	for _, c := range s.deck {
		if IsMafia(c) {
			n++
		}
	}
	for p := range s.n {
		if !s.alive[p] && IsMafia(s.role[p]) {
			n--
		}
	}
	return n
}

// CiviliansAlive counts the living civilians (every role but the mafia's).
func (s *State) CiviliansAlive() int { return len(s.Living()) - s.MafiaAlive() }

// RoleKinds returns the distinct roles dealt at this table, in kind
// order: every role a seat's card may be (the Roles of its ballots and
// checks, within which a seat that holds no power proves what it is).
func (s *State) RoleKinds() []engine.Card {
	out := slices.Clone(s.deck)
	slices.Sort(out)
	return slices.Compact(out)
}

// KillRoles returns the roles that hold the mafia's kill now: the Don
// while he lives, else the mafiosi (and the Madman once he has joined).
func (s *State) KillRoles() []engine.Card {
	if s.InPlay(Don) {
		return []engine.Card{Don}
	}
	if s.joined && s.InPlay(Madman) {
		return []engine.Card{Mafioso, Madman}
	}
	return []engine.Card{Mafioso}
}

// Neighbour returns the next living seat from p in direction dir (+1
// left, the next seat clockwise; -1 right), skipping eliminated seats;
// NoSeat if none.
func (s *State) Neighbour(p engine.Seat, dir int) engine.Seat {
	for k := 1; k < s.n; k++ {
		q := engine.Seat(((int(p)+dir*k)%s.n + s.n) % s.n)
		if s.alive[q] {
			return q
		}
	}
	return NoSeat
}

// NightPowers returns the powers posted tonight (during a night's
// resolution).
func (s *State) NightPowers() []uint8 { return slices.Clone(s.powers) }

// Next reports what the rules wait for.
func (s *State) Next() engine.Need {
	switch s.phase {
	case PhaseOver:
		return engine.Need{Kind: engine.NeedNothing}
	case WaitKill, WaitCoin, WaitProtect, WaitReveal, WaitDate, WaitFinal, WaitPick:
		return engine.Need{Kind: engine.NeedFacts}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: s.turn}
}

// Tuple implements [engine.Tupler] with [Tuple].
func (s *State) Tuple(c engine.Card) []engine.Component { return Tuple(c) }

// Opening implements [engine.Opening]: the deal. The role tuples and the
// incident deck are laid out face up (role slots 0..n-1, incident slots
// n..n+19), shuffled by every seat in turn (unless the deal is fixed),
// each seat views components 0, 1 and 3 of its own role tuple and its
// incident card, and every seat posts its recognition tag of night 1
// (component 3, round 1).
func (s *State) Opening() []engine.Effect {
	var eff []engine.Effect
	roles := s.roleSlots()
	fixed := s.opts.Fixed
	if fixed != nil {
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: roles, Cards: slices.Clone(fixed.Roles)})
	} else {
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: roles, Cards: slices.Clone(s.deck)},
			engine.Effect{Kind: engine.EffectShuffle, Slots: roles})
	}
	var inc []engine.Slot
	if s.Incidents() {
		for i := range IncidentDeckSize {
			inc = append(inc, engine.Slot(s.n+i))
		}
		if fixed != nil {
			eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: inc, Cards: slices.Clone(fixed.Incidents)})
		} else {
			eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: inc, Cards: CanonicalIncidents()},
				engine.Effect{Kind: engine.EffectShuffle, Slots: slices.Clone(inc)})
		}
	}
	for p := range engine.Seat(s.n) {
		eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{s.RoleSlot(p)},
			Comps: []int{CompRole, CompTeamBefore, CompSecretBefore}})
	}
	for p := range engine.Seat(s.n) {
		for _, sl := range s.hands[p] {
			eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{sl}, Comps: []int{0}})
		}
	}
	eff = append(eff, engine.Effect{Kind: engine.EffectTag, Seats: s.allSeats(), Slots: roles,
		Comp: CompSecretBefore, Round: 1, Neutral: Neutral})
	return eff
}

func (s *State) roleSlots() []engine.Slot { return upTo[engine.Slot](s.n) }

func (s *State) allSeats() []engine.Seat { return upTo[engine.Seat](s.n) }

// upTo returns 0, 1, ..., n-1.
func upTo[T ~int](n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = T(i)
	}
	return out
}
