// Package session is the seam between the play screen and a table: a
// Session is one seat at a running table, local (in-process bots) or over
// the network (host/join). The screen reads Snapshots and submits the
// seat's moves; it never sees a ciphertext or a network detail.
package session

import (
	"time"

	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Wait says who the table is waiting for, and for how long more.
type Wait struct {
	Seat int
	Name string
	// What is what the table waits for from that seat when it is the
	// table's own work rather than a player's choice, in words
	// (seatview.WorkWaiting: "bob's shuffle"); "" for a move.
	What     string
	Left     time.Duration // time left before the timeout verdict
	Deadline time.Time
	// Since is when this peer began waiting for the position (kept
	// across a restart; zero: unknown): another seat's answer window
	// (a claim) runs from it.
	Since time.Time
	// Offline: this peer has no connection to that seat's player now (its
	// program may have stopped; it can rejoin by running it again).
	Offline bool
	// NoContactSince, when not zero, is when this peer last heard from
	// any other seat: it is cut off from the table (its own network, most
	// likely) and blames nobody meanwhile.
	NoContactSince time.Time
	// Checking: the table waits for this seat, which first asks the other
	// seats what it signed before (it was restarted, and its saved game
	// may have lost moves it made): it plays as soon as one answers.
	Checking bool
}

// Snapshot is everything one seat may see now.
type Snapshot struct {
	Seat  int      // the local seat
	Names []string // by seat
	Rules engine.State
	// Viewer is the game's viewer (games.Game.Viewer): a screen builds
	// the seat's view with it ([Snapshot.Input], seatview.Build).
	Viewer seatview.Viewer
	Memory []table.Sighting // what this seat has seen, and when
	// Known is what this seat knows now, by slot (table.Player.Known):
	// the cards it saw in slots that still hold them. A screen builds the
	// seat's view from it and the public rules state, never from another
	// seat's secrets.
	Known map[engine.Slot]engine.Card
	// Opened is every card of the table, by slot, once every seat has
	// published its card key at the end (table.Table.Opened); nil before.
	Opened map[engine.Slot]engine.Card
	// SwapBits are the secret bits of this seat's own hidden swaps, by the
	// position of its move's entry (table.Player.SwapBits).
	SwapBits map[uint64][]bool
	Log      []string // public narration, oldest first
	// Record is the public record the game's narrator kept of the table
	// (seatview.Narrator.Record: the moves so far with the hidden swaps
	// they caused, say), for the seat's view; nil when none.
	Record  any
	Waiting *Wait // nil when it is this seat's turn or the game is over
	MyTurn  bool  // a move by this seat is expected now
	// MyDeadline, when set, is when the others stop waiting for this
	// seat's move (a timeout verdict naming it).
	MyDeadline time.Time
	// MySince, when set, is when the table began waiting for this seat's
	// move, kept across a restart as MyDeadline is: the seat's answer
	// window (a claim's challenge, a forced response) runs from it, so a
	// restarted screen shows the time left, not a whole window again
	// ([Snapshot.AskedSince]).
	MySince time.Time
	// Private is what the seat knows privately beyond the cards it saw,
	// in the game's own type (games.Knower: a seat's role, mates
	// and check results); nil for games without it.
	Private any
	// Night: the table waits for this seat's secret night actions (MyTurn
	// is set too); Decisions are the choices still to make (the powers
	// its own card holds, table.Player.Decisions), none for a seat
	// without a power, which may sleep ([Actor]).
	Night     bool
	Decisions []engine.Effect
	// TableNight: the table waits for some seat's secret night actions,
	// this seat's or not (a seat that posted its own waits for the
	// others' before the day).
	TableNight bool
	// CanLeave: the seat may leave the game for good now ([Leaver]);
	// Leaving: it asked, and leaves at its next move; Retired: it is out
	// of the game and published its card key, so that closing the screen
	// stalls nobody.
	CanLeave, Leaving, Retired bool
	Verdict                    string // non-empty when the table stopped on a fault or timeout
	Over                       bool   // the game is over (or stopped)
	Entries                    int    // entries in the log so far
}

// Input is what the seat's view is built from (seatview.Input): the
// snapshot's public state and the seat's own knowledge. A screen adds
// its own salt (Input.Salt) before building the view.
func (s Snapshot) Input() seatview.Input {
	return seatview.Input{Rules: s.Rules, Seat: engine.Seat(s.Seat), Names: s.Names,
		Known: s.Known, Opened: s.Opened, Memory: s.Memory, Log: s.Log, Record: s.Record, SwapBits: s.SwapBits,
		MyTurn: s.MyTurn, Over: s.Over, Private: s.Private, Night: s.Night, Decisions: s.Decisions, TableNight: s.TableNight}
}

// Session is one seat at a running table.
type Session interface {
	// Snapshot returns the current view; safe for concurrent use.
	Snapshot() Snapshot
	// Updates delivers a value after every change (coalesced: a reader
	// that falls behind gets one value, then reads Snapshot).
	Updates() <-chan struct{}
	// Submit plays the local seat's move, with the secret bits of the
	// hidden swaps it causes. It returns an error, and changes nothing,
	// if the move is illegal now.
	Submit(m engine.Move, swaps []bool) error
	// Close leaves the table and releases everything.
	Close() error
}

// Sealer is a Session that keeps the salt of the seat's sealed choices
// (seatview.Input.Salt: a commitment the seat opens later) where a restarted seat
// finds it again. A screen on a session without it draws a salt of its
// own, which lives as long as the screen.
type Sealer interface {
	SealSalt() [32]byte
}

// ChatLine is one message of the table chat, for the screen.
type ChatLine struct {
	Seat int
	Name string    // the author's name at the table
	Text string    // as its author wrote it (cleaned: no control characters)
	At   time.Time // when the author wrote it (its clock)
	Seq  uint32    // the author's message number
	// After is one more than the number of log lines that came before the
	// message when it reached this seat (kept across a restart, so that
	// a resumed screen shows it where it was); 0 when unknown.
	After int
}

// Chatter is a Session at a networked table, with its table chat: short
// public messages signed by their authors, kept out of the game's log.
type Chatter interface {
	// Chat sends text to every seat. It returns an error, and sends
	// nothing, when the text is empty, the seat writes too fast, or the
	// game bars it from writing now.
	Chat(text string) error
	// ChatLog returns the messages so far, in the order they came.
	ChatLog() []ChatLine
}

// Actor is a Session at a table of a game with secret night actions
// (ballots and checks: table.BodyActions).
type Actor interface {
	// Decide records the seat's target for power, one of the pending
	// decisions; once every decision has a target the seat posts its
	// actions. It returns an error, and changes nothing, when the table
	// does not ask this seat for that power now.
	Decide(power uint8, target engine.Seat) error
	// Sleep lets a seat without a decision post its actions now, rather
	// than by itself after the night's floor delay.
	Sleep() error
}

// NightFloor is the least time a person's seat without a power takes to
// post its night actions by itself: posting at once would tell the table
// it holds no power. A session draws each night's delay between
// NightFloor and twice it.
const NightFloor = 4 * time.Second

// Leaver is a Session at a table whose game lets a player leave for good
// while the others play on (games.Leaver: the seat is eliminated and its role
// shown).
type Leaver interface {
	// Leave asks to leave. The seat leaves at its next move (at once when
	// one is due); until then its night actions are chosen for it. It
	// returns an error, and changes nothing, when the seat cannot leave
	// (Snapshot.CanLeave is false).
	Leave() error
}

// AskedSince is when the seat's question shown at now was first asked:
// [Snapshot.MySince] when it is the seat's move and that is known (not
// after now), else now. A screen opens the seat's answer window from it
// (seatview.Controller.Offer).
func (s Snapshot) AskedSince(now time.Time) time.Time {
	if s.MyTurn && !s.MySince.IsZero() && !s.MySince.After(now) {
		return s.MySince
	}
	return now
}
