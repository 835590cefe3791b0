package table_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// fuzzGame is a game with every kind of body: deal coins, swaps, a peek
// and its shares, a claim, a challenge, a reveal's shares, a power
// choice, and keys (coins at 12 so the game ends quickly).
func fuzzGame(tb testing.TB) *tabletest.Harness {
	tb.Helper()
	g, err := mascarade.Options{Players: names4, Coins: 11}.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	h := tabletest.New(tb, mascarade.Game{}, "fuzz", names4, table.Options{Game: g, PublishKeys: true})
	for i := range 4 {
		h.Move(i, swapK, []int{i, (i + 1) % 4}, i%2 == 1)
	}
	h.Move(0, peekK, []int{0})
	// Seat 1 claims the Bishop; seat 2 challenges; the rest pass.
	h.Move(1, claimK, []int{int(mascarade.Bishop), 1})
	h.Move(2, challengeK, []int{2})
	h.Move(3, passK, nil)
	h.Move(0, passK, nil)
	// Seat 2 claims the King: 11 + 3 ends the game.
	for h.View().Phase() == table.PhasePlay {
		s := h.View().Rules().(*mascarade.State)
		seat := int(s.Next().Seat)
		switch {
		case s.InChallengeWindow():
			h.Move(seat, passK, nil)
		default:
			if _, ok := s.Resolving(); ok {
				// The Bishop's choice on a tie: the first legal target.
				for target := range 4 {
					p := h.Seats[seat]
					if b, err := p.Player.MoveBody(p.Replica, move(seat, useK, target), nil); err == nil {
						h.Publish(h.Entry(seat, h.Encode(b)))
						h.Auto()
						break
					}
				}
				continue
			}
			if s.MustSwap(engine.Seat(seat)) {
				h.Move(seat, swapK, []int{seat, (seat + 1) % 4}, true)
				continue
			}
			h.Move(seat, claimK, []int{int(mascarade.King), seat})
		}
	}
	if h.View().Phase() != table.PhaseDone {
		tb.Fatalf("fuzz game ends in phase %v", h.View().Phase())
	}
	return h
}

// FuzzBody: the body decoder never panics, and accepts only canonical
// encodings.
func FuzzBody(f *testing.F) {
	h := fuzzGame(f)
	for _, e := range h.Entries {
		f.Add(e.Body)
	}
	f.Add([]byte{})
	f.Add([]byte{byte(table.BodyMove), swapK, 16})
	// A hidden deal's shuffle body.
	hh := tabletest.New(f, tabletest.HiddenGame{}, "fuzz-hidden", names4[:3], table.Options{Game: []byte{3}})
	for _, e := range hh.Entries {
		f.Add(e.Body)
	}
	// Shuffles of some slots, coin shares and moves with statements of
	// both kinds.
	for _, e := range effectsFuzzGame(f).Entries {
		f.Add(e.Body)
	}
	// The one-vote kill's bodies: a blind step (kind 10) and a mix of
	// width-1 cards (kind 9).
	jk, in := h.Seats[0].Replica.Joint(), mental.Card{{A: mental.Base(), B: mental.Base()}}
	if st, err := h.Seats[0].Card.BlindStep(mental.Context{}, in); err == nil {
		if enc, err := (&table.Body{Kind: table.BodyBlind, Blinds: []*mental.BlindStep{st}}).MarshalBinary(); err == nil {
			f.Add(enc)
		}
	}
	if deck, p, err := jk.Shuffle(mental.Context{}, []mental.Card{in, in.Clone()}); err == nil {
		if enc, err := (&table.Body{Kind: table.BodyMix, Deck: deck, Shuffle: p}).MarshalBinary(); err == nil {
			f.Add(enc)
		}
	}
	// The plurality kill's bodies (mental SPEC §9.9): count lookups (kind
	// 11) and blind bodies of one step per tested card (kind 10).
	seen := map[table.BodyKind]int{}
	for _, e := range pluralityLog(f).Entries {
		if len(e.Body) == 0 {
			continue
		}
		k := table.BodyKind(e.Body[0])
		if (k == table.BodyLookup || k == table.BodyBlind) && seen[k] < 4 {
			seen[k]++
			f.Add(e.Body)
		}
	}
	if seen[table.BodyLookup] == 0 || seen[table.BodyBlind] == 0 {
		f.Fatalf("the plurality vector has %d lookup and %d blind bodies", seen[table.BodyLookup], seen[table.BodyBlind])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := table.UnmarshalBody(data, 1)
		if err != nil {
			return
		}
		enc, err := b.MarshalBinary()
		if err != nil {
			t.Fatalf("decoded body does not encode: %v", err)
		}
		if !bytes.Equal(enc, data) {
			t.Fatal("decode∘encode is not the identity")
		}
	})
}

// effectsFuzzGame is a short EffectsGame with every new body: an opening
// of shuffles, peeks and a coin; statements "one of" and "none of" (one
// and several kinds, two in one move); a shuffle of a few slots by some
// seats; a coin during play.
func effectsFuzzGame(tb testing.TB) *tabletest.Harness {
	tb.Helper()
	h := effectsTable(tb, "fuzz-effects", 3)
	m := turn(h)
	k := own(h, m, m)
	h.Move(m, tabletest.EffectsOneOf, []int{m, int(k), other(k, 1)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsNoneOf, []int{m, other(k, 1), other(k, 2)})
	m = turn(h)
	k = own(h, m, m)
	h.Move(m, tabletest.EffectsTwoNones, []int{m, other(k, 3), other(k, 4)})
	h.Move(turn(h), tabletest.EffectsMix, []int{0b101, 3, 5, 7})
	h.Move(turn(h), tabletest.EffectsCoin, nil)
	return h
}

// FuzzTranscript: the transcript reader and the auditor's replay never
// panic; a replay either succeeds or stops on a *table.Fault (or refuses
// the roster).
func FuzzTranscript(f *testing.F) {
	h := fuzzGame(f)
	enc, err := h.Transcript().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc)
	short, _ := h.Transcript().MarshalBinary()
	f.Add(short[:len(short)/2])
	tr := h.Transcript()
	tr.Entries = tr.Entries[:6]
	six, _ := tr.MarshalBinary()
	f.Add(six)
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ledger.UnmarshalTranscript(data)
		if err != nil {
			return
		}
		if again, err := tr.MarshalBinary(); err != nil || !bytes.Equal(again, data) {
			t.Fatalf("decode∘encode is not the identity (%v)", err)
		}
		rt, err := table.Replay(tr, mascarade.Game{})
		var fault *table.Fault
		if err != nil && rt != nil && !errors.As(err, &fault) {
			t.Fatalf("replay stops without a Fault: %v", err)
		}
		if fault != nil {
			// The fault is about the first entry not applied.
			n := rt.Len()
			if n >= len(tr.Entries) || fault.Pos != tr.Entries[n].Pos {
				t.Fatalf("fault at %d after %d of %d entries", fault.Pos, n, len(tr.Entries))
			}
		}
	})
}

// FuzzApply: a 4-seat table, at one of several points of a real game,
// offered an arbitrary body validly signed by the seat due: Apply never
// panics, and on error returns a *table.Fault and leaves the table as it
// was.
func FuzzApply(f *testing.F) { fuzzApply(f, fuzzGame(f), mascarade.Game{}) }

// FuzzApplyEffects is FuzzApply on a game with shuffles of some slots,
// coins during play and statements (tabletest.EffectsGame).
func FuzzApplyEffects(f *testing.F) { fuzzApply(f, effectsFuzzGame(f), tabletest.EffectsGame{}) }

// fuzzApply offers arbitrary bodies at every position of h's game.
func fuzzApply(f *testing.F, h *tabletest.Harness, game table.Game) {
	entries := h.Entries
	// Interesting prefixes: one per position of the game.
	tables := make([]*table.Table, len(entries))
	build := func(k int) *table.Table {
		t, err := table.New(h.Roster, game)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries[:k] {
			if err := t.Apply(e); err != nil {
				f.Fatal(err)
			}
		}
		return t
	}
	for k := range tables {
		tables[k] = build(k)
	}
	for k, e := range entries {
		f.Add(uint8(k), e.Body)
		if k+1 < len(entries) {
			f.Add(uint8(k), entries[k+1].Body) // the next body, one step early
		}
	}
	f.Add(uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, at uint8, body []byte) {
		k := int(at) % len(tables)
		tb := tables[k]
		seat, _, ok := tb.Expect()
		if !ok {
			seat = 0
		}
		e := h.Sign(int(seat), tb.Pos(), uint8(seat), entries[k].Prev, body)
		before := [3]any{tb.Pos(), tb.StateHash(), tb.Len()}
		err := tb.Apply(e)
		if err == nil {
			tables[k] = build(k) // keep the corpus reproducible
			return
		}
		var fault *table.Fault
		if !errors.As(err, &fault) {
			t.Fatalf("not a *table.Fault: %v", err)
		}
		if fault.Seat != int(seat) || fault.Pos != e.Pos {
			t.Fatalf("fault %v blames seat %d at %d", fault, fault.Seat, fault.Pos)
		}
		if !table.KnownReason(fault.Reason) {
			t.Fatalf("fault reason %q is not in table.Reasons()", fault.Reason)
		}
		if after := [3]any{tb.Pos(), tb.StateHash(), tb.Len()}; after != before {
			t.Fatalf("a rejected entry changed the table: %v -> %v", before, after)
		}
	})
}

// FuzzSeatKeys: a roster seat's Keys decoder and the state directory's
// secrets decoder never panic, and accept only canonical encodings.
func FuzzSeatKeys(f *testing.F) {
	keys := tabletest.SeatKeys("fuzz-seat-keys", names4[:1])[0]
	f.Add(keys.Secrets().PublicKeys(tabletest.TableID("fuzz-seat-keys"), 0, keys.PeerID))
	sec, err := keys.Secrets().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sec)
	f.Add(append(sec, sec...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if k, err := table.DecodeSeatKeys(data); err == nil {
			card, _ := k.Card.MarshalBinary()
			view, _ := k.View.MarshalBinary()
			if !bytes.Equal(append(card, view...), data) {
				t.Fatal("seat keys: decode∘encode is not the identity")
			}
		}
		if s, err := table.UnmarshalSeatSecrets(data); err == nil {
			enc, err := s.MarshalBinary()
			if err != nil || !bytes.Equal(enc, data) {
				t.Fatalf("seat secrets: decode∘encode is not the identity (%v)", err)
			}
		}
	})
}
