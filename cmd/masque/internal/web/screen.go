package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/seatview"
)

// screen is the play screen's state, the web's counterpart of the
// terminal screen's model: the last snapshot and its view, the choices
// on offer, the answer window and its automatic pass, the chat, and the
// pages following it.
type screen struct {
	sess    session.Session
	opts    Options
	log     *slog.Logger
	salt    [32]byte
	chatter session.Chatter

	mu   sync.Mutex
	snap session.Snapshot
	have bool
	tv   *seatview.Table
	// ctl is the seat's interaction, as every screen's: the choices on
	// offer (at snap.Entries) and their set (a night with two powers
	// asks twice at one entry, so an action names the set it chose
	// from), the answer window and its automatic pass, a play under
	// way, the seat's secret bits, leaving the game.
	ctl      seatview.Controller
	menu     []seatview.MenuPage // the choices as a menu's pages (seatview.MenuTree)
	status   string
	chat     []session.ChatLine
	chatAt   []int
	closed   bool // the session's updates ended
	endNotes []string
	ended    bool // endNotes was asked for
	lastLine string
	rev      uint64
	page     []byte // the last page state, JSON
	// pageJSON is page by field and list element: a stream that asked
	// for patches is sent what changed.
	pageJSON pageJSON
	subs     map[chan struct{}]struct{}

	leave    chan struct{} // closed when the player leaves from the page
	leaveOne sync.Once
	done     chan struct{} // closed when the screen stops
	doneOne  sync.Once
	poke     chan struct{} // something changed: rebuild the page
}

func newScreen(sess session.Session, opts Options, lg *slog.Logger) *screen {
	sc := &screen{sess: sess, opts: opts, log: lg, ctl: seatview.NewController(),
		subs: map[chan struct{}]struct{}{}, leave: make(chan struct{}), done: make(chan struct{}), poke: make(chan struct{}, 1)}
	if sl, ok := sess.(session.Sealer); ok {
		sc.salt = sl.SealSalt()
	} else if _, err := rand.Read(sc.salt[:]); err != nil {
		lg.Error("salt", "err", err)
	}
	sc.chatter, _ = sess.(session.Chatter)
	return sc
}

// outGrace is how long the screen goes on after the seat left the game,
// so that the page is told before its stream closes.
const outGrace = 500 * time.Millisecond

// stop ends the screen: the event streams close.
func (sc *screen) stop() { sc.doneOne.Do(func() { close(sc.done) }) }

// nudge asks run to rebuild the page.
func (sc *screen) nudge() {
	select {
	case sc.poke <- struct{}{}:
	default:
	}
}

// run follows the session until the screen stops: every update rebuilds
// the page, the clock passes when an answer window runs out.
func (sc *screen) run(ctx context.Context) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	updates := sc.sess.Updates()
	sc.refresh(time.Now())
	for {
		select {
		case <-ctx.Done():
			return
		case <-sc.done:
			return
		case _, ok := <-updates:
			if !ok {
				updates = nil
				sc.mu.Lock()
				sc.closed = true
				sc.mu.Unlock()
			}
			sc.refresh(time.Now())
		case <-sc.poke:
			sc.refresh(time.Now())
		case now := <-tick.C:
			// The page counts the clocks down itself; the screen passes
			// when an answer window runs out.
			sc.autoPass(now)
		}
	}
}

// refresh takes a snapshot of the session and rebuilds the page.
func (sc *screen) refresh(now time.Time) {
	snap := sc.sess.Snapshot()
	var chat []session.ChatLine
	if sc.chatter != nil {
		chat = sc.chatter.ChatLog()
	}
	sc.mu.Lock()
	sc.snap, sc.have = snap, true
	if sc.closed {
		sc.snap.Over = true
		if sc.snap.Verdict == "" && !sc.over() {
			sc.snap.Verdict = "the session ended"
		}
	}
	for i := len(sc.chat); i < len(chat); i++ {
		sc.chat = append(sc.chat, chat[i])
		sc.chatAt = append(sc.chatAt, len(sc.snap.Log))
	}
	sc.tv = sc.buildView()
	if sc.snap.Leaving {
		sc.ctl.SetLeaving()
	}
	if sc.snap.Retired && sc.ctl.Leaving() {
		// Out of the game, and every seat holds the entry with the
		// seat's card key: the others play on without it. The page is
		// told first (pageState.Out), then the screen stops.
		time.AfterFunc(outGrace, func() { sc.leaveOne.Do(func() { close(sc.leave) }) })
	}
	if sc.ctl.Offer(sc.question(), sc.snap.Entries, sc.snap.AskedSince(now), sc.opts.ChallengeWindow) {
		sc.menu = sc.ctl.Tree(menuKeys)
	}
	notesFn := sc.opts.EndNotes
	askNotes := sc.over() && !sc.ended && notesFn != nil
	if askNotes {
		sc.ended = true
	}
	sc.mu.Unlock()
	if askNotes {
		notes := notesFn()
		sc.mu.Lock()
		sc.endNotes = notes
		sc.mu.Unlock()
	}
	sc.publish(now)
}

// buildView is the seat's view of the last snapshot, or nil before the
// deal. sc.mu is held.
func (sc *screen) buildView() *seatview.Table {
	if sc.snap.Rules == nil {
		return nil
	}
	mine := sc.ctl.Swaps()
	bits := make(map[uint64][]bool, len(sc.snap.SwapBits)+len(mine))
	for pos, bit := range mine {
		bits[pos] = []bool{bit}
	}
	for pos, b := range sc.snap.SwapBits {
		bits[pos] = b
	}
	in := sc.snap.Input()
	in.SwapBits, in.Salt = bits, sc.salt
	t, ok := seatview.Build(sc.snap.Viewer, in)
	if !ok {
		return nil
	}
	return &t
}

// question is the question the seat must answer now, or nil. sc.mu is
// held.
func (sc *screen) question() *seatview.Question {
	if !sc.snap.MyTurn || sc.tv == nil {
		return nil
	}
	return sc.tv.Question
}

// over reports whether the game is over. sc.mu is held.
func (sc *screen) over() bool { return sc.snap.Over || sc.tv != nil && sc.tv.Over }

// autoPass passes when the answer window ran out, as the terminal does.
func (sc *screen) autoPass(now time.Time) {
	sc.mu.Lock()
	if !sc.snap.MyTurn {
		sc.mu.Unlock()
		return
	}
	a, ok := sc.ctl.Tick(now)
	if ok {
		sc.status = "time is up: you pass"
	}
	sc.mu.Unlock()
	if ok {
		sc.play(a)
	}
}

// play runs a, an action of the seat's controller, on the session (a
// move, or a secret night choice: session.Actor). The log file is not
// secret: of a night choice it records that one was made, never what (a
// target, or sleep: that alone tells a civilian from a power holder),
// nor why one was refused.
func (sc *screen) play(a seatview.Action) {
	night := a.Play.Night != nil
	if night {
		sc.log.Info("night choice")
	} else {
		sc.log.Info("submit", "kind", a.Play.Move.Kind, "args", a.Play.Move.Args, "bits", len(a.Play.Bits))
	}
	err := a.Run(sc.sess)
	sc.mu.Lock()
	sc.ctl.Done(a, err)
	switch {
	case err != nil && night:
		sc.status = "refused: " + err.Error()
		sc.log.Warn("night choice refused")
	case err != nil:
		sc.status = "refused: " + err.Error()
		sc.log.Warn("move refused", "err", err)
	case !a.Auto:
		sc.status = ""
	}
	sc.mu.Unlock()
	sc.nudge()
}

// action is what the page posts: a choice (by its index among the
// choices offered at entry At, with the answer to its confirmation), a
// pass, a chat message, or leaving.
type action struct {
	Op string `json:"op"` // "play", "pass", "chat", "leave", "leave-game"
	At int    `json:"at"` // the entry count the choices were offered at
	// Ask is the set of choices chosen from (pageState.Ask), when the
	// page says it: a choice from an earlier set is refused.
	Ask    uint64 `json:"ask,omitempty"`
	Choice int    `json:"choice"` // for "play"
	// Answer is the answer to the choice's confirmation: "yes" or "no"
	// ("no" plays a secret choice pretended; for any other, it is not
	// played). "" for a choice that asks nothing.
	Answer string `json:"answer"`
	Text   string `json:"text"` // for "chat"
}

// maxAction is the largest action body accepted.
const maxAction = 4 << 10

// errStale says the page offered a choice the table has moved past.
var errStale = errors.New("the table moved on: choose again")

// serveAct plays an action from the page.
func (sc *screen) serveAct(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		// A form post from elsewhere cannot send this type without a
		// preflight, which is refused.
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAction+1))
	if err != nil || len(body) > maxAction {
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		return
	}
	var a action
	if err := json.Unmarshal(body, &a); err != nil {
		http.Error(w, "bad action", http.StatusBadRequest)
		return
	}
	if err := sc.act(a); err != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusConflict)
		io.WriteString(w, err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// act plays a on the session.
func (sc *screen) act(a action) error {
	switch a.Op {
	case "leave":
		sc.leaveOne.Do(func() { close(sc.leave) })
		return nil
	case "leave-game":
		sc.mu.Lock()
		leave, err := sc.ctl.Leave(sc.sess)
		sc.mu.Unlock()
		if err != nil {
			return err
		}
		if err := leave(); err != nil {
			sc.mu.Lock()
			sc.ctl.LeaveRefused()
			sc.mu.Unlock()
			return err
		}
		sc.nudge()
		return nil
	case "chat":
		if sc.chatter == nil {
			return errors.New("this table has no chat")
		}
		text := strings.TrimSpace(a.Text)
		if text == "" {
			return nil
		}
		sc.mu.Lock()
		gate, gated := sc.snap.Rules.(engine.ChatGate)
		barred := gated && !gate.MayChat(engine.Seat(sc.snap.Seat))
		sc.mu.Unlock()
		if barred {
			return errors.New("you may read the table chat but not write in it now")
		}
		err := sc.chatter.Chat(text)
		sc.mu.Lock()
		if err != nil {
			sc.status = "chat: " + err.Error()
		} else if strings.HasPrefix(sc.status, "chat: ") {
			sc.status = ""
		}
		sc.mu.Unlock()
		sc.nudge()
		if err != nil {
			return fmt.Errorf("chat: %w", err)
		}
		return nil
	case "play", "pass":
	default:
		return fmt.Errorf("unknown action %q", a.Op)
	}
	sc.mu.Lock()
	if sc.ctl.Busy() || !sc.snap.MyTurn || sc.ctl.Stale(a.At, a.Ask) {
		sc.mu.Unlock()
		return errStale
	}
	var p seatview.Action
	var err error
	if a.Op == "pass" {
		var ok bool
		if p, ok = sc.ctl.Pass(); !ok {
			err = errStale
		}
	} else if a.Choice < 0 || a.Choice >= len(sc.ctl.Choices()) {
		err = errStale
	} else {
		p, err = sc.ctl.Choose(a.Choice, a.Answer)
	}
	sc.mu.Unlock()
	if err != nil || p.Play.Skip {
		return err // answered no: nothing is played
	}
	sc.nudge()
	sc.play(p)
	return nil
}

// patch is what changed in the page state since the last one a stream
// sent (an event named "patch"): the top-level fields set anew, those
// gone, and, for a list that was a list before (the seats, the log), its
// new length and the elements that changed. A long game's log grows by a
// few lines an update; its help and most seats do not change.
type patch struct {
	Set map[string]json.RawMessage `json:"set,omitempty"`
	Del []string                   `json:"del,omitempty"`
	Arr map[string]listPatch       `json:"arr,omitempty"`
}

// listPatch is a list's new length and its changed elements by index.
type listPatch struct {
	N  int                        `json:"n"`
	At map[string]json.RawMessage `json:"at,omitempty"`
}

// pageJSON is a page state as JSON: whole, by top-level field, and its
// lists by element.
type pageJSON struct {
	whole  []byte
	fields map[string]json.RawMessage
	lists  map[string][]json.RawMessage
}

func newPageJSON(b []byte) pageJSON {
	pj := pageJSON{whole: b, lists: map[string][]json.RawMessage{}}
	if err := json.Unmarshal(b, &pj.fields); err != nil {
		pj.fields = nil
	}
	for k, v := range pj.fields {
		var l []json.RawMessage
		if len(v) > 0 && v[0] == '[' && json.Unmarshal(v, &l) == nil {
			pj.lists[k] = l
		}
	}
	return pj
}

// diff is the patch from prev to cur.
func diff(prev, cur pageJSON) patch {
	p := patch{Set: map[string]json.RawMessage{}, Arr: map[string]listPatch{}}
	for k, v := range cur.fields {
		old, ok := prev.fields[k]
		if ok && string(old) == string(v) {
			continue
		}
		pl, wasList := prev.lists[k]
		cl, isList := cur.lists[k]
		if !ok || !wasList || !isList {
			p.Set[k] = v
			continue
		}
		lp := listPatch{N: len(cl), At: map[string]json.RawMessage{}}
		for i, e := range cl {
			if i >= len(pl) || string(pl[i]) != string(e) {
				lp.At[strconv.Itoa(i)] = e
			}
		}
		p.Arr[k] = lp
	}
	for k := range prev.fields {
		if _, ok := cur.fields[k]; !ok {
			p.Del = append(p.Del, k)
		}
	}
	return p
}

// serveEvents streams the page state as server-sent events: the current
// state at once, then every change: whole, or, for a stream asked with
// "?patch=1" (the page's own), as patches after the first.
func (sc *screen) serveEvents(w http.ResponseWriter, r *http.Request) {
	patches := r.URL.Query().Get("patch") == "1"
	fl, ok := w.(http.Flusher)
	if !ok {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	ch := make(chan struct{}, 1)
	sc.mu.Lock()
	sc.subs[ch] = struct{}{}
	sc.mu.Unlock()
	defer func() {
		sc.mu.Lock()
		delete(sc.subs, ch)
		sc.mu.Unlock()
	}()
	var sent uint64
	var prev *pageJSON
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		sc.mu.Lock()
		page, rev, cur := sc.page, sc.rev, sc.pageJSON
		sc.mu.Unlock()
		if rev != sent {
			sent = rev
			var err error
			if !patches || prev == nil || prev.fields == nil || cur.fields == nil {
				_, err = fmt.Fprintf(w, "id: %d\ndata: %s\n\n", rev, page)
			} else {
				var b []byte
				if b, err = json.Marshal(diff(*prev, cur)); err == nil {
					_, err = fmt.Fprintf(w, "event: patch\nid: %d\ndata: %s\n\n", rev, b)
				}
			}
			if err != nil {
				return
			}
			prev = &cur
			fl.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-sc.done:
			return
		case <-ping.C:
			if _, err := io.WriteString(w, ": ping\n\n"); err != nil {
				return
			}
			fl.Flush()
		case <-ch:
		}
	}
}

// publish builds the page state and wakes the event streams when it
// changed.
func (sc *screen) publish(now time.Time) {
	sc.mu.Lock()
	st := sc.pageState(now)
	b, err := json.Marshal(st)
	if err != nil {
		sc.mu.Unlock()
		sc.log.Error("page state", "err", err)
		return
	}
	if string(b) == string(sc.page) {
		sc.mu.Unlock()
		return
	}
	pj := newPageJSON(b)
	sc.rev++
	sc.page, sc.pageJSON = b, pj
	for ch := range sc.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	line := ""
	if sc.opts.Status != nil && st.Line != sc.lastLine {
		sc.lastLine, line = st.Line, st.Line
	}
	sc.mu.Unlock()
	if line != "" {
		sc.opts.Status(line) // outside the lock: it may block on a terminal
	}
}
