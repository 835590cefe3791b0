// Package mafiaview is what a seat sees of Mafia: its view of the
// table, and its narration (package engine/seatview).
package mafiaview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/seatview"
)

// Viewer builds the view of Mafia: Random Incident: the living and the
// dead with the roles their elimination revealed, day or night and the
// day number, the vote in progress, the morning's announcement, the
// seat's own role and incident cards, its mates (a mafioso's), its
// private results (the Commissar's checks), and the question only the
// seat can answer, the night's secret choice included. Another seat's
// role or card is face down until the rules reveal it or the keys
// published at the end open it.
type Viewer struct{}

// Narrator implements [seatview.Viewer]: the game tells its moves,
// reveals and coins in its own words (its table binding is a
// games.Teller).
func (Viewer) Narrator(you engine.Seat) seatview.Narrator {
	return &recorder{Narrator: games.TellingNarrator(mafia.Game{}, you)}
}

// Auditor implements [seatview.Viewer]: the game's own words for every
// entry, and with the published keys its hidden cards (games.Revealer).
func (Viewer) Auditor(open seatview.Opener) seatview.Auditor {
	return games.TellingAuditor(mafia.Game{}, open)
}

// View implements [seatview.Viewer]. in.Private is the seat's *mafia.Knowledge
// (nil: it knows nothing yet beyond its cards).
func (Viewer) View(in seatview.Input) (seatview.Table, bool) {
	s, ok := in.Rules.(*mafia.State)
	if !ok || s == nil {
		return seatview.Table{}, false
	}
	me := in.Seat
	k, _ := in.Private.(*mafia.Knowledge)
	if k == nil || k.Seat != me {
		k = mafia.NewKnowledge(me)
	}
	known := in.Known
	if known == nil {
		known = map[engine.Slot]engine.Card{}
	}
	t := seatview.Table{Game: mafia.Game{}.Title(), Over: s.Over() || in.Over}
	need := s.Next()
	day := isDay(s.Phase())
	// A seat that posted its night actions waits, like the others, for
	// the rest of the night: the rules' state may already be the coming
	// day (the recognition night comes before day 1's first move), but
	// no day move is asked until every seat has posted.
	night := in.Night || in.TableNight
	if night {
		need = engine.Need{} // nobody's turn: every living seat chooses in secret
	}
	t.Phase = "night"
	if day && !night {
		t.Phase = "day"
	}

	// Status line.
	when := fmt.Sprintf("night %d", s.Day())
	if day && !night { // the recognition night comes before day 1's first move
		when = fmt.Sprintf("day %d", s.Day())
	}
	if me >= 0 && me < engine.Seat(s.Players()) && !s.Alive(me) && !s.Over() {
		when += " · you are out of the game and watch"
	}
	switch {
	case s.Over():
		t.Status = fmt.Sprintf("game over on day %d", s.Day())
	case in.Night:
		t.Status = when + " · the city sleeps: your secret night choice"
	case need.Kind == engine.NeedMove && need.Seat == me:
		t.Status = when + " · your turn"
	case need.Kind == engine.NeedMove:
		// Whose turn; the waiting line says what for.
		t.Status = when + " · " + s.Name(need.Seat) + "'s turn"
	default:
		t.Status = when + " · the city sleeps"
	}
	t.Counters = []seatview.Attr{
		{Name: "alive", Value: fmt.Sprint(len(s.Living())), Words: fmt.Sprintf("%d alive", len(s.Living()))},
		{Name: "mafia alive", Value: fmt.Sprint(s.MafiaAlive()), Words: fmt.Sprintf("%d of them mafia", s.MafiaAlive())},
	}
	if s.Incidents() {
		n := len(s.Pile())
		t.Counters = append(t.Counters, seatview.Attr{Name: "incident deck", Value: fmt.Sprint(n), Words: fmt.Sprintf("incident deck: %d %s", n, seatview.Plural(n, "card", "cards"))})
	}

	// Seats.
	votes, holds := s.Votes(), s.Holds()
	for p := range engine.Seat(s.Players()) {
		st := seatview.Seat{Name: s.Name(p), You: p == me}
		st.Turn = !s.Over() && need.Kind == engine.NeedMove && need.Seat == p
		var status []seatview.Part
		say := func(text, mark string) { status = append(status, seatview.Part{Text: text, Mark: mark}) }
		role, revealed := s.Revealed(p)
		var brief []string // the status in a few words (Seat.Brief)
		switch {
		case s.Alive(p):
			say("alive", "")
		case s.Left(p):
			say("left the game", "")
			brief = append(brief, "left")
			st.Out = true
		default:
			say("out", "")
			brief = append(brief, "out")
			st.Out = true
		}
		switch c, ok := in.Opened[s.RoleSlot(p)]; {
		case revealed:
			st.Cards = append(st.Cards, seatview.Card{Name: mafia.CardWords(role), Face: seatview.FaceUp, Note: "role"})
			if s.Alive(p) {
				say(article(role), "")
			} else {
				say("was "+article(role), "")
			}
			brief = append(brief, mafia.CardWords(role))
		case ok && mafia.IsRole(c):
			st.Cards = append(st.Cards, seatview.Card{Name: mafia.CardWords(c), Face: seatview.FaceUp, Note: "role"})
			say("was "+article(c), "")
			brief = append(brief, mafia.CardWords(c))
		case p == me && k.Role >= 0:
			st.Cards = append(st.Cards, seatview.Card{Name: mafia.CardWords(k.Role), Face: seatview.KnownToYou, Note: "your role"}) // the status says it
			say("you are "+article(k.Role), seatview.MarkOwn)
			brief = append(brief, mafia.CardWords(k.Role))
		default:
			st.Cards = append(st.Cards, seatview.Card{Face: seatview.FaceDown, Note: "role"})
		}
		if p != me && slices.Contains(k.Mates, p) {
			say("your mate in the mafia", seatview.MarkWarn)
			brief = append(brief, "your mate")
		}
		if r, ok := k.Checks[p]; ok && p != me {
			// A check that found the mafia warns; any other is the
			// seat's own knowledge.
			mark := seatview.MarkOwn
			if r {
				mark = seatview.MarkWarn
			}
			say("you checked: "+teamWords(r), mark)
			brief = append(brief, "checked: "+teamWords(r))
		}
		st.Brief = strings.Join(brief, ", ")
		if !s.Alive(p) && len(brief) > 1 {
			st.Brief = brief[0] + ": " + strings.Join(brief[1:], ", ") // "out: Civilian"
		}
		for _, sl := range s.Hand(p) {
			switch c, ok := known[sl]; {
			case in.OpenedAt(sl):
				st.Cards = append(st.Cards, seatview.Card{Name: mafia.CardWords(in.Opened[sl]), Face: seatview.FaceUp, Note: "hand"})
			case ok && p == me:
				st.Cards = append(st.Cards, seatview.Card{Name: mafia.CardWords(c), Face: seatview.KnownToYou, Note: "hand"})
			default:
				st.Cards = append(st.Cards, seatview.Card{Face: seatview.FaceDown, Note: "hand"})
			}
		}
		if s.Alive(p) {
			switch s.Phase() {
			case mafia.PhaseHold:
				if h := holds[p]; h >= 0 {
					w := map[int8]string{0: "wants no vote", 1: "wants a vote"}[h]
					st.Attrs = append(st.Attrs, seatview.Attr{Name: "vote today", Value: map[int8]string{0: "no", 1: "yes"}[h], Words: w})
				}
			case mafia.PhaseVote, mafia.PhaseDayAnswer:
				switch v := votes[p]; {
				case v == -1:
					st.Attrs = append(st.Attrs, seatview.Attr{Name: "vote", Value: "abstains", Words: "abstains"})
				case v >= 0:
					st.Attrs = append(st.Attrs, seatview.Attr{Name: "vote", Value: s.Name(engine.Seat(v)), Words: "votes for " + nameFor(s, engine.Seat(v), me)})
				}
			}
		}
		st.Parts = status
		var texts []string
		for _, pt := range status {
			texts = append(texts, pt.Text)
		}
		st.Status = strings.Join(texts, "; ")
		t.Seats = append(t.Seats, st)
	}

	// The vote in progress and the morning's announcement.
	if n := mafiaVote(s, me); n != nil && !night {
		t.Notices = append(t.Notices, *n)
	}
	if day && !night && s.Day() == 1 && !s.Over() {
		// The screen opens on day 1: say what night 1 was, so that the
		// night that follows, night 2, misses nothing.
		t.Notices = append(t.Notices, seatview.Notice{Title: "Last night", Text: "Night 1 was the recognition night: the mafia learnt who their mates are, and nobody was attacked."})
	}
	if day && s.Day() > 1 {
		rec, _ := in.Record.(*Record)
		if lines := morning(s, me, rec.night(s.Day())); len(lines) > 0 {
			t.Notices = append(t.Notices, seatview.Notice{Title: "This morning", Text: strings.Join(lines, " ")})
		}
	}

	// The question.
	switch {
	case s.Over():
	case in.Night:
		t.Question = nightQuestion(s, me, k, in.Decisions)
	case in.MyTurn && need.Kind == engine.NeedMove && need.Seat == me:
		cs := mafiaChoices(s, me, k, known)
		t.Question = &seatview.Question{Text: mafiaPrompt(s, me, cs), Forced: s.Phase() != mafia.PhaseHold && s.Phase() != mafia.PhaseVote,
			Choices: cs}
	case need.Kind == engine.NeedMove:
		t.Waiting = mafiaWaiting(s, need.Seat)
	}

	// The end.
	if s.Over() {
		side := map[mafia.Side]string{mafia.SideMafia: "the mafia win", mafia.SideCivilians: "the civilians win", mafia.SideDraw: "the game is a draw"}[s.Result()]
		t.Result = append(t.Result, fmt.Sprintf("Game over on day %d: %s.", s.Day(), side))
		if sum, ok := (mafia.Game{}).Summarize(s); ok {
			t.Ending = sum.Ending()
		}
		var ws []string
		for _, w := range s.Winners() {
			ws = append(ws, nameFor(s, w, me))
			if w == me {
				t.Won = true
			}
		}
		if len(ws) > 0 {
			t.Result = append(t.Result, "Winners: "+games.ListAnd(ws, "nobody")+".")
		}
		switch {
		case me < 0: // a spectator has no outcome
		case t.Won:
			t.Outcome = "you won!"
		case s.Result() == mafia.SideDraw:
			t.Outcome = "a draw"
		default:
			t.Outcome = "you lost"
		}
	}
	t.Memory = mafiaMemory(s, me, k, known)
	t.Help = mafiaHelp(s, k)
	t.NoPass = true
	return t, true
}

// isDay reports whether the phase is part of a day.
func isDay(p mafia.Phase) bool {
	return p == mafia.PhaseHold || p == mafia.PhaseVote || p == mafia.PhaseDayAnswer || p == mafia.PhaseOver
}

// article names a card with its article ("a Civilian", "the Don").
func article(c engine.Card) string {
	switch c {
	case mafia.Commissar, mafia.Nurse, mafia.Butterfly, mafia.Don, mafia.Madman:
		return "the " + mafia.CardWords(c)
	case mafia.Alibi, mafia.EvidenceLeft, mafia.EvidenceRight:
		return "an " + mafia.CardWords(c)
	}
	return "a " + mafia.CardWords(c)
}

func teamWords(isMafia bool) string {
	if isMafia {
		return "mafia"
	}
	return "not mafia"
}

// nameFor is p's name, or "you" for the seat me.
func nameFor(s *mafia.State, p, me engine.Seat) string {
	if p == me {
		return "you"
	}
	return s.Name(p)
}

// mafiaWaiting says what the table waits for from seat p.
func mafiaWaiting(s *mafia.State, p engine.Seat) string {
	n := s.Name(p)
	switch s.Phase() {
	case mafia.PhaseHold:
		return n + " to say whether to vote today"
	case mafia.PhaseVote:
		return n + " to vote"
	case mafia.PhaseDayAnswer:
		return n + " to answer the vote (an Alibi, an Evidence, or accept)"
	case mafia.PhaseNightAnswer:
		return n + " to answer the attack (a Misfire, a Ricochet, or accept)"
	case mafia.PhaseDateAnswer:
		return n + " to answer the attack on the Night Butterfly they spent the night with (a Misfire, or accept)"
	}
	return n
}

// mafiaVote is the day's vote in progress, or nil.
func mafiaVote(s *mafia.State, me engine.Seat) *seatview.Notice {
	switch s.Phase() {
	case mafia.PhaseHold:
		yes, asked := 0, 0
		for _, p := range s.Living() {
			if h := s.Holds()[p]; h >= 0 {
				asked++
				if h == 1 {
					yes++
				}
			}
		}
		return &seatview.Notice{Title: "Vote today?", Text: fmt.Sprintf("%d of %d answered, %d want a vote; it is held only if most of the %d living want it.", asked, len(s.Living()), yes, len(s.Living()))}
	case mafia.PhaseVote, mafia.PhaseDayAnswer:
		count := map[engine.Seat]int{}
		voted, abst := 0, 0
		for _, p := range s.Living() {
			switch v := s.Votes()[p]; {
			case v == -1:
				voted++
				abst++
			case v >= 0:
				voted++
				count[engine.Seat(v)]++
			}
		}
		// The most votes first ("bob 3, you 2"), then in seat order.
		var named []engine.Seat
		for p := range engine.Seat(s.Players()) {
			if count[p] > 0 {
				named = append(named, p)
			}
		}
		slices.SortStableFunc(named, func(a, b engine.Seat) int { return count[b] - count[a] })
		var parts []string
		for _, p := range named {
			parts = append(parts, fmt.Sprintf("%s %d", nameFor(s, p, me), count[p]))
		}
		if abst > 0 {
			parts = append(parts, fmt.Sprintf("abstained %d", abst))
		}
		text := fmt.Sprintf("%d of %d voted", voted, len(s.Living()))
		if len(parts) > 0 {
			text += ": " + strings.Join(parts, ", ")
		}
		if c := s.Condemned(); s.Phase() == mafia.PhaseDayAnswer && c != mafia.NoSeat {
			if len(named) > 0 && named[0] != c {
				// An Evidence card moved it ("Oleg 9" and "eliminates you").
				text += fmt.Sprintf(". An Evidence card moved the elimination from %s", nameFor(s, named[0], me))
			}
			text += fmt.Sprintf(". The vote eliminates %s unless %s answer%s with an incident card.", nameFor(s, c, me), nameFor(s, c, me), map[bool]string{true: "", false: "s"}[c == me])
		}
		return &seatview.Notice{Title: "The vote", Text: text}
	}
	return nil
}

// morning is the announcement of the last night: who was attacked, whom
// the Nurse or the Night Butterfly protected, and, for the others, the
// incident cards they answered with (answers, the narrator's record)
// or their death.
func morning(s *mafia.State, me engine.Seat, answers []Answer) []string {
	// Each attacked player's line, told in seat order from the first
	// attacks, each followed by the lines of the players its answers
	// moved the attack to (not before it, which read as two attacks).
	lines := make(map[engine.Seat]string)
	moved := make(map[engine.Seat][]engine.Seat)
	movedTo := make(map[engine.Seat]bool)
	for _, an := range answers {
		if an.Card != mafia.Misfire && an.To != mafia.NoSeat && an.To != an.Seat {
			moved[an.Seat] = append(moved[an.Seat], an.To)
			movedTo[an.To] = true
		}
	}
	var out []string
	told := make(map[engine.Seat]bool)
	var tell func(p engine.Seat)
	tell = func(p engine.Seat) {
		l, ok := lines[p]
		if !ok || told[p] {
			return
		}
		told[p] = true
		out = append(out, l)
		for _, q := range moved[p] {
			tell(q)
		}
	}
	for p := range engine.Seat(s.Players()) {
		a, saved, dated := s.Attacked(p)
		if !a {
			continue
		}
		n, was := nameFor(s, p, me), "was"
		if p == me {
			n, was = "You", "were"
		}
		switch {
		case saved:
			lines[p] = fmt.Sprintf("%s %s attacked and saved by the Nurse.", n, was)
			continue
		case dated:
			lines[p] = fmt.Sprintf("%s %s attacked but spent the night with the Night Butterfly.", n, was)
			continue
		}
		// Not protected: the player answered with incident cards after
		// the announcement (public acts, docs/mafia.md §11.1 A11), and
		// lives, or died of it.
		line := fmt.Sprintf("%s %s attacked", n, was)
		played := 0
		for _, an := range answers {
			if an.Seat != p {
				continue
			}
			played++
			switch to := an.To; {
			case an.Card == mafia.Misfire:
				line += fmt.Sprintf("; %s a Misfire: the attack missed", playedWords(n, p, me))
			case to == mafia.NoSeat:
				line += fmt.Sprintf("; %s %s, but nobody was there to take the attack", playedWords(n, p, me), article(an.Card))
			default:
				line += fmt.Sprintf("; %s %s: the attack moved to %s", playedWords(n, p, me), article(an.Card), nameFor(s, to, me))
			}
		}
		switch {
		case s.Left(p):
		case !s.Alive(p) && played == 0:
			line += " and died"
		case !s.Alive(p):
			line += "; " + map[bool]string{true: "you", false: n}[p == me] + " died"
		case played == 0:
			// Resumed mid-night: the record missed the card, but an
			// unprotected living target can only have answered with one.
			line += fmt.Sprintf(" and lives: %s answered with an incident card", map[bool]string{true: "you", false: n}[p == me])
		}
		lines[p] = line + "."
	}
	for p := range engine.Seat(s.Players()) {
		if !movedTo[p] {
			tell(p)
		}
	}
	for p := range engine.Seat(s.Players()) {
		tell(p) // a chain that came back to its start
	}
	if len(out) == 0 {
		out = append(out, "Nobody was attacked in the night.")
	}
	return out
}

// playedWords is "Anna played" or "you played" for seat p named n.
func playedWords(n string, p, me engine.Seat) string {
	if p == me {
		return "you played"
	}
	return n + " played"
}

// nightQuestion asks the seat its secret night choice: the target of the
// first power it holds that it has not chosen yet, or, holding none, to
// sleep.
func nightQuestion(s *mafia.State, me engine.Seat, k *mafia.Knowledge, ds []engine.Effect) *seatview.Question {
	if len(ds) == 0 {
		return &seatview.Question{
			Text:    fmt.Sprintf("Night %d: you have nothing to choose tonight. Your seat sends its sealed, empty choice by itself in a few seconds, as every living player sends one; choose sleep to send it now.", s.Day()),
			Choices: []seatview.Choice{{Words: "sleep", Night: &seatview.Night{Sleep: true}}},
		}
	}
	d := ds[0]
	var text, verb string
	switch d.Power {
	case mafia.PowerKill:
		// Who holds the kill tonight, and what opens of it (docs/mafia.md
		// §11.3): the Don alone while he lives; else the mafiosi's votes.
		const secret = "only the attacked are announced, never by whom"
		verb = "attack"
		switch {
		case k.Role == mafia.Don:
			text = "as the Don you choose whom the mafia attack: your choice alone decides. It is secret: " + secret
		case s.KillMixed():
			text = "the mafia choose whom to attack: the most votes decide, a tie is broken by lot. Your vote is secret: " + secret
		default:
			text = "the mafia choose whom to attack, and tonight your choice alone decides. It is secret: " + secret
		}
	case mafia.PowerMadman:
		text, verb = "as the Madman you attack alone until you join the mafia. Your choice is secret: only the attacked are announced, never by whom", "attack"
	case mafia.PowerSave:
		text, verb = "as the Nurse you save one other player from tonight's attack. Your choice is secret", "save"
	case mafia.PowerDate:
		text, verb = "as the Night Butterfly you spend the night with one other player: they are safe unless you are attacked. Your choice is secret", "spend the night with"
	case mafia.PowerCheck:
		text, verb = "as the Commissar you check one player: only you learn whether they are mafia", "check"
	default:
		text, verb = "choose a player", "choose"
	}
	q := &seatview.Question{Text: fmt.Sprintf("Night %d: %s.", s.Day(), text), Forced: true}
	for _, p := range d.Targets {
		if p == me && !d.SelfAllowed {
			continue
		}
		words := verb + " " + nameFor(s, p, me)
		switch {
		case p != me && slices.Contains(k.Mates, p):
			words += " (your mate)"
		case p != me && d.Power == mafia.PowerCheck:
			if r, ok := k.Checks[p]; ok {
				words += " (checked: " + teamWords(r) + ")"
			}
		}
		q.Choices = append(q.Choices, seatview.Choice{Words: words, Night: &seatview.Night{Power: d.Power, Target: p}})
	}
	// A mate comes last: the cursor starts on the first choice.
	slices.SortStableFunc(q.Choices, func(a, b seatview.Choice) int {
		return cmpBool(slices.Contains(k.Mates, a.Night.Target) && a.Night.Target != me, slices.Contains(k.Mates, b.Night.Target) && b.Night.Target != me)
	})
	return q
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// mafiaChoices lists the moves seat me may make now, in words.
func mafiaChoices(s *mafia.State, me engine.Seat, k *mafia.Knowledge, known map[engine.Slot]engine.Card) []seatview.Choice {
	var out []seatview.Choice
	try := func(words string, m engine.Move) {
		m.Seat = me
		if _, _, err := s.Play(m); err == nil {
			out = append(out, seatview.Choice{Words: words, Move: m})
		}
	}
	switch s.Phase() {
	case mafia.PhaseHold:
		try("vote today", engine.Move{Kind: mafia.MoveHold, Args: []int{1}})
		try("no vote today", engine.Move{Kind: mafia.MoveHold, Args: []int{0}})
	case mafia.PhaseVote:
		// The mates last (before abstaining): the cursor starts on the
		// first choice.
		var mates []engine.Seat
		for _, p := range s.Living() {
			switch {
			case p == me:
			case slices.Contains(k.Mates, p):
				mates = append(mates, p)
			default:
				words := "vote to eliminate " + s.Name(p)
				if r, ok := k.Checks[p]; ok {
					words += " (checked: " + teamWords(r) + ")"
				}
				try(words, engine.Move{Kind: mafia.MoveVote, Args: []int{int(p)}})
			}
		}
		for _, p := range mates {
			try("vote to eliminate "+s.Name(p)+" (your mate)", engine.Move{Kind: mafia.MoveVote, Args: []int{int(p)}})
		}
		try("abstain", engine.Move{Kind: mafia.MoveVote, Args: []int{-1}})
	case mafia.PhaseDayAnswer, mafia.PhaseNightAnswer, mafia.PhaseDateAnswer:
		seen := map[engine.Card]bool{}
		for _, sl := range s.Hand(me) {
			c, ok := known[sl]
			if !ok || seen[c] {
				continue
			}
			seen[c] = true
			try("play your "+mafia.CardWords(c)+": "+cardEffect(s, me, c), engine.Move{Kind: mafia.MoveCard, Args: []int{int(c), int(sl), 0}})
		}
		words := "accept the attack"
		if s.Phase() == mafia.PhaseDayAnswer {
			words = "accept the vote"
		}
		try(words, engine.Move{Kind: mafia.MovePass})
	}
	return out
}

// mafiaPrompt is the question's text for seat me, given its choices: an
// answer to an elimination or an attack names only the cards the seat
// holds that answer it, and says so when it holds none.
func mafiaPrompt(s *mafia.State, me engine.Seat, cs []seatview.Choice) string {
	var what, none string
	switch s.Phase() {
	case mafia.PhaseDayAnswer:
		what, none = "The vote eliminates you", "only an Alibi or an Evidence does"
	case mafia.PhaseNightAnswer:
		what, none = "You were attacked in the night", "only a Misfire or a Ricochet does"
	case mafia.PhaseDateAnswer:
		what, none = "The Night Butterfly you spent the night with was attacked", "only a Misfire does"
	default:
		return mafia.Prompt(s, me)
	}
	var cards []string
	for _, c := range cs {
		if c.Move.Kind == mafia.MoveCard && len(c.Move.Args) > 0 {
			cards = append(cards, "your "+mafia.CardWords(engine.Card(c.Move.Args[0])))
		}
	}
	if len(cards) == 0 {
		return what + ": none of your incident cards answers it (" + none + "), so accept it."
	}
	return what + ": play " + strings.Join(cards, " or ") + ", or accept it."
}

// cardEffect says what playing incident card c does now, for seat me.
func cardEffect(s *mafia.State, me engine.Seat, c engine.Card) string {
	switch c {
	case mafia.Misfire:
		return "the attack misses"
	case mafia.Alibi:
		return "nobody is eliminated today"
	case mafia.RicochetLeft, mafia.RicochetRight:
		return "the attack moves to " + s.Name(s.Neighbour(me, mafia.Direction(c)))
	case mafia.EvidenceLeft, mafia.EvidenceRight:
		return "the elimination moves to " + s.Name(s.Neighbour(me, mafia.Direction(c)))
	}
	return ""
}

// mafiaMemory is what the seat knows that the table does not show.
func mafiaMemory(s *mafia.State, me engine.Seat, k *mafia.Knowledge, known map[engine.Slot]engine.Card) []string {
	var out []string
	if k.Role >= 0 {
		out = append(out, "You are "+article(k.Role)+": "+roleWords(k.Role))
		if k.Role == mafia.Madman && k.Mafia {
			out = append(out, "  You have joined the mafia.")
		}
	}
	if len(k.Mates) > 0 {
		var ns []string
		for _, p := range k.Mates {
			ns = append(ns, s.Name(p))
		}
		out = append(out, "Your mates in the mafia: "+strings.Join(ns, ", ")+".")
	}
	for p := range engine.Seat(s.Players()) {
		if r, ok := k.Checks[p]; ok {
			out = append(out, fmt.Sprintf("Your check: %s is %s.", s.Name(p), teamWords(r)))
		}
	}
	var hand []string
	for _, sl := range s.Hand(me) {
		if c, ok := known[sl]; ok {
			hand = append(hand, mafia.CardWords(c))
		}
	}
	if len(hand) > 0 {
		out = append(out, "Your incident cards: "+strings.Join(hand, ", ")+".")
	}
	return out
}

// roleWords says what a role does.
func roleWords(r engine.Card) string {
	switch r {
	case mafia.Civilian:
		return "you have no power at night; find the mafia and vote them out by day."
	case mafia.Commissar:
		return "each night you check one player and alone learn whether they are mafia."
	case mafia.Nurse:
		return "each night you save one other player from the attack."
	case mafia.Butterfly:
		return "each night you spend the night with one other player: they are safe, but if you are attacked they die with you."
	case mafia.Mafioso:
		return "each night the mafia attack one player: the Don chooses if he is in the game, otherwise the mafiosi vote (the most votes decide, a tie is broken by lot); you win when at most one civilian is left."
	case mafia.Don:
		return "the head of the mafia: each night your choice alone decides whom the mafia attack; the mafia win when at most one civilian is left."
	case mafia.Madman:
		return "you attack alone each night until the first mafia member is out; then you join the mafia."
	}
	return ""
}

// cardWords says what an incident card does.
func cardWords(c engine.Card) string {
	switch c {
	case mafia.Misfire:
		return "played when you are attacked at night: the attack misses."
	case mafia.RicochetLeft, mafia.RicochetRight:
		return "played when you are attacked at night: the attack moves to your living neighbour on that side."
	case mafia.Alibi:
		return "played when the day's vote eliminates you: nobody is eliminated."
	case mafia.EvidenceLeft, mafia.EvidenceRight:
		return "played when the day's vote eliminates you: the elimination moves to your living neighbour on that side."
	}
	return ""
}

// mafiaHelp is the help page: the day and the night, every role and
// incident card, the keys' meaning for the night's secret choice.
func mafiaHelp(s *mafia.State, k *mafia.Knowledge) []seatview.Section {
	var out []seatview.Section
	if k.Role >= 0 {
		out = append(out, seatview.Section{Title: "Your role", Lines: []string{"You are " + article(k.Role) + ": " + roleWords(k.Role)}})
	}
	out = append(out, seatview.Section{Title: "A day and a night", Lines: []string{
		"On the first day the living first say whether to vote at all; the vote is held only if most want it.",
		"By day each living player votes to eliminate another, or abstains; the most votes eliminate (a tie eliminates nobody, or ends the game in a draw at a tie-draw table). The eliminated player's role is shown to all.",
		"At night every living player sends a sealed choice: those with a power name a target, the others an empty one, so nobody can tell who acted.",
		"Only what the rules announce is opened: who was attacked, whether the Nurse or the Night Butterfly protected them. The Commissar alone learns the answer to the check.",
		"The dead may read the table chat but not write in it. The civilians win when every mafia member is out; the mafia win when at most one civilian is left.",
	}})
	var roles []string
	for _, r := range []engine.Card{mafia.Civilian, mafia.Commissar, mafia.Nurse, mafia.Butterfly, mafia.Mafioso, mafia.Don, mafia.Madman} {
		roles = append(roles, mafia.CardWords(r)+": "+roleWords(r))
	}
	out = append(out, seatview.Section{Title: "Roles", Lines: roles})
	if s.Incidents() {
		var cards []string
		for _, c := range []engine.Card{mafia.Misfire, mafia.RicochetLeft, mafia.RicochetRight, mafia.Alibi, mafia.EvidenceLeft, mafia.EvidenceRight} {
			cards = append(cards, mafia.CardWords(c)+": "+cardWords(c))
		}
		cards = append(cards, fmt.Sprintf("You hold at most %d; when the Commissar or the Don is out, everyone alive draws one.", mafia.HandLimit))
		out = append(out, seatview.Section{Title: "Incident cards", Lines: cards})
	}
	return out
}
