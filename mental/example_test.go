package mental_test

import (
	"fmt"

	"github.com/masque-games/masque/mental"
)

// The life of one card at a three-seat table: dealt face up, masked by a
// hidden swap, peeked by its holder, then revealed to everyone.
func Example() {
	table := [32]byte{'t'}
	// Every seat makes a key and proves it knows the secret.
	var secrets []*mental.SecretKey
	var keys []*mental.PublicKey
	var kcs []mental.KeyContext
	for seat := range 3 {
		sk := mental.GenerateKey()
		kc := mental.KeyContext{Table: table, Seat: uint32(seat), Identity: []byte{byte(seat)}}
		secrets, keys, kcs = append(secrets, sk), append(keys, sk.ProvePublic(kc)), append(kcs, kc)
	}
	joint, err := mental.NewJointKey(keys, kcs)
	if err != nil {
		panic(err)
	}
	cat := mental.NewCatalogue(13)
	king, queen := mental.FaceUp(mental.CardPoint(2)), mental.FaceUp(mental.CardPoint(4))

	// Seat 0 swaps (or not) the King and the Queen: nobody can tell which.
	ctx := mental.Context{Table: table, Pos: 1, Seat: 0}
	a, b, proof, err := joint.Swap(ctx, king, queen, true)
	if err != nil {
		panic(err)
	}
	fmt.Println("swap verifies:", joint.VerifySwap(ctx, king, queen, a, b, proof) == nil)

	// Seat 1 peeks at card a: seats 0 and 2 publish proven shares.
	var others [][]*mental.Element
	for _, seat := range []int{0, 2} {
		sctx := mental.Context{Table: table, Pos: 2, Seat: uint32(seat)}
		sh, _ := secrets[seat].Share(sctx, a)
		if mental.VerifyShare(sctx, joint.Keys[seat], a, sh) != nil {
			panic("bad share")
		}
		others = append(others, sh.D)
	}
	m, _ := secrets[1].Peek(a, others)
	k, _ := cat.Kind(m[0])
	fmt.Println("seat 1 sees kind", k)

	// Everyone reveals card b.
	var all [][]*mental.Element
	for seat := range 3 {
		sctx := mental.Context{Table: table, Pos: 3, Seat: uint32(seat)}
		sh, _ := secrets[seat].Share(sctx, b)
		all = append(all, sh.D)
	}
	m, _ = mental.Open(b, all)
	k, _ = cat.Kind(m[0])
	fmt.Println("revealed kind", k)
	// Output:
	// swap verifies: true
	// seat 1 sees kind 4
	// revealed kind 2
}
