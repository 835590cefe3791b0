package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/identity"
)

// doctorRelay is one relay's check in 'masque doctor'.
type doctorRelay struct {
	Relay string            `json:"relay"` // peer id
	Addrs []doctorRelayAddr `json:"addrs"`
	// Reachable: at least one address answered.
	Reachable bool `json:"reachable"`
	// Reservation: a test peer got a reservation (others could reach it
	// through the relay), after ReservationSecs.
	Reservation     bool    `json:"reservation"`
	ReservationSecs float64 `json:"reservation_s,omitempty"`
	// Directory: the relay keeps a table directory; Tables it lists now.
	Directory      bool   `json:"directory"`
	Tables         int    `json:"tables"`
	DirectoryError string `json:"directory_error,omitempty"`
}

// doctorRelayAddr is one address of a relay.
type doctorRelayAddr struct {
	Addr      string  `json:"addr"`
	Reachable bool    `json:"reachable"`
	ConnectMS float64 `json:"connect_ms,omitempty"`
	// Observed is the address the relay sees this machine's connection
	// come from; LocalPort the port it left from.
	Observed  string `json:"observed,omitempty"`
	LocalPort int    `json:"local_port,omitempty"`
	Error     string `json:"error,omitempty"`
}

// doctorNAT is what the relays' observations say about this host's NAT.
type doctorNAT struct {
	// Kind: "none" (a public address), "cone" (the same public port
	// towards every relay: hole punching works), "port-preserving" (one
	// relay, the port kept: likely cone), "port-changing" (one relay, the
	// port changed: maybe symmetric), "symmetric" (a different public
	// port towards each relay: hole punching fails, connections stay
	// relayed) or "unknown".
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// reservationWait is how long doctor waits for a test reservation
// (--reservation-wait).
const reservationWait = 10 * time.Second

// checkRelays checks every relay: each address reachable (and the address
// the relay sees), a test reservation, the directory; then guesses the
// NAT type from the observed addresses. Nothing of the player's identity
// is used: the test peers have throwaway keys.
func checkRelays(ctx context.Context, relays []peer.AddrInfo, resvWait time.Duration) ([]doctorRelay, doctorNAT) {
	out := make([]doctorRelay, len(relays))
	// One probe host per transport, so that every relay sees connections
	// from the same local socket (QUIC always dials from its listening
	// socket; TCP does with port reuse).
	probes := map[string]host.Host{}
	for _, tr := range []struct{ name, listen string }{{"tcp", "/ip4/0.0.0.0/tcp/0"}, {"quic", "/ip4/0.0.0.0/udp/0/quic-v1"}} {
		h, err := libp2p.New(libp2p.ListenAddrStrings(tr.listen), libp2p.DisableRelay(), libp2p.DisableMetrics())
		if err == nil {
			defer h.Close()
			probes[tr.name] = h
		}
	}
	var obs []observation
	for i, rl := range relays {
		r := doctorRelay{Relay: rl.ID.String(), Addrs: []doctorRelayAddr{}}
		for _, a := range rl.Addrs {
			d := doctorRelayAddr{Addr: a.String() + "/p2p/" + rl.ID.String()}
			tr := transportOf(a)
			h := probes[tr]
			if h == nil {
				d.Error = "no probe for this transport"
				r.Addrs = append(r.Addrs, d)
				continue
			}
			start := time.Now()
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err := h.Connect(cctx, peer.AddrInfo{ID: rl.ID, Addrs: []ma.Multiaddr{a}})
			cancel()
			if err != nil {
				d.Error = err.Error()
				r.Addrs = append(r.Addrs, d)
				continue
			}
			d.Reachable, d.ConnectMS = true, float64(time.Since(start).Microseconds())/1000
			r.Reachable = true
			d.LocalPort = listenPort(h)
			if o, err := directory.Observed(ctx, h, peer.AddrInfo{ID: rl.ID}); err == nil {
				d.Observed = o.String()
				if ip, port, ok := ipPort(o); ok {
					obs = append(obs, observation{relay: i, transport: tr, local: d.LocalPort, ip: ip, port: port})
				}
			} else {
				d.Error = "no observed address: " + err.Error()
			}
			r.Addrs = append(r.Addrs, d)
		}
		if r.Reachable {
			for _, h := range probes {
				if tables, err := directory.List(ctx, h, peer.AddrInfo{ID: rl.ID, Addrs: rl.Addrs}, ""); err == nil {
					r.Directory, r.Tables = true, len(tables)
					r.DirectoryError = ""
					break
				} else {
					r.DirectoryError = err.Error()
				}
			}
		}
		out[i] = r
	}
	// Reservations: one test peer with every relay, as 'masque host
	// --relay' would.
	if id, err := identity.Generate(); err == nil {
		if n, err := p2p.NewNode(p2p.Config{Identity: id, Relays: relays}); err == nil {
			start := time.Now()
			deadline := start.Add(resvWait)
			held := map[peer.ID]time.Duration{}
			for time.Now().Before(deadline) && len(held) < len(relays) && ctx.Err() == nil {
				for _, p := range n.Reservations() {
					if _, ok := held[p]; !ok {
						held[p] = time.Since(start)
					}
				}
				time.Sleep(100 * time.Millisecond)
			}
			for i, rl := range relays {
				if d, ok := held[rl.ID]; ok {
					out[i].Reservation, out[i].ReservationSecs = true, d.Seconds()
				}
			}
			n.Close()
		}
	}
	return out, natKind(obs, localIPs())
}

// observation is one address a relay saw.
type observation struct {
	relay     int
	transport string
	local     int
	ip        net.IP
	port      int
}

// natKind guesses the NAT from the relays' observations.
func natKind(obs []observation, local []net.IP) doctorNAT {
	if len(obs) == 0 {
		return doctorNAT{Kind: "unknown", Detail: "no relay told which address it sees (is it a masque relay, and reachable?)"}
	}
	for _, o := range obs {
		for _, l := range local {
			if l.Equal(o.ip) {
				return doctorNAT{Kind: "none", Detail: fmt.Sprintf("the relays see your own address %s: no NAT (others can dial you directly, firewall permitting)", o.ip)}
			}
		}
	}
	// The same transport towards two relays: compare the public ports.
	for _, a := range obs {
		for _, b := range obs {
			if a.relay < b.relay && a.transport == b.transport && a.local == b.local {
				if a.port != b.port || !a.ip.Equal(b.ip) {
					return doctorNAT{Kind: "symmetric", Detail: fmt.Sprintf("over %s, one local port left as %s:%d towards one relay and %s:%d towards another: "+
						"a symmetric NAT, so hole punching fails and connections stay relayed (the game still works)", a.transport, a.ip, a.port, b.ip, b.port)}
				}
				return doctorNAT{Kind: "cone", Detail: fmt.Sprintf("over %s, the same public address %s:%d towards every relay: "+
					"an endpoint-independent (cone) NAT, so hole punching should make direct connections", a.transport, a.ip, a.port)}
			}
		}
	}
	for _, o := range obs {
		if o.transport == "quic" && o.port != o.local {
			return doctorNAT{Kind: "port-changing", Detail: fmt.Sprintf("behind a NAT (public %s) that changed your UDP port %d to %d: "+
				"perhaps a symmetric NAT, where hole punching fails and connections stay relayed; a second relay in the check would tell", o.ip, o.local, o.port)}
		}
	}
	o := obs[0]
	return doctorNAT{Kind: "port-preserving", Detail: fmt.Sprintf("behind a NAT (public %s) that kept your port: likely a cone NAT, where hole punching works; "+
		"a second relay in the check would tell for sure", o.ip)}
}

// transportOf is "tcp" or "quic" (or "" for another transport).
func transportOf(a ma.Multiaddr) string {
	if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err == nil {
		return "quic"
	}
	if _, err := a.ValueForProtocol(ma.P_TCP); err == nil {
		return "tcp"
	}
	return ""
}

// listenPort is the port h listens on (its first listen address).
func listenPort(h host.Host) int {
	for _, a := range h.Network().ListenAddresses() {
		if _, port, ok := ipPort(a); ok {
			return port
		}
	}
	return 0
}

// ipPort splits /ip4|ip6/X/(tcp|udp)/N/...
func ipPort(a ma.Multiaddr) (net.IP, int, bool) {
	ip, err := manet.ToIP(a)
	if err != nil {
		return nil, 0, false
	}
	for _, proto := range []int{ma.P_TCP, ma.P_UDP} {
		if v, err := a.ValueForProtocol(proto); err == nil {
			if n, err := strconv.Atoi(v); err == nil {
				return ip, n, true
			}
		}
	}
	return nil, 0, false
}

// localIPs are this machine's interface addresses.
func localIPs() []net.IP {
	var out []net.IP
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			out = append(out, ipn.IP)
		}
	}
	return out
}

// printRelays writes the relay part of doctor's report.
func printRelays(w io.Writer, rs []doctorRelay, nat doctorNAT, resvWait time.Duration) {
	fmt.Fprintln(w, "\nrelays (online play):")
	for _, r := range rs {
		fmt.Fprintf(w, "  relay %s\n", r.Relay)
		for _, a := range r.Addrs {
			if a.Reachable {
				line := fmt.Sprintf("    %s: reachable (%.0f ms)", strings.TrimSuffix(a.Addr, "/p2p/"+r.Relay), a.ConnectMS)
				if a.Observed != "" {
					line += fmt.Sprintf(", sees you as %s (left from port %d)", a.Observed, a.LocalPort)
				}
				fmt.Fprintln(w, line)
			} else {
				fmt.Fprintf(w, "    %s: NOT reachable (%s): is the relay running there, and this port open in its firewall?\n", strings.TrimSuffix(a.Addr, "/p2p/"+r.Relay), a.Error)
			}
		}
		switch {
		case !r.Reachable:
			fmt.Fprintln(w, "    reservation: none (the relay is not reachable)")
		case r.Reservation:
			fmt.Fprintf(w, "    reservation: held after %.1fs (a host here is reachable through it)\n", r.ReservationSecs)
		default:
			fmt.Fprintf(w, "    reservation: none after %v (is it a relay? is it full: --max-reservations, --max-per-ip?)\n", resvWait)
		}
		switch {
		case r.Directory:
			fmt.Fprintf(w, "    directory: %d open %s listed ('masque lobby --relay ...')\n", r.Tables, map[bool]string{true: "table", false: "tables"}[r.Tables == 1])
		case r.DirectoryError != "":
			fmt.Fprintf(w, "    directory: none (%s): join by invite\n", r.DirectoryError)
		}
	}
	fmt.Fprintf(w, "  NAT: %s: %s\n", nat.Kind, nat.Detail)
}
