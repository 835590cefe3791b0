package directory

import (
	"bytes"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/masque-games/masque/p2p/ipblock"
	"github.com/masque-games/masque/p2p/lobby"
)

// Limits are a directory server's caps.
type Limits struct {
	// Entries is the most tables listed at once, in total (default 1024).
	Entries int
	// PerCreator is the most tables one peer id may have listed (default 4).
	PerCreator int
	// MinTTL and MaxTTL bound an entry's life (defaults 15 s and
	// MaxTTL seconds); a publish asking for more or less is clamped.
	MinTTL, MaxTTL time.Duration
	// PeerRate requests per second per peer id, after a burst of
	// PeerBurst (defaults 1 and 10).
	PeerRate  float64
	PeerBurst int
	// IPRate requests per second per block of addresses (a public
	// IPv4 /24, a public IPv6 /56, any other address alone: see
	// [ipblock.Of]), after a burst of IPBurst (defaults 5 and 50): many
	// peers behind one home router share it, and a client making new
	// peer ids (and new addresses in its /64) is held by it. A creator
	// refreshing or withdrawing a table it has listed is held by its peer
	// id's rate only, so that others in its block cannot get its table
	// dropped.
	IPRate  float64
	IPBurst int
	// PerBlock is the most tables listed at once whose creators published
	// them from one block of addresses (default 32); an IPv6 /48 may hold
	// 4 × PerBlock.
	PerBlock int
	// Gone is how long an entry stays listed once its creator has no
	// connection to the relay (default 20 s): an honest host keeps one
	// (it holds a reservation there), a stranger filling the directory
	// must too. Only a server attached to a host checks.
	Gone time.Duration
	// Concurrent is the most requests served at once (default 64); beyond
	// it a stream is reset.
	Concurrent int
	// Timeout bounds one request, from stream open to response (default
	// 10 s).
	Timeout time.Duration
}

func (l *Limits) defaults() {
	set := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	set(&l.Entries, 1024)
	set(&l.PerCreator, 4)
	set(&l.PeerBurst, 10)
	set(&l.IPBurst, 50)
	set(&l.Concurrent, 64)
	set(&l.PerBlock, 32)
	if l.Gone <= 0 {
		l.Gone = 20 * time.Second
	}
	if l.MinTTL <= 0 {
		l.MinTTL = 15 * time.Second
	}
	if l.MaxTTL <= 0 || l.MaxTTL > MaxTTL*time.Second {
		l.MaxTTL = MaxTTL * time.Second
	}
	if l.PeerRate <= 0 {
		l.PeerRate = 1
	}
	if l.IPRate <= 0 {
		l.IPRate = 5
	}
	if l.Timeout <= 0 {
		l.Timeout = 10 * time.Second
	}
}

// key identifies an entry: its creator and table id.
type key struct {
	creator peer.ID
	id      [16]byte
}

type entry struct {
	t       lobby.Table
	expires time.Time
	// block and wide are the blocks of addresses the creator published
	// from (wide: an IPv6 /48; zero when not known or IPv4).
	block, wide netip.Prefix
	// gone is when the creator was first seen without a connection to
	// the relay (zero: connected at the last check).
	gone time.Time
}

// bucket is a token bucket.
type bucket struct {
	tokens float64
	last   time.Time
}

// Server is a relay's table directory. Its zero value is not usable:
// make one with [NewServer].
type Server struct {
	lim Limits
	now func() time.Time
	sem chan struct{}

	// connected reports whether a creator has a connection to the
	// relay (nil: not known, never checked).
	connected func(peer.ID) bool

	mu      sync.Mutex
	entries map[key]entry
	peers   map[peer.ID]*bucket
	ips     map[netip.Prefix]*bucket
	pruned  time.Time
	swept   time.Time

	// Stats.
	served, refused int64
}

// NewServer makes a directory with limits lim (zero fields: defaults).
func NewServer(lim Limits) *Server {
	lim.defaults()
	return &Server{lim: lim, now: time.Now, sem: make(chan struct{}, lim.Concurrent),
		entries: map[key]entry{}, peers: map[peer.ID]*bucket{}, ips: map[netip.Prefix]*bucket{}}
}

// Attach serves the directory on h, and from then on drops the entries
// of creators without a connection to h for [Limits.Gone].
func (s *Server) Attach(h host.Host) {
	s.mu.Lock()
	s.connected = func(p peer.ID) bool {
		c := h.Network().Connectedness(p)
		return c == network.Connected || c == network.Limited
	}
	s.mu.Unlock()
	h.SetStreamHandler(Protocol, s.handle)
}

// Stats are the directory's counters: tables listed now, requests
// served, requests refused (rate limits, caps, bad requests).
func (s *Server) Stats() (tables int, served, refused int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.now())
	return len(s.entries), s.served, s.refused
}

func (s *Server) handle(st network.Stream) {
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	default:
		st.Reset()
		return
	}
	defer st.Close()
	_ = st.SetDeadline(time.Now().Add(s.lim.Timeout))
	var ip netip.Addr
	if a, err := manet.ToIP(st.Conn().RemoteMultiaddr()); err == nil {
		ip, _ = netip.AddrFromSlice(a)
		ip = ip.Unmap()
	}
	who := st.Conn().RemotePeer()
	var resp Response
	body, err := readFrame(st, 2, MaxRequest)
	if err != nil {
		resp = Response{Status: StatusBadRequest, Message: err.Error()}
		s.count(false)
	} else {
		resp = s.Serve(who, ip, body)
	}
	out, err := MarshalResponse(resp)
	if err != nil {
		out, _ = MarshalResponse(Response{Status: StatusBadRequest, Message: err.Error()})
	}
	if err := writeFrame(st, out, 4); err != nil {
		st.Reset()
	}
}

func (s *Server) count(ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok {
		s.served++
	} else {
		s.refused++
	}
}

// Serve answers one request body from the peer who (authenticated by the
// connection) at IP address ip (invalid: not known, not rate limited by
// address). It is what a stream's handler does once the request is read.
func (s *Server) Serve(who peer.ID, ip netip.Addr, body []byte) Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.expire(now)
	resp := s.serve(who, ip, body, now)
	if resp.Status == StatusOK {
		s.served++
	} else {
		s.refused++
	}
	return resp
}

func (s *Server) serve(who peer.ID, ip netip.Addr, body []byte, now time.Time) Response {
	q, perr := UnmarshalRequest(body)
	// A creator refreshing or withdrawing a table it has listed spends
	// its peer id's tokens only: strangers sharing its block of addresses
	// (a carrier-grade NAT) cannot get its table dropped by spending the
	// block's.
	own := false
	if perr == nil {
		switch q.Op {
		case OpPublish, OpPublishPlaying:
			_, own = s.entries[key{who, q.Table.ID}]
		case OpWithdraw:
			_, own = s.entries[key{who, q.ID}]
		}
	}
	if !s.allow(who, ip, !own, now) {
		return Response{Status: StatusRateLimited, Message: "too many requests: wait a few seconds"}
	}
	if perr != nil {
		return Response{Status: StatusBadRequest, Message: perr.Error()}
	}
	switch q.Op {
	case OpPublish, OpPublishPlaying:
		t := q.Table
		t.Peer = who
		k := key{who, t.ID}
		block := ipblock.Of(ip)
		wide, _ := ipblock.Wide(ip)
		if !own {
			if len(s.entries) >= s.lim.Entries {
				return Response{Status: StatusFull, Message: fmt.Sprintf("the directory holds %d tables, its most", len(s.entries))}
			}
			mine, inBlock, inWide := 0, 0, 0
			for k2, e := range s.entries {
				if k2.creator == who {
					mine++
				}
				if block.IsValid() && e.block == block {
					inBlock++
				}
				if wide.IsValid() && e.wide == wide {
					inWide++
				}
			}
			if mine >= s.lim.PerCreator {
				return Response{Status: StatusFull, Message: fmt.Sprintf("you have %d tables listed, the most one peer may", mine)}
			}
			if inBlock >= s.lim.PerBlock {
				return Response{Status: StatusFull, Message: fmt.Sprintf("%d tables are listed from your network (%s), the most one network may", inBlock, block)}
			}
			if inWide >= 4*s.lim.PerBlock {
				return Response{Status: StatusFull, Message: fmt.Sprintf("%d tables are listed from your network (%s), the most one network may", inWide, wide)}
			}
		}
		ttl := max(s.lim.MinTTL, min(q.TTL, s.lim.MaxTTL))
		s.entries[k] = entry{t: t, expires: now.Add(ttl), block: block, wide: wide}
		return Response{Status: StatusOK, Message: fmt.Sprintf("listed for %v", ttl)}
	case OpWithdraw:
		k := key{who, q.ID}
		if !own {
			return Response{Status: StatusNotFound, Message: fmt.Sprintf("you have no table %x listed", q.ID)}
		}
		delete(s.entries, k)
		return Response{Status: StatusOK, Message: "withdrawn"}
	case OpList, OpListPlaying:
		playing := q.Op == OpListPlaying
		var out []Entry
		for _, e := range s.entries {
			if e.t.Playing == playing && (q.Code == "" || e.t.Code() == q.Code) {
				out = append(out, Entry{Table: e.t, TTL: e.expires.Sub(now)})
			}
		}
		slices.SortFunc(out, func(a, b Entry) int {
			if c := strings.Compare(a.Table.Name, b.Table.Name); c != 0 {
				return c
			}
			if c := bytes.Compare(a.Table.ID[:], b.Table.ID[:]); c != 0 {
				return c
			}
			return strings.Compare(string(a.Table.Peer), string(b.Table.Peer))
		})
		what := "tables"
		if playing {
			what = "tables in play"
		}
		msg := fmt.Sprintf("%d %s", len(out), what)
		if len(out) > MaxList {
			msg = fmt.Sprintf("%d %s, the first %d listed: ask by code", len(out), what, MaxList)
			out = out[:MaxList]
		}
		return Response{Status: StatusOK, Message: msg, Entries: out}
	}
	return Response{Status: StatusBadRequest, Message: "unknown operation"}
}

// allow takes a token from who's bucket and, if block, from the bucket
// of ip's block of addresses.
func (s *Server) allow(who peer.ID, ip netip.Addr, block bool, now time.Time) bool {
	pb := s.peers[who]
	if pb == nil {
		pb = &bucket{tokens: float64(s.lim.PeerBurst), last: now}
		s.peers[who] = pb
	}
	refill(pb, now, s.lim.PeerRate, s.lim.PeerBurst)
	var ib *bucket
	if b := ipblock.Of(ip); block && b.IsValid() {
		ib = s.ips[b]
		if ib == nil {
			ib = &bucket{tokens: float64(s.lim.IPBurst), last: now}
			s.ips[b] = ib
		}
		refill(ib, now, s.lim.IPRate, s.lim.IPBurst)
	}
	if pb.tokens < 1 || ib != nil && ib.tokens < 1 {
		return false
	}
	pb.tokens--
	if ib != nil {
		ib.tokens--
	}
	return true
}

func refill(b *bucket, now time.Time, rate float64, burst int) {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(float64(burst), b.tokens+d.Seconds()*rate)
		b.last = now
	}
}

// expire forgets expired entries, every second the entries whose
// creator has had no connection to the relay for Limits.Gone, and every
// minute full buckets (a bucket refilled to its burst is the same as
// none).
func (s *Server) expire(now time.Time) {
	for k, e := range s.entries {
		if !now.Before(e.expires) {
			delete(s.entries, k)
		}
	}
	if s.connected != nil && now.Sub(s.swept) >= time.Second {
		s.swept = now
		here := map[peer.ID]bool{}
		for k, e := range s.entries {
			c, ok := here[k.creator]
			if !ok {
				c = s.connected(k.creator)
				here[k.creator] = c
			}
			switch {
			case c:
				e.gone = time.Time{}
			case e.gone.IsZero():
				e.gone = now
			case now.Sub(e.gone) >= s.lim.Gone:
				delete(s.entries, k)
				continue
			}
			s.entries[k] = e
		}
	}
	if now.Sub(s.pruned) < time.Minute {
		return
	}
	s.pruned = now
	for p, b := range s.peers {
		if now.Sub(b.last).Seconds()*s.lim.PeerRate+b.tokens >= float64(s.lim.PeerBurst) {
			delete(s.peers, p)
		}
	}
	for ip, b := range s.ips {
		if now.Sub(b.last).Seconds()*s.lim.IPRate+b.tokens >= float64(s.lim.IPBurst) {
			delete(s.ips, ip)
		}
	}
}
