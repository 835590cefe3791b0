package p2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
)

// TestJoinSeatField: the seat is a field of the join messages. A joiner
// asking for a seat that is not the next one is refused with the next
// seat and the table id; asking again for that seat (or for none) is
// accepted with the seat given, which is the seat the roster holds. A full
// table refuses with no seat.
func TestJoinSeatField(t *testing.T) {
	_, ps := mockPeers(t, 5)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var mu sync.Mutex
	var validated []int
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 4, Name: "p0",
		ValidateSeat: func(seat int, si ledger.SeatInfo) error {
			mu.Lock()
			defer mu.Unlock()
			if si.Name == "x" {
				return errors.New("names x are not welcome")
			}
			validated = append(validated, seat)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}

	// Seat 2 is not the next seat: refused, told seat 1 of this table.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 2})
	var no *JoinRefusedError
	if !errors.As(err, &no) || no.Seat != 1 || no.TableID != tbl.ID() || no.Creator != creator.ID ||
		!strings.Contains(no.Reason, "next seat is 1") || !strings.Contains(err.Error(), ": refused: ") {
		t.Fatalf("asking for seat 2: %v (%+v)", err, no)
	}
	// A refusal by the creator's seat check also names the next seat.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "x", Seat: 1})
	if !errors.As(err, &no) || no.Seat != 1 || !strings.Contains(no.Reason, "not welcome") {
		t.Fatalf("refused by ValidateSeat: %v", err)
	}
	// No such table: no table id, no seat.
	_, err = ps[1].node.Join(ctx, JoinConfig{Creator: creator, TableID: [16]byte{9}, Name: "p1"})
	if !errors.As(err, &no) || no.Seat != 0 || no.TableID != ([16]byte{}) {
		t.Fatalf("no such table: %v", err)
	}

	type joined struct {
		seating                 *Seating
		err                     error
		seat, taken, total, ups int
	}
	res := make([]joined, 4)
	var wg sync.WaitGroup
	join := func(i, asked int) {
		accepted := make(chan struct{})
		wg.Go(func() {
			j := &res[i]
			j.seating, j.err = ps[i].node.Join(ctx, JoinConfig{Creator: creator, TableID: tbl.ID(), Name: fmt.Sprint("p", i), Seat: asked,
				OnAccepted: func(taken, total int) { j.ups++ },
				OnSeated: func(seat, taken, total int) {
					j.seat, j.taken, j.total = seat, taken, total
					close(accepted)
				}})
			if j.err != nil {
				close(accepted)
			}
		})
		<-accepted // seats are given in the order joiners are accepted
	}
	join(1, 1) // asked for the next seat
	join(2, 0) // any seat
	join(3, 3)
	var seating *Seating
	seating, err = tbl.Seat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i := 1; i < 4; i++ {
		j := res[i]
		if j.err != nil {
			t.Fatalf("p%d: %v", i, j.err)
		}
		if j.seat != i || j.taken != i+1 || j.total != 4 || j.ups != 1 {
			t.Errorf("p%d: accepted at seat %d, %d/%d taken (OnAccepted %d times)", i, j.seat, j.taken, j.total, j.ups)
		}
		if int(j.seating.Seat) != i || j.seating.GameID != seating.GameID || j.seating.Roster.Seats[i].Name != fmt.Sprint("p", i) {
			t.Errorf("p%d: roster seat %d", i, j.seating.Seat)
		}
	}
	mu.Lock()
	if fmt.Sprint(validated) != "[1 2 3]" {
		t.Errorf("ValidateSeat saw seats %v", validated)
	}
	mu.Unlock()
	// The table started: refused, with no seat to offer.
	_, err = ps[4].node.Join(ctx, JoinConfig{Creator: creator, Name: "p4"})
	if !errors.As(err, &no) || no.Seat != 0 {
		t.Fatalf("late joiner: %v", err)
	}
}

// TestJoinConcurrentSeats: joiners admitted at once are each told their
// own seat (not a count of seats taken read after another joiner came in),
// and it is the seat the roster gives them.
func TestJoinConcurrentSeats(t *testing.T) {
	const n = 8
	_, ps := mockPeers(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: n, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	given := make([]int, n)
	taken := make([]int, n)
	seatings := make([]*Seating, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	wg.Go(func() { seatings[0], errs[0] = tbl.Seat(ctx) })
	for i := 1; i < n; i++ {
		wg.Go(func() {
			seatings[i], errs[i] = ps[i].node.Join(ctx, JoinConfig{Creator: creator, Name: fmt.Sprint("p", i),
				OnSeated: func(seat, tk, _ int) { given[i], taken[i] = seat, tk }})
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for i := 1; i < n; i++ {
		if errs[i] != nil {
			t.Fatalf("p%d: %v", i, errs[i])
		}
		if seen[given[i]] || given[i] < 1 || given[i] >= n || taken[i] != given[i]+1 {
			t.Errorf("p%d: given seat %d with %d taken", i, given[i], taken[i])
		}
		seen[given[i]] = true
		if int(seatings[i].Seat) != given[i] {
			t.Errorf("p%d: given seat %d, roster seat %d", i, given[i], seatings[i].Seat)
		}
	}
}

// TestJoinChecksGivenSeat: a creator that gives another seat than the one
// asked for is refused by the joiner.
func TestJoinChecksGivenSeat(t *testing.T) {
	_, ps := mockPeers(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ps[0].node.Host().SetStreamHandler(ProtocolJoin, func(s network.Stream) {
		defer s.Close()
		if _, err := ps[0].node.readMsg(bufio.NewReader(s), s); err != nil {
			s.Reset()
			return
		}
		WriteFrame(s, encodeJoinOK(2, 3, 4))
	})
	creator := peer.AddrInfo{ID: ps[0].id.PeerID(), Addrs: ps[0].node.Host().Addrs()}
	_, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 1,
		OnSeated: func(int, int, int) { t.Error("OnSeated called for a seat not asked for") }})
	if err == nil || !strings.Contains(err.Error(), "given seat 2, asked for 1") {
		t.Fatalf("err %v", err)
	}
	if _, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", Seat: 16}); err == nil {
		t.Fatal("seat 16 asked for")
	}
}
