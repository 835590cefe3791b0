package main

import (
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/engine/ledger"
)

// TestScreenTitleNamesTheHost: the play screen's title names a network
// table by its host ("Anna's table"), as its lobby name does by default,
// not by a join code: an --unlisted table's players never saw a code (the
// title said "table CODE").
func TestScreenTitleNamesTheHost(t *testing.T) {
	id := testIdentity(t)
	r := &ledger.Roster{TableID: [16]byte{1, 2, 3}, Game: "grimm", Seats: []ledger.SeatInfo{
		{Name: "Anna", PeerID: []byte(id)}, {Name: "Boris", PeerID: []byte(id)}, {Name: "Sasha", PeerID: []byte(id)}}}
	code := rosterCode(r)
	for _, tc := range []struct {
		replayed int
		want     string
	}{
		{0, "Anna's table · 3 players · card keys kept secret"},
		{12, "Anna's table · 3 players · card keys kept secret · resumed after 12 entries"},
	} {
		got := screenTitle(r, "card keys kept secret", tc.replayed)
		if got != tc.want {
			t.Errorf("title %q, want %q", got, tc.want)
		}
		if strings.Contains(got, code) {
			t.Errorf("title %q shows the join code %s", got, code)
		}
	}
}

func testIdentity(t *testing.T) peer.ID {
	t.Helper()
	id, err := peer.Decode("12D3KooWD3eckifWpRn9wQpMG9R9hX3sD158z7EqHWmweQAJU5SA")
	if err != nil {
		t.Fatal(err)
	}
	return id
}
