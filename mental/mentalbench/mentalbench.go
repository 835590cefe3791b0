// Package mentalbench holds the benchmarks of package mental, shared by
// `go test -bench` (mental/bench_test.go) and `masque bench`, so both
// measure exactly the same work.
package mentalbench

import (
	"fmt"
	"testing"

	"github.com/masque-games/masque/mental"
)

// Case is one benchmark. PerOp divides the measured time per iteration
// (a batch of 100 proofs reports the cost per proof).
type Case struct {
	Name  string
	PerOp int
	Run   func(b *testing.B)
}

// table is a set of seats with keys and their joint key.
type table struct {
	sks []*mental.SecretKey
	jk  *mental.JointKey
}

func newTable(b *testing.B, n int) *table {
	t := &table{}
	var pks []*mental.PublicKey
	var kcs []mental.KeyContext
	for i := range n {
		sk := mental.GenerateKey()
		kc := mental.KeyContext{Seat: uint32(i), Identity: []byte{byte(i)}}
		t.sks, pks, kcs = append(t.sks, sk), append(pks, sk.ProvePublic(kc)), append(kcs, kc)
	}
	jk, err := mental.NewJointKey(pks, kcs)
	if err != nil {
		b.Fatal(err)
	}
	t.jk = jk
	return t
}

// wire round-trips a card, as a peer holds it after decoding a message.
func wire(b *testing.B, c mental.Card) mental.Card {
	enc, _ := c.MarshalBinary()
	d, err := mental.UnmarshalCard(enc)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

type swapRec struct {
	ctx            mental.Context
	c0, c1, o0, o1 mental.Card
	p              *mental.SwapProof
}

// swaps makes n swap proofs; chained: on a 13-card table, each swap's
// inputs are earlier swaps' outputs, as in a game log.
func swaps(b *testing.B, t *table, n int, chained bool) []swapRec {
	slots := make([]mental.Card, 13)
	for i := range slots {
		slots[i] = wire(b, t.jk.Encrypt(mental.CardPoint(i)))
	}
	var out []swapRec
	for i := range n {
		a, c := i%13, (i*7+3)%13
		if a == c {
			c = (c + 1) % 13
		}
		c0, c1 := slots[a], slots[c]
		if !chained {
			c0, c1 = t.jk.Encrypt(mental.CardPoint(0)), t.jk.Encrypt(mental.CardPoint(1))
		}
		ctx := mental.Context{Pos: uint64(i)}
		o0, o1, p, err := t.jk.Swap(ctx, c0, c1, i%2 == 0)
		if err != nil {
			b.Fatal(err)
		}
		enc, _ := p.MarshalBinary()
		p2, _ := mental.UnmarshalSwapProof(enc)
		r := swapRec{ctx, wire(b, c0), wire(b, c1), wire(b, o0), wire(b, o1), p2}
		if chained {
			slots[a], slots[c] = r.o0, r.o1
			// Keep the decoded pointers shared between entries, as a
			// replica holds them.
			r.c0, r.c1 = c0, c1
		}
		out = append(out, r)
	}
	return out
}

func batchOf(b *testing.B, t *table, recs []swapRec, batched bool) {
	if batched {
		var bt mental.Batch
		for _, r := range recs {
			bt.AddSwap("swap", t.jk, r.ctx, r.c0, r.c1, r.o0, r.o1, r.p)
		}
		if err := bt.Verify(); err != nil {
			b.Fatal(err)
		}
		return
	}
	for _, r := range recs {
		if err := t.jk.VerifySwap(r.ctx, r.c0, r.c1, r.o0, r.o1, r.p); err != nil {
			b.Fatal(err)
		}
	}
}

// notHeld is a card seat 0 viewed at a 4-seat table (the Grimm
// Masquerade's 2–5), with the other seats' encrypted shares.
type notHeld struct {
	t    *table
	view *mental.SecretKey
	c    mental.Card
	sent []*mental.EncryptedShare
}

func notHeldFixture(b *testing.B) notHeld {
	t := newTable(b, 4)
	nh := notHeld{t: t, view: mental.GenerateKey(), c: t.jk.Encrypt(mental.CardPoint(5))}
	for j := 1; j < 4; j++ {
		es, err := t.sks[j].EncryptShare(mental.Context{Seat: uint32(j)}, nh.c, nh.view.Public())
		if err != nil {
			b.Fatal(err)
		}
		nh.sent = append(nh.sent, es)
	}
	return nh
}

// Cases returns every benchmark, in the order `masque bench` prints them.
func Cases() []Case {
	cs := []Case{
		{Name: "swap/prove", PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			c0, c1 := t.jk.Encrypt(mental.CardPoint(0)), t.jk.Encrypt(mental.CardPoint(1))
			for b.Loop() {
				if _, _, _, err := t.jk.Swap(mental.Context{}, c0, c1, true); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "swap/verify", PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			r := swaps(b, t, 1, false)[0]
			for b.Loop() {
				if err := t.jk.VerifySwap(r.ctx, r.c0, r.c1, r.o0, r.o1, r.p); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "share/prove", PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			c := t.jk.Encrypt(mental.CardPoint(0))
			for b.Loop() {
				if _, err := t.sks[0].Share(mental.Context{}, c); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "share/verify", PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			c := wire(b, t.jk.Encrypt(mental.CardPoint(0)))
			s, _ := t.sks[0].Share(mental.Context{}, c)
			enc, _ := s.MarshalBinary()
			s2, _ := mental.UnmarshalShare(enc)
			for b.Loop() {
				if err := mental.VerifyShare(mental.Context{}, t.jk.Keys[0], c, s2); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "peek/13-players", PerOp: 1, Run: func(b *testing.B) {
			// End to end: 12 seats make their shares encrypted to the
			// viewer's viewing key, everyone verifies them (once, as a
			// batch), the viewer decrypts them and opens the card.
			t := newTable(b, 13)
			view := mental.GenerateKey()
			c := t.jk.Encrypt(mental.CardPoint(5))
			cat := mental.NewCatalogue(13)
			for b.Loop() {
				var bt mental.Batch
				var sent []*mental.EncryptedShare
				for j := 1; j < 13; j++ {
					ctx := mental.Context{Seat: uint32(j)}
					es, err := t.sks[j].EncryptShare(ctx, c, view.Public())
					if err != nil {
						b.Fatal(err)
					}
					bt.AddEncryptedShare("share", ctx, t.jk.Keys[j], view.Public(), c, es)
					sent = append(sent, es)
				}
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
				var others [][]*mental.Element
				for _, es := range sent {
					others = append(others, view.Decrypt(es))
				}
				m, err := t.sks[0].Peek(c, others)
				if err != nil {
					b.Fatal(err)
				}
				if k, ok := cat.Kind(m[0]); !ok || k != 5 {
					b.Fatal("peek opened the wrong card")
				}
			}
		}},
		{Name: "notheld/prove", PerOp: 1, Run: func(b *testing.B) {
			nh := notHeldFixture(b)
			for b.Loop() {
				if _, err := mental.ProveNotHeld(mental.Context{}, nh.t.sks[0], nh.view, nh.c, 0, nh.sent, 3); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "notheld/verify", PerOp: 1, Run: func(b *testing.B) {
			nh := notHeldFixture(b)
			p, err := mental.ProveNotHeld(mental.Context{}, nh.t.sks[0], nh.view, nh.c, 0, nh.sent, 3)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := mental.VerifyNotHeld(mental.Context{}, nh.t.jk.Keys[0], nh.view.Public(), nh.c, 0, nh.sent, 3, p); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{Name: "reveal/13-players", PerOp: 1, Run: func(b *testing.B) {
			// End to end: 13 seats make their public shares, everyone
			// verifies them (once, as a batch) and opens the card.
			t := newTable(b, 13)
			c := t.jk.Encrypt(mental.CardPoint(5))
			cat := mental.NewCatalogue(13)
			for b.Loop() {
				var bt mental.Batch
				var all [][]*mental.Element
				for j := range 13 {
					ctx := mental.Context{Seat: uint32(j)}
					s, err := t.sks[j].Share(ctx, c)
					if err != nil {
						b.Fatal(err)
					}
					bt.AddShare("share", ctx, t.jk.Keys[j], c, s)
					all = append(all, s.D)
				}
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
				m, err := mental.Open(c, all)
				if err != nil {
					b.Fatal(err)
				}
				if k, ok := cat.Kind(m[0]); !ok || k != 5 {
					b.Fatal("reveal opened the wrong card")
				}
			}
		}},
	}
	for _, sz := range []struct {
		name string
		n, w int
	}{{"n=14", 14, 1}, {"n=48", 48, 1}, {"n=18w3", 18, 3}} {
		deck := func(t *table) []mental.Card {
			d := make([]mental.Card, sz.n)
			for i := range d {
				pts := make([]*mental.Element, sz.w)
				for k := range pts {
					pts[k] = mental.CardPoint(i*sz.w + k)
				}
				d[i] = t.jk.Encrypt(pts...)
			}
			return d
		}
		cs = append(cs, Case{Name: "shuffle/prove/" + sz.name, PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			in := deck(t)
			for b.Loop() {
				if _, _, err := t.jk.Shuffle(mental.Context{Pos: 1}, in); err != nil {
					b.Fatal(err)
				}
			}
		}}, Case{Name: "shuffle/verify/" + sz.name, PerOp: 1, Run: func(b *testing.B) {
			t := newTable(b, 4)
			in := deck(t)
			out, p, err := t.jk.Shuffle(mental.Context{Pos: 1}, in)
			if err != nil {
				b.Fatal(err)
			}
			in2, out2 := make([]mental.Card, len(in)), make([]mental.Card, len(out))
			for i := range in {
				in2[i], out2[i] = wire(b, in[i]), wire(b, out[i])
			}
			enc, _ := p.MarshalBinary()
			p2, err := mental.UnmarshalShuffleProof(enc, sz.n, sz.w)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := t.jk.VerifyShuffle(mental.Context{Pos: 1}, in2, out2, p2); err != nil {
					b.Fatal(err)
				}
			}
		}})
	}
	for _, batched := range []bool{false, true} {
		mode := "one-by-one"
		if batched {
			mode = "batch"
		}
		// The shares of a reveal at a 13-seat table: 12 seats each share
		// the same 9 cards (108 share proofs), as a replica checks them.
		cs = append(cs, Case{Name: "share-verify-108/" + mode, PerOp: 108, Run: func(b *testing.B) {
			t := newTable(b, 13)
			type rec struct {
				ctx mental.Context
				X   *mental.Element
				c   mental.Card
				s   *mental.Share
			}
			var recs []rec
			for k := range 9 {
				c := wire(b, t.jk.Encrypt(mental.CardPoint(k)))
				for j := 1; j < 13; j++ {
					ctx := mental.Context{Pos: uint64(k), Seat: uint32(j)}
					s, err := t.sks[j].Share(ctx, c)
					if err != nil {
						b.Fatal(err)
					}
					enc, _ := s.MarshalBinary()
					s2, err := mental.UnmarshalShare(enc)
					if err != nil {
						b.Fatal(err)
					}
					recs = append(recs, rec{ctx, t.jk.Keys[j], c, s2})
				}
			}
			for b.Loop() {
				if !batched {
					for _, r := range recs {
						if err := mental.VerifyShare(r.ctx, r.X, r.c, r.s); err != nil {
							b.Fatal(err)
						}
					}
					continue
				}
				var bt mental.Batch
				for _, r := range recs {
					bt.AddShare("share", r.ctx, r.X, r.c, r.s)
				}
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		}})
	}
	for _, chained := range []bool{false, true} {
		kind := "independent"
		if chained {
			kind = "chained"
		}
		for _, batched := range []bool{false, true} {
			mode := "one-by-one"
			if batched {
				mode = "batch"
			}
			cs = append(cs, Case{Name: fmt.Sprintf("swap-verify-100/%s/%s", kind, mode), PerOp: 100, Run: func(b *testing.B) {
				t := newTable(b, 4)
				recs := swaps(b, t, 100, chained)
				for b.Loop() {
					batchOf(b, t, recs, batched)
				}
			}})
		}
	}
	cs = append(cs, mafiaCases()...)
	return cs
}
