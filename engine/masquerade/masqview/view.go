package masqview

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// View implements [seatview.Viewer]: the view of the viewer's edition:
// the seats in chair order with their coins and
// face-down cards (the 2nd edition's Puppeteer moves players between
// chairs), the court and the bank, the centre, the last reveal, the claim
// and its challenge window, the moves in words (a hidden swap asks
// whether it is real), the result, and the seat's memory: what it saw
// and when, and for each of its own cards which swaps since could have
// moved it.
func (v Viewer) View(in seatview.Input) (seatview.Table, bool) {
	s, ok := v.Of(in.Rules)
	if !ok || s == nil {
		return seatview.Table{}, false
	}
	me := in.Seat
	b := mascBuild{s: s, me: me, in: in, moves: movesOf(in.Record)}
	t := seatview.Table{Game: s.Title(), Over: s.Over() || in.Over}

	// Status line and counters.
	t.Status = fmt.Sprintf("turn %d · %s's turn", s.Turn(), s.Name(s.TurnSeat()))
	if s.TurnSeat() == me {
		t.Status = fmt.Sprintf("turn %d · your turn", s.Turn())
	}
	if s.Preparatory() {
		t.Status += fmt.Sprintf(" · preparatory (%d of %d): swap only", s.Turn(), s.PreparatoryTurns())
	}
	if s.Over() {
		t.Status = fmt.Sprintf("turn %d · game over", s.Turn())
	}
	t.Counters = []seatview.Attr{
		{Name: "court", Value: fmt.Sprint(s.Court()), Words: fmt.Sprintf("court %d", s.Court()), Icon: seatview.IconCoin},
		{Name: "bank", Value: fmt.Sprint(s.Bank()), Words: fmt.Sprintf("bank %d", s.Bank()), Icon: seatview.IconCoin},
	}

	// Seats, in chair order.
	secret := b.secretlyKnown()
	need := s.Next()
	seating := s.Seating()
	for chair, p := range seating {
		st := seatview.Seat{Name: s.Name(p), You: p == me, Turn: !s.Over() && p == s.TurnSeat()}
		st.Answers = !s.Over() && need.Kind == engine.NeedMove && need.Seat == p && p != s.TurnSeat()
		st.Attrs = []seatview.Attr{{Name: "coins", Value: fmt.Sprint(s.Coins(p)), Words: fmt.Sprintf("%d %s", s.Coins(p), seatview.Plural(s.Coins(p), "coin", "coins")), Icon: seatview.IconCoin}}
		for _, x := range s.SlotsOf(p) {
			c := seatview.Card{Face: seatview.FaceDown, Slot: int(x) + 1}
			if _, pos, ok := strings.Cut(s.SlotName(x), "."); ok {
				c.Place = pos
			}
			if k, ok := in.Opened[x]; ok {
				// The keys published at the end open it for everyone.
				c.Name, c.Face, c.Note = s.CardName(k), seatview.FaceUp, strings.TrimSpace(c.Place+" card")
			} else if k, ok := secret[x]; ok {
				c.Name, c.Face, c.Note = s.CardName(k), seatview.KnownToYou, "card"
			}
			st.Cards = append(st.Cards, c)
		}
		if int(p) != chair {
			st.Moved = fmt.Sprintf("in %s's chair", s.Name(engine.Seat(chair)))
			if engine.Seat(chair) == me {
				st.Moved = "in your chair"
			}
		}
		t.Seats = append(t.Seats, st)
	}
	if moved(seating) {
		var now []string
		for _, p := range seating {
			now = append(now, s.Name(p))
		}
		t.Notes = append(t.Notes, "seating (clockwise, moved by the Puppeteer): "+strings.Join(now, " → "))
	}

	// The centre and the last reveal.
	if cs := s.CenterSlots(); len(cs) > 0 {
		a := seatview.Area{Name: "centre", Count: len(cs), Words: fmt.Sprintf("centre: %d %s, face down", len(cs), seatview.Plural(len(cs), "card", "cards"))}
		var names []string
		for _, x := range cs {
			c := seatview.Card{Face: seatview.FaceDown, Slot: int(x) + 1}
			if k, ok := in.Opened[x]; ok {
				c.Name, c.Face = s.CardName(k), seatview.FaceUp
				names = append(names, "the "+c.Name)
			}
			a.Cards = append(a.Cards, c)
		}
		if len(names) == len(cs) {
			a.Words = "centre, opened with the published keys: " + strings.Join(names, ", ")
		}
		t.Areas = append(t.Areas, a)
	}
	if lr := s.LastRevealed(); len(lr) > 0 {
		a := seatview.Area{Name: "last reveal", Count: -1}
		var out []string
		for _, f := range lr {
			// Once the Puppeteer has moved players, the card of a chair
			// is in front of whoever sits there now.
			where := b.slotNowYours(f.Slot)
			a.Cards = append(a.Cards, seatview.Card{Name: s.CardName(f.Card), Face: seatview.FaceUp, Note: where})
			out = append(out, fmt.Sprintf("%s was the %s", where, s.CardName(f.Card)))
		}
		a.Words = "last reveal: " + strings.Join(out, ", ")
		t.Areas = append(t.Areas, a)
	}

	// The claim and its challenge window.
	if c, cont, ok := s.Claim(); ok && len(cont) > 0 {
		n := seatview.Notice{Title: "Claim", Text: fmt.Sprintf("%s claims to be the %s", s.Name(cont[0].Seat), s.CardName(c))}
		if cont[0].Seat == me {
			n.Text = fmt.Sprintf("you claim to be the %s", s.CardName(c))
		}
		if len(cont) > 1 {
			var ch []string
			for _, x := range cont[1:] {
				ch = append(ch, b.nameSaid(x.Seat))
			}
			n.Text += "; challenged by " + strings.Join(ch, ", ")
		}
		if s.InChallengeWindow() {
			n.Window = fmt.Sprintf("challenge window: %s to answer", s.Name(need.Seat))
			if need.Seat == me {
				n.Window, n.Yours = "challenge window: your answer", true
			}
		}
		t.Notices = append(t.Notices, n)
	}

	// The question, or whom the table waits for.
	switch {
	case t.Over:
	case in.MyTurn:
		q := &seatview.Question{Window: s.InChallengeWindow() && need.Seat == me}
		for _, mv := range s.LegalMoves(me) {
			c := seatview.Choice{Words: Choice(s, mv), Move: mv, Pass: mv.Kind == masquerade.KindPass, Steps: mascSteps(mv)}
			if s.HasSecretSwap(mv) {
				c.Secret, c.Confirm = true, SwapConfirm
				c.Yes, c.No = "Yes, really", "No, pretend"
			}
			q.Choices = append(q.Choices, c)
		}
		q.Text = b.restricted(q.Choices)
		t.Question = q
	case need.Kind == engine.NeedMove:
		t.Waiting = s.Name(need.Seat)
	}

	// The result.
	if s.Over() {
		t.Result = []string{fmt.Sprintf("game over after %d turns: %s won", s.Turn(), games.ListAnd(Winners(s), "nobody"))}
		t.Ending = t.Result[0]
		for _, w := range s.Winners() {
			t.Won = t.Won || w == me
		}
		if me >= 0 { // a spectator (Seat -1) has no outcome
			t.Outcome = fmt.Sprintf("you lost, with %d %s", s.Coins(me), seatview.Plural(s.Coins(me), "coin", "coins"))
		}
		if t.Won {
			t.Outcome = "you won!"
		}
	}
	t.Memory = b.memory()
	t.Swapped = b.swapped()
	t.Help = b.help(in.MyTurn)
	// The public log, in the second person where it names the seat as
	// the swapper.
	name := ""
	if int(me) >= 0 && int(me) < len(in.Names) {
		name = in.Names[me]
	}
	for _, l := range in.Log {
		t.Log = append(t.Log, personal(l, name))
	}
	if t.Log == nil {
		t.Log = []string{}
	}
	return t, true
}

// mascSteps are the steps of a move in the menu: a swap, then with whom;
// a claim, then which character. Nil for other moves.
func mascSteps(mv engine.Move) []string {
	switch mv.Kind {
	case masquerade.KindSwap:
		return []string{"swap your card with another"}
	case masquerade.KindClaim:
		return []string{"claim a character"}
	}
	return nil
}

// secretlyKnown are the seat's own cards it knows for sure and the
// others do not: it looked at them, or swapped them in, or a hidden swap
// could have moved them since everyone saw them (at the deal, at a
// reveal). A card everyone knows, or one the seat is unsure of, is not
// in it; nor is any without the record of the swaps (Input.Record).
func (b mascBuild) secretlyKnown() map[engine.Slot]engine.Card {
	s, me := b.s, b.me
	if me < 0 || b.moves == nil {
		return nil
	}
	beliefs := Beliefs(s, b.in.Memory, b.moves, b.swapBits(), me)
	out := map[engine.Slot]engine.Card{}
	for _, own := range s.SlotsOf(me) {
		if int(own) >= len(beliefs) || !beliefs[own].Known() {
			continue
		}
		bl := beliefs[own]
		private := bl.Source == FromPeek || len(bl.MovedIn) > 0
		if bl.Source == FromDeal || bl.Source == FromReveal {
			for _, mv := range b.moves {
				for _, sw := range mv.Swaps {
					if int64(sw.Pos) > bl.Pos && (sw.Slots[0] == own || sw.Slots[1] == own) {
						private = true
					}
				}
			}
		}
		if private {
			out[own] = bl.Cards[0]
		}
	}
	return out
}

// mascBuild is what the Mascarade builder's helpers share.
type mascBuild struct {
	s     Rules
	me    engine.Seat
	in    seatview.Input
	moves []Moved // the record of the moves (in.Record), nil without one
}

// restricted says why the seat may not claim on its turn, when that is
// so after the preparatory turns (its card was revealed in the previous
// turn): the choices are only swaps, or swaps and a look. "" otherwise.
func (b mascBuild) restricted(choices []seatview.Choice) string {
	s := b.s
	if len(choices) == 0 || s.TurnSeat() != b.me || s.Preparatory() || s.InChallengeWindow() {
		return ""
	}
	look := false
	for _, c := range choices {
		switch c.Move.Kind {
		case masquerade.KindSwap:
		case masquerade.KindPeek:
			look = true
		default:
			return ""
		}
	}
	if look {
		return "Your card was revealed in the last turn: this turn you may swap or look at it, not claim."
	}
	return "Your card was revealed in the last turn: this turn you may only swap."
}

// choices are the seat's legal moves as choices (their moves only).
func (b mascBuild) choices() []seatview.Choice {
	var out []seatview.Choice
	for _, mv := range b.s.LegalMoves(b.me) {
		out = append(out, seatview.Choice{Move: mv})
	}
	return out
}

// nameSaid is a player's name, or "you" for the seat the view is for.
func (b mascBuild) nameSaid(p engine.Seat) string {
	if p == b.me {
		return "you"
	}
	return b.s.Name(p)
}

// personal speaks to the player in a public log line: "only you know"
// where the line names the player as the swapper.
func personal(line, me string) string {
	return strings.Replace(line, "(swapped or not: only "+me+" knows)", "(swapped or not: only you know)", 1)
}

// moved reports whether anyone sits on another chair than at the start.
func moved(seating []engine.Seat) bool {
	for c, p := range seating {
		if int(p) != c {
			return true
		}
	}
	return false
}

// slotNowYours names a revealed slot: "your card", or the card now in
// front of a player once the Puppeteer has moved players (a reveal names
// the chair's card, and the player there may have changed since).
func (b mascBuild) slotNowYours(slot engine.Slot) string {
	if owner, ok := b.s.SlotOwner(slot); ok && owner == b.me {
		return SlotWords(b.s, slot, b.me)
	}
	return b.slotNow(slot)
}

// slotNow names a slot for a sighting: once the Puppeteer has moved a
// player to another chair, the card in front of them is the chair's, not
// the one they were dealt, so it says so ("the card now in front of
// Fedya"); a player on their own chair has their card ("Anna's card").
func (b mascBuild) slotNow(slot engine.Slot) string {
	if owner, ok := b.s.SlotOwner(slot); ok && moved(b.s.Seating()) && engine.Seat(slot) != owner {
		return "the card now in front of " + b.s.SlotName(slot)
	}
	return SlotWords(b.s, slot, -1)
}

// swapBits are the seat's secret bits, never nil.
func (b mascBuild) swapBits() map[uint64][]bool {
	if b.in.SwapBits == nil {
		return map[uint64][]bool{}
	}
	return b.in.SwapBits
}

// memory is what the seat saw and when, and for each of its own cards
// which swaps since could have moved it; an indented line continues the
// one above.
func (b mascBuild) memory() []string {
	s, me, moves := b.s, b.me, b.moves
	if me < 0 {
		return nil // a spectator remembers nothing
	}
	var out []string
	line := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	beliefs := Beliefs(s, b.in.Memory, moves, b.swapBits(), me)
	for _, own := range s.SlotsOf(me) {
		if int(own) >= len(beliefs) {
			continue
		}
		bl := beliefs[own]
		which := "your card"
		if len(s.SlotsOf(me)) > 1 {
			which = SlotWords(s, own, me)
		}
		var names []string
		for _, c := range bl.Cards {
			names = append(names, "the "+s.CardName(c))
		}
		when, how := b.seenWhen(bl)
		seen := "seen " + when
		if how != "" {
			seen += " (" + how + ")"
		}
		switch {
		case !bl.Known():
			line("%s: %s (each was here or was swapped in since you knew)", which, strings.Join(names, " or "))
		case len(bl.MovedIn) > 0:
			last := bl.MovedIn[len(bl.MovedIn)-1]
			// One pair of brackets: "(seen turn 16, revealed to all)".
			if how != "" {
				when += ", " + how
			}
			line("%s: %s, which you swapped in at turn %d (seen %s)", which, names[0], last.Turn, when)
		default:
			line("%s: %s, %s", which, names[0], seen)
		}
		if first := engine.Seat(own); len(s.SlotsOf(me)) == 1 && int(first) < s.Players() && first != me {
			line("  you sit where %s sat at the start (the Puppeteer moved you): its card and purse are yours", s.Name(first))
		}
		if moves == nil {
			continue // no record of the swaps: nothing more to say
		}
		since := bl.Uncertain
		if len(since) == 0 {
			line("  no swap since then could have moved it")
			continue
		}
		line("  swaps since that could have moved it:")
		if n := len(since); n > 5 {
			line("    … %d earlier", n-4)
			since = since[n-4:]
		}
		for _, sw := range since {
			note := ""
			if sw.By == me {
				note = "  (yours: this screen does not know whether you exchanged)"
			}
			line("    turn %d  %s%s", sw.Turn, sw.Words, note)
		}
	}
	// What else the seat saw, most recent last.
	var seen []string
	for _, sg := range b.in.Memory {
		if owner, ok := s.SlotOwner(sg.Slot); ok && owner == me {
			continue
		}
		how := "you saw"
		if sg.Public {
			how = "revealed"
		} else if sh, ok := b.shown(sg); ok {
			how = b.shownBy(sh)
		}
		seen = append(seen, fmt.Sprintf("%s  %s: %s was the %s", b.when(sg.Pos), how, b.slotNow(sg.Slot), s.CardName(sg.Card)))
	}
	// Cards of this seat shown to everyone else: it never learns which.
	for _, mv := range moves {
		for _, sh := range mv.Shows {
			if sh.Except == me {
				seen = append(seen, fmt.Sprintf("turn %d  %s's %s showed your card to everyone but you", sh.Turn, s.Name(sh.By), power(sh)))
			}
		}
	}
	if n := len(seen); n > 4 {
		seen = seen[n-4:]
	}
	return append(out, seen...)
}

// seenWhen says when ("turn 16", "at the deal") and how ("revealed to
// all"; "" at the deal) the seat last knew a card for sure.
func (b mascBuild) seenWhen(bl Belief) (when, how string) {
	if bl.Source == FromDeal || bl.Pos < 0 {
		return "at the deal", ""
	}
	how = "you peeked"
	switch bl.Source {
	case FromReveal:
		how = "revealed to all"
	case FromShown:
		if sh, ok := b.shown(table.Sighting{Pos: uint64(bl.Pos), Slot: bl.Seen}); ok {
			how = b.shownBy(sh)
		}
	}
	return b.when(uint64(bl.Pos)), how
}

// shown returns the show (the Princess) a sighting came from, if the
// moves are listed.
func (b mascBuild) shown(sg table.Sighting) (Show, bool) {
	for _, mv := range b.moves {
		for _, sh := range mv.Shows {
			if sh.Pos == sg.Pos && sh.Slot == sg.Slot {
				return sh, true
			}
		}
	}
	return Show{}, false
}

func power(sh Show) string {
	if sh.Power == "" {
		return "power"
	}
	return sh.Power
}

func (b mascBuild) shownBy(sh Show) string {
	return fmt.Sprintf("%s's %s showed you", b.s.Name(sh.By), power(sh))
}

// when names the moment of entry pos: its turn when the moves are listed,
// else the entry.
func (b mascBuild) when(pos uint64) string {
	if b.moves == nil {
		return fmt.Sprintf("entry %d", pos)
	}
	return fmt.Sprintf("turn %d", TurnAt(b.moves, pos))
}

// help is the help page: what applies right now, every character in play
// with its power, and how to play (what a challenge means).
func (b mascBuild) help(myTurn bool) []seatview.Section {
	s := b.s
	var now []string
	switch c, contenders, ok := s.Claim(); {
	case s.Over():
		now = append(now, "The game is over.")
	case ok && s.InChallengeWindow() && len(contenders) > 0:
		who := s.Name(contenders[0].Seat) + " claims"
		if contenders[0].Seat == b.me {
			who = "You claim"
		}
		now = append(now, fmt.Sprintf("%s to be the %s (%s).", who, s.CardName(c), s.Power(c)))
		if myTurn {
			now = append(now, fmt.Sprintf("Challenge only if you believe your card is the %s: if it is not, you pay 1 coin.", s.CardName(c)))
		}
	case s.Preparatory():
		now = append(now, "A preparatory turn: the only move is a swap (real or pretended).")
	case myTurn && s.TurnSeat() == b.me && s.Next().Seat == b.me:
		if r := b.restricted(b.choices()); r != "" {
			now = append(now, r)
			break
		}
		now = append(now, "Your turn: swap, look at your card, or claim a character.")
	case myTurn:
		now = append(now, "Your turn: swap, look at your card, or claim a character.")
	default:
		now = append(now, fmt.Sprintf("%s's turn.", s.Name(s.TurnSeat())))
	}
	var chars []string
	for _, c := range InPlay(s) {
		chars = append(chars, fmt.Sprintf("%-11s %s", s.CardName(c), s.Power(c)))
	}
	return []seatview.Section{
		{Title: "Right now", Lines: now},
		{Title: "Characters in play", Lines: chars},
		{Title: "How to play", Lines: HowToPlay(s)},
	}
}

// swapped is the last move with hidden swaps, nil when none is recorded.
func (b mascBuild) swapped() *seatview.Swapped {
	for i := len(b.moves) - 1; i >= 0; i-- {
		m := b.moves[i]
		if len(m.Swaps) == 0 {
			continue
		}
		sw := &seatview.Swapped{At: m.Pos}
		for _, x := range m.Swaps {
			sw.Pairs = append(sw.Pairs, [2]int{int(x.Slots[0]) + 1, int(x.Slots[1]) + 1})
		}
		return sw
	}
	return nil
}
