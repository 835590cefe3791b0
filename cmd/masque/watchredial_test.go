package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/p2p/identity"
)

// A spectator whose seats all stopped answering looks the table's code up
// again: a creator restarted on another port is found at its new address
// (in its place among the seats, or added when the watch began at another
// seat's invite); an answer naming another peer changes nothing. A failed
// dial's list of every address tried is cut to its first line.
func TestSpectatorFindsARestartedCreator(t *testing.T) {
	var ids []peer.ID
	r := &ledger.Roster{TableID: [16]byte{9}}
	for i := range 3 {
		id, err := identity.Generate()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id.PeerID())
		r.Seats = append(r.Seats, ledger.SeatInfo{Name: []string{"ann", "bob", "cat"}[i], PeerID: []byte(id.PeerID())})
	}
	old, now := ma.StringCast("/ip4/127.0.0.1/tcp/4001"), ma.StringCast("/ip4/127.0.0.1/tcp/4555")
	asked := ""
	found := func(_ context.Context, code string) (peer.AddrInfo, error) {
		asked = code
		return peer.AddrInfo{ID: ids[0], Addrs: []ma.Multiaddr{now}}, nil
	}
	seats := []peer.AddrInfo{{ID: ids[0], Addrs: []ma.Multiaddr{old}}, {ID: ids[1]}}
	seats, moved := refreshCreator(context.Background(), seats, r, found)
	if !moved || len(seats) != 2 || !seats[0].Addrs[0].Equal(now) || asked != rosterCode(r) {
		t.Fatalf("after the creator's restart: %v (moved %v, asked %q)", seats, moved, asked)
	}
	if _, moved := refreshCreator(context.Background(), seats, r, found); moved {
		t.Error("the same address again is taken for a move")
	}
	// Begun at Bob's invite: the creator is added.
	seats, moved = refreshCreator(context.Background(), []peer.AddrInfo{{ID: ids[1]}}, r, found)
	if !moved || len(seats) != 2 || seats[1].ID != ids[0] {
		t.Errorf("begun at another seat: %v", seats)
	}
	// A lookup naming someone else, or failing, changes nothing.
	for _, lookup := range []func(context.Context, string) (peer.AddrInfo, error){
		func(context.Context, string) (peer.AddrInfo, error) {
			return peer.AddrInfo{ID: ids[2], Addrs: []ma.Multiaddr{now}}, nil
		},
		func(context.Context, string) (peer.AddrInfo, error) { return peer.AddrInfo{}, errors.New("no table") },
	} {
		seats := []peer.AddrInfo{{ID: ids[0], Addrs: []ma.Multiaddr{old}}}
		if seats, moved := refreshCreator(context.Background(), seats, r, lookup); moved || !seats[0].Addrs[0].Equal(old) {
			t.Errorf("a wrong answer moved the creator: %v", seats)
		}
	}
	dump := errors.New("p2p: watch: reach seat 12D3KooW: failed to dial: all dials failed\n  * [/ip4/127.0.0.1/tcp/4001] dial tcp 127.0.0.1:4001: connect: connection refused\n  * [/ip4/10.0.0.2/tcp/4001] dial backoff")
	if got := shortErr(dump); strings.Contains(got, "\n") || !strings.HasPrefix(got, "p2p: watch: reach seat 12D3KooW: failed to dial: all dials failed") {
		t.Errorf("shortErr: %q", got)
	}
}
