package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-reuseport"
	"github.com/miekg/dns"
	"github.com/spf13/cobra"
	"golang.org/x/net/ipv4"

	"github.com/masque-games/masque/p2p/lobby"
)

type doctorOptions struct {
	asJSON   bool
	wait     time.Duration
	ifaces   []string
	relays   []string
	config   string
	resvWait time.Duration
	state    string
}

// doctorIface is one interface's check in 'masque doctor --json'.
type doctorIface struct {
	Name      string   `json:"name"`
	Index     int      `json:"index"`
	Up        bool     `json:"up"`
	Multicast bool     `json:"multicast"`
	Addrs     []string `json:"addrs"`
	Kind      string   `json:"kind,omitempty"` // loopback, vpn, container, ...
	Joined    bool     `json:"joined"`         // joined 224.0.0.251 on it
	Loopback  bool     `json:"loopback"`       // our own query came back on it
	Tables    []string `json:"tables"`         // masque tables answering on it
	Error     string   `json:"error,omitempty"`
	OK        bool     `json:"ok"`
}

type doctorReport struct {
	Interfaces []doctorIface `json:"interfaces"`
	MDNS       bool          `json:"mdns"` // some interface can do mDNS
	Hints      []string      `json:"hints"`
	// Relays are the --relay (or config file) relays' checks, and NAT what
	// they tell of this machine's NAT (none when no relay was checked).
	Relays []doctorRelay `json:"relays,omitempty"`
	NAT    *doctorNAT    `json:"nat,omitempty"`
	// HolePunch is the last hole punch to each seat of the last game
	// played with relays (or the one running), or of --state DIR's.
	HolePunch *punchReport `json:"hole_punch,omitempty"`
}

func newDoctorCmd(a *app) *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the network: multicast for LAN play, relays and NAT online",
		Long: `Check what LAN play needs, interface by interface: is it up and
multicast-capable, can we join the mDNS group 224.0.0.251 on it, and does our
own mDNS query for _masque._tcp.local come back on it (it does when
multicast works). Tables that answer are listed. Then it says what to try
when tables do not show up: firewall rules (UDP 5353 for mDNS, and the TCP
and UDP ports masque listens on), Wi-Fi client isolation, VPNs and container
bridges, and the fallbacks that need no multicast: the join code and the
invite multiaddr.

With relays (--relay ADDR, repeatable, or the relays of the config file
CONFIG/config), it also checks online play, relay by relay: is each
address (TCP, QUIC) reachable and how fast, which address the relay sees
this machine come from, does a test peer get a reservation (so that a
host here is reachable through it), and does the relay keep a table
directory (and how many tables it lists). From the addresses the relays
see it tells this machine's NAT as far as it can: none (a public
address), a cone NAT (the same public port towards two relays: hole
punching works), a symmetric NAT (a new port per relay: connections stay
relayed), or, with a single relay, whether the NAT kept the port. The
test peers use throwaway keys, not your identity.

For the last game played with relays (or the one running; --state DIR
for another game's state directory) it says, seat by seat, whether the
last hole punch to that seat succeeded (a direct connection) or failed
(the pair stayed relayed), and when.

Exit status 0 when at least one interface can do mDNS or at least one
relay holds a reservation, 1 otherwise.`,
		Example: `  masque doctor
  masque doctor --json
  masque doctor --interface wlan0
  masque doctor --relay /ip4/198.51.100.4/tcp/4001/p2p/12D3KooW... \
      --relay /ip4/198.51.100.4/udp/4001/quic-v1/p2p/12D3KooW...`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runDoctor(cmd.Context(), a, o) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	cmd.Flags().DurationVar(&o.wait, "wait", time.Second, "how long to wait for answers on each interface")
	cmd.Flags().StringSliceVar(&o.ifaces, "interface", nil, "check only this `INTERFACE` (repeatable)")
	cmd.Flags().StringArrayVar(&o.relays, "relay", nil, "also check the relay at `MULTIADDR` for online play (repeatable; default: the relays of CONFIG/config, if any)")
	cmd.Flags().StringVar(&o.config, "config", "", "configuration `DIR` whose config file may name relays (default: the user config dir + /masque)")
	cmd.Flags().DurationVar(&o.resvWait, "reservation-wait", reservationWait, "how long to wait for a test reservation on the relays")
	cmd.Flags().MarkHidden("reservation-wait")
	cmd.Flags().StringVar(&o.state, "state", "", "report the hole punches of the game in this state `DIR` (default: the last game played with relays)")
	return cmd
}

var mdnsGroup = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}

func runDoctor(ctx context.Context, a *app, o doctorOptions) error {
	if o.wait <= 0 || o.wait > time.Minute {
		return &exitError{code: 2, err: fmt.Errorf("--wait %v: want more than 0 and at most 1m", o.wait)}
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("listing interfaces: %w", err)}
	}
	if len(o.ifaces) > 0 {
		sel, err := lobby.Interfaces(o.ifaces...)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		ifs = sel
	}
	rep := doctorReport{Interfaces: []doctorIface{}}
	conn, listenErr := reuseport.ListenPacket("udp4", "0.0.0.0:5353")
	var pc *ipv4.PacketConn
	if listenErr == nil {
		defer conn.Close()
		pc = ipv4.NewPacketConn(conn)
		pc.SetControlMessage(ipv4.FlagInterface, true)
		pc.SetMulticastLoopback(true)
	}
	for _, ifi := range ifs {
		d := doctorIface{Name: ifi.Name, Index: ifi.Index, Up: ifi.Flags&net.FlagUp != 0,
			Multicast: ifi.Flags&net.FlagMulticast != 0, Kind: ifaceKind(ifi), Addrs: []string{}, Tables: []string{}}
		addrs, _ := ifi.Addrs()
		hasV4 := false
		for _, ad := range addrs {
			d.Addrs = append(d.Addrs, ad.String())
			if ipn, ok := ad.(*net.IPNet); ok && ipn.IP.To4() != nil {
				hasV4 = true
			}
		}
		switch {
		case !d.Up:
			d.Error = "down"
		case !d.Multicast:
			d.Error = "not multicast-capable"
		case !hasV4:
			d.Error = "no IPv4 address"
		case listenErr != nil:
			d.Error = fmt.Sprintf("cannot listen on UDP 5353: %v", listenErr)
		default:
			checkIface(ctx, pc, ifi, o.wait, &d)
		}
		d.OK = d.Joined && d.Loopback
		if d.OK && d.Kind != "loopback" {
			rep.MDNS = true
		}
		rep.Interfaces = append(rep.Interfaces, d)
	}
	rep.Hints = doctorHints(rep)
	config := o.config
	if config == "" {
		if d, err := defaultConfigDir(); err == nil {
			config = d
		}
	}
	var relays []peer.AddrInfo
	if len(o.relays) > 0 || config != "" {
		if relays, _, err = resolveRelays(o.relays, config); err != nil {
			return err
		}
	}
	relayOK := false
	if len(relays) > 0 {
		var nat doctorNAT
		rep.Relays, nat = checkRelays(ctx, relays, o.resvWait)
		rep.NAT = &nat
		for _, r := range rep.Relays {
			relayOK = relayOK || r.Reservation
		}
	}
	punches, punchErr := lastPunchReport(o.state)
	if punchErr != nil && o.state != "" {
		return &exitError{code: 2, err: punchErr}
	}
	rep.HolePunch = punches
	if o.asJSON {
		if err := json.NewEncoder(a.stdout).Encode(rep); err != nil {
			return err
		}
	} else {
		printDoctor(a, rep)
		if rep.NAT != nil {
			printRelays(a.stdout, rep.Relays, *rep.NAT, o.resvWait)
		}
		if punches != nil {
			printPunches(a.stdout, punches)
		}
	}
	switch {
	case len(relays) > 0 && !rep.MDNS && !relayOK:
		return &exitError{code: 1, err: errors.New("no interface can do mDNS and no relay gave a reservation: neither LAN nor online play will work"),
			hint: "check that 'masque relay' runs at the --relay address and that its ports are open"}
	case len(relays) > 0 && !rep.MDNS:
		return nil // online play works
	}
	if !rep.MDNS {
		return &exitError{code: 1, err: errors.New("no interface can do mDNS: tables on the LAN will not be found"),
			hint: "join by invite instead: the host prints 'invite: /ip4/.../p2p/...'; run 'masque join' with it"}
	}
	return nil
}

// checkIface joins the mDNS group on ifi, sends a query for masque tables
// out of it and listens for the query itself (multicast loopback) and for
// answers.
func checkIface(ctx context.Context, pc *ipv4.PacketConn, ifi net.Interface, wait time.Duration, d *doctorIface) {
	if err := pc.JoinGroup(&ifi, mdnsGroup); err != nil {
		d.Error = fmt.Sprintf("cannot join 224.0.0.251: %v", err)
		return
	}
	d.Joined = true
	defer pc.LeaveGroup(&ifi, mdnsGroup)
	if err := pc.SetMulticastInterface(&ifi); err != nil {
		d.Error = fmt.Sprintf("cannot send multicast: %v", err)
		return
	}
	q := new(dns.Msg)
	q.SetQuestion(dns.Fqdn(lobby.Service+"."+lobby.Domain), dns.TypePTR)
	q.Id = dns.Id()
	q.RecursionDesired = false
	pkt, _ := q.Pack()
	if _, err := pc.WriteTo(pkt, nil, mdnsGroup); err != nil {
		d.Error = fmt.Sprintf("cannot send to 224.0.0.251:5353: %v (a firewall or a missing multicast route?)", err)
		return
	}
	deadline := time.Now().Add(wait)
	buf := make([]byte, 9000)
	seen := map[string]bool{}
	for time.Now().Before(deadline) && ctx.Err() == nil {
		pc.SetReadDeadline(deadline)
		n, cm, _, err := pc.ReadFrom(buf)
		if err != nil {
			break
		}
		if cm != nil && cm.IfIndex != 0 && cm.IfIndex != ifi.Index {
			continue
		}
		var m dns.Msg
		if m.Unpack(buf[:n]) != nil {
			continue
		}
		if !m.Response && m.Id == q.Id {
			d.Loopback = true
			continue
		}
		for _, rr := range append(m.Answer, m.Extra...) {
			if ptr, ok := rr.(*dns.PTR); ok && strings.HasPrefix(ptr.Hdr.Name, lobby.Service+".") {
				name := strings.TrimSuffix(ptr.Ptr, "."+lobby.Service+"."+lobby.Domain)
				name = strings.ReplaceAll(name, `\ `, " ")
				if !seen[name] {
					seen[name] = true
					d.Tables = append(d.Tables, name)
				}
			}
		}
	}
	if !d.Loopback && d.Error == "" {
		d.Error = "our own mDNS query did not come back (multicast is filtered on this interface)"
	}
}

// ifaceKind guesses what an interface is from its name and flags.
func ifaceKind(ifi net.Interface) string {
	n := strings.ToLower(ifi.Name)
	switch {
	case ifi.Flags&net.FlagLoopback != 0:
		return "loopback"
	case strings.HasPrefix(n, "docker"), strings.HasPrefix(n, "br-"), strings.HasPrefix(n, "veth"),
		strings.HasPrefix(n, "cni"), strings.HasPrefix(n, "virbr"), strings.HasPrefix(n, "vboxnet"), strings.HasPrefix(n, "vmnet"):
		return "container/VM bridge"
	case strings.HasPrefix(n, "tun"), strings.HasPrefix(n, "tap"), strings.HasPrefix(n, "wg"), strings.HasPrefix(n, "utun"),
		strings.HasPrefix(n, "tailscale"), strings.HasPrefix(n, "zt"), strings.HasPrefix(n, "ppp"), strings.HasPrefix(n, "ipsec"):
		return "VPN"
	case strings.HasPrefix(n, "wl"), strings.HasPrefix(n, "wifi"):
		return "Wi-Fi"
	}
	return ""
}

func doctorHints(rep doctorReport) []string {
	var h []string
	if !rep.MDNS {
		h = append(h, "No interface passed: allow UDP port 5353 to and from 224.0.0.251 in the firewall "+
			"(ufw allow 5353/udp; firewall-cmd --add-service=mdns; on macOS and Windows allow masque when asked).")
	}
	for _, d := range rep.Interfaces {
		switch {
		case d.Kind == "VPN" && d.Up:
			h = append(h, fmt.Sprintf("%s looks like a VPN: mDNS does not cross VPNs; players on it join by invite, and a full-tunnel VPN may hide the LAN (try --interface with your LAN interface).", d.Name))
		case d.Kind == "container/VM bridge" && d.Up:
			h = append(h, fmt.Sprintf("%s is a container or VM bridge: tables announced there stay on this machine; choose the LAN with --interface.", d.Name))
		case d.Kind == "Wi-Fi" && d.OK && len(d.Tables) == 0:
			h = append(h, fmt.Sprintf("%s is Wi-Fi: guest and public networks often isolate clients (no multicast, no traffic between laptops); if tables do not show up, try a phone hotspot or join by invite.", d.Name))
		}
	}
	h = append(h,
		"Listen longer: 'masque lobby --wait 10s'. A join code ('masque join 4F7Q-ZK2M-8XPA') is looked up by mDNS on the LAN, or in a relay's directory with --relay; the invite multiaddr the host prints ('masque join /ip4/.../p2p/...') needs no multicast at all.",
		"Found but cannot join: masque listens on random TCP and UDP (QUIC) ports on every interface; allow them, or pin them with --listen /ip4/0.0.0.0/tcp/4001 --listen /ip4/0.0.0.0/udp/4001/quic-v1 and open 4001.",
		"Several network interfaces: pick the LAN one on both sides with --interface.")
	return h
}

func printDoctor(a *app, rep doctorReport) {
	w := a.stdout
	fmt.Fprintln(w, "mDNS (224.0.0.251:5353) per interface:")
	for _, d := range rep.Interfaces {
		status := "ok"
		if !d.OK {
			status = "no: " + d.Error
		}
		kind := ""
		if d.Kind != "" {
			kind = " (" + d.Kind + ")"
		}
		fmt.Fprintf(w, "  %-12s %-40s %s%s\n", d.Name, strings.Join(d.Addrs, " "), status, kind)
		if len(d.Tables) > 0 {
			fmt.Fprintf(w, "  %-12s tables answering: %s\n", "", strings.Join(d.Tables, ", "))
		}
	}
	if rep.MDNS {
		fmt.Fprintln(w, "multicast works: tables on this network should show up in 'masque lobby'")
	}
	fmt.Fprintln(w, "\nif tables do not show up, or cannot be joined:")
	for _, h := range rep.Hints {
		fmt.Fprintf(w, "  - %s\n", h)
	}
}
