#!/usr/bin/env bash
# Network namespaces standing for the internet, a public relay host and
# three homes behind NATs (adapted from the natlab used to study NAT
# traversal). Everything lives in namespaces named $NATLAB_PREFIX* (default
# "natlab-"); veths are created inside them, nothing touches the root
# namespace's interfaces, and the "internet" bridge has no uplink, so no
# packet can leave the machine.
#
#   ${P}inet  : bridge br0 = "the internet", 11.0.0.0/24 (public-looking
#               addresses on purpose: libp2p's hole punching and relay
#               reservations only use public addresses)
#   ${P}relay : 11.0.0.10            (public relay host)
#   ${P}rA    : wan 11.0.0.21, lan 192.168.1.1  cone NAT (Linux's default
#               masquerade: port-preserving, endpoint-independent mapping,
#               address+port-dependent filtering)
#   ${P}rB    : wan 11.0.0.22, lan 192.168.2.1  cone NAT (the same)
#   ${P}rC    : wan 11.0.0.23, lan 192.168.3.1  symmetric NAT (masquerade
#               fully-random: a new random port per 5-tuple)
#   ${P}hA/hB/hC : home hosts 192.168.{1,2,3}.2, default route via router
#
# Unlike the natlab it comes from, each router also drops unsolicited
# packets addressed to itself from the internet (as home routers do).
# Without that, a hole-punch packet that reaches a router before its own
# side's packet leaves leaves a conntrack entry whose reverse tuple
# clashes with the outgoing mapping, masquerade picks another port and
# the punch fails; on the real internet the packets' flight time avoids
# the race, here there is none.
#
# Delays: with NFDELAY naming a built nfdelay (../shared/natlab/nfdelay.c:
# cc -O2 -o nfdelay nfdelay.c -lnetfilter_queue, Debian
# libnetfilter-queue-dev; this kernel has no sch_netem), every packet
# crossing a wan link is held (iptables-legacy NFQUEUE to nfdelay; Debian
# iptables) one way: relay
# 20 ms, A 10, B 15, C 12 (override with NATLAB_DELAYS="relay A B C").
# So a direct A<->B round trip is 2*(10+15) = 50 ms, and A<->B through
# the relay 2*(10+20) + 2*(20+15) = 130 ms.
#
# Needs root, ip (iproute2) and nft (nftables).
# usage: natlab.sh up | down | show
set -euo pipefail
P=${NATLAB_PREFIX:-natlab-}
NS="${P}inet ${P}relay ${P}rA ${P}hA ${P}rB ${P}hB ${P}rC ${P}hC"
declare -A WANIP=([relay]=11.0.0.10 [A]=11.0.0.21 [B]=11.0.0.22 [C]=11.0.0.23)
declare -A LANNET=([A]=1 [B]=2 [C]=3)
declare -A NATKIND=([A]=cone [B]=cone [C]=symmetric)
read -r d_relay d_A d_B d_C <<<"${NATLAB_DELAYS:-20 10 15 12}"
declare -A DELAY=([relay]=$d_relay [A]=$d_A [B]=$d_B [C]=$d_C)
RUN="${TMPDIR:-/tmp}/natlab-${P}run"

# delay NS MS: hold every packet crossing NS's wan link MS milliseconds
# (both directions), when NFDELAY is set.
delay() {
  local ns=$1 ms=$2
  [ -n "${NFDELAY:-}" ] || return 0
  [ -x "$NFDELAY" ] || { echo "natlab: NFDELAY=$NFDELAY is not executable" >&2; return 1; }
  # iptables-legacy: nftables' queue statement needs a module this kernel
  # lacks; xt_NFQUEUE works.
  ip netns exec "$ns" iptables-legacy -t mangle -A PREROUTING -i wan -j NFQUEUE --queue-num 0 --queue-bypass
  ip netns exec "$ns" iptables-legacy -t mangle -A POSTROUTING -o wan -j NFQUEUE --queue-num 0 --queue-bypass
  mkdir -p "$RUN"
  ip netns exec "$ns" setsid "$NFDELAY" 0 "$ms" </dev/null >"$RUN/nfdelay-$ns.log" 2>&1 &
  echo $! >"$RUN/nfdelay-$ns.pid"
}

up() {
  for n in $NS; do ip netns add "$n"; ip -n "$n" link set lo up; done
  ip -n "${P}inet" link add br0 type bridge
  ip -n "${P}inet" link set br0 up
  ip link add name wan netns "${P}relay" type veth peer name p-relay netns "${P}inet"
  ip -n "${P}inet" link set p-relay master br0 up
  ip -n "${P}relay" addr add "${WANIP[relay]}/24" dev wan
  ip -n "${P}relay" link set wan up
  delay "${P}relay" "${DELAY[relay]}"
  for h in A B C; do
    r="${P}r$h" home="${P}h$h" net=${LANNET[$h]}
    ip link add name wan netns "$r" type veth peer name "p-$h" netns "${P}inet"
    ip -n "${P}inet" link set "p-$h" master br0 up
    ip -n "$r" addr add "${WANIP[$h]}/24" dev wan
    ip -n "$r" link set wan up
    ip link add name lan netns "$r" type veth peer name eth0 netns "$home"
    ip -n "$r" addr add "192.168.$net.1/24" dev lan
    ip -n "$r" link set lan up
    ip -n "$home" addr add "192.168.$net.2/24" dev eth0
    ip -n "$home" link set eth0 up
    ip -n "$home" route add default via "192.168.$net.1"
    ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
    if [ "${NATKIND[$h]}" = symmetric ]; then masq="masquerade fully-random"; else masq="masquerade"; fi
    ip netns exec "$r" nft -f - <<NFT
table ip natlab {
  chain postnat { type nat hook postrouting priority srcnat; policy accept; oifname "wan" $masq; }
  chain filt { type filter hook forward priority filter; policy drop;
               iifname "lan" oifname "wan" accept;
               iifname "wan" oifname "lan" ct state established,related accept; }
  chain inp { type filter hook input priority filter; policy accept;
              iifname "wan" ct state new drop; }
}
NFT
    delay "$r" "${DELAY[$h]}"
  done
}

down() {
  for f in "$RUN"/nfdelay-*.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    rm -f "$f"
  done
  for n in $NS; do ip netns del "$n" 2>/dev/null || true; done
}

show() {
  for n in $NS; do echo "== $n"; ip -n "$n" -br addr; done
  for h in A B C; do echo "== ${P}r$h"; ip netns exec "${P}r$h" nft list ruleset; done
}

case "${1:-}" in up) up ;; down) down ;; show) show ;; *) echo "usage: $0 up|down|show" >&2; exit 2 ;; esac
