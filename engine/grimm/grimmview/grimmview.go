// Package grimmview is what a seat sees of The Grimm Masquerade: its view of the
// table, and its narration (package engine/seatview).
package grimmview

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Viewer builds the view of The Grimm Masquerade: the portraits with every
// hint token and broken mirror, every player's items face up, the seat's
// own character and hidden hand, the decks, the draft row and the round's
// action cards, and the question only the seat can answer.
type Viewer struct{}

// Narrator implements [seatview.Viewer]: the game tells its moves,
// reveals and coins in its own words (its table binding is a
// games.Teller).
func (Viewer) Narrator(you engine.Seat) seatview.Narrator {
	return games.TellingNarrator(grimm.Game{}, you)
}

// Auditor implements [seatview.Viewer]: the game's own words for every
// entry, and with the published keys its hidden cards (games.Revealer).
func (Viewer) Auditor(open seatview.Opener) seatview.Auditor {
	return games.TellingAuditor(grimm.Game{}, open)
}

// View implements [seatview.Viewer].
func (Viewer) View(in seatview.Input) (seatview.Table, bool) {
	s, ok := in.Rules.(*grimm.State)
	if !ok || s == nil {
		return seatview.Table{}, false
	}
	me := in.Seat
	known := in.Known
	if known == nil {
		known = map[engine.Slot]engine.Card{}
	}
	need := s.Next()
	// No decision is let go with p and no hidden swap confirmed: the
	// help lists neither (a claim's answer, "really exchange the cards?").
	t := seatview.Table{Game: grimm.Game{}.Title(), Over: s.Over() || in.Over, NoPass: true}

	// Status line.
	whose := ""
	switch {
	case s.Over():
		whose = "game over"
	case s.Turn() == me:
		whose = "your turn"
	default:
		whose = s.Name(s.Turn()) + "'s turn"
	}
	acts := s.Actions()
	switch s.Step() {
	case "draft":
		whose = "the draft: each takes an item from the row"
	case "ability":
		whose = "the abilities: who has the fewest roses chooses one"
	}
	t.Status = fmt.Sprintf("round %d of %d · %s", s.Round(), grimm.Rounds, whose)

	// Seats. In the round's setup (the draft, the 2-player abilities)
	// each player moves in turn: the mark is on whoever moves now, and
	// nobody answers someone else's turn.
	turn := s.Turn()
	if st := s.Step(); (st == "draft" || st == "ability") && need.Kind == engine.NeedMove {
		turn = need.Seat
	}
	for p := range engine.Seat(s.Players()) {
		st := seatview.Seat{Name: s.Name(p), You: p == me, Turn: !s.Over() && p == turn}
		st.Answers = !s.Over() && need.Kind == engine.NeedMove && need.Seat == p && p != turn
		roses := fmt.Sprintf("%d %s", s.Roses(p), seatview.Plural(s.Roses(p), "rose", "roses"))
		if r := s.Rewards(p); r > 0 {
			roses += fmt.Sprintf(" (%d from rewards)", r)
		}
		left := s.TokensLeft(p)
		st.Attrs = append(st.Attrs, seatview.Attr{Name: "roses", Value: fmt.Sprint(s.Roses(p)), Words: roses, Icon: seatview.IconRose},
			seatview.Attr{Name: "hint tokens", Value: fmt.Sprint(left), Words: fmt.Sprintf("%d %s left", left, seatview.Plural(left, "hint", "hints"))})
		if s.Jewel(p) {
			st.Attrs = append(st.Attrs, seatview.Attr{Name: "jewel", Value: "1", Words: "a jewel"})
		}
		if c := s.Ability(p); c != 0 {
			st.Attrs = append(st.Attrs, seatview.Attr{Name: "ability", Value: grimm.AbilityTitle(c), Words: "ability: " + grimm.AbilityTitle(c)})
		}
		for _, c := range grimm.Characters() {
			if s.HasToken(p, c) {
				st.Tokens = append(st.Tokens, "not "+grimm.The(c))
			}
		}
		// The character(s): public once unmasked, known to its holder.
		var status []string
		for _, sl := range s.CharSlotsOf(p) {
			switch c, seen := known[sl]; {
			case s.Known(sl) != 0:
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(s.Known(sl)), Face: seatview.FaceUp, Note: "character"})
				if slices.Contains(s.MaskedSlots(p), sl) {
					status = append(status, "shown: "+grimm.The(s.Known(sl)))
				} else {
					status = append(status, "unmasked: "+grimm.The(s.Known(sl)))
				}
			case in.OpenedAt(sl):
				// The keys published at the end open it for everyone.
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(in.Opened[sl]), Face: seatview.FaceUp, Note: "character"})
				status = append(status, "masked to the end: "+grimm.The(in.Opened[sl]))
			case p == me && seen:
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(c), Face: seatview.KnownToYou, Note: "your character"})
				status = append(status, "masked: you are "+grimm.The(c))
			default:
				st.Cards = append(st.Cards, seatview.Card{Face: seatview.FaceDown, Note: "character"})
				status = append(status, "masked")
			}
		}
		st.Status = strings.Join(status, "; ")
		for _, it := range s.Front(p) {
			st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(it.Item), Face: seatview.FaceUp, Track: int(it.Slot) + 1})
		}
		for _, sl := range s.Hand(p) {
			switch c, ok := known[sl]; {
			case in.OpenedAt(sl):
				// The keys published at the end open it for everyone.
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(in.Opened[sl]), Face: seatview.FaceUp, Note: "hand", Track: int(sl) + 1})
			case ok && p == me:
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(c), Face: seatview.KnownToYou, Note: "hand", Track: int(sl) + 1})
			default:
				st.Cards = append(st.Cards, seatview.Card{Face: seatview.FaceDown, Note: "hand", Track: int(sl) + 1})
			}
		}
		for _, sl := range s.BetsOf(p) {
			c, ok := known[sl]
			if o, opened := in.Opened[sl]; opened {
				c, ok = o, true
			}
			switch {
			case ok && s.Over():
				// Revealed to all at the round's end.
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(c), Face: seatview.FaceUp, Note: "bet"})
			case ok && p == me:
				st.Cards = append(st.Cards, seatview.Card{Name: grimm.DisplayName(c), Face: seatview.KnownToYou, Note: "bet"})
			default:
				st.Cards = append(st.Cards, seatview.Card{Face: seatview.FaceDown, Note: "bet"})
			}
		}
		t.Seats = append(t.Seats, st)
	}

	// Shared areas.
	portraits := seatview.Area{Name: "portraits", Count: -1, Marked: true, Note: "hint tokens: who said \"not me\"; a broken mirror: unmasked"}
	for _, c := range grimm.Characters() {
		card := seatview.Card{Name: grimm.DisplayName(c), Face: seatview.FaceUp}
		var by []string
		for p := range engine.Seat(s.Players()) {
			if s.HasToken(p, c) {
				by = append(by, s.Name(p))
			}
		}
		switch {
		case s.Broken(c):
			card.Note = "broken"
		case len(by) > 0:
			card.Note = "not " + strings.Join(by, ", ")
		}
		portraits.Cards = append(portraits.Cards, card)
	}
	t.Areas = append(t.Areas, portraits)
	actions := seatview.Area{Name: "actions", Count: -1, Note: "two equal items each"}
	if s.Options().Jewels {
		actions.Note = "two equal items, or the jewel and one"
	}
	if s.Players() == 2 {
		actions.Note += "; all but Mask off! earn a rose"
	}
	for _, a := range []grimm.Action{grimm.MaskOff, acts[0], acts[1]} {
		if a != 0 {
			actions.Cards = append(actions.Cards, seatview.Card{Name: grimm.ActionTitle(a), Face: seatview.FaceUp})
		}
	}
	t.Areas = append(t.Areas, actions)
	if row := s.Row(); len(row) > 0 {
		a := seatview.Area{Name: "draft row", Count: len(row)}
		for _, it := range row {
			a.Cards = append(a.Cards, seatview.Card{Name: grimm.DisplayName(it.Item), Face: seatview.FaceUp, Track: int(it.Slot) + 1})
		}
		t.Areas = append(t.Areas, a)
	}
	if dr := s.Drawn(); len(dr) > 0 {
		a := seatview.Area{Name: "drawn", Count: len(dr)}
		for _, it := range dr {
			a.Cards = append(a.Cards, seatview.Card{Name: grimm.DisplayName(it.Item), Face: seatview.FaceUp, Track: int(it.Slot) + 1})
		}
		t.Areas = append(t.Areas, a)
	}
	if c, ok := ownHandDraw(s, me, in); ok {
		// An unmasked seat's own draw goes into its hidden hand at once
		// (a private look): it is shown drawn, as everyone's draw is in
		// the drawn area while it is kept or given.
		t.Areas = append(t.Areas, seatview.Area{Name: "drawn", Count: 1,
			Words: "drawn: " + grimm.The(c) + ", into your hidden hand (only you know)",
			Cards: []seatview.Card{{Name: grimm.DisplayName(c), Face: seatview.KnownToYou, Note: "drawn"}}})
	}
	t.Areas = append(t.Areas, seatview.Area{Name: "item deck", Count: len(s.Deck()), Pile: true})
	disc := seatview.Area{Name: "discard", Count: len(s.Discard()), Pile: true}
	for _, it := range s.Discard() {
		disc.Cards = append(disc.Cards, seatview.Card{Name: grimm.DisplayName(it.Item), Face: seatview.FaceUp, Track: int(it.Slot) + 1})
	}
	t.Areas = append(t.Areas, disc)
	chars := seatview.Area{Name: "character deck", Count: len(s.CharDeck())}
	for _, sl := range s.CharDeck() {
		if c, ok := known[sl]; ok && s.Known(sl) == 0 {
			chars.Cards = append(chars.Cards, seatview.Card{Name: grimm.DisplayName(c), Face: seatview.KnownToYou})
		}
	}
	t.Areas = append(t.Areas, chars)

	// The question, or whom the table waits for.
	switch {
	case t.Over:
	case in.MyTurn && need.Kind == engine.NeedMove && need.Seat == me:
		t.Question = &seatview.Question{Text: grimm.Prompt(s, me, known), Forced: grimm.Forced(s, me), Choices: grimmChoices(s, me, known, in.Salt)}
	case need.Kind == engine.NeedMove:
		t.Waiting = grimmWaiting(s, need.Seat)
	default:
		t.Waiting = "the table to shuffle and reveal"
	}

	// The result.
	if s.Over() {
		var ws []string
		for _, w := range s.Winners() {
			ws = append(ws, grimmName(s, w, me))
			t.Won = t.Won || w == me
		}
		t.Result = append(t.Result, fmt.Sprintf("the game is over after round %d: %s won", s.Round(), strings.Join(ws, " and ")))
		var sc []string
		for p := range engine.Seat(s.Players()) {
			who := s.Name(p)
			if p == me {
				who = "you"
			}
			sc = append(sc, fmt.Sprintf("%s %d", who, s.Roses(p)))
		}
		t.Result = append(t.Result, "roses: "+strings.Join(sc, ", "))
		if l := tieBreak(s, me); l != "" {
			t.Result = append(t.Result, l)
		}
		if sum, ok := (grimm.Game{}).Summarize(s); ok {
			t.Ending = sum.Ending()
		}
		// The end for the seat, as Mascarade's and Mafia's say it (a
		// spectator, seat -1, has none).
		switch {
		case t.Won:
			t.Outcome = "you won!"
		case me >= 0 && int(me) < s.Players():
			t.Outcome = fmt.Sprintf("you lost, with %d %s", s.Roses(me), seatview.Plural(s.Roses(me), "rose", "roses"))
		}
	}
	// Your character first: a short screen keeps the memory's first line.
	t.Memory = append(t.Memory, grimmMemory(s, me, known)...)
	for _, r := range s.Results() {
		w := "nobody"
		if r.Winner >= 0 {
			w = grimmName(s, r.Winner, me)
		}
		how := "the last one masked"
		if r.ByTalismans {
			how = "three talismans"
		}
		t.Memory = append(t.Memory, fmt.Sprintf("round %d: %s won (%s)", r.Round, w, how))
	}
	t.Help = grimmHelp(s, t)
	return t, true
}

// ownHandDraw is the item seat me drew this turn into its hidden hand
// (an unmasked seat's draw: a private look at the top item, then its own
// shuffle of the hand), while it gives a card of the hand. The seat's
// sightings end with the look (one item, in the hand now) and then, the
// hand having more than one card, the shuffle's (every card of the hand,
// in the slots they went to, all at the shuffle's entry). None when the
// decks were both empty (the draw may have found no card: an older
// sighting is no draw of this turn).
func ownHandDraw(s *grimm.State, me engine.Seat, in seatview.Input) (engine.Card, bool) {
	if s.Over() || me < 0 || int(me) >= s.Players() || s.Players() <= 2 || s.Turn() != me || !s.Unmasked(me) || s.Step() != "hand" {
		return 0, false
	}
	if len(s.Deck()) == 0 && len(s.Discard()) == 0 {
		return 0, false
	}
	hand := s.Hand(me)
	var items []table.Sighting // the private sightings of items, last first
	for i := len(in.Memory) - 1; i >= 0 && len(items) <= len(hand)+1; i-- {
		m := in.Memory[i]
		if !m.Public && m.Slot >= grimm.ItemSlot0 && m.Slot < grimm.ItemSlot0+grimm.NumItems {
			items = append(items, m)
		}
	}
	if len(hand) > 1 {
		// Skip the shuffle's sightings: the hand's cards at one entry.
		n := 0
		for n < len(items) && items[n].Pos == items[0].Pos && slices.Contains(hand, items[n].Slot) {
			n++
		}
		if n != len(hand) {
			return 0, false
		}
		items = items[n:]
	}
	if len(items) == 0 || !slices.Contains(hand, items[0].Slot) {
		return 0, false
	}
	return items[0].Card, true
}

// grimmWaiting says what the table waits for from seat p.
func grimmWaiting(s *grimm.State, p engine.Seat) string {
	n := s.Name(p)
	switch s.Step() {
	case "draft":
		return n + " to take an item from the draft row"
	case "decide":
		return n + " to keep or give the drawn card"
	case "toast":
		return n + " to give the toasted items"
	case "hand":
		return n + " to give a card of their hidden hand"
	case "respond":
		if grimm.Forced(s, p) {
			if _, c, ok := s.Pending(); ok && c != 0 {
				return fmt.Sprintf("%s to answer: are they %s? (a hint, or unmasked)", n, grimm.The(c))
			}
			return n + " to place a hint token"
		}
		return n + " to take an extra draw or not"
	case "commit":
		return n + " to choose a portrait"
	case "action":
		return n + " to act or end the turn"
	case "bet":
		return n + " to take a bet card"
	case "ability":
		return n + " to choose an ability"
	}
	return n
}

// grimmChoices lists the moves seat p may make given what it knows, in
// words, the safe choice first (a hint before an unmasking, ending the
// turn before an action). An Eavesdrop commitment is sealed with a nonce
// from salt, never the predictable script nonce.
func grimmChoices(s *grimm.State, p engine.Seat, known map[engine.Slot]engine.Card, salt [32]byte) []seatview.Choice {
	legal := s.LegalMoves(p, known)
	nonce := sealNonce(salt, p, s.Round(), s.TokensLeft(p))
	var out []seatview.Choice
	seen := map[string]bool{}
	add := func(m engine.Move) {
		words := grimm.ChoiceWords(s, m, known)
		if seen[words] {
			return // two cards of a kind in a hidden hand: one choice
		}
		seen[words] = true
		out = append(out, seatview.Choice{Words: words, Move: m, Steps: grimmSteps(s, m, known)})
	}
	if seat, c, ok := s.Pending(); ok && seat == p && c == 0 {
		// Eavesdrop: opening a commitment sealed with the screen's nonce
		// (LegalMoves lists the openings of the script nonce's only).
		for _, c := range grimm.Characters() {
			open := engine.Move{Seat: p, Kind: grimm.KindHint, Args: append([]int{int(c)}, grimm.NonceArgs(nonce)...)}
			if _, _, err := s.Play(open); err == nil {
				add(open)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for _, m := range legal {
		if m.Kind == grimm.KindCommit {
			// One choice per portrait, sealed with the screen's nonce.
			for _, c := range grimm.Characters() {
				script := grimm.CommitArgs(grimm.CommitHash(p, c, grimm.NonceArgs(grimm.ScriptNonce(p, s.Round()))))
				if slices.Equal(script, m.Args) {
					sealed := engine.Move{Seat: p, Kind: grimm.KindCommit, Args: grimm.CommitArgs(grimm.CommitHash(p, c, grimm.NonceArgs(nonce)))}
					out = append(out, seatview.Choice{Words: "choose: not " + grimm.The(c) + " (sealed until both chose)", Move: sealed})
				}
			}
			continue
		}
		add(m)
	}
	// The safe choice first: a hint before unmasking or winning.
	slices.SortStableFunc(out, func(a, b seatview.Choice) int { return rank(a.Move) - rank(b.Move) })
	return out
}

// grimmSteps are the steps of an action in the menu: the action, then
// whom it is on, then the character named; the payments of one are its
// choices. Nil for other moves.
func grimmSteps(s *grimm.State, m engine.Move, known map[engine.Slot]engine.Card) []string {
	a := m.Args
	if d := s.Drawn(); m.Kind == grimm.KindGive && len(a) == 2 && len(d) == 2 {
		// The toast: whom the first card goes to, then the second.
		return []string{"give " + grimm.The(d[0].Item) + " to " + s.Name(engine.Seat(a[0]))}
	} else if m.Kind == grimm.KindGive && len(a) == 2 {
		// A card of the hidden hand: which, then to whom.
		if c, ok := known[engine.Slot(a[1])]; ok {
			return []string{"give " + grimm.The(c)}
		}
		return nil
	}
	if m.Kind != grimm.KindAct || len(a) < 3 {
		return nil
	}
	act, rest := grimm.Action(a[0]), a[3:]
	steps := []string{grimm.ActionTitle(act)}
	name := func(x int) string { return s.Name(engine.Seat(x)) }
	switch {
	case act == grimm.MaskOff && len(rest) == 2:
		steps = append(steps, "on "+name(rest[0]), grimm.The(engine.Card(rest[1]))+"?")
	case act == grimm.Eavesdrop && len(rest) >= 1:
		var on []string
		for _, x := range rest {
			on = append(on, name(x))
		}
		// Whom first, then alone or with whom.
		steps = append(steps, "on "+on[0], "on "+strings.Join(on, " and "))
	case act == grimm.Dance && len(rest) == 2:
		if rest[0] == -1 {
			steps = append(steps, "to the right")
		} else {
			steps = append(steps, "to the left")
		}
		steps = append(steps, "passing "+grimm.The(engine.Card(rest[1])))
	case act == grimm.Exchange && len(rest) == 2:
		steps = append(steps, "with "+name(rest[0]), "giving "+grimm.The(engine.Card(rest[1])))
	}
	return steps
}

func rank(m engine.Move) int {
	switch m.Kind {
	case grimm.KindUnmask, grimm.KindWin:
		return 1
	}
	return 0
}

// sealNonce is the nonce of seat p's Eavesdrop commitment in a round,
// with tokens hint tokens left (the same from the commitment to its
// opening, one fewer for the seat's next commitment, so that no two of
// its commitments share a nonce: an opened one would give the next away):
// SHA-256 of the screen's salt, the seat, the round and the tokens left,
// cut to 16 bytes.
func sealNonce(salt [32]byte, p engine.Seat, round, tokens int) [16]byte {
	h := sha256.Sum256(append(append([]byte("masque/view/grimm-seal/v2"), salt[:]...), byte(p), byte(round), byte(tokens)))
	return [16]byte(h[:16])
}

// grimmMemory is what seat p knows that the table does not show: its
// own character first (what wins it the round and what unmasks it), then
// the characters it saw in the character deck (nobody plays them this
// round).
func grimmMemory(s *grimm.State, p engine.Seat, known map[engine.Slot]engine.Card) []string {
	var out []string
	var deck []string
	for _, sl := range s.CharDeck() {
		if c, ok := known[sl]; ok && s.Known(sl) == 0 {
			deck = append(deck, grimm.The(c))
		}
	}
	for _, sl := range s.CharSlotsOf(p) {
		if c, ok := known[sl]; ok {
			boon, bane := s.Charm(c)
			out = append(out, fmt.Sprintf("you are %s: three %s win you the round, two %s unmask you",
				grimm.The(c), grimm.Plural(boon), grimm.Plural(bane)))
		}
	}
	if len(deck) > 0 {
		out = append(out, "you saw in the character deck (nobody plays them): "+strings.Join(deck, ", "))
	}
	return out
}

// grimmHelp is the help page: right now, the cards in play, how to play.
func grimmHelp(s *grimm.State, t seatview.Table) []seatview.Section {
	var now []string
	switch {
	case t.Over:
		now = append(now, t.Result...)
	case t.Question != nil:
		now = append(now, t.Question.Text)
		if t.Question.Forced {
			now = append(now, "This is a forced response: only you can answer, and you cannot lie (your answer is proven).")
		}
	case t.Waiting != "":
		now = append(now, "Waiting for "+t.Waiting+".")
	}
	chars := []string{"Character: talisman (three win the round) / curse (two unmask)"}
	for _, c := range grimm.Characters() {
		boon, bane := s.Charm(c)
		chars = append(chars, fmt.Sprintf("%-16s %s / %s", grimm.DisplayName(c), grimm.DisplayName(boon), grimm.DisplayName(bane)))
	}
	acts := s.Actions()
	var actions []string
	for _, a := range []grimm.Action{grimm.MaskOff, acts[0], acts[1]} {
		if a != 0 {
			actions = append(actions, grimm.ActionTitle(a)+": "+grimm.ActionHelp(a))
		}
	}
	if s.Options().Abilities {
		for _, c := range grimm.Characters() {
			actions = append(actions, fmt.Sprintf("ability %s (%s): %s", grimm.AbilityTitle(c), grimm.DisplayName(c), grimm.AbilityHelp(c)))
		}
	}
	return []seatview.Section{
		{Title: "Right now", Lines: now},
		{Title: "Characters in play", Lines: chars},
		{Title: "This round's actions", Lines: actions},
		{Title: "How to play", Lines: grimm.HowToPlay(s)},
	}
}

// grimmName is player p's name, or "you" for the seat the view is for.
func grimmName(s *grimm.State, p, me engine.Seat) string {
	if p == me {
		return "you"
	}
	return s.Name(p)
}

// tieBreak says how a tie for the most roses was decided ("tied at 7
// roses: the greater sum of reward tokens wins (you 5, Sasha 3)"), or ""
// when the most roses were not tied or the tie shares the win: without
// it the result showed two players with 7 roses and one "won".
func tieBreak(s *grimm.State, me engine.Seat) string {
	top := -1
	var tied []engine.Seat
	for p := range engine.Seat(s.Players()) {
		switch r := s.Roses(p); {
		case r > top:
			top, tied = r, []engine.Seat{p}
		case r == top:
			tied = append(tied, p)
		}
	}
	if len(tied) < 2 || len(s.Winners()) >= len(tied) {
		return ""
	}
	var sums []string
	for _, p := range tied {
		sums = append(sums, fmt.Sprintf("%s %d", grimmName(s, p, me), s.Rewards(p)))
	}
	return fmt.Sprintf("tied at %d roses: the greater sum of reward tokens wins (%s)", top, strings.Join(sums, ", "))
}
