package main

import (
	"crypto/sha512"
	"encoding/hex"
	"testing"
)

func TestRist(t *testing.T) {
	// RFC 9496 A.1: multiples of generator
	want := []string{
		"0000000000000000000000000000000000000000000000000000000000000000",
		"e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
		"6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
	}
	p := Id()
	for i, w := range want {
		if hex.EncodeToString(rEncode(p)) != w {
			t.Fatalf("enc %d", i)
		}
		q, err := rDecode(rEncode(p))
		if err != nil || !rEqual(p, q) {
			t.Fatalf("dec %d", i)
		}
		p = new(Point).Add(p, G())
	}
	// A.3 hash-to-group
	h := sha512.Sum512([]byte("Ristretto is traditionally a short shot of espresso coffee"))
	if hex.EncodeToString(rEncode(rFromUniform(h[:]))) != "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46" {
		t.Fatal("map")
	}
	bad, _ := hex.DecodeString("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff")
	if _, err := rDecode(bad); err == nil {
		t.Fatal("accepted ff")
	}
}
