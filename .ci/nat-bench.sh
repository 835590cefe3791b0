#!/usr/bin/env bash
# Benchmarks of online play in the NAT lab (.ci/natlab.sh) with one-way
# delays on every internet link (nfdelay: relay 20 ms, A 10, B 15, C 15;
# C as B, so that a relayed A<->C path and a relayed A<->B path are
# alike):
#
# 1. Entry latency, relayed against hole-punched: a 3-seat bot game, the
#    host behind symmetric NAT C, joiners behind cone NATs A and B. A and
#    B first meet when play starts (through the relay), hole punching
#    makes them a direct connection and their log streams move onto it;
#    every pair with C stays relayed. Each process logs (--log, debug)
#    when its seat's entry body is ready and when it applies any entry,
#    in microseconds of the machine's one clock; the latency of an entry
#    to a peer is the difference. Reported: the median per pair, A->B and
#    B->A counted once both log streams moved, against A<->C (relayed).
#    Conntrack on router A gives the bytes of the direct A<->B flow and
#    of A's flows with the relay.
# 2. A 6-player bot game over relays (two seats behind each NAT, joined by
#    invite through the relay), from the roster to every process's exit,
#    against the same on a LAN (6 namespaces on a bridge, no delay).
#
#   .ci/nat-bench.sh BIN [RUNS]     as root; BIN a built masque
#   OLD_BIN=path  also run part 1 with another masque (e.g. one whose log
#                 streams do not move) for comparison
#   NFDELAY=path  a built nfdelay (default: build .ci/nfdelay.c; Debian
#                 libnetfilter-queue-dev, iptables)
#   BOT_DELAY=1s  part 2's bots think this long before each move (a
#                 person's pace: --bot-delay)
#
# Traffic stays inside the namespaces (no uplink); all are removed on exit.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
BIN=$(realpath "${1:?usage: nat-bench.sh BIN [RUNS]}")
RUNS=${2:-3}
TAG="${NATBENCH_TAG:-mqnb$$}"
export NATLAB_PREFIX="$TAG-" NATLAB_DELAYS="20 10 15 15"
P=$NATLAB_PREFIX
WORK=$(mktemp -d /tmp/masque-natbench.XXXXXX)
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()
LANNS=()
cleanup() {
  for p in "${PIDS[@]:-}" $(cat "$WORK"/*/*.pid 2>/dev/null); do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  .ci/natlab.sh down >/dev/null 2>&1 || true
  for n in "${LANNS[@]:-}"; do [ -n "$n" ] && ip netns del "$n" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "nat-bench: FAIL: $*" >&2; exit 1; }

if [ -z "${NFDELAY:-}" ]; then
  cc -O2 -o "$WORK/nfdelay" .ci/nfdelay.c -lnetfilter_queue || fail "cannot build nfdelay (apt-get install libnetfilter-queue-dev)"
  NFDELAY="$WORK/nfdelay"
fi
export NFDELAY
command -v iptables-legacy >/dev/null || fail "needs iptables-legacy (apt-get install iptables)"
.ci/natlab.sh up >"$WORK/natlab.out" 2>&1 || { cat "$WORK/natlab.out"; fail "natlab up"; }
for r in A B C; do ip netns exec "${P}r$r" sysctl -qw net.netfilter.nf_conntrack_acct=1; done

ip netns exec "${P}relay" "$BIN" relay --config "$WORK/relay" --json --status 0 \
  --listen /ip4/11.0.0.10/tcp/4001 --listen /ip4/11.0.0.10/udp/4001/quic-v1 >"$WORK/relay.json" 2>"$WORK/relay.out" &
PIDS+=($!)
for _ in $(seq 150); do grep -q '"event":"started"' "$WORK/relay.json" 2>/dev/null && break; sleep 0.1; done
RID=$(sed -n 's/.*"peer_id":"\([^"]*\)".*/\1/p' "$WORK/relay.json" | head -n1)
[ -n "$RID" ] || fail "the relay did not start"
RT="/ip4/11.0.0.10/tcp/4001/p2p/$RID"
RQ="/ip4/11.0.0.10/udp/4001/quic-v1/p2p/$RID"
rtt() { ip netns exec "${P}h$1" ping -c 5 -q "$2" 2>/dev/null | sed -n 's|.*= [0-9.]*/\([0-9.]*\)/.*|\1|p'; }
echo "nat-bench: lab up; measured round trips to the relay: A $(rtt A 11.0.0.10) ms, B $(rtt B 11.0.0.10) ms, C $(rtt C 11.0.0.10) ms" \
  "(nominal 60, 70, 70); nominal A<->B direct 50 ms, relayed 130 ms; A<->C relayed 130 ms"

# run NS OUT BIN ARGS...: start a masque in NS; pid appended to GPIDS.
GPIDS=()
run() {
  local ns=$1 out=$2 bin=$3
  shift 3
  ( ip netns exec "$ns" "$bin" "$@" >"$out" 2>&1 &
    echo $! >"$out.pid"
    rc=0
    wait $! || rc=$?
    date +%s.%N >"$out.end"
    exit $rc ) &
  GPIDS+=($!)
  PIDS+=($!)
}
waitgame() {
  local rc=0 p
  for p in "${GPIDS[@]}"; do wait "$p" || rc=$?; done
  GPIDS=()
  return $rc
}
invite() {
  local f=$1 deadline=$((SECONDS + 60))
  until grep -q '^invite: .*/p2p-circuit/' "$f" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "no circuit invite in $f"
    sleep 0.1
  done
  grep -m1 '^invite: .*/p2p-circuit/' "$f" | sed 's/^invite: //'
}

# ---- 1. latency
latency() {
  local bin=$1 d=$2
  mkdir -p "$d"
  for r in A B C; do ip netns exec "${P}r$r" conntrack -F 2>/dev/null || true; done
  c() { echo --bot --relay "$RT" --relay "$RQ" --state "$d/s$1" --config "$d/c$1" --transcript "$d/t$1.masque" --timeout 60s --log "$d/l$1.log"; }
  # shellcheck disable=SC2046
  run "${P}hC" "$d/h.out" "$bin" host --players 3 --name "lat-$TAG" --no-mdns $(c 0)
  local inv
  inv=$(invite "$d/h.out")
  # shellcheck disable=SC2046
  run "${P}hA" "$d/jA.out" "$bin" join "$inv" $(c 1)
  # shellcheck disable=SC2046
  run "${P}hB" "$d/jB.out" "$bin" join "$inv" $(c 2)
  waitgame || fail "latency game in $d failed: $(tail -n 3 "$d"/*.out)"
  cmp -s "$d/t0.masque" "$d/t1.masque" && cmp -s "$d/t0.masque" "$d/t2.masque" || fail "latency game: transcripts differ"
  "$bin" verify "$d/t0.masque" >/dev/null || fail "latency game: transcript rejected"
  ip netns exec "${P}rA" conntrack -L -o extended >"$d/ct-A.txt" 2>/dev/null || true
  python3 - "$d" <<'PY'
import re, sys, statistics, datetime, math
d = sys.argv[1]
procs = {"C": "l0", "A": "l1", "B": "l2"}
authored, applied, moved, seat_of = {}, {}, {}, {}
for name, f in procs.items():
    applied[name] = {}
    moved[name] = []
    for line in open(f"{d}/{f}.log"):
        m = re.search(r'msg="entry (authored|applied)" pos=(\d+) seat=(\d+) t_us=(\d+)', line)
        if m:
            kind, pos, seat, t = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
            if kind == "authored":
                authored[pos] = (name, t)
                seat_of[seat] = name
            else:
                applied[name][pos] = t
            continue
        if 'log stream moving to a direct connection' in line:
            ts = re.search(r'time=(\S+)', line).group(1)
            moved[name].append(datetime.datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1e6)
punched = max(max(moved["A"]), max(moved["B"])) if moved["A"] and moved["B"] else None
pairs = {}
for pos, (src, t0) in authored.items():
    for dst in procs:
        if dst == src or pos not in applied[dst]:
            continue
        key = f"{src}->{dst}"
        if {src, dst} == {"A", "B"}:
            if punched is None:
                key += " (relayed: no move)"
            elif t0 < punched:
                key += " (before the move)"
        pairs.setdefault(key, []).append((applied[dst][pos] - t0) / 1000)
print(f"  moves: A {len(moved['A'])}, B {len(moved['B'])}, C {len(moved['C'])}; entries {len(authored)}")
for k in sorted(pairs):
    v = pairs[k]
    print(f"  {k:28s} n={len(v):4d} median {statistics.median(v):6.1f} ms  p90 {sorted(v)[math.ceil(0.9*(len(v)-1))]:6.1f} ms")
PY
  # Bytes through router A's conntrack: the direct flow with B's router
  # (11.0.0.22) and A's flows with the relay (11.0.0.10).
  python3 - "$d/ct-A.txt" <<'PY'
import re, sys
direct = relay = 0
for line in open(sys.argv[1]):
    b = sum(int(x) for x in re.findall(r'bytes=(\d+)', line))
    if "dst=11.0.0.22 " in line or "src=11.0.0.22 " in line:
        direct += b
    elif "dst=11.0.0.10 " in line or "src=11.0.0.10 " in line:
        relay += b
print(f"  router A conntrack: direct A<->B flow {direct} bytes, A<->relay flows {relay} bytes (A's relayed traffic with B before the move and with C all game)")
PY
}
for run_i in $(seq "$RUNS"); do
  echo "nat-bench: latency run $run_i ($BIN)"
  latency "$BIN" "$WORK/lat$run_i"
  if [ -n "${OLD_BIN:-}" ]; then
    echo "nat-bench: latency run $run_i ($OLD_BIN)"
    latency "$(realpath "$OLD_BIN")" "$WORK/old$run_i"
  fi
done

# ---- 2. a 6-player game over relays, and on a LAN
# game6 DIR NS...: host in the first NS, joiners in the others (invite:
# circuit when ARGS has --relay, else the host's TCP address).
game6() {
  local d=$1 bin=$2 relay=$3
  shift 3
  local nss=("$@")
  mkdir -p "$d"
  c() { echo --bot ${BOT_DELAY:+--bot-delay "$BOT_DELAY"} --state "$d/s$1" --config "$d/c$1" --transcript "$d/t$1.masque" --timeout 60s; }
  local r=()
  [ "$relay" = yes ] && r=(--relay "$RT" --relay "$RQ")
  # shellcheck disable=SC2046
  run "${nss[0]}" "$d/h.out" "$bin" host --players 6 --name "six-$TAG" --no-mdns "${r[@]}" $(c 0)
  local inv deadline=$((SECONDS + 60))
  if [ "$relay" = yes ]; then inv=$(invite "$d/h.out"); else
    until grep -q '^invite: /ip4/10\.77\..*/tcp/' "$d/h.out" 2>/dev/null; do
      [ $SECONDS -lt $deadline ] || fail "no LAN invite"
      sleep 0.1
    done
    inv=$(grep -m1 '^invite: /ip4/10\.77\..*/tcp/' "$d/h.out" | sed 's/^invite: //')
  fi
  for i in 1 2 3 4 5; do
    # shellcheck disable=SC2046
    run "${nss[$i]}" "$d/j$i.out" "$bin" join "$inv" "${r[@]}" $(c "$i")
  done
  until grep -q "the game is saved in" "$d/h.out" 2>/dev/null; do
    [ $SECONDS -lt $((deadline + 60)) ] || fail "6 seats: not seated"
    sleep 0.01
  done
  local t0
  t0=$(date +%s.%N)
  waitgame || fail "6-seat game in $d failed"
  local last=0 f
  for f in "$d"/*.out.end; do last=$(echo "if ($(cat "$f") > $last) $(cat "$f") else $last" | bc); done
  for i in 1 2 3 4 5; do cmp -s "$d/t0.masque" "$d/t$i.masque" || fail "6 seats: transcripts differ"; done
  local n
  n=$("$bin" verify "$d/t0.masque" | grep -o '[0-9]* entries' | head -1 | cut -d' ' -f1)
  echo "$d $(echo "$last - $t0" | bc) $n" | awk '{printf "  %.2f s for %d entries: %.1f ms per entry\n", $2, $3, 1000*$2/$3}'
}
echo "nat-bench: 6-player games over the relay (two seats behind each NAT)"
for run_i in $(seq "$RUNS"); do
  game6 "$WORK/six$run_i" "$BIN" yes "${P}hA" "${P}hA" "${P}hB" "${P}hB" "${P}hC" "${P}hC"
done
# The LAN: 6 namespaces on a bridge, no delay.
SW="$TAG-lsw"
LANNS+=("$SW" "$TAG-l0" "$TAG-l1" "$TAG-l2" "$TAG-l3" "$TAG-l4" "$TAG-l5")
bridge_lan "$SW" 10.77.0 "$TAG-lv" "$TAG-lp" "" "$TAG-l0" "$TAG-l1" "$TAG-l2" "$TAG-l3" "$TAG-l4" "$TAG-l5"
echo "nat-bench: 6-player games on a LAN (no relay, no delay)"
for run_i in $(seq "$RUNS"); do
  game6 "$WORK/lan$run_i" "$BIN" no "$TAG-l0" "$TAG-l1" "$TAG-l2" "$TAG-l3" "$TAG-l4" "$TAG-l5"
done
echo "nat-bench: done"
