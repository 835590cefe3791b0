package phone

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
)

// FuzzHub: the hub fed arbitrary messages by a connection (lines: a
// text message each, or a binary one when it starts with 0x00; a line
// "SIGN" is a hello with the token and a good signature on the
// challenge, so that what follows reaches the seating) answers with an
// error and never panics.
func FuzzHub(f *testing.F) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{1}, ed25519.SeedSize))
	f.Add([]byte(`{"t":"hello","token":"tok","name":"x"}`))
	f.Add([]byte("\x00\x10\x01\nSIGN\n" + `{"t":"join","seat":1,"card":"AAAA"}`))
	f.Add([]byte(`{"t":"hello","key":"AAAA","sig":"AAAA"}` + "\n" + `{"t":"sign"}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, in []byte) {
		h := NewHub(Config{Token: "tok", HelloTimeout: time.Second})
		a, b := memPair()
		done := make(chan error, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		go func() { done <- h.Serve(ctx, a) }()
		first := <-b.in
		var ch phoneseat.Control
		json.Unmarshal(first.b, &ch)
		for _, l := range bytes.Split(in, []byte("\n")) {
			switch {
			case string(l) == "SIGN":
				l, _ = json.Marshal(phoneseat.Control{T: "hello", Token: "tok", Name: "x", Key: key.Public().(ed25519.PublicKey),
					Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), ch.Nonce...))})
				b.Write(ctx, l, false)
			case len(l) > 0 && l[0] == 0:
				b.Write(ctx, l[1:], true)
			default:
				b.Write(ctx, l, false)
			}
		}
		close(b.out)
		if err := <-done; err == nil {
			t.Fatal("the hub took a connection with no table to seat it at")
		}
	})
}
