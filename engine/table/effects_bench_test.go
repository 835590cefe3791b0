package table_test

import (
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// benchStep authors the next entry with seat's body from make and applies
// it to t, adding the time spent making the body to prove and the time
// spent applying it (decoding, checking, applying) to check.
func benchStep(b *testing.B, h *tabletest.Harness, t *table.Table, make func(*table.Player) (*table.Body, error), prove, check *time.Duration) {
	b.Helper()
	seat, _, ok := t.Expect()
	if !ok {
		b.Fatal("no entry is due")
	}
	p := h.Seats[seat].Player
	start := time.Now()
	body, err := make(p)
	if err != nil {
		b.Fatal(err)
	}
	e, err := p.Entry(t, body)
	if err != nil {
		b.Fatal(err)
	}
	mid := time.Now()
	if err := t.Apply(e); err != nil {
		b.Fatal(err)
	}
	*prove += mid.Sub(start)
	*check += time.Since(mid)
}

func auto(t *table.Table) func(*table.Player) (*table.Body, error) {
	return func(p *table.Player) (*table.Body, error) {
		b, _, err := p.AutoBody(t)
		return b, err
	}
}

func moveBy(t *table.Table, kind uint8, args ...int) func(*table.Player) (*table.Body, error) {
	return func(p *table.Player) (*table.Body, error) {
		return p.MoveBody(t, engine.Move{Kind: kind, Args: args}, nil)
	}
}

// report sets the per-entry metrics of n entries.
func report(b *testing.B, n int, prove, check time.Duration) {
	b.ReportMetric(float64(prove.Microseconds())/float64(b.N*n), "µs-prove/entry")
	b.ReportMetric(float64(check.Microseconds())/float64(b.N*n), "µs-check/entry")
}

// BenchmarkSubsetShuffle: 5 seats each shuffle 8 of the table's slots
// (a move asks for it, then five shuffle entries), as one peer: it makes
// every body and applies every entry once.
func BenchmarkSubsetShuffle(b *testing.B) {
	h := effectsTable(b, "bench-shuffle", 5)
	t := h.View()
	var prove, check time.Duration
	b.ResetTimer()
	for range b.N {
		var mp, mc time.Duration
		benchStep(b, h, t, moveBy(t, tabletest.EffectsMix, 0b11111, 0, 1, 2, 3, 4, 5, 6, 7), &mp, &mc)
		for range 5 {
			benchStep(b, h, t, auto(t), &prove, &check)
		}
	}
	report(b, 5, prove, check)
}

// BenchmarkCoin: a joint coin at 5 seats (a move asks for it, then five
// coin shares; the rules learn it), as one peer.
func BenchmarkCoin(b *testing.B) {
	h := effectsTable(b, "bench-coin", 5)
	t := h.View()
	var prove, check time.Duration
	b.ResetTimer()
	for range b.N {
		var mp, mc time.Duration
		benchStep(b, h, t, moveBy(t, tabletest.EffectsCoin), &mp, &mc)
		for range 5 {
			benchStep(b, h, t, auto(t), &prove, &check)
		}
	}
	report(b, 5, prove, check)
}

// BenchmarkStatement: at 5 seats, the mover's hint "my card is not k"
// (one not-held proof) and its claim "my card is one of {k, k'}" (a
// viewed-holding proof over 2 kinds), each a move's entry.
func BenchmarkStatement(b *testing.B) {
	for _, c := range []struct {
		name string
		kind uint8
		args func(seat int, k engine.Card) []int
	}{
		{"not-1", tabletest.EffectsNoneOf, func(seat int, k engine.Card) []int { return []int{seat, other(k, 1)} }},
		{"one-of-2", tabletest.EffectsOneOf, func(seat int, k engine.Card) []int { return []int{seat, int(k), other(k, 1)} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := effectsTable(b, "bench-statement", 5)
			t := h.View()
			var cards []engine.Card
			for seat := range 5 {
				cards = append(cards, own(h, seat, seat))
			}
			var prove, check time.Duration
			b.ResetTimer()
			for range b.N {
				seat := int(t.Rules().(*tabletest.EffectsState).Turn)
				benchStep(b, h, t, moveBy(t, c.kind, c.args(seat, cards[seat])...), &prove, &check)
			}
			report(b, 1, prove, check)
		})
	}
}
