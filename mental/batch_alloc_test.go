package mental_test

import (
	"testing"

	"github.com/masque-games/masque/mental"
)

// BenchmarkBatchShares checks a reveal's 13 decryption shares in one
// batch, as a seat does for one entry; -benchmem shows what a batch of a
// live game allocates (issue 28: edwards25519's VarTimeMultiScalarMult
// allocated 1.5 KB per point per call, 28 % of a live game's bytes).
//
//	go test ./mental -run '^$' -bench BatchShares -benchmem
func BenchmarkBatchShares(b *testing.B) {
	const seats = 13
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
	c := jk.Encrypt(mental.CardPoint(3))
	shares := make([]*mental.Share, seats)
	for i, sk := range sks {
		if shares[i], err = sk.Share(mental.Context{Seat: uint32(i), Pos: 7}, c); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		var bt mental.Batch
		for i := range seats {
			bt.AddShare("share", mental.Context{Seat: uint32(i), Pos: 7}, jk.Keys[i], c, shares[i])
		}
		if err := bt.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}
