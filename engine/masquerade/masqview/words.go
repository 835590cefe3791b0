package masqview

import (
	"strings"

	"github.com/masque-games/masque/engine"
)

// SwapConfirm is the question a hidden swap asks before it is sent (the
// answer is its secret bit); 'masque play --help' quotes it.
const SwapConfirm = "really exchange the cards?"

// Choice says a legal move in words, to the player who makes it: what the
// screen offers instead of the script syntax (FormatMove's "use
// target=none", "challenge with=Anna.left", "use between=Dima,Fedya").
func Choice(s Rules, m engine.Move) string {
	text := s.FormatMove(m)
	me := ""
	if m.Seat >= 0 && int(m.Seat) < s.Players() {
		me = s.Name(m.Seat)
		text = strings.TrimPrefix(text, me+" ")
	}
	slotWords := func(slot string) string { return slotWords(slot, me) }
	verb, plain, args := scriptParts(text)
	claimed := claimedName(s)
	switch verb {
	case "swap":
		switch len(plain) {
		case 1:
			return "swap your card with " + slotWords(plain[0])
		case 2:
			return "swap " + slotWords(plain[0]) + " with " + slotWords(plain[1])
		}
	case "peek":
		if len(plain) == 1 {
			return "look at " + slotWords(plain[0]) + " (only you see it)"
		}
		return "look at your card (only you see it)"
	case "claim":
		if len(plain) == 1 {
			w := "claim to be the " + plain[0]
			if with, ok := args["with"]; ok {
				w += ", with " + slotWords(with)
			}
			return w
		}
	case "challenge":
		w := "challenge: you say you are the " + claimed + " too"
		if claimed == "" {
			w = "challenge: you say you are the claimed character too"
		}
		if with, ok := args["with"]; ok {
			w += ", with " + slotWords(with)
		}
		return w
	case "pass":
		if claimed != "" && s.InChallengeWindow() {
			return "pass: let the " + claimed + " claim go"
		}
		return "pass"
	case "guess":
		if len(plain) == 1 {
			return "say your card is the " + plain[0]
		}
	case "use":
		power := "the power"
		if claimed != "" {
			power = "the " + claimed + "'s power"
		}
		switch {
		case args["target"] == "none":
			return "use " + power + " on nobody (keep your purse)"
		case args["target"] != "":
			return "use " + power + " on " + args["target"]
		case args["between"] != "" && claimed == "Puppeteer":
			a, b, _ := strings.Cut(args["between"], ",")
			return "use " + power + ": " + a + " and " + b + " change chairs"
		case args["between"] != "":
			a, b, _ := strings.Cut(args["between"], ",")
			return "use " + power + ": exchange (or not) " + slotWords(a) + " and " + slotWords(b)
		case args["with"] != "":
			return "use " + power + ": look at your card and " + slotWords(args["with"])
		case len(plain) == 0 && len(args) == 0 && claimed == "Spy":
			return "decide whether to exchange the two cards you looked at"
		case len(plain) == 0 && len(args) == 0:
			return "use " + power
		}
	}
	return text
}

// slotWords names a slot for people, speaking to the player called me:
// "centre2" is the centre card 2, "Anna.left" Anna's left card (or your
// left card), a player's name that player's card (or yours).
func slotWords(slot, me string) string {
	if n, ok := strings.CutPrefix(slot, "centre"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
		return "centre card " + n
	}
	if name, pos, ok := strings.Cut(slot, "."); ok {
		if name == me {
			return "your " + pos + " card"
		}
		return name + "'s " + pos + " card"
	}
	if slot == me {
		return "your card"
	}
	return slot + "'s card"
}

// Said tells a move in words for the public log: in the third person
// ("Anna swaps with Boris's card", "Boris uses the Bishop's power on
// Sasha"), or in the second person for the seat you (“you swap with
// Boris's card”, "Anna swaps with your card"); you < 0 speaks to nobody.
// s is the rules before the move (whose claim a "use" or a "challenge"
// refers to). It never shows the script syntax (FormatMove's "use
// target=none", "claim King with=Anna.left").
func Said(s Rules, m engine.Move, you engine.Seat) string {
	text := s.FormatMove(m)
	who, me := "", ""
	if m.Seat >= 0 && int(m.Seat) < s.Players() {
		who = s.Name(m.Seat)
		text = strings.TrimPrefix(text, who+" ")
	}
	if you >= 0 && int(you) < s.Players() {
		me = s.Name(you)
	}
	second := m.Seat == you && me != ""
	subject, their := who, "their"
	if second {
		subject, their = "you", "your"
	}
	// verb conjugates: "swaps" for others, "swap" for you.
	verb := func(third, base string) string {
		if second {
			return subject + " " + base
		}
		return subject + " " + third
	}
	// slot names a slot, the mover's own as "their"/"your".
	slot := func(name string) string {
		if owner, pos, ok := strings.Cut(name, "."); ok && owner == who {
			return their + " " + pos + " card"
		}
		if name == who {
			return their + " card"
		}
		return slotWords(name, me)
	}
	verbWord, plain, args := scriptParts(text)
	claimed := claimedName(s)
	switch verbWord {
	case "swap":
		switch len(plain) {
		case 1:
			if t := plain[0]; !strings.Contains(t, ".") && !strings.HasPrefix(t, "centre") {
				// A player's one card: "Anna swaps cards with Boris".
				if t == me {
					t = "you"
				}
				return verb("swaps", "swap") + " cards with " + t
			}
			return verb("swaps", "swap") + " " + their + " card with " + slot(plain[0])
		case 2:
			return verb("swaps", "swap") + " " + slot(plain[0]) + " with " + slot(plain[1])
		}
	case "peek":
		if len(plain) == 1 {
			return verb("looks", "look") + " at " + slot(plain[0])
		}
		return verb("looks", "look") + " at " + their + " card"
	case "claim":
		if len(plain) == 1 {
			w := verb("claims", "claim") + " to be the " + plain[0]
			if with, ok := args["with"]; ok {
				w += ", with " + slot(with)
			}
			return w
		}
	case "challenge":
		w := verb("challenges", "challenge") + ": the " + claimed + " too"
		if claimed == "" {
			w = verb("challenges", "challenge")
		}
		if with, ok := args["with"]; ok {
			w += ", with " + slot(with)
		}
		return w
	case "pass":
		return verb("passes", "pass")
	case "guess":
		if len(plain) == 1 {
			return verb("says", "say") + " " + their + " card is the " + plain[0]
		}
	case "use":
		power := "the power"
		if claimed != "" {
			power = "the " + claimed + "'s power"
		}
		name := func(p string) string {
			switch p {
			case me:
				return "you"
			}
			return p
		}
		uses := verb("uses", "use") + " " + power
		switch {
		case args["target"] == "none":
			return uses + " on nobody"
		case args["target"] != "":
			return uses + " on " + name(args["target"])
		case args["between"] != "" && claimed == "Puppeteer":
			a, b, _ := strings.Cut(args["between"], ",")
			return uses + ": " + name(a) + " and " + name(b) + " change chairs"
		case args["between"] != "":
			a, b, _ := strings.Cut(args["between"], ",")
			return uses + ": " + slot(a) + " and " + slot(b) + ", exchanged or not"
		case args["with"] != "":
			return uses + ": a look at " + their + " card and " + slot(args["with"])
		case len(plain) == 0 && len(args) == 0 && claimed == "Spy":
			return verb("decides", "decide") + " whether to exchange the two cards"
		case len(plain) == 0 && len(args) == 0:
			return uses
		}
	}
	if second {
		return "you: " + text
	}
	return who + " " + text
}

// SlotWords names a slot for people: "centre card 1", "Boris's card",
// "Boris's left card" (3- and 2-player games), or "your card", "your left
// card" for the seat you (you < 0: nobody).
func SlotWords(s Rules, slot engine.Slot, you engine.Seat) string {
	me := ""
	if you >= 0 && int(you) < s.Players() {
		me = s.Name(you)
	}
	return slotWords(s.SlotName(slot), me)
}

// scriptParts splits a move's script text (without its author's name)
// into its verb, its plain words and its key=value arguments.
func scriptParts(text string) (verb string, plain []string, args map[string]string) {
	verb, rest, _ := strings.Cut(text, " ")
	args = map[string]string{}
	for _, f := range strings.Fields(rest) {
		if k, v, ok := strings.Cut(f, "="); ok {
			args[k] = v
		} else {
			plain = append(plain, f)
		}
	}
	return verb, plain, args
}

// claimedName is the name of the character claimed now, or "".
func claimedName(s Rules) string {
	if c, _, ok := s.Claim(); ok {
		return s.CardName(c)
	}
	return ""
}
