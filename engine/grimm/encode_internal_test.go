package grimm

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/masque-games/masque/engine"
)

// fieldMutations changes each field of State, by name: one more element
// for a slice, the second element for an array, one more for a number.
// TestEncodingCoversEveryField fails if a field of State has no entry
// here (nor in its skip list), so a new field must be added to both the
// encoding and this table.
var fieldMutations = map[string]func(s *State){
	"opts":        func(s *State) { s.opts.Players = append(s.opts.Players, "x") },
	"round":       func(s *State) { s.round++ },
	"roses":       func(s *State) { s.roses[1]++ },
	"rewards":     func(s *State) { s.rewards[1]++ },
	"jewels":      func(s *State) { s.jewels[1] = !s.jewels[1] },
	"spent":       func(s *State) { s.spent = append(s.spent, 1) },
	"actions":     func(s *State) { s.actions[1]++ },
	"first":       func(s *State) { s.first++ },
	"turn":        func(s *State) { s.turn++ },
	"lastWin":     func(s *State) { s.lastWin++ },
	"winners":     func(s *State) { s.winners = append(s.winners, 1) },
	"results":     func(s *State) { s.results = append(s.results, RoundResult{Round: 1}) },
	"known":       func(s *State) { s.known[1]++ },
	"unmasked":    func(s *State) { s.unmasked[1] = !s.unmasked[1] },
	"broken":      func(s *State) { s.broken[1] = !s.broken[1] },
	"tokens":      func(s *State) { s.tokens[1]++ },
	"where":       func(s *State) { s.where[1]++ },
	"owner":       func(s *State) { s.owner[1]++ },
	"card":        func(s *State) { s.card[1]++ },
	"deck":        func(s *State) { s.deck = append(s.deck, 1) },
	"betHeld":     func(s *State) { s.betHeld[1]++ },
	"betKnown":    func(s *State) { s.betKnown[1]++ },
	"betTaken":    func(s *State) { s.betTaken[1] = !s.betTaken[1] },
	"phase":       func(s *State) { s.phase++ },
	"why":         func(s *State) { s.why++ },
	"cont":        func(s *State) { s.cont++ },
	"dec":         func(s *State) { s.dec++ },
	"waitSlots":   func(s *State) { s.waitSlots = append(s.waitSlots, 1) },
	"drawn":       func(s *State) { s.drawn = append(s.drawn, 1) },
	"drawNo":      func(s *State) { s.drawNo++ },
	"keptFirst":   func(s *State) { s.keptFirst = !s.keptFirst },
	"acted":       func(s *State) { s.acted = !s.acted },
	"actor":       func(s *State) { s.actor++ },
	"draftSeat":   func(s *State) { s.draftSeat++ },
	"draftLeft":   func(s *State) { s.draftLeft++ },
	"pending":     func(s *State) { s.pending = append(s.pending, response{Seat: 1}) },
	"act":         func(s *State) { s.act++ },
	"dir":         func(s *State) { s.dir++ },
	"gift":        func(s *State) { s.gift++ },
	"target":      func(s *State) { s.target++ },
	"passes":      func(s *State) { s.passes = append(s.passes, pass{Slot: 1}) },
	"eaves":       func(s *State) { s.eaves = append(s.eaves, engine.Seat(1)) },
	"commits":     func(s *State) { s.commits[1][1]++ },
	"commit":      func(s *State) { s.commit[1] = !s.commit[1] },
	"roundDone":   func(s *State) { s.roundDone = !s.roundDone },
	"roundWin":    func(s *State) { s.roundWin++ },
	"talismanWin": func(s *State) { s.talismanWin = !s.talismanWin },
	"betSeat":     func(s *State) { s.betSeat++ },
	"ability":     func(s *State) { s.ability[1]++ },
	"choosing":    func(s *State) { s.choosing = append(s.choosing, 1) },
	"hinted":      func(s *State) { s.hinted = !s.hinted },
	"beastDone":   func(s *State) { s.beastDone = !s.beastDone },
}

// Every field of State that a later move can depend on is in the
// encoding: changing any one of them changes the bytes.
func TestEncodingCoversEveryField(t *testing.T) {
	base, err := NewGame(Options{Players: []string{"A", "B", "C"}, Bets: true, Jewels: true, Abilities: true})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := base.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{
		"n":  true, // the number of players, encoded in the options
		"fx": true, // scratch, always empty between calls
	}
	typ := reflect.TypeOf(*base)
	fields := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		fields[f.Name] = true
		if skip[f.Name] {
			continue
		}
		mutate, ok := fieldMutations[f.Name]
		if !ok {
			t.Errorf("field %s (%s): no mutation in fieldMutations", f.Name, f.Type)
			continue
		}
		s := base.clone()
		mutate(s)
		got, err := s.AppendBinary(nil)
		if err != nil {
			t.Errorf("field %s: %v", f.Name, err)
			continue
		}
		if bytes.Equal(got, ref) {
			t.Errorf("field %s is not in the encoding", f.Name)
		}
	}
	for name := range fieldMutations {
		if !fields[name] {
			t.Errorf("fieldMutations names %s, which is not a field of State", name)
		}
	}
}
