package phoneseat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/masque-games/masque/p2p/roomcore"
)

// Conn is the phone's WebSocket to the machine that served its page: text
// messages carry [Control] messages, binary ones forward packets.
type Conn interface {
	Read(ctx context.Context) (msg []byte, binary bool, err error)
	Write(ctx context.Context, msg []byte, binary bool) error
}

// Store keeps the phone's records (IndexedDB): Put returns once they are
// durable.
type Store interface {
	Put(puts []Put) error
}

// Driver runs a [Phone] over a connection: one goroutine steps the phone
// (the connection's messages, the clock, the core's timers, the
// player's taps), stores each step's records before its messages leave,
// and publishes the page's state after each.
type Driver struct {
	p     *Phone
	conn  Conn
	store Store
	taps  chan func(now time.Time) (Effects, error)

	mu      sync.Mutex
	page    []byte
	onPage  func(page []byte)
	lastErr error
}

// NewDriver drives p over conn, storing in store; onPage, if set, is
// given the page's state (JSON of [Page]) after every step, from the
// driver's goroutine (it must not block).
func NewDriver(p *Phone, conn Conn, store Store, onPage func([]byte)) *Driver {
	return &Driver{p: p, conn: conn, store: store, taps: make(chan func(time.Time) (Effects, error), 16), onPage: onPage}
}

// Page is the page's state (JSON of [Page]) after the last step.
func (d *Driver) Page() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.page
}

// Pick, Answer and Back are the player's taps, stepped on the driver's
// goroutine.
func (d *Driver) Pick(j int) { d.tap(func(now time.Time) (Effects, error) { return d.p.Pick(now, j) }) }

// Answer answers the confirmation asked (seatview.Yes or No).
func (d *Driver) Answer(a string) {
	d.tap(func(now time.Time) (Effects, error) { return d.p.Answer(now, a) })
}

// Chat writes text in the table chat; an error (a seat barred, writing
// too fast) is shown on the page.
func (d *Driver) Chat(text string) {
	d.tap(func(now time.Time) (Effects, error) {
		// A refusal is the chat's to show (Page.ChatErr), not a fault.
		eff, _ := d.p.Chat(now, text)
		return eff, nil
	})
}

// Leave asks to leave the game for good (Phone.Leave); a refusal is
// shown on the page.
func (d *Driver) Leave() {
	d.tap(func(now time.Time) (Effects, error) { return d.p.Leave(now) })
}

// Back goes back one step of the menu.
func (d *Driver) Back() {
	d.tap(func(time.Time) (Effects, error) { d.p.Back(); return Effects{}, nil })
}

func (d *Driver) tap(f func(time.Time) (Effects, error)) {
	select {
	case d.taps <- f:
	default: // taps faster than the seat steps: dropped
	}
}

type inMsg struct {
	b   []byte
	bin bool
	err error
}

// Run steps the phone until the connection fails, the table ends here,
// or ctx ends. A failed store stops it before anything that depends on
// the records leaves.
func (d *Driver) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	in := make(chan inMsg, 64)
	go func() {
		for {
			b, bin, err := d.conn.Read(ctx)
			select {
			case in <- inMsg{b, bin, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	timers := make(chan roomcore.Timer, 64)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	d.publish()
	for {
		var eff Effects
		var err error
		now := time.Now()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-in:
			if m.err != nil {
				d.publish()
				return m.err
			}
			if m.bin {
				eff = d.p.OnPacket(now, m.b)
			} else {
				var c Control
				if err = json.Unmarshal(m.b, &c); err == nil {
					eff, err = d.p.OnControl(now, c)
				}
			}
		case t := <-timers:
			eff = d.p.Timer(now, t)
		case <-tick.C:
			eff = d.p.Tick(now)
		case f := <-d.taps:
			eff, err = f(now)
		}
		if err != nil {
			d.mu.Lock()
			d.lastErr = err
			d.mu.Unlock()
		}
		if err := d.apply(ctx, eff, timers); err != nil {
			d.publish()
			return err
		}
		d.publish()
		if out, end := d.p.Outcome(); out != nil || end != nil {
			// The game is over here: the last frames are out; keep
			// answering the others' sync requests briefly, as a seat's
			// process does before it exits.
			linger := time.After(3 * time.Second)
			for {
				select {
				case m := <-in:
					if m.err != nil {
						return end
					}
				case <-linger:
					return end
				case <-ctx.Done():
					return end
				}
			}
		}
	}
}

// apply stores, then sends, then arms.
func (d *Driver) apply(ctx context.Context, e Effects, timers chan roomcore.Timer) error {
	if len(e.Puts) > 0 {
		if err := d.store.Put(e.Puts); err != nil {
			return fmt.Errorf("the phone's storage: %w (nothing that depends on it was sent)", err)
		}
	}
	for _, c := range e.Control {
		raw, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := d.conn.Write(ctx, raw, false); err != nil {
			return err
		}
	}
	for _, p := range e.Packets {
		if err := d.conn.Write(ctx, p, true); err != nil {
			return err
		}
	}
	for _, t := range e.Timers {
		time.AfterFunc(t.After, func() {
			select {
			case timers <- t:
			default:
			}
		})
	}
	return nil
}

func (d *Driver) publish() {
	pg := d.p.View()
	d.mu.Lock()
	if d.lastErr != nil && !errors.Is(d.lastErr, context.Canceled) {
		pg.Faults = append(pg.Faults, d.lastErr.Error())
	}
	raw, _ := json.Marshal(pg)
	d.page = raw
	on := d.onPage
	d.mu.Unlock()
	if on != nil {
		on(raw)
	}
}
