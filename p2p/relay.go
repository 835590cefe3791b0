package p2p

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	relayclient "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	"github.com/libp2p/go-libp2p/x/rate"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// ErrBadRelay is wrapped by [ParseRelays]' errors: a relay address that is
// not a multiaddr, names no peer (/p2p/<id>), or is itself a circuit.
var ErrBadRelay = errors.New("not a relay address")

// ParseRelays parses relay multiaddrs, each ending in /p2p/<relay peer id>
// (as 'masque relay' prints them), and merges the addresses of one relay
// (its TCP and QUIC addresses, say) into one AddrInfo, in the order given.
func ParseRelays(addrs []string) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	for _, s := range addrs {
		m, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, fmt.Errorf("%q: %w: %w", s, ErrBadRelay, err)
		}
		if _, err := m.ValueForProtocol(ma.P_CIRCUIT); err == nil {
			return nil, fmt.Errorf("%q: %w: it is a circuit through a relay; give the relay's own address", s, ErrBadRelay)
		}
		info, err := peer.AddrInfoFromP2pAddr(m)
		if err != nil {
			return nil, fmt.Errorf("%q: %w: it must end in /p2p/<relay peer id>: %w", s, ErrBadRelay, err)
		}
		if len(info.Addrs) == 0 {
			return nil, fmt.Errorf("%q: %w: no transport address before /p2p/", s, ErrBadRelay)
		}
		i := slices.IndexFunc(out, func(o peer.AddrInfo) bool { return o.ID == info.ID })
		if i < 0 {
			out = append(out, *info)
			continue
		}
		for _, a := range info.Addrs {
			if !slices.ContainsFunc(out[i].Addrs, a.Equal) {
				out[i].Addrs = append(out[i].Addrs, a)
			}
		}
	}
	return out, nil
}

// RelayOfCircuit returns the relay of a circuit multiaddr
// (<relay addr>/p2p/<relay>/p2p-circuit/p2p/<peer>), or ok=false when a is
// not a circuit address.
func RelayOfCircuit(a ma.Multiaddr) (relay peer.AddrInfo, ok bool) {
	before, _ := ma.SplitFunc(a, func(c ma.Component) bool { return c.Protocol().Code == ma.P_CIRCUIT })
	if len(before) == len(a) {
		return peer.AddrInfo{}, false
	}
	info, err := peer.AddrInfoFromP2pAddr(before)
	if err != nil || len(info.Addrs) == 0 {
		return peer.AddrInfo{}, false
	}
	return *info, true
}

// CircuitAddrs are the addresses through which a node holding a
// reservation on each relay can be reached:
// <relay address>/p2p/<relay>/p2p-circuit, one per address of each relay
// (TCP and QUIC). They are known before the reservation is made; dialling
// one before then fails with the relay's NO_RESERVATION.
func CircuitAddrs(relays []peer.AddrInfo) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, r := range relays {
		suffix, err := ma.NewMultiaddr("/p2p/" + r.ID.String() + "/p2p-circuit")
		if err != nil {
			continue
		}
		for _, a := range r.Addrs {
			out = append(out, a.Encapsulate(suffix))
		}
	}
	return out
}

// IsCircuit reports whether a is a relayed (/p2p-circuit) address.
func IsCircuit(a ma.Multiaddr) bool {
	_, err := a.ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// allowLimited lets a stream open or a dial use a limited (relayed)
// connection: without it libp2p's NewStream waits up to a minute for a
// direct connection. On a LAN there are no limited connections and it
// changes nothing.
func allowLimited(ctx context.Context) context.Context {
	return network.WithAllowLimitedConn(ctx, "masque")
}

// Relay-client tuning (AutoRelay's defaults wait 3 minutes before the
// first reservation and an hour after a failed one).
const (
	relayBootDelay   = 0
	relayBackoff     = 5 * time.Second
	relayMinInterval = time.Second
)

// relayOptions are the libp2p options of a node using relays: the relay
// transport (to dial and accept /p2p-circuit), AutoRelay holding a
// reservation on every relay, hole punching (DCUtR) to upgrade relayed
// connections to direct ones, reachability private (so that AutoRelay
// reserves at once instead of waiting for AutoNAT), and a resource
// manager that does not count relayed connections against the relay's IP
// address. punches hears how every hole punch ends.
func relayOptions(relays []peer.AddrInfo, punches holepunch.EventTracer) ([]libp2p.Option, error) {
	rm, err := nodeResourceManager(relays)
	if err != nil {
		return nil, err
	}
	return []libp2p.Option{
		libp2p.EnableRelay(),
		libp2p.EnableAutoRelayWithStaticRelays(relays,
			autorelay.WithBootDelay(relayBootDelay),
			autorelay.WithBackoff(relayBackoff),
			autorelay.WithMinInterval(relayMinInterval)),
		libp2p.EnableHolePunching(holepunch.WithTracer(punches)),
		libp2p.ForceReachabilityPrivate(),
		libp2p.ResourceManager(rm),
	}, nil
}

// nodeResourceManager is libp2p's default resource manager, with two
// changes:
//
//   - connections from or to the relays' IP addresses are neither rate
//     limited nor counted per IP: every relayed connection carries its
//     relay's IP as remote address, and the defaults (8 connections per IP,
//     0.2 per second after a burst of 16) refuse seats at larger tables
//     with "rate limit exceeded";
//   - new connections per IP address (both directions: libp2p counts our
//     own dials too) are limited to connRateBurst, then connRateRPS a
//     second, not 16 then 0.2: a joiner asking a creator again every few
//     hundred milliseconds on a lossy network dials it more than 16 times
//     in a minute, and its own resource manager then refused the dials
//     ("rate limit exceeded") for the rest of its patience.
//
// The limit of concurrent connections per IP (8) stays.
// Connections per IP address: a burst, then a rate (libp2p's defaults are
// 16 and 0.2 a second).
const (
	connRateBurst = 64
	connRateRPS   = 1
)

func nodeResourceManager(relays []peer.AddrInfo) (network.ResourceManager, error) {
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	// Unlimited: loopback (as libp2p's defaults) and every relay.
	unlimited := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	for _, ip := range relayIPs(relays) {
		unlimited = append(unlimited, netip.PrefixFrom(ip, ip.BitLen()))
	}
	var rates []rate.PrefixLimit // a zero Limit: no rate limit
	var connV4, connV6 []rcmgr.NetworkPrefixLimit
	for _, pre := range unlimited {
		rates = append(rates, rate.PrefixLimit{Prefix: pre})
		nl := rcmgr.NetworkPrefixLimit{Network: pre, ConnCount: math.MaxInt}
		if pre.Addr().Is4() {
			connV4 = append(connV4, nl)
		} else {
			connV6 = append(connV6, nl)
		}
	}
	// Outside those prefixes: per address connRateRPS after a burst of
	// connRateBurst; per IPv6 /48, libp2p's default.
	rl := &rate.Limiter{
		NetworkPrefixLimits: rates,
		SubnetRateLimiter: rate.SubnetLimiter{
			IPv4SubnetLimits: []rate.SubnetLimit{{PrefixLength: 32, Limit: rate.Limit{RPS: connRateRPS, Burst: connRateBurst}}},
			IPv6SubnetLimits: []rate.SubnetLimit{
				{PrefixLength: 56, Limit: rate.Limit{RPS: connRateRPS, Burst: connRateBurst}},
				{PrefixLength: 48, Limit: rate.Limit{RPS: 0.5, Burst: 80}},
			},
			GracePeriod: time.Minute,
		},
	}
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits.AutoScale()),
		rcmgr.WithConnRateLimiters(rl),
		rcmgr.WithNetworkPrefixLimit(connV4, connV6))
	if err != nil {
		return nil, fmt.Errorf("p2p: resource manager: %w", err)
	}
	return rm, nil
}

// relayIPs are the relays' IP addresses; DNS names are resolved (best
// effort: a name that does not resolve now is left out, and its relayed
// connections are limited per IP like any other).
func relayIPs(relays []peer.AddrInfo) []netip.Addr {
	var out []netip.Addr
	add := func(ip netip.Addr) {
		ip = ip.Unmap()
		if ip.IsValid() && !slices.Contains(out, ip) {
			out = append(out, ip)
		}
	}
	for _, r := range relays {
		for _, a := range r.Addrs {
			if ip, err := manet.ToIP(a); err == nil {
				if nip, ok := netip.AddrFromSlice(ip); ok {
					add(nip)
				}
				continue
			}
			first, _ := ma.SplitFirst(a)
			if first == nil {
				continue
			}
			switch first.Protocol().Code {
			case ma.P_DNS, ma.P_DNS4, ma.P_DNS6:
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", first.Value())
				cancel()
				if err == nil {
					for _, ip := range ips {
						add(ip)
					}
				}
			}
		}
	}
	return out
}

// WaitReservations waits until the node holds a reservation on every
// relay it was configured with and, if a relay is on a public address,
// is ready to answer hole punches, or ctx is done. It returns the relays
// it holds a reservation on.
//
// Hole punching answers only once the node knows a public address of its
// own (observed by the relay); a peer that opens a relayed connection to
// us before then asks for a hole punch we cannot answer, and libp2p does
// not ask again for that connection. A relay on a private address (a
// LAN, a VPN's 100.64/10) never shows the node a public address: waiting
// for one would only cost the whole wait.
func (n *Node) WaitReservations(ctx context.Context) []peer.ID {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		held := n.Reservations()
		if len(held) == len(n.relays) && (n.HolePunchReady() || !n.PublicRelay()) {
			return held
		}
		select {
		case <-ctx.Done():
			return held
		case <-t.C:
		}
	}
}

// Reservations are the relays on which the node holds a reservation now,
// in the configured order: those it reserved itself (keepRelays) and is
// still connected to, and those its host announces a circuit address
// through (AutoRelay announces relays on public addresses only: a relay
// on a private address grants reservations all the same).
func (n *Node) Reservations() []peer.ID {
	var held []peer.ID
	addrs := n.host.Addrs()
	now := time.Now()
	for _, r := range n.relays {
		if n.resv.valid(r.ID, now) && n.host.Network().Connectedness(r.ID) == network.Connected {
			held = append(held, r.ID)
			continue
		}
		for _, a := range addrs {
			if rel, ok := RelayOfCircuit(a); ok && rel.ID == r.ID {
				held = append(held, r.ID)
				break
			}
		}
	}
	return held
}

// HolePunchReady reports whether the node answers hole punches (DCUtR):
// it has relays and knows a public address of its own to punch from.
func (n *Node) HolePunchReady() bool {
	return len(n.relays) > 0 && slices.Contains(n.host.Mux().Protocols(), holepunch.Protocol)
}

// PublicRelay reports whether one of the node's relays is on a public
// address (or a DNS name): only such a relay shows the node its public
// address, which hole punching needs.
func (n *Node) PublicRelay() bool {
	for _, r := range n.relays {
		for _, a := range r.Addrs {
			if manet.IsPublicAddr(a) {
				return true
			}
		}
	}
	return false
}

// relayRedial is how often a node dials a relay it lost (a relay that
// restarts is back within seconds: waiting out libp2p's growing dial
// backoff would add as much again).
const relayRedial = 500 * time.Millisecond

// Reservation timing: a reservation is renewed when it has less than
// relayRenewBefore left, and asked again relayReserveRetry after a
// refusal.
const (
	relayRenewBefore  = 10 * time.Minute
	relayReserveRetry = 5 * time.Second
	relayReserveWait  = 5 * time.Second
)

// relayReservations are the reservations a node made itself, by relay.
type relayReservations struct {
	mu      sync.Mutex
	expires map[peer.ID]time.Time
	retry   map[peer.ID]time.Time
}

func (rs *relayReservations) valid(p peer.ID, now time.Time) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return now.Before(rs.expires[p])
}

func (rs *relayReservations) forget(p peer.ID) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	delete(rs.expires, p)
	delete(rs.retry, p)
}

// due reports whether a reservation on p should be asked for now.
func (rs *relayReservations) due(p peer.ID, now time.Time) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return now.After(rs.expires[p].Add(-relayRenewBefore)) && !now.Before(rs.retry[p])
}

func (rs *relayReservations) set(p peer.ID, expires, retry time.Time) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.expires == nil {
		rs.expires, rs.retry = map[peer.ID]time.Time{}, map[peer.ID]time.Time{}
	}
	if !expires.IsZero() {
		rs.expires[p] = expires
	}
	rs.retry[p] = retry
}

// renewReservation asks relay r for a reservation when the node holds
// none there (or it ends soon). AutoRelay does too, but only after its
// own backoff once a relay comes back (seconds, during which the relay
// refuses every connection to us: NO_RESERVATION), and it does not tell
// of reservations on relays at private addresses.
func (n *Node) renewReservation(ctx context.Context, r peer.AddrInfo) {
	now := time.Now()
	if !n.resv.due(r.ID, now) {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, relayReserveWait)
	rsvp, err := relayclient.Reserve(cctx, n.host, peer.AddrInfo{ID: r.ID})
	cancel()
	if err != nil {
		n.resv.set(r.ID, time.Time{}, time.Now().Add(relayReserveRetry))
		n.log.Info("relay reservation refused", "relay", r.ID, "err", err)
		return
	}
	n.resv.set(r.ID, rsvp.Expiration, time.Time{})
	n.log.Debug("relay reservation", "relay", r.ID, "expires", rsvp.Expiration)
}

// keepRelays keeps a connection and a reservation on every configured
// relay: every relayRedial, it redials a relay the node is not connected
// to (clearing the swarm's dial backoff first) and, once connected,
// reserves at once; the directory publisher lists the table again as
// soon as the connection is back. It returns when ctx is done.
func (n *Node) keepRelays(ctx context.Context) {
	t := time.NewTicker(relayRedial)
	defer t.Stop()
	lost := map[peer.ID]time.Time{}
	seen := map[peer.ID]bool{}
	for {
		for _, r := range n.relays {
			if n.host.Network().Connectedness(r.ID) != network.Connected {
				n.resv.forget(r.ID)
				if _, ok := lost[r.ID]; !ok && seen[r.ID] {
					lost[r.ID] = time.Now()
					n.log.Info("relay lost: redialling", "relay", r.ID)
				}
				n.clearBackoff(r.ID)
				cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				err := n.host.Connect(cctx, r)
				cancel()
				if err != nil {
					continue // again at the next tick
				}
			}
			seen[r.ID] = true
			if since, ok := lost[r.ID]; ok {
				delete(lost, r.ID)
				n.log.Info("relay back", "relay", r.ID, "lost_for", time.Since(since).Round(time.Millisecond))
			}
			n.renewReservation(ctx, r)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// clearBackoff forgets the swarm's dial backoff for p, so that the next
// dial is tried at once: a peer unreachable a moment ago (its relay
// restarting, its reservation not yet renewed) may be reachable now.
func (n *Node) clearBackoff(p peer.ID) {
	if sw, ok := n.host.Network().(interface{ Backoff() *swarm.DialBackoff }); ok {
		sw.Backoff().Clear(p)
	}
}
