#!/usr/bin/env bash
# Issue 29, bounded, with real processes: four network namespaces on a
# bridge (as .ci/blackout-test.sh), a 4-seat bot game (host + 3 joiners
# given the host's invite), two cases:
#
#  - blackout: once play has begun, the process in seat 3, whose own
#    --timeout is 11 s (the others' 90 s), drops every packet in and out
#    (nftables) for 15 s: its timer runs out while it is cut off (it has
#    heard from nobody for the 10 s that takes), and its network comes
#    back with the entry it waited for long published. It used to blame
#    that entry's honest author the moment its network returned, and the
#    others then timed it out; now it fetches the entry and goes on: every
#    seat must finish (exit 0) with byte-identical transcripts that
#    'masque verify' accepts, and no state directory may hold a verdict.
#  - early: the same with seat 3's --timeout 5 s and a blackout of 8 s:
#    its timer runs out before it counts as cut off (10 s without
#    contact); it used to blame the honest author at once.
#  - lostwrite: once the host has narrated the first move of the process
#    in seat 2 (a swap, whose proof is fresh randomness: signed again, it
#    would be another entry), that process is killed (SIGKILL), its log
#    is cut before its last own entry (.ci/cutlog: a write the disk
#    lost), and the same command starts it again. It used to sign another
#    entry for that position, and every seat stopped with an equivocation
#    verdict naming it; now it learns its entry from the others first:
#    every seat must finish with identical, verified transcripts and no
#    verdict.
#
#   COMEBACK_CASES  which cases (default "blackout early lostwrite")
#   COMEBACK_BIN    a built masque to use (default: build one)
#   COMEBACK_TAG    namespace prefix (default mqc<pid>)
#
# Takes about 60 s (part of .ci/run). Runs as root; needs ip and nft.
# Skips, saying why, otherwise. Every namespace is removed on exit; no
# packet leaves them.
set -euo pipefail
# shellcheck source=.ci/lib/netns.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/netns.sh"
# shellcheck source=.ci/lib/peers.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/peers.sh"
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

CI_NAME=comeback-test
ci_need ip nft

CASES=${COMEBACK_CASES:-"blackout early lostwrite"}
TAG=${COMEBACK_TAG:-mqc$$}
NS=("$TAG-0" "$TAG-1" "$TAG-2" "$TAG-3")
SW="$TAG-sw"
NSS=("${NS[@]}" "$SW")
WORK=$(mktemp -d /tmp/masque-comeback.XXXXXX)
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()
NAMES=(ann bob cleo dan)

trap 'ci_cleanup 12' EXIT
fail() { ci_fail "$@"; }

ci_masque "${COMEBACK_BIN:-}"
go build -o "$WORK/verdictcheck" ./.ci/verdictcheck
go build -o "$WORK/cutlog" ./.ci/cutlog

bridge_lan "$SW" 10.81.0 "$TAG-v" "$TAG-p" "" "${NS[@]}"

waitfor() { # waitfor SECONDS FILE PATTERN WHAT
  local deadline=$((SECONDS + $1))
  until grep -qE "$3" "$2" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "$4"
    sleep 0.05
  done
}

# seatup CASE TIMEOUT3 DELAY: a 4-seat table, process i in NS[i] with the
# name NAMES[i]; process 3's --timeout is TIMEOUT3, the others' 90 s; the
# bots of processes 0 to 2 think DELAY before each move. Sets
# D (the case's directory), PROC (bash pids by process), SEAT (seat by
# process), BYSEAT (process by seat) and JOIN (process i's join command).
D= PROC=() SEAT=() BYSEAT=() JOIN=()
seatup() {
  D="$WORK/$1"
  mkdir -p "$D"
  local i invite timeout
  common() {
    timeout=90s delay=$3
    [ "$1" != 3 ] || timeout=$2 delay=0s
    echo --bot --bot-delay "$delay" --player "${NAMES[$1]}" --state "$D/s$1" --config "$D/c$1" --transcript "$D/t$1.masque" --timeout "$timeout"
  }
  # shellcheck disable=SC2046
  start "${NS[0]}" "$D/0.out" host --players 4 --name "comeback-$TAG" --no-mdns --wait 60s $(common 0 "$2" "$3")
  PROC[0]=$LAST
  waitfor 30 "$D/0.out" '^invite: /ip4/10\.81\..*/tcp/' "$1: no invite from the host"
  invite=$(grep -m1 '^invite: /ip4/10\.81\..*/tcp/' "$D/0.out" | sed 's/^invite: //')
  for i in 1 2 3; do
    # One at a time: process i takes seat i.
    JOIN[i]="join $invite $(common "$i" "$2" "$3")"
    # shellcheck disable=SC2086
    start "${NS[$i]}" "$D/$i.out" ${JOIN[$i]}
    PROC[i]=$LAST
    waitfor 30 "$D/$i.out" 'as seat [0-9]+' "$1: process $i was not seated"
  done
  for i in 0 1 2 3; do
    if [ "$i" = 0 ]; then SEAT[0]=0; else SEAT[i]=$(grep -m1 -oE 'as seat [0-9]+' "$D/$i.out" | grep -oE '[0-9]+$'); fi
    BYSEAT[${SEAT[$i]}]=$i
  done
}

# finish CASE: every process exits 0 with byte-identical transcripts that
# verify, and no state directory holds a verdict.
finish() {
  local i v
  for i in 0 1 2 3; do
    waitexit 150 "${PROC[$i]}"
    [ "$RC" = 0 ] || fail "$1: process $i (seat ${SEAT[$i]}) exited with status $RC: $(grep -iE 'verdict|error|stopped' "$D/$i.out" | tail -n 3)"
  done
  for i in 0 1 2 3; do
    v=$("$WORK/verdictcheck" "$D/s$i") || fail "$1: process $i's state: $v"
    echo "$v" | grep -q 'no verdict' || fail "$1: process $i: $v"
    [ ! -e "$D/t$i.masque.verdict" ] || fail "$1: process $i kept a verdict beside its transcript"
  done
  for i in 1 2 3; do
    cmp -s "$D/t0.masque" "$D/t$i.masque" || fail "$1: process $i's transcript differs from the host's"
  done
  "$BIN" verify "$D/t0.masque" >"$D/verify.out" 2>&1 || fail "$1: masque verify: $(tail -n 2 "$D/verify.out")"
  grep -q '\. Won by ' "$D/verify.out" || fail "$1: the transcript does not end with the game over"
}

for c in $CASES; do
  t0=$SECONDS
  case $c in
  blackout | early)
    # blackout: seat 3's timer (11 s) runs out once it counts as cut off
    # (10 s), and the network comes back at 15 s (the issue's case; the
    # old rule failed in about 1 run of 5, when an echo came before the
    # sync answer). early: its timer (5 s) runs out during a blackout of
    # 8 s, before it counts as cut off (the old rule blamed the honest
    # author at once, every time).
    secs=15 timeout=11s
    [ "$c" = blackout ] || secs=8 timeout=5s
    seatup "$c" $timeout 100ms
    p=${BYSEAT[3]}
    # Play has begun once the preparatory swaps do.
    waitfor 60 "$D/$p.out" 'turn [0-9]+ .* swaps ' "$c: play did not begin"
    ns_cut "${NS[$p]}"
    kill -0 "${PROC[0]}" 2>/dev/null || fail "$c: the game was over before the cut"
    echo "comeback-test: $c: process $p (seat 3, --timeout $timeout) cut off for $secs s"
    sleep $secs
    ns_uncut "${NS[$p]}"
    finish "$c"
    if [ "$c" = blackout ]; then
      grep -q 'no contact with any seat' "$D/$p.out" || fail "blackout: seat 3 never said it was cut off (its timer did not run out while it was)"
    fi
    echo "comeback-test: $c: no verdict; every seat finished with identical, verified transcripts ($((SECONDS - t0)) s)"
    ;;
  lostwrite)
    seatup lostwrite 90s 100ms
    p=${BYSEAT[2]}
    # The host holds seat 2's first swap: it was published.
    waitfor 60 "$D/0.out" "turn [0-9]+ +${NAMES[$p]} swaps " "lostwrite: seat 2 made no move"
    kill -0 "${PROC[0]}" 2>/dev/null || fail "lostwrite: the game was over before the kill"
    kill -9 "$(cat "$D/$p.out.pid")"
    waitexit 10 "${PROC[$p]}"
    "$WORK/cutlog" "$D/s$p" 2 || fail "lostwrite: cutlog"
    echo "comeback-test: lostwrite: process $p (seat 2) killed; started again"
    # shellcheck disable=SC2086
    start "${NS[$p]}" "$D/$p.out" ${JOIN[$p]}
    PROC[p]=$LAST
    finish lostwrite
    echo "comeback-test: lostwrite: no verdict; every seat finished with identical, verified transcripts ($((SECONDS - t0)) s)"
    ;;
  *) fail "unknown case $c" ;;
  esac
done
echo "comeback-test: ok"
