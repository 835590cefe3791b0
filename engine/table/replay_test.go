package table_test

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/engine/table/tabletest"
	"github.com/masque-games/masque/mental"
)

// randomGame plays a whole game of Mascarade among names with random legal
// moves (mostly passes in the challenge windows, as people play), on one
// strict table that every seat's player writes to: a real transcript with
// every proof, at a fraction of the cost of one replica per seat. The keys
// are published at the end.
func randomGame(tb testing.TB, seed string, names []string, coins int) *ledger.Transcript {
	tb.Helper()
	return randomGameOf(tb, edition1, seed, names, coins)
}

// edition is what randomGameOf needs to know of a Mascarade edition.
type edition struct {
	game    table.Game
	options func(names []string, coins int) ([]byte, error)
	legal   func(s engine.State, seat engine.Seat) []engine.Move
	window  func(s engine.State) bool // a challenge window is open
	secret  func(s engine.State, m engine.Move) bool
	format  func(s engine.State, m engine.Move) string
	// peekOneIn, if not 0, makes a turn a peek one time in peekOneIn
	// when one is legal (uniform choices rarely peek).
	peekOneIn int
	// favour, if set, picks the move half the time when one is legal
	// (claims of the characters that show a card to another seat).
	favour func(m engine.Move) bool
}

var edition1 = edition{
	game: mascarade.Game{},
	options: func(names []string, coins int) ([]byte, error) {
		return mascarade.Options{Players: names, Coins: coins}.MarshalBinary()
	},
	legal:  func(s engine.State, seat engine.Seat) []engine.Move { return s.(*mascarade.State).LegalMoves(seat) },
	window: func(s engine.State) bool { return s.(*mascarade.State).InChallengeWindow() },
	secret: func(s engine.State, m engine.Move) bool { return mascarade.HasSecretSwap(s.(*mascarade.State), m) },
	format: func(s engine.State, m engine.Move) string { return mascarade.FormatMove(s.(*mascarade.State), m) },
}

var edition2 = edition{
	game: mascarade2.Game{},
	options: func(names []string, coins int) ([]byte, error) {
		return mascarade2.Options{Players: names, Coins: coins}.MarshalBinary()
	},
	legal:  func(s engine.State, seat engine.Seat) []engine.Move { return s.(*mascarade2.State).LegalMoves(seat) },
	window: func(s engine.State) bool { return s.(*mascarade2.State).InChallengeWindow() },
	secret: func(s engine.State, m engine.Move) bool { return mascarade2.HasSecretSwap(s.(*mascarade2.State), m) },
	format: func(s engine.State, m engine.Move) string { return mascarade2.FormatMove(s.(*mascarade2.State), m) },
}

// randomGameOf is randomGame for either edition.
func randomGameOf(tb testing.TB, ed edition, seed string, names []string, coins int) *ledger.Transcript {
	tb.Helper()
	g, err := ed.options(names, coins)
	if err != nil {
		tb.Fatal(err)
	}
	// The deal is fixed, drawn from seed: a deal from coins would depend
	// on the roster's hash, which the card key proofs' random nonces
	// change from run to run, and so would the whole game.
	rng := rand.New(rand.NewChaCha8([32]byte(tabletest.DeriveBytes(seed, "moves"))))
	deal, err := ed.game.Deck(g)
	if err != nil {
		tb.Fatal(err)
	}
	rng.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	keys := tabletest.SeatKeys(seed, names)
	r, sigs, err := tabletest.Roster(ed.game, tabletest.TableID(seed), keys, table.Options{Game: g, Deal: deal, PublishKeys: true})
	if err != nil {
		tb.Fatal(err)
	}
	t, err := table.New(r, ed.game)
	if err != nil {
		tb.Fatal(err)
	}
	var players []*table.Player
	for i, k := range keys {
		players = append(players, table.NewPlayer(i, k.Sign, k.Secrets()))
	}
	tr := &ledger.Transcript{Roster: r, RosterSigs: sigs}
	post := func(p *table.Player, b *table.Body) {
		tb.Helper()
		e, err := p.Entry(t, b)
		if err != nil {
			tb.Fatal(err)
		}
		if err := t.Apply(e); err != nil {
			tb.Fatalf("entry %d: %v", e.Pos, err)
		}
		tr.Entries = append(tr.Entries, e)
	}
	for moves := 0; ; {
		seat, kind, ok := t.Expect()
		if !ok {
			break
		}
		p := players[seat]
		if kind != table.BodyMove {
			b, auto, err := p.AutoBody(t)
			if err != nil || !auto {
				tb.Fatalf("seat %d owes a %s entry: %v", seat, kind, err)
			}
			post(p, b)
			continue
		}
		if moves++; moves > 2000 {
			tb.Fatal("the random game does not end")
		}
		s := t.Rules()
		legal := ed.legal(s, seat)
		if len(legal) == 0 {
			tb.Fatalf("seat %d has no legal move", seat)
		}
		m := legal[rng.IntN(len(legal))]
		if ed.window(s) && rng.IntN(4) != 0 {
			m = legal[0] // pass
		} else if ed.favour != nil && slices.ContainsFunc(legal, ed.favour) && rng.IntN(2) == 0 {
			for _, l := range legal {
				if ed.favour(l) {
					m = l
				}
			}
		} else if ed.peekOneIn > 0 && rng.IntN(ed.peekOneIn) == 0 {
			for _, l := range legal {
				if l.Kind == mascarade.KindPeek {
					m = l
				}
			}
		}
		var bits []bool
		if ed.secret(s, m) {
			bits = []bool{rng.IntN(2) == 0}
		}
		b, err := p.MoveBody(t, m, bits)
		if err != nil {
			tb.Fatalf("seat %d: %s: %v", seat, ed.format(s, m), err)
		}
		post(p, b)
	}
	if t.Phase() != table.PhaseDone {
		tb.Fatalf("the random game ends in phase %v", t.Phase())
	}
	return tr
}

var names13 = []string{"Anna", "Boris", "Clara", "Dmitri", "Egor", "Fedya", "Gosha", "Katya", "Lena", "Misha", "Nina", "Oleg", "Petya"}

var (
	game13Mu sync.Mutex
	game13Tr *ledger.Transcript
)

// game13 is a random 13-seat game, made once per test binary.
func game13(tb testing.TB) *ledger.Transcript {
	tb.Helper()
	game13Mu.Lock()
	defer game13Mu.Unlock()
	if game13Tr == nil {
		game13Tr = randomGame(tb, "thirteen seats", names13, 0)
	}
	return game13Tr
}

// proofsIn counts the group proofs a transcript carries, from the entry
// bodies alone: swap proofs, shuffle proofs, plain and encrypted shares.
func proofsIn(t testing.TB, tr *ledger.Transcript) int {
	t.Helper()
	n := 0
	for _, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatal(err)
		}
		n += len(b.Swaps) + len(b.Shares) + len(b.EncShares)
		if b.Shuffle != nil {
			n++
		}
	}
	return n
}

// sameTable checks that two replays reached the same table.
func sameTable(t *testing.T, got, want *table.Table) {
	t.Helper()
	if got == nil || want == nil {
		t.Fatalf("tables %v and %v", got, want)
	}
	if got.StateHash() != want.StateHash() || got.Pos() != want.Pos() || got.Phase() != want.Phase() || got.Len() != want.Len() {
		t.Fatalf("replays differ: position %d, phase %v, %d entries vs position %d, phase %v, %d entries (or the state hashes differ)",
			got.Pos(), got.Phase(), got.Len(), want.Pos(), want.Phase(), want.Len())
	}
	for i := range got.Seats() {
		if !bytes.Equal(got.PublishedKey(i), want.PublishedKey(i)) {
			t.Fatalf("seat %d's published key differs", i)
		}
	}
}

// audited is a transcript to audit, the game it plays and every seat's
// signing key (to forge entries into it).
type audited struct {
	name  string
	tr    *ledger.Transcript
	game  table.Game
	signs []ed25519.PrivateKey
}

func harnessed(name string, h *tabletest.Harness) audited {
	a := audited{name: name, tr: h.Transcript(), game: h.Game}
	for _, s := range h.Seats {
		a.signs = append(a.signs, s.Sign)
	}
	return a
}

func thirteen(t *testing.T) audited {
	a := audited{name: "mascarade, 13 seats", tr: game13(t), game: mascarade.Game{}}
	for _, k := range tabletest.SeatKeys("thirteen seats", names13) {
		a.signs = append(a.signs, k.Sign)
	}
	return a
}

// hiddenGame plays a whole hidden-deal game of n seats: n shuffles, n
// peeks, the reveal of every card and the keys.
func hiddenGame(t *testing.T, seed string, n int) audited {
	h := hiddenTable(t, seed, n)
	h.Auto()
	for seat := range n {
		h.Move(seat, tabletest.HiddenPeek, nil)
	}
	h.Move(0, tabletest.HiddenReveal, nil)
	if h.View().Phase() != table.PhaseDone {
		t.Fatalf("hidden game ends in phase %v", h.View().Phase())
	}
	return harnessed("hidden deal", h)
}

// showOthers is the 2nd edition up to and past the Princess's request:
// encrypted shares.
func showOthers(t *testing.T) audited {
	h, _ := princessTable(t)
	h.Auto()
	return harnessed("mascarade2, show-others", h)
}

// The batched pass reaches the very table the strict replay does, with
// every proof of the game in one batch (or, with a small flush, in
// batches of at least that many proofs but the last); Replay returns it.
func TestReplayBatchedMatchesStrict(t *testing.T) {
	empty := harnessed("no entries", tabletest.NewManual(t, mascarade.Game{}, "empty", names4, table.Options{Game: gameOptions(t, 0)}))
	for _, a := range []audited{
		thirteen(t),
		harnessed("mascarade, 4 seats, coins and a reveal", fuzzGame(t)),
		hiddenGame(t, "batched", 5),
		showOthers(t),
		empty,
	} {
		t.Run(a.name, func(t *testing.T) {
			proofs := proofsIn(t, a.tr)
			if a.name != empty.name && proofs == 0 {
				t.Fatal("the game has no proofs")
			}
			strict, err := table.ReplayStrict(a.tr, a.game)
			if err != nil {
				t.Fatalf("strict replay: %v", err)
			}
			if strict.Len() != len(a.tr.Entries) {
				t.Fatalf("strict replay applied %d of %d entries", strict.Len(), len(a.tr.Entries))
			}
			got, err := table.Replay(a.tr, a.game)
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			sameTable(t, got, strict)
			for _, flush := range []int{table.BatchProofs, 16, 1} {
				bt, sizes, err := table.ReplayBatched(a.tr, a.game, flush)
				if err != nil {
					t.Fatalf("batched pass, flush %d: %v", flush, err)
				}
				sameTable(t, bt, strict)
				sum := 0
				for i, n := range sizes {
					sum += n
					if n < flush && i < len(sizes)-1 {
						t.Errorf("flush %d: batch %d of %d has %d proofs", flush, i, len(sizes), n)
					}
				}
				if sum != proofs {
					t.Fatalf("flush %d: %d proofs went into batches %v, the transcript has %d", flush, sum, sizes, proofs)
				}
				if flush == table.BatchProofs && proofs > 0 && len(sizes) != 1 {
					t.Fatalf("%d proofs in batches %v, want one batch", proofs, sizes)
				}
			}
		})
	}
}

// The table Replay returns checks every proof at once again, as a live
// table: a bad swap proof appended after the replay is refused.
func TestReplayReturnsAStrictTable(t *testing.T) {
	h := fixedTable(t, "replay-then-play", 0)
	prepared(h)
	rt, err := table.Replay(h.Transcript(), mascarade.Game{})
	if err != nil {
		t.Fatal(err)
	}
	honest := h.MoveBody(0, move(0, swapK, 0, 1), true)
	b := *honest
	b.Swaps = []table.SwapPayload{{Out0: honest.Swaps[0].Out1, Out1: honest.Swaps[0].Out0, Proof: honest.Swaps[0].Proof}}
	err = rt.Apply(h.Entry(0, bodyOf(h, &b)))
	var f *table.Fault
	if !errors.As(err, &f) || f.Reason != "bad-swap-proof" {
		t.Fatalf("the replayed table takes a bad swap proof: %v", err)
	}
	if err := rt.Apply(h.Entry(0, bodyOf(h, honest))); err != nil {
		t.Fatalf("the replayed table refuses the honest swap: %v", err)
	}
}

// forge replaces the body of the entry at index k of a's transcript with
// change's version of it, signed by its author, and re-chains and re-signs
// every later entry if rechain is set, so that only the proofs are wrong.
// a's transcript is not modified.
func forge(t *testing.T, a audited, k int, rechain bool, change func(b *table.Body)) *ledger.Transcript {
	t.Helper()
	id, err := a.tr.Roster.GameID()
	if err != nil {
		t.Fatal(err)
	}
	tr := *a.tr
	tr.Entries = slices.Clone(a.tr.Entries)
	b, err := table.UnmarshalBody(tr.Entries[k].Body, 1)
	if err != nil {
		t.Fatal(err)
	}
	change(b)
	enc, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	last := k
	if rechain {
		last = len(tr.Entries) - 1
	}
	for i := k; i <= last; i++ {
		e := *tr.Entries[i]
		if i == k {
			e.Body = enc
		}
		if i > 0 {
			e.Prev = tr.Entries[i-1].Hash()
		}
		e.Sign(id, a.signs[e.Seat])
		tr.Entries[i] = &e
	}
	return &tr
}

// bodies returns the decoded body of every entry of tr.
func bodies(t *testing.T, tr *ledger.Transcript) []*table.Body {
	t.Helper()
	var out []*table.Body
	for _, e := range tr.Entries {
		b, err := table.UnmarshalBody(e.Body, 1)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// nth returns the index of the n-th entry (from 0) whose body satisfies ok.
func nth(t *testing.T, bs []*table.Body, n int, ok func(i int, b *table.Body) bool) int {
	t.Helper()
	for i, b := range bs {
		if ok(i, b) {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatal("no such entry")
	return -1
}

// middle returns the index of the middle one of the entries whose body
// satisfies ok.
func middle(t *testing.T, bs []*table.Body, ok func(i int, b *table.Body) bool) int {
	t.Helper()
	var is []int
	for i, b := range bs {
		if ok(i, b) {
			is = append(is, i)
		}
	}
	if len(is) == 0 {
		t.Fatal("no such entry")
	}
	return is[len(is)/2]
}

func hasSwap(_ int, b *table.Body) bool   { return len(b.Swaps) > 0 }
func hasShares(_ int, b *table.Body) bool { return len(b.Shares) > 0 }

// owedFor returns, for every entry of a's transcript, the kind of request
// its shares are for (0 for entries that are not shares).
func owedFor(t *testing.T, a audited) []engine.EffectKind {
	t.Helper()
	tb, err := table.New(a.tr.Roster, a.game)
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.EffectKind
	for _, e := range a.tr.Entries {
		var k engine.EffectKind
		if r := tb.Pending(); r != nil {
			k = r.Kind
		}
		out = append(out, k)
		if err := tb.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// spliceProof returns share with the proof of other: the same points,
// a proof that does not verify for them.
func spliceProof(t *testing.T, share, other *mental.Share) *mental.Share {
	t.Helper()
	a, _ := share.MarshalBinary()
	o, _ := other.MarshalBinary()
	cut := 1 + 32*len(share.D)
	s, err := mental.UnmarshalShare(append(a[:cut:cut], o[cut:]...))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fragileGame is the hidden-deal test game with rules that panic when a
// reveal is not a permutation of the deck, as rules that trust the
// table's checks may: the batched pass feeds them whatever an unchecked
// share opens to.
type fragileGame struct{ tabletest.HiddenGame }

type fragileState struct{ *tabletest.HiddenState }

func (g fragileGame) New(options []byte, deal []engine.Card) (engine.State, error) {
	s, err := g.HiddenGame.New(options, deal)
	if err != nil {
		return nil, err
	}
	return fragileState{s.(*tabletest.HiddenState)}, nil
}

func (s fragileState) Apply(m engine.Move) (engine.State, []engine.Effect, error) {
	ns, effects, err := s.HiddenState.Apply(m)
	if err != nil {
		return nil, nil, err
	}
	return fragileState{ns.(*tabletest.HiddenState)}, effects, nil
}

func (s fragileState) Learn(facts []engine.Fact) (engine.State, []engine.Effect, error) {
	ns, effects, err := s.HiddenState.Learn(facts)
	if err != nil {
		return nil, nil, err
	}
	seen := map[engine.Card]bool{}
	for _, c := range ns.(*tabletest.HiddenState).Revealed {
		if seen[c] {
			panic(fmt.Sprintf("card %d revealed twice", c))
		}
		seen[c] = true
	}
	return fragileState{ns.(*tabletest.HiddenState)}, effects, nil
}

// A transcript with one bad proof: Replay returns exactly what the strict
// replay returns (the table before the bad entry, and the same Fault
// naming that entry and its author), whether the batched pass stopped on
// an entry (the log not re-chained after the forgery, or an unchecked
// share that opens to garbage) or only its batch failed.
func TestReplayBadProof(t *testing.T) {
	big := thirteen(t)
	bigBodies := bodies(t, big.tr)
	hidden := hiddenGame(t, "batched-bad", 4)
	hiddenBodies := bodies(t, hidden.tr)
	princess := showOthers(t)
	princessBodies := bodies(t, princess.tr)

	// The cards the hidden game revealed, and the entry of seat 0's
	// shares of the reveal (the first shares of four slots).
	honest, err := table.ReplayStrict(hidden.tr, hidden.game)
	if err != nil {
		t.Fatal(err)
	}
	revealed := honest.Rules().(*tabletest.HiddenState).Revealed
	reveal := nth(t, hiddenBodies, 0, func(_ int, b *table.Body) bool { return len(b.Shares) == 4 })

	swapAt := middle(t, bigBodies, hasSwap)
	sharesAt := middle(t, bigBodies, hasShares)
	owed := owedFor(t, big)
	peekAt := middle(t, bigBodies, func(i int, _ *table.Body) bool { return owed[i] == engine.EffectPeek })
	revealAt := middle(t, bigBodies, func(i int, _ *table.Body) bool { return owed[i] == engine.EffectReveal })
	otherSwap := bigBodies[nth(t, bigBodies, 3, hasSwap)].Swaps[0]
	otherShare := bigBodies[nth(t, bigBodies, 5, hasShares)].Shares[0]
	encAt := nth(t, princessBodies, 1, func(_ int, b *table.Body) bool { return len(b.EncShares) > 1 })

	cases := []struct {
		name    string
		a       audited
		game    table.Game // the auditor's game, if not a's
		k       int        // the forged entry
		rechain bool
		reason  string
		// via is how the batched pass fails: "batch" (every entry
		// applies, only the batch fails), "entry" (an entry is refused),
		// "panic" (the rules panic), or "" (the game decides).
		via    string
		change func(b *table.Body)
	}{
		{name: "swap proof of another swap", a: big, k: swapAt, rechain: true, reason: "bad-swap-proof", via: "batch",
			change: func(b *table.Body) { b.Swaps[0].Proof = otherSwap.Proof }},
		{name: "swap proof of another swap, log not re-chained", a: big, k: swapAt, reason: "bad-swap-proof", via: "entry",
			change: func(b *table.Body) { b.Swaps[0].Proof = otherSwap.Proof }},
		// The cards exchanged: an entry fails if a later reveal opens
		// them with the shares of the other card, else the batch.
		{name: "swap outputs exchanged", a: big, k: swapAt, rechain: true, reason: "bad-swap-proof",
			change: func(b *table.Body) { b.Swaps[0].Out0, b.Swaps[0].Out1 = b.Swaps[0].Out1, b.Swaps[0].Out0 }},
		{name: "share with another share's proof", a: big, k: sharesAt, rechain: true, reason: "bad-share", via: "batch",
			change: func(b *table.Body) { b.Shares[0] = spliceProof(t, b.Shares[0], otherShare) }},
		// A peek's share is not opened by the table: only the batch
		// can tell. A reveal's opens to no card at all.
		{name: "peek share of a random point", a: big, k: peekAt, rechain: true, reason: "bad-share", via: "batch",
			change: func(b *table.Body) { b.EncShares[0].E2[0] = randomElement() }},
		{name: "reveal share of a random point", a: big, k: revealAt, rechain: true, reason: "bad-share", via: "entry",
			change: func(b *table.Body) { b.Shares[0].D[0] = randomElement() }},
		{name: "shuffle with another seat's proof", a: hidden, k: 2, rechain: true, reason: "bad-shuffle", via: "batch",
			change: func(b *table.Body) { b.Shuffle = hiddenBodies[1].Shuffle }},
		{name: "shuffle with another seat's proof, log not re-chained", a: hidden, k: 2, reason: "bad-shuffle", via: "entry",
			change: func(b *table.Body) { b.Shuffle = hiddenBodies[1].Shuffle }},
		// The last shuffle's first two cards exchanged: the reveal opens
		// them with the shares of the other card.
		{name: "shuffle of another deck", a: hidden, k: 3, rechain: true, reason: "bad-shuffle", via: "entry",
			change: func(b *table.Body) { b.Deck[0], b.Deck[1] = b.Deck[1], b.Deck[0] }},
		{name: "encrypted shares to each other's recipients", a: princess, k: encAt, rechain: true, reason: "bad-share", via: "batch",
			change: func(b *table.Body) { b.EncShares[0], b.EncShares[1] = b.EncShares[1], b.EncShares[0] }},
		// A share that opens slot 0 to slot 1's card: the batched pass
		// goes on with a wrong reveal (and a different state) until its
		// batch fails.
		{name: "share that opens to another card", a: hidden, k: reveal, rechain: true, reason: "bad-share", via: "batch",
			change: func(b *table.Body) { b.Shares[0].D[0] = shift(b.Shares[0].D[0], revealed[0], revealed[1]) }},
		// ... and rules that panic on it.
		{name: "share that opens to another card, fragile rules", a: hidden, game: fragileGame{}, k: reveal, rechain: true, reason: "bad-share", via: "panic",
			change: func(b *table.Body) { b.Shares[0].D[0] = shift(b.Shares[0].D[0], revealed[0], revealed[1]) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			game := c.game
			if game == nil {
				game = c.a.game
			}
			tr := forge(t, c.a, c.k, c.rechain, c.change)
			bad := tr.Entries[c.k]
			strict, serr := table.ReplayStrict(tr, game)
			var want *table.Fault
			if !errors.As(serr, &want) {
				t.Fatalf("strict replay: want a *table.Fault, got %v", serr)
			}
			if want.Pos != bad.Pos || want.Seat != int(bad.Seat) || want.Reason != c.reason {
				t.Fatalf("strict replay: %v; want entry %d by seat %d: %s", want, bad.Pos, bad.Seat, c.reason)
			}
			if !strings.HasPrefix(want.Error(), fmt.Sprintf("entry %d by seat %d: %s: ", bad.Pos, bad.Seat, c.reason)) {
				t.Fatalf("the fault does not name the entry: %v", want)
			}

			// The batched pass alone fails; when only its batch can
			// tell, it names the forged entry.
			_, _, berr := table.ReplayBatched(tr, game, table.BatchProofs)
			if berr == nil {
				t.Fatal("the batched pass accepts the transcript")
			}
			var be *mental.BatchError
			var bf *table.Fault
			switch {
			case c.via == "batch" && (!errors.As(berr, &be) || !strings.Contains(berr.Error(), fmt.Sprintf("entry %d: ", bad.Pos))):
				t.Fatalf("batched pass: %v; want its batch to fail on entry %d", berr, bad.Pos)
			case c.via == "entry" && !errors.As(berr, &bf):
				t.Fatalf("batched pass: %v; want an entry refused", berr)
			case c.via == "panic" && !strings.Contains(berr.Error(), "panic: card"):
				t.Fatalf("batched pass: %v; want the rules' panic", berr)
			}

			rt, err := table.Replay(tr, game)
			var f *table.Fault
			if !errors.As(err, &f) {
				t.Fatalf("replay: want a *table.Fault, got %v", err)
			}
			if !tabletest.SameFault(f, want) {
				t.Fatalf("replay stops on %v, the strict replay on %v", f, want)
			}
			sameTable(t, rt, strict)
			if rt.Len() != c.k {
				t.Fatalf("replay applied %d entries, want the %d before the forged one", rt.Len(), c.k)
			}
		})
	}
}

// shift returns D moved so that a share opening card from to opens to.
func shift(d *mental.Element, from, to engine.Card) *mental.Element {
	out := mental.Base().Add(d, mental.CardPoint(int(from)))
	return out.Subtract(out, mental.CardPoint(int(to)))
}

// BenchmarkReplay audits a random 13-seat game of Mascarade (several
// hundred entries and proofs) checking every proof at once (strict, as a
// live table) or in one batch (deferred, Replay's first pass).
func BenchmarkReplay(b *testing.B) {
	tr := game13(b)
	proofs := proofsIn(b, tr)
	for _, mode := range []struct {
		name   string
		replay func() (*table.Table, error)
	}{
		{"strict", func() (*table.Table, error) { return table.ReplayStrict(tr, mascarade.Game{}) }},
		{"deferred", func() (*table.Table, error) { return table.Replay(tr, mascarade.Game{}) }},
	} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := mode.replay(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(tr.Entries)), "entries")
			b.ReportMetric(float64(proofs), "proofs")
		})
	}
}

// BenchmarkGameProofs checks the group proofs of a 13-player game's
// transcript (swaps and shares, as Replay collects them) one by one and as
// one batch; both report the time per proof.
func BenchmarkGameProofs(b *testing.B) {
	tr := game13(b)
	proofs, err := table.GameProofs(tr, mascarade.Game{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for _, add := range proofs {
				var bt mental.Batch
				add(&bt)
				if err := bt.Verify(); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(proofs))/1e3, "µs/proof")
	})
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			var bt mental.Batch
			for _, add := range proofs {
				add(&bt)
			}
			if err := bt.Verify(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(proofs))/1e3, "µs/proof")
	})
}
