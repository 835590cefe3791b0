package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/mental/mentalbench"
)

type benchOptions struct {
	asJSON bool
	runs   int
	filter string
}

type benchFigure struct {
	Name     string    `json:"name"`
	MedianUS float64   `json:"median_us"`
	RunsUS   []float64 `json:"runs_us"`
	PerOp    int       `json:"per_op"`
	// Speedup is set on a ".../batch" figure whose ".../one-by-one"
	// counterpart was measured in the same run: how many times faster per
	// proof the batch is (the target is at least 3).
	Speedup float64 `json:"speedup_vs_one_by_one,omitempty"`
}

func newBenchCmd(a *app) *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure the cryptography on this machine (medians)",
		Long: `Run the benchmarks of the cryptographic kernel: swap prove and verify, one
decryption share, a peek (shares encrypted to the viewer) and a public reveal
among 13 players end to end, verifiable shuffles at
n=14 and n=48 (one ciphertext per card) and n=18 (three), and the shares of a
reveal (108) and 100 swap proofs verified one by one and as one batch. Each
figure is the median of several runs; batch figures are per proof, with how
many times faster than one by one they are. Progress goes to standard error,
figures to standard output. These are the same benchmarks as
'go test -bench Mental ./mental/'.`,
		Example: `  masque bench
  masque bench --json --runs 5
  masque bench --filter shuffle`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runBench(a, o) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON object per figure")
	cmd.Flags().IntVar(&o.runs, "runs", 3, "runs per figure (the median is reported)")
	cmd.Flags().StringVar(&o.filter, "filter", "", "only figures whose name contains `TEXT`")
	return cmd
}

func runBench(a *app, o benchOptions) error {
	if o.runs < 1 || o.runs > 100 {
		return &exitError{code: 2, err: fmt.Errorf("--runs %d: want 1..100", o.runs)}
	}
	cases := mentalbench.Cases()
	var selected []mentalbench.Case
	for _, c := range cases {
		if o.filter == "" || strings.Contains(c.Name, o.filter) {
			selected = append(selected, c)
		}
	}
	matched := len(selected)
	// Progress: on a terminal, one line rewritten in place run by run;
	// otherwise (a log, a pipe) one plain line per figure.
	live := isTerminal(a.stderr)
	progress := func(i int, name string, run int) {
		switch {
		case live:
			fmt.Fprintf(a.stderr, "\rmeasuring %d/%d %s, run %d/%d...\x1b[K", i+1, matched, name, run+1, o.runs)
		case run == 0:
			fmt.Fprintf(a.stderr, "measuring %d/%d %s (%d runs)...\n", i+1, matched, name, o.runs)
		}
	}
	oneByOne := map[string]float64{} // median per proof, by batch name
	for i, c := range selected {
		fig := benchFigure{Name: c.Name, PerOp: c.PerOp}
		for run := range o.runs {
			progress(i, c.Name, run)
			r := testing.Benchmark(c.Run)
			if r.N == 0 {
				if live {
					fmt.Fprintln(a.stderr)
				}
				return fmt.Errorf("benchmark %s failed", c.Name)
			}
			per := float64(r.T.Nanoseconds()) / float64(r.N) / float64(c.PerOp) / float64(time.Microsecond)
			fig.RunsUS = append(fig.RunsUS, round2(per))
		}
		if live {
			fmt.Fprint(a.stderr, "\r\x1b[K")
		}
		sorted := slices.Clone(fig.RunsUS)
		slices.Sort(sorted)
		fig.MedianUS = sorted[len(sorted)/2]
		if base, ok := strings.CutSuffix(c.Name, "/one-by-one"); ok {
			oneByOne[base] = fig.MedianUS
		}
		if base, ok := strings.CutSuffix(c.Name, "/batch"); ok && oneByOne[base] > 0 && fig.MedianUS > 0 {
			fig.Speedup = round2(oneByOne[base] / fig.MedianUS)
		}
		if o.asJSON {
			if err := json.NewEncoder(a.stdout).Encode(fig); err != nil {
				return err
			}
		} else if fig.Speedup > 0 {
			fmt.Fprintf(a.stdout, "%-42s %12.1f µs  (%.2f× faster than one by one)\n", c.Name, fig.MedianUS, fig.Speedup)
		} else {
			fmt.Fprintf(a.stdout, "%-42s %12.1f µs\n", c.Name, fig.MedianUS)
		}
	}
	if matched == 0 {
		return &exitError{code: 2, err: fmt.Errorf("no benchmark matches %q", o.filter)}
	}
	return nil
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
