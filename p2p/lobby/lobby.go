package lobby

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/grandcat/zeroconf"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Options choose where the lobby speaks mDNS.
type Options struct {
	// Interfaces to use; empty means every multicast-capable interface.
	Interfaces []net.Interface
	// Interval is the browse round length (default 3s).
	Interval time.Duration
	// TTL is how long a browsed table is kept without an answer (default
	// 3 × Interval).
	TTL time.Duration
}

func (o *Options) defaults() {
	if o.Interval <= 0 {
		o.Interval = 3 * time.Second
	}
	if o.TTL <= 0 {
		o.TTL = 3 * o.Interval
	}
}

// Interfaces looks up interfaces by name, for Options.Interfaces.
func Interfaces(names ...string) ([]net.Interface, error) {
	var out []net.Interface
	for _, n := range names {
		ifi, err := net.InterfaceByName(n)
		if err != nil {
			return nil, fmt.Errorf("lobby: interface %q: %w", n, err)
		}
		out = append(out, *ifi)
	}
	return out, nil
}

// Advert is a running advertisement.
type Advert struct {
	mu     sync.Mutex
	opts   Options
	server *zeroconf.Server
}

// instanceName is "<name> <code>", cut to the 63-byte DNS label limit.
func instanceName(t Table) string {
	name := strings.Map(func(r rune) rune {
		if r == '.' || r < ' ' {
			return ' '
		}
		return r
	}, t.Name)
	code := " " + t.Code()
	return truncate(name, 63-len(code)) + code
}

// tcpPort finds the first TCP port among addrs.
func tcpPort(addrs []ma.Multiaddr) int {
	for _, a := range addrs {
		if p, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			var n int
			if _, err := fmt.Sscan(p, &n); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// Advertise announces t until Close. t.Addrs must include a TCP address:
// its port is the service's port.
func Advertise(t Table, opts Options) (*Advert, error) {
	opts.defaults()
	port := tcpPort(t.Addrs)
	if port == 0 {
		return nil, errors.New("lobby: advertise: the table has no TCP address")
	}
	// zeroconf's setters (TTL, SetText) write fields its server goroutines
	// read without a lock (found with -race), so a running server is never
	// changed: records keep zeroconf's TTL, and Update registers anew. Our
	// own browser expires silent tables itself (Catalog), whatever the TTL.
	s, err := zeroconf.Register(instanceName(t), Service, Domain, port, EncodeTXT(t), opts.Interfaces)
	if err != nil {
		return nil, fmt.Errorf("lobby: advertise: %w", err)
	}
	return &Advert{opts: opts, server: s}, nil
}

// Update re-announces changed details (seats taken): the old announcement
// is withdrawn and a new one registered. The table id must not change.
func (a *Advert) Update(t Table) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.server == nil {
		return errors.New("lobby: update: the advertisement is closed")
	}
	a.server.Shutdown()
	a.server = nil
	s, err := zeroconf.Register(instanceName(t), Service, Domain, tcpPort(t.Addrs), EncodeTXT(t), a.opts.Interfaces)
	if err != nil {
		return fmt.Errorf("lobby: update: %w", err)
	}
	a.server = s
	return nil
}

// Close withdraws the advertisement.
func (a *Advert) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.server != nil {
		a.server.Shutdown()
		a.server = nil
	}
}

// Browse watches the network for tables until ctx is done. It sends a fresh
// snapshot whenever the set of tables or a table's details change; an unread
// snapshot is replaced by a newer one, so a slow reader never blocks
// browsing. The channel is closed when ctx is done.
func Browse(ctx context.Context, opts Options) (<-chan []Table, error) {
	opts.defaults()
	var ropts []zeroconf.ClientOption
	if len(opts.Interfaces) > 0 {
		ropts = append(ropts, zeroconf.SelectIfaces(opts.Interfaces))
	}
	// Fail early if mDNS cannot start at all; the first round uses this
	// resolver (a resolver's sockets are released only by a browse that
	// ends).
	first, err := zeroconf.NewResolver(ropts...)
	if err != nil {
		return nil, fmt.Errorf("lobby: browse: %w", err)
	}
	out := make(chan []Table, 1)
	emit := func(s []Table) {
		select {
		case <-out:
		default:
		}
		out <- s
	}
	go func() {
		defer close(out)
		cat := NewCatalog(opts.TTL)
		emit(cat.Snapshot())
		// At least one round, so that first's sockets are released.
		for r := first; ; r = nil {
			round(ctx, opts, r, ropts, cat, emit)
			if ctx.Err() != nil {
				return
			}
		}
	}()
	return out, nil
}

// round runs one browse of opts.Interval and drains every result.
func round(ctx context.Context, opts Options, r *zeroconf.Resolver, ropts []zeroconf.ClientOption, cat *Catalog, emit func([]Table)) {
	rctx, cancel := context.WithTimeout(ctx, opts.Interval)
	defer cancel()
	var err error
	if r == nil {
		r, err = zeroconf.NewResolver(ropts...)
	}
	if err == nil {
		entries := make(chan *zeroconf.ServiceEntry, 16)
		if err = r.Browse(rctx, Service, Domain, entries); err == nil {
			// The resolver closes entries when rctx is done.
			for e := range entries {
				t, err := fromEntry(e)
				if err != nil {
					continue
				}
				if cat.Observe(t, time.Now()) {
					emit(cat.Snapshot())
				}
			}
		}
	}
	<-rctx.Done()
	if cat.Expire(time.Now()) {
		emit(cat.Snapshot())
	}
}

func fromEntry(e *zeroconf.ServiceEntry) (Table, error) {
	t, err := DecodeTXT(e.Text)
	if err != nil {
		return Table{}, err
	}
	t.Instance = e.Instance
	if e.Port > 0 {
		for _, ip := range append(append([]net.IP(nil), e.AddrIPv4...), e.AddrIPv6...) {
			var a ma.Multiaddr
			var err error
			if ip4 := ip.To4(); ip4 != nil {
				a, err = ma.NewMultiaddr(fmt.Sprintf("/ip4/%s/tcp/%d", ip4, e.Port))
			} else if !ip.IsLinkLocalUnicast() {
				a, err = ma.NewMultiaddr(fmt.Sprintf("/ip6/%s/tcp/%d", ip, e.Port))
			}
			if err == nil && a != nil && !slices.ContainsFunc(t.Addrs, a.Equal) {
				t.Addrs = append(t.Addrs, a)
			}
		}
	}
	return t, nil
}

// Catalog is the browser's memory of tables, forgetting those not seen for
// a TTL. It keeps one advertisement per table id AND creator peer id: a
// table id is public, so anyone can advertise it, and a later
// advertisement by another peer must not replace the first (that let a
// fake advertisement take over joins); both are kept, and a lookup that
// finds several creators is ambiguous. It is not safe for concurrent use.
type Catalog struct {
	ttl    time.Duration
	tables map[catalogKey]Table
}

// catalogKey identifies an advertisement: the table id and its creator.
type catalogKey struct {
	id      [16]byte
	creator peer.ID
}

// NewCatalog returns an empty catalog.
func NewCatalog(ttl time.Duration) *Catalog {
	return &Catalog{ttl: ttl, tables: make(map[catalogKey]Table)}
}

// Observe records t as seen at now and reports whether the visible set
// changed (a new table or new details).
func (c *Catalog) Observe(t Table, now time.Time) bool {
	k := catalogKey{t.ID, t.Peer}
	old, ok := c.tables[k]
	t.Seen = now
	c.tables[k] = t
	return !ok || !sameDetails(old, t)
}

func sameDetails(a, b Table) bool {
	return a.Name == b.Name && a.Game == b.Game && a.Options == b.Options && a.Taken == b.Taken &&
		a.Total == b.Total && a.Version == b.Version && a.Peer == b.Peer && slices.Equal(a.Players, b.Players) &&
		slices.EqualFunc(a.Addrs, b.Addrs, func(x, y ma.Multiaddr) bool { return x.Equal(y) })
}

// Expire forgets tables not seen since now-TTL and reports whether any were.
func (c *Catalog) Expire(now time.Time) bool {
	changed := false
	for k, t := range c.tables {
		if now.Sub(t.Seen) > c.ttl {
			delete(c.tables, k)
			changed = true
		}
	}
	return changed
}

// Snapshot lists the known tables by name, then id, then creator.
func (c *Catalog) Snapshot() []Table {
	out := make([]Table, 0, len(c.tables))
	for _, t := range c.tables {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Table) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := bytes.Compare(a.ID[:], b.ID[:]); c != 0 {
			return c
		}
		return strings.Compare(string(a.Peer), string(b.Peer))
	})
	return out
}
