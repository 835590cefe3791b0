package p2p

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// TestForwardedJoinNativeKeyTakenBack: a forwarder that knows a player's
// peer id (public: it is the identity of the player's signing key, the
// same from one game to the next) asks first, in a forwarded join
// request, for a seat under that player's key, a key it does not hold.
// The player's own node, which proves its key by its connection, then
// asks for a seat: it gets the forwarder's claim (its seat, not yet
// signed) back, and the table is seated with the player on its own path.
// The first version refused the player ("seat 1 is that player's,
// reached another way"): the forwarder shut it out of the table, and the
// table, waiting for a roster signature no one could give, named the
// player's peer id as the seat that never signed.
func TestForwardedJoinNativeKeyTakenBack(t *testing.T) {
	_, ps := mockPeers(t, 4)
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 3, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	// The forwarder (ps[2]) claims the seat of ps[1]'s key, under ps[1]'s
	// usual name.
	claim := ForwardedJoin{Name: "p1", SignKey: ps[1].id.PublicKey(), CardKey: []byte("forged")}
	rj, err := ps[2].node.JoinForwarded(ctx, creator, tbl.ID(), claim)
	if err != nil || rj.Seat() != 1 {
		t.Fatalf("the forwarder's claim: %v", err)
	}
	defer rj.Close()
	joined := make(chan error, 1)
	go func() {
		s, err := ps[1].node.Join(ctx, JoinConfig{Creator: creator, Name: "p1", CardKey: []byte("c1")})
		if err == nil && s.Seat != 1 {
			err = errors.New("seated at another seat than 1")
		}
		joined <- err
	}()
	// The player's own connection took the seat: the forwarder's stream
	// for it is gone, and the same claim again is refused.
	for {
		tbl.mu.Lock()
		native := len(tbl.joiners) > 0 && tbl.joiners[0].via == "" && tbl.joiners[0].s != nil
		tbl.mu.Unlock()
		if native {
			break
		}
		select {
		case err := <-joined:
			t.Fatalf("the player's own join: %v, want its seat back from the forwarder", err)
		case <-ctx.Done():
			t.Fatal("the player's own node never took its seat")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, _, err := rj.Offer(ctx); err == nil {
		t.Error("the forwarder's claim was offered the roster after the player took its seat back")
	}
	var no *JoinRefusedError
	if _, err := ps[3].node.JoinForwarded(ctx, creator, tbl.ID(), claim); !errors.As(err, &no) {
		t.Errorf("the claim again, through another forwarder: %v, want refused", err)
	}
	go ps[3].node.Join(ctx, JoinConfig{Creator: creator, Name: "p3", CardKey: []byte("c3")})
	seating, err := tbl.Seat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatalf("the player's own join: %v", err)
	}
	s := seating.Roster.Seats[1]
	if s.Name != "p1" || string(s.Keys) != "c1" || string(s.PeerID) != string(ps[1].node.ID()) {
		t.Errorf("seat 1: %q, card key %q: want the player's own request", s.Name, s.Keys)
	}
	for _, a := range seating.Table.Addrs[1] {
		if strings.Contains(string(a), string(ps[2].node.ID())) {
			t.Error("seat 1's addresses still name the forwarder")
		}
	}
}

// TestForwardedClaimNamesItsPath: a forwarder fills the last seat with a
// claim under another player's key (that player never comes) and the
// roster is never signed for it. The table's error names the forwarder
// that asked, not only the seat's peer id (the absent player's, whose
// key the request named): the first version said "seat 1 (p1,
// connected)", blaming a player who never asked.
func TestForwardedClaimNamesItsPath(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 2, Name: "p0", Patience: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	rj, err := ps[2].node.JoinForwarded(ctx, creator, tbl.ID(), ForwardedJoin{Name: "p1", SignKey: ps[1].id.PublicKey(), CardKey: []byte("forged")})
	if err != nil {
		t.Fatal(err)
	}
	defer rj.Close()
	_, err = tbl.Seat(ctx)
	if err == nil || !strings.Contains(err.Error(), "seat 1") || !strings.Contains(err.Error(), ps[2].node.ID().String()) {
		t.Fatalf("the table's error: %v, want seat 1 named with the forwarder %s", err, ps[2].node.ID())
	}
}

// TestForwardedBadSigNamesItsPath: a forwarder sends a bad roster
// signature for the seat it asked for: the table stops naming the
// forwarder, not only the seat (the first version said "seat 1 (p1)
// left during the roster agreement").
func TestForwardedBadSigNamesItsPath(t *testing.T) {
	_, ps := mockPeers(t, 3)
	tbl, err := ps[0].node.CreateTable(TableConfig{Game: "counter", Seats: 2, Name: "p0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	creator := peer.AddrInfo{ID: ps[0].node.ID(), Addrs: ps[0].node.Host().Addrs()}
	rj, err := ps[2].node.JoinForwarded(ctx, creator, tbl.ID(), ForwardedJoin{Name: "p1", SignKey: ps[1].id.PublicKey(), CardKey: []byte("forged")})
	if err != nil {
		t.Fatal(err)
	}
	defer rj.Close()
	go func() {
		if _, _, err := rj.Offer(ctx); err == nil {
			rj.Sign(ctx, make([]byte, 64))
		}
	}()
	_, err = tbl.Seat(ctx)
	if err == nil || !strings.Contains(err.Error(), "seat 1") || !strings.Contains(err.Error(), ps[2].node.ID().String()) {
		t.Fatalf("the table's error: %v, want seat 1 named with the forwarder %s", err, ps[2].node.ID())
	}
}
