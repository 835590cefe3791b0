# shellcheck shell=bash
# Network namespaces on a bridge, for the .ci scripts that source this.

# bridge_lan SW NET V P GW NS...: a new namespace SW holding a bridge br0
# and, for each NS (the i-th counted from 0), a new namespace joined to it
# by a veth pair: V<i> moved into NS and renamed eth0, with the address
# NET.<i+1>/24, and P<i> a port of br0. With GW (an address in NET) not
# empty, br0 takes it and every NS routes by it; with GW empty, there is
# no default route. Everything is up on return.
bridge_lan() {
  local sw=$1 net=$2 v=$3 p=$4 gw=$5
  shift 5
  ip netns add "$sw"
  ip -n "$sw" link set lo up
  ip -n "$sw" link add br0 type bridge
  ip -n "$sw" link set br0 up
  [ -z "$gw" ] || ip -n "$sw" addr add "$gw/24" dev br0
  local i=0 n
  for n in "$@"; do
    ip netns add "$n"
    ip link add "$v$i" type veth peer name "$p$i"
    ip link set "$v$i" netns "$n"
    ip link set "$p$i" netns "$sw"
    ip -n "$n" link set "$v$i" name eth0
    ip -n "$n" addr add "$net.$((i + 1))/24" dev eth0
    ip -n "$n" link set eth0 up
    ip -n "$n" link set lo up
    [ -z "$gw" ] || ip -n "$n" route add default via "$gw"
    ip -n "$sw" link set "$p$i" master br0
    ip -n "$sw" link set "$p$i" up
    i=$((i + 1))
  done
}
