package seatview

import (
	"slices"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
)

// Every screen plays a choice the same way: a hidden swap's answer is its
// secret bit and it is never played without one; a confirmation answered
// otherwise than yes plays nothing; a night choice stays a night choice.
func TestChoicePlay(t *testing.T) {
	mv := engine.Move{Kind: 1, Args: []int{2}}
	night := &Night{Power: 1, Target: 3}
	for _, tc := range []struct {
		name   string
		c      Choice
		answer string
		want   Play
		err    bool
	}{
		{"plain", Choice{Move: mv}, "", Play{Move: mv}, false},
		{"secret, yes", Choice{Move: mv, Secret: true}, Yes, Play{Move: mv, Bits: []bool{true}}, false},
		{"secret, no: pretended", Choice{Move: mv, Secret: true}, No, Play{Move: mv, Bits: []bool{false}}, false},
		{"secret, unanswered", Choice{Move: mv, Secret: true}, "", Play{}, true},
		{"confirmed", Choice{Move: mv, Confirm: "sure?"}, Yes, Play{Move: mv}, false},
		{"confirmation refused", Choice{Move: mv, Confirm: "sure?"}, No, Play{Skip: true}, false},
		{"confirmation unanswered", Choice{Move: mv, Confirm: "sure?"}, "", Play{Skip: true}, false},
		{"night", Choice{Night: night}, "", Play{Night: night}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.c.Play(tc.answer)
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want an error: %v", err, tc.err)
			}
			if got.Move.Kind != tc.want.Move.Kind || !slices.Equal(got.Move.Args, tc.want.Move.Args) ||
				!slices.Equal(got.Bits, tc.want.Bits) || got.Night != tc.want.Night || got.Skip != tc.want.Skip {
				t.Fatalf("play %+v, want %+v", got, tc.want)
			}
		})
	}
	if i := PassIndex([]Choice{{Words: "a"}, {Words: "b", Pass: true}}); i != 1 {
		t.Errorf("pass index %d, want 1", i)
	}
	if i := PassIndex([]Choice{{Words: "a"}}); i != -1 {
		t.Errorf("pass index %d without a pass, want -1", i)
	}
}

// An answer window opens with its question, keeps its deadline while the
// table stays at the same entry, runs out once (the screen passes once),
// opens anew at a later entry, and closes with its question.
func TestAnswerWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	q := &Question{Window: true}
	w := NewAnswerWindow()
	if _, ok := w.Deadline(); ok || w.Due(t0) {
		t.Fatal("a new window is open")
	}
	w.Update(q, 7, t0, 10*time.Second)
	w.Update(q, 7, t0.Add(5*time.Second), 10*time.Second) // a later snapshot at the same entry
	if d, ok := w.Deadline(); !ok || !d.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("deadline %v, %v", d, ok)
	}
	if w.Due(t0.Add(9 * time.Second)) {
		t.Fatal("due before its deadline")
	}
	if !w.Due(t0.Add(10 * time.Second)) {
		t.Fatal("not due at its deadline")
	}
	w.Passed()
	if w.Due(t0.Add(20 * time.Second)) {
		t.Fatal("due again after the screen passed")
	}
	w.Update(q, 8, t0.Add(20*time.Second), 10*time.Second)
	if d, _ := w.Deadline(); !d.Equal(t0.Add(30*time.Second)) || !w.Due(t0.Add(30*time.Second)) {
		t.Fatalf("the window at the next entry: deadline %v", d)
	}
	for _, closed := range []*Question{nil, {}} {
		w.Update(closed, 9, t0, 10*time.Second)
		if _, ok := w.Deadline(); ok {
			t.Fatalf("open for question %+v", closed)
		}
	}
	w.Update(q, 9, t0, 0)
	if _, ok := w.Deadline(); ok {
		t.Fatal("open without a duration")
	}
}
