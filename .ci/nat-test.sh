#!/usr/bin/env bash
# Online play across home NATs, in network namespaces (.ci/natlab.sh): a
# public relay host runs 'masque relay'; a 3-seat bot game is hosted
# behind cone NAT A with --relay, which lists it in the relay's directory;
# 'masque lobby --relay' from behind NAT B lists it, and it is joined BY
# CODE through the directory from behind cone NAT B and symmetric NAT C
# ('masque join CODE --relay'). Once seated, the table is listed in play
# (for spectators) until its host leaves; at the end the relay's last
# status line counts 0 tables. 'masque doctor --state' behind NAT B reports
# the last hole punch to the host behind A as a success when conntrack saw
# the direct flow. Every seat must exit
# 0 with byte-identical transcripts that 'masque verify' accepts. The
# report says whether the routers' conntrack tables show a direct A<->B
# flow (a hole punch) and which pairs stayed relayed. Then a 6-seat game
# (two seats in each home) during whose seating, then play, the relay is
# killed with SIGKILL and restarted 5 s later: every seat finishes with identical, verified
# transcripts and nobody is blamed; a spectator behind NAT B finds that
# game in play by its code in the directory and follows it. 'masque doctor
# --relay' must say that A's NAT keeps ports and C's changes them. The host posts a
# table chat message (--say) that both joiners must get and save. Then: without
# --relay, a joiner behind a NAT must get an error that says to use one.
#
# Runs as root; needs ip, nft and (for the hole-punch report) conntrack.
# Skips, saying why, when it cannot run. Every namespace is removed on
# exit; traffic stays inside them (the "internet" bridge has no uplink).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"

skip() { echo "nat-test: skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
command -v ip >/dev/null || skip "needs ip (apt-get install iproute2)"
command -v nft >/dev/null || skip "needs nft (apt-get install nftables)"
HAVE_CT=1
command -v conntrack >/dev/null || HAVE_CT=0

# NAT_TEST_TAG names the namespaces (default mqn<pid>; short: interface
# names are at most 15 characters).
TAG="${NAT_TEST_TAG:-mqn$$}"
export NATLAB_PREFIX="$TAG-"
P=$NATLAB_PREFIX
WORK=$(mktemp -d /tmp/masque-nat.XXXXXX)
export XDG_STATE_HOME="$WORK/state-home"
PIDS=()
T0=$SECONDS

cleanup() {
  local rc=$?
  for p in "${PIDS[@]:-}"; do
    [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
  done
  .ci/natlab.sh down >/dev/null 2>&1 || true
  if [ $rc -ne 0 ]; then
    echo "nat-test: FAILED (exit $rc); logs:"
    for f in "$WORK"/*.out "$WORK"/*/*.out; do
      [ -f "$f" ] || continue
      echo "----- $f (last 20 lines)"
      tail -n 20 "$f"
    done
  fi
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT
fail() { echo "nat-test: FAIL: $*" >&2; exit 1; }

echo "nat-test: building masque"
go build -o "$WORK/masque" ./cmd/masque
BIN="$WORK/masque"

echo "nat-test: namespaces ${P}*: internet 11.0.0.0/24, relay 11.0.0.10, cone NATs A and B, symmetric NAT C"
if ! .ci/natlab.sh up >"$WORK/natlab.out" 2>&1; then
  cat "$WORK/natlab.out"
  skip "cannot build the topology (network namespaces or nftables NAT unavailable here)"
fi

# start NS OUT ARGS...: run masque in a namespace, output in OUT; pid in LAST.
LAST=
start() {
  local ns=$1 out=$2
  shift 2
  ip netns exec "$ns" "$BIN" "$@" >"$out" 2>&1 &
  LAST=$!
  PIDS+=("$LAST")
}
# waitfor SECONDS FILE REGEX: wait until FILE has a line matching REGEX.
waitfor() {
  local deadline=$((SECONDS + $1))
  until grep -Eq "$3" "$2" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.1
  done
}
# waitall SECONDS PID...: every pid exits 0 within SECONDS.
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

# ---- the relay
ip netns exec "${P}relay" "$BIN" relay --config "$WORK/relay" --json --status 0 \
  --listen /ip4/11.0.0.10/tcp/4001 --listen /ip4/11.0.0.10/udp/4001/quic-v1 \
  >"$WORK/relay.json" 2>"$WORK/relay.out" &
RELAY=$!
PIDS+=("$RELAY")
waitfor 15 "$WORK/relay.json" '"event":"started"' || fail "the relay did not start"
RID=$(sed -n 's/.*"peer_id":"\([^"]*\)".*/\1/p' "$WORK/relay.json" | head -n1)
[ -n "$RID" ] || fail "no relay peer id in its status line"
RT="/ip4/11.0.0.10/tcp/4001/p2p/$RID"
RQ="/ip4/11.0.0.10/udp/4001/quic-v1/p2p/$RID"
grep -q "\"$RT\"" "$WORK/relay.json" || fail "the relay's status line does not list $RT"
grep -q "\"$RQ\"" "$WORK/relay.json" || fail "the relay's status line does not list $RQ"
[ "$(stat -c %a "$WORK/relay/relay/identity.key")" = 600 ] || fail "the relay's key is not mode 0600"
echo "nat-test: relay $RID up on TCP and QUIC port 4001"

# ---- masque doctor --relay: the relay checked, the NAT told
ip netns exec "${P}hA" "$BIN" doctor --wait 200ms --relay "$RT" --relay "$RQ" --config "$WORK/doc" >"$WORK/doctorA.out" 2>&1 ||
  fail "masque doctor --relay failed behind NAT A"
ip netns exec "${P}hC" "$BIN" doctor --wait 200ms --relay "$RQ" --config "$WORK/doc" >"$WORK/doctorC.out" 2>&1 ||
  fail "masque doctor --relay failed behind NAT C"
grep -q "reservation: held" "$WORK/doctorA.out" || fail "doctor behind NAT A: no reservation"
grep -q "NAT: port-preserving" "$WORK/doctorA.out" || fail "doctor behind cone NAT A: $(grep 'NAT:' "$WORK/doctorA.out")"
grep -q "NAT: port-changing" "$WORK/doctorC.out" || fail "doctor behind symmetric NAT C: $(grep 'NAT:' "$WORK/doctorC.out")"
echo "nat-test: doctor --relay: A $(grep -o 'NAT: [a-z-]*' "$WORK/doctorA.out"), C $(grep -o 'NAT: [a-z-]*' "$WORK/doctorC.out"), reservations held"

# ---- game: host behind A, joiners behind B (cone) and C (symmetric)
G="$WORK/g1"
mkdir -p "$G"
common() { echo --bot --relay "$RT" --relay "$RQ" --state "$G/s$1" --config "$G/c$1" --transcript "$G/t$1.masque" --timeout 60s; }
t1=$SECONDS
# libp2p's hole-punch log (on stderr, in each seat's output) says how long
# each punch took.
export GOLOG_LOG_LEVEL="error,p2p-holepunch=debug"
# shellcheck disable=SC2046
start "${P}hA" "$G/h.out" host --players 3 --name "nat-$TAG" --no-mdns --say "hello across the NATs" $(common 0)
H=$LAST
waitfor 30 "$G/h.out" '^invite: .*/p2p-circuit/' || fail "the host printed no invite through the relay"
grep -q "reservation held" "$G/h.out" || fail "the host holds no reservation on the relay"
grep -Eq '^invite: .*/tcp/4001/p2p/.*/p2p-circuit/' "$G/h.out" || fail "no TCP circuit invite"
grep -Eq '^invite: .*/quic-v1/p2p/.*/p2p-circuit/' "$G/h.out" || fail "no QUIC circuit invite"
# The host lists its table in the relay's directory; joiners need only
# the code.
waitfor 15 "$G/h.out" "^listed in the directory of relay .*'masque join [0-9A-Z-]+ --relay" ||
  fail "the host did not list its table in the relay's directory"
CODE=$(grep -oE "^table .* join code [0-9A-Z-]+" "$G/h.out" | head -n1 | sed 's/.* join code //')
[ -n "$CODE" ] || fail "the host printed no join code"
ip netns exec "${P}hB" "$BIN" lobby --relay "$RT" --json --config "$G/lobby" >"$G/lobby.json" 2>"$G/lobby.out" ||
  fail "masque lobby --relay failed behind NAT B"
grep -q "\"code\":\"$CODE\"" "$G/lobby.json" || fail "masque lobby --relay (behind NAT B) does not list $CODE: $(cat "$G/lobby.json")"
grep -q '/p2p-circuit' "$G/lobby.json" || fail "the directory entry has no circuit address"
grep -Eq '"addrs":\[[^]]*192\.168\.' "$G/lobby.json" && fail "the directory entry shows the host's private address"
echo "nat-test: host behind NAT A listed table $CODE in the relay's directory; lobby --relay from NAT B lists it"
# shellcheck disable=SC2046
start "${P}hB" "$G/j1.out" join "$CODE" $(common 1)
J1=$LAST
# shellcheck disable=SC2046
start "${P}hC" "$G/j2.out" join "$CODE" $(common 2)
J2=$LAST
waitall 120 "$H" "$J1" "$J2"
game_s=$((SECONDS - t1))
unset GOLOG_LOG_LEVEL
for i in 1 2; do
  cmp -s "$G/t0.masque" "$G/t$i.masque" || fail "transcript of seat $i differs from the host's"
done
for i in 0 1 2; do
  "$BIN" verify "$G/t$i.masque" >"$G/verify$i.out" || fail "masque verify rejects seat $i's transcript"
done
for i in 1 2; do
  grep -q "^found .*($CODE, " "$G/j$i.out" || fail "joiner $i did not find the table by its code in the directory"
  grep -q "^chat: .*(seat 0): hello across the NATs" "$G/j$i.out" || fail "joiner $i did not get the host's chat message"
  [ -s "$G/t$i.masque.chat" ] || fail "joiner $i saved no chat beside its transcript"
done
echo "nat-test: 3 seats (A cone, B cone, C symmetric; B and C joined by code, the host's chat message got by both) exited 0 in ${game_s}s; transcripts byte-identical ($(stat -c %s "$G/t0.masque") bytes, $(grep -o '[0-9]* entries' "$G/h.out" | tail -n1)), all verified"

# ---- hole punching: direct flows in the routers' connection tracking
if [ $HAVE_CT = 1 ]; then
  for r in A B C; do ip netns exec "${P}r$r" conntrack -L -o extended >"$WORK/ct-$r.txt" 2>/dev/null || true; done
  # direct X Y: does router X track a two-way flow (answered, not
  # [UNREPLIED]) with Y's public address? A punch that failed leaves
  # only unanswered entries ("tried").
  direct() {
    if grep "11\.0\.0\.$2 " "$WORK/ct-$1.txt" | grep -vq UNREPLIED; then echo direct
    elif grep -q "11\.0\.0\.$2 " "$WORK/ct-$1.txt"; then echo "relayed (punch tried)"
    else echo relayed; fi
  }
  AB=$(direct A 22)
  AC=$(direct A 23)
  BC=$(direct B 23)
  echo "nat-test: hole punch: A<->B $AB, A<->C $AC, B<->C $BC (conntrack on the NAT routers; C is a symmetric NAT)"
  [ "$AB" = direct ] || fail "no direct A<->B flow: the hole punch between the two cone NATs failed"
  grep -E "11\.0\.0\.22 " "$WORK/ct-A.txt" | grep -v UNREPLIED | head -n 2 | sed 's/^/nat-test:   rA: /'
  # (no such line is not a failure: the conntrack check above decides; a
  # grep that matches nothing must not end the script under pipefail)
  punches=$( (grep -ho 'msg="hole punching with successful".*duration=[0-9.]*[a-zµ]*' "$G"/*.out || true) | grep -o 'duration=.*' | tr '\n' ' ' || true)
  echo "nat-test: successful hole punches (libp2p's log): ${punches:-none logged}"
  # masque doctor: the last hole punch to each seat, from the state
  # directories of A's and B's seats. The side that started the upgrade
  # (either: libp2p lets the one that accepted the relayed connection
  # start) records it: the A<->B connection shows as direct in one of them.
  for h in A B; do
    s=$([ $h = A ] && echo s0 || echo s1)
    ip netns exec "${P}h$h" "$BIN" doctor --state "$G/$s" --wait 200ms --interface eth0 --config "$WORK/doc" >"$G/doctor-punch-$h.out" 2>&1 ||
      fail "masque doctor --state behind NAT $h failed: $(tail -n2 "$G/doctor-punch-$h.out")"
    grep -q "hole punching at the last game" "$G/doctor-punch-$h.out" || fail "doctor --state behind NAT $h shows no hole punch report"
    grep -E '^  seat' "$G/doctor-punch-$h.out" | sed "s/^ */nat-test:   doctor ($h): /"
  done
  # A and B sit behind port-preserving cone NATs: when both dial at the
  # same moment (the joiners dial each other while the roster is signed)
  # their connection can be direct without libp2p's hole punch; then no
  # punch is logged and the doctor must say the seat was reached directly
  # (the conntrack check above has shown the direct flow either way).
  if [ -n "$punches" ]; then
    cat "$G"/doctor-punch-[AB].out | grep -Eq '^  seat .* direct: ' ||
      fail "doctor behind NAT A or B does not report the direct A<->B connection"
  else
    cat "$G"/doctor-punch-[AB].out | grep -Eq '^  seat .* reached directly' ||
      fail "no hole punch logged, and doctor behind NAT A or B does not say a seat was reached directly"
  fi
else
  echo "nat-test: conntrack not installed: hole punching not checked (apt-get install conntrack)"
fi

# ---- 6 seats, and the relay killed (SIGKILL) during play, back 5 s later
G6="$WORK/g6"
mkdir -p "$G6"
common6() { echo --bot --relay "$RT" --relay "$RQ" --state "$G6/s$1" --config "$G6/c$1" --transcript "$G6/t$1.masque" --timeout 60s; }
t6=$SECONDS
# shellcheck disable=SC2046
start "${P}hA" "$G6/h.out" host --players 6 --name "nat6-$TAG" --no-mdns $(common6 0)
H6=$LAST
waitfor 30 "$G6/h.out" "^listed in the directory of relay " || fail "6 seats: the host did not list its table"
CODE6=$(grep -oE "^table .* join code [0-9A-Z-]+" "$G6/h.out" | head -n1 | sed 's/.* join code //')
J6=()
# restart_relay: kill -9 the relay, start it again 5 s later (same
# identity, same ports) and wait until it is up.
restart_relay() {
  kill -9 "$RELAY"
  wait "$RELAY" 2>/dev/null || true
  sleep 5
  ip netns exec "${P}relay" "$BIN" relay --config "$WORK/relay" --json --status 0 \
    --listen /ip4/11.0.0.10/tcp/4001 --listen /ip4/11.0.0.10/udp/4001/quic-v1 \
    >>"$WORK/relay.json" 2>>"$WORK/relay.out" &
  RELAY=$!
  PIDS+=("$RELAY")
  local deadline=$((SECONDS + 15))
  until [ "$(grep -c '"event":"started"' "$WORK/relay.json")" -gt "$1" ]; do
    [ $SECONDS -lt $deadline ] || fail "the relay did not restart"
    sleep 0.1
  done
  [ "$(grep '"event":"started"' "$WORK/relay.json" | tail -n1 | grep -c "\"peer_id\":\"$RID\"")" = 1 ] ||
    fail "the restarted relay has another peer id"
}
# Two seats per home: A (the host's, cone), B (cone), C (symmetric). Three
# join, then the relay dies during seating; the last two join by code
# after it is back (the host lists its table again).
for i in 1 2 3 4 5; do
  home=$(echo "A B C B C" | cut -d' ' -f"$i")
  # shellcheck disable=SC2046
  start "${P}h$home" "$G6/j$i.out" join "$CODE6" $(common6 "$i")
  J6+=("$LAST")
  if [ "$i" = 3 ]; then
    waitfor 60 "$G6/h.out" 'waiting for players: 4/6 seated' || fail "6 seats: 3 joiners were not seated"
    restart_relay 1
    echo "nat-test: 6 seats: relay killed with SIGKILL with 4 of 6 seated, restarted 5 s later"
  fi
done
# A spectator behind NAT B finds the game in play by its code in the
# relay's directory, after seating, and follows it across the relay's
# restart.
waitfor 90 "$G6/h.out" '^seated: ' || fail "6 seats: the host was not seated"
start "${P}hB" "$G6/w.out" watch "$CODE6" --relay "$RT" --relay "$RQ" --quiet --wait 45s --transcript "$G6/watched.masque"
W6=$LAST
# It finds the game before the relay is killed: on a loaded machine it
# had not yet asked the directory when the relay died, and gave up ("no
# directory answered").
waitfor 60 "$G6/w.out" '^watching table ' ||
  fail "6 seats: the spectator did not find the game in play by its code: $(tail -n 3 "$G6/w.out")"
waitfor 90 "$G6/h.out" '^turn +3 ' || fail "6 seats: the game did not reach turn 3"
kill -0 "$H6" 2>/dev/null || fail "6 seats: the game ended before the relay could be killed"
killed_at=$(grep -cE '^turn ' "$G6/h.out" || true)
restart_relay 2
echo "nat-test: 6 seats (A, A, B, B, C, C) seated by code; relay killed with SIGKILL again during play (after $killed_at turn lines) and restarted 5 s later"
waitall 150 "$H6" "${J6[@]}"
g6_s=$((SECONDS - t6))
# The spectator follows one seat, the host, through the relay: when the
# relay is killed it asks again, and gets the rest of the game if the
# host holds a reservation again before the game ends (AutoRelay takes a
# few seconds); a game that ends first is lost to it (exit 1, after
# --wait). Finding the game in play by code is what must hold.
grep -q '^watching table ' "$G6/w.out" || { sleep 2; grep -q '^watching table ' "$G6/w.out"; } ||
  fail "6 seats: the spectator did not find the game in play by its code: $(tail -n 3 "$G6/w.out")"
deadline=$((SECONDS + 90))
while kill -0 "$W6" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
kill -0 "$W6" 2>/dev/null && fail "6 seats: the spectator still runs 90 s after the game"
if wait "$W6"; then
  cmp -s "$G6/t0.masque" "$G6/watched.masque" || fail "6 seats: the spectator's transcript differs from the seats'"
  echo "nat-test: a spectator behind NAT B found the game in play by its code in the directory and followed it to the end across the relay's restart: $(grep '^verified' "$G6/w.out")"
else
  grep -q 'the stream broke after' "$G6/w.out" || fail "6 seats: the spectator failed: $(grep -E '^masque: error' "$G6/w.out" | head -n1)"
  echo "nat-test: a spectator behind NAT B found the game in play by its code in the directory; it lost the host at the relay's restart and the game ended before it got back ($(grep -c '^still asking' "$G6/w.out") retry notes)"
fi
for i in 1 2 3 4 5; do
  cmp -s "$G6/t0.masque" "$G6/t$i.masque" || fail "6 seats: transcript of seat $i differs from the host's"
done
for i in 0 1 2 3 4 5; do
  "$BIN" verify "$G6/t$i.masque" >"$G6/verify$i.out" || fail "6 seats: masque verify rejects seat $i's transcript"
done
# Exit 0 already means no seat stopped on a verdict; say it plainly.
if grep -q "the table stopped" "$G6"/*.out; then
  fail "6 seats: a seat was blamed: $(grep -h "the table stopped" "$G6"/*.out | head -n1)"
fi
cut=$( (grep -l "no contact with any seat" "$G6"/*.out 2>/dev/null || true) | wc -l)
echo "nat-test: 6 seats finished in ${g6_s}s across the relay's restart: transcripts byte-identical ($(stat -c %s "$G6/t0.masque") bytes, $(grep -o '[0-9]* entries' "$G6/h.out" | tail -n1)), all verified, nobody blamed ($cut seat(s) said they were cut off meanwhile)"

# ---- without --relay, a joiner behind a NAT is told to use one
N="$WORK/norelay"
mkdir -p "$N"
t2=$SECONDS
start "${P}hA" "$N/h.out" host --bot --players 2 --name "nat-$TAG-direct" --no-mdns --state "$N/s0" --config "$N/c0" --timeout 30s
H=$LAST
waitfor 30 "$N/h.out" '^invite: ' || fail "the host (no relay) printed no invite"
DIRECT=$(grep -E '^invite: ' "$N/h.out" | head -n1 | sed 's/^invite: //')
set +e
ip netns exec "${P}hB" "$BIN" join "$DIRECT" --bot --state "$N/s1" --config "$N/c1" --timeout 30s >"$N/j.out" 2>&1
rc=$?
set -e
kill "$H" 2>/dev/null || true
wait "$H" 2>/dev/null || true
[ $rc = 1 ] || fail "a joiner behind NAT B without --relay exited $rc, want 1"
grep -q "unreachable" "$N/j.out" || fail "the error does not say the host is unreachable"
grep -q -- "--relay" "$N/j.out" || fail "the error does not say to use a relay (--relay)"
echo "nat-test: without --relay, the joiner behind NAT B failed in $((SECONDS - t2))s saying: $(grep 'hint:' "$N/j.out" | cut -c1-120)..."

# ---- the relay stops cleanly
kill -TERM "$RELAY"
wait "$RELAY" || fail "the relay exited with status $? on SIGTERM"
grep -q '"event":"stopped"' "$WORK/relay.json" || fail "the relay printed no final status"
tail -n1 "$WORK/relay.json" | grep -q '"tables":0,' || fail "tables still listed in the directory after seating: $(tail -n1 "$WORK/relay.json")"
echo "nat-test: relay stopped on SIGTERM: $(tail -n1 "$WORK/relay.json" | grep -o '"circuits_total":[0-9]*,"refused":[0-9]*,"bytes":[0-9]*,"tables":[0-9]*,"directory_served":[0-9]*')"
echo "nat-test: ok in $((SECONDS - T0))s"
