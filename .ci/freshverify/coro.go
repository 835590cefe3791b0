package main

type ymsg struct {
	kind string // move, facts, rule, over
	seat int
	id   int
	rule string
}
type facts struct {
	kinds []int
	coin  []byte
}

type Coro struct {
	resume chan any
	yield  chan ymsg
	buf    []Effect
	state  ymsg
	nextID int
	body   func(c *Coro)
}

type ruleFail struct{ id string }

func newCoro(body func(c *Coro)) *Coro {
	return &Coro{resume: make(chan any), yield: make(chan ymsg), body: body}
}

func (c *Coro) start() {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				if rf, ok := r.(ruleFail); ok {
					c.yield <- ymsg{kind: "rule", rule: rf.id}
					return
				}
				panic(r)
			}
		}()
		c.body(c)
		c.yield <- ymsg{kind: "over"}
	}()
	c.state = <-c.yield
}

// inside coroutine
func (c *Coro) emit(e ...Effect) { c.buf = append(c.buf, e...) }
func (c *Coro) need(e Effect) facts {
	c.nextID++
	e.ID = c.nextID
	c.emit(e)
	c.yield <- ymsg{kind: "facts", id: e.ID}
	r := <-c.resume
	return r.(facts)
}
func (c *Coro) ask(seat int) *Move {
	c.yield <- ymsg{kind: "move", seat: seat}
	return (<-c.resume).(*Move)
}
func fail(id string) { panic(ruleFail{id}) }

// outside
func (c *Coro) Opening() []Effect {
	c.start()
	b := c.buf
	c.buf = nil
	return b
}
func (c *Coro) Due() (int, bool) {
	switch c.state.kind {
	case "move":
		return c.state.seat, false
	case "over":
		return -1, true
	}
	return -1, false
}
func (c *Coro) Move(seat int, m *Move) ([]Effect, string) {
	c.resume <- m
	c.state = <-c.yield
	if c.state.kind == "rule" {
		return nil, c.state.rule
	}
	b := c.buf
	c.buf = nil
	return b, ""
}
func (c *Coro) Facts(req *Request, kinds []int, coin []byte) []Effect {
	if c.state.kind == "facts" && req.ID == c.state.id {
		c.resume <- facts{kinds, coin}
		c.state = <-c.yield
		b := c.buf
		c.buf = nil
		return b
	}
	return nil
}
