#!/usr/bin/env bash
# A relay on a private address (issue 29): a LAN's 10.x and a VPN's
# 100.64/10. Two network namespaces on a bridge, the relay in one, a host
# in the other. The host must see its reservation within 5 s and print no
# "no reservation" warning (it used to wait its whole 15 s and warn,
# although the relay granted the reservation within a second: libp2p's
# AutoRelay announces circuit addresses through public relays only).
#
#   PRIV_BIN  a built masque to use (default: build one)
#   PRIV_TAG  namespace prefix (default mpr<pid>)
#
# Runs as root; needs ip. Skips, saying why, otherwise. Every namespace is
# removed on exit.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
# shellcheck source=.ci/lib/peers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/peers.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

CI_NAME=private-relay-test
ci_need ip

TAG=${PRIV_TAG:-mpr$$}
WORK=$(mktemp -d /tmp/masque-priv.XXXXXX)
PIDS=()
NSS=()
trap 'ci_cleanup 12' EXIT

ci_masque "${PRIV_BIN:-}"

FAILED=0
# case NAME NET: the relay at NET.1, the host at NET.2.
case_() {
  local name=$1 net=$2 t="$TAG$1"
  NSS+=("$t-sw" "$t-r" "$t-h")
  bridge_lan "$t-sw" "$net" "$t-v" "$t-p" "" "$t-r" "$t-h"
  ip netns exec "$t-r" "$BIN" relay --config "$WORK/$name-relay" --listen "/ip4/$net.1/tcp/4001" \
    --listen "/ip4/$net.1/udp/4001/quic-v1" >"$WORK/$name-relay.out" 2>&1 &
  PIDS+=($!)
  local addr="" deadline=$((SECONDS + 20))
  until addr=$(grep -m1 -o "/ip4/$net\.1/tcp/4001/p2p/[0-9A-Za-z]*" "$WORK/$name-relay.out" 2>/dev/null); do
    [ $SECONDS -lt $deadline ] || { echo "private-relay-test: $name: the relay did not start"; FAILED=1; return; }
    sleep 0.1
  done
  ip netns exec "$t-h" "$BIN" host --bot --players 2 --no-mdns --wait 3s --relay "$addr" \
    --config "$WORK/$name-host" --state "$WORK/$name-state" >"$WORK/$name-host.out" 2>&1 || true
  local held
  held=$(grep -m1 -o 'reservation held after [0-9.]*s' "$WORK/$name-host.out" || true)
  if [ -z "$held" ] || grep -q 'no reservation after' "$WORK/$name-host.out"; then
    echo "private-relay-test: $name ($net.1): FAILED:"
    grep -E 'relay|warning' "$WORK/$name-host.out" | head -n 5
    FAILED=1
    return
  fi
  local secs=${held##* }
  secs=${secs%s}
  if [ "${secs%%.*}" -ge 5 ]; then
    echo "private-relay-test: $name ($net.1): FAILED: $held"
    FAILED=1
    return
  fi
  echo "private-relay-test: $name ($net.1): $held"
}
case_ lan 10.79.0
case_ vpn 100.64.79
[ $FAILED = 0 ] || exit 1
echo "private-relay-test: ok"
