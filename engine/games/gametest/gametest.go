// Package gametest is the contract suite every registered game passes
// (engine/games/registry runs it on each): setup at every player count,
// seeded playouts through the real stack with their invariants, and
// malformed and mutated bodies offered at the real positions of those
// playouts. A game's own tests keep what only it knows (its invariants,
// its rule books' examples); what every game must do is checked here,
// once.
package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/local"
	"github.com/masque-games/masque/engine/table"
)

// Config sets how much of the suite runs.
type Config struct {
	// Playouts are the player counts of the seeded bot games played
	// through the real stack (nil: the game's smallest count).
	Playouts []int
	// Seed is the first playout's seed (its bots' choices; the cards stay
	// cryptographically random).
	Seed uint64
	// MaxSteps bounds a playout: a game that has not ended after this
	// many moves and night actions fails (0: 5000).
	MaxSteps int
	// Positions is how many positions of each playout get mutated bodies
	// (0: 24), Mutations how many bodies each (0: 6).
	Positions, Mutations int
}

// Names are the player names the suite seats, in order.
var Names = []string{"Anna", "Boris", "Clara", "Dima", "Egor", "Fedor", "Galya", "Igor", "Katya",
	"Lena", "Misha", "Nina", "Oleg", "Petya", "Roma", "Sveta", "Tolya", "Ulya", "Vera", "Yura"}

// Run runs the whole suite on g as subtests.
func Run(t *testing.T, g games.Game, cfg Config) {
	t.Run("setup", func(t *testing.T) { Setup(t, g) })
	counts := cfg.Playouts
	if counts == nil {
		lo, _ := g.Players()
		counts = []int{lo}
	}
	for i, n := range counts {
		t.Run(fmt.Sprintf("playout-%d", n), func(t *testing.T) {
			tr := Playout(t, g, n, cfg.Seed+uint64(i), cfg.MaxSteps)
			Bodies(t, g, tr, cfg.Seed+uint64(i), cfg.Positions, cfg.Mutations)
		})
	}
}

// Setup checks what a game promises before anyone plays, at every player
// count it takes: its names and description, its default setup (the
// options give the seated names back, fix no deal, and deal a state the
// game summarizes as not over with a score per player), each built-in
// setup choice at some count, and its card names.
func Setup(t testing.TB, g games.Game) {
	if g.Name() == "" || g.Title() == "" || g.Table().Name() != g.Name() {
		t.Fatalf("name %q, title %q, table name %q", g.Name(), g.Title(), g.Table().Name())
	}
	if ab := games.AboutOf(g); strings.TrimSpace(ab.Summary) == "" || strings.TrimSpace(ab.Hides) == "" {
		t.Errorf("%s does not describe itself (games.About: %+v)", g.Name(), ab)
	}
	lo, hi := g.Players()
	if lo < 2 || hi < lo || hi > len(Names) {
		t.Fatalf("players %d..%d (the suite seats 2..%d)", lo, hi, len(Names))
	}
	for _, n := range []int{lo - 1, hi + 1} {
		if _, err := g.Configure(n, "", nil); err == nil {
			if _, err := setupState(g, n, ""); err == nil {
				t.Errorf("%d players: a table the game says it does not take was dealt", n)
			}
		}
	}
	choices := map[string]bool{}
	for n := lo; n <= hi; n++ {
		s, err := setupState(g, n, "")
		if err != nil {
			t.Fatalf("%d players, default setup: %v", n, err)
		}
		sum, ok := g.Summarize(s)
		if !ok || sum.Over || len(sum.Scores) != n {
			t.Fatalf("%d players: the dealt state's summary %+v (ok %v): want not over, %d scores", n, sum, ok, n)
		}
		for i, sc := range sum.Scores {
			if sc.Name != Names[i] {
				t.Fatalf("%d players: score %d is %q's, want %q's", n, i, sc.Name, Names[i])
			}
		}
		for _, c := range g.SetupHelp().Choices {
			if !choices[c] {
				if _, err := setupState(g, n, c); err == nil {
					choices[c] = true
				}
			}
		}
	}
	for _, c := range g.SetupHelp().Choices {
		if !choices[c] {
			t.Errorf("--scenario %q sets up no table at any player count %d..%d", c, lo, hi)
		}
	}
	if _, ok := g.Summarize(nil); ok {
		t.Error("a nil state is summarized")
	}
	if _, err := g.NewBot(nil, 0, 1); err == nil {
		t.Error("a bot for a nil state")
	}
	if _, err := g.PlayerNames([]byte{0xff, 0xff, 0xff}); err == nil {
		t.Error("garbage options give player names")
	}
	for c := range engine.Card(g.Table().Kinds()) {
		if g.CardName(c) == "" {
			t.Errorf("card %d has no name", c)
		}
	}
}

// setupState configures g for n players with choice, checks its options
// and deals the rules' initial state (no cryptography).
func setupState(g games.Game, n int, choice string) (engine.State, error) {
	setup, err := g.Configure(n, choice, nil)
	if err != nil {
		return nil, err
	}
	names := Names[:n]
	enc, err := setup.Options(names)
	if err != nil {
		return nil, err
	}
	back, err := g.PlayerNames(enc)
	if err != nil || !slices.Equal(back, names) {
		return nil, fmt.Errorf("the options give the names %v (%v), want %v", back, err, names)
	}
	if how := games.DealFixed(g, &table.Options{Game: enc}); how != "" {
		return nil, fmt.Errorf("the setup fixes the deal: %s", how)
	}
	deck, err := g.Table().Deck(enc)
	if err != nil {
		return nil, fmt.Errorf("deck: %w", err)
	}
	// A game dealt face down, or that opens with its own effects, starts
	// without knowing the deal: the table gives New a nil deal
	// (table.HiddenDealer, table.Opener), as here.
	if hd, ok := g.Table().(table.HiddenDealer); ok && hd.HiddenDeal() {
		deck = nil
	}
	if op, ok := g.Table().(table.Opener); ok && op.Opens() {
		deck = nil
	}
	s, err := g.Table().New(enc, deck)
	if err != nil {
		return nil, fmt.Errorf("new state: %w", err)
	}
	return s, nil
}

// Playout plays one game of n bots (seeded) on the game's default setup
// through the real stack (engine/local: every seat its own keys and
// replica, every entry signed, proven, encoded and checked by every
// seat) and returns its transcript. After every step: every seat's
// replica is at the same position with the same state hash, the rules'
// state encodes, the summary never goes from over back to not over, and
// the table waits for a body a seat can post (a move or night actions).
// At the end: the game is over in its summary, with a score per player,
// and the transcript replays (table.Replay) to the same state hash.
func Playout(t testing.TB, g games.Game, n int, seed uint64, maxSteps int) *ledger.Transcript {
	t.Helper()
	if maxSteps <= 0 {
		maxSteps = 5000
	}
	setup, err := g.Configure(n, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	names := Names[:n]
	enc, err := setup.Options(names)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := local.New(g.Table(), names, table.Options{Game: enc, PublishKeys: true})
	if err != nil {
		t.Fatalf("%d players: %v", n, err)
	}
	rnd := rand.New(rand.NewPCG(seed, 0x6761_6d65))
	bots := make([]games.Bot, n)
	for i := range bots {
		if bots[i], err = g.NewBot(lt.View().Rules(), engine.Seat(i), rnd.Uint64()); err != nil {
			t.Fatalf("seat %d's bot: %v", i, err)
		}
	}
	over := false
	for step := 0; ; step++ {
		checkReplicas(t, g, lt, step)
		sum, ok := g.Summarize(lt.View().Rules())
		if !ok {
			t.Fatalf("step %d: the rules' state is not summarized", step)
		}
		if over && !sum.Over {
			t.Fatalf("step %d: the summary says the game is no longer over", step)
		}
		over = sum.Over
		seat, kind, waits := lt.View().Expect()
		if !waits {
			break
		}
		if step >= maxSteps {
			t.Fatalf("the game did not end in %d steps (%s)", maxSteps, sum.Head)
		}
		me := lt.Seats[seat]
		rules := lt.View().Rules()
		if nb, is := bots[seat].(games.NightBot); is {
			nb.See(me.Player, me.Replica)
		}
		switch kind {
		case table.BodyMove:
			var (
				m    engine.Move
				bits []bool
				ok   bool
			)
			if kb, is := bots[seat].(games.KnowingBot); is {
				m, bits, ok = kb.ChooseKnowing(rules, me.Player.Known(me.Replica))
			} else {
				m, bits, ok = bots[seat].Choose(rules)
			}
			if !ok {
				t.Fatalf("step %d: the table waits for %s's move and the bot has none", step, me.Name)
			}
			m.Seat = seat
			if g.FormatMove(rules, m) == "" {
				t.Fatalf("step %d: %s's move %+v has no text", step, me.Name, m)
			}
			if err := lt.Move(seat, m, bits); err != nil {
				t.Fatalf("step %d: %s's move %s: %v", step, me.Name, g.FormatMove(rules, m), err)
			}
		case table.BodyActions:
			choices := map[uint8]engine.Seat{}
			if ds := me.Player.Decisions(me.Replica); len(ds) > 0 {
				nb, is := bots[seat].(games.NightBot)
				if !is {
					t.Fatalf("step %d: %s must choose at night and the bot is no games.NightBot", step, me.Name)
				}
				for _, d := range ds {
					choices[d.Power] = nb.Decide(rules, d)
				}
			}
			if err := lt.Actions(seat, choices); err != nil {
				t.Fatalf("step %d: %s's night actions: %v", step, me.Name, err)
			}
		default:
			t.Fatalf("step %d: the table waits for %s's %s entry, which no seat posts by itself", step, me.Name, kind)
		}
	}
	sum, _ := g.Summarize(lt.View().Rules())
	if !sum.Over || len(sum.Scores) != n {
		t.Fatalf("the log is closed and the summary is %+v: want over, %d scores", sum, n)
	}
	tr := lt.Transcript()
	rep, err := table.Replay(tr, g.Table())
	if err != nil {
		t.Fatalf("the transcript does not replay: %v", err)
	}
	if rep.StateHash() != lt.View().StateHash() || rep.Pos() != lt.View().Pos() {
		t.Fatalf("the transcript replays to position %d, hash %x; the table is at %d, %x", rep.Pos(), rep.StateHash(), lt.View().Pos(), lt.View().StateHash())
	}
	return tr
}

// checkReplicas checks that every seat's replica agrees with seat 0's and
// that the rules' state encodes.
func checkReplicas(t testing.TB, g games.Game, lt *local.Table, step int) {
	t.Helper()
	v := lt.View()
	for _, s := range lt.Seats[1:] {
		if s.Replica.Pos() != v.Pos() || s.Replica.StateHash() != v.StateHash() {
			t.Fatalf("step %d: %s's replica is at %d (%x), %s's at %d (%x)", step, s.Name, s.Replica.Pos(), s.Replica.StateHash(), lt.Seats[0].Name, v.Pos(), v.StateHash())
		}
	}
	if rs := v.Rules(); rs != nil {
		if _, err := rs.AppendBinary(nil); err != nil {
			t.Fatalf("step %d: the rules' state does not encode: %v", step, err)
		}
	}
}

// snapshot is everything a refused entry must leave as it was.
type snapshot struct {
	pos            uint64
	hash, last     ledger.Hash
	log, completed int
	phase          table.Phase
	pending, rules string
}

// encCache matches a ciphertext's cached encoding as %+v prints it
// (mental.Ciphertext.enc, filled when the card is first encoded, as
// checking a refused proof may do): a cache, not the table's state.
var encCache = regexp.MustCompile(`enc:(<nil>|0x[0-9a-f]+)`)

func snapshotOf(tb testing.TB, t *table.Table) snapshot {
	s := snapshot{pos: t.Pos(), hash: t.StateHash(), log: t.Len(), completed: len(t.CompletedAll()), phase: t.Phase()}
	if r := t.Pending(); r != nil {
		s.pending = encCache.ReplaceAllString(fmt.Sprintf("%+v", *r), "")
	}
	if rs := t.Rules(); rs != nil {
		enc, err := rs.AppendBinary(nil)
		if err != nil {
			tb.Fatalf("rules do not encode: %v", err)
		}
		s.rules = string(enc)
	}
	if e := t.Last(); e != nil {
		s.last = e.Hash()
	}
	return s
}

// Bodies offers mutated bodies at positions of a real game's transcript
// tr (every position of each kind of body first, then others at random;
// seeded), as the entry of the seat due, through ApplyVerified (the path
// a network room takes once it has checked the entry's signature). Each
// body is the honest one with bits flipped, cut short, extended, made of
// random bytes, or the next entry's body one step early. A body never
// panics the table; a refusal is a *table.Fault naming the author and
// the position with a known reason, and leaves the table as it was; the
// honest entry is then still accepted. A mutated body the table accepts
// (another legal move, say) is fine: the table is rebuilt and the honest
// entry applied.
func Bodies(t testing.TB, g games.Game, tr *ledger.Transcript, seed uint64, positions, mutations int) {
	if positions <= 0 {
		positions = 24
	}
	if mutations <= 0 {
		mutations = 6
	}
	rnd := rand.New(rand.NewPCG(seed, 0x626f_6479))
	// The positions: the first of each body kind (its first two bytes),
	// then random ones, in order.
	pick := map[int]bool{}
	seen := map[[2]byte]bool{}
	for k, e := range tr.Entries {
		var kind [2]byte
		copy(kind[:], e.Body)
		if !seen[kind] {
			seen[kind], pick[k] = true, true
		}
	}
	for len(pick) < min(positions, len(tr.Entries)) {
		pick[rnd.IntN(len(tr.Entries))] = true
	}
	fresh := func(k int) *table.Table {
		run, err := table.New(tr.Roster, g.Table())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Entries[:k] {
			if err := run.ApplyVerified(e); err != nil {
				t.Fatalf("the honest entry at %d: %v", e.Pos, err)
			}
		}
		return run
	}
	run := fresh(0)
	offered, refused := 0, 0
	for k, honest := range tr.Entries {
		if pick[k] {
			for range mutations {
				body := mutate(rnd, honest.Body, tr.Entries, k)
				if slices.Equal(body, honest.Body) {
					continue
				}
				offered++
				before := snapshotOf(t, run)
				e := &ledger.Entry{Pos: honest.Pos, Seat: honest.Seat, Prev: honest.Prev, Body: body}
				err := run.ApplyVerified(e)
				if err == nil {
					run = fresh(k) // another valid entry: back to the honest game
					continue
				}
				refused++
				var fault *table.Fault
				if !errors.As(err, &fault) {
					t.Fatalf("position %d: body %x: not a *table.Fault: %v", k, body, err)
				}
				if fault.Seat != int(e.Seat) || fault.Pos != e.Pos {
					t.Fatalf("position %d: body %x: fault %v blames seat %d at %d, not the author %d", k, body, fault, fault.Seat, fault.Pos, e.Seat)
				}
				if !table.KnownReason(fault.Reason) {
					t.Fatalf("position %d: fault reason %q is not in table.Reasons()", k, fault.Reason)
				}
				if after := snapshotOf(t, run); after != before {
					t.Fatalf("position %d: the refused body %x (%v) changed the table:\n%+v\n->\n%+v", k, body, fault, before, after)
				}
			}
		}
		if err := run.ApplyVerified(honest); err != nil {
			t.Fatalf("position %d: the honest entry is refused after the mutated ones: %v", k, err)
		}
	}
	if offered > 0 && refused == 0 {
		t.Errorf("%d mutated bodies, none refused", offered)
	}
	t.Logf("%d mutated bodies at %d positions of %d, %d refused", offered, len(pick), len(tr.Entries), refused)
}

// mutate returns a variant of body: bits flipped, cut short, extended,
// random bytes, or the next entry's body.
func mutate(rnd *rand.Rand, body []byte, entries []*ledger.Entry, k int) []byte {
	b := slices.Clone(body)
	switch rnd.IntN(6) {
	case 0, 1: // flip one to three bits
		if len(b) == 0 {
			return []byte{byte(rnd.UintN(256))}
		}
		for range 1 + rnd.IntN(3) {
			b[rnd.IntN(len(b))] ^= 1 << rnd.UintN(8)
		}
	case 2: // cut short
		return b[:rnd.IntN(len(b)+1)]
	case 3: // extended
		return append(b, byte(rnd.UintN(256)))
	case 4: // random bytes of a similar length
		r := make([]byte, rnd.IntN(len(b)+8))
		for i := range r {
			r[i] = byte(rnd.UintN(256))
		}
		return r
	default: // the next entry's body, one step early
		if k+1 < len(entries) {
			return slices.Clone(entries[k+1].Body)
		}
		return b[:0]
	}
	return b
}
