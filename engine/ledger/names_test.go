package ledger_test

import (
	"bytes"
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// TestRosterRefusesControlNames: a seat (or game) name carrying terminal
// control sequences or bidi overrides never enters a log: the roster is
// neither encoded nor decoded with it.
func TestRosterRefusesControlNames(t *testing.T) {
	const placeholder = "bobXXXXXX" // 9 bytes, the length of each bad name
	key := func(b byte) []byte {
		seed := make([]byte, ed25519.SeedSize)
		seed[0] = b
		return ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	}
	good := func(name string) *ledger.Roster {
		return &ledger.Roster{Game: "mascarade", Seats: []ledger.SeatInfo{
			{Name: "ann", PeerID: []byte("p0"), SignKey: key(1)},
			{Name: name, PeerID: []byte("p1"), SignKey: key(2)},
		}}
	}
	enc, err := good(placeholder).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"bob\x1b[2J\x1b[", "bob\x1b]52;c", "bob\r\n\x07\x00\x7f\x00", "b\u202eXX\u2066", "bob\xff\xfe\xfd\xfc\xfb\xfa", "bob\u009b2Jxx"} {
		if len(bad) != len(placeholder) {
			t.Fatalf("test name %q is %d bytes", bad, len(bad))
		}
		if _, err := good(bad).MarshalBinary(); err == nil || !strings.Contains(err.Error(), "seat 1") {
			t.Errorf("MarshalBinary with name %q: %v", bad, err)
		}
		forged := bytes.Replace(enc, []byte(placeholder), []byte(bad), 1)
		if _, err := ledger.UnmarshalRoster(forged); err == nil || !strings.Contains(err.Error(), "control or bidi") {
			t.Errorf("UnmarshalRoster with name %q: %v", bad, err)
		}
	}
	r := good("Зоя-李")
	if _, err := r.MarshalBinary(); err != nil {
		t.Errorf("a name in other scripts refused: %v", err)
	}
	r.Game = "masc\x1barade"
	if _, err := r.MarshalBinary(); err == nil {
		t.Error("a game name with ESC accepted")
	}
}
