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
// draws. It copies the view's fields and adds the screen's own (the
// countdowns, the chat, whether a move is being played); it adds nothing
// about the table that the view does not say. A choice goes to the page
// as its words and index, never as the move it stands for.

// pageState is what the page draws, sent as JSON on every change.
type pageState struct {
	Rev    uint64 `json:"rev"`
	Title  string `json:"title"`
	Line   string `json:"line"` // the situation in one line (the terminal's status, the tab's title)
	Dealt  bool   `json:"dealt"`
	Game   string `json:"game,omitempty"`
	Status string `json:"status,omitempty"`
	Me     string `json:"me,omitempty"`

	Counters []pageAttr   `json:"counters,omitempty"`
	Seats    []pageSeat   `json:"seats,omitempty"`
	Notes    []string     `json:"notes,omitempty"`
	Areas    []pageArea   `json:"areas,omitempty"`
	Notices  []pageNotice `json:"notices,omitempty"`

	Question *pageQuestion `json:"question,omitempty"`
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

	Memory   []string      `json:"memory,omitempty"`
	NoMemory bool          `json:"noMemory,omitempty"`
	Log      []pageLogLine `json:"log,omitempty"`
	Help     []pageSection `json:"help,omitempty"`
	Chat     bool          `json:"chat,omitempty"` // the table has a chat
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
	Swap *pageSwap `json:"swap,omitempty"`
}

type pageAttr struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Words string `json:"words,omitempty"`
}

type pageCard struct {
	Name  string `json:"name,omitempty"`
	Face  string `json:"face"` // "down", "up", "known"
	Note  string `json:"note,omitempty"`
	Place string `json:"place,omitempty"`
	Slot  int    `json:"slot,omitempty"`
	// Track: the card changes hands in the open (seatview.Card.Track); the
	// page shows it move from its last place.
	Track int `json:"track,omitempty"`
}

type pageSeat struct {
	Name    string     `json:"name"`
	You     bool       `json:"you,omitempty"`
	Turn    bool       `json:"turn,omitempty"`
	Answers bool       `json:"answers,omitempty"`
	Attrs   []pageAttr `json:"attrs,omitempty"`
	Tokens  []string   `json:"tokens,omitempty"`
	Status  string     `json:"status,omitempty"`
	Cards   []pageCard `json:"cards,omitempty"`
	Moved   string     `json:"moved,omitempty"`
	Out     bool       `json:"out,omitempty"`
}

type pageArea struct {
	Name   string     `json:"name"`
	Count  int        `json:"count"`
	Cards  []pageCard `json:"cards,omitempty"`
	Note   string     `json:"note,omitempty"`
	Pile   bool       `json:"pile,omitempty"`
	Marked bool       `json:"marked,omitempty"`
	Words  string     `json:"words,omitempty"`
}

type pageNotice struct {
	Title  string `json:"title"`
	Text   string `json:"text"`
	Window string `json:"window,omitempty"`
	Yours  bool   `json:"yours,omitempty"`
}

type pageChoice struct {
	Words   string `json:"words"`
	Secret  bool   `json:"secret,omitempty"`
	Confirm string `json:"confirm,omitempty"`
	Pass    bool   `json:"pass,omitempty"`
	// Steps are the steps of a long menu the choice lies under
	// (seatview.Choice.Steps): the page offers the steps first.
	Steps []string `json:"steps,omitempty"`
}

type pageQuestion struct {
	Text    string       `json:"text,omitempty"`
	Forced  bool         `json:"forced,omitempty"`
	Window  bool         `json:"window,omitempty"`
	Choices []pageChoice `json:"choices"`
}

type pageLogLine struct {
	Text string `json:"text"`
	Who  string `json:"who,omitempty"` // a chat message's author ("you" for the seat's); "" for the log's own lines
}

type pageSection struct {
	Title string   `json:"title"`
	Lines []string `json:"lines"`
}

type pageSwap struct {
	At    uint64   `json:"at"`
	Pairs [][2]int `json:"pairs"`
}

func faceName(f seatview.Face) string {
	switch f {
	case seatview.FaceUp:
		return "up"
	case seatview.KnownToYou:
		return "known"
	}
	return "down"
}

func pageCards(cs []seatview.Card) []pageCard {
	out := make([]pageCard, 0, len(cs))
	for _, c := range cs {
		pc := pageCard{Name: c.Name, Face: faceName(c.Face), Note: c.Note, Place: c.Place, Slot: c.Slot, Track: c.Track}
		if c.Face == seatview.FaceDown {
			pc.Name = "" // never: a face-down card has no name for the seat
		}
		out = append(out, pc)
	}
	return out
}

func pageAttrs(as []seatview.Attr) []pageAttr {
	out := make([]pageAttr, 0, len(as))
	for _, a := range as {
		out = append(out, pageAttr{Name: a.Name, Value: a.Value, Words: a.Words})
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
	st := pageState{Rev: sc.rev + 1, Title: sc.opts.Title, At: sc.snap.Entries, Busy: sc.busy, Note: sc.status,
		Verdict: sc.snap.Verdict, Chat: sc.chatter != nil, NoMemory: sc.opts.NoMemory, Watching: sc.snap.Seat < 0}
	if _, ok := sc.sess.(session.Leaver); ok {
		st.CanLeave, st.Leaving = sc.snap.CanLeave && !sc.leaveAsked, sc.snap.Leaving || sc.leaveAsked && !sc.snap.Retired
		st.Out = sc.leaveAsked && sc.snap.Retired
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
	st.Counters = pageAttrs(t.Counters)
	for _, s := range t.Seats {
		if s.You {
			st.Me = s.Name
		}
		st.Seats = append(st.Seats, pageSeat{Name: s.Name, You: s.You, Turn: s.Turn, Answers: s.Answers,
			Attrs: pageAttrs(s.Attrs), Tokens: s.Tokens, Status: s.Status, Cards: pageCards(s.Cards), Moved: s.Moved, Out: s.Out})
	}
	st.Notes = t.Notes
	for _, a := range t.Areas {
		st.Areas = append(st.Areas, pageArea{Name: a.Name, Count: a.Count, Cards: pageCards(a.Cards), Note: a.Note,
			Pile: a.Pile, Marked: a.Marked, Words: a.Words})
	}
	for _, n := range t.Notices {
		st.Notices = append(st.Notices, pageNotice{Title: n.Title, Text: n.Text, Window: n.Window, Yours: n.Yours})
	}
	over := sc.over()
	if q := sc.question(); q != nil && !over {
		pq := &pageQuestion{Text: q.Text, Forced: q.Forced, Window: q.Window}
		for _, c := range sc.picks {
			pq.Choices = append(pq.Choices, pageChoice{Words: c.Words, Secret: c.Secret, Confirm: c.Confirm, Pass: c.Pass, Steps: c.Steps})
		}
		st.Question, st.Ask = pq, sc.asked
		if !sc.snap.MyDeadline.IsZero() {
			st.MoveLeft = max(1, ms(sc.snap.MyDeadline.Sub(now)))
		}
		if sc.window >= 0 {
			st.Window, st.WindowLeft = true, ms(sc.deadline.Sub(now))
		}
	}
	st.Waiting = t.Waiting
	if w := sc.snap.Waiting; w != nil && !over && w.Seat != sc.snap.Seat {
		if st.Waiting == "" {
			st.Waiting = w.Name
		}
		left := w.Left
		if !w.Deadline.IsZero() {
			left = w.Deadline.Sub(now)
		}
		st.WaitLeft = ms(left)
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
		st.Help = append(st.Help, pageSection{Title: h.Title, Lines: h.Lines})
	}
	if sw := t.Swapped; sw != nil {
		st.Swap = &pageSwap{At: sw.At, Pairs: slices.Clone(sw.Pairs)}
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
