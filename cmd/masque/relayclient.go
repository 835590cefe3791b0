package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/directory"
	"github.com/masque-games/masque/p2p/lobby"
)

// relayFlagHelp is --relay's help on host, join and play.
const relayFlagHelp = "play across the internet through the relay at `MULTIADDR` (as 'masque relay' prints it, ending in /p2p/<relay id>; " +
	"repeatable: give its TCP and QUIC addresses, or several relays). The relay only forwards encrypted bytes; " +
	"seats behind home routers reach each other through it, and go direct when hole punching works; the host lists its table in the relay's directory, " +
	"so that others join by code. Default: the relays of the config file CONFIG/config, if any. See docs/online.md"

// addRelayFlag adds --relay to cmd.
func addRelayFlag(cmd *cobra.Command, relays *[]string) {
	cmd.Flags().StringArrayVar(relays, "relay", nil, relayFlagHelp)
}

// parseRelayFlag parses --relay's values; a bad one is a usage error
// naming the flag.
func parseRelayFlag(addrs []string) ([]peer.AddrInfo, error) {
	relays, err := p2p.ParseRelays(addrs)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("--relay %w", err),
			hint: "a relay address is a multiaddr ending in the relay's peer id, as 'masque relay' prints it: /ip4/203.0.113.7/tcp/4001/p2p/12D3KooW..."}
	}
	return relays, nil
}

// relayWait is how long a peer with relays waits for its reservations
// before it goes on (and keeps trying in the background).
const relayWait = 15 * time.Second

// awaitRelays waits for p's reservations on the --relay relays (until
// they are held, or relayWait) and says which it holds.
func (r *netRun) awaitRelays(p *netsession.Peer) {
	if len(r.relays) == 0 {
		return
	}
	wait := r.o.relayWait
	if wait <= 0 {
		wait = relayWait
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	start := time.Now()
	held := p.Node.WaitReservations(ctx)
	for _, rl := range r.relays {
		if containsID(held, rl.ID) {
			r.printf("relay %s: reservation held after %.1fs (others reach you through it)", shortPeer(rl.ID), time.Since(start).Seconds())
		} else {
			r.printf("warning: relay %s: no reservation after %v (is 'masque relay' running at %s?); still trying",
				shortPeer(rl.ID), wait, rl.Addrs[0])
		}
	}
	if len(held) > 0 && p.Node.PublicRelay() && !p.Node.HolePunchReady() {
		r.printf("hole punching not ready (no public address of yours seen yet): connections stay relayed")
	}
}

func containsID(ids []peer.ID, id peer.ID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// shortPeer is the end of a peer id, enough to tell relays apart.
func shortPeer(id peer.ID) string {
	s := id.String()
	if len(s) > 8 {
		return "…" + s[len(s)-8:]
	}
	return s
}

// inviteRelays adds the relay of a circuit invite to r's relays (a joiner
// must hold a reservation on it too, for the other seats to reach it) and
// says so.
func (r *netRun) inviteRelays(info peer.AddrInfo) {
	for _, a := range info.Addrs {
		rl, ok := p2p.RelayOfCircuit(a)
		if !ok {
			continue
		}
		i := -1
		for j, have := range r.relays {
			if have.ID == rl.ID {
				i = j
			}
		}
		if i >= 0 {
			continue
		}
		r.relays = append(r.relays, rl)
		r.printf("the invite goes through relay %s: using it (as --relay %s/p2p/%s)", shortPeer(rl.ID), rl.Addrs[0], rl.ID)
	}
}

// unreachableHint explains a host (creator) that could not be reached:
// on a LAN, a lossy network or a firewall; across the internet without a
// relay, that is what a relay is for.
func (r *netRun) unreachableHint(err error, creator peer.AddrInfo) (string, bool) {
	if !errors.Is(err, p2p.ErrUnreachable) {
		return "", false
	}
	if len(r.relays) == 0 && onLAN(creator.Addrs, r.localNets()) {
		hint := "the host's address is on your local network, so no relay is needed: the network is losing packets (Wi-Fi far from " +
			"the router, a busy link) or a firewall on the host's machine blocks the port. Ask the host whether it still has a seat open and try again"
		if !hasQUIC(creator.Addrs) {
			hint += "; ask for its QUIC invite (the line with /udp/…/quic-v1), which copes much better with lost packets than TCP"
		}
		return hint + "; 'masque doctor' on both machines checks the rest", true
	}
	if len(r.relays) == 0 {
		return "the host could not be reached directly. If you are not on the same LAN (players at home behind routers, NAT), " +
			"play through a relay: someone runs 'masque relay' on a reachable machine, the host runs 'masque host --relay RELAY-ADDR' " +
			"and you join with the invite it prints (or add --relay RELAY-ADDR); see docs/online.md", true
	}
	var addrs []string
	for _, rl := range r.relays {
		addrs = append(addrs, rl.Addrs[0].String())
	}
	return "the host could not be reached, even through the relay (" + strings.Join(addrs, ", ") + "): check that the relay is running " +
		"and that the host started with the same --relay (its invite then shows /p2p-circuit addresses through it)", true
}

// onLAN reports whether addrs (a creator's, as dialled) are all on a
// network this machine is on: loopback, or a private address (RFC 1918,
// IPv6 ULA and link-local, 100.64/10) inside one of local, the networks
// of this machine's interfaces. A private address on another network is
// the host's side of its router (an invite printed behind a home NAT),
// which only a relay reaches; a circuit or a public address is no LAN.
func onLAN(addrs []ma.Multiaddr, local []*net.IPNet) bool {
	for _, a := range addrs {
		if p2p.IsCircuit(a) {
			return false
		}
		if manet.IsIPLoopback(a) {
			continue
		}
		ip, err := manet.ToIP(a)
		if err != nil || !manet.IsPrivateAddr(a) || !slices.ContainsFunc(local, func(n *net.IPNet) bool { return n.Contains(ip) }) {
			return false
		}
	}
	return len(addrs) > 0
}

// acrossNATPatience is how long a joiner with no relay keeps dialling a
// host that is not on its LAN: what does not answer in 20 s across the
// internet is behind a router that only a relay gets through (the hint
// says so), not a lossy link.
const acrossNATPatience = 20 * time.Second

// dialPatience is how long a join keeps dialling creator before a seat:
// the netsession default (minutes: a lossy LAN, a host still starting)
// on a LAN or through a relay, acrossNATPatience otherwise.
func (r *netRun) dialPatience(creator peer.AddrInfo) time.Duration {
	if len(r.relays) == 0 && !onLAN(creator.Addrs, r.localNets()) {
		return acrossNATPatience
	}
	return 0
}

// interfaceNets are the networks of this machine's interfaces (none if
// they cannot be read).
func interfaceNets() []*net.IPNet {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var nets []*net.IPNet
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			nets = append(nets, n)
		}
	}
	return nets
}

// localNets are the networks this run counts as its LAN (onLAN):
// r.lan when set (tests), else this machine's interfaces'.
func (r *netRun) localNets() []*net.IPNet {
	if r.lan != nil {
		return r.lan
	}
	return interfaceNets()
}

// hasQUIC reports whether one of addrs is a QUIC address.
func hasQUIC(addrs []ma.Multiaddr) bool {
	for _, a := range addrs {
		if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err == nil {
			return true
		}
	}
	return false
}

// dialCause is the gist of a failed dial, for a progress line: the
// last cause in err's text.
func dialCause(err error) string {
	msg := err.Error()
	for _, known := range []string{"failed to negotiate security protocol", "i/o timeout", "connection refused",
		"no route to host", "network is unreachable", "context deadline exceeded", "timeout: no recent network activity"} {
		if strings.Contains(msg, known) {
			return known
		}
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return msg
}

// relayNames names relays for messages: "relay …ABCD1234" or
// "relays …A, …B".
func relayNames(relays []peer.AddrInfo) string {
	var ids []string
	for _, rl := range relays {
		ids = append(ids, shortPeer(rl.ID))
	}
	if len(ids) == 1 {
		return "relay " + ids[0]
	}
	return "relays " + strings.Join(ids, ", ")
}

// listDirectories asks every relay's directory for its open tables (those
// with join code code, if not empty), through a throwaway libp2p host
// (no identity of the player's is shown to the relays), and merges the
// answers. errs holds the relays that did not answer.
func listDirectories(ctx context.Context, relays []peer.AddrInfo, code string) ([]lobby.Table, []error) {
	return askDirectories(ctx, relays, code, directory.List)
}

// listDirectoriesPlaying is listDirectories for the tables in play
// (games under way, for spectators). A relay older than that part of the
// directory answers "bad request": it lists none, and is not an error.
func listDirectoriesPlaying(ctx context.Context, relays []peer.AddrInfo, code string) ([]lobby.Table, []error) {
	return askDirectories(ctx, relays, code, func(ctx context.Context, h host.Host, rl peer.AddrInfo, code string) ([]lobby.Table, error) {
		tables, err := directory.ListPlaying(ctx, h, rl, code)
		var no *directory.RefusedError
		if errors.As(err, &no) && no.Status == directory.StatusBadRequest {
			return nil, nil
		}
		return tables, err
	})
}

func askDirectories(ctx context.Context, relays []peer.AddrInfo, code string,
	list func(context.Context, host.Host, peer.AddrInfo, string) ([]lobby.Table, error)) ([]lobby.Table, []error) {
	h, err := libp2p.New(libp2p.NoListenAddrs, libp2p.DisableRelay(), libp2p.DisableMetrics())
	if err != nil {
		return nil, []error{fmt.Errorf("start a host to ask the directories: %w", err)}
	}
	defer h.Close()
	lists := make([][]lobby.Table, len(relays))
	errs := make([]error, len(relays))
	var wg sync.WaitGroup
	for i, rl := range relays {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lists[i], errs[i] = list(ctx, h, rl, code)
		}()
	}
	wg.Wait()
	var failed []error
	for _, e := range errs {
		if e != nil {
			failed = append(failed, e)
		}
	}
	return directory.Merge(lists...), failed
}
