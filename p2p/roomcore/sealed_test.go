package roomcore

import (
	"crypto/ed25519"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// TestSealed: a sealed frame opens only unchanged, for its table, under
// its seat's key; every byte changed on the way is refused with what was
// wrong.
func TestSealed(t *testing.T) {
	var keys []ed25519.PublicKey
	var privs []ed25519.PrivateKey
	for range 3 {
		pub, priv, err := ed25519.GenerateKey(nil)
		if err != nil {
			t.Fatal(err)
		}
		keys, privs = append(keys, pub), append(privs, priv)
	}
	game := ledger.Hash{7}
	frame := EncodeEcho(4, ledger.Hash{1}, ledger.Hash{2})
	raw, err := Seal(privs[2], game, 2, 99, frame)
	if err != nil {
		t.Fatal(err)
	}
	sd, m, err := OpenSealed(raw, game, keys)
	if err != nil || sd.Seat != 2 || sd.Nonce != 99 || m.Type != MsgEcho || m.Pos != 4 {
		t.Fatalf("open: %v %+v %+v", err, sd, m)
	}
	for i := range raw {
		bad := append([]byte(nil), raw...)
		bad[i] ^= 1
		if _, _, err := OpenSealed(bad, game, keys); err == nil {
			t.Fatalf("byte %d changed: accepted", i)
		}
	}
	forged, _ := Seal(privs[1], game, 2, 99, frame) // seat 1's key, seat 2's number
	other, _ := Seal(privs[2], ledger.Hash{8}, 2, 99, frame)
	hello, _ := Seal(privs[2], game, 2, 0, EncodeHello(game, 2))
	for _, c := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"forged", forged, "bad signature"},
		{"other table", other, "for game"},
		{"trailing", append(append([]byte(nil), raw...), 0), "trailing"},
		{"truncated", raw[:len(raw)-1], "truncated"},
		{"hello", hello, "never sealed"},
		{"seat out of range", raw, "the table has 2"},
	} {
		ks := keys
		if c.name == "seat out of range" {
			ks = keys[:2]
		}
		if _, _, err := OpenSealed(c.raw, game, ks); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	if _, err := Seal(privs[0], game, 0, 0, raw); err == nil {
		t.Error("a sealed frame sealed again")
	}
}
