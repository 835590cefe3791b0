#!/usr/bin/env bash
# Mafia scaling benchmark (issue 28): one 'masque demo --game mafia' bot
# game per (round, seat count, binary), every seat a libp2p peer in that
# one process, binaries alternating so that the load of the shared machine
# falls on each alike. Each line: the binary, the round, n, the entries,
# then /usr/bin/time's wall s, user s, system s and peak RSS in KB, and
# the load. Then, per binary: medians per n and the growth exponents
# (least squares of log y on log n over every game): a peer's CPU per game
# ((user + system) / n), a peer's CPU per entry, the entries, the wall time.
#
#   .ci/mafia-seats.sh ROUNDS BIN...     (round r plays seed 3 + r)
#
# SEATS overrides the seat counts ("6 9 12 15 18").
set -euo pipefail
ROUNDS=${1:?usage: mafia-seats.sh ROUNDS BIN...}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/games.txt
for r in $(seq 1 "$ROUNDS"); do
	for n in ${SEATS:-6 9 12 15 18}; do
		for bin in "$@"; do
			out=$(/usr/bin/time -f "%e %U %S %M" "$bin" demo --game mafia --players "$n" --seed $((3 + r)) \
				--json --transcript "$work/game.masque" 2>"$work/time.txt")
			e=$(echo "$out" | sed -n 's/.*"entries":\([0-9]*\).*/\1/p')
			echo "$(basename "$bin") r=$r n=$n entries=$e $(tail -1 "$work/time.txt") load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$log"
		done
	done
done
python3 - "$log" <<'PY'
import collections, math, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    p = line.split()
    b, n, e = p[0], int(p[2][2:]), int(p[3][8:])
    wall, cpu, rss = float(p[4]), float(p[5]) + float(p[6]), int(p[7]) / 1024
    rows[(b, n)].append((e, wall, cpu, rss))
def slope(xs, ys):
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)
for b in sorted({k[0] for k in rows}):
    print(b)
    ns = sorted(n for (bb, n) in rows if bb == b)
    xs, per_game, per_entry, entries, walls = [], [], [], [], []
    for n in ns:
        g = rows[(b, n)]
        med = lambda f: statistics.median(f(x) for x in g)
        print(f"  n={n:2d} games {len(g)}: entries {med(lambda x: x[0]):.0f}, wall {med(lambda x: x[1]):.1f} s, "
              f"CPU {med(lambda x: x[2]):.1f} s, a peer's CPU {med(lambda x: x[2] / n):.2f} s, "
              f"per entry {med(lambda x: x[2] / n / x[0] * 1e3):.2f} ms, RSS {med(lambda x: x[3]):.0f} MB")
        for e, wall, cpu, rss in g:
            xs.append(n); per_game.append(cpu / n); per_entry.append(cpu / n / e); entries.append(e); walls.append(wall)
    if len(set(xs)) < 2:
        continue
    print(f"  growth: a peer's CPU per game n^{slope(xs, per_game):.2f}, per entry n^{slope(xs, per_entry):.2f}, "
          f"entries n^{slope(xs, entries):.2f}, wall n^{slope(xs, walls):.2f}")
PY
