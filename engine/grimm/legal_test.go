package grimm_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/grimm/grimmtest"
)

// candidates enumerates moves of every kind with small arguments, more
// than the rules allow (commitments, whose words are free, are left out).
func candidates(s *grimm.State, p engine.Seat) []engine.Move {
	var out []engine.Move
	add := func(kind uint8, args ...int) {
		out = append(out, engine.Move{Seat: p, Kind: kind, Args: slices.Clone(args)})
	}
	n := s.Players()
	seats := []int{-1}
	for q := range n {
		seats = append(seats, q)
	}
	var items, chars []int
	for _, it := range grimm.Items() {
		items = append(items, int(it))
	}
	for _, c := range grimm.Characters() {
		chars = append(chars, int(c))
	}
	add(grimm.KindKeep)
	add(grimm.KindEnd)
	add(grimm.KindDraw)
	add(grimm.KindBet)
	for sl := 0; sl < 64; sl++ {
		add(grimm.KindUnmask, sl)
		add(grimm.KindWin, sl)
		add(grimm.KindBet, sl)
	}
	for _, it := range items {
		add(grimm.KindPick, it)
	}
	for _, c := range chars {
		add(grimm.KindHint, c)
		add(grimm.KindChoose, c)
	}
	for _, a := range seats {
		add(grimm.KindGive, a)
		for _, b := range seats {
			add(grimm.KindGive, a, b)
		}
		for _, sl := range s.Hand(p) {
			add(grimm.KindGive, a, int(sl))
		}
	}
	for a := grimm.MaskOff; a <= grimm.LearnSecret; a++ {
		for _, it := range items {
			for j := range 2 {
				base := []int{int(a), it, j}
				add(grimm.KindAct, base...)
				for _, t := range seats {
					add(grimm.KindAct, append(base, t)...)
					for _, u := range seats {
						add(grimm.KindAct, append(base, t, u)...)
					}
					for _, c := range append(chars, items...) {
						add(grimm.KindAct, append(base, t, c)...)
					}
				}
			}
		}
	}
	return out
}

// Every move the rules accept is listed by LegalMoves (for a seat that
// knows nothing of its own card, which lists every statement), and every
// listed move is accepted.
func TestLegalMovesComplete(t *testing.T) {
	checked, every := 0, 9
	if testing.Short() {
		every = 29
	}
	for _, players := range []int{2, 3, 5} {
		for seed := range uint64(3) {
			opts := grimm.Options{Players: names[:players], Jewels: true, Abilities: seed == 1, Bets: players > 2 && seed == 2}
			tab, err := grimmtest.New(opts, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(seed, 5))
			for step := 0; !tab.State.Over() && step < 400; step++ {
				s := tab.State
				p := s.Next().Seat
				if step%every == 0 {
					checked++
					legal, tried := map[string]bool{}, map[string]bool{}
					for _, m := range s.LegalMoves(p, nil) {
						legal[fmt.Sprint(m)] = true
					}
					for _, m := range candidates(s, p) {
						_, _, err := s.Play(m)
						listed := legal[fmt.Sprint(m)]
						if (err == nil) != listed {
							if m.Kind == grimm.KindHint && s.Step() == "respond" && err != nil {
								continue // an opened commitment needs its nonce
							}
							t.Fatalf("%d players seed %d step %q: %+v accepted=%v (%v) listed=%v\n%v\n%v", players, seed, s.Step(), m, err == nil, err, listed, s, s.LegalMoves(p, nil))
						}
						tried[fmt.Sprint(m)] = true
					}
					for m := range legal {
						if !tried[m] && s.Step() != "commit" && s.Step() != "respond" {
							t.Fatalf("listed but never tried: %s (step %s)", m, s.Step())
						}
					}
				}
				ms := s.LegalMoves(p, tab.Known(p))
				if err := tab.Play(ms[r.IntN(len(ms))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d states checked", checked)
	}
}
