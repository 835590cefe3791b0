package p2p

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/p2p/joinproto"
)

// TestJoinSurvivesDroppedConnection: a joiner whose connection to the
// creator drops while it waits for the table to fill asks again and gets
// the same seat back; the creator's count never goes down; and once the
// roster is signed, asking again (as a seat that missed the last message
// would) gets the same seat, roster and signatures, while a stranger is
// refused as at a started table.
func TestJoinSurvivesDroppedConnection(t *testing.T) {
	mn, ps := mockPeers(t, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var counts []int
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0",
		OnChange: func(taken, _ int) { mu.Lock(); counts = append(counts, taken); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	seatings := make([]*Seating, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = tbl.Seat(ctx) })
	seated := make(chan int, 4)
	wg.Go(func() {
		seatings[1], errs[1] = ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p1",
			OnSeated: func(seat, _, _ int) { seated <- seat }})
	})
	if s := <-seated; s != 1 {
		t.Fatalf("p1 given seat %d", s)
	}
	// The connection drops (both ways at once, as when a NAT forgets it).
	if err := mn.DisconnectPeers(ps[0].id.PeerID(), ps[1].id.PeerID()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for ps[1].node.Host().Network().Connectedness(ps[0].id.PeerID()) != 1 /* Connected */ {
		if time.Now().After(deadline) {
			t.Fatal("p1 did not reconnect")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if taken, _ := tbl.Taken(); taken != 2 {
		t.Errorf("after the drop: %d seats taken, want 2", taken)
	}
	wg.Go(func() {
		seatings[2], errs[2] = ps[2].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p2"})
	})
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("p%d: %v", i, err)
		}
	}
	for i, s := range seatings {
		if int(s.Seat) != i || s.GameID != seatings[0].GameID {
			t.Errorf("p%d: seat %d, game %x", i, s.Seat, s.GameID[:4])
		}
	}
	mu.Lock()
	for i := 1; i < len(counts); i++ {
		if counts[i] < counts[i-1] {
			t.Errorf("the creator's count went down: %v", counts)
		}
	}
	mu.Unlock()

	// Asking again after the agreement: the same seat, roster and
	// signatures, from what the creator remembers.
	again, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p1"})
	if err != nil {
		t.Fatalf("asking again: %v", err)
	}
	if again.Seat != 1 || again.GameID != seatings[0].GameID || fmt.Sprint(again.Table.Sigs) != fmt.Sprint(seatings[0].Table.Sigs) {
		t.Errorf("asking again: seat %d, game %x", again.Seat, again.GameID[:4])
	}
	// Not with another name (not the seat's), and not a stranger.
	var no *JoinRefusedError
	if _, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "q1"}); !errors.As(err, &no) || no.Code != RefusedStarted {
		t.Errorf("another name: %v", err)
	}
	if _, err := ps[3].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p3"}); !errors.As(err, &no) || no.Code != RefusedStarted {
		t.Errorf("a stranger: %v", err)
	}
}

// TestJoinGivesUpAfterPatience: a joiner that had a seat and then lost the
// creator for good says since when it had no contact, after its patience.
func TestJoinGivesUpAfterPatience(t *testing.T) {
	mn, ps := mockPeers(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	done := make(chan error, 1)
	seated := make(chan int, 1)
	go func() {
		_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p1", Patience: 2 * time.Second,
			OnSeated: func(seat, _, _ int) { seated <- seat }})
		done <- err
	}()
	<-seated
	if err := mn.UnlinkPeers(ps[0].id.PeerID(), ps[1].id.PeerID()); err != nil {
		t.Fatal(err)
	}
	mn.DisconnectPeers(ps[0].id.PeerID(), ps[1].id.PeerID())
	start := time.Now()
	err = <-done
	if err == nil || !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "no contact with the creator since") {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d < 2*time.Second || d > 10*time.Second {
		t.Errorf("gave up after %v, patience 2s", d)
	}
}

// TestSignedSeatAsksTheOthers: a seat that signed the roster but missed
// every signature (its creator out of its reach) gets them from another
// seat, which remembers the agreement.
func TestSignedSeatAsksTheOthers(t *testing.T) {
	mn, ps := mockPeers(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	seatings := make([]*Seating, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = tbl.Seat(ctx) })
	for i := 1; i < 3; i++ {
		wg.Go(func() {
			seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: fmt.Sprint("p", i)})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("p%d: %v", i, err)
		}
	}
	// Seat 1 as it was after sending its signature: the roster, no
	// signatures, and no way to the creator.
	ps[1].node.mu.Lock()
	offer := ps[1].node.seated[tbl.ID()].offer
	ps[1].node.mu.Unlock()
	half := *seatings[1]
	half.Table.Sigs = nil
	if err := mn.UnlinkPeers(ps[0].id.PeerID(), ps[1].id.PeerID()); err != nil {
		t.Fatal(err)
	}
	mn.DisconnectPeers(ps[0].id.PeerID(), ps[1].id.PeerID())
	got, err := ps[1].node.joinRetry(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: "p1", Patience: 10 * time.Second},
		&joinState{given: 1, seating: &half, offer: offer, signed: true})
	if err != nil {
		t.Fatalf("asking the others: %v", err)
	}
	if got.GameID != seatings[0].GameID || fmt.Sprint(got.Table.Sigs) != fmt.Sprint(seatings[0].Table.Sigs) {
		t.Error("another seat gave other signatures than the creator's")
	}
}

// TestRestartedJoinerRetakesItsSeat: a joiner whose program restarted
// (new card key) while its seat was held takes the same seat back with
// its new request; asking for another seat is refused naming its own.
func TestRestartedJoinerRetakesItsSeat(t *testing.T) {
	_, ps := mockPeers(t, 2)
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	p1 := ps[1].id
	first := &joinproto.Request{Name: "p1", SignKey: p1.PublicKey(), CardKey: []byte("old")}
	rec, gen, seat, _, no := tbl.admit(&joiner{peer: p1.PeerID(), req: first})
	if no != nil || seat != 1 {
		t.Fatalf("first request: seat %d, %v", seat, no)
	}
	tbl.lost(rec, gen) // its connection went
	again := &joinproto.Request{Name: "p1", Seat: 2, SignKey: p1.PublicKey(), CardKey: []byte("new")}
	if _, _, seat, _, no = tbl.admit(&joiner{peer: p1.PeerID(), req: again}); no == nil || no.Code != RefusedSeatNotFree || seat != 1 {
		t.Fatalf("asking for seat 2: seat %d, %v", seat, no)
	}
	again.Seat = 1
	got, _, seat, _, no := tbl.admit(&joiner{peer: p1.PeerID(), req: again})
	if no != nil || seat != 1 || got != rec || string(rec.req.CardKey) != "new" {
		t.Fatalf("restarted: seat %d, %v", seat, no)
	}
	if taken, _ := tbl.Taken(); taken != 2 {
		t.Errorf("%d seats taken, want 2", taken)
	}
}
