package seatview

import (
	"errors"
	"slices"
	"time"

	"github.com/masque-games/masque/engine"
)

// Session is what a [Controller] plays on: the session of the seat it
// controls.
type Session interface {
	// Submit plays mv with the secret bits of the hidden swaps it causes.
	Submit(mv engine.Move, bits []bool) error
}

// NightSession is a seat that takes secret night choices (Mafia): a target
// for one of its powers, or sleep.
type NightSession interface {
	Decide(power uint8, target engine.Seat) error
	Sleep() error
}

// LeavingSession is a seat whose game lets it leave for good mid-game.
type LeavingSession interface {
	Leave() error
}

// Action is a play the controller decided on: the screen runs it on its
// seat ([Action.Run], where it makes its session calls: a goroutine, a
// command) and reports how it went ([Controller.Done]).
type Action struct {
	Play Play
	// At is the entry count the choice was offered at.
	At int
	// Auto: the controller played it for the seat, its answer window
	// having run out.
	Auto bool
}

// Run plays a on s: a night choice through s's [NightSession], a move
// through Submit.
func (a Action) Run(s Session) error {
	n := a.Play.Night
	if n == nil {
		return s.Submit(a.Play.Move, a.Play.Bits)
	}
	ns, ok := s.(NightSession)
	switch {
	case !ok:
		return errors.New("this table takes no night choices")
	case n.Sleep:
		return ns.Sleep()
	}
	return ns.Decide(n.Power, n.Target)
}

// ErrNoLeaving says the seat's table has no leaving mid-game.
var ErrNoLeaving = errors.New("this table has no leaving mid-game")

// Controller is one seat's interaction with its table, the same on every
// screen (the terminal, the web page, a phone): the choices on offer and
// the step of their menu the seat is at ([Menu]), a choice waiting for
// its confirmation, the answer window and its one automatic pass, a play
// under way, the seat's own secret swap bits, and leaving the game. A
// screen feeds it the question of each view ([Controller.Offer]) and the
// player's keys or taps, runs the [Action]s it returns, and draws it.
//
// Its zero value is not ready: use [NewController]. It is not safe for
// concurrent use; value copies share only the record of the seat's
// secret bits ([Controller.Swaps]).
type Controller struct {
	choices []Choice
	at      int    // the entry count the choices are offered at
	asked   uint64 // numbers the sets of choices offered
	path    []string
	items   []MenuItem
	asking  int // the choice waiting for its confirmation, or -1
	window  AnswerWindow
	busy    bool
	leaving bool
	swaps   map[uint64]bool // the seat's secret bits, by the entry of its move
}

// NewController returns a controller with nothing on offer.
func NewController() Controller {
	return Controller{asking: -1, window: NewAnswerWindow(), swaps: map[uint64]bool{}}
}

// Offer takes the question q the seat must answer now (nil: none) at
// entry count at, asked since (when the table began waiting for the
// seat's answer, kept across a restart; now when unknown), whose answer
// window lasts d (0: no limit) from since. A new set of choices (another entry, or other choices: a night
// with two powers asks twice at one entry) opens its menu at the top and
// drops a confirmation asked in the last; the same set again keeps the
// seat where it is. It reports whether the set is new.
func (c *Controller) Offer(q *Question, at int, since time.Time, d time.Duration) bool {
	var cs []Choice
	if q != nil {
		cs = q.Choices
	}
	fresh := at != c.at || !sameChoices(cs, c.choices)
	if fresh {
		if c.choices != nil || cs != nil {
			c.asked++
		}
		c.choices, c.at, c.asking = cs, at, -1
		c.openMenu(nil)
	}
	c.window.Update(q, at, since, d)
	return fresh
}

// sameChoices reports whether a and b offer the same choices, in words.
func sameChoices(a, b []Choice) bool {
	return (a == nil) == (b == nil) && slices.EqualFunc(a, b, func(x, y Choice) bool {
		return x.Words == y.Words && x.Secret == y.Secret && x.Confirm == y.Confirm && x.Yes == y.Yes && x.No == y.No && x.Pass == y.Pass &&
			slices.Equal(x.Steps, y.Steps) && (x.Night == nil) == (y.Night == nil)
	})
}

// openMenu opens the menu at path.
func (c *Controller) openMenu(path []string) {
	c.items, c.path = Menu(c.choices, path)
}

// Choices are the choices on offer; Ask numbers their set (a screen that
// sends a choice away names it, see [Controller.Stale]).
func (c *Controller) Choices() []Choice { return c.choices }

// Ask numbers the set of choices on offer.
func (c *Controller) Ask() uint64 { return c.asked }

// Stale reports whether a choice made on the set ask offered at entry
// count at (ask 0: unnamed) is one the table moved past.
func (c *Controller) Stale(at int, ask uint64) bool {
	return at != c.at || ask != 0 && ask != c.asked
}

// Menu is the menu step the seat is at: its lines and its path.
func (c *Controller) Menu() ([]MenuItem, []string) { return c.items, c.path }

// Tree is the whole menu as pages, for a screen that walks it on its own
// ([MenuTree]).
func (c *Controller) Tree(keys string) []MenuPage { return MenuTree(c.choices, keys) }

// Asking is the choice waiting for its confirmation, or nil.
func (c *Controller) Asking() *Choice {
	if c.asking < 0 || c.asking >= len(c.choices) {
		return nil
	}
	ch := c.choices[c.asking]
	return &ch
}

// Busy reports whether a play is under way (between an [Action] and its
// [Controller.Done]).
func (c *Controller) Busy() bool { return c.busy }

// Window returns when the seat's open answer window runs out, or
// ok=false when none is open.
func (c *Controller) Window() (deadline time.Time, ok bool) { return c.window.Deadline() }

// Swaps are the seat's own secret bits, by the entry of the move they
// went with (for [Input.SwapBits]); the caller does not change them.
func (c *Controller) Swaps() map[uint64]bool { return c.swaps }

// Pick takes line j of the menu step: a step opens the choices under
// it; a choice that asks a confirmation waits for it
// ([Controller.Answer]); any other choice is played. It returns the
// action to run, ok=false when there is none (yet).
func (c *Controller) Pick(j int) (Action, bool) {
	if c.busy || j < 0 || j >= len(c.items) {
		return Action{}, false
	}
	it := c.items[j]
	if it.Choice < 0 {
		c.openMenu(slices.Concat(c.path, []string{it.Step}))
		return Action{}, false
	}
	if ch := c.choices[it.Choice]; ch.Secret || ch.Confirm != "" {
		c.asking = it.Choice
		return Action{}, false
	}
	a, err := c.Choose(it.Choice, "")
	return a, err == nil && !a.Play.Skip
}

// Answer answers the confirmation waiting ([Yes], [No]; "" goes back to
// the menu). A secret choice's answer is its secret bit; another
// choice's no plays nothing.
func (c *Controller) Answer(answer string) (Action, bool) {
	i := c.asking
	if i < 0 {
		return Action{}, false
	}
	c.asking = -1
	if answer == "" {
		return Action{}, false
	}
	a, err := c.Choose(i, answer)
	return a, err == nil && !a.Play.Skip
}

// Choose plays choice i of those on offer with answer, the answer to its
// confirmation ([Choice.Play]), for a screen that asked it itself. An
// action whose Play is Skip plays nothing.
func (c *Controller) Choose(i int, answer string) (Action, error) {
	if c.busy {
		return Action{}, errors.New("a move is being played")
	}
	if i < 0 || i >= len(c.choices) {
		return Action{}, errors.New("no such choice on offer")
	}
	p, err := c.choices[i].Play(answer)
	if err != nil || p.Skip {
		return Action{Play: p, At: c.at}, err
	}
	c.asking = -1
	c.busy = true
	return Action{Play: p, At: c.at}, nil
}

// Back goes back one step in the menu (past the steps taken for the
// seat) and returns the step it left, on which a screen puts its cursor;
// ok=false at the top.
func (c *Controller) Back() (from string, ok bool) {
	for n := len(c.path) - 1; n >= 0; n-- {
		if _, p := Menu(c.choices, c.path[:n]); len(p) <= n {
			from = c.path[n]
			c.openMenu(slices.Clone(c.path[:n]))
			return from, true
		}
	}
	return "", false
}

// Pass plays the choice that lets the decision go ([PassIndex]), asking
// nothing; ok=false when there is none.
func (c *Controller) Pass() (Action, bool) {
	i := PassIndex(c.choices)
	if i < 0 || c.busy {
		return Action{}, false
	}
	if c.choices[i].Secret {
		return Action{}, false // a pass never hides a swap; if one did, it needs its answer
	}
	a, err := c.Choose(i, Yes)
	return a, err == nil
}

// Tick is the clock: when the seat's answer window ran out at now, it
// passes for the seat, once in the window.
func (c *Controller) Tick(now time.Time) (Action, bool) {
	if c.busy || !c.window.Due(now) {
		return Action{}, false
	}
	a, ok := c.Pass()
	if !ok {
		return Action{}, false
	}
	c.window.Passed()
	a.Auto = true
	return a, true
}

// Done reports how the play of a went: err is the seat's refusal, or
// nil; a secret bit played is kept ([Controller.Swaps]).
func (c *Controller) Done(a Action, err error) {
	c.busy = false
	if err == nil && len(a.Play.Bits) > 0 {
		if c.swaps == nil {
			c.swaps = map[uint64]bool{}
		}
		c.swaps[uint64(a.At)] = a.Play.Bits[0]
	}
}

// Leave asks to leave the game for good: it returns the call to run on
// the seat (where the screen makes its session calls), or
// [ErrNoLeaving] when the seat's game has none. [Controller.Leaving] is
// set until the call is refused ([Controller.LeaveRefused]).
func (c *Controller) Leave(s Session) (func() error, error) {
	lv, ok := s.(LeavingSession)
	if !ok {
		return nil, ErrNoLeaving
	}
	c.leaving = true
	return lv.Leave, nil
}

// LeaveRefused records that the seat's request to leave was refused.
func (c *Controller) LeaveRefused() { c.leaving = false }

// SetLeaving records that the seat is leaving (a restarted seat's
// session says so).
func (c *Controller) SetLeaving() { c.leaving = true }

// Leaving reports whether the seat asked to leave the game.
func (c *Controller) Leaving() bool { return c.leaving }
