package fake

import (
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
)

// Next hands the rules what a batch asked for, and refuses the batches
// the rules cannot be waiting on (or must be).
func TestBatchNext(t *testing.T) {
	coin := [32]byte{7}
	draw := func() ([32]byte, error) { return coin, nil }
	fact := engine.Fact{Slot: 3, Card: 2}
	for _, tc := range []struct {
		name    string
		b       Batch
		waiting bool
		want    []engine.Fact
		done    bool
		err     string
	}{
		{"nothing asked, nothing awaited", Batch{}, false, nil, true, ""},
		{"facts nobody awaits", Batch{Facts: []engine.Fact{fact}}, false, nil, true, "do not wait"},
		{"a coin nobody awaits", Batch{Coin: true}, false, nil, true, "do not wait"},
		{"the reveal's facts", Batch{Facts: []engine.Fact{fact}}, true, []engine.Fact{fact}, false, ""},
		{"the coin", Batch{Coin: true}, true, []engine.Fact{{Slot: -1, Coin: coin}}, false, ""},
		{"a coin and facts", Batch{Coin: true, Facts: []engine.Fact{fact}}, true, nil, false, "a coin and facts"},
		{"awaited, never asked", Batch{}, true, nil, false, "no effect asked for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			got, done, err := b.Next(tc.waiting, draw)
			if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
			if err == nil && (done != tc.done || len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0]) {
				t.Errorf("got %v, done %v; want %v, done %v", got, done, tc.want, tc.done)
			}
			if b.Coin || b.Facts != nil {
				t.Errorf("the batch was not emptied: %+v", b)
			}
		})
	}
	broken := errors.New("no coin")
	b := Batch{Coin: true}
	if _, _, err := b.Next(true, func() ([32]byte, error) { return [32]byte{}, broken }); !errors.Is(err, broken) {
		t.Errorf("a coin that cannot be drawn: err = %v", err)
	}
}
