package mafia_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mafia/bot"
	"github.com/masque-games/masque/engine/mafia/mafiatest"
)

func names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("P%d", i)
	}
	return out
}

// invariants checks what must hold after every step of a fake table.
func invariants(t *mafiatest.Table, deck []engine.Card) error {
	s := t.State
	n := s.Players()
	var roles []engine.Card
	for p := range engine.Seat(n) {
		roles = append(roles, t.RoleOf(p))
		if r, ok := s.Revealed(p); ok && r != t.RoleOf(p) {
			return fmt.Errorf("seat %d revealed %s, holds %s", p, mafia.CardName(r), mafia.CardName(t.RoleOf(p)))
		}
		if !s.Alive(p) && !t.Retired[p] {
			return fmt.Errorf("dead seat %d never retired", p)
		}
		if len(s.Hand(p)) > mafia.HandLimit {
			return fmt.Errorf("seat %d holds %d incident cards", p, len(s.Hand(p)))
		}
		if !s.Alive(p) && len(s.Hand(p)) > 0 {
			return fmt.Errorf("dead seat %d still holds cards", p)
		}
		for _, sl := range s.Hand(p) {
			if c, ok := t.Know[p].Hand[sl]; !ok || c != t.Truth[sl] {
				return fmt.Errorf("seat %d does not know its card in slot %d", p, sl)
			}
		}
	}
	slices.Sort(roles)
	if !slices.Equal(roles, deck) {
		return fmt.Errorf("roles not conserved: %v", roles)
	}
	if s.Incidents() {
		slots := s.Pile()
		for p := range engine.Seat(n) {
			slots = append(slots, s.Hand(p)...)
		}
		slices.Sort(slots)
		var cards []engine.Card
		for i, sl := range slots {
			if sl != engine.Slot(n+i) {
				return fmt.Errorf("incident slots not conserved: %v", slots)
			}
			cards = append(cards, t.Truth[sl])
		}
		slices.Sort(cards)
		if !slices.Equal(cards, mafia.CanonicalIncidents()) {
			return fmt.Errorf("incident cards not conserved: %v", cards)
		}
	}
	// The end: exactly when the rules say, by the true roles.
	mafiaAlive, civAlive := 0, 0
	for _, p := range s.Living() {
		if mafia.IsMafia(t.RoleOf(p)) {
			mafiaAlive++
		} else {
			civAlive++
		}
	}
	if mafiaAlive != s.MafiaAlive() || civAlive != s.CiviliansAlive() {
		return fmt.Errorf("public counts %d/%d, true %d/%d", s.MafiaAlive(), s.CiviliansAlive(), mafiaAlive, civAlive)
	}
	// The end is checked once the night is resolved: the Night
	// Butterfly's date still answers after her death.
	if s.Next().Kind == engine.NeedMove && s.Phase() != mafia.PhaseDateAnswer && (mafiaAlive == 0 || civAlive <= 1) {
		return fmt.Errorf("the game goes on with %d mafia and %d civilians alive", mafiaAlive, civAlive)
	}
	if s.Over() {
		switch s.Result() {
		case mafia.SideCivilians:
			if mafiaAlive != 0 {
				return fmt.Errorf("civilians win with %d mafia alive", mafiaAlive)
			}
		case mafia.SideMafia:
			if civAlive > 1 || mafiaAlive == 0 {
				return fmt.Errorf("mafia win with %d civilians and %d mafia alive", civAlive, mafiaAlive)
			}
		}
	}
	return nil
}

// playout plays a whole seeded game with bots (and, with leaves, the
// odd player leaving) and checks the invariants after every step.
func playout(o mafia.Options, seed uint64, leaves bool) (*mafiatest.Table, error) {
	tab, err := mafiatest.New(o, seed)
	if err != nil {
		return nil, err
	}
	deck := tab.State.RoleDeck()
	var players []mafiatest.Player
	for p := range engine.Seat(tab.State.Players()) {
		players = append(players, bot.New(p, seed))
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for step := 0; ; step++ {
		if step > 5000 {
			return tab, fmt.Errorf("no end after %d steps (day %d)", step, tab.State.Day())
		}
		if err := invariants(tab, deck); err != nil {
			return tab, fmt.Errorf("step %d: %w", step, err)
		}
		if leaves && !tab.Waiting() && tab.State.Next().Kind == engine.NeedMove && rng.IntN(60) == 0 {
			living := tab.State.Living()
			p := living[rng.IntN(len(living))]
			if err := tab.Play(engine.Move{Seat: p, Kind: mafia.MoveLeave}); err != nil {
				return tab, fmt.Errorf("step %d: leave: %w", step, err)
			}
			continue
		}
		more, err := tab.Step(players)
		if err != nil {
			return tab, fmt.Errorf("step %d: %w", step, err)
		}
		if !more {
			break
		}
	}
	if !tab.State.Over() {
		return tab, fmt.Errorf("stopped before the end")
	}
	return tab, invariants(tab, deck)
}

func TestPlayouts(t *testing.T) {
	sides := map[mafia.Side]int{}
	for n := mafia.MinPlayers; n <= mafia.MaxPlayers; n++ {
		for seed := range uint64(12) {
			o := mafia.Options{Players: names(n)}
			switch seed % 4 {
			case 1:
				o.NoIncidents = true
			case 2:
				o.TieDraw = true
			}
			tab, err := playout(o, seed+uint64(100*n), seed%3 == 0)
			if err != nil {
				t.Fatalf("%d players, seed %d: %v\nmoves: %v", n, seed, err, tab.Moves)
			}
			sides[tab.State.Result()]++
		}
	}
	if sides[mafia.SideMafia] == 0 || sides[mafia.SideCivilians] == 0 {
		t.Fatalf("results %v: both sides should win sometimes", sides)
	}
	t.Logf("results: %v", sides)
}

func newBot(p engine.Seat, seed uint64) mafiatest.Player { return bot.New(p, seed) }
