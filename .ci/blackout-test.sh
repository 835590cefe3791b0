#!/usr/bin/env bash
# A seat cut off mid-game for 150 s, with real processes: four network
# namespaces on a bridge (as .ci/loss-test.sh), a 4-seat bot game (host +
# 3 joiners given the host's invite); once play has begun, seat 3's
# namespace drops every packet in and out (nftables) for BLACKOUT_SECS,
# then gets its network back.
#
#  - long: the table's --timeout (BLACKOUT_LONG, default 200s) is longer
#    than the blackout: no seat may get a verdict, every seat must finish
#    (exit 0) with byte-identical transcripts that 'masque verify' accepts.
#  - short: the --timeout (BLACKOUT_SHORT, default 60s) is shorter: the
#    three connected seats stop the table with a timeout verdict against
#    seat 3, each signed by its declarer (docs/p2p.md, Faults and
#    verdicts): their transcripts hold the same log, 'masque verify'
#    names seat 3 (exit 1) on each; the cut-off seat blames nobody (it
#    reports no contact with any seat) and never signs a verdict.
#
#   BLACKOUT_SECS   blackout length (default 150)
#   BLACKOUT_CASES  which cases (default "long short")
#   BLACKOUT_BIN    a built masque to use (default: build one)
#   BLACKOUT_TAG    namespace prefix (default mqb<pid>)
#
# Takes about BLACKOUT_SECS + 3 * BLACKOUT_SHORT seconds (6 to 7 minutes
# by default): not part of .ci/run. Runs as root; needs ip and nft. Skips,
# saying why, otherwise. Every namespace is removed on exit; no packet
# leaves them.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
# shellcheck source=.ci/lib/peers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/peers.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

CI_NAME=blackout-test
ci_need ip nft

SECS=${BLACKOUT_SECS:-150}
CASES=${BLACKOUT_CASES:-"long short"}
LONG=${BLACKOUT_LONG:-200s}
SHORT=${BLACKOUT_SHORT:-60s}
TAG=${BLACKOUT_TAG:-mqb$$}
NS=("$TAG-0" "$TAG-1" "$TAG-2" "$TAG-3")
SW="$TAG-sw"
NSS=("${NS[@]}" "$SW")
WORK=$(mktemp -d /tmp/masque-blackout.XXXXXX)
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()

trap 'ci_cleanup 15' EXIT
fail() { ci_fail "$@"; }

ci_masque "${BLACKOUT_BIN:-}"
echo "blackout-test: building verdictcheck"
go build -o "$WORK/verdictcheck" ./.ci/verdictcheck
VC="$WORK/verdictcheck"

bridge_lan "$SW" 10.79.0 "$TAG-v" "$TAG-p" "" "${NS[@]}"

out() { [ "$1" = 0 ] && echo "$2/h.out" || echo "$2/j$1.out"; }

# game CASE TIMEOUT: one 4-seat game, process 3 (a joiner: seat CUT) cut
# off for SECS once play has begun. Leaves outputs, state directories and
# transcripts in $WORK/CASE, exit statuses in ST[0..3], the seconds from
# the cut to each exit in T[0..3].
ST=() T=() CUT=
game() {
  local d="$WORK/$1" timeout=$2 h js=() i
  mkdir -p "$d"
  common() { echo --bot --state "$d/s$1" --config "$d/c$1" --transcript "$d/t$1.masque" --timeout "$timeout"; }
  # shellcheck disable=SC2046
  start "${NS[0]}" "$d/h.out" host --players 4 --name "blackout-$TAG" --no-mdns --wait 120s $(common 0)
  h=$LAST
  local deadline=$((SECONDS + 30)) invite
  until invite=$(grep -m1 '^invite: /ip4/10\.79\..*/tcp/' "$d/h.out" 2>/dev/null | sed 's/^invite: //') && [ -n "$invite" ]; do
    [ $SECONDS -lt $deadline ] || fail "$1: no invite from the host"
    sleep 0.1
  done
  for i in 1 2 3; do
    # shellcheck disable=SC2046
    start "${NS[$i]}" "$d/j$i.out" join "$invite" $(common "$i")
    js+=("$LAST")
  done
  # Play has begun once seat 3 has narrated a few entries: cut it off.
  deadline=$((SECONDS + 60))
  local base
  until grep -q 'the game is saved in' "$d/j3.out" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "$1: the table did not seat"
    sleep 0.05
  done
  base=$(wc -l <"$d/j3.out")
  until [ "$(wc -l <"$d/j3.out")" -ge $((base + 3)) ]; do
    [ $SECONDS -lt $deadline ] || fail "$1: seat 3 narrated no entry"
    sleep 0.01
  done
  CUT=$(grep -m1 -o 'as seat [0-9]*' "$d/j3.out" | grep -o '[0-9]*$') || fail "$1: the joiner in ${NS[3]} printed no seat"
  ns_cut "${NS[3]}"
  local t0
  t0=$(date +%s)
  echo "blackout-test: $1 (--timeout $timeout): seat $CUT (process 3) cut off after $(($(wc -l <"$d/j3.out") - base)) lines of play, for ${SECS}s"
  kill -0 "$h" 2>/dev/null || fail "$1: the game was over before the cut"
  sleep "$SECS"
  ns_uncut "${NS[3]}"
  echo "blackout-test: $1: seat $CUT back after $(($(date +%s) - t0))s"
  local all=("$h" "${js[@]}")
  for i in 0 1 2 3; do
    waitexit $((4 * ${timeout%s} + 60)) "${all[$i]}"
    ST[i]=$RC
    T[i]=$(($(cat "$(out "$i" "$d")".end) - t0))
  done
  echo "blackout-test: $1: exit statuses ${ST[*]}, seconds from the cut to each exit ${T[*]}"
}

for c in $CASES; do
  case $c in
  long)
    game long "$LONG"
    d="$WORK/long"
    for i in 0 1 2 3; do
      [ "${ST[$i]}" = 0 ] || fail "long: seat $i exited with status ${ST[$i]}: $(grep -iE 'verdict|error|timeout|blame' "$(out $i "$d")" | tail -n 3)"
    done
    [ "${T[0]}" -ge "$SECS" ] || fail "long: the game ended ${T[0]}s after the cut, before the blackout's end: it was not waiting for seat $CUT"
    for i in 0 1 2 3; do
      v=$("$VC" "$d/s$i") || fail "long: process $i's state: $v"
      echo "$v" | grep -q 'no verdict' || fail "long: process $i: $v"
    done
    for i in 1 2 3; do
      cmp -s "$d/t0.masque" "$d/t$i.masque" || fail "long: seat $i's transcript differs from the host's"
    done
    for i in 0 1 2 3; do
      "$BIN" verify "$d/t$i.masque" >"$d/verify$i.out" 2>&1 || fail "long: masque verify rejects seat $i's transcript: $(tail -n 2 "$d/verify$i.out")"
    done
    grep -q '\. Won by ' "$d/verify0.out" || fail "long: the transcript does not end with the game over: $(tail -n 2 "$d/verify0.out")"
    echo "blackout-test: long: no verdict; every seat finished with identical, verified transcripts"
    ;;
  short)
    game short "$SHORT"
    d="$WORK/short"
    o3=$(out 3 "$d")
    # The seats given by the verdicts, their logs up to them.
    vs=()
    for i in 0 1 2; do
      [ "${ST[$i]}" = 1 ] || fail "short: connected seat $i exited with status ${ST[$i]}, not 1 (a verdict)"
      grep -q 'the table stopped: timeout: seat '"$CUT"' ' "$(out $i "$d")" ||
        fail "short: connected process $i did not stop the table with a timeout verdict against seat $CUT: $(grep 'masque: error' "$(out $i "$d")")"
      vs+=("$("$VC" "$d/s$i")") || fail "short: process $i's verdict: ${vs[-1]:-}"
      echo "${vs[-1]}" | grep -q "verdict timeout seat $CUT .* signature and evidence verified" || fail "short: process $i: ${vs[-1]}"
    done
    # The same position and the same log before it, each verdict signed by
    # its own declarer.
    for i in 1 2; do
      [ "$(echo "${vs[$i]}" | sed 's/.*: verdict //; s/declarer [0-9]*//')" = "$(echo "${vs[0]}" | sed 's/.*: verdict //; s/declarer [0-9]*//')" ] ||
        fail "short: process $i's verdict or log differs from the host's: ${vs[$i]} / ${vs[0]}"
    done
    # Each connected seat kept its signed verdict beside its transcript
    # (T.verdict): 'masque verify' checks it and names seat CUT, exit 1.
    for i in 0 1 2; do
      [ -f "$d/t$i.masque.verdict" ] || fail "short: process $i kept no verdict beside its transcript"
      rc=0
      "$BIN" verify "$d/t$i.masque" >"$d/verify$i.out" 2>&1 || rc=$?
      [ "$rc" = 1 ] || fail "short: masque verify of process $i's transcript exited $rc, not 1: $(tail -n 2 "$d/verify$i.out")"
      grep -q "seat $CUT (.*) timed out" "$d/verify$i.out" || fail "short: masque verify does not name seat $CUT: $(tail -n 2 "$d/verify$i.out")"
    done
    # The cut-off seat blames nobody: no verdict of its own against
    # another seat (it may have learnt theirs against it).
    v3=$("$VC" "$d/s3") || fail "short: the cut-off seat's state: $v3"
    if echo "$v3" | grep -q ': verdict ' && ! echo "$v3" | grep -q ": verdict timeout seat $CUT "; then
      fail "short: the cut-off seat holds a verdict against another seat: $v3"
    fi
    if grep -E 'the table stopped: .*seat [0-9]+' "$o3" | grep -vq "seat $CUT "; then
      fail "short: the cut-off seat blamed a connected seat: $(grep 'the table stopped' "$o3")"
    fi
    echo "blackout-test: short: processes 0-2 stopped the table with timeout verdicts against seat $CUT, each verified:"
    printf '  %s\n' "${vs[@]##*/}"
    echo "blackout-test: short: the cut-off process (seat $CUT) exited with status ${ST[3]}: $(grep -E 'masque: error|no contact' "$o3" | tail -n 1)"
    echo "  its state: ${v3##*/}"
    ;;
  *) fail "unknown case $c" ;;
  esac
done
echo "blackout-test: ok"
