package table_test

// Cheating seats at the table level. Each test plays a real 4-seat game
// among honest replicas (engine/table/tabletest), lets one seat author a
// bad entry, and checks through tabletest.Harness.Reject that every
// replica rejects it with the same *table.Fault naming that seat, that no
// replica's state (position, state hash, log, phase) changed, and that
// table.Replay of the honest transcript followed by the bad entry stops on
// the same Fault. Most tests then play the honest entry to show the table
// goes on. docs/security.md maps every attack to its test.

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// ---- Swaps ----

func TestAdversarySwapProofDoesNotVerify(t *testing.T) {
	h := fixedTable(t, "swap-bad-proof", 0)
	honest := h.MoveBody(0, move(0, swapK, 0, 1), true)

	// The outputs exchanged: both are valid cards, the proof is for the
	// other order.
	b := *honest
	b.Swaps = []table.SwapPayload{{Out0: honest.Swaps[0].Out1, Out1: honest.Swaps[0].Out0, Proof: honest.Swaps[0].Proof}}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "bad-swap-proof")

	// A swap whose outputs are not a re-masking of the inputs at all:
	// seat 0 replaces its card with a fresh encryption of the King.
	king := h.View().Joint().Encrypt(mental.CardPoint(int(mascarade.King)))
	b.Swaps = []table.SwapPayload{{Out0: king, Out1: honest.Swaps[0].Out1, Proof: honest.Swaps[0].Proof}}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "bad-swap-proof")

	// A proof made for another position (a replayed or precomputed proof).
	v := h.View()
	o0, o1, p, err := v.Joint().Swap(v.SwapContext(v.Pos()+1, 0, 0), v.Slot(0), v.Slot(1), true)
	if err != nil {
		t.Fatal(err)
	}
	b.Swaps = []table.SwapPayload{{Out0: o0, Out1: o1, Proof: p}}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "bad-swap-proof")

	// A proof made under another seat's context.
	o0, o1, p, _ = v.Joint().Swap(v.SwapContext(v.Pos(), 1, 0), v.Slot(0), v.Slot(1), true)
	b.Swaps = []table.SwapPayload{{Out0: o0, Out1: o1, Proof: p}}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "bad-swap-proof")

	// A flipped bit inside the proof that still decodes.
	enc := bodyOf(h, honest)
	for _, off := range []int{len(enc) - 224 + 40, len(enc) - 100} {
		bad := bytes.Clone(enc)
		bad[off] ^= 0x04
		f := h.RejectBody(0, bad)
		if f.Seat != 0 || (f.Reason != "bad-swap-proof" && f.Reason != "malformed-body") {
			t.Fatalf("flipped proof byte %d: %v", off, f)
		}
	}

	h.Publish(h.Entry(0, bodyOf(h, honest)))
}

func TestAdversarySwapProofForOtherSlots(t *testing.T) {
	h := fixedTable(t, "swap-other-slots", 0)
	v := h.View()
	ctx := v.SwapContext(v.Pos(), 0, 0)
	// A valid proof for slots (0,2) attached to a move swapping (0,1).
	for _, pair := range [][2]engine.Slot{{0, 2}, {0, 4}, {1, 0}, {2, 3}} {
		for _, bit := range []bool{false, true} {
			o0, o1, p, err := v.Joint().Swap(ctx, v.Slot(pair[0]), v.Slot(pair[1]), bit)
			if err != nil {
				t.Fatal(err)
			}
			b := &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: swapK, Args: []int{0, 1}},
				Swaps: []table.SwapPayload{{Out0: o0, Out1: o1, Proof: p}}}
			wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "bad-swap-proof")
		}
	}
	// The right proof, but the move names other slots than it proves.
	honest := h.MoveBody(0, move(0, swapK, 0, 1), true)
	b := *honest
	b.Move = engine.Move{Kind: swapK, Args: []int{0, 2}}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "bad-swap-proof")
	h.Publish(h.Entry(0, bodyOf(h, honest)))
}

func TestAdversarySwapPayloadCount(t *testing.T) {
	h := fixedTable(t, "swap-count", 0)
	honest := h.MoveBody(0, move(0, swapK, 0, 1), false)

	// Missing payload.
	b := *honest
	b.Swaps = nil
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "swap-count")
	// One payload too many.
	b.Swaps = []table.SwapPayload{honest.Swaps[0], honest.Swaps[0]}
	wantFault(t, h.RejectBody(0, bodyOf(h, &b)), 0, "swap-count")

	h.Publish(h.Entry(0, bodyOf(h, honest)))
	h.Auto()
	for i := 1; i < 4; i++ {
		h.Move(i, swapK, []int{i, (i + 1) % 4}, false)
	}

	// A payload on moves that need none: a peek and a claim by seat 0,
	// carrying a valid swap proof for this position.
	v := h.View()
	o0, o1, p, err := v.Joint().Swap(v.SwapContext(v.Pos(), 0, 0), v.Slot(0), v.Slot(1), true)
	if err != nil {
		t.Fatal(err)
	}
	extra := []table.SwapPayload{{Out0: o0, Out1: o1, Proof: p}}
	for _, m := range []engine.Move{{Kind: peekK, Args: []int{0}}, {Kind: claimK, Args: []int{int(mascarade.King), 0}}} {
		b := &table.Body{Kind: table.BodyMove, Move: m, Swaps: extra}
		wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "swap-count")
	}
	h.Move(0, peekK, []int{0})
}

// ---- Decryption shares ----

// peekPending plays the preparatory turns and a peek by seat 0: seats 1, 2
// and 3 owe shares of slot 0.
func peekPending(t *testing.T, seed string) *tabletest.Harness {
	h := fixedTable(t, seed, 0)
	prepared(h)
	b := h.MoveBody(0, move(0, peekK, 0))
	h.Publish(h.Entry(0, bodyOf(h, b)))
	if seat, kind := h.Expect(); seat != 1 || kind != table.BodyShares {
		t.Fatalf("after the peek: seat %d owes %s", seat, kind)
	}
	return h
}

func TestAdversaryWrongShare(t *testing.T) {
	h := peekPending(t, "wrong-share")
	v := h.View()
	ctx := v.ShareContext(v.Pos(), 1)
	card := v.Pending().Cards[0]
	viewer := v.ViewingKey(0)
	enc := func(k *mental.SecretKey, ctx mental.Context, c mental.Card, to *mental.Element) *mental.EncryptedShare {
		es, err := k.EncryptShare(ctx, c, to)
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	share := func(k *mental.SecretKey, ctx mental.Context, c mental.Card, to *mental.Element) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyShares, EncShares: []*mental.EncryptedShare{enc(k, ctx, c, to)}})
	}
	cases := map[string][]byte{
		// Another seat's key (seat 2's share, posted by seat 1).
		"another seat's key": share(h.Seats[2].Card, ctx, card, viewer),
		// A key that is in no roster.
		"an unknown key": share(mental.GenerateKey(), ctx, card, viewer),
		// Seat 1's key, another card (slot 1's ciphertext).
		"another card": share(h.Seats[1].Card, ctx, v.Slot(1), viewer),
		// Seat 1's key and the right card, another position's context.
		"another position": share(h.Seats[1].Card, v.ShareContext(v.Pos()+1, 1), card, viewer),
		// ... or another seat's context.
		"another context seat": share(h.Seats[1].Card, v.ShareContext(v.Pos(), 2), card, viewer),
		// Encrypted to the viewer's card key, which the table may publish:
		// that key would then open the view for everyone.
		"to the viewer's card key": share(h.Seats[1].Card, ctx, card, v.Joint().Keys[0]),
		// Encrypted to another seat's viewing key: seat 2 would see it.
		"to another seat's viewing key": share(h.Seats[1].Card, ctx, card, v.ViewingKey(2)),
		// Two shares for a one-slot request.
		"two shares": func() []byte {
			a := enc(h.Seats[1].Card, ctx, card, viewer)
			return bodyOf(h, &table.Body{Kind: table.BodyShares, EncShares: []*mental.EncryptedShare{a, a}})
		}(),
		// No share at all.
		"no share": bodyOf(h, &table.Body{Kind: table.BodyShares}),
		// A public share where one encrypted to the viewer is due: the
		// leak of issue 11 (two public peeks of one card open it).
		"a public share": func() []byte {
			sh, err := h.Seats[1].Card.Share(ctx, card)
			if err != nil {
				t.Fatal(err)
			}
			return bodyOf(h, &table.Body{Kind: table.BodyShares, Shares: []*mental.Share{sh}})
		}(),
	}
	// A random point for E2, with the honest proof.
	es := enc(h.Seats[1].Card, ctx, card, viewer)
	es.E2[0] = randomElement()
	cases["a random point"] = bodyOf(h, &table.Body{Kind: table.BodyShares, EncShares: []*mental.EncryptedShare{es}})
	// The identity for E1 (the share in the clear as E2).
	es = enc(h.Seats[1].Card, ctx, card, viewer)
	es.E1[0] = mental.Base().Subtract(mental.Base(), mental.Base())
	cases["the identity"] = bodyOf(h, &table.Body{Kind: table.BodyShares, EncShares: []*mental.EncryptedShare{es}})

	for name, body := range cases {
		reason := "bad-share"
		if name == "two shares" || name == "no share" || name == "a public share" {
			reason = "share-count"
		}
		t.Run(name, func(t *testing.T) {
			wantFault(t, h.RejectBody(1, body), 1, reason)
		})
	}
	// A move where shares are due.
	wantFault(t, h.RejectBody(1, bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: passK}})), 1, "wrong-body-kind")

	h.Auto()
	if m := h.Seats[0].Player.Memory; len(m) == 0 || m[len(m)-1].Card != mascarade.Judge {
		t.Fatalf("seat 0's peek after the rejected shares: %+v", m)
	}
}

func TestAdversarySharesOutOfTurn(t *testing.T) {
	h := peekPending(t, "shares-out-of-turn")
	v := h.View()
	card := v.Pending().Cards[0]
	for _, seat := range []int{0, 2, 3} { // the peeker, and seats not yet due
		sh, err := h.Seats[seat].Card.Share(v.ShareContext(v.Pos(), seat), card)
		if err != nil {
			t.Fatal(err)
		}
		wantFault(t, h.RejectBody(seat, bodyOf(h, &table.Body{Kind: table.BodyShares, Shares: []*mental.Share{sh}})), seat, "not-your-turn")
	}
	// The peeker posting a move to skip the shares.
	wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: peekK, Args: []int{0}}})), 0, "not-your-turn")
	h.Auto()
}

// A reveal of two slots: shares must come in slot order, from every seat.
func TestAdversaryRevealShares(t *testing.T) {
	h := fixedTable(t, "reveal-shares", 0)
	prepared(h)
	// Seat 0 claims the King (it holds the Judge); seat 1 challenges;
	// seats 2 and 3 pass: slots 0 and 1 are revealed.
	h.Move(0, claimK, []int{int(mascarade.King), 0})
	h.Move(1, challengeK, []int{1})
	h.Move(2, passK, nil)
	h.Play(3, passK, nil)
	r := h.View().Pending()
	if r == nil || r.Kind != engine.EffectReveal || len(r.Slots) != 2 {
		t.Fatalf("pending: %+v", r)
	}
	v := h.View()
	seat, honest := h.AutoBody()
	if seat != 0 {
		t.Fatalf("seat %d owes the first shares", seat)
	}
	// The two shares in the wrong order.
	b := &table.Body{Kind: table.BodyShares, Shares: []*mental.Share{honest.Shares[1], honest.Shares[0]}}
	wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "bad-share")
	// One share for two slots.
	b.Shares = honest.Shares[:1]
	wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "share-count")
	// The right share for slot 0 and a share of another card for slot 1.
	other, _ := h.Seats[0].Card.Share(v.ShareContext(v.Pos(), 0), v.Slot(4))
	b.Shares = []*mental.Share{honest.Shares[0], other}
	wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "bad-share")

	h.Publish(h.Entry(0, bodyOf(h, honest)))
	// An earlier seat's shares replayed by the next seat, re-signed.
	wantFault(t, h.RejectBody(1, h.Entries[len(h.Entries)-1].Body), 1, "bad-share")
	// The previous entry's shares re-signed by the same seat at the next
	// position (its turn is over).
	wantFault(t, h.RejectBody(0, h.Entries[len(h.Entries)-1].Body), 0, "not-your-turn")
	h.Auto()
	s := h.View().Rules().(*mascarade.State)
	// The Judge was revealed: seat 0 is an impostor and paid a fine.
	if s.Coins(0) != mascarade.DefaultCoins-1 {
		t.Fatalf("seat 0 has %d coins after its revealed bluff", s.Coins(0))
	}
}

// ---- Moves out of turn or out of order ----

func TestAdversaryPeekOfAnotherCard(t *testing.T) {
	h := fixedTable(t, "peek-other", 0)
	prepared(h)
	for _, slot := range []int{1, 2, 3, 4, 5, 6, -1} {
		b := &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: peekK, Args: []int{slot}}}
		wantFault(t, h.RejectBody(0, bodyOf(h, b)), 0, "rule:"+masquerade.RuleNotYourSlot)
	}
	h.Move(0, peekK, []int{0})
}

func TestAdversaryOutOfTurn(t *testing.T) {
	h := fixedTable(t, "out-of-turn", 0)
	body := func(kind uint8, args ...int) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: kind, Args: args}})
	}
	// Seat 1 swaps while seat 0 is due.
	o := h.MoveBody(0, move(0, swapK, 0, 1), false)
	wantFault(t, h.RejectBody(1, bodyOf(h, o)), 1, "not-your-turn")
	// Claims and peeks in a preparatory turn.
	wantFault(t, h.RejectBody(0, body(claimK, int(mascarade.King), 0)), 0, "rule:"+masquerade.RulePreparatory)
	wantFault(t, h.RejectBody(0, body(peekK, 0)), 0, "rule:"+masquerade.RulePreparatory)
	// A challenge or a power choice with no claim.
	wantFault(t, h.RejectBody(0, body(challengeK, 0)), 0, "rule:"+masquerade.RuleWrongMove)
	wantFault(t, h.RejectBody(0, body(useK, 1)), 0, "rule:"+masquerade.RuleWrongMove)
	prepared(h)

	// Seat 0 peeks; seat 1 claims the Bishop (the true card): a tie among
	// the richest, so after the window seat 1 must choose a target.
	h.Move(0, peekK, []int{0})
	// Seat 1 claims in seat 0's... no: it is seat 1's turn now. Seat 2
	// claims out of turn.
	wantFault(t, h.RejectBody(2, body(claimK, int(mascarade.King), 2)), 2, "not-your-turn")
	h.Move(1, claimK, []int{int(mascarade.Bishop), 1})
	// The window: seat 2 answers first.
	wantFault(t, h.RejectBody(3, body(challengeK, 3)), 3, "not-your-turn")
	wantFault(t, h.RejectBody(1, body(challengeK, 1)), 1, "not-your-turn") // the claimant
	wantFault(t, h.RejectBody(1, body(useK, 2)), 1, "not-your-turn")       // power before the window closes
	wantFault(t, h.RejectBody(2, body(useK, 0)), 2, "rule:"+masquerade.RuleWrongMove)
	wantFault(t, h.RejectBody(2, body(claimK, int(mascarade.King), 2)), 2, "rule:"+masquerade.RuleWrongMove)
	wantFault(t, h.RejectBody(2, body(challengeK, 3)), 2, "rule:"+masquerade.RuleNotYourSlot) // challenges with another's card
	h.Move(2, passK, nil)
	h.Move(3, passK, nil)
	wantFault(t, h.RejectBody(0, body(passK, 1)), 0, "rule:"+masquerade.RuleBadArgs)
	h.Move(0, passK, nil)
	// The power choice: only seat 1, only once, only a legal target.
	wantFault(t, h.RejectBody(2, body(useK, 1)), 2, "not-your-turn")
	wantFault(t, h.RejectBody(1, body(passK)), 1, "rule:"+masquerade.RuleWrongMove)
	wantFault(t, h.RejectBody(1, body(useK, 1)), 1, "rule:"+mascarade.RuleNotRichest)  // itself
	wantFault(t, h.RejectBody(1, body(useK, 9)), 1, "rule:"+mascarade.RuleNotRichest)  // no such seat
	wantFault(t, h.RejectBody(1, body(useK, -1)), 1, "rule:"+mascarade.RuleNotRichest) // no such seat
	wantFault(t, h.RejectBody(1, body(useK, 2, 3)), 1, "rule:"+masquerade.RuleBadArgs)
	h.Move(1, useK, []int{2})
	s := h.View().Rules().(*mascarade.State)
	if s.Coins(1) != mascarade.DefaultCoins+2 || s.Coins(2) != mascarade.DefaultCoins-2 {
		t.Fatalf("after the Bishop: coins %d and %d", s.Coins(1), s.Coins(2))
	}
	wantFault(t, h.RejectBody(1, body(useK, 3)), 1, "not-your-turn") // the power again
}

// ---- Replays, chaining and signatures ----

func TestAdversaryReplayedEntry(t *testing.T) {
	h := fixedTable(t, "replay", 0)
	prepared(h)
	h.Move(0, peekK, []int{0})
	old := h.Entries[1] // seat 1's preparatory swap
	// The same bytes at a later position.
	wantFault(t, h.Reject(old), 1, "wrong-position")
	// Seat 0's last entry again (its peek).
	var peek *ledger.Entry
	for _, e := range h.Entries {
		if e.Seat == 0 {
			peek = e
		}
	}
	wantFault(t, h.Reject(peek), 0, "wrong-position")
	// The body re-signed at the right position on the wrong previous hash.
	pos := h.View().Pos()
	wantFault(t, h.Reject(h.Sign(1, pos, 1, old.Prev, old.Body)), 1, "wrong-previous-hash")
	wantFault(t, h.Reject(h.Sign(1, pos, 1, ledger.Hash{}, old.Body)), 1, "wrong-previous-hash")
	// ... and on the right one: seat 1's old swap proof is bound to its
	// position and to the ciphertexts it consumed.
	wantFault(t, h.Reject(h.Sign(1, pos, 1, h.Prev(), old.Body)), 1, "bad-swap-proof")
	// An entry from the future: position + 1.
	wantFault(t, h.Reject(h.Sign(1, pos+1, 1, h.Prev(), old.Body)), 1, "wrong-position")
	h.Move(1, peekK, []int{1})
}

func TestAdversaryForeignSignature(t *testing.T) {
	h := fixedTable(t, "foreign-sig", 0)
	b := bodyOf(h, h.MoveBody(0, move(0, swapK, 0, 1), true))
	pos, prev := h.View().Pos(), h.Prev()
	// Seat 1 signs, with its own key, an entry claiming to be seat 0's:
	// the signature proves seat 1 made it.
	wantFault(t, h.Reject(h.Sign(1, pos, 0, prev, b)), 1, "signed-by-another-seat")
	// A signature nobody at the table made: over another game's bytes,
	// or a valid signature with the body changed afterwards. The fault
	// names the claimed author, which did not sign it.
	e := &ledger.Entry{Pos: pos, Seat: 0, Prev: prev, Body: b}
	e.Sign(ledger.Hash{1}, h.Seats[0].Sign)
	wantFault(t, h.Reject(e), 0, "bad-signature")
	e = h.Sign(0, pos, 0, prev, b)
	e.Body = bytes.Clone(b)
	e.Body[3] ^= 1
	wantFault(t, h.Reject(e), 0, "bad-signature")
	e = h.Sign(0, pos, 0, prev, b)
	e.Sig[0] ^= 1
	wantFault(t, h.Reject(e), 0, "bad-signature")
	// A seat byte beyond the roster.
	for _, seat := range []uint8{4, 15} {
		wantFault(t, h.Reject(h.Sign(0, pos, seat, prev, b)), int(seat), "unknown-seat")
	}
	h.Publish(h.Sign(0, pos, 0, prev, b))
}

// Every reason but bad-signature and unknown-seat blames a seat whose
// signature is on the entry: a forged entry is never blamed on the seat
// it names, whatever else is wrong with it.
func TestAdversaryBlameNeedsSignature(t *testing.T) {
	h := fixedTable(t, "blame-needs-signature", 0)
	prepared(h)
	pos, prev := h.View().Pos(), h.Prev()
	b := bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: passK}})
	// Seat 0 (due) forges seat 2's name on entries that are also out of
	// turn, misplaced or badly chained: seat 0 is blamed, not seat 2.
	for _, e := range []*ledger.Entry{
		h.Sign(0, pos, 2, prev, b),
		h.Sign(0, pos+3, 2, prev, b),
		h.Sign(0, pos, 2, ledger.Hash{}, b),
		h.Sign(0, 0, 2, h.GameID(), b),
	} {
		wantFault(t, h.Reject(e), 0, "signed-by-another-seat")
	}
	// Unsigned by anyone at the table.
	e := h.Sign(0, pos, 2, prev, b)
	e.Sig[10] ^= 1
	wantFault(t, h.Reject(e), 2, "bad-signature")
}

// ---- Rosters and keys ----

// rosterOf builds a signed roster and transcript for 4 seats, letting mod
// change the seats' keys before the roster is signed.
func rosterOf(t *testing.T, seed string, mod func(r *ledger.Roster, keys []tabletest.Keys)) *ledger.Transcript {
	t.Helper()
	g := gameOptions(t, 0)
	keys := tabletest.SeatKeys(seed, names4)
	r, _, err := tabletest.Roster(mascarade.Game{}, tabletest.TableID(seed), keys, table.Options{Game: g})
	if err != nil {
		t.Fatal(err)
	}
	if mod != nil {
		mod(r, keys)
	}
	sigs, err := tabletest.SignRoster(r, keys)
	if err != nil {
		t.Fatal(err)
	}
	return &ledger.Transcript{Roster: r, RosterSigs: sigs}
}

// refuse checks that a transcript whose roster is bad is refused by
// table.New (when check is set), table.Replay and the file decoder alike.
func refuse(t *testing.T, tr *ledger.Transcript, newToo bool) {
	t.Helper()
	if newToo {
		if _, err := table.New(tr.Roster, mascarade.Game{}); err == nil {
			t.Fatal("table.New accepted the roster")
		}
	}
	if _, err := table.Replay(tr, mascarade.Game{}); err == nil {
		t.Fatal("table.Replay accepted the roster")
	}
	if enc, err := tr.MarshalBinary(); err == nil {
		if dec, err := ledger.UnmarshalTranscript(enc); err == nil {
			if _, err := table.Replay(dec, mascarade.Game{}); err == nil {
				t.Fatal("the transcript file replays")
			}
		}
	}
}

// refuseSeatKeys is refuse for a roster whose seat's keys are bad: table.New
// refuses it with a bad-seat-keys Fault naming that seat.
func refuseSeatKeys(t *testing.T, tr *ledger.Transcript, seat int) {
	t.Helper()
	refuse(t, tr, true)
	_, err := table.New(tr.Roster, mascarade.Game{})
	var f *table.Fault
	if !errors.As(err, &f) || f.Reason != table.ReasonBadSeatKeys || f.Seat != seat || !f.Roster {
		t.Fatalf("table.New: %v; want a roster Fault %s naming seat %d", err, table.ReasonBadSeatKeys, seat)
	}
}

func TestAdversaryForgedRoster(t *testing.T) {
	ok := rosterOf(t, "roster", nil)
	if _, err := table.Replay(ok, mascarade.Game{}); err != nil {
		t.Fatalf("honest roster: %v", err)
	}
	t.Run("a seat signature that does not verify", func(t *testing.T) {
		tr := rosterOf(t, "roster", nil)
		tr.RosterSigs[2][5] ^= 1
		refuse(t, tr, false)
	})
	t.Run("signatures swapped between seats", func(t *testing.T) {
		tr := rosterOf(t, "roster", nil)
		tr.RosterSigs[1], tr.RosterSigs[2] = tr.RosterSigs[2], tr.RosterSigs[1]
		refuse(t, tr, false)
	})
	t.Run("the roster changed after signing", func(t *testing.T) {
		tr := rosterOf(t, "roster", nil)
		tr.Roster.Seats[3].Name = "Mallory"
		refuse(t, tr, false)
	})
	t.Run("signatures from another table", func(t *testing.T) {
		tr := rosterOf(t, "roster", nil)
		tr.RosterSigs = rosterOf(t, "roster-2", nil).RosterSigs
		refuse(t, tr, false)
	})
	t.Run("a card key proof from another table", func(t *testing.T) {
		other := rosterOf(t, "roster-other-table", nil)
		tr := rosterOf(t, "roster", func(r *ledger.Roster, _ []tabletest.Keys) {
			r.Seats[2].Keys = other.Roster.Seats[2].Keys
		})
		refuse(t, tr, true)
	})
	t.Run("a card key proof from another seat", func(t *testing.T) {
		tr := rosterOf(t, "roster", func(r *ledger.Roster, keys []tabletest.Keys) {
			// Seat 2's key, proven under seat 1's context.
			r.Seats[2].Keys = keys[2].Secrets().PublicKeys(r.TableID, 1, r.Seats[2].PeerID)
		})
		refuse(t, tr, true)
	})
	t.Run("a card key proof for another peer id", func(t *testing.T) {
		tr := rosterOf(t, "roster", func(r *ledger.Roster, _ []tabletest.Keys) {
			r.Seats[2].PeerID = []byte("test:someone-else")
		})
		refuse(t, tr, true)
	})
	t.Run("another seat's public key copied", func(t *testing.T) {
		tr := rosterOf(t, "roster", func(r *ledger.Roster, _ []tabletest.Keys) {
			r.Seats[3].Keys = append(slices.Clone(r.Seats[0].Keys[:96]), r.Seats[3].Keys[96:]...)
		})
		refuse(t, tr, true)
	})
	t.Run("options that are not the game's", func(t *testing.T) {
		tr := rosterOf(t, "roster", func(r *ledger.Roster, _ []tabletest.Keys) {
			r.Options = append(slices.Clone(r.Options), 0)
		})
		refuse(t, tr, true)
	})
}

func TestAdversaryRogueKey(t *testing.T) {
	// Seat 3 knows y and wants the joint key to be y·G, so that it alone
	// can decrypt every card: it announces X3 = y·G − (X0 + X1 + X2).
	y := tabletest.DeriveCardKey("rogue", "y")
	with := func(name string, X *mental.Element, proof []byte) {
		t.Run(name, func(t *testing.T) {
			tr := rosterOf(t, "rogue", func(r *ledger.Roster, _ []tabletest.Keys) {
				r.Seats[3].Keys = append(append(X.AppendBytes(nil), proof...), r.Seats[3].Keys[96:]...)
			})
			refuseSeatKeys(t, tr, 3)
		})
	}
	honest := rosterOf(t, "rogue", nil).Roster
	var sum *mental.Element
	for i := range 3 {
		pk, err := mental.UnmarshalPublicKey(honest.Seats[i].Keys[:96])
		if err != nil {
			t.Fatal(err)
		}
		if sum == nil {
			sum = mental.Base().Set(pk.X)
		} else {
			sum.Add(sum, pk.X)
		}
	}
	rogue := mental.Base().Subtract(y.Public(), sum)
	// Proofs the attacker can make: its own proof for y·G, seat 3's honest
	// proof, zeros, and a proof "for" the rogue key under a key it knows.
	ownProof := y.ProvePublic(table.KeyContext(honest.TableID, 3, honest.Seats[3].PeerID))
	ownEnc, _ := ownProof.MarshalBinary()
	with("rogue key with the attacker's proof", rogue, ownEnc[32:])
	with("rogue key with seat 3's honest proof", rogue, honest.Seats[3].Keys[32:96])
	with("rogue key with a zero proof", rogue, make([]byte, 64))
	// The key that cancels all others: the joint key is the identity.
	cancel := mental.Base().Negate(sum)
	with("a key cancelling the others", cancel, ownEnc[32:])
	// The identity element.
	with("the identity", mental.Base().Subtract(sum, sum), ownEnc[32:])
	// A proof-less key: 32 bytes.
	t.Run("no proof", func(t *testing.T) {
		tr := rosterOf(t, "rogue", func(r *ledger.Roster, _ []tabletest.Keys) {
			r.Seats[3].Keys = r.Seats[3].Keys[:32]
		})
		refuseSeatKeys(t, tr, 3)
	})
}

// ---- Encodings inside bodies ----

// nonCanonicalScalar is ≥ the group order.
var nonCanonicalScalar = bytes.Repeat([]byte{0xff}, 32)

// nonCanonicalElement is ≥ the field prime.
var nonCanonicalElement = bytes.Repeat([]byte{0xff}, 32)

func TestAdversaryEncodings(t *testing.T) {
	h := fixedTable(t, "encodings", 0)
	swap := bodyOf(h, h.MoveBody(0, move(0, swapK, 0, 1), true))
	if len(swap) != 12+2*65+224 {
		t.Fatalf("swap body is %d bytes", len(swap))
	}
	patch := func(b []byte, off int, with []byte) []byte {
		out := bytes.Clone(b)
		copy(out[off:], with)
		return out
	}
	negative := func(b []byte, off int) []byte { // the negative (odd) encoding of a point
		out := bytes.Clone(b)
		out[off] |= 1
		return out
	}
	malformed := map[string][]byte{
		"empty body":                 {},
		"unknown kind 0":             {0},
		"unknown kind 6":             append([]byte{6}, make([]byte, 32)...),
		"unknown kind 255":           {255},
		"card point not canonical":   patch(swap, 13, nonCanonicalElement),
		"card point negative":        negative(swap, 13+32),
		"second card not canonical":  patch(swap, 12+65+1, nonCanonicalElement),
		"card width 2":               patch(swap, 12, []byte{2}),
		"card width 0":               patch(swap, 12, []byte{0}),
		"proof challenge ≥ order":    patch(swap, 142, nonCanonicalScalar),
		"proof response ≥ order":     patch(swap, len(swap)-32, nonCanonicalScalar),
		"proof commitment negative":  negative(swap, 142+32*2),
		"trailing byte":              append(bytes.Clone(swap), 0),
		"trailing 32 bytes":          append(bytes.Clone(swap), make([]byte, 32)...),
		"17 arguments":               append([]byte{byte(table.BodyMove), swapK, 17}, make([]byte, 17*4+1)...),
		"255 arguments":              append([]byte{byte(table.BodyMove), swapK, 255}, make([]byte, 255*4+1)...),
		"5 swaps":                    {byte(table.BodyMove), swapK, 0, 5},
		"255 swaps, nothing after":   {byte(table.BodyMove), swapK, 0, 255},
		"argument count, no args":    {byte(table.BodyMove), swapK, 2, 0, 0},
		"commit truncated":           append([]byte{byte(table.BodyCommit)}, make([]byte, 31)...),
		"key truncated":              append([]byte{byte(table.BodyKey)}, make([]byte, 31)...),
		"shares count, no shares":    {byte(table.BodyShares), 3},
		"shares, no encrypted count": {byte(table.BodyShares), 0},
		"share length beyond body":   {byte(table.BodyShares), 1, 0xff, 0xff, 1},
	}
	for i := range len(swap) - 1 {
		malformed["swap truncated to "+itoa(i)] = swap[:i]
	}
	for name, b := range malformed {
		t.Run(name, func(t *testing.T) {
			wantFault(t, h.RejectBody(0, b), 0, "malformed-body")
		})
	}
	// Decodable but wrong: arguments the rules refuse.
	rules := map[string]engine.Move{
		"16 arguments":       {Kind: swapK, Args: make([]int, 16)},
		"no arguments":       {Kind: swapK},
		"huge argument":      {Kind: swapK, Args: []int{0, 1 << 30}},
		"negative argument":  {Kind: swapK, Args: []int{0, -1 << 31}},
		"unknown move kind":  {Kind: 0},
		"unknown move kind2": {Kind: 200},
	}
	for name, m := range rules {
		t.Run(name, func(t *testing.T) {
			f := h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyMove, Move: m}))
			if f.Seat != 0 || len(f.Reason) < 5 || f.Reason[:5] != "rule:" {
				t.Fatalf("fault %v: want a rule fault by seat 0", f)
			}
		})
	}
	// A body of the wrong kind for the phase.
	for _, k := range []table.BodyKind{table.BodyCommit, table.BodyReveal, table.BodyKey} {
		b := append([]byte{byte(k)}, make([]byte, 32)...)
		wantFault(t, h.RejectBody(0, b), 0, "wrong-body-kind")
	}
	wantFault(t, h.RejectBody(0, []byte{byte(table.BodyShares), 0, 0}), 0, "wrong-body-kind")
	h.Publish(h.Entry(0, swap))
	h.Auto()
}

// Shares with non-canonical encodings (a peek's: encrypted to the viewer).
func TestAdversaryShareEncodings(t *testing.T) {
	h := peekPending(t, "share-encodings")
	_, honest := h.AutoBody()
	enc := bodyOf(h, honest)
	// [kind][plain count 0][enc count 1][u16 length][width][E1 (32)][E2 (32)][proof...]
	if enc[1] != 0 || enc[2] != 1 || enc[5] != 1 {
		t.Fatalf("peek body starts % x", enc[:6])
	}
	patch := func(off int, with []byte) []byte {
		out := bytes.Clone(enc)
		copy(out[off:], with)
		return out
	}
	for name, b := range map[string][]byte{
		"E1 not canonical":       patch(6, nonCanonicalElement),
		"E2 not canonical":       patch(38, nonCanonicalElement),
		"response not canonical": patch(len(enc)-32, nonCanonicalScalar),
		"width 2":                patch(5, []byte{2}),
		"width 0":                patch(5, []byte{0}),
		"length one short":       patch(3, []byte{byte((len(enc) - 6) >> 8), byte(len(enc) - 6)}),
		"trailing byte":          append(bytes.Clone(enc), 0),
		"plain count 1":          patch(1, []byte{1}),
	} {
		t.Run(name, func(t *testing.T) {
			wantFault(t, h.RejectBody(1, b), 1, "malformed-body")
		})
	}
	h.Auto()
}

// ---- Deal coins and published keys ----

func TestAdversaryDealCoins(t *testing.T) {
	h := randomDealTable(t, "coins")
	if h.View().Phase() != table.PhaseCommit {
		t.Fatalf("phase %v", h.View().Phase())
	}
	// Out of order, and the wrong kind of body.
	seat, commit := h.AutoBody()
	if seat != 0 {
		t.Fatalf("seat %d commits first", seat)
	}
	wantFault(t, h.RejectBody(1, bodyOf(h, commit)), 1, "not-your-turn")
	wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyReveal})), 0, "wrong-body-kind")
	wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: swapK, Args: []int{0, 1}}})), 0, "wrong-body-kind")
	for range 4 {
		seat, b := h.AutoBody()
		h.Publish(h.Entry(seat, bodyOf(h, b)))
	}
	if h.View().Phase() != table.PhaseReveal {
		t.Fatalf("phase %v", h.View().Phase())
	}
	// A reveal that does not match the commitment: other coins, and the
	// commitment itself.
	for _, coin := range [][32]byte{{}, {1}, [32]byte(h.Entries[0].Body[1:33])} {
		wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyReveal, Coin: coin})), 0, "coin-mismatch")
	}
	wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyCommit})), 0, "wrong-body-kind")
	seat, reveal := h.AutoBody()
	h.Publish(h.Entry(seat, bodyOf(h, reveal)))
	// Seat 1 copies seat 0's revealed coin (to cancel it out, say): the
	// commitment binds the seat, so it does not match.
	wantFault(t, h.RejectBody(1, bodyOf(h, reveal)), 1, "coin-mismatch")
	h.Auto()
	if h.View().Phase() != table.PhasePlay || len(h.View().Deal()) != 6 {
		t.Fatalf("after the coins: phase %v, deal %v", h.View().Phase(), h.View().Deal())
	}
}

func TestAdversaryPublishedKey(t *testing.T) {
	// 12 coins each: an unchallenged King claim ends the game.
	h := fixedTable(t, "keys", 12)
	prepared(h)
	h.Move(0, claimK, []int{int(mascarade.King), 0})
	h.Move(1, passK, nil)
	h.Move(2, passK, nil)
	h.Play(3, passK, nil)
	if h.View().Phase() != table.PhaseKeys {
		t.Fatalf("phase %v after the winning claim", h.View().Phase())
	}
	key := func(b []byte) []byte { return bodyOf(h, &table.Body{Kind: table.BodyKey, Key: b}) }
	wantFault(t, h.RejectBody(0, key(h.Seats[1].Card.Bytes())), 0, "key-mismatch")      // another seat's key
	wantFault(t, h.RejectBody(0, key(mental.GenerateKey().Bytes())), 0, "key-mismatch") // a random key
	wantFault(t, h.RejectBody(0, key(make([]byte, 32))), 0, "key-mismatch")             // zero
	wantFault(t, h.RejectBody(0, key(nonCanonicalScalar)), 0, "key-mismatch")           // not canonical
	wantFault(t, h.RejectBody(1, key(h.Seats[1].Card.Bytes())), 1, "not-your-turn")     // out of order
	wantFault(t, h.RejectBody(0, bodyOf(h, &table.Body{Kind: table.BodyMove, Move: engine.Move{Kind: passK}})), 0, "wrong-body-kind")
	h.Auto()
	if h.View().Phase() != table.PhaseDone {
		t.Fatalf("phase %v", h.View().Phase())
	}
	// Nothing more is accepted.
	wantFault(t, h.RejectBody(0, key(h.Seats[0].Card.Bytes())), 0, "log-closed")
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// A seat's viewing key must be its own, proven as a viewing key, and
// different from every card key and every other viewing key: otherwise a
// published card key, or another seat, would open its private views.
func TestAdversaryViewingKeys(t *testing.T) {
	cases := []struct {
		name string
		mod  func(r *ledger.Roster, keys []tabletest.Keys)
		want string
	}{
		{"the card key as viewing key", func(r *ledger.Roster, keys []tabletest.Keys) {
			// Seat 3 knows its card key, so it can prove it as a viewing key.
			kc := table.KeyContext(r.TableID, 3, r.Seats[3].PeerID)
			view, _ := keys[3].Card.ProveViewing(kc).MarshalBinary()
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), view...)
		}, "viewing key equals the card key"},
		{"another seat's card key as viewing key", func(r *ledger.Roster, keys []tabletest.Keys) {
			// Seat 3 colludes with seat 0, which proves its card key as seat
			// 3's viewing key: seat 0's published card key would open seat
			// 3's views.
			kc := table.KeyContext(r.TableID, 3, r.Seats[3].PeerID)
			view, _ := keys[0].Card.ProveViewing(kc).MarshalBinary()
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), view...)
		}, "seat 3's viewing key is seat 0's card key"},
		{"another seat's viewing key, proven for this seat", func(r *ledger.Roster, keys []tabletest.Keys) {
			kc := table.KeyContext(r.TableID, 3, r.Seats[3].PeerID)
			view, _ := keys[1].View.ProveViewing(kc).MarshalBinary()
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), view...)
		}, "seats 1 and 3 have the same viewing key"},
		{"another seat's viewing key and proof copied", func(r *ledger.Roster, keys []tabletest.Keys) {
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), r.Seats[1].Keys[96:]...)
		}, "viewing key of seat 3: proof of knowledge"},
		{"a card key proof as the viewing key's", func(r *ledger.Roster, keys []tabletest.Keys) {
			kc := table.KeyContext(r.TableID, 3, r.Seats[3].PeerID)
			view, _ := keys[3].View.ProvePublic(kc).MarshalBinary()
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[:96]), view...)
		}, "viewing key of seat 3: proof of knowledge"},
		{"the two keys in the other order", func(r *ledger.Roster, keys []tabletest.Keys) {
			r.Seats[3].Keys = append(slices.Clone(r.Seats[3].Keys[96:]), r.Seats[3].Keys[:96]...)
		}, "public key of seat 3: proof of knowledge"},
		{"no viewing key", func(r *ledger.Roster, keys []tabletest.Keys) {
			r.Seats[3].Keys = slices.Clone(r.Seats[3].Keys[:96])
		}, "keys are 96 bytes, want 192"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := rosterOf(t, "viewing-keys", c.mod)
			_, err := table.New(tr.Roster, mascarade.Game{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("table.New: %v; want an error containing %q", err, c.want)
			}
			refuseSeatKeys(t, tr, 3)
		})
	}
}

// A move asked of a seat out of turn is refused with the rule and the
// names (the audit: "table: seat 2 cannot move now" said neither whose
// move it was nor which rule).
func TestMoveOutOfTurnSaysWhose(t *testing.T) {
	h := fixedTable(t, "out-of-turn-words", 0)
	_, err := h.Seats[2].Player.MoveBody(h.View(), move(2, swapK, 2, 3), []bool{false})
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Rule != "not-your-turn" || !strings.Contains(re.Msg, "Clara cannot move now: it is Anna's move") {
		t.Fatalf("out of turn: %v", err)
	}
}
