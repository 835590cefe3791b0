// Command lanstats summarises the games .ci/lan13-bench.sh ran with
// LOGS=1: per game, the warnings each seat logged, the stalls (an entry
// made durable at some seat more than 1 s after its author signed it, or
// a process that exited more than 1 s after the game's last entry was
// durable everywhere), and the latency from an entry's author to every
// other seat; then the same over all the games given.
//
//	go run ./.ci/lanstats RUNDIR...
//
// A RUNDIR holds l<i>.log (each process's --log, at debug level),
// end<i> (each process's exit, Unix seconds) and, if present, t0 (the
// roster's time). The times come from the seats' debug lines: "entry
// authored" (the author's Core took its bot's body and signed it),
// "entry applied" (the step that applied it began: the frame left the
// inbox) and "entries durable" (the entries were written to the state
// directory, synced if a frame reports them, and their frames handed
// to the senders: the seat may author
// the next one). The processes share one clock (network namespaces of
// one machine).
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// endOrder is the end's steps at a seat, in order (see stats.endSteps).
var endOrder = []string{"game over; leaving", "log streams drained", "run returned", "transcript written", "exit", "process gone"}

// stall is how late an entry or an exit may be (issue 28).
const stall = 1e6 // µs

// line is one parsed slog text line.
type line map[string]string

// parse splits a slog text line into its keys and values.
func parse(s string) line {
	l := line{}
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			break
		}
		k := s[:eq]
		s = s[eq+1:]
		var v string
		if strings.HasPrefix(s, `"`) {
			// A quoted value: find the closing quote, skipping escapes.
			i := 1
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			if u, err := strconv.Unquote(s[:min(i+1, len(s))]); err == nil {
				v = u
			} else {
				v = s[1:min(i, len(s))]
			}
			s = s[min(i+1, len(s)):]
		} else {
			sp := strings.IndexByte(s, ' ')
			if sp < 0 {
				sp = len(s)
			}
			v, s = s[:sp], s[sp:]
		}
		l[k] = v
	}
	return l
}

func (l line) int(k string) (int64, bool) {
	v, err := strconv.ParseInt(l[k], 10, 64)
	return v, err == nil
}

// seatLog is what one process logged.
type seatLog struct {
	seat     int              // -1 until an "entry authored" names it
	received map[int64]int64  // pos → µs
	applied  map[int64]int64  // pos → µs
	durable  map[int64]int64  // pos → µs
	warnings map[string]int   // msg → count
	warnText []string         // the warning lines
	exit     int64            // µs, 0 if unknown
	steps    map[string]int64 // the end's debug steps: msg → µs
	authored map[int64]int64  // pos → µs (this seat's own)
}

// game is one run directory.
type game struct {
	dir      string
	logs     []*seatLog
	authored map[int64]int64 // pos → µs
	author   map[int64]int   // pos → seat
	t0       int64
}

func readGame(dir string) (*game, error) {
	g := &game{dir: dir, authored: map[int64]int64{}, author: map[int64]int{}}
	files, _ := filepath.Glob(filepath.Join(dir, "l*.log"))
	sort.Slice(files, func(i, j int) bool { return num(files[i]) < num(files[j]) })
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no l*.log (run lan13-bench.sh with LOGS=1 KEEP=1)", dir)
	}
	for _, f := range files {
		sl := &seatLog{seat: -1, applied: map[int64]int64{}, received: map[int64]int64{}, durable: map[int64]int64{},
			warnings: map[string]int{}, authored: map[int64]int64{}, steps: map[string]int64{}}
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			l := parse(sc.Text())
			switch {
			case l["level"] == "WARN":
				sl.warnings[l["msg"]]++
				sl.warnText = append(sl.warnText, sc.Text())
			case l["msg"] == "entry authored":
				pos, _ := l.int("pos")
				t, _ := l.int("t_us")
				seat, _ := l.int("seat")
				sl.seat = int(seat)
				sl.authored[pos] = t
				g.authored[pos], g.author[pos] = t, int(seat)
			case slices.Contains(endOrder, l["msg"]):
				t, ok := l.int("t_us")
				if !ok {
					// No t_us: the line's own time (ms).
					if tm, err := time.Parse(time.RFC3339Nano, l["time"]); err == nil {
						t = tm.UnixMicro()
					}
				}
				sl.steps[l["msg"]] = t
			case l["msg"] == "entry received":
				pos, _ := l.int("pos")
				t, _ := l.int("t_us")
				if _, ok := sl.received[pos]; !ok {
					sl.received[pos] = t
				}
			case l["msg"] == "entry applied":
				pos, _ := l.int("pos")
				t, _ := l.int("t_us")
				if _, ok := sl.applied[pos]; !ok {
					sl.applied[pos] = t
				}
			case l["msg"] == "entries durable":
				from, _ := l.int("from")
				to, _ := l.int("to")
				t, _ := l.int("t_us")
				for p := from; p <= to; p++ {
					if _, ok := sl.durable[p]; !ok {
						sl.durable[p] = t
					}
				}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		end := filepath.Join(dir, "end"+strconv.Itoa(num(f)))
		if b, err := os.ReadFile(end); err == nil {
			sl.exit = secToMicro(strings.TrimSpace(string(b)))
		}
		g.logs = append(g.logs, sl)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "t0")); err == nil {
		g.t0 = secToMicro(strings.TrimSpace(string(b)))
	}
	return g, nil
}

// num is the number in a file name such as l12.log.
func num(f string) int {
	b := filepath.Base(f)
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(b, "l"), ".log"))
	return n
}

func secToMicro(s string) int64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int64(math.Round(f * 1e6))
}

// at is when seat log sl had entry pos: durable if logged, else applied.
func (sl *seatLog) at(pos int64) (int64, bool) {
	if t, ok := sl.durable[pos]; ok {
		return t, true
	}
	t, ok := sl.applied[pos]
	return t, ok
}

// slowEntry is an entry and the seat that had it last.
type slowEntry struct {
	pos, lat                            int64
	author, seat                        int
	recv, applied, durable, prevDurable int64 // µs after the entry was signed (unknown: math.MinInt64)
}

func (e slowEntry) String() string {
	ms := func(t int64) string {
		if t == math.MinInt64 {
			return "?"
		}
		return fmt.Sprintf("%.1f", float64(t)/1e3)
	}
	return fmt.Sprintf("entry %d (seat %d) durable at all %s ms after signed; last seat %d: received %s, step %s, durable %s, entry before durable there %s ms",
		e.pos, e.author, ms(e.lat), e.seat, ms(e.recv), ms(e.applied), ms(e.durable), ms(e.prevDurable))
}

// stats is one game's figures (µs).
type stats struct {
	entries int
	perSeat []float64 // author → durable at each other seat
	byAll   []float64 // author → durable at the last of the others
	steady  []float64 // byAll from entry 2 on (connections are set up meanwhile)
	// phases (µs): roster → entry 0 signed, entry 0 signed → durable at
	// every seat, then per entry until the last entry is durable
	// everywhere, then → the last process's exit.
	toFirst, first, perEntry, end []float64
	// the end at each seat (µs): last entry durable everywhere → game
	// over here (every seat said done) → log streams drained → the
	// transcript written → the log closed → the process gone.
	endSteps  map[string][]float64
	applied   []float64 // author → the step that applied it, each other seat
	handoff   []float64 // durable at the next author → its entry authored
	recv      []float64 // author → the entry reached each other seat's node
	inbox     []float64 // reached the node → the step that applied it began
	apply     []float64 // the step began → durable
	slow      []slowEntry
	late      []string // entries over the stall bound
	lateExit  []string
	warnings  map[string]int
	lastExit  int64
	lastEntry int64 // the last entry durable everywhere
}

func (g *game) stats() stats {
	st := stats{warnings: map[string]int{}, endSteps: map[string][]float64{}}
	var poss []int64
	for p := range g.authored {
		poss = append(poss, p)
	}
	slices.Sort(poss)
	st.entries = len(poss)
	var first int64 // entry 0 durable everywhere
	bySeat := map[int]*seatLog{}
	for _, sl := range g.logs {
		if sl.seat >= 0 {
			bySeat[sl.seat] = sl
		}
		for m, n := range sl.warnings {
			st.warnings[m] += n
		}
		st.lastExit = max(st.lastExit, sl.exit)
	}
	for _, p := range poss {
		ta, author := g.authored[p], g.author[p]
		if sl := bySeat[author]; sl != nil {
			if t, ok := sl.at(p); ok {
				st.lastEntry = max(st.lastEntry, t)
			}
		}
		var all int64 = -1
		var worst slowEntry
		complete := true
		for _, sl := range g.logs {
			if sl.seat == author {
				continue
			}
			t, ok := sl.at(p)
			if !ok {
				complete = false
				continue
			}
			st.lastEntry = max(st.lastEntry, t)
			d := t - ta
			st.perSeat = append(st.perSeat, float64(d))
			if a, ok := sl.applied[p]; ok {
				st.applied = append(st.applied, float64(a-ta))
			}
			rel := func(m map[int64]int64, p int64) int64 {
				if x, ok := m[p]; ok {
					return x - ta
				}
				return math.MinInt64
			}
			r, a := rel(sl.received, p), rel(sl.applied, p)
			if r != math.MinInt64 {
				st.recv = append(st.recv, float64(r))
				if a != math.MinInt64 {
					st.inbox = append(st.inbox, float64(a-r))
				}
			}
			if a != math.MinInt64 {
				st.apply = append(st.apply, float64(d-a))
			}
			if d > all {
				all = d
				pd := int64(math.MinInt64)
				if t, ok := sl.at(p - 1); ok {
					pd = t - ta
				}
				worst = slowEntry{pos: p, lat: d, author: author, seat: sl.seat, recv: r, applied: a, durable: d, prevDurable: pd}
			}
			if d > stall {
				st.late = append(st.late, fmt.Sprintf("entry %d (seat %d) at seat %d: %.3f s after it was signed (step began %.3f s after)",
					p, author, sl.seat, float64(d)/1e6, float64(sl.applied[p]-ta)/1e6))
			}
		}
		if complete && all >= 0 {
			st.byAll = append(st.byAll, float64(all))
			if p >= 2 {
				st.steady = append(st.steady, float64(all))
			}
			if p == 0 {
				first = ta + all
				st.first = append(st.first, float64(all))
			}
			st.slow = append(st.slow, worst)
		}
		// The next entry's author: from having this one to signing its own.
		if na, ok := g.author[p+1]; ok {
			if sl := bySeat[na]; sl != nil {
				if t, ok := sl.at(p); ok {
					st.handoff = append(st.handoff, float64(g.authored[p+1]-t))
				}
			}
		}
	}
	if t, ok := g.authored[0]; ok && g.t0 > 0 {
		st.toFirst = append(st.toFirst, float64(t-g.t0))
	}
	if first > 0 && len(poss) > 1 {
		st.perEntry = append(st.perEntry, float64(st.lastEntry-first)/float64(len(poss)-1))
	}
	if st.lastExit > 0 && st.lastEntry > 0 {
		st.end = append(st.end, float64(st.lastExit-st.lastEntry))
	}
	for _, sl := range g.logs {
		prev := st.lastEntry
		for _, k := range endOrder {
			t, ok := sl.steps[k]
			if k == "process gone" {
				t, ok = sl.exit, sl.exit > 0
			}
			if !ok || prev == 0 {
				continue
			}
			st.endSteps[k] = append(st.endSteps[k], float64(t-prev))
			prev = t
		}
	}
	for _, sl := range g.logs {
		if sl.exit > 0 && st.lastEntry > 0 && sl.exit-st.lastEntry > stall {
			st.lateExit = append(st.lateExit, fmt.Sprintf("seat %d exited %.3f s after the last entry was durable everywhere",
				sl.seat, float64(sl.exit-st.lastEntry)/1e6))
		}
	}
	return st
}

func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func dist(xs []float64) string {
	return fmt.Sprintf("p50 %.1f p90 %.1f p99 %.1f max %.1f ms (n=%d)",
		pct(xs, 50)/1e3, pct(xs, 90)/1e3, pct(xs, 99)/1e3, pct(xs, 100)/1e3, len(xs))
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: lanstats RUNDIR...")
		os.Exit(2)
	}
	var all stats
	all.warnings = map[string]int{}
	stalled, n := 0, 0
	for _, dir := range os.Args[1:] {
		g, err := readGame(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "lanstats:", err)
			os.Exit(1)
		}
		st := g.stats()
		n++
		warn := 0
		for _, c := range st.warnings {
			warn += c
		}
		isStall := len(st.late) > 0 || len(st.lateExit) > 0
		if isStall {
			stalled++
		}
		exitPer := ""
		if g.t0 > 0 && st.entries > 0 {
			exitPer = fmt.Sprintf(" roster→exits/entry=%.2fms", float64(st.lastExit-g.t0)/1e3/float64(st.entries))
		}
		fmt.Printf("%s: entries=%d warnings=%d stall=%v%s\n", dir, st.entries, warn, isStall, exitPer)
		fmt.Printf("  author→durable by all: %s\n", dist(st.byAll))
		fmt.Printf("  author→durable each seat: %s\n", dist(st.perSeat))
		fmt.Printf("  phases: roster→entry 0 %s ms, entry 0 →all %s ms, then %s ms/entry, last entry→last exit %s ms\n",
			ms(st.toFirst), ms(st.first), ms(st.perEntry), ms(st.end))
		for m, c := range st.warnings {
			fmt.Printf("  warning x%d: %s\n", c, m)
		}
		for _, sl := range g.logs {
			for _, w := range sl.warnText {
				fmt.Printf("    seat %d: %s\n", sl.seat, w)
			}
		}
		slices.SortFunc(st.slow, func(a, b slowEntry) int { return int(b.lat - a.lat) })
		for _, e := range st.slow[:min(3, len(st.slow))] {
			fmt.Printf("  slowest: %v\n", e)
		}
		for i, l := range st.late {
			if i == 10 {
				fmt.Printf("  ... %d more late\n", len(st.late)-10)
				break
			}
			fmt.Printf("  LATE %s\n", l)
		}
		for _, l := range st.lateExit {
			fmt.Printf("  LATE %s\n", l)
		}
		all.entries += st.entries
		all.perSeat = append(all.perSeat, st.perSeat...)
		all.byAll = append(all.byAll, st.byAll...)
		all.steady = append(all.steady, st.steady...)
		all.toFirst = append(all.toFirst, st.toFirst...)
		all.first = append(all.first, st.first...)
		all.perEntry = append(all.perEntry, st.perEntry...)
		all.end = append(all.end, st.end...)
		if all.endSteps == nil {
			all.endSteps = map[string][]float64{}
		}
		for k, v := range st.endSteps {
			all.endSteps[k] = append(all.endSteps[k], v...)
		}
		all.applied = append(all.applied, st.applied...)
		all.handoff = append(all.handoff, st.handoff...)
		all.recv = append(all.recv, st.recv...)
		all.inbox = append(all.inbox, st.inbox...)
		all.apply = append(all.apply, st.apply...)
		for m, c := range st.warnings {
			all.warnings[m] += c
		}
	}
	fmt.Printf("ALL %d games, %d entries, %d games with a stall\n", n, all.entries, stalled)
	fmt.Printf("  author→durable by all others: %s\n", dist(all.byAll))
	fmt.Printf("  the same from entry 2 on:     %s\n", dist(all.steady))
	fmt.Printf("  author→durable each seat:     %s\n", dist(all.perSeat))
	fmt.Printf("  author→applied (step began):  %s\n", dist(all.applied))
	fmt.Printf("  author→received (the node):   %s\n", dist(all.recv))
	fmt.Printf("  received→step began (inbox):  %s\n", dist(all.inbox))
	fmt.Printf("  step began→durable:           %s\n", dist(all.apply))
	fmt.Printf("  next author: durable→signed:  %s\n", dist(all.handoff))
	fmt.Printf("  per game (median, min–max): roster→entry 0 signed %s; entry 0 →all %s; then per entry %s; last entry→last exit %s ms\n",
		medRange(all.toFirst), medRange(all.first), medRange(all.perEntry), medRange(all.end))
	for _, k := range endOrder {
		if v := all.endSteps[k]; len(v) > 0 {
			fmt.Printf("  the end, each seat, previous step → %s: %s\n", k, dist(v))
		}
	}
	for m, c := range all.warnings {
		fmt.Printf("  warning x%d: %s\n", c, m)
	}
}

// ms formats one game's phase (ms), "?" if unknown.
func ms(xs []float64) string {
	if len(xs) == 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f", xs[0]/1e3)
}

// medRange is the median and range of per-game figures (ms).
func medRange(xs []float64) string {
	if len(xs) == 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f (%.1f–%.1f)", pct(xs, 50)/1e3, pct(xs, 0)/1e3, pct(xs, 100)/1e3)
}
