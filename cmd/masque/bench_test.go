package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestBenchReportsBatchSpeedup: 'masque bench --json' prints one object
// per figure on standard output, the batch figure carries its speedup over
// the one-by-one figure measured in the same run, and the progress goes to
// standard error only.
func TestBenchReportsBatchSpeedup(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two benchmarks")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"bench", "--json", "--runs", "1", "--filter", "share-verify-108"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var figs []benchFigure
	dec := json.NewDecoder(&out)
	for dec.More() {
		var f benchFigure
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("stdout is not one JSON object per figure: %v", err)
		}
		figs = append(figs, f)
	}
	if len(figs) != 2 || figs[0].Name != "share-verify-108/one-by-one" || figs[1].Name != "share-verify-108/batch" {
		t.Fatalf("figures %+v, want the one-by-one and batch share figures", figs)
	}
	one, batch := figs[0], figs[1]
	if one.Speedup != 0 {
		t.Errorf("the one-by-one figure has a speedup: %+v", one)
	}
	want := round2(one.MedianUS / batch.MedianUS)
	if batch.Speedup <= 0 || batch.Speedup != want {
		t.Errorf("batch speedup %v, want %v (= %v / %v)", batch.Speedup, want, one.MedianUS, batch.MedianUS)
	}
	if !strings.Contains(errOut.String(), "measuring 2/2 share-verify-108/batch") {
		t.Errorf("no progress on stderr: %q", errOut.String())
	}
}

// TestBenchUsageErrors: bad flags are usage errors (exit 2) that say what
// was wrong.
func TestBenchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--runs", "0"}, "--runs 0: want 1..100"},
		{[]string{"bench", "--filter", "no-such-figure"}, `no benchmark matches "no-such-figure"`},
	} {
		var out, errOut bytes.Buffer
		if code := run(c.args, nil, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut.String(), c.want)
		}
	}
}
