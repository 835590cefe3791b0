package masqview

import (
	"slices"
	"sort"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
)

// Source is how a seat last learnt for sure which card a slot holds.
type Source uint8

// The sources of certain knowledge.
const (
	FromDeal   Source = iota // the deal, face up
	FromPeek                 // the seat looked (a peek, the Spy)
	FromReveal               // a public reveal
	FromShown                // shown to everyone but its owner (2nd edition's Princess)
)

// Belief is what one seat knows of the card in one slot: the cards it may
// be, how and when it last knew for sure, the seat's own real exchanges
// that brought that card here, and the other swaps since that could have
// moved it.
type Belief struct {
	// Cards are the cards the slot may hold, sorted: one when the seat
	// knows it.
	Cards  []engine.Card
	Source Source
	// Pos is the entry that gave the certain knowledge (-1: the deal),
	// and Seen the slot the card was in then.
	Pos  int64
	Seen engine.Slot
	// MovedIn are the seat's own real exchanges that brought the card
	// here since it was last known, oldest first.
	MovedIn []Swap
	// Uncertain are the swaps since then whose secret bit the seat does
	// not know (another seat's, or its own when it no longer knows the
	// bit): each could have moved the card.
	Uncertain []Swap
}

// Known reports whether the seat knows the card for sure.
func (b Belief) Known() bool { return len(b.Cards) == 1 }

// Beliefs returns, for every slot, what seat me knows of its card, from
// the public deal, the seat's sightings (memory), every move's hidden
// swaps (moves) and the secret bits of the seat's own swaps (bits: by the
// position of its move's entry, in the move's swap order). Its own
// pretended swaps move nothing, its real ones move what it knew, and
// everyone else's make both slots uncertain between their two beliefs.
func Beliefs(s Rules, memory []table.Sighting, moves []Moved, bits map[uint64][]bool, me engine.Seat) []Belief {
	deal := s.Deal()
	out := make([]Belief, len(deal))
	for i, c := range deal {
		out[i] = Belief{Cards: []engine.Card{c}, Source: FromDeal, Pos: -1, Seen: engine.Slot(i)}
	}
	// Every event in log order: sightings (the entry completing them)
	// and swaps (their move's entry) never share a position.
	type event struct {
		pos   uint64
		sight *table.Sighting
		swap  *Swap
	}
	var evs []event
	for i := range memory {
		evs = append(evs, event{pos: memory[i].Pos, sight: &memory[i]})
	}
	for i := range moves {
		for j := range moves[i].Swaps {
			evs = append(evs, event{pos: moves[i].Swaps[j].Pos, swap: &moves[i].Swaps[j]})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].pos < evs[j].pos })
	valid := func(sl engine.Slot) bool { return sl >= 0 && int(sl) < len(out) }
	for _, ev := range evs {
		if sg := ev.sight; sg != nil {
			if !valid(sg.Slot) {
				continue
			}
			src := FromPeek
			switch {
			case sg.Public:
				src = FromReveal
			case shownAt(moves, sg):
				src = FromShown
			}
			out[sg.Slot] = Belief{Cards: []engine.Card{sg.Card}, Source: src, Pos: int64(sg.Pos), Seen: sg.Slot}
			continue
		}
		sw := *ev.swap
		a, c := sw.Slots[0], sw.Slots[1]
		if !valid(a) || !valid(c) {
			continue
		}
		if b, ok := bits[sw.Pos]; ok && sw.By == me && sw.Index < len(b) {
			if b[sw.Index] {
				out[a], out[c] = out[c].movedIn(sw), out[a].movedIn(sw)
			}
			continue
		}
		cards := union(out[a].Cards, out[c].Cards)
		out[a] = out[a].uncertain(cards, sw)
		out[c] = out[c].uncertain(cards, sw)
	}
	return out
}

func (b Belief) movedIn(sw Swap) Belief {
	b.MovedIn = append(slices.Clone(b.MovedIn), sw)
	return b
}

func (b Belief) uncertain(cards []engine.Card, sw Swap) Belief {
	b.Cards = cards
	b.Uncertain = append(slices.Clone(b.Uncertain), sw)
	return b
}

func union(a, b []engine.Card) []engine.Card {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// shownAt reports whether sighting sg is of a card shown to everyone but
// its owner.
func shownAt(moves []Moved, sg *table.Sighting) bool {
	for _, m := range moves {
		for _, sh := range m.Shows {
			if sh.Pos == sg.Pos && sh.Slot == sg.Slot {
				return true
			}
		}
	}
	return false
}
