// Package masqview is what a seat sees of Mascarade (either edition, see
// [Rules]): its view of the table and its narration (package
// engine/seatview), reached through the game contract ([First],
// [Second]).
//
// Its [Follower] follows a Mascarade table entry by entry and tells what
// happened in public terms: the deal, every move (never whether a hidden
// swap was real), every reveal, the 2nd edition's Princess showing a card
// to all but its owner (never which card) and Puppeteer moving players
// between chairs, coin changes and the end. The play screen's log
// (through a session), and 'masque replay' use it; it needs only the
// public replica of the table, never a secret key.
package masqview

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Swap is one hidden swap, as everyone sees it: who did it and which two
// slots may have exchanged their cards. Whether they did is secret.
type Swap struct {
	Pos   uint64 // the position of the move's entry
	Turn  int
	By    engine.Seat
	Slots [2]engine.Slot
	Index int    // the swap's index among the move's swaps (its payload)
	Move  string // the move's public text, e.g. "Anna swap Boris"
	Words string // the move in words, e.g. "Anna swaps her card with Boris's card" (see [Said])
}

// Show is a card shown to every seat but its owner (the 2nd edition's
// Princess), as everyone sees it: who showed which slot to whom. The card
// is known only to the seats that saw it.
type Show struct {
	Pos    uint64 // the entry that completed the show (the seats' memories have this position)
	Turn   int
	By     engine.Seat // who used the power
	Except engine.Seat // the owner, who did not see it
	Slot   engine.Slot
	Power  string // the power's name, e.g. "Princess"
}

// Moved is one move as everyone saw it.
type Moved struct {
	Pos   uint64 // the move's entry
	Turn  int
	Seat  engine.Seat
	Text  string // e.g. "Anna swap Boris"
	Words string // the move in words (see [Said])
	Swaps []Swap // the hidden swaps it caused
	Shows []Show // the cards it showed to all but their owner
}

// Step is one move and everything that follows from it (its reveals), up
// to the next move.
type Step struct {
	Pos     uint64 // the move's entry
	Turn    int
	Move    engine.Move
	Text    string          // the move's public text
	Words   string          // the move in words (see [Said])
	Before  Rules           // the rules before the move
	After   Rules           // the rules when the step ended
	Effects []engine.Effect // the move's effects, then those of its reveals
	Swaps   []Swap          // the hidden swaps the move caused
	Facts   []engine.Fact   // the cards revealed to everyone, in order
}

// Event is what one entry did.
type Event struct {
	Pos   uint64
	Seat  engine.Seat
	Kind  table.BodyKind
	Body  *table.Body // the decoded body of a move entry, else nil
	Dealt bool        // this entry completed the deal
	Step  *Step       // the step in progress (or just ended); nil outside play
	Ended bool        // this entry ended Step
	Lines []string    // the public lines this entry added

	passer string // a pass's author (folded in Follower.Lines)
	turn   int
}

// Follower follows one table of an edition. Feed it every entry right
// after the table applied it ([Follower.Follow]); an edition's
// [Viewer.Follower] returns one, and a follower started late catches up
// with [Follower.Start].
type Follower struct {
	// Lines are every public line so far, with a run of passes in one
	// challenge window folded into one line ("turn 5  passed: Boris,
	// Sasha, Dima"): a claim among 13 players would otherwise add 12.
	// Event.Lines keep one line per move.
	Lines []string
	Moves []Moved // every move so far, oldest first

	of     func(engine.State) (Rules, bool) // the edition's rules of a state
	prev   Rules
	step   *Step
	names  []string
	passes passRun // the run of passes the last line folds
	you    int     // 1 + the seat the lines speak to in the second person; 0: none
}

// SpeakTo makes the follower's lines speak to seat in the second person
// ("you swap ...", "your card is the King"): the play screen's log.
// Call it before the first entry.
func (f *Follower) SpeakTo(seat engine.Seat) { f.you = int(seat) + 1 }

// speaksTo returns the seat the lines speak to, or -1.
func (f *Follower) speaksTo() engine.Seat { return engine.Seat(f.you - 1) }

// slotSaid names a slot for the log: "your card" for the seat spoken to.
func (f *Follower) slotSaid(s Rules, sl engine.Slot) string {
	if owner, ok := s.SlotOwner(sl); ok && owner == f.speaksTo() {
		if len(s.SlotsOf(owner)) > 1 {
			name := s.SlotName(sl)
			if _, pos, ok := strings.Cut(name, "."); ok {
				return "your " + pos + " card"
			}
		}
		return "your card"
	}
	return slotWords(s.SlotName(sl), "")
}

// nameSaid is a player's name, or "you" for the seat spoken to.
func (f *Follower) nameSaid(s Rules, p engine.Seat) string {
	if p == f.speaksTo() {
		return "you"
	}
	return s.Name(p)
}

// theirSaid is p's possessive: "your", or "Anna's".
func (f *Follower) theirSaid(s Rules, p engine.Seat) string {
	if p == f.speaksTo() {
		return "your"
	}
	return s.Name(p) + "'s"
}

// passRun is a run of passes folded into Lines[end-1].
type passRun struct {
	end   int // 0: no run
	turn  int
	names []string
}

// Start catches up with a table whose first entries were applied before
// the follower existed: it narrates the deal if the cards are dealt.
func (f *Follower) Start(t *table.Table) []string {
	f.names = seatNames(t)
	s, ok := f.of(t.Rules())
	if !ok || f.prev != nil {
		return nil
	}
	f.prev = s
	lines := f.dealLines(s)
	f.Lines = append(f.Lines, lines...)
	return lines
}

func seatNames(t *table.Table) []string {
	var out []string
	for _, s := range t.Roster().Seats {
		out = append(out, s.Name)
	}
	return out
}

// Follow tells what e did; t must have just applied it.
func (f *Follower) Follow(t *table.Table, e *ledger.Entry) (Event, error) {
	if f.names == nil {
		f.names = seatNames(t)
	}
	ev := Event{Pos: e.Pos, Seat: engine.Seat(e.Seat)}
	if len(e.Body) == 0 {
		return ev, errors.New("masqview: empty body")
	}
	ev.Kind = table.BodyKind(e.Body[0])
	prior := f.prev
	s, ok := f.of(t.Rules())
	if ok {
		f.prev = s
	}
	say := func(format string, args ...any) {
		ev.Lines = append(ev.Lines, fmt.Sprintf(format, args...))
	}
	switch ev.Kind {
	case table.BodyReveal:
		if prior == nil && s != nil {
			ev.Dealt = true
			ev.Lines = append(ev.Lines, f.dealLines(s)...)
		}
	case table.BodyKey:
		switch {
		case engine.Seat(e.Seat) == f.speaksTo():
			say("you published your card key")
		case int(e.Seat) < len(f.names):
			say("%s published their card key", f.names[e.Seat])
		}
	case table.BodyMove:
		if prior == nil {
			return ev, errors.New("masqview: a move before the deal")
		}
		b, err := t.Body(e) // decoded once, when the table applied it
		if err != nil {
			return ev, err
		}
		ev.Body = b
		m := b.Move
		m.Seat = engine.Seat(e.Seat)
		_, effects, err := prior.Apply(m)
		if err != nil {
			return ev, err
		}
		text := prior.FormatMove(m)
		words := Said(prior, m, f.speaksTo())
		if m.Kind == masquerade.KindPass {
			ev.passer = f.nameSaid(prior, m.Seat)
			ev.turn = prior.Turn()
		}
		st := &Step{Pos: e.Pos, Turn: prior.Turn(), Move: m, Text: text, Words: words, Before: prior, After: s, Effects: effects}
		i := 0
		for _, ef := range effects {
			if ef.Kind == engine.EffectSwap {
				sw := Swap{Pos: e.Pos, Turn: prior.Turn(), By: ef.By, Slots: [2]engine.Slot{ef.Slots[0], ef.Slots[1]}, Index: i, Move: text, Words: words}
				st.Swaps = append(st.Swaps, sw)
				i++
			}
		}
		f.step = st
		f.Moves = append(f.Moves, Moved{Pos: e.Pos, Turn: st.Turn, Seat: m.Seat, Text: text, Words: words, Swaps: st.Swaps})
		line := fmt.Sprintf("turn %d  %s", prior.Turn(), words)
		if len(st.Swaps) > 0 {
			if m.Seat == f.speaksTo() {
				line += "  (swapped or not: only you know)"
			} else {
				line += fmt.Sprintf("  (swapped or not: only %s knows)", prior.Name(m.Seat))
			}
		}
		say("%s", line)
		for _, ef := range effects {
			if ef.Kind == engine.EffectShowOthers {
				for _, sl := range ef.Slots {
					say("  %s is shown to everyone but %s", f.slotSaid(prior, sl), f.nameSaid(prior, ef.Except))
				}
			}
		}
	case table.BodyShares:
		if c := t.Completed(); c != nil && c.Kind == engine.EffectShowOthers && f.step != nil && len(f.Moves) > 0 {
			power := ""
			if card, _, ok := f.step.Before.Claim(); ok {
				power = f.step.Before.CardName(card)
			}
			mv := &f.Moves[len(f.Moves)-1]
			for _, sl := range c.Slots {
				mv.Shows = append(mv.Shows, Show{Pos: e.Pos, Turn: f.step.Turn, By: c.By, Except: c.Except, Slot: sl, Power: power})
			}
		}
		if c := t.Completed(); c != nil && c.Kind == engine.EffectReveal && f.step != nil {
			facts, err := seatview.RevealedFacts(t, c)
			if err != nil {
				return ev, err
			}
			_, more, err := prior.Learn(facts)
			if err != nil {
				return ev, err
			}
			f.step.Effects = append(f.step.Effects, more...)
			f.step.Facts = append(f.step.Facts, facts...)
			var out []string
			for _, fc := range facts {
				out = append(out, fmt.Sprintf("%s is the %s", f.slotSaid(s, fc.Slot), s.CardName(fc.Card)))
			}
			say("  revealed: %s", strings.Join(out, ", "))
		}
	}
	ev.Step = f.step
	// A step ends when no more shares are due.
	if _, k, ok := t.Expect(); f.step != nil && (!ok || k != table.BodyShares) {
		f.step.After = s
		ev.Ended = true
		ev.Lines = append(ev.Lines, f.stepEndLines(f.step.Before, s)...)
		f.step = nil
	}
	f.addLines(ev)
	return ev, nil
}

// addLines appends ev's lines to f.Lines, folding a pass into the line of
// the passes just before it in the same turn.
func (f *Follower) addLines(ev Event) {
	lines := ev.Lines
	if ev.passer != "" && len(lines) > 0 {
		// The pass's own line comes first; what the end of the window
		// brought (coins, a reveal) follows and ends the run.
		if r := &f.passes; r.end > 0 && r.end == len(f.Lines) && r.turn == ev.turn {
			r.names = append(r.names, ev.passer)
			f.Lines[r.end-1] = fmt.Sprintf("turn %d  passed: %s", r.turn, strings.Join(r.names, ", "))
		} else {
			f.Lines = append(f.Lines, lines[0])
			f.passes = passRun{end: len(f.Lines), turn: ev.turn, names: []string{ev.passer}}
		}
		lines = lines[1:]
		if len(lines) == 0 {
			return
		}
	}
	f.Lines = append(f.Lines, lines...)
	f.passes = passRun{}
}

// dealLines tell the deal: in the script's slot names for an audit
// ("Anna Queen, centre1 Bishop"), in words to the seat spoken to (the
// play screen: "your card is the Queen, centre card 1 is the Bishop").
func (f *Follower) dealLines(s Rules) []string {
	var cards []string
	for sl, c := range s.Deal() {
		if f.you == 0 {
			cards = append(cards, fmt.Sprintf("%s %s", s.SlotName(engine.Slot(sl)), s.CardName(c)))
			continue
		}
		cards = append(cards, fmt.Sprintf("%s is the %s", f.slotSaid(s, engine.Slot(sl)), s.CardName(c)))
	}
	return []string{
		"dealt face up: " + strings.Join(cards, ", "),
		fmt.Sprintf("every player has %d %s", s.Coins(0), seatview.Plural(s.Coins(0), "coin", "coins")),
	}
}

func (f *Follower) stepEndLines(before, after Rules) []string {
	if before == nil || after == nil {
		return nil
	}
	var out []string
	if !sameSeating(before, after) {
		out = append(out, f.seatingLine(before, after))
	}
	// The purses stay with the chairs (the Puppeteer): a player who
	// changed chairs is told by the purse they left ("Anna's purse
	// 11→10"), which is what coins moved, then what they hold now.
	bs, as := before.Seating(), after.Seating()
	var ch, now []string
	for p := range engine.Seat(after.Players()) {
		c := slices.Index(bs, p)
		if c < 0 || c >= len(as) || as[c] == p {
			if b, a := before.Coins(p), after.Coins(p); a != b {
				ch = append(ch, fmt.Sprintf("%s %d→%d", f.nameSaid(after, p), b, a))
			}
			continue
		}
		if b, a := before.Coins(p), after.Coins(as[c]); a != b {
			ch = append(ch, fmt.Sprintf("%s purse %d→%d", f.theirSaid(after, p), b, a))
		}
		now = append(now, fmt.Sprintf("%s %d", f.nameSaid(after, p), after.Coins(p)))
	}
	if b, a := before.Court(), after.Court(); a != b {
		ch = append(ch, fmt.Sprintf("court %d→%d", b, a))
	}
	if len(now) == 0 {
		if l := f.idlePower(before, after); l != "" {
			out = append(out, l)
		}
	}
	if len(ch) > 0 {
		out = append(out, "  coins: "+strings.Join(ch, ", "))
	}
	if len(now) > 0 {
		out = append(out, "  purses after changing chairs: "+strings.Join(now, ", "))
	}
	if l := f.droppedFines(before, after); l != "" {
		out = append(out, l)
	}
	if after.Over() && !before.Over() {
		out = append(out, fmt.Sprintf("game over after %d turns: %s won", after.Turn(), games.ListAnd(Winners(after), "nobody")))
	}
	return out
}

// idlePower tells why a claim's power gave its owner nothing, or "": the
// Cheat short of 10 coins, the Judge before an empty courthouse (the
// power comes before the fines), the Beggar with nobody richer, the Widow
// already at 10 or more. Without it the claim ends with the passes alone,
// or with the impostors' fines, and a first-time player cannot tell
// whether the power was used. The owner is the claimer when nobody
// challenged, else the contender whose revealed card is the one claimed
// (none: nobody used the power).
func (f *Follower) idlePower(before, after Rules) string {
	card, cs, ok := before.Claim()
	if !ok || len(cs) == 0 || after.Over() || f.step == nil {
		return ""
	}
	if _, _, still := after.Claim(); still {
		return ""
	}
	if m := f.step.Move; m.Kind == masquerade.KindChallenge && len(m.Args) == 1 {
		cs = append(cs, masquerade.Contender{Seat: m.Seat, Slot: engine.Slot(m.Args[0])})
	}
	p, found := cs[0].Seat, len(f.step.Facts) == 0
	for _, c := range cs {
		for _, fc := range f.step.Facts {
			if fc.Slot == c.Slot && fc.Card == card && !found {
				p, found = c.Seat, true
			}
		}
	}
	if !found || before.Coins(p) != after.Coins(p) {
		return ""
	}
	who := f.nameSaid(after, p)
	name := before.CardName(card)
	switch name {
	case "Cheat", "Cheater":
		win := mascarade.CheatCoins
		if before.Game() == "mascarade2" {
			win = mascarade2.CheaterCoins
		}
		return fmt.Sprintf("  the %s's power: %s had only %d %s and did not win (the %s wins with %d or more)", name, who, after.Coins(p), seatview.Plural(after.Coins(p), "coin", "coins"), name, win)
	case "Judge":
		if before.Court() != after.Court() {
			return fmt.Sprintf("  the Judge's power comes before the fines: the courthouse was empty, %s took nothing", who)
		}
		return fmt.Sprintf("  the Judge's power: the courthouse was empty, %s took nothing", who)
	case "Beggar":
		return fmt.Sprintf("  the Beggar's power: nobody was richer than %s, who got no coin", who)
	case "Widow":
		top := mascarade.WidowCoins
		if before.Game() == "mascarade2" {
			top = mascarade2.WidowCoins
		}
		return fmt.Sprintf("  the Widow's power: %s already had %d coins, %d or more, and took nothing", who, after.Coins(p), top)
	}
	return ""
}

// droppedFines tells the impostors of a claim whose fine was never paid
// because the power ended the game first (rule 19: what the turn had not
// yet done is dropped), or "". The fines only take coins, so a purse at
// 13 or more was reached before them. Otherwise (an empty purse, which
// may come from a fine itself, or the Cheat's win): the fines, all paid
// at once, add to the courthouse, which no power but the Judge's touches
// (and the Judge's ends no game but at 13), so a courthouse left as it
// was means that the power ended the game.
func (f *Follower) droppedFines(before, after Rules) string {
	if f.step == nil || !after.Over() || before.Over() {
		return ""
	}
	claimed, cs, ok := before.Claim()
	// before is the state the step's move was played in: a last
	// challenger, whose challenge is that move, is not among its
	// contenders yet.
	if m := f.step.Move; ok && m.Kind == masquerade.KindChallenge && len(m.Args) == 1 {
		cs = append(cs, masquerade.Contender{Seat: m.Seat, Slot: engine.Slot(m.Args[0])})
	}
	if !ok || len(cs) < 2 {
		return ""
	}
	rich := false
	for p := range engine.Seat(after.Players()) {
		rich = rich || after.Coins(p) >= masquerade.WinCoins
	}
	unpaid := before.CardName(claimed) != "Judge" && after.Court() == before.Court()
	if !rich && !unpaid {
		return ""
	}
	var who []string
	for _, c := range cs {
		for _, fc := range f.step.Facts {
			if fc.Slot == c.Slot && fc.Card != claimed {
				who = append(who, f.nameSaid(after, c.Seat))
			}
		}
	}
	if len(who) == 0 {
		return ""
	}
	return fmt.Sprintf("  no fine: the game ended before %s paid (the claim's power ended it)", games.ListAnd(who, ""))
}

// seatingLine tells who changed chairs (the Puppeteer): the cards and
// purses stay on the table, the players move.
func (f *Follower) seatingLine(before, after Rules) string {
	var moved, now []string
	b := before.Seating()
	for c, p := range after.Seating() {
		if c < len(b) && b[c] != p {
			moved = append(moved, f.nameSaid(after, p))
		}
		now = append(now, f.nameSaid(after, p))
	}
	slices.Sort(moved)
	who := strings.Join(moved, ", ")
	if len(moved) == 2 {
		who = moved[0] + " and " + moved[1]
	}
	return fmt.Sprintf("  %s changed chairs (cards and purses stay on the table); clockwise now: %s", who, strings.Join(now, ", "))
}

// Winners returns the winners' names, sorted.
func Winners(s Rules) []string {
	var ws []string
	for _, w := range s.Winners() {
		ws = append(ws, s.Name(w))
	}
	sort.Strings(ws)
	return ws
}

// TurnAt returns the turn of the last move at or before position pos, or
// 0 before the first move.
func TurnAt(moves []Moved, pos uint64) int {
	turn := 0
	for _, m := range moves {
		if m.Pos > pos {
			break
		}
		turn = m.Turn
	}
	return turn
}
