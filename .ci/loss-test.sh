#!/usr/bin/env bash
# Seating and play under random packet loss: four network namespaces on a
# bridge, each dropping a share of its packets at random in both
# directions (nftables 'numgen random', the kernel here has no netem). For
# every loss rate, 4-seat bot games (host + 3 joiners given the host's
# invite) must all seat, finish and leave byte-identical transcripts that
# 'masque verify' accepts. Prints, per rate, how many runs passed and how
# long they took.
#
#   LOSS_RATES   loss percentages (default "5 10 20")
#   LOSS_RUNS    games per rate (default 1; the full test is 10)
#   LOSS_BIN     a built masque to use (default: build one)
#   LOSS_TAG     namespace prefix (default mql<pid>)
#   LOSS_KEEP=1  keep going after a failed run (report all of them)
#   LOSS_LOGS    a directory to copy every failed run's logs into (one
#                subdirectory per run), kept after the test
#   LOSS_TRANSPORT  tcp or quic: the invite joiners dial (default: odd runs
#                QUIC, even runs TCP)
#
# Runs as root; needs ip and nft. Skips, saying why, otherwise. Every
# namespace is removed on exit; no packet leaves them.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

skip() { echo "loss-test: skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "needs ip (apt-get install iproute2)"
command -v nft >/dev/null || skip "needs nft (apt-get install nftables)"

RATES=${LOSS_RATES:-"5 10 20"}
RUNS=${LOSS_RUNS:-1}
TAG=${LOSS_TAG:-mql$$}
NS=("$TAG-0" "$TAG-1" "$TAG-2" "$TAG-3")
SW="$TAG-sw"
WORK=$(mktemp -d /tmp/masque-loss.XXXXXX)
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()
FAILED=0

cleanup() {
  local rc=$?
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
  done
  for n in "${NS[@]}" "$SW"; do ip netns del "$n" 2>/dev/null || true; done
  if [ $rc -ne 0 ] && [ -z "${LOSS_KEEP:-}" ]; then
    echo "loss-test: FAILED (exit $rc); logs of the last run:"
    for f in "$WORK"/last/*.out; do
      [ -f "$f" ] || continue
      echo "----- $f (last 15 lines)"
      tail -n 15 "$f"
    done
  fi
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT

if [ -n "${LOSS_BIN:-}" ]; then
  BIN=$LOSS_BIN
else
  echo "loss-test: building masque"
  go build -o "$WORK/masque" ./cmd/masque
  BIN="$WORK/masque"
fi

bridge_lan "$SW" 10.78.0 "$TAG-v" "$TAG-p" "" "${NS[@]}"

# loss PERCENT: every namespace drops PERCENT% of what eth0 sends and of
# what it receives, at random.
loss() {
  local permille=$(($1 * 10))
  for n in "${NS[@]}"; do
    ip netns exec "$n" nft delete table inet loss 2>/dev/null || true
    ip netns exec "$n" nft -f - <<NFT
table inet loss {
  chain in  { type filter hook input priority 0; policy accept; iifname "eth0" numgen random mod 1000 < $permille drop; }
  chain out { type filter hook output priority 0; policy accept; oifname "eth0" numgen random mod 1000 < $permille drop; }
}
NFT
  done
}

LAST=
start() {
  local ns=$1 out=$2
  shift 2
  ip netns exec "$ns" "$BIN" "$@" >"$out" 2>&1 &
  LAST=$!
  PIDS+=("$LAST")
}

# game DIR: one 4-seat game; returns non-zero (saying why) on failure.
game() {
  local d=$1 h js=() limit=300
  # The game runs in a subshell ($(game ...)): its peers are not in PIDS,
  # so a failed game kills its own.
  bail() { kill -9 "$h" "${js[@]}" 2>/dev/null || true; }
  mkdir -p "$d"
  common() { echo --bot --state "$d/s$1" --config "$d/c$1" --transcript "$d/t$1.masque" --timeout 60s; }
  # shellcheck disable=SC2046
  start "${NS[0]}" "$d/h.out" host --players 4 --name "loss-$TAG" --no-mdns --wait 240s $(common 0)
  h=$LAST
  local deadline=$((SECONDS + 30))
  until grep -q '^invite: /ip4/10\.78\.' "$d/h.out" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { echo "no invite from the host"; bail; return 1; }
    sleep 0.1
  done
  # The invite on TCP or QUIC ($2): joiners dial the host with it (and
  # every seat then uses both transports, whichever answers).
  local invite
  invite=$(grep "^invite: /ip4/10\.78\..*/$2" "$d/h.out" | head -n1 | sed 's/^invite: //')
  [ -n "$invite" ] || { echo "no $2 invite from the host"; bail; return 1; }
  for i in 1 2 3; do
    # shellcheck disable=SC2046
    start "${NS[$i]}" "$d/j$i.out" join "$invite" $(common "$i")
    js+=("$LAST")
  done
  deadline=$((SECONDS + limit))
  local p rc=0 who=0
  for p in "$h" "${js[@]}"; do
    while kill -0 "$p" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then
        echo "seat $who still running after ${limit}s"
        kill -9 "$h" "${js[@]}" 2>/dev/null || true
        return 1
      fi
      sleep 0.2
    done
    wait "$p" || { rc=$?; echo "seat $who exited with status $rc: $(grep -E '^(error|masque)' "$d/$([ $who = 0 ] && echo h || echo j$who).out" | tail -n1)"; bail; return 1; }
    who=$((who + 1))
  done
  for i in 1 2 3; do
    cmp -s "$d/t0.masque" "$d/t$i.masque" || { echo "transcript of seat $i differs from the host's"; bail; return 1; }
  done
  for i in 0 1 2 3; do
    "$BIN" verify "$d/t$i.masque" >"$d/verify$i.out" 2>&1 || { echo "masque verify rejects seat $i's transcript"; bail; return 1; }
  done
}

echo "loss-test: 4 namespaces ${TAG}-*, loss rates ${RATES}% (each way, in every namespace), $RUNS game(s) each"
for rate in $RATES; do
  loss "$rate"
  ok=0 times=()
  for run in $(seq "$RUNS"); do
    d="$WORK/r$rate-$run"
    t=$SECONDS
    # Odd runs join over QUIC, even ones over TCP (LOSS_TRANSPORT fixes one).
    tr=${LOSS_TRANSPORT:-$([ $((run % 2)) = 1 ] && echo quic || echo tcp)}
    if why=$(game "$d" "$tr"); then
      ok=$((ok + 1))
      times+=($((SECONDS - t)))
      rm -rf "$WORK/last"
    else
      echo "loss-test: ${rate}% run $run ($tr): FAILED: $why"
      rm -rf "$WORK/last"
      cp -r "$d" "$WORK/last"
      if [ -n "${LOSS_LOGS:-}" ]; then
        mkdir -p "$LOSS_LOGS"
        cp -r "$d" "$LOSS_LOGS/r$rate-$run-$tr"
      fi
      FAILED=1
      [ -n "${LOSS_KEEP:-}" ] || exit 1
    fi
    rm -rf "$d"
  done
  sorted=$(printf '%s\n' "${times[@]:-}" | sort -n | tr '\n' ' ')
  echo "loss-test: ${rate}% loss: $ok/$RUNS games seated, finished, identical and verified; seconds each (sorted): $sorted"
done
[ $FAILED = 0 ] || exit 1
echo "loss-test: ok"
