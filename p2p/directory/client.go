package directory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/masque-games/masque/p2p/lobby"
)

// RefusedError is a directory's answer other than OK.
type RefusedError struct {
	Relay   peer.ID
	Status  Status
	Message string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("directory of relay %s: %s: %s", e.Relay, e.Status, e.Message)
}

// requestTimeout bounds one request when the caller's context does not.
const requestTimeout = 10 * time.Second

// Do sends one request to the directory of relay (connecting to it if
// needed) and returns its response; a status other than OK is a
// *RefusedError.
func Do(ctx context.Context, h host.Host, relay peer.AddrInfo, q Request) (Response, error) {
	body, err := MarshalRequest(q)
	if err != nil {
		return Response{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	ctx = network.WithAllowLimitedConn(ctx, "masque directory")
	if len(relay.Addrs) > 0 {
		if err := h.Connect(ctx, relay); err != nil {
			return Response{}, fmt.Errorf("directory: connect to relay %s: %w", relay.ID, err)
		}
	}
	s, err := h.NewStream(ctx, relay.ID, Protocol)
	if err != nil {
		return Response{}, fmt.Errorf("directory: relay %s: open stream (does it run a masque relay with a directory?): %w", relay.ID, err)
	}
	defer s.Close()
	if d, ok := ctx.Deadline(); ok {
		_ = s.SetDeadline(d)
	}
	if err := writeFrame(s, body, 2); err != nil {
		s.Reset()
		return Response{}, fmt.Errorf("directory: relay %s: send: %w", relay.ID, err)
	}
	_ = s.CloseWrite()
	out, err := readFrame(s, 4, MaxResponse)
	if err != nil {
		s.Reset()
		return Response{}, fmt.Errorf("directory: relay %s: %w", relay.ID, err)
	}
	resp, err := UnmarshalResponse(out)
	if err != nil {
		return Response{}, fmt.Errorf("directory: relay %s: %w", relay.ID, err)
	}
	if resp.Status != StatusOK {
		return resp, &RefusedError{Relay: relay.ID, Status: resp.Status, Message: resp.Message}
	}
	return resp, nil
}

// List asks relay's directory for its open tables: all of them, or those
// with join code code. What it returns is untrusted (see the package
// documentation); entries whose code does not match are dropped.
func List(ctx context.Context, h host.Host, relay peer.AddrInfo, code string) ([]lobby.Table, error) {
	return list(ctx, h, relay, OpList, code)
}

// ListPlaying asks relay's directory for its tables in play (games under
// way, for spectators): all of them, or those with join code code. Like
// [List]'s, its answer is untrusted: a spectator checks the roster the
// table's creator sends, signed by every seat. A relay older than this
// operation answers with a [*RefusedError] (StatusBadRequest).
func ListPlaying(ctx context.Context, h host.Host, relay peer.AddrInfo, code string) ([]lobby.Table, error) {
	return list(ctx, h, relay, OpListPlaying, code)
}

func list(ctx context.Context, h host.Host, relay peer.AddrInfo, op int, code string) ([]lobby.Table, error) {
	resp, err := Do(ctx, h, relay, Request{Op: op, Code: code})
	if err != nil {
		return nil, err
	}
	want := ""
	if code != "" {
		want, _ = lobby.ParseCode(code)
	}
	var out []lobby.Table
	for _, e := range resp.Entries {
		if want != "" && e.Table.Code() != want {
			continue // the relay answered with another table
		}
		e.Table.Seen = time.Now()
		e.Table.Playing = op == OpListPlaying
		out = append(out, e.Table)
	}
	return out, nil
}

// Merge merges tables listed by several relays: one table per table id
// and creator, with the addresses of every listing (the seat count of
// the first). Different creators are kept apart, for the caller to see
// duplicates.
func Merge(lists ...[]lobby.Table) []lobby.Table {
	var out []lobby.Table
	for _, l := range lists {
		for _, t := range l {
			i := slices.IndexFunc(out, func(o lobby.Table) bool { return o.ID == t.ID && o.Peer == t.Peer })
			if i < 0 {
				t.Addrs = slices.Clone(t.Addrs)
				out = append(out, t)
				continue
			}
			for _, a := range t.Addrs {
				if !slices.ContainsFunc(out[i].Addrs, a.Equal) {
					out[i].Addrs = append(out[i].Addrs, a)
				}
			}
		}
	}
	return out
}

// PublishAddrs picks the addresses of a table's directory entry: circuit
// addresses and public ones, never loopback or private addresses (a
// directory is public; a LAN address there only tells strangers about
// the creator's home network). Any /p2p/ suffix naming the creator
// itself is removed.
func PublishAddrs(self peer.ID, addrs []ma.Multiaddr) []ma.Multiaddr {
	var circ, pub []ma.Multiaddr
	suffix, _ := ma.NewMultiaddr("/p2p/" + self.String())
	for _, a := range addrs {
		if suffix != nil {
			if rest := a.Decapsulate(suffix); len(rest) > 0 {
				a = rest
			}
		}
		isCircuit := false
		if _, err := a.ValueForProtocol(ma.P_CIRCUIT); err == nil {
			isCircuit = true
		}
		switch {
		case isCircuit:
			if !slices.ContainsFunc(circ, a.Equal) {
				circ = append(circ, a)
			}
		case manet.IsPublicAddr(a):
			if !slices.ContainsFunc(pub, a.Equal) {
				pub = append(pub, a)
			}
		}
	}
	out := append(circ, pub...)
	return out[:min(len(out), MaxAddrs)]
}

// Publisher keeps a table listed on relays' directories: it publishes at
// once, again every TTL/3 and on every Update, and withdraws on Close.
type Publisher struct {
	h      host.Host
	relays []peer.AddrInfo
	ttl    time.Duration
	report func(relay peer.ID, err error)

	mu      sync.Mutex
	t       lobby.Table
	kick    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
	lastErr map[peer.ID]string
}

// DefaultTTL is a published entry's life: a creator that dies is gone
// from the directory within it.
const DefaultTTL = 90 * time.Second

// NewPublisher starts publishing t (t.Peer must be h's id) on every relay
// with entries living ttl (0: DefaultTTL). report, if not nil, is called
// with each relay's first success and every change of its error (nil:
// listed); it must not block.
func NewPublisher(h host.Host, relays []peer.AddrInfo, t lobby.Table, ttl time.Duration, report func(relay peer.ID, err error)) (*Publisher, error) {
	if t.Peer != h.ID() {
		return nil, errors.New("directory: publish: the table's creator is not this host")
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	if report == nil {
		report = func(peer.ID, error) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Publisher{h: h, relays: slices.Clone(relays), ttl: ttl, report: report, t: t,
		kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{}), lastErr: map[peer.ID]string{}}
	go p.run(ctx)
	if sub, err := h.EventBus().Subscribe(new(event.EvtPeerConnectednessChanged)); err == nil {
		go p.watch(ctx, sub)
	}
	return p, nil
}

// watch publishes again as soon as the connection to a relay comes back
// (a relay that restarted has forgotten every table).
func (p *Publisher) watch(ctx context.Context, sub event.Subscription) {
	defer sub.Close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.Out():
			if !ok {
				return
			}
			e := ev.(event.EvtPeerConnectednessChanged)
			if e.Connectedness != network.Connected || !slices.ContainsFunc(p.relays, func(r peer.AddrInfo) bool { return r.ID == e.Peer }) {
				continue
			}
			select {
			case p.kick <- struct{}{}:
			default:
			}
		}
	}
}

// Update changes the published details (seats taken, players, whether
// the game is under way: t.Playing); the table id must not change.
func (p *Publisher) Update(t lobby.Table) {
	p.mu.Lock()
	t.ID, t.Peer = p.t.ID, p.t.Peer
	p.t = t
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Close stops publishing and withdraws the table from every relay (best
// effort, a few seconds at most).
func (p *Publisher) Close() {
	p.stop()
	<-p.done
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range p.relays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = Do(ctx, p.h, r, Request{Op: OpWithdraw, ID: p.t.ID})
		}()
	}
	wg.Wait()
}

func (p *Publisher) run(ctx context.Context) {
	defer close(p.done)
	every := p.ttl / 3
	retry := 2 * time.Second
	for {
		p.mu.Lock()
		t := p.t
		p.mu.Unlock()
		failed := false
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, r := range p.relays {
			wg.Add(1)
			go func() {
				defer wg.Done()
				op := OpPublish
				if t.Playing {
					op = OpPublishPlaying
				}
				_, err := Do(ctx, p.h, r, Request{Op: op, TTL: p.ttl, Table: t})
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				msg := ""
				if err != nil {
					msg, failed = err.Error(), true
				}
				if old, seen := p.lastErr[r.ID]; !seen || old != msg {
					p.lastErr[r.ID] = msg
					p.report(r.ID, err)
				}
			}()
		}
		wg.Wait()
		wait := every
		if failed {
			wait = min(every, retry)
		}
		select {
		case <-ctx.Done():
			return
		case <-p.kick:
			// At most one round a second (the relay's rate limit).
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		case <-time.After(wait):
		}
	}
}
