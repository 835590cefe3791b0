// Package spectate is a [session.Session] for a spectator: a read-only
// peer that holds no seat and no key ('masque watch'), so that a screen
// (the web screen) draws the table exactly as an auditor sees it: the
// public rules state, the public log, the hidden swaps every move caused
// (never whether they were real), the cards every seat's published key
// opens at the end, and whom the table waits for. It is fed the table
// its owner checks entry by entry and keeps its own copy of what it
// shows, so a screen may read it from another goroutine. Its seat is
// -1: no seat's knowledge is in it, and it plays nothing.
package spectate

import (
	"errors"
	"slices"
	"sync"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games"
	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/engine/table"
)

// Seat is a spectator's seat in its snapshots: nobody's.
const Seat = -1

// ErrSpectator is what a spectator's Submit returns.
var ErrSpectator = errors.New("a spectator cannot play")

// Session follows a table for a spectator.
type Session struct {
	game games.Game
	narr seatview.Narrator // the game's narration, speaking to nobody

	mu      sync.Mutex
	started bool
	names   []string
	rules   engine.State
	opened  map[engine.Slot]engine.Card
	lines   []string
	record  any // the narrator's public record (seatview.Narrator.Record)
	entries int
	waiting *session.Wait
	over    bool
	night   bool // the table waits for night actions (session.Snapshot.TableNight)
	verdict string
	closed  bool
	updates chan struct{}
}

// New returns a spectator's session for a table of game g.
func New(g games.Game) *Session {
	return &Session{game: g, narr: g.Viewer().Narrator(Seat), updates: make(chan struct{}, 1)}
}

// Follow records entry e, which t (the spectator's checked copy of the
// table) has just applied; the first call may come before any entry
// (e nil), once the roster is known. Every call comes from one goroutine.
func (s *Session) Follow(t *table.Table, e *ledger.Entry) error {
	var lines []string
	if !s.started {
		lines = append(lines, s.narr.Start(t)...)
	}
	if e != nil {
		told, err := s.narr.Follow(t, e)
		if err != nil {
			return err
		}
		lines = append(lines, told.Lines...)
	}
	names := make([]string, 0, len(t.Roster().Seats))
	for _, st := range t.Roster().Seats {
		names = append(names, st.Name)
	}
	seat, kind, more := t.Expect()
	var w *session.Wait
	if more && int(seat) < len(names) {
		w = &session.Wait{Seat: int(seat), Name: names[seat]}
	}
	opened := t.Opened()
	record := s.narr.Record()
	rules := t.Rules()
	over := !more || rules != nil && rules.Next().Kind == engine.NeedNothing

	s.mu.Lock()
	s.started = true
	s.names, s.rules, s.opened, s.waiting, s.over = names, rules, opened, w, over
	s.night = more && kind == table.BodyActions
	s.lines = append(s.lines, lines...)
	if record != nil {
		s.record = record
	}
	s.entries = int(t.Pos())
	s.mu.Unlock()
	s.notify()
	return nil
}

// End says the spectator stopped following (verdict: the table's, or
// why it stopped; "" when the game ended): the updates end.
func (s *Session) End(verdict string) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.verdict = verdict
	s.closed = true
	close(s.updates)
	s.mu.Unlock()
}

func (s *Session) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.updates <- struct{}{}:
	default:
	}
}

// Snapshot implements [session.Session]: what an auditor sees now.
func (s *Session) Snapshot() session.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := session.Snapshot{Seat: Seat, Names: slices.Clone(s.names), Rules: s.rules, Opened: s.opened,
		Viewer: s.game.Viewer(), Record: s.record,
		Log: slices.Clone(s.lines), Over: s.over || s.closed, Verdict: s.verdict, Entries: s.entries, TableNight: s.night}
	if s.waiting != nil && !snap.Over {
		w := *s.waiting
		snap.Waiting = &w
	}
	return snap
}

// Updates implements [session.Session]; it is closed by [Session.End].
func (s *Session) Updates() <-chan struct{} { return s.updates }

// Submit implements [session.Session]: a spectator plays nothing.
func (s *Session) Submit(engine.Move, []bool) error { return ErrSpectator }

// Close implements [session.Session]; the owner of the table ends the
// watch ([Session.End]).
func (s *Session) Close() error { return nil }
