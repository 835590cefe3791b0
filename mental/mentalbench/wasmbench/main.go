// Command wasmbench runs a chosen set of mentalbench's benchmarks (the
// ones `masque bench` prints) and a few unit costs of the group, and
// prints one JSON object per figure. It is built twice by its test,
// natively and for GOOS=js GOARCH=wasm, and run natively, in headless
// Chromium and (when there is one) in Node, so that the browser seat's
// speed (issue 26) is measured against native in one run:
//
//	MASQUE_WASM_BENCH=1 go test ./mental/mentalbench/wasmbench -run WasmBench -v -timeout 30m
//
// Run alone it prints the native figures:
//
//	go run ./mental/mentalbench/wasmbench -runs 3
package main

import (
	"crypto/rand"
	"crypto/sha512"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"testing"
	"time"

	"filippo.io/edwards25519"
	"filippo.io/edwards25519/field"

	"github.com/masque-games/masque/mental/internal/ristretto"
	"github.com/masque-games/masque/mental/mentalbench"
)

// DefaultCases are the figures measured unless -cases names others: the
// issue's swap proof and its check, shuffles, a Mafia night at 12 seats,
// and the unit costs that explain them.
var DefaultCases = []string{
	"unit/field-mul", "unit/field-square", "unit/scalar-mul",
	"unit/point-scalarmult", "unit/point-scalarbasemult",
	"unit/element-scalarmult", "unit/element-scalarbasemult", "unit/sha512-1k",
	"swap/prove", "swap/verify", "swap-verify-100/chained/batch",
	"shuffle/prove/n=14", "shuffle/verify/n=14",
	"peek/13-players",
	"mafia-night-12/prove-seat", "mafia-night-12/verify-batch",
}

// Figure is one measured benchmark: the median over runs, in µs per
// operation (per proof for a batch of PerOp proofs).
type Figure struct {
	Name     string    `json:"name"`
	MedianUS float64   `json:"median_us"`
	MinUS    float64   `json:"min_us"`
	RunsUS   []float64 `json:"runs_us"`
	N        []int     `json:"n"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stdout, "ERROR", err)
		os.Exit(1)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("wasmbench", flag.ContinueOnError)
	fs.SetOutput(w)
	names := fs.String("cases", strings.Join(DefaultCases, ","), "comma-separated `NAMES` of the figures to measure")
	runs := fs.Int("runs", 3, "runs per figure (the median is reported)")
	benchtime := fs.String("benchtime", "1s", "time per run (testing's -benchtime)")
	list := fs.Bool("list", false, "list the figures' names and stop")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to `FILE` (native only: a profile for -pgo)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	all := cases()
	if *list {
		for _, c := range all {
			fmt.Fprintln(w, c.Name)
		}
		return nil
	}
	if *runs < 1 || *runs > 100 {
		return fmt.Errorf("-runs %d: want 1..100", *runs)
	}
	testing.Init()
	if err := flag.Set("test.benchtime", *benchtime); err != nil {
		return fmt.Errorf("-benchtime %q: %w", *benchtime, err)
	}
	var selected []mentalbench.Case
	for _, name := range strings.Split(*names, ",") {
		i := slices.IndexFunc(all, func(c mentalbench.Case) bool { return c.Name == name })
		if i < 0 {
			return fmt.Errorf("-cases: no figure named %q (-list names them)", name)
		}
		selected = append(selected, all[i])
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	enc := json.NewEncoder(w)
	for _, c := range selected {
		fig := Figure{Name: c.Name}
		for range *runs {
			r := testing.Benchmark(c.Run)
			if r.N == 0 {
				return fmt.Errorf("benchmark %s failed", c.Name)
			}
			per := float64(r.T.Nanoseconds()) / float64(r.N) / float64(c.PerOp) / float64(time.Microsecond)
			fig.RunsUS = append(fig.RunsUS, float64(int64(per*1000+0.5))/1000)
			fig.N = append(fig.N, r.N)
		}
		sorted := slices.Clone(fig.RunsUS)
		slices.Sort(sorted)
		fig.MedianUS, fig.MinUS = sorted[len(sorted)/2], sorted[0]
		if err := enc.Encode(fig); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "DONE")
	return nil
}

// cases is mentalbench's cases and the unit costs.
func cases() []mentalbench.Case {
	return append(units(), mentalbench.Cases()...)
}

// units are the costs the proofs are made of: field multiplication and
// squaring mod 2^255-19 (filippo.io/edwards25519/field: assembly on
// amd64, generic Go elsewhere, wasm included), a scalar multiplication
// mod the group order, a variable-base and a fixed-base scalar
// multiplication, and SHA-512 of 1 KiB (the transcripts' hash).
func units() []mentalbench.Case {
	var seed [64]byte
	if _, err := rand.Read(seed[:]); err != nil {
		panic(err)
	}
	s, err := edwards25519.NewScalar().SetUniformBytes(seed[:])
	if err != nil {
		panic(err)
	}
	p := edwards25519.NewIdentityPoint().ScalarBaseMult(s)
	var fe field.Element
	if _, err := fe.SetBytes(seed[:32]); err != nil {
		panic(err)
	}
	const k = 1000 // field and scalar operations per iteration
	return []mentalbench.Case{
		{Name: "unit/field-mul", PerOp: k, Run: func(b *testing.B) {
			x := new(field.Element).Set(&fe)
			for b.Loop() {
				for range k {
					x.Multiply(x, &fe)
				}
			}
		}},
		{Name: "unit/field-square", PerOp: k, Run: func(b *testing.B) {
			x := new(field.Element).Set(&fe)
			for b.Loop() {
				for range k {
					x.Square(x)
				}
			}
		}},
		{Name: "unit/scalar-mul", PerOp: k, Run: func(b *testing.B) {
			x := edwards25519.NewScalar().Set(s)
			for b.Loop() {
				for range k {
					x.Multiply(x, s)
				}
			}
		}},
		{Name: "unit/point-scalarmult", PerOp: 1, Run: func(b *testing.B) {
			q := edwards25519.NewIdentityPoint()
			for b.Loop() {
				q.ScalarMult(s, p)
			}
		}},
		{Name: "unit/point-scalarbasemult", PerOp: 1, Run: func(b *testing.B) {
			q := edwards25519.NewIdentityPoint()
			for b.Loop() {
				q.ScalarBaseMult(s)
			}
		}},
		// The same through mental's group (internal/ristretto), which on
		// js/wasm multiplies with internal/edwards32's 32-bit limbs and
		// natively with edwards25519.
		{Name: "unit/element-scalarmult", PerOp: 1, Run: func(b *testing.B) {
			e := ristretto.NewGeneratorElement().ScalarBaseMult(s)
			q := ristretto.NewIdentityElement()
			for b.Loop() {
				q.ScalarMult(s, e)
			}
		}},
		{Name: "unit/element-scalarbasemult", PerOp: 1, Run: func(b *testing.B) {
			q := ristretto.NewIdentityElement()
			for b.Loop() {
				q.ScalarBaseMult(s)
			}
		}},
		{Name: "unit/sha512-1k", PerOp: 1, Run: func(b *testing.B) {
			buf := make([]byte, 1024)
			for b.Loop() {
				sha512.Sum512(buf)
			}
		}},
	}
}
