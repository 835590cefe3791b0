package seatview

import (
	"fmt"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// RevealedFacts opens the cards of a completed public reveal from its
// decryption shares.
func RevealedFacts(t *table.Table, r *table.Request) ([]engine.Fact, error) {
	var facts []engine.Fact
	for k, sl := range r.Slots {
		var all [][]*mental.Element
		for i := range r.Seats {
			all = append(all, r.Shares[i][k])
		}
		m, err := mental.Open(r.ShareCard(k), all) // the components revealed
		if err != nil {
			return nil, err
		}
		kind, ok := t.Catalogue().Kind(m[0])
		if !ok {
			return nil, fmt.Errorf("seatview: slot %d opens to no known card", sl)
		}
		facts = append(facts, engine.Fact{Slot: sl, Card: engine.Card(kind)})
	}
	return facts, nil
}
