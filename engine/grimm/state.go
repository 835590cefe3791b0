package grimm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
)

// Action is an action card (or the permanent Mask off!).
type Action uint8

// The actions. MaskOff is always available; the others are action cards,
// two of which lie face up each round.
const (
	MaskOff     Action = 1 // "Маску прочь!": guess an opponent's character
	Eavesdrop   Action = 2 // "Подслушать разговор": 1 or 2 opponents place a hint token
	GuestList   Action = 3 // "Заглянуть в список гостей": look at the top 2 of the character deck
	Dance       Action = 4 // "Закружиться в танце": everyone passes an item left or right
	Toast       Action = 5 // "Поднять тост": give the top 2 items to 1 or 2 opponents
	Search      Action = 6 // "Поискать в чужих вещах": look at the top character, then draw an item
	Exchange    Action = 7 // "Обменяться сувенирами": give 1 item, get 2 random ones back
	LearnSecret Action = 8 // "Узнать тайну" (bets): take a bet card
)

var actionNames = map[Action]string{
	MaskOff: "maskoff", Eavesdrop: "eavesdrop", GuestList: "guestlist", Dance: "dance",
	Toast: "toast", Search: "search", Exchange: "exchange", LearnSecret: "learnsecret",
}

// String returns the script name of the action.
func (a Action) String() string {
	if n, ok := actionNames[a]; ok {
		return n
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// ParseAction reads an action name (case-insensitive).
func ParseAction(s string) (Action, error) {
	k := normName(s)
	for a, n := range actionNames {
		if n == k {
			return a, nil
		}
	}
	return 0, fmt.Errorf("unknown action %q", s)
}

// actionDeck returns the action cards of a game, in card order: the six
// basic ones (four with 2 players), and Learn a secret with bets.
func actionDeck(players int, bets bool) []Action {
	if players == 2 {
		return []Action{Eavesdrop, Toast, Search, Exchange}
	}
	d := []Action{Eavesdrop, GuestList, Dance, Toast, Search, Exchange}
	if bets {
		d = append(d, LearnSecret)
	}
	return d
}

// Slot layout (see the package documentation).
const (
	CharSlot0 engine.Slot = 0  // character slots 0..7
	ItemSlot0 engine.Slot = 8  // item slots 8..55
	BetSlot0  engine.Slot = 56 // bet slots 56..63 (with bets)
)

// place is where an item slot lies.
type place uint8

const (
	inDeck    place = iota // the item deck (see State.deck for the order)
	inDiscard              // the discard pile, face up
	inRow                  // the draft row, face up
	inDrawn                // drawn face up, waiting for the drawer's choice
	inFront                // face up in front of a seat
	inHand                 // in an unmasked seat's hidden hand
)

// phase is what the rules wait for.
type phase uint8

const (
	phWaitCoin   phase = iota + 1 // a joint coin (NeedFacts)
	phWaitReveal                  // the facts of a reveal (NeedFacts)
	phDraft                       // draftSeat picks an item from the row
	phDecide                      // the turn player keeps or gives the drawn item
	phToast                       // the actor gives the two toasted items
	phHandGive                    // an unmasked turn player gives a card of the hand
	phRespond                     // pending[0].seat answers
	phCommit                      // eavesdropped seats commit to a portrait
	phAction                      // the turn player acts or ends the turn
	phBetPick                     // a seat takes a bet card (Learn a secret, or unmasked)
	phAbility                     // 2 players: a seat chooses its ability card
	phOver                        // the game has ended
)

// decision says what the drawn card in phDecide may become.
type decision uint8

const (
	decFirst  decision = iota + 1 // the turn's first card: keep or give
	decSecond                     // the second card, the first kept: give
	decSearch                     // Search belongings: keep or give
	decExtra                      // an ability's extra draw: keep or give
)

// purpose says why the rules wait for facts.
type purpose uint8

const (
	forRound    purpose = iota + 1 // coin: the round's action cards and first player
	forDraft                       // reveal: the draft row
	forDraw                        // reveal: a turn's draw
	forToast                       // reveal: the two toasted items
	forSearch                      // reveal: the item drawn by Search belongings
	forDance                       // coin, then reveal of the cards unmasked seats pass
	forExchange                    // coin: the target's two items
	forHandGive                    // reveal: the card an unmasked seat gives
	forRoundEnd                    // reveal: every character (and held bet) at the end
	forExtra                       // reveal: an ability's extra draw
)

// continuation says what follows when no response is pending.
type continuation uint8

const (
	contNone   continuation = iota
	contDraft               // the next draft pick
	contSecond              // draw the turn's second card
	contAction              // the optional action step
	contEnd                 // end the turn
	contFirst               // draw the turn's first card
)

// respKind is a forced response.
type respKind uint8

const (
	respBane    respKind = iota + 1 // 2 of an item: unmask (I am its bane's owner) or hint
	respBoon                        // 3 of an item: win (I am its boon's owner) or hint
	respGuess                       // Mask off!: unmask (the guess is right) or hint
	respEaves                       // Eavesdrop (or True reflection): a hint on any legal portrait
	respMayDraw                     // Modest gifts, Sly accusation: draw an item or not
	respMayBet                      // bets: a player just unmasked takes a bet card now, or on a later turn
)

// response is a forced response owed by a seat.
type response struct {
	Seat   engine.Seat
	Kind   respKind
	Char   engine.Card // the character concerned (none for respEaves)
	Causer engine.Seat // who gets the rose for an unmasking
}

// State is the public rules state of one game of The Grimm Masquerade. It
// implements [engine.State] and [engine.Opening]; values are immutable:
// every method that changes the game returns a new *State.
type State struct {
	opts Options // normalized and valid
	n    int     // players

	round   int           // 1..3
	roses   [5]int        // rose tokens
	rewards [5]int        // the sum of the reward tokens' values
	jewels  [5]bool       // an unspent jewel (Jewels variant)
	spent   []Action      // action cards of earlier rounds (3-5 players)
	actions [2]Action     // the round's two action cards
	first   engine.Seat   // the round's first player
	turn    engine.Seat   // whose turn it is
	lastWin engine.Seat   // winner of the last finished round, -1 for none
	winners []engine.Seat // set when the game is over
	results []RoundResult // finished rounds

	// Characters.
	known    [NumCharacters]engine.Card // the public character of each character slot, 0 if hidden
	unmasked [NumCharacters]bool        // per character slot
	broken   [NumCharacters + 1]bool    // per character: the portrait is broken
	tokens   [NumCharacters + 1]uint8   // per character: bit p set if seat p's hint token lies there

	// Items.
	where [NumItems]place
	owner [NumItems]int8        // inFront, inHand: the seat
	card  [NumItems]engine.Card // the item, when public; 0 when hidden
	deck  []engine.Slot         // the item deck, top first

	// Bets.
	betHeld  [NumCharacters]int8 // per bet slot: the holder, -1 in the bet deck
	betKnown [NumCharacters]engine.Card
	betTaken [5]bool // an unmasked seat has taken its bet card

	// Flow.
	phase     phase
	why       purpose
	cont      continuation
	dec       decision
	waitSlots []engine.Slot // the pending reveal
	drawn     []engine.Slot // drawn items waiting for a decision
	drawNo    int           // 1 or 2: the turn's card being decided
	keptFirst bool
	acted     bool
	actor     engine.Seat
	draftSeat engine.Seat
	draftLeft int
	pending   []response
	// The action in progress.
	act         Action
	dir         int           // Dance: +1 left (clockwise), -1 right
	gift        engine.Slot   // Dance, Exchange: the actor's item
	target      engine.Seat   // Exchange
	passes      []pass        // Dance, Exchange: the random cards chosen
	eaves       []engine.Seat // Eavesdrop: the named seats still to answer
	commits     [5][32]byte
	commit      [5]bool
	roundDone   bool
	roundWin    engine.Seat // -1: nobody
	talismanWin bool        // the round was won by 3 talismans
	betSeat     engine.Seat // phBetPick

	// Abilities.
	ability   [5]engine.Card // per seat: the ability card it holds this round (a character), 0 for none
	choosing  []engine.Seat  // 2 players: seats still to choose their ability
	hinted    bool           // the turn player placed a hint token this turn
	beastDone bool           // the Beast's extra draw was taken this turn

	fx []engine.Effect // scratch: effects queued by transfer, drained by advance
}

// pass is an item on its way from one seat to another in a Dance or an
// Exchange.
type pass struct {
	Slot engine.Slot
	From engine.Seat
	To   engine.Seat
}

// RoundResult is the outcome of a finished round.
type RoundResult struct {
	Round       int
	Winner      engine.Seat   // -1 when nobody won (no masked player left)
	Chars       []engine.Card // every seat's character(s), in character-slot order
	ByTalismans bool          // the winner collected 3 talismans
}

// NewGame starts a game. The deal is hidden: the table carries out
// [State.Opening] (the shuffles, each seat's look at its character, the
// round's coin) on the deck of [Game.Deck] before the first move.
func NewGame(opts Options) (*State, error) {
	o := opts.Normalize()
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("grimm: new game: %w", err)
	}
	s := &State{opts: o, n: len(o.Players), lastWin: -1}
	s.resetRound(1)
	return s, nil
}

// Opening implements [engine.Opening]: the effects before the first move,
// on the deck laid out face up in canonical order ([Game.Deck]): every
// seat shuffles the characters, the items (and the bets); each seat looks
// at its own character slot(s); then a joint coin for the round.
func (s *State) Opening() []engine.Effect {
	return s.roundEffects(false)
}

// roundEffects returns a round's setup effects; set: lay out fresh decks
// first (rounds 2 and 3).
func (s *State) roundEffects(set bool) []engine.Effect {
	var eff []engine.Effect
	chars, items, bets := charSlots(), itemSlots(), betSlots()
	fx := s.opts.fixed(s.round)
	switch {
	case fx != nil && fx.Chars != nil:
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: chars, Cards: slices.Clone(fx.Chars)})
	case set:
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: chars, Cards: Characters()})
		fallthrough
	default:
		eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: chars})
	}
	switch {
	case fx != nil && fx.Items != nil:
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: items, Cards: slices.Clone(fx.Items)})
	case set:
		eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: items, Cards: canonicalItems()})
		fallthrough
	default:
		eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: items})
	}
	if s.opts.Bets {
		if set {
			eff = append(eff, engine.Effect{Kind: engine.EffectSet, Slots: bets, Cards: canonicalBets()})
		}
		eff = append(eff, engine.Effect{Kind: engine.EffectShuffle, Slots: bets})
	}
	for p := range engine.Seat(s.n) {
		for _, sl := range s.CharSlotsOf(p) {
			eff = append(eff, engine.Effect{Kind: engine.EffectPeek, By: p, Slots: []engine.Slot{sl}})
		}
	}
	eff = append(eff, engine.Effect{Kind: engine.EffectCoin})
	return eff
}

// slotRange returns the n slots from first on.
func slotRange(first engine.Slot, n int) []engine.Slot {
	out := make([]engine.Slot, n)
	for i := range out {
		out[i] = first + engine.Slot(i)
	}
	return out
}

func charSlots() []engine.Slot { return slotRange(CharSlot0, NumCharacters) }
func itemSlots() []engine.Slot { return slotRange(ItemSlot0, NumItems) }
func betSlots() []engine.Slot  { return slotRange(BetSlot0, NumCharacters) }

// canonicalItems is the item deck in canonical order: 6 Treats, 6
// Cauldrons, ... 6 Spindles (slot 8+6k+j holds item kind k).
func canonicalItems() []engine.Card {
	out := make([]engine.Card, 0, NumItems)
	for _, it := range Items() {
		for range ItemCopies {
			out = append(out, it)
		}
	}
	return out
}

func canonicalBets() []engine.Card {
	out := make([]engine.Card, 0, NumCharacters)
	for _, c := range Characters() {
		out = append(out, BetBase+c)
	}
	return out
}

// resetRound starts round r's bookkeeping: fresh decks, no tokens, and
// the rules wait for the round's coin.
func (s *State) resetRound(r int) {
	s.round = r
	s.known = [NumCharacters]engine.Card{}
	s.unmasked = [NumCharacters]bool{}
	s.broken = [NumCharacters + 1]bool{}
	s.tokens = [NumCharacters + 1]uint8{}
	s.where = [NumItems]place{}
	s.owner = [NumItems]int8{}
	s.card = [NumItems]engine.Card{}
	s.deck = itemSlots()
	for i := range s.betHeld {
		s.betHeld[i] = -1
	}
	s.betKnown = [NumCharacters]engine.Card{}
	s.betTaken = [5]bool{}
	for p := range s.n {
		s.jewels[p] = s.opts.Jewels
	}
	s.phase, s.why = phWaitCoin, forRound
	s.cont = contNone
	s.waitSlots, s.drawn, s.pending, s.passes, s.eaves = nil, nil, nil, nil, nil
	s.commit = [5]bool{}
	s.commits = [5][32]byte{}
	s.roundDone, s.roundWin, s.talismanWin = false, -1, false
	s.acted, s.keptFirst = false, false
	s.ability = [5]engine.Card{}
	s.choosing = nil
	s.hinted, s.beastDone = false, false
}

// clone returns a deep copy, for Apply and Learn to modify.
func (s *State) clone() *State {
	c := *s
	c.opts.Players = slices.Clone(s.opts.Players)
	c.spent = slices.Clone(s.spent)
	c.winners = slices.Clone(s.winners)
	c.results = slices.Clone(s.results)
	c.deck = slices.Clone(s.deck)
	c.waitSlots = slices.Clone(s.waitSlots)
	c.drawn = slices.Clone(s.drawn)
	c.pending = slices.Clone(s.pending)
	c.passes = slices.Clone(s.passes)
	c.eaves = slices.Clone(s.eaves)
	c.choosing = slices.Clone(s.choosing)
	c.fx = nil
	// opts.Fixed's rounds are never modified: sharing them is safe.
	return &c
}

// Options returns the (normalized) options.
func (s *State) Options() Options { return s.opts.Normalize() }

// Players returns the number of players.
func (s *State) Players() int { return s.n }

// Name returns the name of seat p.
func (s *State) Name(p engine.Seat) string {
	if p < 0 || int(p) >= s.n {
		return fmt.Sprintf("seat(%d)", p)
	}
	return s.opts.Players[p]
}

// SeatByName finds a seat by its player's name (case-insensitive).
func (s *State) SeatByName(name string) (engine.Seat, error) {
	for i, p := range s.opts.Players {
		if strings.EqualFold(p, name) {
			return engine.Seat(i), nil
		}
	}
	return -1, fmt.Errorf("no player named %q", name)
}

// Charms returns the boons and banes in use.
func (s *State) Charms() Charms { return s.opts.Charms }

// CharSlotsOf returns seat p's character slot(s): slot p with 3-5
// players, slots 2p and 2p+1 with 2.
func (s *State) CharSlotsOf(p engine.Seat) []engine.Slot {
	if s.n == 2 {
		return []engine.Slot{engine.Slot(2 * p), engine.Slot(2*p + 1)}
	}
	return []engine.Slot{engine.Slot(p)}
}

// CharDeck returns the character deck's slots, top first.
func (s *State) CharDeck() []engine.Slot {
	first := s.n
	if s.n == 2 {
		first = 4
	}
	var out []engine.Slot
	for i := first; i < NumCharacters; i++ {
		out = append(out, engine.Slot(i))
	}
	return out
}

// SlotSeat returns the seat holding character slot sl, or -1.
func (s *State) SlotSeat(sl engine.Slot) engine.Seat {
	i := int(sl)
	if s.n == 2 {
		if i >= 0 && i < 4 {
			return engine.Seat(i / 2)
		}
		return -1
	}
	if i >= 0 && i < s.n {
		return engine.Seat(i)
	}
	return -1
}

// Round returns the current round, 1 to 3.
func (s *State) Round() int { return s.round }

// Roses returns seat p's roses: rose tokens plus the value of its reward
// tokens.
func (s *State) Roses(p engine.Seat) int { return s.roses[p] + s.rewards[p] }

// RoseTokens returns seat p's rose tokens, without rewards.
func (s *State) RoseTokens(p engine.Seat) int { return s.roses[p] }

// Rewards returns the sum of the values of seat p's reward tokens.
func (s *State) Rewards(p engine.Seat) int { return s.rewards[p] }

// Actions returns the round's two action cards.
func (s *State) Actions() [2]Action { return s.actions }

// Turn returns whose turn it is.
func (s *State) Turn() engine.Seat { return s.turn }

// FirstPlayer returns the round's first player.
func (s *State) FirstPlayer() engine.Seat { return s.first }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.phase == phOver }

// Winners returns the winning seats (several on a tie), or nil while the
// game goes on.
func (s *State) Winners() []engine.Seat {
	if !s.Over() {
		return nil
	}
	return slices.Clone(s.winners)
}

// Results returns the finished rounds.
func (s *State) Results() []RoundResult {
	out := slices.Clone(s.results)
	for i := range out {
		out[i].Chars = slices.Clone(out[i].Chars)
	}
	return out
}

// Known returns the public character in character slot sl (unmasked, or
// shown at the end of the round), or 0.
func (s *State) Known(sl engine.Slot) engine.Card {
	if sl < 0 || int(sl) >= NumCharacters {
		return 0
	}
	return s.known[sl]
}

// Unmasked reports whether seat p is unmasked: its character (with 2
// players, both) has been found out.
func (s *State) Unmasked(p engine.Seat) bool {
	for _, sl := range s.CharSlotsOf(p) {
		if !s.unmasked[sl] {
			return false
		}
	}
	return true
}

// MaskedSlots returns seat p's character slots that are still masked.
func (s *State) MaskedSlots(p engine.Seat) []engine.Slot {
	var out []engine.Slot
	for _, sl := range s.CharSlotsOf(p) {
		if !s.unmasked[sl] {
			out = append(out, sl)
		}
	}
	return out
}

// Broken reports whether character c's portrait is broken (c was
// unmasked this round).
func (s *State) Broken(c engine.Card) bool { return IsCharacter(c) && s.broken[c] }

// HasToken reports whether seat p's hint token lies on character c's
// portrait.
func (s *State) HasToken(p engine.Seat, c engine.Card) bool {
	return IsCharacter(c) && s.tokens[c]&(1<<p) != 0
}

// TokensLeft returns seat p's hint tokens not on the board.
func (s *State) TokensLeft(p engine.Seat) int {
	used := 0
	for c := EvilQueen; c <= Hansel; c++ {
		if s.tokens[c]&(1<<p) != 0 {
			used++
		}
	}
	return HintTokens - used
}

// Jewel reports whether seat p holds an unspent jewel.
func (s *State) Jewel(p engine.Seat) bool { return s.jewels[p] }

// Front returns the items face up in front of seat p, as (slot, item)
// pairs in slot order.
func (s *State) Front(p engine.Seat) []ItemAt {
	var out []ItemAt
	for i := range NumItems {
		if s.where[i] == inFront && engine.Seat(s.owner[i]) == p {
			out = append(out, ItemAt{ItemSlot0 + engine.Slot(i), s.card[i]})
		}
	}
	return out
}

// Hand returns the slots of an unmasked seat's hidden hand, in slot order.
func (s *State) Hand(p engine.Seat) []engine.Slot {
	var out []engine.Slot
	for i := range NumItems {
		if s.where[i] == inHand && engine.Seat(s.owner[i]) == p {
			out = append(out, ItemSlot0+engine.Slot(i))
		}
	}
	return out
}

// ItemAt is an item card in a slot.
type ItemAt struct {
	Slot engine.Slot
	Item engine.Card
}

// Count returns how many items of kind it lie in front of seat p.
func (s *State) Count(p engine.Seat, it engine.Card) int {
	k := 0
	for i := range NumItems {
		if s.where[i] == inFront && engine.Seat(s.owner[i]) == p && s.card[i] == it {
			k++
		}
	}
	return k
}

// Deck returns the item deck's slots, top first.
func (s *State) Deck() []engine.Slot { return slices.Clone(s.deck) }

// Discard returns the discard pile's items, in slot order.
func (s *State) Discard() []ItemAt { return s.itemsAt(inDiscard) }

// Row returns the draft row, in slot order.
func (s *State) Row() []ItemAt { return s.itemsAt(inRow) }

// Drawn returns the drawn items waiting for a decision.
func (s *State) Drawn() []ItemAt {
	var out []ItemAt
	for _, sl := range s.drawn {
		out = append(out, ItemAt{sl, s.card[sl-ItemSlot0]})
	}
	return out
}

func (s *State) itemsAt(w place) []ItemAt {
	var out []ItemAt
	for i := range NumItems {
		if s.where[i] == w {
			out = append(out, ItemAt{ItemSlot0 + engine.Slot(i), s.card[i]})
		}
	}
	return out
}

// Pending returns the forced response owed now: the seat, and the
// character it concerns (0 for an Eavesdrop), or ok=false.
func (s *State) Pending() (seat engine.Seat, char engine.Card, ok bool) {
	if s.phase != phRespond || len(s.pending) == 0 {
		return -1, 0, false
	}
	return s.pending[0].Seat, s.pending[0].Char, true
}

// Step names what the rules wait for, for a user interface: "coin",
// "reveal", "draft", "decide" (keep or give the drawn item), "toast",
// "hand" (an unmasked seat gives a card of its hand), "respond" (a forced
// response, or an ability's optional draw), "commit", "action", "bet",
// "ability" or "over".
func (s *State) Step() string {
	return [...]string{phWaitCoin: "coin", phWaitReveal: "reveal", phDraft: "draft", phDecide: "decide",
		phToast: "toast", phHandGive: "hand", phRespond: "respond", phCommit: "commit", phAction: "action",
		phBetPick: "bet", phAbility: "ability", phOver: "over"}[s.phase]
}

// Ability returns the ability card seat p holds this round (named by its
// character), or 0.
func (s *State) Ability(p engine.Seat) engine.Card { return s.ability[p] }

// BetDeck returns the bet slots nobody holds yet.
func (s *State) BetDeck() []engine.Slot { return s.betDeck() }

// BetsOf returns the bet slots seat p holds.
func (s *State) BetsOf(p engine.Seat) []engine.Slot {
	var out []engine.Slot
	for i, h := range s.betHeld {
		if h == int8(p) {
			out = append(out, BetSlot0+engine.Slot(i))
		}
	}
	return out
}

// seatAfter returns the seat k places clockwise (to the left) of p.
func (s *State) seatAfter(p engine.Seat, k int) engine.Seat {
	return engine.Seat(((int(p)+k)%s.n + s.n) % s.n)
}

// String returns a one-line public summary, for logs and test failures.
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "round %d turn %s", s.round, s.Name(s.turn))
	for p := range engine.Seat(s.n) {
		fmt.Fprintf(&b, " %s=%d", s.Name(p), s.Roses(p))
		if s.Unmasked(p) {
			b.WriteString("(out)")
		}
		var its []string
		for _, it := range s.Front(p) {
			its = append(its, CardName(it.Item))
		}
		if len(its) > 0 {
			fmt.Fprintf(&b, "[%s]", strings.Join(its, ","))
		}
		if h := s.Hand(p); len(h) > 0 {
			fmt.Fprintf(&b, "[hand %d]", len(h))
		}
	}
	fmt.Fprintf(&b, " deck=%d discard=%d", len(s.deck), len(s.Discard()))
	if s.Over() {
		b.WriteString(" over winners=")
		for i, w := range s.winners {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(s.Name(w))
		}
	}
	return b.String()
}
