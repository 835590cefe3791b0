#!/usr/bin/env bash
# Replication benchmark (issue 15, "Speed"): a 13-player bot game on a LAN of
# 13 network namespaces joined by a bridge, one masque process per seat,
# found by mDNS. For each run it prints the time from the roster (the
# host's "the game is saved in" line) to every process's exit, the bytes
# and packets all 13 interfaces sent during that time (IP level, read from
# the bridge's ports), the entries in the transcript and the transcript's
# size, and the packets per entry per receiving seat (issue 28).
#
#   .ci/lan13-bench.sh BIN RUNS
#
# WATCH=1 adds a spectator ('masque watch CODE', in the first joiner's
# namespace) started before the joiners; its transcript must be the
# seats'. LOGS=1 keeps each process's diagnostics (at debug level) and
# summarises each run with .ci/lanstats (warnings, stalls, the latency
# from an entry's author to every other seat), then all the runs
# together; KEEP=1 keeps the work dir. Each run also prints the load
# average, the machine's CPU during the run (busy and steal, from
# /proc/stat) and the CPU time of the run's processes. STATS=FILE writes
# lanstats' output for all the runs to FILE.
#
# Runs as root; namespaces are named rp-<pid>-* (NAME=x: x-*), removed on
# exit.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
BIN=$(realpath "${1:?usage: lan13-bench.sh BIN RUNS}")
RUNS=${2:-3}
N=13
TAG="${NAME:-rp-$$}"
SW="$TAG-sw"
WORK=$(mktemp -d /tmp/repl-lan13.XXXXXX)
if [ -n "${LOGS:-}" ]; then
  (cd "$(dirname "${BASH_SOURCE[0]}")/.." && go build -o "$WORK/lanstats" ./.ci/lanstats)
fi
# cpustat: the machine's CPU jiffies: busy, steal, total.
cpustat() { awk '/^cpu /{b=$2+$3+$4+$7+$8; print b, $9, b+$5+$6+$9}' /proc/stat; }
# childcpu FILE: the CPU seconds (user + system) of this shell's waited
# children in FILE, the output of 'times' (run in this shell: a subshell
# has its own).
childcpu() { tail -1 "$1" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1]*60 + u[2] + s[1]*60 + s[2] }'; }
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true; done
  for i in $(seq 0 $((N - 1))); do ip netns del "$TAG-$i" 2>/dev/null || true; done
  ip netns del "$SW" 2>/dev/null || true
  [ -n "${KEEP:-}" ] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
HOSTS=()
for i in $(seq 0 $((N - 1))); do HOSTS+=("$TAG-$i"); done
# The veth pairs' ends: VETH<i> in the hosts, PORT<i> on the bridge
# (NAME, if set, must leave room for "v12" in 15 characters).
VETH="${NAME:+${NAME}v}"
VETH="${VETH:-rpv$$-}"
PORT="${NAME:+${NAME}p}"
PORT="${PORT:-rpp$$-}"
bridge_lan "$SW" 10.78.0 "$VETH" "$PORT" "" "${HOSTS[@]}"
# bytes, packets: what the 13 hosts sent (the bridge ports' rx counters).
counter() {
  local s=0
  for i in $(seq 0 $((N - 1))); do
    s=$((s + $(ip netns exec "$SW" cat "/sys/class/net/$PORT$i/statistics/rx_$1")))
  done
  echo $s
}
bytes() { counter bytes; }
packets() { counter packets; }
# udpdrops: datagrams the 13 hosts' kernels dropped for a full socket
# receive buffer or other input errors (a process not scheduled while its
# QUIC peers send: QUIC then resends after its loss timers).
udpdrops() {
  local s=0
  for i in $(seq 0 $((N - 1))); do
    s=$((s + $(ip netns exec "$TAG-$i" awk '/^Udp: [0-9]/{print $4 + $6; exit}' /proc/net/snmp)))
  done
  echo $s
}
for run in $(seq "$RUNS"); do
  D="$WORK/r$run"
  mkdir -p "$D"
  T="bench-$$-$run"
  PIDS=()
  (ip netns exec "$TAG-0" "$BIN" host --bot --players $N --name "$T" --seed "$run" --interface eth0 --state "$D/s0" \
    --config "$D/c0" --transcript "$D/t0.masque" --timeout 60s ${LOGS:+--log "$D/l0.log"} >"$D/h.out" 2>&1; rc=$?; date +%s.%N >"$D/end0"; exit $rc) &
  PIDS+=($!)
  if [ -n "${WATCH:-}" ]; then
    until grep -q "code" "$D/h.out" 2>/dev/null; do sleep 0.05; done
    code=$(grep -o '[0-9A-Z]\{4\}-[0-9A-Z]\{4\}-[0-9A-Z]\{4\}' "$D/h.out" | head -1)
    ip netns exec "$TAG-1" "$BIN" watch "$code" --interface eth0 --quiet --transcript "$D/w.masque" >"$D/w.out" 2>&1 &
    PIDS+=($!)
    sleep 3.5 # the spectator browses mDNS (3 s), then waits for the game
  fi
  for i in $(seq 1 $((N - 1))); do
    (ip netns exec "$TAG-$i" "$BIN" join --bot --table "$T" --seed "$((run * 100 + i))" --interface eth0 --state "$D/s$i" \
      --config "$D/c$i" --transcript "$D/t$i.masque" --timeout 60s ${LOGS:+--log "$D/l$i.log"} >"$D/j$i.out" 2>&1; rc=$?; date +%s.%N >"$D/end$i"; exit $rc) &
    PIDS+=($!)
  done
  until grep -q "the game is saved in" "$D/h.out" 2>/dev/null; do
    kill -0 "${PIDS[0]}" 2>/dev/null || { echo "host exited"; cat "$D/h.out"; exit 1; }
    sleep 0.01
  done
  t0=$(date +%s.%N)
  echo "$t0" >"$D/t0"
  read -r cb0 cs0 ct0 < <(cpustat)
  times >"$D/times0"
  cc0=$(childcpu "$D/times0")
  b0=$(bytes)
  p0=$(packets)
  u0=$(udpdrops)
  rc=0
  for p in "${PIDS[@]}"; do wait "$p" || rc=$?; done
  t1=$(date +%s.%N)
  read -r cb1 cs1 ct1 < <(cpustat)
  times >"$D/times1"
  cc1=$(childcpu "$D/times1")
  b1=$(bytes)
  p1=$(packets)
  u1=$(udpdrops)
  if [ -n "${WATCH:-}" ]; then
    cmp -s "$D/t0.masque" "$D/w.masque" || { echo "run $run: the spectator's transcript differs"; cat "$D/w.out"; rc=1; }
  fi
  for i in $(seq 1 $((N - 1))); do
    cmp -s "$D/t0.masque" "$D/t$i.masque" || { echo "run $run: transcript $i differs"; rc=1; }
  done
  entries=$("$BIN" verify "$D/t0.masque" | grep -o '[0-9]* entries' | head -1 | cut -d' ' -f1)
  size=$(stat -c %s "$D/t0.masque")
  ends=$(for i in $(seq 0 $((N - 1))); do printf '%.2f ' "$(echo "$(cat "$D/end$i") - $t0" | bc)"; done)
  echo "run $run: exits after the roster (s): $ends"
  echo "run $run: rc=$rc seconds=$(echo "$t1 - $t0" | bc) bytes=$((b1 - b0)) packets=$((p1 - p0)) entries=$entries transcript=$size" \
    "packets/entry/receiver=$(echo "scale=2; ($p1 - $p0) / ($entries * ($N - 1))" | bc) udp-drops=$((u1 - u0))"
  echo "run $run: load $(cut -d' ' -f1-3 /proc/loadavg), machine busy $(echo "scale=1; 100 * ($cb1 - $cb0) / ($ct1 - $ct0)" | bc)%" \
    "steal $(echo "scale=1; 100 * ($cs1 - $cs0) / ($ct1 - $ct0)" | bc)%," \
    "CPU of the run's processes $(echo "$cc1 - $cc0" | bc) s = $(echo "scale=2; 1000 * ($cc1 - $cc0) / $entries" | bc) ms/entry"
  [ $rc = 0 ] || { tail -5 "$D"/*.out; exit 1; }
  if [ -n "${LOGS:-}" ]; then "$WORK/lanstats" "$D" | sed '/^ALL/,$d'; fi
done
if [ -n "${LOGS:-}" ]; then
  "$WORK/lanstats" "$WORK"/r* | sed -n '/^ALL/,$p'
  if [ -n "${STATS:-}" ]; then "$WORK/lanstats" "$WORK"/r* >"$STATS"; fi
fi
