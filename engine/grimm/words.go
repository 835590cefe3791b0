package grimm

import (
	"fmt"
	"strings"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
)

// This file is the game's text for people: the names of the cards and
// actions as a player reads them, every move told in words (the log),
// every reveal and joint coin told in words, the question a seat answers
// and each of its choices in words. None of it is script syntax: no slot
// numbers, no verbs of the script language.

var displayNames = map[engine.Card]string{
	EvilQueen: "Evil Queen", Beast: "Beast", Cinderella: "Cinderella", SleepingBeauty: "Sleeping Beauty",
	Rumpelstiltskin: "Rumpelstiltskin", RedRidingHood: "Red Riding Hood", BigBadWolf: "Big Bad Wolf", Hansel: "Hansel",
	Treats: "Treats", Cauldron: "Cauldron", Disguise: "Disguise", GlassSlipper: "Glass Slipper",
	Clock: "Clock", Mirror: "Mirror", Crown: "Crown", Spindle: "Spindle",
}

// DisplayName returns a card's name as people read it: "Big Bad Wolf",
// "Glass Slipper", "bet on the Beast".
func DisplayName(c engine.Card) string {
	if IsBet(c) {
		return "bet on " + The(c-BetBase)
	}
	if n, ok := displayNames[c]; ok {
		return n
	}
	return CardName(c)
}

// The returns a card's name with its article where English wants one:
// "the Big Bad Wolf", "Cinderella", "the Crown".
func The(c engine.Card) string {
	switch c {
	case Cinderella, SleepingBeauty, Rumpelstiltskin, RedRidingHood, Hansel:
		return DisplayName(c)
	}
	return "the " + DisplayName(c)
}

// Plural returns an item's plural: "Crowns", "Treats", "Glass Slippers".
func Plural(it engine.Card) string {
	n := DisplayName(it)
	if strings.HasSuffix(n, "s") {
		return n
	}
	return n + "s"
}

var actionTitles = map[Action]string{
	MaskOff: "Mask off!", Eavesdrop: "Eavesdrop", GuestList: "Guest list", Dance: "Dance",
	Toast: "Toast", Search: "Search belongings", Exchange: "Exchange gifts", LearnSecret: "Learn a secret",
}

var actionHelp = map[Action]string{
	MaskOff:     "name a masked opponent and a character: right, they are unmasked and you get 2 roses; wrong, they place a hint token on that portrait and get 1 rose",
	Eavesdrop:   "one or two opponents each place a hint token on a portrait of their choice (two commit first, so neither copies the other)",
	GuestList:   "look at the top 2 cards of the character deck (then everyone reshuffles it)",
	Dance:       "give one of your items to the next masked player left or right; every opponent passes a random item the same way",
	Toast:       "the top 2 items are revealed; give them to one or two masked opponents",
	Search:      "look at the top card of the character deck, then draw an item and keep or give it",
	Exchange:    "give an opponent one of your items and take 2 random items of theirs",
	LearnSecret: "look at the bet cards and take one: a bet on the round's winner pays its reward",
}

// ActionTitle returns an action's name for people ("Search belongings").
func ActionTitle(a Action) string {
	if t, ok := actionTitles[a]; ok {
		return t
	}
	return a.String()
}

// ActionHelp returns what an action does, in one sentence.
func ActionHelp(a Action) string { return actionHelp[a] }

var abilityTitles = map[engine.Card]string{
	EvilQueen: "True reflection", RedRidingHood: "Curiosity", Hansel: "Gambler", SleepingBeauty: "Power over time",
	BigBadWolf: "Big eyes", Rumpelstiltskin: "Sly accusation", Cinderella: "Modest gifts", Beast: "Master of the game",
}

var abilityHelp = map[engine.Card]string{
	EvilQueen:       "every Mirror or Crown you give makes its recipient place a hint token",
	RedRidingHood:   "every Disguise or Treats you give lets you look at a card of the character deck",
	Hansel:          "with bets, you take a random bet card when the round starts",
	SleepingBeauty:  "six different items in front of you, masked, win the round",
	BigBadWolf:      "a wrong Mask off! guess lets you look at a card of the character deck",
	Rumpelstiltskin: "a wrong Mask off! guess lets you draw an item",
	Cinderella:      "masked, with no pair in front of you, you may draw an item at your turn's start",
	Beast:           "a turn in which you placed a hint token ends with an extra draw",
}

// AbilityTitle returns the name of a character's ability ("Curiosity").
func AbilityTitle(c engine.Card) string { return abilityTitles[c] }

// AbilityHelp returns what a character's ability does, in one sentence.
func AbilityHelp(c engine.Card) string { return abilityHelp[c] }

// speaker names seats for a reader: "you" for the seat read to.
type speaker = games.Speaker

func listAnd(xs []string) string { return games.ListAnd(xs, "nothing") }

// payment tells how an action is paid: "two Crowns", "the jewel and a
// Crown".
func payment(item engine.Card, jewel int) string {
	if jewel == 1 {
		return "the jewel and a " + DisplayName(item)
	}
	return "two " + Plural(item)
}

// SayMove tells move m, made in state s, in words for the log: "Anna
// gives the Crown to Boris", "Boris uses Search belongings with two
// Crowns", "Dima hints: not the Big Bad Wolf". you is the seat the words
// speak to in the second person ("you give ..."), or -1. It tells only
// what is public: never the card of a hidden hand a seat gives, nor the
// portrait of a sealed commitment.
func SayMove(s *State, m engine.Move, you engine.Seat) string {
	w := speaker{Names: s, You: you}
	p := m.Seat
	a := m.Args
	who := w.Name(p)
	v := func(third, second string) string { return w.Verb(p, third, second) }
	card := func(i int) string {
		if i < len(a) {
			return The(engine.Card(a[i]))
		}
		return "a card"
	}
	drawn := s.Drawn()
	var text string
	switch m.Kind {
	case KindPick:
		text = fmt.Sprintf("%s %s %s from the draft row", who, v("takes", "take"), card(0))
	case KindKeep:
		it := "the card"
		if len(drawn) > 0 {
			it = The(drawn[0].Item)
		}
		text = fmt.Sprintf("%s %s %s", who, v("keeps", "keep"), it)
	case KindGive:
		switch {
		case s.phase == phHandGive && len(a) == 2:
			text = fmt.Sprintf("%s %s a card from %s hidden hand to %s", who, v("gives", "give"), w.TheirOwn(p), w.Ref(engine.Seat(a[0])))
		case len(a) == 2 && len(drawn) == 2 && a[0] == a[1]:
			text = fmt.Sprintf("%s %s %s and %s to %s", who, v("gives", "give"), The(drawn[0].Item), The(drawn[1].Item), w.Ref(engine.Seat(a[0])))
		case len(a) == 2 && len(drawn) == 2:
			text = fmt.Sprintf("%s %s %s to %s and %s to %s", who, v("gives", "give"), The(drawn[0].Item), w.Ref(engine.Seat(a[0])),
				The(drawn[1].Item), w.Ref(engine.Seat(a[1])))
		case len(a) >= 1:
			it := "the card"
			if len(drawn) > 0 {
				it = The(drawn[0].Item)
			}
			text = fmt.Sprintf("%s %s %s to %s", who, v("gives", "give"), it, w.Ref(engine.Seat(a[0])))
		}
	case KindAct:
		text = sayAct(w, m)
	case KindEnd:
		if s.phase == phRespond && s.pending[0].Kind == respMayBet {
			text = fmt.Sprintf("%s %s a bet card on a later turn", who, v("will take", "will take"))
		} else if s.phase == phRespond {
			text = fmt.Sprintf("%s %s the extra draw", who, v("declines", "decline"))
		} else {
			text = fmt.Sprintf("%s %s %s turn", who, v("ends", "end"), w.TheirOwn(p))
		}
	case KindHint:
		if len(a) > 0 {
			text = fmt.Sprintf("%s %s: not %s", who, v("hints", "hint"), The(engine.Card(a[0])))
			if s.phase == phRespond {
				text += hintReason(w, s, s.pending[0])
			}
		}
	case KindUnmask:
		text = fmt.Sprintf("%s %s unmasked", who, v("is", "are"))
		if _, c, ok := s.Pending(); ok && c != 0 {
			text = fmt.Sprintf("%s %s unmasked: %s", who, v("is", "are"), The(c))
		}
	case KindWin:
		text = fmt.Sprintf("%s %s three talismans and %s the round", who, v("shows", "show"), v("wins", "win"))
		if _, c, ok := s.Pending(); ok && c != 0 {
			text = fmt.Sprintf("%s %s three talismans of %s and %s the round", who, v("shows", "show"), The(c), v("wins", "win"))
		}
	case KindCommit:
		text = fmt.Sprintf("%s %s a sealed choice of portrait", who, v("makes", "make"))
	case KindBet:
		if len(a) == 0 {
			text = fmt.Sprintf("%s %s at the bet cards", who, v("looks", "look"))
		} else {
			text = fmt.Sprintf("%s %s a bet card", who, v("takes", "take"))
		}
	case KindDraw:
		text = fmt.Sprintf("%s %s the extra draw", who, v("takes", "take"))
	case KindChoose:
		if len(a) > 0 {
			c := engine.Card(a[0])
			text = fmt.Sprintf("%s %s the ability of %s (%s)", who, v("takes", "take"), The(c), AbilityTitle(c))
		}
	}
	if text == "" {
		text = fmt.Sprintf("%s %s", who, v("moves", "move"))
	}
	if ns, _, err := s.Play(m); err == nil {
		text += roseChanges(w, s, ns)
	}
	return text
}

// hintReason says why a hint was owed: " (two Clocks: Cinderella's
// curse)".
func hintReason(w speaker, s *State, r response) string {
	switch r.Kind {
	case respBane:
		return fmt.Sprintf(" (two %s: the curse of %s)", Plural(s.opts.Charms.Bane[r.Char]), The(r.Char))
	case respBoon:
		return fmt.Sprintf(" (three %s: the talismans of %s)", Plural(s.opts.Charms.Boon[r.Char]), The(r.Char))
	case respGuess:
		return fmt.Sprintf(" (a wrong guess by %s)", w.Ref(r.Causer))
	case respEaves:
		if !s.overheard() {
			return fmt.Sprintf(" (True reflection: %s %s the Evil Queen's ability)", w.Ref(r.Causer), w.Verb(r.Causer, "holds", "hold"))
		}
		return " (overheard)"
	}
	return ""
}

// overheard reports whether the free hint a response asks for comes from
// an Eavesdrop, not from the Evil Queen's ability (True reflection),
// which asks for the same hint when its holder gives a Mirror or a Crown:
// no item changes hands in an Eavesdrop turn once it has acted.
func (s *State) overheard() bool { return s.acted && s.act == Eavesdrop }

func sayAct(w speaker, m engine.Move) string {
	p, a := m.Seat, m.Args
	if len(a) < 3 {
		return w.Name(p) + " " + w.Verb(p, "acts", "act")
	}
	act, pay, rest := Action(a[0]), payment(engine.Card(a[1]), a[2]), a[3:]
	who := w.Name(p)
	v := func(third, second string) string { return w.Verb(p, third, second) }
	switch {
	case act == MaskOff && len(rest) == 2:
		t := engine.Seat(rest[0])
		return fmt.Sprintf("%s %s Mask off! (paying %s): %s %s %s?", who, v("plays", "play"), pay,
			w.Verb(t, "is", "are"), w.Ref(t), The(engine.Card(rest[1])))
	case act == Eavesdrop && len(rest) >= 1:
		var on []string
		for _, x := range rest {
			on = append(on, w.Ref(engine.Seat(x)))
		}
		return fmt.Sprintf("%s %s on %s (paying %s)", who, v("eavesdrops", "eavesdrop"), listAnd(on), pay)
	case act == Dance && len(rest) == 2:
		dir := "left"
		if rest[0] == -1 {
			dir = "right"
		}
		return fmt.Sprintf("%s %s a Dance to the %s, passing %s (paying %s)", who, v("starts", "start"), dir, The(engine.Card(rest[1])), pay)
	case act == Exchange && len(rest) == 2:
		return fmt.Sprintf("%s %s gifts with %s, giving %s (paying %s)", who, v("exchanges", "exchange"), w.Ref(engine.Seat(rest[0])), The(engine.Card(rest[1])), pay)
	}
	return fmt.Sprintf("%s %s %s with %s", who, v("uses", "use"), ActionTitle(act), pay)
}

// CardWords is [DisplayName] for [games.Teller].
func (Game) CardWords(c engine.Card) string { return DisplayName(c) }

// roseChanges tells who got roses between two states: " (Boris gets 2
// roses)".
func roseChanges(w speaker, before, after *State) string {
	var got []string
	for p := range engine.Seat(before.n) {
		if d := after.Roses(p) - before.Roses(p); d > 0 {
			got = append(got, fmt.Sprintf("%s %s %d %s", w.Ref(p), w.Verb(p, "gets", "get"), d, pluralWord(d, "rose", "roses")))
		}
	}
	if len(got) == 0 {
		return ""
	}
	return " (" + listAnd(got) + ")"
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// SayFacts tells what a completed reveal or joint coin made public, in
// words for the log: "Anna draws the Mirror", "round 2: the action cards
// are Dance and Toast; Boris plays first", "the characters were ...".
// before is the state that waited for the facts, after the state once
// they were learnt (and whatever followed at once); facts are the reveal's
// cards, or one coin (Slot -1). you is the seat spoken to, or -1.
func SayFacts(before, after *State, facts []engine.Fact, you engine.Seat) []string {
	w := speaker{Names: before, You: you}
	var out []string
	items := func() []string {
		var xs []string
		for _, f := range facts {
			if f.Slot >= 0 {
				xs = append(xs, The(f.Card))
			}
		}
		return xs
	}
	switch before.phase {
	case phWaitCoin:
		switch before.why {
		case forRound:
			acts := after.Actions()
			out = append(out, fmt.Sprintf("round %d: the action cards are %s and %s (Mask off! is always there); %s %s first",
				before.round, ActionTitle(acts[0]), ActionTitle(acts[1]), w.Ref(after.FirstPlayer()), w.Verb(after.FirstPlayer(), "plays", "play")))
			for p := range engine.Seat(after.n) {
				if c := after.Ability(p); c != 0 {
					out = append(out, fmt.Sprintf("%s %s the ability of %s: %s", w.Name(p), w.Verb(p, "holds", "hold"), The(c), AbilityTitle(c)))
				}
			}
		case forDance, forExchange:
			if len(facts) == 1 && after.phase != phWaitReveal { // else the reveal of the hidden passes tells them
				if oc, ok := before.PreviewCoin(facts[0].Coin); ok {
					out = append(out, sayPasses(w, before, after, oc.Passes)...)
				}
			}
		}
	case phWaitReveal:
		switch before.why {
		case forDraft:
			out = append(out, "the draft row: "+listAnd(items()))
		case forDraw, forSearch:
			xs := items()
			if len(xs) == 1 {
				line := fmt.Sprintf("%s %s %s", w.Name(before.turn), w.Verb(before.turn, "draws", "draw"), xs[0])
				if before.why == forDraw && before.drawNo == 2 && !before.keptFirst {
					it := "it"
					if facts[0].Card == Treats {
						it = "them"
					}
					line += " and " + w.Verb(before.turn, "keeps", "keep") + " " + it
				}
				out = append(out, line)
			}
		case forExtra:
			out = append(out, fmt.Sprintf("the extra draw: %s", listAnd(items())))
		case forToast:
			out = append(out, "the toast reveals "+listAnd(items()))
		case forHandGive:
			for _, x := range before.passes {
				out = append(out, fmt.Sprintf("the card %s gave from %s hand is %s", w.Ref(x.From), w.TheirOwn(x.From), The(after.cardAt(x.Slot))))
			}
		case forDance:
			out = append(out, sayPasses(w, before, after, toPasses(before.passes))...)
		case forRoundEnd:
			var who []string
			for _, f := range facts {
				if f.Slot < ItemSlot0 {
					p := before.SlotSeat(f.Slot)
					who = append(who, fmt.Sprintf("%s %s %s", w.Ref(p), w.Verb(p, "was", "were"), The(f.Card)))
				} else if f.Slot >= BetSlot0 {
					if h := before.betHeld[f.Slot-BetSlot0]; h >= 0 {
						who = append(who, fmt.Sprintf("%s bet on %s", w.Ref(engine.Seat(h)), The(f.Card-BetBase)))
					}
				}
			}
			out = append(out, "the masks come off: "+strings.Join(who, "; "))
		}
	}
	out = append(out, sayRoundEnd(w, before, after)...)
	return out
}

func toPasses(ps []pass) []Pass {
	out := make([]Pass, len(ps))
	for i, x := range ps {
		out[i] = Pass(x)
	}
	return out
}

// sayPasses tells the items a Dance or an Exchange moved; a card from a
// hidden hand that is not revealed yet is "a card from their hand".
func sayPasses(w speaker, before, after *State, ps []Pass) []string {
	var out []string
	for _, x := range ps {
		it := "a card from " + w.TheirOwn(x.From) + " hand"
		if c := after.cardAt(x.Slot); c != 0 {
			it = The(c)
		}
		out = append(out, fmt.Sprintf("%s %s %s to %s", w.Name(x.From), w.Verb(x.From, "passes", "pass"), it, w.Ref(x.To)))
	}
	if len(ps) == 0 && before.why == forExchange {
		out = append(out, "nothing changes hands")
	}
	return out
}

// cardAt returns the public item in item slot sl, or 0.
func (s *State) cardAt(sl engine.Slot) engine.Card {
	if sl < ItemSlot0 || sl >= BetSlot0 {
		return 0
	}
	return s.card[sl-ItemSlot0]
}

// sayRoundEnd tells a round's end and the game's, when after finished a
// round that before had not.
func sayRoundEnd(w speaker, before, after *State) []string {
	if len(after.results) <= len(before.results) {
		return nil
	}
	var out []string
	r := after.results[len(after.results)-1]
	switch {
	case r.Winner < 0:
		out = append(out, fmt.Sprintf("round %d ends: nobody wins it", r.Round))
	case r.ByTalismans:
		out = append(out, fmt.Sprintf("round %d ends: %s %s it with three talismans (a reward of %d)", r.Round, w.Ref(r.Winner), w.Verb(r.Winner, "wins", "win"), rewardValue(r.Round)))
	default:
		out = append(out, fmt.Sprintf("round %d ends: %s %s it, the last one masked (a reward of %d)", r.Round, w.Ref(r.Winner), w.Verb(r.Winner, "wins", "win"), rewardValue(r.Round)))
	}
	var roses []string
	for p := range engine.Seat(after.n) {
		roses = append(roses, fmt.Sprintf("%s %d", w.Ref(p), after.Roses(p)))
	}
	out = append(out, "roses: "+strings.Join(roses, ", "))
	if after.Over() {
		var ws []string
		for _, p := range after.Winners() {
			ws = append(ws, w.Ref(p))
		}
		out = append(out, fmt.Sprintf("the game is over: %s %s", listAnd(ws), pluralWord(len(ws), "wins", "win")))
	}
	return out
}

// Prompt is the question seat p answers now, in words for p, or "" when
// the rules do not wait for p. known is what p knows, by slot.
func Prompt(s *State, p engine.Seat, known map[engine.Slot]engine.Card) string {
	need := s.Next()
	if need.Kind != engine.NeedMove || need.Seat != p {
		return ""
	}
	drawn := s.Drawn()
	first := "the card"
	if len(drawn) > 0 {
		first = The(drawn[0].Item)
	}
	switch s.phase {
	case phDraft:
		return "The draft: take one item from the row."
	case phDecide:
		switch s.dec {
		case decSecond:
			return fmt.Sprintf("You drew %s. You kept the first card, so give this one to a masked opponent.", first)
		case decSearch:
			return fmt.Sprintf("Search belongings drew %s: keep it, or give it to a masked opponent.", first)
		case decExtra:
			return fmt.Sprintf("Your extra draw is %s: keep it, or give it to a masked opponent.", first)
		}
		if s.Unmasked(p) && s.n > 2 {
			return fmt.Sprintf("You drew %s: give it to a masked opponent.", first)
		}
		return fmt.Sprintf("You drew %s: keep it, or give it to a masked opponent (then you keep the next).", first)
	case phToast:
		var xs []string
		for _, d := range drawn {
			xs = append(xs, The(d.Item))
		}
		return fmt.Sprintf("The toast: give %s to masked opponents.", listAnd(xs))
	case phHandGive:
		return "You are unmasked: give one card of your hidden hand to a masked opponent."
	case phBetPick:
		return "Take a bet card: a bet on the round's winner pays its reward."
	case phAbility:
		return "Choose the ability you play with this round."
	case phCommit:
		return "Eavesdrop: choose the portrait you will place your hint token on (sealed until the other has chosen too). You are not that character."
	case phAction:
		return "Your items allow an action (two equal items pay for one): act, or end your turn."
	case phRespond:
		r := s.pending[0]
		c := The(r.Char)
		mine := false
		for _, sl := range s.MaskedSlots(p) {
			mine = mine || known[sl] == r.Char
		}
		switch {
		case mine && r.Kind == respBane && r.Causer == p:
			return fmt.Sprintf("You hold two %s, the curse of %s, and you are %s: you must unmask (you drew them yourself, so nobody gets a rose; your items become your hidden hand).",
				Plural(s.opts.Charms.Bane[r.Char]), c, c)
		case mine && r.Kind == respBane:
			return fmt.Sprintf("You hold two %s, the curse of %s, and you are %s: you must unmask (%s gets a rose; your items become your hidden hand).",
				Plural(s.opts.Charms.Bane[r.Char]), c, c, s.Name(r.Causer))
		case mine && r.Kind == respGuess:
			return fmt.Sprintf("%s guessed right with Mask off!: you are %s and must unmask (%s gets 2 roses).", s.Name(r.Causer), c, s.Name(r.Causer))
		case mine && r.Kind == respBoon:
			return fmt.Sprintf("You hold three %s, the talismans of %s, and you are %s: you win the round!", Plural(s.opts.Charms.Boon[r.Char]), c, c)
		}
		switch r.Kind {
		case respBane:
			return fmt.Sprintf("You hold two %s, the curse of %s. Unmask if you are %s; otherwise you place a hint token: not %s.",
				Plural(s.opts.Charms.Bane[r.Char]), c, c, c)
		case respBoon:
			return fmt.Sprintf("You hold three %s, the talismans of %s. If you are %s you win the round; otherwise you place a hint token: not %s.",
				Plural(s.opts.Charms.Boon[r.Char]), c, c, c)
		case respGuess:
			return fmt.Sprintf("%s plays Mask off! on you: are you %s? If you are, you are unmasked; if not, you place a hint token and get a rose.",
				s.Name(r.Causer), c)
		case respEaves:
			if s.commit[p] {
				return "Eavesdrop: open your sealed choice: place your hint token on the portrait you chose."
			}
			if !s.overheard() {
				return fmt.Sprintf("True reflection (the Evil Queen's ability): %s gave you a Mirror or a Crown, so place a hint token on a portrait of a character you are not.", s.Name(r.Causer))
			}
			return fmt.Sprintf("%s listens in: place a hint token on a portrait of a character you are not.", s.Name(r.Causer))
		case respMayDraw:
			return "You may take an extra draw."
		case respMayBet:
			return "You are unmasked: take a bet card now (look at the bet cards left and take one), or later, on one of your turns."
		}
	}
	return "Your move."
}

// Forced reports whether the rules wait for a forced response by seat p
// (a hint, an unmasking or a win it cannot skip, or the sealed choice of
// portrait an Eavesdrop asks of it).
func Forced(s *State, p engine.Seat) bool {
	if need := s.Next(); s.phase == phCommit && need.Kind == engine.NeedMove && need.Seat == p {
		return true
	}
	seat, _, ok := s.Pending()
	return ok && seat == p && s.pending[0].Kind != respMayDraw && s.pending[0].Kind != respMayBet
}

// ChoiceWords says move m as a choice for the seat that makes it, in
// words: "give the Mirror to Boris", "hint: I am not the Big Bad Wolf",
// "Mask off! on Boris: the Beast? (pay two Crowns)". known is what the
// seat knows (to name the cards of its hidden hand and the bet cards).
func ChoiceWords(s *State, m engine.Move, known map[engine.Slot]engine.Card) string {
	a := m.Args
	name := func(i int) string {
		if i < len(a) {
			return s.Name(engine.Seat(a[i]))
		}
		return "?"
	}
	drawn := s.Drawn()
	switch m.Kind {
	case KindPick:
		return "take " + The(engine.Card(a[0]))
	case KindKeep:
		if len(drawn) > 0 {
			return "keep " + The(drawn[0].Item)
		}
		return "keep it"
	case KindGive:
		switch {
		case s.phase == phHandGive && len(a) == 2:
			it := "a card"
			if c, ok := known[engine.Slot(a[1])]; ok {
				it = The(c)
			}
			return fmt.Sprintf("give %s from your hand to %s", it, name(0))
		case len(a) == 2 && len(drawn) == 2:
			if a[0] == a[1] {
				return fmt.Sprintf("give both to %s", name(0))
			}
			return fmt.Sprintf("give %s to %s and %s to %s", The(drawn[0].Item), name(0), The(drawn[1].Item), name(1))
		default:
			it := "it"
			if len(drawn) > 0 {
				it = The(drawn[0].Item)
			}
			return fmt.Sprintf("give %s to %s", it, name(0))
		}
	case KindAct:
		if len(a) < 3 {
			break
		}
		act, pay, rest := Action(a[0]), payment(engine.Card(a[1]), a[2]), a[3:]
		switch {
		case act == MaskOff && len(rest) == 2:
			return fmt.Sprintf("Mask off! on %s: %s? (pay %s)", s.Name(engine.Seat(rest[0])), The(engine.Card(rest[1])), pay)
		case act == Eavesdrop && len(rest) >= 1:
			var on []string
			for _, x := range rest {
				on = append(on, s.Name(engine.Seat(x)))
			}
			return fmt.Sprintf("Eavesdrop on %s (pay %s)", listAnd(on), pay)
		case act == Dance && len(rest) == 2:
			dir := "left"
			if rest[0] == -1 {
				dir = "right"
			}
			return fmt.Sprintf("Dance to the %s, passing %s (pay %s)", dir, The(engine.Card(rest[1])), pay)
		case act == Exchange && len(rest) == 2:
			return fmt.Sprintf("Exchange gifts with %s, giving %s (pay %s)", s.Name(engine.Seat(rest[0])), The(engine.Card(rest[1])), pay)
		}
		return fmt.Sprintf("%s (pay %s)", ActionTitle(act), pay)
	case KindEnd:
		if s.phase == phRespond && s.pending[0].Kind == respMayBet {
			return "take a bet card later, on one of your turns"
		}
		if s.phase == phRespond {
			return "no extra draw"
		}
		return "end your turn"
	case KindHint:
		if s.phase == phRespond && s.pending[0].Kind == respEaves && s.commit[m.Seat] {
			return fmt.Sprintf("open your choice: not %s", The(engine.Card(a[0])))
		}
		return fmt.Sprintf("hint: I am not %s", The(engine.Card(a[0])))
	case KindUnmask:
		if _, c, ok := s.Pending(); ok {
			return fmt.Sprintf("unmask: I am %s", The(c))
		}
		return "unmask"
	case KindWin:
		if _, c, ok := s.Pending(); ok {
			return fmt.Sprintf("win the round: I am %s", The(c))
		}
		return "win the round"
	case KindCommit:
		return "choose a portrait (sealed)"
	case KindBet:
		if len(a) == 0 {
			return "look at the bet cards and take one"
		}
		if c, ok := known[engine.Slot(a[0])]; ok {
			return "take the " + DisplayName(c)
		}
		return "take a bet card"
	case KindDraw:
		return "take the extra draw"
	case KindChoose:
		c := engine.Card(a[0])
		return fmt.Sprintf("the ability of %s: %s", The(c), AbilityTitle(c))
	}
	return FormatMove(s, m)
}

// HowToPlay is a short guide to the game, for a player's help page.
func HowToPlay(s *State) []string {
	out := []string{
		"Everyone secretly plays a fairy-tale character. Items lie face up in front of each player.",
		"Your turn: draw an item and keep it or give it to a masked opponent; draw a second and do the other. Then you may act.",
		"An action costs two equal items from in front of you (they go to the discard).",
		"Two of an item that is a character's curse: whoever holds them either is that character (unmasked) or places a hint token saying \"not that character\".",
		"Three of an item that is a character's talisman: its character wins the round at once.",
		"Hints are proven: nobody can lie about their own character. The last masked player, or three talismans, wins the round and its reward (1, 3, then 5 roses).",
		"Whoever unmasks another player earns a rose from the supply (nobody does for unmasking themselves); an unmasked player loses none, keeps their items as a hidden hand, and at each turn draws one and gives one.",
		fmt.Sprintf("After three rounds, or a round in which someone reaches %d roses, the most roses win.", RoseTarget),
	}
	if s.n == 2 {
		out = append(out, "Two players: each holds two characters and every action but Mask off! earns a rose.")
	}
	if s.opts.Jewels {
		out = append(out, "Jewels: your jewel and any one item pay for an action; an unspent jewel is worth a rose at the round's end.")
	}
	if s.opts.Bets {
		out = append(out, "Bets: Learn a secret takes a bet card; a bet on the round's winner pays its reward. An unmasked player may take one, at once or on a later turn (not the one whose unmasking ends the round).")
	}
	if s.opts.Abilities {
		out = append(out, "Abilities: from round 2, the players with the fewest roses play with the ability of their last character.")
	}
	return out
}

// Charm returns a character's talisman (three win) and curse (two
// unmask).
func (s *State) Charm(c engine.Card) (boon, bane engine.Card) {
	return s.opts.Charms.Boon[c], s.opts.Charms.Bane[c]
}
