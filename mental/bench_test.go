package mental

import "testing"

func benchTable(b *testing.B, n int) ([]*SecretKey, *JointKey) {
	var sks []*SecretKey
	var pks []*PublicKey
	var kcs []KeyContext
	for i := range n {
		sk := GenerateKey()
		kc := KeyContext{Seat: uint32(i)}
		sks, pks, kcs = append(sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
	}
	jk, err := NewJointKey(pks, kcs)
	if err != nil {
		b.Fatal(err)
	}
	return sks, jk
}

func BenchmarkSwapProve(b *testing.B) {
	_, jk := benchTable(b, 4)
	c0, c1 := jk.Encrypt(CardPoint(0)), jk.Encrypt(CardPoint(1))
	for b.Loop() {
		jk.Swap(Context{}, c0, c1, true)
	}
}

func BenchmarkSwapVerify(b *testing.B) {
	_, jk := benchTable(b, 4)
	c0, c1 := jk.Encrypt(CardPoint(0)), jk.Encrypt(CardPoint(1))
	o0, o1, p, _ := jk.Swap(Context{}, c0, c1, true)
	for b.Loop() {
		if err := jk.VerifySwap(Context{}, c0, c1, o0, o1, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkShareProve(b *testing.B) {
	sks, jk := benchTable(b, 4)
	c := jk.Encrypt(CardPoint(0))
	for b.Loop() {
		sks[0].Share(Context{}, c)
	}
}

func BenchmarkShareVerify(b *testing.B) {
	sks, jk := benchTable(b, 4)
	c := jk.Encrypt(CardPoint(0))
	s, _ := sks[0].Share(Context{}, c)
	for b.Loop() {
		if err := VerifyShare(Context{}, jk.Keys[0], c, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBatchVerify100Swaps(b *testing.B) {
	_, jk := benchTable(b, 4)
	type sw struct {
		c0, c1, o0, o1 Card
		p              *SwapProof
	}
	var sws []sw
	for range 100 {
		c0, c1 := jk.Encrypt(CardPoint(0)), jk.Encrypt(CardPoint(1))
		o0, o1, p, _ := jk.Swap(Context{}, c0, c1, true)
		sws = append(sws, sw{c0, c1, o0, o1, p})
	}
	for b.Loop() {
		var bt Batch
		for _, s := range sws {
			bt.AddSwap("swap", jk, Context{}, s.c0, s.c1, s.o0, s.o1, s.p)
		}
		if err := bt.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}
