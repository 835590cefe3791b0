package seatview

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/masque-games/masque/engine"
)

// fakeSeat records what a controller played on it.
type fakeSeat struct {
	got    []string
	refuse error
}

func (f *fakeSeat) Submit(mv engine.Move, bits []bool) error {
	f.got = append(f.got, fmt.Sprintf("move %d %v bits %v", mv.Kind, mv.Args, bits))
	return f.refuse
}

// nightSeat is a seat with night choices and leaving.
type nightSeat struct{ fakeSeat }

func (f *nightSeat) Decide(power uint8, target engine.Seat) error {
	f.got = append(f.got, fmt.Sprintf("decide %d on %d", power, target))
	return f.refuse
}

func (f *nightSeat) Sleep() error {
	f.got = append(f.got, "sleep")
	return f.refuse
}

func (f *nightSeat) Leave() error {
	f.got = append(f.got, "leave")
	return f.refuse
}

// menuQuestion is a Grimm-like question: a pass, a step of two swaps (one
// a hidden swap that asks), an unmasking two steps deep under a single
// player (taken for the seat), and a night choice.
func menuQuestion() *Question {
	mv := func(k int, args ...int) engine.Move { return engine.Move{Kind: uint8(k), Args: args} }
	return &Question{Text: "your move", Window: true, Choices: []Choice{
		{Words: "pass", Move: mv(1), Pass: true},
		{Words: "swap with Boris", Move: mv(2, 1), Steps: []string{"swap"}, Secret: true, Confirm: "really?"},
		{Words: "give the Crown", Move: mv(3, 1), Steps: []string{"swap"}, Confirm: "sure?"},
		{Words: "Boris is the Beast", Move: mv(4, 1, 0), Steps: []string{"Mask off!", "on Boris", "the Beast?"}},
		{Words: "Boris is the Witch", Move: mv(4, 1, 1), Steps: []string{"Mask off!", "on Boris", "the Witch?"}},
		{Words: "kill Boris", Night: &Night{Power: 2, Target: 1}},
	}}
}

// A controller walked by a screen's keys: picks into steps and back,
// confirmations answered yes, no and not at all, the pass key, a night
// choice, a refused move, the answer window that passes once, and
// leaving; every screen gets the same plays.
func TestController(t *testing.T) {
	t0 := time.Unix(1000, 0)
	type op struct {
		do   string // "pick N", "answer X", "back", "pass", "tick S" (seconds after t0), "offer N" (the entry count), "leave", "refuse"
		want string // what the seat was asked, "" for nothing
		path string // the menu path after, joined with " › "
	}
	for _, tc := range []struct {
		name string
		seat Session
		ops  []op
	}{
		{"a step, a hidden swap answered no", &fakeSeat{}, []op{
			{"pick 1", "", "swap"},
			{"pick 0", "", "swap"}, // asks
			{"answer no", "move 2 [1] bits [false]", "swap"},
		}},
		{"a confirmation answered no plays nothing", &fakeSeat{}, []op{
			{"pick 1", "", "swap"},
			{"pick 1", "", "swap"},
			{"answer no", "", "swap"},
			{"pick 1", "", "swap"},
			{"answer yes", "move 3 [1] bits []", "swap"},
		}},
		{"a confirmation left unanswered, then back", &fakeSeat{}, []op{
			{"pick 1", "", "swap"},
			{"pick 0", "", "swap"},
			{"answer ", "", "swap"},
			{"back", "", ""},
			{"back", "", ""}, // at the top already
		}},
		{"the step under a single player is taken, back skips it", &fakeSeat{}, []op{
			{"pick 2", "", "Mask off! › on Boris"},
			{"back", "", ""},
			{"pick 2", "", "Mask off! › on Boris"},
			{"pick 1", "move 4 [1 1] bits []", "Mask off! › on Boris"},
		}},
		{"a night choice goes to the night seat", &nightSeat{}, []op{
			{"pick 3", "decide 2 on 1", ""},
		}},
		{"a night choice at a table without nights is refused", &fakeSeat{}, []op{
			{"pick 3", "error: this table takes no night choices", ""},
		}},
		{"the pass key", &fakeSeat{}, []op{
			{"pass", "move 1 [] bits []", ""},
		}},
		{"the window passes once", &fakeSeat{}, []op{
			{"tick 29", "", ""},
			{"tick 30", "move 1 [] bits []", ""},
			{"tick 31", "", ""},
			{"offer 5", "", ""}, // the same entry: still passed
			{"tick 40", "", ""},
			{"offer 6", "", ""}, // a new window
			{"tick 59", "", ""},
			{"tick 60", "move 1 [] bits []", ""},
		}},
		{"a refused move can be played again", &fakeSeat{refuse: errors.New("no")}, []op{
			{"pass", "move 1 [] bits [] error: no", ""},
			{"pass", "move 1 [] bits [] error: no", ""},
		}},
		{"a new set of choices opens at the top", &fakeSeat{}, []op{
			{"pick 1", "", "swap"},
			{"offer 5", "", "swap"}, // the same set: where the seat was
			{"offer 6", "", ""},
		}},
		{"leaving", &nightSeat{}, []op{
			{"leave", "leave", ""},
		}},
		{"leaving a table without it", &fakeSeat{}, []op{
			{"leave", "error: " + ErrNoLeaving.Error(), ""},
		}},
		{"a refused leave", &nightSeat{fakeSeat{refuse: errors.New("too late")}}, []op{
			{"leave", "leave error: too late", ""},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewController()
			q := menuQuestion()
			c.Offer(q, 5, t0, 30*time.Second)
			for _, o := range tc.ops {
				var got []string
				record := func() []string {
					switch s := tc.seat.(type) {
					case *fakeSeat:
						return s.got
					case *nightSeat:
						return s.got
					}
					return nil
				}
				before := len(record())
				run := func(a Action, ok bool) {
					if !ok {
						return
					}
					if !c.Busy() {
						t.Fatalf("%s: not busy while playing", o.do)
					}
					err := a.Run(tc.seat)
					c.Done(a, err)
					if err != nil {
						got = append(got, "error: "+err.Error())
					}
				}
				verb, arg, _ := strings.Cut(o.do, " ")
				switch verb {
				case "pick":
					var j int
					fmt.Sscan(arg, &j)
					run(c.Pick(j))
				case "answer":
					run(c.Answer(arg))
				case "back":
					c.Back()
				case "pass":
					run(c.Pass())
				case "tick":
					var s int
					fmt.Sscan(arg, &s)
					now := t0.Add(time.Duration(s) * time.Second)
					run(c.Tick(now))
				case "offer":
					var at int
					fmt.Sscan(arg, &at)
					c.Offer(q, at, t0.Add(30*time.Second), 30*time.Second)
				case "leave":
					do, err := c.Leave(tc.seat)
					if err != nil {
						got = append(got, "error: "+err.Error())
						break
					}
					if !c.Leaving() {
						t.Fatal("not leaving after Leave")
					}
					if err := do(); err != nil {
						c.LeaveRefused()
						got = append(got, "error: "+err.Error())
						if c.Leaving() {
							t.Fatal("still leaving after a refusal")
						}
					}
				}
				got = append(slices.Clone(record()[before:]), got...)
				if w := strings.Join(got, " "); w != o.want {
					t.Errorf("%s: the seat got %q, want %q", o.do, w, o.want)
				}
				if _, p := c.Menu(); strings.Join(p, " › ") != o.path {
					t.Errorf("%s: at %q, want %q", o.do, strings.Join(p, " › "), o.path)
				}
				if c.Busy() {
					t.Errorf("%s: still busy", o.do)
				}
			}
		})
	}
}

// A hidden swap's secret bit is kept by the entry of its move once the
// seat took it, not when it was refused; a choice from a set the table
// moved past is stale.
func TestControllerSwapsAndStale(t *testing.T) {
	c := NewController()
	q := menuQuestion()
	c.Offer(q, 7, time.Unix(0, 0), 0)
	ask := c.Ask()
	a, err := c.Choose(1, Yes)
	if err != nil {
		t.Fatal(err)
	}
	c.Done(a, errors.New("refused"))
	if len(c.Swaps()) != 0 {
		t.Fatalf("a refused swap kept: %v", c.Swaps())
	}
	a, err = c.Choose(1, Yes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Choose(0, ""); err == nil {
		t.Fatal("a second play while the first is under way")
	}
	c.Done(a, nil)
	if bit, ok := c.Swaps()[7]; !ok || !bit {
		t.Fatalf("swaps %v, want entry 7 real", c.Swaps())
	}
	if _, err := c.Choose(1, ""); err == nil {
		t.Fatal("a hidden swap played without its answer")
	}
	if c.Stale(7, ask) || c.Stale(7, 0) || !c.Stale(6, ask) || !c.Stale(7, ask+1) {
		t.Fatal("stale wrong at the same set")
	}
	c.Offer(nil, 8, time.Unix(0, 0), 0)
	if !c.Stale(7, ask) || c.Choices() != nil {
		t.Fatal("the old set still on offer")
	}
	if _, ok := c.Pass(); ok {
		t.Fatal("a pass with nothing on offer")
	}
}

// TestAnswerWindowSince: a seat's answer window runs from when the table
// began waiting for its answer (since), which a restarted screen knows
// (kept with the seat), not from when the screen first drew it: 20 s
// into a 30 s window, 10 s are left and the pass comes then; a later
// offer at the same entry does not move the window on, an earlier since
// learnt later brings its end forward, and a new entry opens a new one.
func TestAnswerWindowSince(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	q := menuQuestion()
	c := NewController()
	c.Offer(q, 5, t0.Add(-20*time.Second), 30*time.Second)
	if end, ok := c.Window(); !ok || !end.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("asked 20 s ago: the window ends %v (%v), want %v", end, ok, t0.Add(10*time.Second))
	}
	if _, ok := c.Tick(t0.Add(9 * time.Second)); ok {
		t.Fatal("passed with 1 s left")
	}
	c.Offer(q, 5, t0, 30*time.Second)
	if end, _ := c.Window(); !end.Equal(t0.Add(10 * time.Second)) {
		t.Errorf("offered again at the same entry: the window ends %v, want it kept", end)
	}
	c.Offer(q, 5, t0.Add(-25*time.Second), 30*time.Second)
	if end, _ := c.Window(); !end.Equal(t0.Add(5 * time.Second)) {
		t.Errorf("an earlier start learnt: the window ends %v, want %v", end, t0.Add(5*time.Second))
	}
	if _, ok := c.Tick(t0.Add(5 * time.Second)); !ok {
		t.Error("no pass when the window ran out")
	}
	c.Offer(q, 6, t0.Add(time.Minute), 30*time.Second)
	if end, _ := c.Window(); !end.Equal(t0.Add(90 * time.Second)) {
		t.Errorf("a new entry: the window ends %v, want %v", end, t0.Add(90*time.Second))
	}
}
