// Package dudect measures whether a function's running time depends on a
// secret, the dudect way (Reparaz, Balasch, Verbauwhede, "Dude, is my
// code constant time?", DATE 2017): the same call is timed many times
// with its secret input drawn from two classes, in random order, and
// Welch's t-test compares the two classes' times, over all measurements
// and over the measurements below several percentiles (cropping the long
// tail that interrupts and other processes add). |t| above [Threshold]
// says the time depends on the class; below it no dependence was
// measured at that number of measurements. Tests use it (the long
// timing tests run only when asked: see [FromEnv]).
package dudect

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"time"
)

// Threshold is dudect's |t| threshold.
const Threshold = 4.5

// Crops are the percentiles below which the cropped tests keep
// measurements (1 keeps every measurement).
var Crops = []float64{1, 0.99, 0.9, 0.75, 0.5}

// Env is the environment variable that asks for the timing tests, with
// the number of measurements per class and case:
//
//	MASQUE_DUDECT=3000 go test ./mental ./engine/mafia -run Timing -v
const Env = "MASQUE_DUDECT"

// FromEnv returns the number of measurements [Env] asks for, 0 if none.
func FromEnv() int {
	n, err := strconv.Atoi(os.Getenv(Env))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Result is one case's measurement: Welch's t by crop and each class's
// median time.
type Result struct {
	N      int
	T      []float64 // by Crops
	Median [2]time.Duration
}

// MaxT is the largest |t| over the crops.
func (r Result) MaxT() float64 {
	m := 0.0
	for _, t := range r.T {
		m = max(m, math.Abs(t))
	}
	return m
}

func (r Result) String() string {
	s := fmt.Sprintf("%d per class (%s), median %v / %v; t", r.N, Clock,
		r.Median[0].Round(time.Microsecond), r.Median[1].Round(time.Microsecond))
	for i, t := range r.T {
		s += fmt.Sprintf(" %.0f%%:%+.2f", Crops[i]*100, t)
	}
	return s + fmt.Sprintf("; max |t| %.2f", r.MaxT())
}

// Welch returns Welch's t statistic of two samples (0 if either has
// fewer than two values or both have no variance).
func Welch(a, b []float64) float64 {
	if len(a) < 2 || len(b) < 2 {
		return 0
	}
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	se := math.Sqrt(va/float64(len(a)) + vb/float64(len(b)))
	if se == 0 {
		return 0
	}
	return (ma - mb) / se
}

func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// Measure times n calls of each class's function (after a warm-up of 10
// each), in an order drawn at random, on one thread, and returns Welch's
// t over the crops.
func Measure(n int, class [2]func()) Result {
	defer lockThread()()
	for range 10 {
		class[0]()
		class[1]()
	}
	order := make([]int, 2*n)
	for i := range order {
		order[i] = i % 2
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	times := [2][]float64{}
	for _, c := range order {
		start := threadTime()
		class[c]()
		times[c] = append(times[c], float64(threadTime()-start))
	}
	pooled := slices.Sorted(slices.Values(slices.Concat(times[0], times[1])))
	r := Result{N: n}
	for _, p := range Crops {
		limit := pooled[min(len(pooled)-1, int(p*float64(len(pooled))))]
		var kept [2][]float64
		for c := range 2 {
			for _, v := range times[c] {
				if p == 1 || v < limit {
					kept[c] = append(kept[c], v)
				}
			}
		}
		r.T = append(r.T, Welch(kept[0], kept[1]))
	}
	for c := range 2 {
		s := slices.Sorted(slices.Values(times[c]))
		r.Median[c] = time.Duration(s[len(s)/2])
	}
	return r
}
