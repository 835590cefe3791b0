//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkMafiaSeats is issue 28's Mafia scaling figure: one 'masque
// demo --game mafia' bot game per seat count, every seat a libp2p peer in
// this one process, reported as the game's wall time, the CPU the process
// spent divided by the seats (a peer's CPU), and that per entry. The
// per-peer CPU at n = 6…18 gives the growth exponent (docs/performance.md).
// The peak RSS (maxrss-MB) is the process's, so it is the game's only
// when one seat count runs alone: -bench 'MafiaSeats/n=18$' -benchtime 1x.
func BenchmarkMafiaSeats(b *testing.B) {
	for _, n := range []int{6, 9, 12, 15, 18} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			dir := b.TempDir()
			var entries int
			cpu0 := processCPU(b)
			for i := range b.N {
				path := filepath.Join(dir, "m-"+strconv.Itoa(i)+".masque")
				var out, errOut bytes.Buffer
				if code := run([]string{"demo", "--game", "mafia", "--players", strconv.Itoa(n), "--seed", strconv.Itoa(4 + i),
					"--transcript", path, "--json"}, nil, &out, &errOut); code != 0 {
					b.Fatalf("demo: exit %d\n%s", code, errOut.String())
				}
				var res demoResult
				if err := json.Unmarshal(out.Bytes(), &res); err != nil {
					b.Fatalf("demo output: %v", err)
				}
				entries += res.Entries
			}
			cpu := (processCPU(b) - cpu0).Seconds()
			b.ReportMetric(float64(entries)/float64(b.N), "entries/game")
			b.ReportMetric(cpu/float64(n)/float64(b.N), "peer-CPU-s/game")
			b.ReportMetric(cpu/float64(n)/float64(entries)*1e3, "peer-CPU-ms/entry")
			b.ReportMetric(maxRSSMB(b), "maxrss-MB")
		})
	}
}

// processCPU is the CPU (user and system) this process has spent so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// maxRSSMB is this process's peak resident set so far, in MB (Linux
// reports ru_maxrss in KB).
func maxRSSMB(b *testing.B) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return float64(ru.Maxrss) / 1024
}
