package table_test

import (
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

func hiddenTable(t *testing.T, seed string, n int) *tabletest.Harness {
	t.Helper()
	var names []string
	for i := range n {
		names = append(names, string(rune('A'+i)))
	}
	return tabletest.NewManual(t, tabletest.HiddenGame{}, seed, names, table.Options{Game: []byte{byte(n)}, PublishKeys: true})
}

// A hidden deal: every seat shuffles the deck with a proof; each seat then
// sees its own card only; the final reveal shows a permutation of the deck;
// the transcript replays.
func TestHiddenDeal(t *testing.T) {
	const n = 4
	h := hiddenTable(t, "hidden", n)
	if h.View().Phase() != table.PhaseShuffle {
		t.Fatalf("phase %v, want the shuffle", h.View().Phase())
	}
	h.Auto()
	for seat := range n {
		h.Move(seat, tabletest.HiddenPeek, nil)
	}
	h.Move(0, tabletest.HiddenReveal, nil)
	s := h.View().Rules().(*tabletest.HiddenState)
	got := slices.Clone(s.Revealed)
	slices.Sort(got)
	if !slices.Equal(got, []engine.Card{1, 2, 3, 4}) {
		t.Fatalf("revealed %v, not a permutation of the deck", s.Revealed)
	}
	for seat, st := range h.Seats {
		var mine []table.Sighting
		for _, m := range st.Player.Memory {
			if !m.Public {
				mine = append(mine, m)
			}
		}
		if len(mine) != 1 || int(mine[0].Slot) != seat || mine[0].Card != s.Revealed[seat] {
			t.Errorf("seat %d privately saw %v, want only its own card %d", seat, mine, s.Revealed[seat])
		}
	}
	if _, err := table.Replay(h.Transcript(), tabletest.HiddenGame{}); err != nil {
		t.Fatalf("transcript does not replay: %v", err)
	}
}

// A shuffle that drops, duplicates or substitutes a card, or reorders the
// outputs after proving, is refused, naming the shuffler.
func TestAdversaryShuffle(t *testing.T) {
	h := hiddenTable(t, "bad-shuffle", 4)
	v := h.View()
	seat := 0
	honest, ok, err := h.Seats[seat].Player.AutoBody(h.Seats[seat].Replica)
	if err != nil || !ok || honest.Kind != table.BodyShuffle {
		t.Fatalf("no honest shuffle: %v %v", ok, err)
	}
	body := func(deck []mental.Card, p *mental.ShuffleProof) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyShuffle, Deck: deck, Shuffle: p})
	}
	deck := honest.Deck
	dup := slices.Clone(deck)
	dup[1] = deck[0]
	sub := slices.Clone(deck)
	sub[2] = v.Joint().Encrypt(mental.CardPoint(4))
	swapped := slices.Clone(deck)
	swapped[0], swapped[3] = swapped[3], swapped[0]
	cases := map[string][]byte{
		"duplicated":  body(dup, honest.Shuffle),
		"substituted": body(sub, honest.Shuffle),
		"reordered":   body(swapped, honest.Shuffle),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) { wantFault(t, h.RejectBody(seat, b), seat, "bad-shuffle") })
	}
	// Dropped: a deck one card short does not even carry a proof of the
	// right shape; with the proof of a 3-card shuffle it is the wrong size.
	short, p3, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), seat), deck[:3])
	if err != nil {
		t.Fatal(err)
	}
	wantFault(t, h.RejectBody(seat, body(short, p3)), seat, "bad-shuffle")
	// A proof made under another seat's context.
	out, p, err := v.Joint().Shuffle(v.ShareContext(v.Pos(), 1), slotsOf(v, 4))
	if err != nil {
		t.Fatal(err)
	}
	wantFault(t, h.RejectBody(seat, body(out, p)), seat, "bad-shuffle")
	// The honest shuffle goes through.
	h.Publish(h.Entry(seat, bodyOf(h, honest)))
}

func slotsOf(v *table.Table, n int) []mental.Card {
	var out []mental.Card
	for i := range n {
		out = append(out, v.Slot(engine.Slot(i)))
	}
	return out
}
