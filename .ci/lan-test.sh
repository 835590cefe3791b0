#!/usr/bin/env bash
# A real LAN in network namespaces: four hosts joined by a bridge find each
# other's table by mDNS with no address given and finish a game with bots;
# then a second game in which one joiner is killed with SIGKILL mid-game and
# restarted on its state directory, and a third in which the host is killed
# and the very same command (no --state) resumes its table. Every transcript must be byte-identical
# and pass 'masque verify'. An independent mDNS client (npm multicast-dns)
# must see the table's TXT record.
#
# Runs as root. The bridge lives in a namespace of its own, so no packet
# touches the machine's own network. Everything is removed on exit.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

if [ "$(id -u)" != 0 ]; then
  echo "lan-test: skipped: needs root (ip netns)"
  exit 0
fi

TAG="${LAN_TAG:-mq$$}" # the namespaces' prefix (LAN_TAG, as the other tests' *_TAG)
NS=("$TAG-0" "$TAG-1" "$TAG-2" "$TAG-3")
SW="$TAG-sw"
WORK=$(mktemp -d /tmp/masque-lan.XXXXXX)
# Games without --state keep theirs under $XDG_STATE_HOME/masque: here.
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()

cleanup() {
  local rc=$?
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
  done
  for n in "${NS[@]}" "$SW"; do
    ip netns del "$n" 2>/dev/null || true
  done
  if [ $rc -ne 0 ]; then
    echo "lan-test: FAILED (exit $rc); logs:"
    for f in "$WORK"/*/*.out; do
      [ -f "$f" ] || continue
      echo "----- $f (last 15 lines)"
      tail -n 15 "$f"
    done
  fi
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT

fail() { echo "lan-test: FAIL: $*" >&2; exit 1; }

echo "lan-test: building masque"
go build -o "$WORK/masque" ./cmd/masque
BIN="$WORK/masque"

echo "lan-test: 4 namespaces on a bridge (10.77.0.0/24)"
bridge_lan "$SW" 10.77.0 "$TAG-v" "$TAG-p" 10.77.0.254 "${NS[@]}"

# start NS OUT ARGS...: start masque in a namespace (ip netns exec execs
# it, so the pid is masque's), output in OUT; the pid is left in LAST.
LAST=
start() {
  local ns=$1 out=$2
  shift 2
  ip netns exec "$ns" "$BIN" "$@" >"$out" 2>&1 &
  LAST=$!
  PIDS+=("$LAST")
}

# waitall SECONDS PID...: wait for every pid; fail on a non-zero exit.
waitall() {
  local limit=$1
  shift
  local deadline=$((SECONDS + limit))
  for p in "$@"; do
    while kill -0 "$p" 2>/dev/null; do
      [ $SECONDS -lt $deadline ] || fail "peer $p still running after ${limit}s"
      sleep 0.2
    done
    wait "$p" || fail "peer $p exited with status $?"
  done
}

# check DIR: the four transcripts are identical and verify.
check() {
  local d=$1
  for i in 1 2 3; do
    cmp -s "$d/t0.masque" "$d/t$i.masque" || fail "$d: transcript of peer $i differs from peer 0's"
  done
  for i in 0 1 2 3; do
    "$BIN" verify "$d/t$i.masque" >"$d/verify$i.out" || fail "$d: masque verify rejects peer $i's transcript"
  done
  echo "lan-test: $d: 4 transcripts byte-identical ($(stat -c %s "$d/t0.masque") bytes), all verified"
}

# peer ROLE I DIR TABLE: the command line of peer I.
hostargs() { echo host --bot --players 4 --name "$2" --interface eth0 --state "$1/s0" --config "$1/c0" --transcript "$1/t0.masque" --timeout 60s; }
joinargs() { echo join --bot --table "$3" --interface eth0 --state "$1/s$2" --config "$1/c$2" --transcript "$1/t$2.masque" --timeout 60s; }

# ---- game 1: found by mDNS, played to the end.
G1="$WORK/g1"
mkdir -p "$G1"
T1="lan-$TAG-one"
echo "lan-test: game 1: host in ${NS[0]}, 3 joiners find table $T1 by mDNS"
# shellcheck disable=SC2046
start "${NS[0]}" "$G1/h.out" $(hostargs "$G1" "$T1"); h=$LAST
js=()
for i in 1 2 3; do
  # shellcheck disable=SC2046
  start "${NS[$i]}" "$G1/j$i.out" $(joinargs "$G1" "$i" "$T1"); p=$LAST; js+=("$p")
done
waitall 120 "$h" "${js[@]}"
grep -q "found \"$T1\"" "$G1/j1.out" || fail "joiner 1 did not find the table by mDNS"
check "$G1"

# ---- game 2: an independent mDNS client sees the table, then kill -9.
G2="$WORK/g2"
mkdir -p "$G2"
T2="lan-$TAG-two"
echo "lan-test: game 2: host in ${NS[0]}, table $T2"
# shellcheck disable=SC2046
start "${NS[0]}" "$G2/h.out" $(hostargs "$G2" "$T2"); h=$LAST
for _ in $(seq 50); do grep -q "waiting for players: 1/4" "$G2/h.out" && break; sleep 0.1; done

if command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 &&
  (cd "$WORK" && npm install --silent --no-audit --no-fund multicast-dns >"$WORK/npm.out" 2>&1); then
  cat >"$WORK/query.js" <<'EOF'
// Ask _masque._tcp.local for PTR records until a TXT record names the table.
const mdns = require('multicast-dns')();
const want = 'n=' + process.argv[2];
const done = (code, msg) => { console.log(msg); mdns.destroy(); process.exit(code); };
mdns.on('response', (res) => {
  for (const a of [...res.answers, ...res.additionals]) {
    if (a.type !== 'TXT') continue;
    const txt = (Array.isArray(a.data) ? a.data : [a.data]).map((b) => b.toString());
    if (txt.includes(want)) done(0, `multicast-dns: ${a.name}: ${txt.join(' ')}`);
  }
});
const ask = () => mdns.query({ questions: [{ name: '_masque._tcp.local', type: 'PTR' }] });
ask();
setInterval(ask, 1000);
setTimeout(() => done(1, 'multicast-dns: no answer naming the table'), 10000);
EOF
  ip netns exec "${NS[3]}" node "$WORK/query.js" "$T2" || fail "an independent mDNS client does not see the table"
else
  echo "lan-test: npm unavailable (or 'npm install multicast-dns' failed): independent mDNS check skipped"
fi

js=()
for i in 1 2 3; do
  # shellcheck disable=SC2046
  start "${NS[$i]}" "$G2/j$i.out" $(joinargs "$G2" "$i" "$T2"); p=$LAST; js+=("$p")
done
# Kill joiner 2 mid-game: once a few turns are played.
victim=${js[1]}
for _ in $(seq 600); do grep -Eq "^turn +3 " "$G2/j2.out" && break; sleep 0.05; done
grep -Eq "^turn +3 " "$G2/j2.out" || fail "game 2 did not reach turn 3"
kill -0 "$victim" 2>/dev/null || fail "joiner 2 finished before it could be killed"
kill -9 "$victim"
wait "$victim" 2>/dev/null || true
entries=$(grep -c . "$G2/j2.out" || true)
echo "lan-test: game 2: joiner 2 killed with SIGKILL mid-game (after $entries lines of output); restarting it on its state directory"
sleep 1
mv "$G2/j2.out" "$G2/j2-killed.out"
# shellcheck disable=SC2046
start "${NS[2]}" "$G2/j2.out" $(joinargs "$G2" 2 "$T2"); p=$LAST; js[1]=$p
waitall 180 "$h" "${js[@]}"
grep -q "rejoined" "$G2/j2.out" || fail "the restarted joiner did not rejoin from its state directory"
check "$G2"

# ---- game 3: the host is killed with SIGKILL mid-game, then the very same
# command (no --state: its state is in its config directory) resumes it.
G3="$WORK/g3"
mkdir -p "$G3"
T3="lan-$TAG-three"
host3args() { echo host --bot --players 4 --name "$2" --interface eth0 --config "$1/c0" --transcript "$1/t0.masque" --timeout 60s; }
echo "lan-test: game 3: host in ${NS[0]}, killed mid-game and restarted with the same command"
# shellcheck disable=SC2046
start "${NS[0]}" "$G3/h.out" $(host3args "$G3" "$T3"); h=$LAST
for _ in $(seq 50); do grep -q "waiting for players: 1/4" "$G3/h.out" && break; sleep 0.1; done
js=()
for i in 1 2 3; do
  # shellcheck disable=SC2046
  start "${NS[$i]}" "$G3/j$i.out" $(joinargs "$G3" "$i" "$T3"); p=$LAST; js+=("$p")
done
for _ in $(seq 600); do grep -Eq "^turn +3 " "$G3/h.out" && break; sleep 0.05; done
grep -Eq "^turn +3 " "$G3/h.out" || fail "game 3 did not reach turn 3"
kill -0 "$h" 2>/dev/null || fail "the host finished before it could be killed"
kill -9 "$h"
wait "$h" 2>/dev/null || true
echo "lan-test: game 3: host killed with SIGKILL mid-game; running the same command again"
sleep 1
mv "$G3/h.out" "$G3/h-killed.out"
# shellcheck disable=SC2046
start "${NS[0]}" "$G3/h.out" $(host3args "$G3" "$T3"); h=$LAST
waitall 180 "$h" "${js[@]}"
grep -q "resuming your unfinished table" "$G3/h.out" || fail "the same host command did not resume the table"
grep -q "rejoined" "$G3/h.out" || fail "the restarted host did not rejoin"
check "$G3"
echo "lan-test: ok"
