package web

import (
	"slices"

	"fmt"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
)

// This file turns the seat's view (seatview.Table) into the state the page
// draws. It sends the view's own parts as they are (their JSON is the
// page's) and adds the screen's own (the countdowns, the chat, whether a
// move is being played); it adds nothing about the table that the view
// does not say. A choice goes to the page as its words and index, never
// as the move it stands for (seatview.Choice sends no move).

// menuKeys are the keys of the lines of a menu page: the digits, then
// letters that are no other key of the page (c chat, l leave, n no, p
// pass, q quit, y yes).
const menuKeys = "1234567890abdefghijkmorstuvwxz"

// pageState is what the page draws, sent as JSON on every change.
type pageState struct {
	Rev    uint64 `json:"rev"`
	Title  string `json:"title"`
	Line   string `json:"line"` // the situation in one line (the terminal's status, the tab's title)
	Dealt  bool   `json:"dealt"`
	Game   string `json:"game,omitempty"`
	Status string `json:"status,omitempty"`
	Me     string `json:"me,omitempty"`

	Counters []seatview.Attr   `json:"counters,omitempty"`
	Seats    []seatview.Seat   `json:"seats,omitempty"`
	Notes    []string          `json:"notes,omitempty"`
	Areas    []seatview.Area   `json:"areas,omitempty"`
	Notices  []seatview.Notice `json:"notices,omitempty"`

	Question *seatview.Question `json:"question,omitempty"`
	// Menu is the question's choices as the pages of a menu
	// (seatview.MenuTree), with the page's keys: the page draws a page
	// of it and follows its lines, page 0 first.
	Menu []seatview.MenuPage `json:"menu,omitempty"`
	// At is the entry count the choices are offered at: an action names
	// it, so that a click on a choice the table moved past is refused.
	At int `json:"at"`
	// Ask numbers the set of choices on offer: an action names it too
	// (a night with two powers asks twice at one entry).
	Ask     uint64 `json:"ask,omitempty"`
	Busy    bool   `json:"busy,omitempty"`
	Waiting string `json:"waiting,omitempty"`
	// WaitLeft is the time before the timeout verdict for whom the table
	// waits, in ms (0: none); Offline: that player is not connected.
	WaitLeft int64  `json:"waitLeft,omitempty"`
	Offline  string `json:"offline,omitempty"`
	// WaitWindowLeft is the time left (ms, 0: none) in the answer window
	// of the seat the table waits for, when it answers a claim: its
	// screen passes for it then, long before the timeout; WaitWho names
	// it.
	WaitWindowLeft int64  `json:"waitWindowLeft,omitempty"`
	WaitWho        string `json:"waitWho,omitempty"`
	// MoveLeft is the time left for the seat's move (ms, 0: no limit),
	// WindowLeft the time left in its answer window before it passes.
	MoveLeft   int64 `json:"moveLeft,omitempty"`
	WindowLeft int64 `json:"windowLeft,omitempty"`
	Window     bool  `json:"window,omitempty"`

	Over     bool     `json:"over,omitempty"`
	Result   []string `json:"result,omitempty"`
	Won      bool     `json:"won,omitempty"`
	Outcome  string   `json:"outcome,omitempty"`
	Verdict  string   `json:"verdict,omitempty"`
	EndNotes []string `json:"endNotes,omitempty"`

	Memory   []string           `json:"memory,omitempty"`
	NoMemory bool               `json:"noMemory,omitempty"`
	Log      []pageLogLine      `json:"log,omitempty"`
	Help     []seatview.Section `json:"help,omitempty"`
	Chat     bool               `json:"chat,omitempty"` // the table has a chat
	// ChatBarred says why the seat may read the chat but not write in it
	// now (a player out of the game); "" when it may write.
	ChatBarred string `json:"chatBarred,omitempty"`
	// Phase is "day" or "night" in a game that has them.
	Phase string `json:"phase,omitempty"`
	// Watching: the page is a spectator's (no seat, read-only).
	Watching bool `json:"watching,omitempty"`
	// CanLeave: the seat may leave the game for good (session.Leaver);
	// Leaving: it asked, and leaves at its next move.
	CanLeave bool `json:"canLeave,omitempty"`
	Leaving  bool `json:"leaving,omitempty"`
	// Out: the seat left the game and is out; the screen stops next.
	Out  bool   `json:"out,omitempty"`
	Note string `json:"note,omitempty"` // the screen's own message ("refused: …")
	// Swap is the latest move's hidden swaps, as pairs of card slots
	// (seatview.Card.Slot), with the move's entry: the page shows both cards
	// move, whether or not they really swapped.
	Swap *seatview.Swapped `json:"swap,omitempty"`
}

type pageLogLine struct {
	Text string `json:"text"`
	Who  string `json:"who,omitempty"` // a chat message's author ("you" for the seat's); "" for the log's own lines
}

// faceDownUnnamed returns cs with every face-down card's name left
// out: a face-down card has no name for the seat, whatever a view says.
func faceDownUnnamed(cs []seatview.Card) []seatview.Card {
	out := slices.Clone(cs)
	for i := range out {
		if out[i].Face == seatview.FaceDown {
			out[i].Name = ""
		}
	}
	return out
}

// ms is d in whole milliseconds, at least 1 when d is positive.
func ms(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return max(1, d.Milliseconds())
}

// pageState builds what the page draws. sc.mu is held.
func (sc *screen) pageState(now time.Time) pageState {
	st := pageState{Rev: sc.rev + 1, Title: sc.opts.Title, At: sc.snap.Entries, Busy: sc.ctl.Busy(), Note: sc.status,
		Verdict: sc.snap.Verdict, Chat: sc.chatter != nil, NoMemory: sc.opts.NoMemory, Watching: sc.snap.Seat < 0}
	if _, ok := sc.sess.(session.Leaver); ok {
		asked := sc.ctl.Leaving()
		st.CanLeave, st.Leaving = sc.snap.CanLeave && !asked, sc.snap.Leaving || asked && !sc.snap.Retired
		st.Out = asked && sc.snap.Retired
	}
	if st.Leaving && st.Note == "" {
		st.Note = "You are leaving the game: you are out at your next move; your night is played for you until then."
	}
	t := sc.tv
	if t == nil {
		st.Line = "shuffling and dealing…"
		if st.Verdict != "" {
			st.Line = "the table stopped: " + st.Verdict
		}
		return st
	}
	st.Dealt, st.Game, st.Status, st.Phase = true, t.Game, t.Status, t.Phase
	if gate, ok := sc.snap.Rules.(engine.ChatGate); ok && st.Chat && !gate.MayChat(engine.Seat(sc.snap.Seat)) {
		st.ChatBarred = "you may read the table chat but not write in it now"
	}
	st.Counters = t.Counters
	for _, s := range t.Seats {
		if s.You {
			st.Me = s.Name
		}
		s.Cards = faceDownUnnamed(s.Cards)
		st.Seats = append(st.Seats, s)
	}
	st.Notes = t.Notes
	for _, a := range t.Areas {
		a.Cards = faceDownUnnamed(a.Cards)
		st.Areas = append(st.Areas, a)
	}
	st.Notices = t.Notices
	over := sc.over()
	if q := sc.question(); q != nil && !over {
		st.Question, st.Ask = &seatview.Question{Text: q.Text, Forced: q.Forced, Window: q.Window, Choices: sc.ctl.Choices()}, sc.ctl.Ask()
		st.Menu = sc.menu
		win, inWindow := sc.ctl.Window()
		if inWindow {
			st.Window, st.WindowLeft = true, ms(win.Sub(now))
		}
		// An answer in its window passes by itself when the window runs
		// out: the move time counts only when it runs out first.
		if !sc.snap.MyDeadline.IsZero() && !(inWindow && q.Window && !win.After(sc.snap.MyDeadline)) {
			st.MoveLeft = max(1, ms(sc.snap.MyDeadline.Sub(now)))
		}
	}
	st.Waiting = t.Waiting
	if w := sc.snap.Waiting; w != nil && !over && w.Seat != sc.snap.Seat {
		if w.What != "" {
			st.Waiting = w.What // the table's own work: "bob's shuffle"
		} else if st.Waiting == "" {
			st.Waiting = w.Name
		}
		left := w.Left
		if !w.Deadline.IsZero() {
			left = w.Deadline.Sub(now)
		}
		st.WaitLeft = ms(left)
		if win, ok := seatview.OthersWindow(*t, w.Since, sc.opts.ChallengeWindow); ok && now.Before(win) && !w.Offline {
			// Not connected: nothing passes for it when the window ends.
			st.WaitWindowLeft, st.WaitWho = ms(win.Sub(now)), w.Name
		}
		if w.Offline {
			st.Offline = w.Name
		}
	}
	if w := sc.snap.Waiting; w != nil && w.Checking {
		// A restarted seat learns what it already signed before it plays.
		st.Waiting = "the other seats to tell this restarted seat what you already played"
	}
	if over {
		st.Over, st.Result, st.Won, st.Outcome, st.EndNotes = true, t.Result, t.Won, t.Outcome, sc.endNotes
		st.Waiting = ""
	}
	if !sc.opts.NoMemory {
		st.Memory = t.Memory
	}
	c := 0
	chat := func(upTo int) {
		for ; c < len(sc.chat) && sc.chatAt[c] <= upTo; c++ {
			l := sc.chat[c]
			who := l.Name
			if l.Seat == sc.snap.Seat {
				who = "you"
			}
			st.Log = append(st.Log, pageLogLine{Text: l.Text, Who: who})
		}
	}
	for i, x := range t.Log {
		chat(i)
		st.Log = append(st.Log, pageLogLine{Text: x})
	}
	chat(len(t.Log) + len(sc.chat))
	for _, h := range t.Help {
		if sc.opts.NoMemory && h.Title == "Your memory" {
			continue
		}
		st.Help = append(st.Help, h)
	}
	if sw := t.Swapped; sw != nil {
		st.Swap = sw
	}
	st.Line = sc.line(st)
	return st
}

// line is the situation in one line.
func (sc *screen) line(st pageState) string {
	switch {
	case st.Over && st.Outcome != "":
		return "game over: " + st.Outcome
	case st.Over && st.Verdict != "":
		return "the table stopped: " + st.Verdict
	case st.Over:
		return "game over"
	case st.Question != nil && st.Question.Forced:
		return "only you can answer"
	case st.Question != nil:
		return "your move"
	case st.Waiting != "":
		return fmt.Sprintf("waiting for %s", st.Waiting)
	}
	return "waiting…"
}
