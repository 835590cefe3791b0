package table_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// princessTable plays the 2nd edition up to the Princess's choice: Anna
// (the Princess) shows Sasha's card to everyone but Sasha. The shares of
// that show-others request are due next, from seat 0.
func princessTable(t *testing.T) (*tabletest.Harness, engine.Slot) {
	t.Helper()
	src := []byte(`game mascarade2 players=Anna,Boris,Sasha,Dima,Egor,Fedya deal=Princess,King,Empress,Judge,Puppeteer,Swindler
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Egor peek
Fedya peek
Anna claim Princess
Anna use target=Sasha
`)
	sc, err := mascarade2.ParseScript(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := sc.Options.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h := tabletest.New(t, mascarade2.Game{}, "princess", sc.Options.Players, table.Options{Game: g, Deal: sc.Deal, PublishKeys: true})
	for _, ln := range sc.Lines {
		s := h.View().Rules().(*mascarade2.State)
		for s.InChallengeWindow() && s.Name(s.Next().Seat) != ln.SeatName {
			h.Move(int(s.Next().Seat), mascarade2.KindPass, nil)
			s = h.View().Rules().(*mascarade2.State)
		}
		m, bit, err := mascarade2.ParseMove(s, ln.SeatName, ln.Tokens)
		if err != nil {
			t.Fatalf("%s %s: %v", ln.SeatName, strings.Join(ln.Tokens, " "), err)
		}
		var bits []bool
		if mascarade2.HasSecretSwap(s, m) {
			bits = []bool{bit}
		}
		h.Play(int(m.Seat), m.Kind, m.Args, bits...)
		// Stop before the shares of the show-others request are posted.
		if r := h.View().Pending(); r != nil && r.Kind == engine.EffectShowOthers {
			return h, r.Slots[0]
		}
		h.Auto()
	}
	t.Fatal("the Princess's request never came")
	return nil, 0
}

// The Princess's reveal travels as encrypted shares inside the public log.
// Shares encrypted to the owner, to the wrong keys, for another card, or
// in the wrong number are refused with the author named; the honest ones
// show the card to every seat but its owner.
func TestAdversaryShowOthers(t *testing.T) {
	h, slot := princessTable(t)
	v := h.View()
	r := v.Pending()
	if r.Except != 2 {
		t.Fatalf("the request keeps seat %d in the dark, want Sasha (2)", r.Except)
	}
	seat := 0 // Anna posts first
	ctx := v.ShareContext(v.Pos(), seat)
	rec := r.RecipientsOf(v.Seats(), engine.Seat(seat), 0)
	me := h.Seats[seat].Card
	enc := func(card mental.Card, to []engine.Seat) []*mental.EncryptedShare {
		var out []*mental.EncryptedShare
		for _, y := range to {
			es, err := me.EncryptShare(ctx, card, v.Joint().Keys[y])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, es)
		}
		return out
	}
	body := func(es []*mental.EncryptedShare) []byte {
		return bodyOf(h, &table.Body{Kind: table.BodyShares, EncShares: es})
	}
	// To the owner instead of the first recipient.
	toOwner := slices.Clone(rec)
	toOwner[0] = r.Except
	wantFault(t, h.RejectBody(seat, body(enc(r.Cards[0], toOwner))), seat, "bad-share")
	// Recipients in another order.
	rev := slices.Clone(rec)
	slices.Reverse(rev)
	wantFault(t, h.RejectBody(seat, body(enc(r.Cards[0], rev))), seat, "bad-share")
	// Shares of another card.
	wantFault(t, h.RejectBody(seat, body(enc(v.Slot(slot+1), rec))), seat, "bad-share")
	// One recipient missing; plain shares instead.
	wantFault(t, h.RejectBody(seat, body(enc(r.Cards[0], rec[1:]))), seat, "share-count")
	sh, _ := me.Share(ctx, r.Cards[0])
	wantFault(t, h.RejectBody(seat, bodyOf(h, &table.Body{Kind: table.BodyShares, Shares: []*mental.Share{sh}})), seat, "share-count")

	// The honest shares: everyone but Sasha sees Sasha's card.
	h.Auto()
	want := h.View().Deal()[slot]
	for i, s := range h.Seats {
		saw := false
		for _, m := range s.Player.Memory {
			if m.Slot == slot && !m.Public {
				saw = true
				if m.Card != want {
					t.Errorf("%s saw %d in Sasha's slot, want %d", s.Name, m.Card, want)
				}
			}
		}
		if saw == (i == 2) {
			t.Errorf("%s: saw=%v (the owner must not see, everyone else must)", s.Name, saw)
		}
	}
}
