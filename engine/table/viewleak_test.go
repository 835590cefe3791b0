package table_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/mental"
)

// Issue 11, hole 1: a peek used to publish plain decryption shares from
// every seat but the viewer. Two peeks of one ciphertext by different
// seats then put every seat's share in the public log, and anyone opened
// the card. These tests look at a log the way that attack does.

// logShares is what a log makes public about each ciphertext.
type logShares struct {
	seats    int
	public   map[string]map[int]bool // ciphertext -> seats whose plain share is in the log
	revealed map[string]bool         // ciphertexts a public reveal opened
	viewers  map[string]map[int]bool // ciphertexts privately viewed -> by whom
	viewed   map[string]mental.Card  // the viewed ciphertexts
	cards    map[string]mental.Card
}

func cardKey(tb testing.TB, c mental.Card) string {
	enc, err := c.MarshalBinary()
	if err != nil {
		tb.Fatal(err)
	}
	return string(enc)
}

// sharesIn replays tr entry by entry and files every plain share by the
// ciphertext it is a share of (the pending request says which), and every
// private view by its viewers.
func sharesIn(tb testing.TB, tr *ledger.Transcript, game table.Game) *logShares {
	tb.Helper()
	t, err := table.New(tr.Roster, game)
	if err != nil {
		tb.Fatal(err)
	}
	ls := &logShares{seats: t.Seats(), public: map[string]map[int]bool{}, revealed: map[string]bool{},
		viewers: map[string]map[int]bool{}, viewed: map[string]mental.Card{}, cards: map[string]mental.Card{}}
	for _, e := range tr.Entries {
		r := t.Pending()
		if r != nil && t.Phase() == table.PhasePlay {
			b, err := table.UnmarshalBody(e.Body, 1)
			if err != nil {
				tb.Fatalf("entry %d: %v", e.Pos, err)
			}
			for k := range b.Shares {
				if k >= len(r.Cards) {
					tb.Fatalf("entry %d: share %d of a %d-card request", e.Pos, k, len(r.Cards))
				}
				key := cardKey(tb, r.Cards[k])
				if ls.public[key] == nil {
					ls.public[key] = map[int]bool{}
				}
				ls.public[key][int(e.Seat)] = true
				ls.cards[key] = r.Cards[k]
			}
			for _, c := range r.Cards {
				key := cardKey(tb, c)
				switch r.Kind {
				case engine.EffectReveal:
					ls.revealed[key] = true
				case engine.EffectPeek, engine.EffectShowOthers:
					if ls.viewers[key] == nil {
						ls.viewers[key] = map[int]bool{}
					}
					ls.viewed[key] = c
					for s := range t.Seats() {
						if (r.Kind == engine.EffectPeek && s == int(r.By)) || (r.Kind == engine.EffectShowOthers && s != int(r.Except)) {
							ls.viewers[key][s] = true
						}
					}
				}
			}
		}
		if err := t.Apply(e); err != nil {
			tb.Fatalf("entry %d: %v", e.Pos, err)
		}
	}
	return ls
}

// openable lists the ciphertexts that the log's public shares alone open
// although no public reveal was made of them.
func (ls *logShares) openable() []string {
	var out []string
	for key, seats := range ls.public {
		if len(seats) == ls.seats && !ls.revealed[key] {
			out = append(out, key)
		}
	}
	return out
}

// TestViewsLeaveNoPublicShares plays random games of both editions and
// checks, per ciphertext, that the log's public shares open only what a
// public reveal opened, and that a private view adds no public share at
// all. It also checks that the games did what the attack needs: some
// ciphertext privately viewed by two different seats.
func TestViewsLeaveNoPublicShares(t *testing.T) {
	type run struct {
		ed    edition
		name  string
		sizes []int
	}
	peeky1, peeky2 := edition1, edition2
	peeky1.peekOneIn, peeky2.peekOneIn = 3, 3
	claims := func(cards ...engine.Card) func(engine.Move) bool {
		return func(m engine.Move) bool {
			return m.Kind == mascarade.KindClaim && len(m.Args) > 0 && slices.Contains(cards, engine.Card(m.Args[0]))
		}
	}
	peeky1.favour = claims(mascarade.Spy)
	peeky2.favour = claims(mascarade2.Spy, mascarade2.Princess)
	// The sizes whose default sets hold the Spy (1st edition: 10 and
	// more) or the Spy and the Princess (2nd edition), and some without.
	runs := []run{{peeky1, "mascarade", []int{4, 6, 10, 11, 12}}, {peeky2, "mascarade2", []int{4, 6, 8, 9, 10}}}
	twice := 0
	for _, r := range runs {
		for i, n := range r.sizes {
			seed := fmt.Sprintf("view-leak %s %d", r.name, i)
			t.Run(fmt.Sprintf("%s/%d players", r.name, n), func(t *testing.T) {
				tr := randomGameOf(t, r.ed, seed, names13[:n], 0)
				ls := sharesIn(t, tr, r.ed.game)
				if bad := ls.openable(); len(bad) > 0 {
					t.Fatalf("%d ciphertexts never revealed have public shares from all %d seats", len(bad), n)
				}
				for key, who := range ls.viewers {
					if len(ls.public[key]) > 0 && !ls.revealed[key] {
						t.Errorf("a ciphertext viewed by %v and never revealed has public shares from %v", who, ls.public[key])
					}
					if len(who) >= 2 {
						twice++
					}
				}
				if len(ls.viewers) == 0 {
					t.Fatal("the random game made no private view: the test checks nothing")
				}
			})
		}
	}
	if twice == 0 {
		t.Fatal("no ciphertext was viewed by two seats in any game: the attack's precondition never arose")
	}
}

// spyScript: Anna looks at her own card; Boris claims the Spy (nobody
// challenges) and looks at his card and Anna's, the same ciphertext Anna
// saw.
const spyScript = `game mascarade players=Anna,Boris,Sasha,Dima deal=Spy,Queen,King,Judge,Bishop,Thief set=Spy,Queen,King,Judge,Bishop,Thief
Anna swap Boris no
Boris swap Sasha no
Sasha swap Dima no
Dima swap Anna no
Anna peek
Boris claim Spy
Boris use with=Anna swap=no
`

// TestSpyPeekOfAPeekedCard is the review's attack, step by step: after
// two seats viewed one ciphertext, neither an auditor (public shares),
// nor a third seat (its own keys), nor anyone holding the viewer's card
// key (as when a table publishes it) opens the card.
func TestSpyPeekOfAPeekedCard(t *testing.T) {
	lt, err := localplay.Run(mascarade.Game{}, []byte(spyScript), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	ls := sharesIn(t, tr, mascarade.Game{})
	// Anna's card is slot 0; both views were of the ciphertext it had
	// after the preparatory turns (the Spy's swap then re-masked it).
	v := lt.View()
	var slot0 string
	for key, who := range ls.viewers {
		if who[0] && who[1] {
			slot0 = key
		}
	}
	if slot0 == "" {
		t.Fatalf("no ciphertext was viewed by both Anna and Boris: %d viewed", len(ls.viewers))
	}
	// The viewers did see it.
	saw := func(seat int) bool {
		for _, s := range lt.Seats[seat].Player.Memory {
			if s.Slot == 0 && s.Card == mascarade.Spy {
				return true
			}
		}
		return false
	}
	if !saw(0) || !saw(1) {
		t.Fatal("Anna and Boris did not both see Anna's Spy")
	}
	// The auditor: no public share of it at all.
	if got := ls.public[slot0]; len(got) != 0 {
		t.Fatalf("public shares of Anna's card from seats %v", got)
	}
	// Sasha (seat 2), and anyone with Anna's card key: decrypt every
	// encrypted share of the card in the log with the key at hand, add
	// the key holder's own share, and try to open.
	card := ls.viewed[slot0]
	cat := v.Catalogue()
	encrypted := encryptedSharesOf(t, tr, card)
	if len(encrypted) != 2*3 {
		t.Fatalf("%d encrypted shares of Anna's card, want 3 per view", len(encrypted))
	}
	real := func(seat int) []*mental.Element {
		sh, err := lt.Seats[seat].Player.CardKey().Share(v.ShareContext(0, seat), card)
		if err != nil {
			t.Fatal(err)
		}
		return sh.D
	}
	for _, try := range []struct {
		name string
		key  *mental.SecretKey
	}{
		{"Sasha's viewing key", lt.Seats[2].Player.ViewingKey()},
		{"Sasha's card key", lt.Seats[2].Player.CardKey()},
		{"Anna's card key (published)", lt.Seats[0].Player.CardKey()},
		{"Boris's card key (published)", lt.Seats[1].Player.CardKey()},
	} {
		for _, es := range encrypted {
			d := try.key.Decrypt(es.share)
			if d[0].Equal(real(es.author)[0]) == 1 {
				t.Errorf("%s decrypts seat %d's share for seat %d", try.name, es.author, es.to)
			}
		}
		// Every combination the key holder could make: one decryption
		// per other seat, plus its own share (Anna's from her card key).
		var ds [][]*mental.Element
		for _, es := range encrypted {
			ds = append(ds, try.key.Decrypt(es.share))
		}
		m, err := try.key.Peek(card, ds[:3])
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := cat.Kind(m[0]); ok {
			t.Errorf("%s opens Anna's card", try.name)
		}
	}
	// The test can tell: the viewers' own viewing keys do decrypt the
	// shares sent to them.
	for _, es := range encrypted {
		if d := lt.Seats[es.to].Player.ViewingKey().Decrypt(es.share); d[0].Equal(real(es.author)[0]) != 1 {
			t.Fatalf("seat %d's viewing key does not decrypt seat %d's share", es.to, es.author)
		}
	}
}

type sentShare struct {
	author, to int
	share      *mental.EncryptedShare
}

// encryptedSharesOf lists the encrypted shares of card in tr, with their
// authors and recipients.
func encryptedSharesOf(tb testing.TB, tr *ledger.Transcript, card mental.Card) []sentShare {
	tb.Helper()
	t, err := table.New(tr.Roster, mascarade.Game{})
	if err != nil {
		tb.Fatal(err)
	}
	want := cardKey(tb, card)
	var out []sentShare
	for _, e := range tr.Entries {
		if r := t.Pending(); r != nil && t.Phase() == table.PhasePlay && r.Private() {
			b, err := table.UnmarshalBody(e.Body, 1)
			if err != nil {
				tb.Fatal(err)
			}
			off := 0
			for k, c := range r.Cards {
				rec := r.RecipientsOf(t.Seats(), engine.Seat(e.Seat), k)
				if cardKey(tb, c) == want {
					for j, y := range rec {
						out = append(out, sentShare{author: int(e.Seat), to: int(y), share: b.EncShares[off+j]})
					}
				}
				off += len(rec)
			}
		}
		if err := t.Apply(e); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}
