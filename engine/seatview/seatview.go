// Package seatview is what one seat may see of a table, as plain data
// that a screen draws: the terminal screen, the web page, and a phone's
// browser. A game decides what its seats see (its [Viewer], reached
// through the game contract, engine/games); each screen only draws it.
//
// A [Table] is built by a game's [Viewer] from an [Input]: the public
// rules state, the seat's own knowledge (table.Player.Known: the cards
// it saw in slots that still hold them), its memory of sightings, the
// public log and the public record the game's [Narrator] kept of it, and,
// once every seat published its card key at the end, the cards those keys
// open for anyone. It is never built from another seat's secrets, so a
// screen cannot show what its seat does not know: another seat's hidden
// character or hidden hand is a face-down card until it is public.
//
// The Table has no terminal in it: no colours, no escapes, no layout.
// Names come from the roster, which peers wrote: a screen escapes every
// string it draws. The package needs no command line, no terminal and no
// network: it compiles for a browser (GOOS=js GOARCH=wasm).
package seatview

import (
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
)

// Face is how a card lies for the seat, in the words a page reads.
type Face string

// The faces of a card.
const (
	FaceDown   Face = "down"  // nobody at the table may know it, or the seat does not
	FaceUp     Face = "up"    // public
	KnownToYou Face = "known" // face down for the others; the seat knows it
)

// Card is a card as the seat sees it. Name is "" for a face-down card the
// seat does not know.
type Card struct {
	Name string `json:"name,omitempty"`
	Face Face   `json:"face"`
	Note string `json:"note,omitempty"` // what it is for, when that matters ("your character")
	// Place is where the card lies when a player has several that are
	// told apart by place ("1", "2"); "" otherwise.
	Place string `json:"place,omitempty"`
	// Slot is 1 + the card's slot at the table when it is a hidden card a
	// move can swap (public: where it lies, not what it is), so that a
	// screen can show a swap; 0 otherwise.
	Slot int `json:"slot,omitempty"`
	// Track is 1 + the card's slot when it is a card that changes hands
	// in the open (The Grimm Masquerade's items, face up or in a hidden
	// hand: where it lies is public, not always what it is), so that a
	// screen can show it move from one place to another; 0 otherwise.
	Track int `json:"track,omitempty"`
}

// Attr is a public attribute of a seat: roses, coins, hint tokens left.
type Attr struct {
	Name  string `json:"name"`            // "roses"
	Value string `json:"value"`           // "3"
	Words string `json:"words,omitempty"` // the attribute in words, "3 roses (1 from rewards)"
	// Icon, if set, is the token a screen that draws may show for the
	// attribute, with its Value on it ([IconCoin], [IconRose]); "" for
	// words alone.
	Icon string `json:"icon,omitempty"`
}

// Icons a screen may draw for an attribute ([Attr.Icon]).
const (
	IconCoin = "coin" // a coin (Mascarade's coins, court and bank)
	IconRose = "rose" // a rose (The Grimm Masquerade's roses)
)

// Seat is one player as the seat sees them.
type Seat struct {
	Name    string `json:"name"`
	You     bool   `json:"you,omitempty"`     // the seat the view is for
	Turn    bool   `json:"turn,omitempty"`    // whose turn it is
	Answers bool   `json:"answers,omitempty"` // the table waits for this player's answer (not their turn)
	Attrs   []Attr `json:"attrs,omitempty"`
	// Tokens are public marks this player placed, in words ("not the
	// Beast": a hint token on the Beast's portrait).
	Tokens []string `json:"tokens,omitempty"`
	Status string   `json:"status,omitempty"` // "masked", "unmasked: the Beast"
	// Parts are the status in parts, in order (Status is their texts
	// joined with "; "), each marked as the screen may draw it; a single
	// part when the game says the status whole.
	Parts []Part `json:"parts,omitempty"`
	// Brief is the status in a few words, for a screen too small for a
	// row per seat ("out: Civilian", "mate"); "" when it has nothing to say.
	Brief string `json:"brief,omitempty"`
	Cards []Card `json:"cards,omitempty"` // in front of the player: face up, face down, or known to the seat
	// Moved says where the player sits when it is not their own place
	// ("in Fedya's chair": the Puppeteer moved them); "" otherwise.
	Moved string `json:"moved,omitempty"`
	// Out: the player is out of the game (Mafia: eliminated, or left);
	// a screen may draw the seat dimmed. Status says it in words.
	Out bool `json:"out,omitempty"`
}

// Part is a part of a seat's status.
type Part struct {
	Text string `json:"text"`
	// Mark says how a screen may mark the part: "" for none, [MarkOwn]
	// or [MarkWarn].
	Mark string `json:"mark,omitempty"`
}

// The marks of a status part.
const (
	// MarkOwn: what only the seat knows ("you are the Commissar").
	MarkOwn = "own"
	// MarkWarn: what only the seat knows of the side it must beware or
	// belongs to against the table ("your mate in the mafia").
	MarkWarn = "warn"
)

// Area is a shared place on the table: a deck, a row, a discard pile, the
// round's action cards, the portraits.
type Area struct {
	Name  string `json:"name"`
	Count int    `json:"count"`           // cards in it, when that is what matters (a deck); -1: not a pile
	Cards []Card `json:"cards,omitempty"` // the cards the seat may see in it, in order
	Note  string `json:"note,omitempty"`  // one line about it ("each costs two equal items")
	// Pile: the count is what matters at a glance (a discard pile); a
	// small screen may leave its cards out.
	Pile bool `json:"pile,omitempty"`
	// Marked: only the cards with a note matter at a glance (the
	// portraits with hint tokens or broken); a small screen may leave the
	// others out.
	Marked bool `json:"marked,omitempty"`
	// Words is the area in words, for a screen that writes rather than
	// draws ("centre: 2 cards, face down", "last reveal: your card was
	// the King"); "" lets the screen word it from the cards.
	Words string `json:"words,omitempty"`
}

// Notice is something the whole table is in the middle of, that every
// seat sees: a claim and who challenged it.
type Notice struct {
	Title string `json:"title"` // "Claim"
	Text  string `json:"text"`  // "Anna claims to be the King; challenged by Boris"
	// Window, if set, says who must answer within the table's answer
	// window ("challenge window: Boris to answer"); Yours: the seat must
	// (the screen counts the window down, see [Question.Window]).
	Window string `json:"window,omitempty"`
	Yours  bool   `json:"yours,omitempty"`
}

// Choice is one move the seat may make now.
type Choice struct {
	Words string      `json:"words"` // the move in words, for the seat ("give the Crown to Boris")
	Move  engine.Move `json:"-"`     // the move a screen submits
	// Secret: the move causes a hidden swap, and the screen asks
	// Confirm ("really exchange the cards?") for its secret bit: yes
	// submits it real, no pretended.
	Secret bool `json:"secret,omitempty"`
	// Confirm, if set, is a question the screen asks (y/n) before
	// submitting the move (for a Secret move: the secret bit).
	Confirm string `json:"confirm,omitempty"`
	// Yes and No, if set, label the answers to Confirm on a screen with
	// buttons ("Yes, really", "No, pretend"); "" for a plain yes or no.
	Yes string `json:"yes,omitempty"`
	No  string `json:"no,omitempty"`
	// Pass: the choice that lets the decision go (a pass on a claim): a
	// screen offers it on a key of its own, and plays it when an answer
	// window runs out.
	Pass bool `json:"pass,omitempty"`
	// Night, if set, is a secret night choice (Mafia) rather than a move:
	// a screen gives it to its session (session.Actor), never as a move.
	Night *Night `json:"-"`
	// Steps, if set, are the steps the choice is reached by in a long
	// menu, outermost first (["Mask off!", "on Boris", "the Beast?"]): a
	// screen offers the steps first, then the choices under the one
	// taken ([Menu]), rather than every choice on one list.
	Steps []string `json:"steps,omitempty"`
}

// Night is a secret night choice: the target of one of the seat's
// powers, or, for a seat holding none, to sleep.
type Night struct {
	Power  uint8
	Target engine.Seat
	Sleep  bool
}

// Question is what the seat must decide now.
type Question struct {
	Text string `json:"text,omitempty"`
	// Forced: a response the rules wait for and the seat cannot skip (a
	// hint, an unmasking): a question only this seat can answer.
	Forced  bool     `json:"forced,omitempty"`
	Choices []Choice `json:"choices"`
	// Window: an answer the table waits for within its answer window (a
	// challenge); when the window runs out the screen plays the Pass
	// choice.
	Window bool `json:"window,omitempty"`
}

// Section is a part of the help page.
type Section struct {
	Title string   `json:"title"`
	Lines []string `json:"lines"`
}

// Table is everything one seat may see now, in drawing order.
type Table struct {
	Game   string // the game's name for people
	Status string // the round and whose turn: "round 2 of 3 · Boris's turn"
	// Phase is the time of day in a game that has one (Mafia): "day"
	// or "night"; "" otherwise. Status says it in words.
	Phase string
	// Counters are the table's public counters beside the status (the
	// court's coins, the bank).
	Counters []Attr
	You      int // the seat the view is for (its roster number; Seat.You marks its row)
	// Seats are in the order the players sit, clockwise: not the roster's
	// once the 2nd edition's Puppeteer moved players between chairs.
	Seats []Seat
	// Notes are public lines about the seating and the table ("seating
	// (clockwise, moved by the Puppeteer): Anna → Fedya → …").
	Notes    []string
	Areas    []Area
	Notices  []Notice
	Question *Question // nil unless the seat must decide
	Waiting  string    // whom the table waits for, when not the seat ("" : the screen's session says)
	Over     bool
	Result   []string // the end: who won, the scores
	Won      bool     // the seat won
	// Ending is the end in one line, for whoever closes the screen
	// ("game over after 5 turns: Anna won"); "" while the game goes on.
	Ending  string
	Outcome string   // the end for the seat in words: "you won!", "you lost, with 3 coins"
	Memory  []string // what the seat knows that the table does not show; an indented line continues the one above
	// Swapped is the last move that caused hidden swaps, so that a screen
	// can show them (public: which cards may have moved, never whether);
	// nil when there is none or the game has none.
	Swapped *Swapped
	Log     []string // the public log in words, oldest first
	Help    []Section
	// NoPass: the game never lets a decision go with p (a claim's answer)
	// nor asks to confirm a hidden swap; the help page does not list them.
	NoPass bool
}

// Swapped is a move's hidden swaps as everyone saw them.
type Swapped struct {
	At uint64 `json:"at"` // the move's entry
	// Pairs are the pairs of cards each swap may have exchanged, as
	// [Card.Slot] numbers them (1 + the slot).
	Pairs [][2]int `json:"pairs"`
}

// Input is what a view is built from: public state and the seat's own
// knowledge, nothing else. Seat -1 is a spectator's (no seat: what an
// auditor sees; no outcome, no memory, no question).
type Input struct {
	Rules  engine.State
	Seat   engine.Seat
	Names  []string
	Known  map[engine.Slot]engine.Card // what the seat knows now, by slot (table.Player.Known)
	Memory []table.Sighting            // what the seat saw, and when
	// Opened is every card, by slot, once every seat published its card
	// key at the end (table.Table.Opened): public then, drawn face up.
	Opened map[engine.Slot]engine.Card
	Log    []string
	// Record is the public record the game's [Narrator] kept of the table
	// ([Narrator.Record]: the moves so far as everyone saw them, say, with
	// the hidden swaps they caused), in the game's own type; nil when the
	// screen has none. SwapBits are the seat's own secret bits, by the
	// entry of its move (table.Player.SwapBits). With both a game can tell
	// which swaps since a sighting could have moved a card.
	Record   any
	SwapBits map[uint64][]bool
	MyTurn   bool // the table waits for a move by the seat
	// Private is what the seat knows privately beyond its cards, in the
	// game's own type (games.Knower); nil for a game without it.
	Private any
	// Night: the table waits for the seat's secret actions
	// (table.BodyActions); Decisions are the choices still to make
	// (table.Player.Decisions; none: the seat holds no power and may
	// sleep).
	Night     bool
	Decisions []engine.Effect
	// TableNight: the table waits for some seat's secret actions (the
	// seat's own posted or not), whatever the rules' state says of what
	// comes after them.
	TableNight bool
	Over       bool
	// Salt is a secret of the screen's, used for the nonces of sealed
	// choices (an Eavesdrop commitment): the same salt opens what it
	// sealed. A screen draws it at random once.
	Salt [32]byte
}

// OpenedAt reports whether the keys published at the end opened slot sl
// ([Input.Opened]).
func (in Input) OpenedAt(sl engine.Slot) bool {
	_, ok := in.Opened[sl]
	return ok
}

// Viewer is what a game provides for its seats' screens: its narration
// and its view. A game's viewer lives in a package of its own beside the
// game's rules; the game contract (engine/games) hands it out.
type Viewer interface {
	// View returns the view of in, or ok=false when in.Rules is not a
	// state of the viewer's game.
	View(in Input) (t Table, ok bool)
	// Narrator returns a narrator of a table of the game whose lines
	// speak to seat you in the second person ("you swap ..."), or to
	// nobody (-1: an audit, a bot's seat).
	Narrator(you engine.Seat) Narrator
	// Auditor returns an auditor of a transcript of the game: what
	// 'masque replay' tells, with every hidden card opened when open is
	// not nil (the keys every seat published at the end).
	Auditor(open Opener) Auditor
}

// Narrator follows one table entry by entry, from its first, and tells
// it in public words: it needs only the public replica, never a secret
// key.
type Narrator interface {
	// Start catches up with table t before its first entry is followed
	// (a scripted table deals before its first entry), or with a table
	// whose first entries were applied before the narrator existed; it
	// returns the lines it told.
	Start(t *table.Table) []string
	// Follow tells what entry e did; t must have just applied it.
	Follow(t *table.Table, e *ledger.Entry) (Told, error)
	// Lines are every public line so far, oldest first (a game may fold
	// a run of lines into one: passes in one challenge window).
	Lines() []string
	// Record is the public record the game's view reads
	// ([Input.Record]), a copy; nil when the game keeps none.
	Record() any
}

// Told is what one entry did, in words and in public facts.
type Told struct {
	// Lines are the public lines the entry added (not folded).
	Lines []string
	// Step is set when the entry ended a step of play (a move and its
	// reveals): what every seat learnt in it, for the bots' observations
	// (games.Observation); nil otherwise, or when the game keeps no steps.
	Step *Step
}

// Step is a completed step of play as everyone saw it: a move, then its
// reveals.
type Step struct {
	Effects []engine.Effect // the move's public effects, then those of its reveals
	Facts   []engine.Fact   // the cards revealed to everyone, in order
}

// Build returns the seat's view of in by the game's viewer v, or
// ok=false when in.Rules is nil or not a state of v's game. The view is
// for seat in.Seat, its log in.Log when the game words none of its own.
func Build(v Viewer, in Input) (Table, bool) {
	if in.Rules == nil || v == nil {
		return Table{}, false
	}
	t, ok := v.View(in)
	if !ok {
		return Table{}, false
	}
	t.You = int(in.Seat)
	for i := range t.Seats {
		if st := &t.Seats[i]; st.Parts == nil && st.Status != "" {
			st.Parts = []Part{{Text: st.Status}}
		}
	}
	if t.Log == nil {
		t.Log = append([]string(nil), in.Log...)
	}
	return t, true
}
