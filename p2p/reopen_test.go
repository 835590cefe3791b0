package p2p

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestTableOpenedAgain: a creator's table is closed with a joiner seated
// (its program stopped during seating), and opened again with the same
// id and the seats it held (TableConfig.Held). Meanwhile the node expects
// it (ExpectTable): the joiner asking again in between is not refused as
// for no such table (it would take its table for gone) but asks again;
// once the table is open it gets seat 1 back, and is told the creator is
// back (OnBack) after it was told of the lost connection (OnLost).
func TestTableOpenedAgain(t *testing.T) {
	_, ps := mockPeers(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var id [16]byte
	id[0] = 9
	tbl, err := ps[0].node.CreateTable(TableConfig{ID: id, Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	seated, lost, back := make(chan int, 4), make(chan error, 4), make(chan int, 4)
	done := make(chan error, 1)
	go func() {
		_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: id, Name: "p1",
			OnSeated: func(seat, _, _ int) { seated <- seat },
			OnLost:   func(err error) { lost <- err },
			OnBack:   func(seat, _, _ int) { back <- seat }})
		done <- err
	}()
	if s := <-seated; s != 1 {
		t.Fatalf("p1 given seat %d", s)
	}
	held := tbl.Held()
	if len(held) != 1 || held[0].Name != "p1" || held[0].Relayed {
		t.Fatalf("held seats %+v, want p1's", held)
	}
	ps[0].node.ExpectTable(id)
	tbl.Close()
	select {
	case <-lost:
	case err := <-done:
		t.Fatalf("the join ended when its table closed: %v", err)
	case <-ctx.Done():
		t.Fatal("no OnLost")
	}
	// The creator takes a while to open it again: the joiner keeps
	// asking (every 100 ms at first) and must not be told it is gone.
	select {
	case err := <-done:
		t.Fatalf("the join ended before the table opened again: %v", err)
	case <-time.After(time.Second):
	}
	again, err := ps[0].node.CreateTable(TableConfig{ID: id, Game: "counter", Seats: 3, Name: "p0", Held: held})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if taken, _ := again.Taken(); taken != 2 {
		t.Errorf("the table opened again has %d seats taken, want 2", taken)
	}
	select {
	case s := <-back:
		if s != 1 {
			t.Errorf("back at seat %d, want 1", s)
		}
	case err := <-done:
		t.Fatalf("the join ended: %v", err)
	case <-ctx.Done():
		t.Fatal("the joiner did not get its seat back")
	}
	select {
	case s := <-seated:
		t.Errorf("told it was seated anew (seat %d), not that the creator is back", s)
	default:
	}
	if _, err := ps[0].node.CreateTable(TableConfig{ID: [16]byte{10}, Game: "counter", Seats: 2, Name: "p0", Held: []HeldSeat{held[0], held[0]}}); err == nil {
		t.Error("a table of 2 seats opened with 2 held seats")
	}
}
