package netsession

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
)

// A bot seat with BotDelay thinks that long before its night actions (as
// before a move), and stops thinking when its context ends; without it,
// it answers at once.
func TestBotDelay(t *testing.T) {
	names := []string{"Anna", "Boris", "Sasha", "Dima", "Egor"}
	// The deal is random: a game can end on its first day (the mafia
	// voted out), so play until one reaches a second night.
	var lt *local.Table
	for seed := uint64(1); lt == nil; seed++ {
		if seed > 20 {
			t.Fatal("no game reached a second night")
		}
		lt = untilNight(t, names, seed, func(int) bool { return true })
	}
	seat, _, _ := lt.View().Expect()
	me := lt.Seats[seat]
	tr := lt.Transcript()
	newSeat := func(delay time.Duration) *Seat {
		d, err := NewSeat(SeatConfig{Seat: int(seat), Roster: tr.Roster, Sign: tabletest.DeriveSignKey("night", me.Name),
			Keys: table.SeatSecrets{Card: me.Player.CardKey(), View: me.Player.ViewingKey()}, Bot: true, BotDelay: delay})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Entries {
			if err := d.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	const delay = 300 * time.Millisecond
	d := newSeat(delay)
	start := time.Now()
	if _, err := d.Author(context.Background(), d.tab.Pos()); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < delay {
		t.Fatalf("the bot answered after %v, before its %v delay", took, delay)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := newSeat(time.Hour).Author(ctx, d.tab.Pos()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a thinking bot whose context ended: %v", err)
	}
}
