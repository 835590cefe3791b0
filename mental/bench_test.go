package mental_test

import (
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental"
	"github.com/masque-games/masque/mental/mentalbench"
)

// BenchmarkMental runs every benchmark of mentalbench (the same ones that
// `masque bench` runs): go test -bench Mental -run '^$' ./mental/
func BenchmarkMental(b *testing.B) {
	for _, c := range mentalbench.Cases() {
		b.Run(c.Name, c.Run)
	}
}

// BenchmarkNotHeld times the constant-size "my card is not k" proof
// (SPEC.md §3.11) at 4 seats (mentalbench's notheld/* fixture) and 5 (the
// Grimm Masquerade's maximum): the holder received n − 1 encrypted shares.
//
//	go test ./mental -run '^$' -bench NotHeld -count 6
func BenchmarkNotHeld(b *testing.B) {
	for _, seats := range []int{4, 5} {
		var sks []*mental.SecretKey
		var pks []*mental.PublicKey
		var kcs []mental.KeyContext
		for i := range seats {
			sk := mental.GenerateKey()
			kc := mental.KeyContext{Seat: uint32(i), Identity: []byte{byte(i)}}
			sks, pks, kcs = append(sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
		}
		jk, err := mental.NewJointKey(pks, kcs)
		if err != nil {
			b.Fatal(err)
		}
		view := mental.GenerateKey()
		c := jk.Encrypt(mental.CardPoint(5))
		var sent []*mental.EncryptedShare
		for j := 1; j < seats; j++ {
			es, err := sks[j].EncryptShare(mental.Context{Seat: uint32(j)}, c, view.Public())
			if err != nil {
				b.Fatal(err)
			}
			sent = append(sent, es)
		}
		ctx := mental.Context{Pos: 9}
		b.Run(fmt.Sprintf("seats=%d/prove", seats), func(b *testing.B) {
			for b.Loop() {
				if _, err := mental.ProveNotHeld(ctx, sks[0], view, c, 0, sent, 3); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("seats=%d/verify", seats), func(b *testing.B) {
			p, err := mental.ProveNotHeld(ctx, sks[0], view, c, 0, sent, 3)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := mental.VerifyNotHeld(ctx, jk.Keys[0], view.Public(), c, 0, sent, 3, p); err != nil {
					b.Fatal(err)
				}
			}
		})
		// As a peer holds them: the card, the shares and the proof
		// decoded from the wire, whose encodings the transcript reuses.
		wc, wsent := wireCard(b, c), wireShares(b, sent)
		b.Run(fmt.Sprintf("seats=%d/prove-wire", seats), func(b *testing.B) {
			for b.Loop() {
				if _, err := mental.ProveNotHeld(ctx, sks[0], view, wc, 0, wsent, 3); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("seats=%d/verify-wire", seats), func(b *testing.B) {
			p, err := mental.ProveNotHeld(ctx, sks[0], view, c, 0, sent, 3)
			if err != nil {
				b.Fatal(err)
			}
			enc, _ := p.MarshalBinary()
			if p, err = mental.UnmarshalNotHeldProof(enc); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := mental.VerifyNotHeld(ctx, jk.Keys[0], view.Public(), wc, 0, wsent, 3, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func wireCard(b *testing.B, c mental.Card) mental.Card {
	enc, _ := c.MarshalBinary()
	d, err := mental.UnmarshalCard(enc)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func wireShares(b *testing.B, sent []*mental.EncryptedShare) []*mental.EncryptedShare {
	var out []*mental.EncryptedShare
	for _, es := range sent {
		enc, _ := es.MarshalBinary()
		d, err := mental.UnmarshalEncryptedShare(enc)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}
