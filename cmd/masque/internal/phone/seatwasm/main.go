//go:build js && wasm

// Command seatwasm is the phone's seat (cmd/masque/internal/phoneseat)
// compiled to WebAssembly: the page's JavaScript draws what it
// publishes and forwards the player's taps; the WebSocket is the
// browser's own, the storage IndexedDB (through the page's helpers).
package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
)

func main() {
	a := &app{}
	js.Global().Set("masqueSeat", js.ValueOf(map[string]any{
		"open":       js.FuncOf(a.open),
		"join":       js.FuncOf(a.join),
		"pick":       js.FuncOf(func(_ js.Value, args []js.Value) any { a.driver().Pick(args[0].Int()); return nil }),
		"answer":     js.FuncOf(func(_ js.Value, args []js.Value) any { a.driver().Answer(args[0].String()); return nil }),
		"back":       js.FuncOf(func(js.Value, []js.Value) any { a.driver().Back(); return nil }),
		"leave":      js.FuncOf(func(js.Value, []js.Value) any { a.driver().Leave(); return nil }),
		"chat":       js.FuncOf(func(_ js.Value, args []js.Value) any { a.driver().Chat(args[0].String()); return nil }),
		"transcript": js.FuncOf(a.transcript),
	}))
	js.Global().Call("masqueReady")
	select {}
}

// opts are the table's settings the phone plays by.
var opts = phoneseat.Options{Timeout: 2 * time.Minute}

type app struct {
	mu    sync.Mutex
	token string
	code  string // the table's join code in the URL's fragment
	db    string
	phone *phoneseat.Phone
	d     *phoneseat.Driver
}

// nopDriver takes taps before the seat runs.
var nopDriver = phoneseat.NewDriver(nil, nil, nil, nil)

func (a *app) driver() *phoneseat.Driver {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.d == nil {
		return nopDriver
	}
	return a.d
}

// open(fragment): read the phone's storage for this table; a stored
// seat resumes at once, else the page asks the player's name (join).
func (a *app) open(_ js.Value, args []js.Value) any {
	frag := args[0].String()
	tok, code := frag, ""
	if i := strings.LastIndex(frag, "-"); i >= 0 {
		tok, code = frag[i+1:], frag[:i]
	}
	a.token, a.code, a.db = tok, code, "masque-seat-"+tok
	if code == "" {
		// The page loads no seat for such an address (linkProblem); a
		// seat without its table's code would sign no roster anyway.
		draw(fmt.Sprintf(`{"status":%q}`, phoneseat.ErrNoCode.Error()))
		return nil
	}
	go func() {
		kv, err := loadAll(a.db)
		if err != nil {
			draw(fmt.Sprintf(`{"status":%q}`, "this phone's storage: "+err.Error()))
			return
		}
		if kv["me"] == nil {
			js.Global().Call("masqueAskName")
			return
		}
		p, err := phoneseat.Restore(kv, opts)
		if err != nil {
			draw(fmt.Sprintf(`{"status":%q}`, "your saved seat: "+err.Error()))
			return
		}
		a.run(p)
	}()
	return nil
}

// join(name): a fresh seat for this player.
func (a *app) join(_ js.Value, args []js.Value) any {
	name := args[0].String()
	go func() {
		p, eff, err := phoneseat.New(name, opts)
		if err != nil {
			draw(fmt.Sprintf(`{"status":%q}`, err.Error()))
			return
		}
		if err := (idbStore{a.db}).Put(eff.Puts); err != nil {
			draw(fmt.Sprintf(`{"status":%q}`, "this phone's storage: "+err.Error()))
			return
		}
		a.run(p)
	}()
	return nil
}

// run drives the seat, connecting again whenever the connection drops
// before the game ended here.
func (a *app) run(p *phoneseat.Phone) {
	p.SetToken(a.token)
	p.SetCode(a.code)
	a.mu.Lock()
	a.phone = p
	a.mu.Unlock()
	for {
		c, err := dial()
		if err != nil {
			draw(fmt.Sprintf(`{"status":%q}`, "no connection to the table's machine; trying again"))
			time.Sleep(2 * time.Second)
			continue
		}
		d := phoneseat.NewDriver(p, c, idbStore{a.db}, func(page []byte) { draw(string(page)) })
		a.mu.Lock()
		a.d = d
		a.mu.Unlock()
		err = d.Run(context.Background())
		c.close()
		if out, end := p.Outcome(); out != nil || end != nil {
			return
		}
		_ = err
		time.Sleep(time.Second)
	}
}

func (a *app) transcript(js.Value, []js.Value) any {
	a.mu.Lock()
	p := a.phone
	a.mu.Unlock()
	if p == nil {
		return js.Null()
	}
	b, err := p.Transcript()
	if err != nil {
		return js.Null()
	}
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	return arr
}

func draw(page string) { js.Global().Call("masqueDraw", page) }

// await waits for a JavaScript promise.
func await(p js.Value) (js.Value, error) {
	ch := make(chan struct{})
	var v js.Value
	var err error
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) > 0 {
			v = args[0]
		}
		close(ch)
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		err = errors.New("failed")
		if len(args) > 0 {
			err = errors.New(args[0].Call("toString").String())
		}
		close(ch)
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	<-ch
	return v, err
}

// loadAll reads every record of the database (masqueIDB.getAll).
func loadAll(db string) (map[string][]byte, error) {
	v, err := await(js.Global().Get("masqueIDB").Call("getAll", db))
	if err != nil {
		return nil, err
	}
	keys, vals := v.Index(0), v.Index(1)
	kv := map[string][]byte{}
	for i := 0; i < keys.Length(); i++ {
		val := vals.Index(i)
		b := make([]byte, val.Get("length").Int())
		js.CopyBytesToGo(b, val)
		kv[keys.Index(i).String()] = b
	}
	return kv, nil
}

// idbStore is the phone's storage (masqueIDB.put: one transaction,
// resolved once durable).
type idbStore struct{ db string }

func (s idbStore) Put(puts []phoneseat.Put) error {
	keys := js.Global().Get("Array").New()
	vals := js.Global().Get("Array").New()
	for _, p := range puts {
		arr := js.Global().Get("Uint8Array").New(len(p.Value))
		js.CopyBytesToJS(arr, p.Value)
		keys.Call("push", p.Key)
		vals.Call("push", arr)
	}
	_, err := await(js.Global().Get("masqueIDB").Call("put", s.db, keys, vals))
	return err
}

// wsConn is the browser's WebSocket as a phoneseat.Conn.
type wsConn struct {
	ws   js.Value
	in   chan msg
	fns  []js.Func
	once sync.Once
	gone chan struct{}
}

type msg struct {
	b   []byte
	bin bool
	err error
}

func dial() (*wsConn, error) {
	loc := js.Global().Get("location")
	ws := js.Global().Get("WebSocket").New("ws://" + loc.Get("host").String() + "/ws")
	ws.Set("binaryType", "arraybuffer")
	c := &wsConn{ws: ws, in: make(chan msg, 1024), gone: make(chan struct{})}
	opened := make(chan error, 1)
	on := func(name string, f func(js.Value)) {
		fn := js.FuncOf(func(_ js.Value, args []js.Value) any { f(args[0]); return nil })
		c.fns = append(c.fns, fn)
		ws.Set(name, fn)
	}
	on("onopen", func(js.Value) { opened <- nil })
	on("onmessage", func(ev js.Value) {
		d := ev.Get("data")
		if d.Type() == js.TypeString {
			c.push(msg{b: []byte(d.String())})
			return
		}
		u := js.Global().Get("Uint8Array").New(d)
		b := make([]byte, u.Get("length").Int())
		js.CopyBytesToGo(b, u)
		c.push(msg{b: b, bin: true})
	})
	on("onclose", func(js.Value) {
		select {
		case opened <- errors.New("closed"):
		default:
		}
		c.once.Do(func() { close(c.gone) })
	})
	if err := <-opened; err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *wsConn) push(m msg) {
	select {
	case c.in <- m:
	default:
		// The seat is behind: dropped, as a network would; sync repairs.
	}
}

func (c *wsConn) Read(ctx context.Context) ([]byte, bool, error) {
	select {
	case m := <-c.in:
		return m.b, m.bin, m.err
	case <-c.gone:
		select {
		case m := <-c.in:
			return m.b, m.bin, m.err
		default:
		}
		return nil, false, errors.New("the connection to the table's machine closed")
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
}

func (c *wsConn) Write(_ context.Context, b []byte, bin bool) error {
	select {
	case <-c.gone:
		return errors.New("the connection to the table's machine closed")
	default:
	}
	if !bin {
		c.ws.Call("send", string(b))
		return nil
	}
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	c.ws.Call("send", arr)
	return nil
}

func (c *wsConn) close() {
	// Its handlers are not released: the browser may still call them
	// (onclose comes after close); one connection's few are kept.
	c.ws.Call("close")
}
