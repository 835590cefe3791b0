package phone

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/mascarade"
)

// TestPhoneAnswerWindowAfterReload: a phone whose answer window is open
// (another seat's claim to challenge or let go) has its tab killed
// mid-window and reopened: the reloaded page counts down to the end of
// the window it showed before (from when the seat began waiting at that
// entry, kept in its storage), not a whole window from the reload (the
// first version opened it anew: the player saw 30 s again while the
// table's other screens said less).
func TestPhoneAnswerWindowAfterReload(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tr := startGame(ctx, t, mascarade.GameName, 3)
	tr.hub.cfg.Window = 30 * time.Second
	ph, eff, err := phoneseat.New("mila", phoneseat.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ph.SetToken("secret-token")
	ph.SetCode(tr.code())
	st := &memStore{}
	st.Put(eff.Puts)
	phoneEnd, serverEnd := memPair()
	d := phoneseat.NewDriver(ph, phoneEnd, st, nil)
	go tr.hub.Serve(ctx, serverEnd)
	tabCtx, killTab := context.WithCancel(ctx)
	phoneDone := make(chan error, 1)
	go func() { phoneDone <- d.Run(tabCtx) }()
	// The player plays at random until its answer window opens, and
	// then lets it run.
	windowOpen := func(d *phoneseat.Driver) (int64, bool) {
		var pg phoneseat.Page
		if json.Unmarshal(d.Page(), &pg) != nil || !pg.MyTurn || pg.Over {
			return 0, false
		}
		return pg.WindowUntilMS, true
	}
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	rng := rand.New(rand.NewPCG(3, 3))
	var until int64
	for until == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the phone was never asked to answer a claim")
		case err := <-phoneDone:
			t.Skipf("the game ended (%v) before the phone had a claim to answer", err)
		case <-time.After(20 * time.Millisecond):
		}
		w, mine := windowOpen(d)
		switch {
		case w > 0:
			until = w
		case mine:
			var pg phoneseat.Page
			json.Unmarshal(d.Page(), &pg)
			switch {
			case pg.Asking != "":
				d.Answer([]string{"yes", "no"}[rng.IntN(2)])
			case len(pg.Menu) > 0:
				d.Pick(rng.IntN(len(pg.Menu)))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if left := time.Until(time.UnixMilli(until)); left < 25*time.Second || left > 31*time.Second {
		t.Fatalf("the window opened with %v left, want about 30 s", left)
	}
	time.Sleep(2 * time.Second)
	killTab()
	<-phoneDone
	close(phoneEnd.out) // the WebSocket closes with the tab

	back, err := phoneseat.Restore(st.snapshot(), phoneseat.Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	back.SetToken("secret-token")
	back.SetCode(tr.code())
	phoneEnd, serverEnd = memPair()
	d = phoneseat.NewDriver(back, phoneEnd, st, nil)
	go tr.hub.Serve(ctx, serverEnd)
	go func() { phoneDone <- d.Run(ctx) }()
	var again int64
	for again == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the reloaded page never showed the answer window")
		case <-time.After(20 * time.Millisecond):
		}
		again, _ = windowOpen(d)
	}
	if diff := time.Duration(again-until) * time.Millisecond; diff < -500*time.Millisecond || diff > 500*time.Millisecond {
		t.Errorf("after the reload the window ends %v later than before it (%d, was %d): it started over", diff, again, until)
	}
	go player(ctx, d, rand.New(rand.NewPCG(4, 4)), nil)
	tr.finish(ctx, t)
	if err := <-phoneDone; err != nil {
		t.Fatalf("phone: %v", err)
	}
}
