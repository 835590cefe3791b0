package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/ipblock"
)

// relayOpts are 'masque relay”s flags.
type relayOpts struct {
	config      string
	listen      []string
	announce    []string
	asJSON      bool
	status      time.Duration
	duration    time.Duration
	dataMiB     int64
	maxResv     int
	maxPerIP    int
	maxPerNet   int
	maxCircuits int
	noDirectory bool
	dirTables   int
}

// relayKeyDir is the relay's identity directory inside the config
// directory: a relay's peer id is its players' trust anchor in invites,
// so it must survive restarts, and it is not the player's own identity.
const relayKeyDir = "relay"

// DefaultRelayListen are 'masque relay”s listen addresses: port 4001 on
// every IPv4 address, TCP and QUIC.
var defaultRelayListen = []string{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1"}

func newRelayCmd(a *app) *cobra.Command {
	var o relayOpts
	cmd := &cobra.Command{
		Use:   "relay",
		Short: "Run a relay so that friends behind home routers can play online",
		Long: `Run a relay (libp2p circuit relay v2) on a machine everyone can reach: a
server with a public address, or a home machine with ports forwarded. It
prints the addresses to give to players; the host then runs
'masque host --relay ADDR' and its invite goes through the relay, and
joiners run 'masque join INVITE' (adding --relay ADDR too is fine).

What the relay sees: that these peers (by peer id and IP address) talk,
when, and how many bytes. Every connection through it is end-to-end
encrypted and authenticated by the players' own keys (Noise): it cannot
read the cards, the moves or the names, and it cannot forge or change an
entry, since every entry is signed by its author and checked by every
seat. What a relay can do is delay or drop traffic; a seat it cuts off
is waited for and, past the table's timeout, the table stops with a
timeout verdict, as when a player's network fails. Peers whose routers
allow it connect directly by hole punching and then no longer need the
relay at all.

The relay's identity (its peer id, part of every address it prints) is
kept in CONFIG/relay/identity.key, created on first run (mode 0600): keep
it, so that the addresses you handed out stay valid across restarts.

Every relayed connection is allowed --circuit-duration and --circuit-data
(per direction) before the relay cuts it: the defaults are fit for whole
games (libp2p's own, 2 minutes and 128 KiB, would cut a game in its
first minutes). Reservations (a player asking to be reachable through
the relay) are capped in total, per IP address and per network (a
public IPv4 /24 or IPv6 /56: one machine easily holds many addresses of
its network), and relayed connections per peer.

The relay also keeps a small directory of open tables (stream protocol
/masque/directory/1): a host started with --relay lists its table there,
'masque lobby --relay ADDR' shows them and 'masque join CODE --relay ADDR'
joins one by its code, as on a LAN. An entry lives 90 s unless its host
refreshes it, and is withdrawn when the table is full. Only a table's
creator (the peer id of the connection, proven by its key) can list or
withdraw it; everything else in an entry is the creator's word, and
joiners check the creator's peer id and the signed roster themselves.
Requests are rate limited per peer and per network (a public IPv4 /24 or
IPv6 /56); --directory-tables caps the tables listed at once (4 per
creator, 32 per network); a table whose host has had no connection to
the relay for 20 s is dropped; --no-directory turns it off.

The relay runs until interrupted (SIGINT, SIGTERM). Logs go to stderr;
the addresses (with --json, one status line, then one per --status
interval) go to stdout.`,
		Example: `  masque relay
  masque relay --listen /ip4/0.0.0.0/tcp/4001 \
      --listen /ip4/0.0.0.0/udp/4001/quic-v1
  masque relay --announce /dns4/relay.example.org/tcp/4001 --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRelay(cmd.Context(), a, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.config, "config", "", "configuration `DIR`; the relay's key is DIR/relay/identity.key (default: the user config dir + /masque)")
	f.StringArrayVar(&o.listen, "listen", defaultRelayListen, "listen on `MULTIADDR` (repeatable): fixed ports, so that the addresses handed out stay valid (default: "+strings.Join(defaultRelayListen, " and ")+")")
	// The default is in the text above, where it can wrap to the screen.
	f.Lookup("listen").DefValue = "[]"
	f.StringArrayVar(&o.announce, "announce", nil, "also announce `MULTIADDR` (repeatable): a public address or DNS name the machine's interfaces do not show (port forwarding, NAT)")
	f.BoolVar(&o.asJSON, "json", false, "print a JSON status line at start and every --status interval on stdout")
	f.DurationVar(&o.status, "status", time.Minute, "how often to report the relay's counters (0: never)")
	f.DurationVar(&o.duration, "circuit-duration", 12*time.Hour, "how long one relayed connection may last (0: no limit)")
	f.Int64Var(&o.dataMiB, "circuit-data", 256, "how many MiB one relayed connection may carry each way (0: no limit)")
	f.IntVar(&o.maxResv, "max-reservations", 256, "reservations held at once, in total")
	f.IntVar(&o.maxPerIP, "max-per-ip", 16, "reservations (and connections: twice as many) from one IP address")
	f.IntVar(&o.maxPerNet, "max-per-network", 32, "reservations from one network: a public IPv4 /24 or IPv6 /56 (and 4 times as many per IPv6 /48); "+
		"addresses that are not public (LAN, VPN) count one by one")
	f.IntVar(&o.maxCircuits, "max-circuits", 32, "relayed connections one peer may have open at once (a seat needs one per other seat)")
	f.BoolVar(&o.noDirectory, "no-directory", false, "do not keep a directory of open tables (joiners then need the host's invite, not its code)")
	f.IntVar(&o.dirTables, "directory-tables", 1024, "open tables the directory lists at once")
	return cmd
}

// relayStats counts what the relay does (its libp2p MetricsTracer).
type relayStats struct {
	reservations, circuits, circuitsTotal, refused atomic.Int64
	bytes                                          atomic.Int64
	log                                            *slog.Logger
}

func (s *relayStats) RelayStatus(enabled bool) {
	s.log.Info("relay service", "enabled", enabled)
}
func (s *relayStats) ConnectionOpened() {
	s.circuits.Add(1)
	s.circuitsTotal.Add(1)
}
func (s *relayStats) ConnectionClosed(d time.Duration) { s.circuits.Add(-1) }
func (s *relayStats) ConnectionRequestHandled(st pbv2.Status) {
	if st != pbv2.Status_OK {
		s.refused.Add(1)
		s.log.Info("circuit refused", "status", st.String())
	}
}
func (s *relayStats) ReservationAllowed(renewal bool) {
	if !renewal {
		s.reservations.Add(1)
	}
}
func (s *relayStats) ReservationClosed(n int) { s.reservations.Add(-int64(n)) }
func (s *relayStats) ReservationRequestHandled(st pbv2.Status) {
	if st != pbv2.Status_OK {
		s.refused.Add(1)
		s.log.Info("reservation refused", "status", st.String())
	}
}
func (s *relayStats) BytesTransferred(n int) { s.bytes.Add(int64(n)) }

// relayStatus is the --json status line.
type relayStatus struct {
	Event         string   `json:"event"` // "started", "status" or "stopped"
	PeerID        string   `json:"peer_id"`
	Addrs         []string `json:"addrs"`
	Uptime        float64  `json:"uptime_s"`
	Peers         int      `json:"peers"`
	Reservations  int64    `json:"reservations"`
	Circuits      int64    `json:"circuits"`
	CircuitsTotal int64    `json:"circuits_total"`
	Refused       int64    `json:"refused"`
	Bytes         int64    `json:"bytes"`
	// Tables listed in the directory, directory requests served and
	// refused (rate limits, caps, bad requests).
	Tables     int   `json:"tables"`
	DirServed  int64 `json:"directory_served"`
	DirRefused int64 `json:"directory_refused"`
}

// relayResources turns the flags into the relay service's limits.
func (o relayOpts) relayResources() (relayv2.Resources, error) {
	if o.duration < 0 || o.dataMiB < 0 {
		return relayv2.Resources{}, &exitError{code: exitUsage, err: errors.New("--circuit-duration and --circuit-data: want 0 (no limit) or more")}
	}
	if o.maxResv < 1 || o.maxPerIP < 1 || o.maxPerNet < 1 || o.maxCircuits < 1 {
		return relayv2.Resources{}, &exitError{code: exitUsage, err: errors.New("--max-reservations, --max-per-ip, --max-per-network and --max-circuits: want 1 or more")}
	}
	rc := relayv2.DefaultResources()
	rc.MaxReservations = o.maxResv
	rc.MaxReservationsPerIP = o.maxPerIP
	rc.MaxReservationsPerASN = max(rc.MaxReservationsPerASN, 4*o.maxPerIP)
	rc.MaxCircuits = o.maxCircuits
	rc.BufferSize = 16 << 10
	switch {
	case o.duration == 0 && o.dataMiB == 0:
		rc.Limit = nil
	default:
		l := &relayv2.RelayLimit{Duration: o.duration, Data: o.dataMiB << 20}
		if l.Duration == 0 {
			l.Duration = 100 * 365 * 24 * time.Hour
		}
		if l.Data == 0 {
			l.Data = 1 << 62
		}
		rc.Limit = l
	}
	return rc, nil
}

func runRelay(ctx context.Context, a *app, o relayOpts) error {
	rc, err := o.relayResources()
	if err != nil {
		return err
	}
	if o.dirTables < 1 {
		return &exitError{code: exitUsage, err: fmt.Errorf("--directory-tables %d: want 1 or more", o.dirTables)}
	}
	if len(o.listen) == 0 {
		return &exitError{code: exitUsage, err: errors.New("--listen: give at least one address")}
	}
	for _, s := range o.listen {
		if _, err := ma.NewMultiaddr(s); err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("--listen %q: %w", s, err)}
		}
	}
	var announce []ma.Multiaddr
	for _, s := range o.announce {
		m, err := ma.NewMultiaddr(s)
		if err != nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("--announce %q: %w", s, err)}
		}
		if _, err := m.ValueForProtocol(ma.P_P2P); err == nil {
			return &exitError{code: exitUsage, err: fmt.Errorf("--announce %q: give the address without /p2p/ (the relay adds its own id)", s)}
		}
		announce = append(announce, m)
	}
	dir := o.config
	if dir == "" {
		d, err := os.UserConfigDir()
		if err != nil {
			return &exitError{code: exitFault, err: fmt.Errorf("no configuration directory: %w", err), hint: "give one with --config DIR"}
		}
		dir = filepath.Join(d, "masque")
	}
	id, err := identity.Load(filepath.Join(dir, relayKeyDir))
	if err != nil {
		return &exitError{code: exitFault, err: fmt.Errorf("relay identity: %w", err), hint: "check --config"}
	}
	logger := slog.New(slog.NewTextHandler(a.stderr, nil))
	stats := &relayStats{log: logger}
	h, err := newRelayHost(id, o, announce)
	if err != nil {
		return &exitError{code: exitFault, err: err, hint: "is another program using the ports? change them with --listen"}
	}
	defer h.Close()
	svc, err := startRelayService(h, o, rc, stats)
	if err != nil {
		return &exitError{code: exitFault, err: err}
	}
	defer svc.Close()
	stats.RelayStatus(true)
	// Which address a connection comes from, for 'masque doctor'.
	directory.ServeObserved(h)
	var tables *directory.Server
	if !o.noDirectory {
		tables = directory.NewServer(directory.Limits{Entries: o.dirTables})
		tables.Attach(h)
	}
	ctx, stop := signalContext(ctx)
	defer stop()

	start := time.Now()
	addrs := relayAddrs(h)
	status := func(event string) relayStatus {
		st := relayStatus{Event: event, PeerID: h.ID().String(), Addrs: addrs, Uptime: time.Since(start).Seconds(),
			Peers: len(h.Network().Peers()), Reservations: stats.reservations.Load(), Circuits: stats.circuits.Load(),
			CircuitsTotal: stats.circuitsTotal.Load(), Refused: stats.refused.Load(), Bytes: stats.bytes.Load()}
		if tables != nil {
			st.Tables, st.DirServed, st.DirRefused = tables.Stats()
		}
		return st
	}
	limit := "none"
	if rc.Limit != nil {
		limit = fmt.Sprintf("%v and %d MiB each way", rc.Limit.Duration, rc.Limit.Data>>20)
	}
	logger.Info("relay started", "peer", h.ID(), "listen", h.Network().ListenAddresses(), "circuit_limit", limit,
		"max_reservations", rc.MaxReservations, "max_per_ip", rc.MaxReservationsPerIP, "max_per_network", o.maxPerNet, "max_circuits_per_peer", rc.MaxCircuits)
	if o.asJSON {
		printJSONLine(a.stdout, status("started"))
	} else {
		fmt.Fprintf(a.stdout, "masque relay %s is running. Give players these addresses:\n", h.ID())
		for _, s := range addrs {
			fmt.Fprintf(a.stdout, "  %s\n", s)
		}
		fmt.Fprintf(a.stdout, "The host runs: masque host --relay %s\n", addrs[0])
		if tables != nil {
			fmt.Fprintf(a.stdout, "Players list its tables with: masque lobby --relay %s\n", addrs[0])
		}
		fmt.Fprintln(a.stdout, "Interrupt (Ctrl-C) to stop.")
	}

	var tick <-chan time.Time
	if o.status > 0 {
		t := time.NewTicker(o.status)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			st := status("stopped")
			logger.Info("relay stopping", "uptime", time.Since(start).Round(time.Second), "circuits_total", st.CircuitsTotal, "bytes", st.Bytes)
			if o.asJSON {
				printJSONLine(a.stdout, st)
			}
			return nil
		case <-tick:
			st := status("status")
			logger.Info("relay status", "peers", st.Peers, "reservations", st.Reservations, "circuits", st.Circuits,
				"circuits_total", st.CircuitsTotal, "refused", st.Refused, "bytes", st.Bytes,
				"tables", st.Tables, "directory_served", st.DirServed, "directory_refused", st.DirRefused)
			if o.asJSON {
				printJSONLine(a.stdout, st)
			}
		}
	}
}

// newRelayHost starts the relay's libp2p host: reachability public, no
// relay client, hole punching or NAT mapping of its own, and a resource
// manager allowing 2 × --max-per-ip connections per IP. The relay
// service is started on it by [startRelayService].
func newRelayHost(id *identity.Identity, o relayOpts, announce []ma.Multiaddr) (host.Host, error) {
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits.AutoScale()),
		rcmgr.WithLimitPerSubnet(
			[]rcmgr.ConnLimitPerSubnet{{PrefixLength: 32, ConnCount: 2 * o.maxPerIP}},
			[]rcmgr.ConnLimitPerSubnet{{PrefixLength: 56, ConnCount: 2 * o.maxPerIP}, {PrefixLength: 48, ConnCount: 8 * o.maxPerIP}}))
	if err != nil {
		return nil, fmt.Errorf("relay: resource manager: %w", err)
	}
	opts := []libp2p.Option{
		libp2p.Identity(id.PrivKey()),
		libp2p.ListenAddrStrings(o.listen...),
		libp2p.DefaultTransports,
		libp2p.DefaultSecurity,
		libp2p.DefaultMuxers,
		libp2p.ResourceManager(rm),
		libp2p.ForceReachabilityPublic(),
		libp2p.DisableMetrics(),
	}
	if len(announce) > 0 {
		opts = append(opts, libp2p.AddrsFactory(func(addrs []ma.Multiaddr) []ma.Multiaddr {
			return ma.Unique(append(append([]ma.Multiaddr(nil), announce...), addrs...))
		}))
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		rm.Close()
		return nil, fmt.Errorf("relay: start: %w", err)
	}
	return h, nil
}

// startRelayService starts the relay service (circuit relay v2) on h
// with resources rc, its counters told to stats (nil: none), and a
// reservation filter allowing --max-per-network reservations per
// network ([ipblock.Reservations]): libp2p's own limits count per IP
// address, so that 16 addresses of one /24 would take 256 reservations.
func startRelayService(h host.Host, o relayOpts, rc relayv2.Resources, stats *relayStats) (*relayv2.Relay, error) {
	acl := ipblock.NewReservations(o.maxPerNet, 0, rc.ReservationTTL, func(p peer.ID) bool {
		return h.Network().Connectedness(p) == network.Connected
	})
	opts := []relayv2.Option{relayv2.WithResources(rc), relayv2.WithACL(acl)}
	if stats != nil {
		opts = append(opts, relayv2.WithMetricsTracer(stats))
	}
	svc, err := relayv2.New(h, opts...)
	if err != nil {
		return nil, fmt.Errorf("relay: start the relay service: %w", err)
	}
	return svc, nil
}

// relayAddrs are the addresses to give players, with /p2p/<relay id>:
// announced and public ones first, loopback only when there is nothing
// else.
func relayAddrs(h host.Host) []string {
	info := peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()}
	all, _ := peer.AddrInfoToP2pAddrs(&info)
	var public, private, loop []string
	for _, m := range all {
		switch {
		case manet.IsIPLoopback(m):
			loop = append(loop, m.String())
		case manet.IsPublicAddr(m):
			public = append(public, m.String())
		default:
			private = append(private, m.String())
		}
	}
	out := append(public, private...)
	if len(out) == 0 {
		out = loop
	}
	// TCP before QUIC, for the "host runs" line.
	tcp := func(s string) bool { return strings.Contains(s, "/tcp/") }
	var a, b []string
	for _, s := range out {
		if tcp(s) {
			a = append(a, s)
		} else {
			b = append(b, s)
		}
	}
	return append(a, b...)
}

// printJSONLine writes v as one line of JSON.
func printJSONLine(w io.Writer, v any) {
	_ = json.NewEncoder(w).Encode(v)
}
