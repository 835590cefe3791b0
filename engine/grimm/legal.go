package grimm

import (
	"slices"

	"github.com/masque-games/masque/engine"
)

// LegalMoves enumerates every move seat p may make now, given what p
// knows (known: the cards p has seen, by slot: its character(s), its
// hidden hand, looks at the decks). Statements about p's own character
// ("I am X", "I am not X") are listed only when they are true by known;
// for a character slot missing from known, both answers are listed. It
// returns nil when the rules do not wait for a move by p.
//
// Eavesdrop commitments (and the hints that open them) are built with
// [ScriptNonce], which is predictable: a client that wants its choice
// hidden until both are committed builds its own with [CommitHash] and a
// random nonce.
func (s *State) LegalMoves(p engine.Seat, known map[engine.Slot]engine.Card) []engine.Move {
	need := s.Next()
	if need.Kind != engine.NeedMove || need.Seat != p {
		return nil
	}
	var out []engine.Move
	add := func(kind uint8, args ...int) {
		out = append(out, engine.Move{Seat: p, Kind: kind, Args: args})
	}
	opps := s.recipients(p)
	// is reports whether p may truthfully say "slot sl holds c".
	is := func(sl engine.Slot, c engine.Card) bool {
		k, ok := known[sl]
		return !ok || k == c
	}
	// isNot reports whether p may truthfully say "I am not c".
	isNot := func(c engine.Card) bool {
		for _, sl := range s.MaskedSlots(p) {
			if k, ok := known[sl]; ok && k == c {
				return false
			}
		}
		return true
	}
	switch s.phase {
	case phDraft:
		var seen []engine.Card
		for _, it := range s.Row() {
			if !slices.Contains(seen, it.Item) {
				seen = append(seen, it.Item)
				add(KindPick, int(it.Item))
			}
		}
	case phDecide:
		if s.dec != decSecond && (s.n == 2 || !s.Unmasked(p)) {
			add(KindKeep)
		}
		for _, t := range opps {
			add(KindGive, int(t))
		}
	case phToast:
		if len(s.drawn) == 1 {
			for _, t := range opps {
				add(KindGive, int(t))
			}
			break
		}
		for _, a := range opps {
			for _, b := range opps {
				add(KindGive, int(a), int(b))
			}
		}
	case phHandGive:
		for _, sl := range s.Hand(p) {
			for _, t := range opps {
				add(KindGive, int(t), int(sl))
			}
		}
		if s.canTakeBet(p) {
			add(KindBet)
		}
	case phBetPick:
		for _, sl := range s.betDeck() {
			add(KindBet, int(sl))
		}
	case phCommit:
		for c := EvilQueen; c <= Hansel; c++ {
			if s.placeable(p, c) && isNot(c) {
				add(KindCommit, CommitArgs(CommitHash(p, c, NonceArgs(ScriptNonce(p, s.round))))...)
			}
		}
	case phRespond:
		r := s.pending[0]
		switch r.Kind {
		case respBane, respGuess, respBoon:
			kind := KindUnmask
			if r.Kind == respBoon {
				kind = KindWin
			}
			for _, sl := range s.MaskedSlots(p) {
				if is(sl, r.Char) {
					add(kind, int(sl))
				}
			}
			if s.placeable(p, r.Char) && isNot(r.Char) {
				add(KindHint, int(r.Char))
			}
		case respMayDraw:
			add(KindDraw)
			add(KindEnd)
		case respMayBet:
			add(KindBet)
			add(KindEnd)
		case respEaves:
			for c := EvilQueen; c <= Hansel; c++ {
				if !s.placeable(p, c) || !isNot(c) {
					continue
				}
				if s.commit[p] {
					args := append([]int{int(c)}, NonceArgs(ScriptNonce(p, s.round))...)
					if CommitHash(p, c, args[1:]) == s.commits[p] {
						add(KindHint, args...)
					}
					continue
				}
				add(KindHint, int(c))
			}
		}
	case phAbility:
		for _, c := range s.AbilityChoices(p) {
			add(KindChoose, int(c))
		}
	case phAction:
		add(KindEnd)
		out = append(out, s.legalActs(p, opps)...)
	}
	return out
}

// recipients returns the seats p may give an item to.
func (s *State) recipients(p engine.Seat) []engine.Seat {
	var out []engine.Seat
	for k := 1; k < s.n; k++ {
		if t := s.seatAfter(p, k); !s.Unmasked(t) {
			out = append(out, t)
		}
	}
	return out
}

// legalActs lists the actions seat p can pay for, with every choice.
func (s *State) legalActs(p engine.Seat, opps []engine.Seat) []engine.Move {
	var out []engine.Move
	var cnt [NumKinds]int
	for _, it := range s.Front(p) {
		cnt[it.Item]++
	}
	type payment struct {
		item  engine.Card
		jewel int
	}
	var pays []payment
	for _, it := range Items() {
		if cnt[it] >= 2 {
			pays = append(pays, payment{it, 0})
		}
		if cnt[it] >= 1 && s.jewels[p] {
			pays = append(pays, payment{it, 1})
		}
	}
	acts := []Action{MaskOff, s.actions[0], s.actions[1]}
	for _, pay := range pays {
		need := 2 - pay.jewel
		left := func(g engine.Card) int {
			if g == pay.item {
				return cnt[g] - need
			}
			return cnt[g]
		}
		add := func(a Action, args ...int) {
			out = append(out, engine.Move{Seat: p, Kind: KindAct, Args: append([]int{int(a), int(pay.item), pay.jewel}, args...)})
		}
		for _, a := range acts {
			switch a {
			case MaskOff:
				for _, t := range opps {
					for c := EvilQueen; c <= Hansel; c++ {
						if !s.broken[c] && !s.HasToken(t, c) {
							add(a, int(t), int(c))
						}
					}
				}
			case Eavesdrop:
				for _, t := range opps {
					add(a, int(t))
					if s.n > 2 {
						for _, u := range opps {
							if u != t {
								add(a, int(t), int(u)) // they commit in this order
							}
						}
					}
				}
			case Dance, Exchange:
				for _, g := range Items() {
					if left(g) < 1 {
						continue
					}
					if a == Dance {
						add(a, 1, int(g))
						add(a, -1, int(g))
						continue
					}
					for _, t := range opps {
						add(a, int(t), int(g))
					}
				}
			case LearnSecret:
				if len(s.betDeck()) > 0 {
					add(a)
				}
			default:
				add(a)
			}
		}
	}
	return out
}

// CoinOutcome is what a coin decides, for a table or a test to preview
// ([State.PreviewCoin]).
type CoinOutcome struct {
	Actions [2]Action   // a round's coin: its action cards
	First   engine.Seat // a round's coin: its first player
	Passes  []Pass      // a Dance or an Exchange: the items that change hands
}

// Pass is an item changing hands in a Dance or an Exchange.
type Pass struct {
	Slot     engine.Slot
	From, To engine.Seat
}

// PreviewCoin returns what coin would decide if fed now, or ok=false when
// the rules do not wait for a coin. Coins are public, so this leaks
// nothing.
func (s *State) PreviewCoin(coin [32]byte) (CoinOutcome, bool) {
	if s.phase != phWaitCoin {
		return CoinOutcome{}, false
	}
	if s.why == forRound {
		st := NewStream(coin, "round")
		c := s.clone()
		a := c.roundActions(st)
		return CoinOutcome{Actions: a, First: c.firstPlayer(st)}, true
	}
	var out CoinOutcome
	for _, x := range s.randomPasses(coin) {
		out.Passes = append(out.Passes, Pass(x))
	}
	return out, true
}
