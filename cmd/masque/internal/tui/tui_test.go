package tui

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade/mascaradetest"
	"github.com/masque-games/masque/engine/mascarade2"
	"github.com/masque-games/masque/engine/mascarade2/mascarade2test"
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"github.com/masque-games/masque/engine/table"
)

// fakeSession serves a fixed snapshot and records submissions.
type fakeSession struct {
	snap session.Snapshot
	mu   sync.Mutex
	got  []submission
	upd  chan struct{}
}

type submission struct {
	m     engine.Move
	swaps []bool
}

func (f *fakeSession) Snapshot() session.Snapshot { return f.snap }
func (f *fakeSession) Updates() <-chan struct{}   { return f.upd }
func (f *fakeSession) Submit(m engine.Move, swaps []bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, submission{m, swaps})
	return nil
}
func (f *fakeSession) Close() error { return nil }

const header = "game mascarade players=Anna,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n"

// stateAfter plays script lines (after the header) with the rules oracle,
// without passing for the responders left at the end.
func stateAfter(t *testing.T, lines string) *mascarade.State {
	t.Helper()
	sc, err := mascarade.ParseScript([]byte(header + lines))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := mascaradetest.New(sc.Options, mascaradetest.ScriptDeal(sc))
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range sc.Lines {
		if err := tb.PlayLine(ln); err != nil {
			t.Fatal(err)
		}
	}
	return tb.State
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// screen builds a model on a fake session at seat, with the rules state s,
// and feeds it the snapshot.
func screen(t *testing.T, s *mascarade.State, seat int, opts Options, edit func(*session.Snapshot)) (Model, *fakeSession) {
	t.Helper()
	snap := session.Snapshot{Seat: seat, Names: []string{"Anna", "Boris", "Sasha", "Dima"}, Rules: s, Viewer: masqview.First(),
		Log: []string{"dealt face up: Anna Queen, Boris Widow", "turn 1  Anna swap Boris  (swapped or not: only Anna knows)"}}
	if need := s.Next(); s.Over() {
		snap.Over = true
	} else if need.Kind == engine.NeedMove && int(need.Seat) == seat {
		snap.MyTurn = true
	} else {
		snap.Waiting = &session.Wait{Seat: int(need.Seat), Name: s.Name(need.Seat)}
	}
	if edit != nil {
		edit(&snap)
	}
	f := &fakeSession{snap: snap, upd: make(chan struct{})}
	m := New(f, opts)
	m = step(t, m, tea.WindowSizeMsg{Width: 100, Height: 60})
	m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
	return m, f
}

func step(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	nm, _ := m.Update(msg)
	return nm.(Model)
}

// press feeds keys and returns the model and the last command.
func press(t *testing.T, m Model, keys ...string) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "up":
			msg = tea.KeyMsg{Type: tea.KeyUp}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		var nm tea.Model
		nm, cmd = m.Update(msg)
		m = nm.(Model)
	}
	return m, cmd
}

// submitted runs cmd (and the commands of a batch, each for a short while)
// and returns the SubmittedMsg it produced, if any.
func submitted(cmd tea.Cmd) (SubmittedMsg, bool) {
	if cmd == nil {
		return SubmittedMsg{}, false
	}
	out := make(chan tea.Msg, 1)
	go func() { out <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-out:
	case <-time.After(200 * time.Millisecond):
		return SubmittedMsg{}, false
	}
	switch msg := msg.(type) {
	case SubmittedMsg:
		return msg, true
	case tea.BatchMsg:
		for _, c := range msg {
			if s, ok := submitted(c); ok {
				return s, true
			}
		}
	}
	return SubmittedMsg{}, false
}

func TestScreen(t *testing.T) {
	opening := stateAfter(t, "")
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	over := stateAfter(t, "Anna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Anna no\n")
	revealed := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\nBoris challenge\nSasha pass\nDima pass\n")
	challenged := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\nBoris challenge\n")
	_ = over
	type check struct {
		want, not []string
	}
	tests := []struct {
		name  string
		state *mascarade.State
		seat  int
		opts  Options
		edit  func(*session.Snapshot)
		keys  []string
		view  check
		// what the keys submit, if anything
		submit     string // the move's label
		swaps      []bool
		noSubmit   bool
		afterEnter bool
	}{
		{
			name: "opening turn offers only swaps", state: opening, seat: 0,
			view: check{want: []string{"you are Anna", "turn 1 · your turn", "preparatory (1 of 4): swap only",
				"Your move", "> swap your card with Boris's card", "swap your card with centre card 2", "Anna (you)", "6 coins", "centre: 2 cards, face down", "court 0"},
				not: []string{"peek", "claim", "really swap"}},
			noSubmit: true,
		},
		{
			name: "a swap asks whether it is real", state: opening, seat: 0, keys: []string{"down", "enter"},
			view: check{want: []string{"swap your card with Sasha's card: really exchange the cards? y/n"}}, noSubmit: true,
		},
		{
			name: "yes swaps for real", state: opening, seat: 0, keys: []string{"down", "enter", "y"},
			view: check{want: []string{"playing…"}}, submit: "swap Sasha", swaps: []bool{true},
		},
		{
			name: "no pretends", state: opening, seat: 0, keys: []string{"enter", "n"},
			submit: "swap Boris", swaps: []bool{false},
		},
		{
			name: "esc goes back", state: opening, seat: 0, keys: []string{"enter", "esc"},
			view: check{want: []string{"> swap your card with Boris's card"}, not: []string{"really exchange"}}, noSubmit: true,
		},
		{
			name: "waiting for another seat", state: opening, seat: 2,
			view: check{want: []string{"waiting for Anna", "you are Sasha"}, not: []string{"Your move"}}, noSubmit: true,
		},
		{
			name: "network timeout shown", state: opening, seat: 2,
			edit: func(s *session.Snapshot) { s.Waiting.Left = 42 * time.Second },
			view: check{want: []string{"waiting for Anna", "(0:42 before the timeout)"}}, noSubmit: true,
		},
		{
			name: "a seat waited for and not connected is said to be so", state: opening, seat: 2,
			edit: func(s *session.Snapshot) { s.Waiting.Left, s.Waiting.Offline = 42*time.Second, true },
			view: check{want: []string{"waiting for Anna", "Anna is not connected", "running the same command again", "reopening the page"}}, noSubmit: true,
		},
		{
			name: "a connected seat is not said to be offline", state: opening, seat: 2,
			edit: func(s *session.Snapshot) { s.Waiting.Left = 42 * time.Second },
			view: check{want: []string{"waiting for Anna"}, not: []string{"not connected"}}, noSubmit: true,
		},
		{
			name: "after turn 4 peeks and claims are offered", state: over, seat: 0,
			view: check{want: []string{"turn 5", "> swap your card with another …", "look at your card (only you see it)", "claim a character …"},
				not: []string{"preparatory", "peek", "claim King", "claim to be the King"}}, noSubmit: true,
		},
		{
			name: "a step opens its choices", state: over, seat: 0, keys: []string{"end", "enter"},
			view: check{want: []string{"claim a character ›", "> claim to be the Judge", "claim to be the King", "esc back"},
				not: []string{"swap your card"}}, noSubmit: true,
		},
		{
			name: "esc steps back", state: over, seat: 0, keys: []string{"end", "enter", "esc"},
			view: check{want: []string{"> claim a character …", "swap your card with another …"}, not: []string{"claim to be the King"}}, noSubmit: true,
		},
		{
			name: "a choice in a step is played", state: over, seat: 0, keys: []string{"enter", "down", "enter", "y"},
			submit: "swap Sasha", swaps: []bool{true},
		},
		{
			name: "challenge window with countdown", state: claim, seat: 1, opts: Options{ChallengeWindow: 30 * time.Second},
			view: check{want: []string{"Anna claims to be the King", "challenge window: your answer (30s left, then you pass)",
				"> pass: let the King claim go", "challenge: you say you are the King too", "p pass"}}, noSubmit: true,
		},
		{
			name: "p passes", state: claim, seat: 1, opts: Options{ChallengeWindow: 30 * time.Second}, keys: []string{"p"},
			submit: "pass",
		},
		{
			name: "challenge", state: claim, seat: 1, keys: []string{"down", "enter"},
			submit: "challenge",
		},
		{
			name: "others see who must answer", state: claim, seat: 3,
			view: check{want: []string{"Anna claims to be the King", "challenge window: Boris to answer", "Boris", "← to answer"}}, noSubmit: true,
		},
		{
			name: "a claim and its challenges speak to the claimant", state: challenged, seat: 0,
			view: check{want: []string{"you claim to be the King; challenged by Boris"}, not: []string{"Anna claims"}}, noSubmit: true,
		},
		{
			name: "a claim and its challenges speak to the challenger", state: challenged, seat: 1,
			view: check{want: []string{"Anna claims to be the King; challenged by you"}, not: []string{"by Boris"}}, noSubmit: true,
		},
		{
			name: "a seat revealed last turn is told why it may only swap", state: revealed, seat: 1,
			view: check{want: []string{"Your move", "Your card was revealed in the last turn: this turn you may only swap."},
				not: []string{"claim to be"}}, noSubmit: true,
		},
		{
			name: "the log is shown", state: opening, seat: 0,
			view: check{want: []string{"Log", "turn 1  Anna swap Boris  (swapped or not: only you know)"}}, noSubmit: true,
		},
		{
			name: "quit asks first", state: opening, seat: 0, keys: []string{"q"},
			view: check{want: []string{"leave the table? y/n"}}, noSubmit: true,
		},
		{
			name: "memory: the deal and swaps since", state: claim, seat: 1,
			edit: func(s *session.Snapshot) {
				s.Memory = []table.Sighting{{Pos: 3, Slot: 3, Card: mascarade.King, Public: true}}
			},
			view: check{want: []string{"Your memory", "your card: the Widow, seen at the deal", "entry 3  revealed: Dima's card was the King"}}, noSubmit: true,
		},
		{
			name: "no memory panel when switched off", state: claim, seat: 1, opts: Options{NoMemory: true},
			view: check{not: []string{"Your memory"}}, noSubmit: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, f := screen(t, tc.state, tc.seat, tc.opts, tc.edit)
			m, cmd := press(t, m, tc.keys...)
			v := m.View()
			for _, w := range tc.view.want {
				if !strings.Contains(v, w) {
					t.Errorf("view lacks %q:\n%s", w, v)
				}
			}
			for _, w := range tc.view.not {
				if strings.Contains(v, w) {
					t.Errorf("view has %q:\n%s", w, v)
				}
			}
			msg, ok := submitted(cmd)
			if tc.noSubmit {
				if ok || len(f.got) != 0 {
					t.Fatalf("submitted %+v", f.got)
				}
				return
			}
			if !ok || len(f.got) != 1 {
				t.Fatalf("submitted %d moves (msg %v)", len(f.got), ok)
			}
			g := f.got[0]
			if l := label(tc.state, g.m); l != tc.submit {
				t.Errorf("submitted %q, want %q", l, tc.submit)
			}
			if len(g.swaps) != len(tc.swaps) || (len(g.swaps) == 1 && g.swaps[0] != tc.swaps[0]) {
				t.Errorf("swap bits %v, want %v", g.swaps, tc.swaps)
			}
			if msg.Err != nil {
				t.Errorf("err %v", msg.Err)
			}
		})
	}
}

// The challenge window counts down on ticks and passes at zero.
func TestChallengeWindowRunsOut(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, f := screen(t, claim, 1, Options{ChallengeWindow: 10 * time.Second}, nil)
	m = step(t, m, TickMsg(t0.Add(4*time.Second)))
	if v := m.View(); !strings.Contains(v, "(6s left, then you pass)") {
		t.Fatalf("no countdown:\n%s", v)
	}
	nm, cmd := m.Update(TickMsg(t0.Add(10 * time.Second)))
	m = nm.(Model)
	if _, ok := submitted(cmd); !ok || len(f.got) != 1 || f.got[0].m.Kind != mascarade.KindPass {
		t.Fatalf("no automatic pass: %+v", f.got)
	}
	if v := m.View(); !strings.Contains(v, "time is up: you pass") {
		t.Fatalf("no notice:\n%s", v)
	}
	// A new snapshot of the same window does not restart the clock.
	m = step(t, m, SnapshotMsg{Snap: f.snap, At: t0.Add(11 * time.Second)})
	if deadline, _ := m.ctl.Window(); deadline != t0.Add(10*time.Second) {
		t.Fatalf("deadline moved to %v", deadline)
	}
}

// The memory tells which swaps since a sighting could have moved the
// seat's card, and whether the seat's own swaps were real.
// The memory panel says exactly what the seat knows: its own real
// exchange moves the card it knew (the review: it kept saying "the Queen,
// seen at the deal"), its own pretended swap moves nothing and is not
// listed among the swaps that could have moved its card, and another
// seat's swap makes its card one of two.
func TestMemorySwapsSince(t *testing.T) {
	// Dealt face up: Anna Queen, Boris Widow, Sasha Judge, Dima King.
	s := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n")
	sw := func(pos uint64, by engine.Seat, a, b engine.Slot, text, words string) masqview.Moved {
		return masqview.Moved{Pos: pos, Turn: int(pos) + 1, Seat: by, Text: text, Words: words,
			Swaps: []masqview.Swap{{Pos: pos, Turn: int(pos) + 1, By: by, Slots: [2]engine.Slot{a, b}, Move: text, Words: words}}}
	}
	anna := sw(0, 0, 0, 1, "Anna swap Boris", "you swap cards with Boris")
	boris := sw(1, 1, 1, 4, "Boris swap centre1", "Boris swaps their card with centre card 1")
	sasha := sw(2, 2, 2, 3, "Sasha swap Dima", "Sasha swaps cards with Dima")
	dima := sw(3, 3, 3, 0, "Dima swap Anna", "Dima swaps cards with you")
	cases := []struct {
		name      string
		moves     []masqview.Moved
		bits      map[uint64][]bool
		want, not []string
	}{
		{"own real exchange of a known card", []masqview.Moved{anna, boris, sasha}, map[uint64][]bool{0: {true}},
			[]string{"your card: the Widow, which you swapped in at turn 1 (seen at the deal)", "no swap since then could have moved it"},
			[]string{"the Queen", "you swap cards with Boris"}},
		{"own pretended swap", []masqview.Moved{anna, boris, sasha}, map[uint64][]bool{0: {false}},
			[]string{"your card: the Queen, seen at the deal", "no swap since then could have moved it"},
			[]string{"you swap cards with Boris", "you only pretended"}},
		{"another seat's swap after the exchange", []masqview.Moved{anna, boris, sasha, dima}, map[uint64][]bool{0: {true}},
			[]string{"your card: the Judge or the King or the Widow", "swaps since that could have moved it:", "turn 4  Dima swaps cards with you"},
			[]string{"turn 1  you swap cards with Boris", "turn 3  Sasha swaps cards with Dima"}},
		{"own swap whose bit the screen does not know", []masqview.Moved{anna}, nil,
			[]string{"your card: the Queen or the Widow", "turn 1  you swap cards with Boris  (yours: this screen does not know whether you exchanged)"},
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, _ := screen(t, s, 0, Options{}, nil)
			snap := m.snap
			snap.SwapBits = c.bits
			m = step(t, m, SnapshotMsg{Snap: recorded(snap, c.moves), At: t0})
			v := m.View()
			for _, w := range c.want {
				if !strings.Contains(v, w) {
					t.Errorf("view lacks %q:\n%s", w, v)
				}
			}
			mem := v[strings.Index(v, "Your memory"):]
			mem = mem[:strings.Index(mem, "Log")]
			for _, w := range c.not {
				if strings.Contains(mem, w) {
					t.Errorf("memory has %q:\n%s", w, mem)
				}
			}
		})
	}
	// After a peek at turn 5 nothing since could have moved it.
	m, _ := screen(t, s, 0, Options{}, nil)
	snap := m.snap
	snap.Memory = []table.Sighting{{Pos: 9, Slot: 0, Card: mascarade.Widow}}
	moves := []masqview.Moved{anna, boris, sasha, dima, {Pos: 8, Turn: 5, Seat: 0, Text: "Anna peek"}}
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
	v := m.View()
	for _, w := range []string{"your card: the Widow, seen turn 5 (you peeked)", "no swap since then could have moved it"} {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q:\n%s", w, v)
		}
	}
	// A card revealed at turn 4, then exchanged for hers by a real swap
	// at turn 6: one pair of brackets, not "(seen turn 4 (revealed to
	// all))".
	m, _ = screen(t, s, 0, Options{}, nil)
	snap = m.snap
	snap.Memory = []table.Sighting{{Pos: 3, Slot: 1, Card: mascarade.Widow, Public: true}}
	snap.SwapBits = map[uint64][]bool{5: {true}}
	moves = []masqview.Moved{{Pos: 3, Turn: 4, Seat: 1, Text: "Boris claim Widow"}, sw(5, 0, 0, 1, "Anna swap Boris", "you swap cards with Boris")}
	m = step(t, m, SnapshotMsg{Snap: recorded(snap, moves), At: t0})
	if v, w := m.View(), "your card: the Widow, which you swapped in at turn 6 (seen turn 4, revealed to all)"; !strings.Contains(v, w) {
		t.Errorf("view lacks %q:\n%s", w, v)
	}
}

func TestResult(t *testing.T) {
	sc := header + "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim Widow\nBoris challenge\n"
	s, err := mascaradetest.RunScript([]byte(sc[:len(header)-len("coins=6\n")] + "coins=1\n" + sc[len(header):]))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Over() {
		t.Fatal("the script should end the game")
	}
	m, _ := screen(t, s, 0, Options{}, nil)
	v := m.View()
	for _, w := range []string{"Result", "game over after 5 turns: Anna won", "you won!", "q leave", "turn 5 · game over"} {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "you lost") {
		t.Errorf("the winner is told they lost:\n%s", v)
	}
	// A loser is told as clearly.
	lost, _ := screen(t, s, 1, Options{}, nil)
	if v := lost.View(); !strings.Contains(v, "you lost, with ") || strings.Contains(v, "you won!") {
		t.Errorf("Boris's result:\n%s", v)
	}
	// q leaves at once when the game is over.
	m, cmd := press(t, m, "q")
	if !m.Quitting() || cmd == nil {
		t.Fatal("q did not quit")
	}
}

// A verdict (fault or timeout) is shown.
func TestVerdict(t *testing.T) {
	m, _ := screen(t, stateAfter(t, ""), 0, Options{}, func(s *session.Snapshot) {
		s.Over, s.MyTurn, s.Verdict = true, false, "Boris timed out"
	})
	if v := m.View(); !strings.Contains(v, "the table stopped: Boris timed out") {
		t.Fatalf("no verdict:\n%s", v)
	}
}

// NO_COLOR: no escape sequences at all.
func TestNoColor(t *testing.T) {
	m, _ := screen(t, stateAfter(t, ""), 0, Options{NoColor: true}, nil)
	if v := m.View(); strings.Contains(v, "\x1b[") {
		t.Fatalf("escape sequences with NoColor:\n%q", v)
	}
}

// At a network table the turn arrives in a snapshot of its own, after the
// entry that opened it (same entry count, MyTurn now set): the cursor
// must still open on the safe choice, not where the last decision left
// it (the review: a challenge window opened on "challenge" with 8 s left).
func TestDecisionOpensOnSafeChoice(t *testing.T) {
	prep := "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n"
	turn := stateAfter(t, prep+"Anna peek\nBoris peek\n") // Sasha's turn
	m, _ := screen(t, turn, 2, Options{}, nil)
	m, _ = press(t, m, "down")
	if m.choices.Index() != 1 {
		t.Fatalf("cursor %d after a down", m.choices.Index())
	}
	// Sasha peeks; Dima claims the King; the window reaches Sasha.
	window := stateAfter(t, prep+"Anna peek\nBoris peek\nSasha peek\nDima claim King\nAnna pass\nBoris pass\n")
	if !window.InChallengeWindow() || window.Next().Seat != 2 {
		t.Fatalf("the script does not open Sasha's answer: next %v", window.Next())
	}
	snap := m.snap
	snap.Rules, snap.Entries, snap.MyTurn, snap.Waiting = window, snap.Entries+5, false, &session.Wait{Seat: 2, Name: "Sasha"}
	m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
	snap.MyTurn, snap.Waiting = true, nil
	m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
	if m.choices.Index() != 0 || len(m.legal) == 0 || m.legal[0].Kind != mascarade.KindPass {
		t.Fatalf("the window opens with the cursor on %d (%v)", m.choices.Index(), m.labels)
	}
	if v := m.View(); !strings.Contains(v, "> pass") {
		t.Errorf("the cursor is not on pass:\n%s", v)
	}
}

// The bell rings once when a decision opens for the seat (its turn, a
// claim to answer), not for every snapshot of the same decision, and not
// when the screen has no bell.
func TestBell(t *testing.T) {
	turn := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n")
	var bell bytes.Buffer
	m, _ := screen(t, turn, 1, Options{Bell: &bell}, nil) // Boris waits for Anna
	snap := m.snap
	// Boris's turn arrives: one bell.
	snap.Entries, snap.MyTurn, snap.Waiting = snap.Entries+1, true, nil
	snap.Rules = stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna peek\n")
	nm, cmd := m.Update(SnapshotMsg{Snap: snap, At: t0})
	m = nm.(Model)
	if m.rung != snap.Entries || cmd == nil {
		t.Fatalf("no bell for Boris's turn (rung %d)", m.rung)
	}
	// The same decision again (a tick's snapshot): no second bell.
	nm, _ = m.Update(SnapshotMsg{Snap: snap, At: t0})
	m = nm.(Model)
	if m.rung != snap.Entries {
		t.Fatalf("rung %d", m.rung)
	}
	ring(&bell)()
	if bell.String() != "\a" {
		t.Fatalf("the bell wrote %q", bell.String())
	}
	// Without a bell nothing is remembered as rung.
	m2, _ := screen(t, turn, 1, Options{}, nil)
	nm, _ = m2.Update(SnapshotMsg{Snap: snap, At: t0})
	if nm.(Model).rung != -1 {
		t.Fatal("a screen without a bell rang")
	}
}

// ? shows every character in play with its power, what a challenge means
// and what applies now; ? or esc goes back. Every character of both
// editions has its power written.
func TestHelp(t *testing.T) {
	claim := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\nAnna claim King\n")
	m, _ := screen(t, claim, 1, Options{}, nil)
	if !strings.Contains(m.View(), "? help") {
		t.Errorf("the keys line does not offer help:\n%s", m.View())
	}
	m, _ = press(t, m, "?")
	v := m.View()
	for _, w := range []string{"Characters in play", "King        takes 3 coins from the bank", "Widow       takes coins from the bank until she has 10",
		"To challenge is to say", "Anna claims to be the King", "Challenge only if you believe your card is the King"} {
		if !strings.Contains(v, w) {
			t.Errorf("help lacks %q:\n%s", w, v)
		}
	}
	if strings.Contains(v, "Your move") {
		t.Errorf("the help page shows the table:\n%s", v)
	}
	m, _ = press(t, m, "esc")
	if v := m.View(); !strings.Contains(v, "Your move") {
		t.Errorf("esc does not go back:\n%s", v)
	}
	for _, st := range []struct {
		state engine.State
		kinds int
	}{{claim, mascarade.Game{}.Kinds()}, {stateAfter2(t), mascarade2.Game{}.Kinds()}} {
		s, _ := rulesOf(st.state)
		for c := 1; c < st.kinds; c++ {
			if s.Power(engine.Card(c)) == "" {
				t.Errorf("%s: no power text for the %s", s.Game(), s.CardName(engine.Card(c)))
			}
		}
	}
}

// stateAfter2 is a 2nd-edition state.
func stateAfter2(t *testing.T) engine.State {
	t.Helper()
	s, err := mascarade2test.RunScript([]byte("game mascarade2 players=Anna,Boris,Sasha,Dima\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The player who must act sees the time left for the move, and is warned
// (with the bell) in the last 30 seconds.
func TestMoveCountdown(t *testing.T) {
	turn := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n")
	var bell bytes.Buffer
	m, _ := screen(t, turn, 0, Options{Bell: &bell}, func(s *session.Snapshot) { s.MyDeadline = t0.Add(4*time.Minute + 32*time.Second) })
	m = step(t, m, TickMsg(t0))
	if v := m.View(); !strings.Contains(v, "Your move · 4:32 left") || strings.Contains(v, "hurry") {
		t.Errorf("countdown:\n%s", v)
	}
	nm, cmd := m.Update(TickMsg(t0.Add(4*time.Minute + 10*time.Second)))
	m = nm.(Model)
	if v := m.View(); !strings.Contains(v, "0:22 left") || !strings.Contains(v, "hurry: 0:22 left, then the others stop the table and name you") {
		t.Errorf("warning:\n%s", v)
	}
	if m.warned != m.snap.Entries || cmd == nil {
		t.Error("no bell with the warning")
	}
	// No deadline (local play): no countdown.
	m2, _ := screen(t, turn, 0, Options{}, nil)
	if strings.Contains(m2.View(), " left") {
		t.Errorf("a countdown without a deadline:\n%s", m2.View())
	}
}

// The screen speaks to its player in the second person: a player called
// "You" never reads "You's turn", "only You knows" or "You was the King".
func TestSecondPerson(t *testing.T) {
	sc := "game mascarade players=You,Boris,Sasha,Dima deal=Queen,Widow,Judge,King,Bishop,Thief coins=6\n" +
		"You swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap You no\nYou claim Widow\nBoris challenge\n"
	s, err := mascaradetest.RunScript([]byte(sc))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := screen(t, s, 0, Options{}, func(sn *session.Snapshot) {
		sn.Names = []string{"You", "Boris", "Sasha", "Dima"}
		sn.Log = []string{"turn 1  You swap Boris  (swapped or not: only You knows)"}
	})
	v := m.View()
	for _, bad := range []string{"You's turn", "only You knows", "You was the"} {
		if strings.Contains(v, bad) {
			t.Errorf("the screen says %q:\n%s", bad, v)
		}
	}
	for _, w := range []string{"only you know", "your card was the"} {
		if !strings.Contains(v, w) {
			t.Errorf("the screen lacks %q:\n%s", w, v)
		}
	}
}

// label is a legal move of either Mascarade edition in the script verbs,
// without the player's name: "swap Boris", "claim King", "use
// between=Anna,Dima".
func label(st engine.State, mv engine.Move) string {
	s, ok := rulesOf(st)
	if !ok {
		return fmt.Sprintf("kind %d %v", mv.Kind, mv.Args)
	}
	return strings.TrimPrefix(s.FormatMove(mv), s.Name(mv.Seat)+" ")
}

// A restarted seat that must first learn from the other seats what it
// already signed (issue 29: its state directory may have lost entries)
// says so instead of a plain wait.
func TestCheckingRestartedSeat(t *testing.T) {
	turn := stateAfter(t, "Anna swap Boris yes\nBoris swap centre1 no\nSasha swap Dima yes\nDima swap Anna no\n")
	m, _ := screen(t, turn, 0, Options{}, nil)
	snap := m.snap
	snap.MyTurn, snap.Waiting = false, &session.Wait{Seat: 0, Name: "Anna", Checking: true}
	m = step(t, m, SnapshotMsg{Snap: snap, At: t0})
	if v := m.View(); !strings.Contains(v, "checking with the other seats what you already played") || strings.Contains(v, "waiting for Anna") {
		t.Errorf("the screen does not say the seat is checking:\n%s", v)
	}
}

// recorded is snap with the moves a Mascarade narrator recorded
// (Snapshot.Record) and the game's viewer.
func recorded(snap session.Snapshot, moves []masqview.Moved) session.Snapshot {
	snap.Record = moves
	if snap.Viewer == nil {
		if _, ok := masqview.First().Of(snap.Rules); ok {
			snap.Viewer = masqview.First()
		} else {
			snap.Viewer = masqview.Second()
		}
	}
	return snap
}

// rulesOf wraps a rules state of either Mascarade edition.
func rulesOf(s engine.State) (masqview.Rules, bool) {
	if r, ok := masqview.First().Of(s); ok {
		return r, true
	}
	return masqview.Second().Of(s)
}
