package mafiatest

import (
	"errors"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mafia"
)

func seat6(t *testing.T) *Table {
	t.Helper()
	o := mafia.Options{Players: []string{"A", "B", "C", "D", "E", "F"}, NoIncidents: true,
		Fixed: &mafia.Fixed{Roles: []engine.Card{mafia.Mafioso, mafia.Mafioso, mafia.Commissar, mafia.Civilian, mafia.Civilian, mafia.Civilian}}}
	tab, err := New(o, 1)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestCheckAnswersTheCheckerAlone(t *testing.T) {
	tab := seat6(t)
	for p := range engine.Seat(6) {
		if err := tab.Play(engine.Move{Seat: p, Kind: mafia.MoveHold, Args: []int{0}}); err != nil {
			t.Fatal(err)
		}
	}
	needs := tab.Needs()
	if len(needs) != 2 || needs[0].Seat != 0 || needs[1].Seat != 1 || needs[0].Power != mafia.PowerKill {
		t.Fatalf("needs %+v: want both mafiosi's kill", needs)
	}
	for _, p := range []engine.Seat{0, 1} {
		if err := tab.Choose(p, mafia.PowerKill, 4); err != nil {
			t.Fatal(err)
		}
	}
	if err := tab.Choose(2, mafia.PowerCheck, 1); err != nil {
		t.Fatal(err)
	}
	if tab.Waiting() {
		t.Fatal("still waiting")
	}
	for p := range engine.Seat(6) {
		k := tab.Knowledge(p)
		if p == 2 {
			if m, ok := k.Checks[1]; !ok || !m {
				t.Fatalf("the Commissar learnt %v", k.Checks)
			}
		} else if len(k.Checks) != 0 {
			t.Fatalf("seat %d learnt a check", p)
		}
	}
	if k := tab.Knowledge(0); len(k.Mates) != 1 || k.Mates[0] != 1 || !k.Mafia {
		t.Fatalf("mafioso's knowledge %+v", k)
	}
	if k := tab.Knowledge(3); len(k.Mates) != 0 || k.Mafia || k.Role != mafia.Civilian {
		t.Fatalf("civilian's knowledge %+v", k)
	}
	// A choice for a power the seat does not hold is refused.
	if err := tab.Choose(3, mafia.PowerSave, 0); err == nil {
		t.Fatal("a choice with no night due")
	}
}

func TestRetiredSeatsAct(t *testing.T) {
	tab := seat6(t)
	tab.Retired[3] = true
	err := tab.carry([]engine.Effect{{Kind: engine.EffectBallot, Power: mafia.PowerKill, Seats: []engine.Seat{0, 1, 3}, Targets: []engine.Seat{0, 1, 3}}})
	if err == nil || !strings.Contains(err.Error(), "retired seat 3") {
		t.Fatalf("err = %v", err)
	}
	err = tab.checkProof(engine.Effect{Kind: engine.EffectProve, By: 3, Slots: []engine.Slot{3}, Cards: []engine.Card{mafia.Civilian}})
	var pe *ProofError
	if !errors.As(err, &pe) || pe.Seat != 3 {
		t.Fatalf("err = %v", err)
	}
}
