package roomcore

import (
	"bytes"
	"crypto/ed25519"
	"testing"

	"github.com/masque-games/masque/engine/ledger"
)

// FuzzOpenSealed: OpenSealed on arbitrary bytes, and on arbitrary inner
// frames sealed by a seat (the inner frame's decoder behind a good
// seal), errs and never panics; what opens is what was sealed.
func FuzzOpenSealed(f *testing.F) {
	var keys []ed25519.PublicKey
	var privs []ed25519.PrivateKey
	for i := range 3 {
		seed := bytes.Repeat([]byte{byte(i + 1)}, ed25519.SeedSize)
		priv := ed25519.NewKeyFromSeed(seed)
		keys, privs = append(keys, priv.Public().(ed25519.PublicKey)), append(privs, priv)
	}
	game := ledger.Hash{7}
	e := &ledger.Entry{Pos: 3, Seat: 1, Prev: ledger.Hash{2}, Body: []byte("body")}
	entry, _ := EncodeEntry(e, ledger.Hash{4})
	verdict, _ := EncodeVerdict(&Verdict{Kind: VerdictTimeout, Seat: 2, Pos: 3})
	for _, fr := range [][]byte{entry, verdict, EncodeEcho(4, ledger.Hash{1}, ledger.Hash{2}), EncodeDone(5, ledger.Hash{3}),
		EncodeSyncReq(game, 0, 64), EncodeSyncEnd(9), EncodeHello(game, 1)} {
		f.Add(fr, uint8(1), uint64(0))
		if raw, err := Seal(privs[1], game, 1, 5, fr); err == nil {
			f.Add(raw, uint8(2), uint64(5))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, seat uint8, nonce uint64) {
		OpenSealed(b, game, keys)
		s := seat % 3
		raw, err := Seal(privs[s], game, s, nonce, b)
		if err != nil {
			return
		}
		sd, m, err := OpenSealed(raw, game, keys)
		if err != nil {
			return
		}
		if sd.Seat != s || sd.Nonce != nonce || !bytes.Equal(sd.Frame, b) || m == nil {
			t.Fatalf("opened %+v, sealed seat %d nonce %d frame %x", sd, s, nonce, b)
		}
	})
}
