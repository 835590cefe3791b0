# shellcheck shell=bash
# The setup, processes and cleanup that the .ci scripts running masque
# peers in network namespaces share. A script sets CI_NAME (the prefix of
# its messages), WORK (its scratch directory), PIDS=() and NSS=() (the
# namespaces to remove), then calls these.

# ci_skip WHY...: say why the script does not run, and exit 0.
ci_skip() { echo "$CI_NAME: skipped: $*"; exit 0; }

# ci_need TOOL...: skip unless root and every TOOL (ip, nft) is installed.
ci_need() {
  [ "$(id -u)" = 0 ] || ci_skip "needs root (network namespaces)"
  local t pkg
  for t in "$@"; do
    case $t in ip) pkg=iproute2 ;; nft) pkg=nftables ;; *) pkg=$t ;; esac
    command -v "$t" >/dev/null || ci_skip "needs $t (apt-get install $pkg)"
  done
}

# ci_fail WHAT...: say what failed, and exit 1 (ci_cleanup then shows the logs).
ci_fail() { echo "$CI_NAME: FAIL: $*" >&2; exit 1; }

# ci_cleanup LINES: the EXIT trap. Kills every process in PIDS and every
# masque whose pid is in a $WORK/*/*.pid, removes every namespace in NSS,
# shows the last LINES lines of each $WORK/*/*.out if the script failed,
# removes WORK and exits with the script's status.
ci_cleanup() {
  local rc=$? p n f
  for p in "${PIDS[@]:-}" $(cat "$WORK"/*/*.pid 2>/dev/null); do
    [ -n "$p" ] && { kill -9 "$p"; wait "$p"; } 2>/dev/null || true
  done
  for n in "${NSS[@]:-}"; do [ -n "$n" ] && ip netns del "$n" 2>/dev/null || true; done
  if [ $rc -ne 0 ]; then
    echo "$CI_NAME: FAILED (exit $rc); logs:"
    for f in "$WORK"/*/*.out; do
      [ -f "$f" ] || continue
      echo "----- $f (last $1 lines)"
      tail -n "$1" "$f"
    done
  fi
  rm -rf "$WORK"
  exit $rc
}

# ci_masque PREBUILT: sets BIN to PREBUILT, or (empty) to a masque built
# into WORK.
ci_masque() {
  if [ -n "$1" ]; then
    BIN=$1
  else
    echo "$CI_NAME: building masque"
    go build -o "$WORK/masque" ./cmd/masque
    BIN="$WORK/masque"
  fi
}

# ns_cut NS / ns_uncut NS: drop every packet NS's eth0 sends or receives
# (nftables), and stop dropping them.
ns_cut() {
  ip netns exec "$1" nft -f - <<NFT
table inet blackout {
  chain in  { type filter hook input priority 0; policy accept; iifname "eth0" drop; }
  chain out { type filter hook output priority 0; policy accept; oifname "eth0" drop; }
}
NFT
}
ns_uncut() { ip netns exec "$1" nft delete table inet blackout; }

# start NS OUT ARGS...: runs "$BIN ARGS..." in NS in the background, its
# output appended to OUT, masque's own pid in OUT.pid (for ci_cleanup),
# the time of its exit in OUT.end. The background shell's pid (whose
# status is masque's) in LAST, and added to PIDS.
LAST=
start() {
  local ns=$1 out=$2
  shift 2
  ( ip netns exec "$ns" "$BIN" "$@" >>"$out" 2>&1 &
    echo $! >"$out.pid"
    rc=0
    wait $! 2>/dev/null || rc=$?
    date +%s >"$out.end"
    exit $rc ) &
  LAST=$!
  PIDS+=("$LAST")
}

# waitexit SECONDS PID: wait for PID's exit (ci_fail after SECONDS); its
# status in RC.
RC=
waitexit() {
  local deadline=$((SECONDS + $1))
  while kill -0 "$2" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || ci_fail "peer $2 still running after $1 s"
    sleep 0.2
  done
  RC=0
  wait "$2" || RC=$?
}
