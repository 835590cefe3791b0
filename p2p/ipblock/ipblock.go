// Package ipblock says which block of addresses a relay counts a client
// in, and holds the relay's per-block limit on reservations.
//
// One IPv4 address is cheap to change within its /24 (a hosting
// provider hands out several, a home router renews its lease), and one
// IPv6 host commonly holds a whole /64, often a /56 or /48: a limit per
// address is no limit at all. A public relay therefore counts a client
// by its block: a public IPv4 address by its /24, a public IPv6 address
// by its /56 (and, more loosely, its /48). Addresses that are not public
// (loopback, RFC 1918, CGNAT/VPN 100.64/10, link-local, ULA) are counted
// one by one: a relay sees them only from its own network (a LAN party,
// a VPN), where every player may share one /24 and none is a stranger
// with a /64 to spend.
package ipblock

import (
	"net/netip"

	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Block sizes: a public IPv4 address counts in its /24, a public IPv6
// address in its /56 and (looser limits) its /48.
const (
	V4Bits     = 24
	V6Bits     = 56
	V6WideBits = 48
)

// cgnat is RFC 6598's shared address space, used by carrier-grade NAT
// and by VPNs (Tailscale): not public.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// Public reports whether ip is a public unicast address.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsValid() && ip.IsGlobalUnicast() && !ip.IsPrivate() && !cgnat.Contains(ip)
}

// Of is the block ip counts in: its /24 (IPv4) or /56 (IPv6) if it is
// public, itself (/32, /128) otherwise. An invalid ip gives the zero
// Prefix.
func Of(ip netip.Addr) netip.Prefix {
	ip = ip.Unmap()
	if !ip.IsValid() {
		return netip.Prefix{}
	}
	bits := ip.BitLen()
	if Public(ip) {
		bits = V4Bits
		if ip.Is6() {
			bits = V6Bits
		}
	}
	p, _ := ip.Prefix(bits)
	return p
}

// Wide is the looser block a public IPv6 address also counts in (its
// /48); ok is false for IPv4 and for addresses that are not public.
func Wide(ip netip.Addr) (p netip.Prefix, ok bool) {
	ip = ip.Unmap()
	if !ip.Is6() || !Public(ip) {
		return netip.Prefix{}, false
	}
	p, _ = ip.Prefix(V6WideBits)
	return p, true
}

// Addr is the IP address a multiaddr starts with (invalid if none:
// a DNS name, a circuit).
func Addr(a ma.Multiaddr) netip.Addr {
	ip, err := manet.ToIP(a)
	if err != nil {
		return netip.Addr{}
	}
	nip, _ := netip.AddrFromSlice(ip)
	return nip.Unmap()
}
