package netsession

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/ledger"
	"github.com/masque-games/masque/engine/table"
	"github.com/masque-games/masque/p2p"
	"github.com/masque-games/masque/p2p/identity"
	"github.com/masque-games/masque/p2p/lobby"
	"github.com/masque-games/masque/p2p/store"
)

// clock records, per position, when its author produced it and when each
// peer had applied (and so verified) it.
type clock struct {
	mu       sync.Mutex
	authored map[uint64]time.Time
	applied  map[uint64][]time.Time
	// ruled: when each peer applied each entry's rules (for an entry
	// applied deferred, before its proofs are checked: the seat then
	// knows whose turn is next; otherwise when it was applied).
	ruled map[uint64][]time.Time
	// batched counts the entries applied in runs of two or more
	// (ApplyBatch: their proofs checked together) or settled in runs of
	// two or more (ApplyDeferred, Settle: proofs checked across
	// entries), all peers together.
	batched int
}

// timedSeat is a Seat whose Apply, ApplyVerified, ApplyBatch,
// ApplyDeferred, Settle and Author are timed. The room calls
// ApplyVerified (the Seat is a p2p.VerifiedApplier), for entries that
// arrived together ApplyBatch, and for a bot's seat ApplyDeferred and
// Settle, so every apply path must record: a wrapper of Apply alone
// records nothing. An entry applied deferred counts as applied when it
// is settled (its proofs checked: the seat may act on it).
type timedSeat struct {
	*Seat
	c *clock
}

// Compile-time check: the room must see the wrapper as a VerifiedApplier
// and a BatchApplier, as it sees the Seat, or the benchmark measures
// another path.
var (
	_ p2p.VerifiedApplier = timedSeat{}
	_ p2p.BatchApplier    = timedSeat{}
	_ p2p.DeferredApplier = timedSeat{}
)

func (t timedSeat) ApplyDeferred(e *ledger.Entry, settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	failed, err := t.settled(func(s func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) { return t.Seat.ApplyDeferred(e, s) }, settled)
	if failed == nil && err == nil {
		t.c.rule(e.Pos, time.Now())
	}
	return failed, err
}

// rule records that a peer applied the rules of entry pos at at.
func (c *clock) rule(pos uint64, at time.Time) {
	c.mu.Lock()
	c.ruled[pos] = append(c.ruled[pos], at)
	c.mu.Unlock()
}

func (t timedSeat) Settle(settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	return t.settled(t.Seat.Settle, settled)
}

// settled times the entries a call settles, and counts them as batched
// when it settles two or more.
func (t timedSeat) settled(call func(func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error), settled func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	n := 0
	defer func() {
		if n > 1 {
			t.c.mu.Lock()
			t.c.batched += n
			t.c.mu.Unlock()
		}
	}()
	return call(func(e *ledger.Entry, state ledger.Hash) {
		n++
		now := time.Now()
		t.c.mu.Lock()
		t.c.applied[e.Pos] = append(t.c.applied[e.Pos], now)
		t.c.mu.Unlock()
		settled(e, state)
	})
}

func (t timedSeat) ApplyBatch(next func(uint64, uint8) *ledger.Entry, max int, applied func(*ledger.Entry, ledger.Hash)) (*ledger.Entry, error) {
	n := 0
	defer func() {
		if n > 1 {
			t.c.mu.Lock()
			t.c.batched += n
			t.c.mu.Unlock()
		}
	}()
	return t.Seat.ApplyBatch(next, max, func(e *ledger.Entry, state ledger.Hash) {
		n++
		now := time.Now()
		t.c.mu.Lock()
		t.c.applied[e.Pos] = append(t.c.applied[e.Pos], now)
		t.c.ruled[e.Pos] = append(t.c.ruled[e.Pos], now)
		t.c.mu.Unlock()
		applied(e, state)
	})
}

func (t timedSeat) Apply(e *ledger.Entry) error { return t.timed(e, t.Seat.Apply) }

func (t timedSeat) ApplyVerified(e *ledger.Entry) error { return t.timed(e, t.Seat.ApplyVerified) }

func (t timedSeat) timed(e *ledger.Entry, apply func(*ledger.Entry) error) error {
	if err := apply(e); err != nil {
		return err
	}
	now := time.Now()
	t.c.mu.Lock()
	t.c.applied[e.Pos] = append(t.c.applied[e.Pos], now)
	t.c.ruled[e.Pos] = append(t.c.ruled[e.Pos], now)
	t.c.mu.Unlock()
	return nil
}

func (t timedSeat) author(ctx context.Context, pos uint64) ([]byte, error) {
	b, err := t.Seat.Author(ctx, pos)
	t.c.mu.Lock()
	t.c.authored[pos] = time.Now()
	t.c.mu.Unlock()
	return b, err
}

// syncBuffer is a bytes.Buffer for the loggers of many peers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// rssMB is this process's resident set size in MB (Linux), or 0.
func rssMB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkNetworkLatency plays full 13-player bot games of Mascarade among
// 13 libp2p peers on loopback TCP in this process (the same seating, state
// directories with fsync, and rooms as 'masque host'/'masque join') and
// reports: the warnings the peers logged (entries applied late, dones
// missing at the end; each is printed), the process CPU time (user+system, all 13 peers and their
// libp2p stacks, seating excluded) per log entry, the action latency from the author's entry to every peer
// having applied and verified it (p50, p99; a bot seat that checks
// proofs across entries verifies an entry when it settles it, before it
// acts: ruled-p50, ruled-p99 are to every peer having applied its rules,
// which tells the next author its turn), the game's wall time, the
// process RSS divided by 13 (all peers share the process), and the share
// of entries a peer applied in runs of two or more (batched-%: their
// proofs checked together). It then audits the game's transcript in the
// same process (table.Replay, as 'masque verify') and reports its CPU per
// entry and the ratio of a seat's CPU per entry (the process's divided by
// 13) to it (seat/audit; issue 28's first figure). With the loopback
// interface to itself it also reports the IP packets and bytes sent per
// entry per receiving peer during the game (pkts/entry/rcv,
// B/entry/rcv: TCP segments and acknowledgements, Noise and yamux
// included; issue 28's packets per entry per receiver), read from the
// interface's counters: run it in a network namespace of its own, as
// root, or other traffic on the loopback counts too.
//
//	go test -run '^$' -bench NetworkLatency -benchtime 1x ./cmd/masque/internal/netsession/
//	ip netns add bench && ip netns exec bench ip link set lo up &&
//	  ip netns exec bench go test -run '^$' -bench NetworkLatency -benchtime 1x ./cmd/masque/internal/netsession/
//
// benchEntryByEntry makes BenchmarkNetworkLatency's seats check each
// entry's proofs as it comes (SeatConfig.DeferProofs off), for a
// comparison in one binary: -args -entry-by-entry.
var benchEntryByEntry = flag.Bool("entry-by-entry", false, "BenchmarkNetworkLatency: seats check each entry's proofs as it comes")

func BenchmarkNetworkLatency(b *testing.B) {
	const n = 13
	var p50s, p99s, r50s, r99s, games, rss, cpus, runs, audits, ratios, pkts, byts, lens []float64
	warnings := 0
	for range b.N {
		var logs syncBuffer
		var ruled [2]float64
		p50, p99, game, cpuPerEntry, batched, audit, entries, traffic, err := networkGame(b.TempDir(), n, &logs, &ruled)
		if w := logs.String(); w != "" {
			// Late entries ("entry applied late") and missing dones
			// (warnings), slow dials and sync answers (information).
			b.Log(w)
			warnings += strings.Count(w, "level=WARN")
		}
		if err != nil {
			b.Fatal(err)
		}
		p50s, p99s, games = append(p50s, p50), append(p99s, p99), append(games, game)
		r50s, r99s = append(r50s, ruled[0]), append(r99s, ruled[1])
		rss = append(rss, rssMB()/n)
		cpus = append(cpus, cpuPerEntry)
		runs = append(runs, batched)
		audits = append(audits, audit)
		ratios = append(ratios, cpuPerEntry/n/audit)
		pkts, byts = append(pkts, traffic[0]), append(byts, traffic[1])
		lens = append(lens, entries)
	}
	med := func(v []float64) float64 { slices.Sort(v); return v[len(v)/2] }
	b.ReportMetric(med(p50s), "p50-ms")
	b.ReportMetric(med(p99s), "p99-ms")
	b.ReportMetric(med(r50s), "ruled-p50-ms")
	b.ReportMetric(med(r99s), "ruled-p99-ms")
	b.ReportMetric(med(games), "game-s")
	b.ReportMetric(med(rss), "MB/peer")
	b.ReportMetric(med(cpus), "cpu-ms/entry")
	b.ReportMetric(float64(warnings)/float64(b.N), "warnings/game")
	b.ReportMetric(med(runs), "batched-%")
	b.ReportMetric(med(audits), "audit-cpu-ms/entry")
	b.ReportMetric(med(ratios), "seat/audit")
	b.ReportMetric(med(pkts), "pkts/entry/rcv")
	b.ReportMetric(med(byts), "B/entry/rcv")
	b.ReportMetric(med(lens), "entries")
	b.ReportMetric(0, "ns/op")
}

// cpuTime is this process's CPU time so far (user and system), or 0.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopback reads the loopback interface's counters of packets and bytes
// sent (Linux), or zeros.
func loopback() (packets, bytes float64) {
	read := func(what string) float64 {
		data, err := os.ReadFile("/sys/class/net/lo/statistics/" + what)
		if err != nil {
			return 0
		}
		v, _ := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
		return v
	}
	return read("tx_packets"), read("tx_bytes")
}

// networkGame plays one game and returns the latencies, the wall time in
// seconds, the CPU per entry in milliseconds, and the loopback's packets
// and bytes per entry per receiving peer.
func networkGame(root string, n int, logs io.Writer, ruled *[2]float64) (p50, p99, game, cpuPerEntry, batched, auditPerEntry, entries float64, traffic [2]float64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	peers := make([]*Peer, n)
	cards := make([]table.SeatSecrets, n)
	defer func() {
		for _, p := range peers {
			if p != nil {
				p.Close()
			}
		}
	}()
	for i := range peers {
		id, err := identity.Generate()
		if err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, err
		}
		logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo})).With("peer", i)
		if peers[i], err = NewPeerWithIdentity(id, []string{"/ip4/127.0.0.1/tcp/0"}, logger); err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, err
		}
		cards[i] = table.GenerateSeatSecrets()
	}
	seatings := make([]*p2p.Seating, n)
	errs := make([]error, n)
	opened := make(chan lobby.Table, 1)
	var wg sync.WaitGroup
	wg.Go(func() {
		seatings[0], errs[0] = peers[0].Host(ctx, HostConfig{Table: "bench", Player: "p0", Players: n, Keys: cards[0],
			OnOpen: func(t lobby.Table, _ error) { opened <- t }})
	})
	lt := <-opened
	for i := 1; i < n; i++ {
		wg.Go(func() {
			seatings[i], errs[i] = peers[i].Join(ctx, JoinConfig{Creator: lt.AddrInfo(), TableID: lt.ID,
				Player: fmt.Sprint("p", i), Keys: cards[i], Seat: i})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, fmt.Errorf("seat %d: %w", i, err)
		}
	}
	c := &clock{authored: map[uint64]time.Time{}, applied: map[uint64][]time.Time{}, ruled: map[uint64][]time.Time{}}
	rooms := make([]*p2p.Room, n)
	stores := make([]*store.Store, n)
	defer func() {
		for i := range rooms {
			if rooms[i] != nil {
				rooms[i].Close()
			}
			if stores[i] != nil {
				stores[i].Close()
			}
		}
	}()
	var audit table.Game
	for i, s := range seatings {
		st, err := store.Create(filepath.Join(root, fmt.Sprint(i)), s.Table, secretBytes(cards[i]))
		if err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, err
		}
		stores[i] = st
		seat, err := NewSeat(SeatConfig{Seat: int(s.Seat), Roster: s.Roster, Sign: peers[i].ID.SigningKey(), Keys: cards[i],
			Bot: true, Seed: 1, DeferProofs: !*benchEntryByEntry})
		if err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, err
		}
		if i == 0 {
			audit = seat.game.Table()
		}
		ts := timedSeat{seat, c}
		if rooms[i], err = peers[i].Node.OpenRoom(p2p.RoomConfig{Store: st, Replica: ts, Author: ts.author, Timeout: time.Minute}); err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, err
		}
	}
	start, cpu0 := time.Now(), cpuTime()
	pk0, by0 := loopback()
	for i := range rooms {
		wg.Go(func() {
			out, err := rooms[i].Run(ctx)
			if err == nil && out.Verdict != nil {
				err = fmt.Errorf("verdict: %v", out.Verdict)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	game, cpu := time.Since(start).Seconds(), cpuTime()-cpu0
	pk1, by1 := loopback()
	for i, err := range errs {
		if err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, fmt.Errorf("peer %d: %w", i, err)
		}
	}
	var lat []float64
	for pos, at := range c.authored {
		ap := c.applied[pos]
		if len(ap) != n {
			return 0, 0, 0, 0, 0, 0, 0, traffic, fmt.Errorf("entry %d applied by %d peers", pos, len(ap))
		}
		lat = append(lat, float64(slices.MaxFunc(ap, func(a, b time.Time) int { return a.Compare(b) }).Sub(at).Microseconds())/1000)
	}
	slices.Sort(lat)
	var rlat []float64
	for pos, at := range c.authored {
		if ap := c.ruled[pos]; len(ap) == n {
			rlat = append(rlat, float64(slices.MaxFunc(ap, func(a, b time.Time) int { return a.Compare(b) }).Sub(at).Microseconds())/1000)
		}
	}
	if slices.Sort(rlat); len(rlat) > 0 {
		*ruled = [2]float64{rlat[len(rlat)/2], rlat[len(rlat)*99/100]}
	}
	traffic = [2]float64{(pk1 - pk0) / float64(len(lat)*(n-1)), (by1 - by0) / float64(len(lat)*(n-1))}
	// The audit of the same game in the same process ('masque verify'
	// runs table.Replay): its CPU per entry, median of 3.
	t := stores[0].Table()
	log, err := rooms[0].Log()
	if err != nil {
		return 0, 0, 0, 0, 0, 0, 0, traffic, fmt.Errorf("the log: %w", err)
	}
	tr := &ledger.Transcript{Roster: t.Roster, RosterSigs: t.Sigs, Entries: log}
	var audits []float64
	for range 3 {
		cpu0 := cpuTime()
		if _, err := table.Replay(tr, audit); err != nil {
			return 0, 0, 0, 0, 0, 0, 0, traffic, fmt.Errorf("audit: %w", err)
		}
		audits = append(audits, float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(tr.Entries)))
	}
	slices.Sort(audits)
	return lat[len(lat)/2], lat[len(lat)*99/100], game, float64(cpu.Microseconds()) / 1000 / float64(len(lat)),
		100 * float64(c.batched) / float64(n*len(lat)), audits[1], float64(len(lat)), traffic, nil
}

func secretBytes(k table.SeatSecrets) []byte {
	b, err := k.MarshalBinary()
	if err != nil {
		panic(err)
	}
	return b
}
