package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// The harness (TestWasmBench) runs only when asked: it builds the program
// twice and measures for minutes.
const (
	// benchEnv turns the harness on: "1" for DefaultCases, or a
	// comma-separated list of figures (go run . -list names them).
	benchEnv = "MASQUE_WASM_BENCH"
	// runsEnv is the runs per figure (default 3; the median is reported).
	runsEnv = "MASQUE_WASM_RUNS"
	// profileEnv names one figure to profile in Chromium instead: the
	// harness prints where the time goes, by wasm function (self time).
	profileEnv = "MASQUE_WASM_PROFILE"
	// outEnv names a file to write every figure to, as JSON.
	outEnv = "MASQUE_WASM_OUT"
	// chromiumEnv names a browser binary (default: chromium on $PATH).
	chromiumEnv = "MASQUE_CHROMIUM"
)

// TestRunFigures runs the program natively on two cheap figures: the
// output the harness parses is what the program prints, and a figure
// name that does not exist is refused.
func TestRunFigures(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-runs", "2", "-benchtime", "3x", "-cases", "unit/field-mul,swap/verify"}, &out); err != nil {
		t.Fatal(err)
	}
	figs, err := parseFigures(out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(figs) != 2 || figs[0].Name != "unit/field-mul" || figs[1].Name != "swap/verify" {
		t.Fatalf("figures %+v, want unit/field-mul and swap/verify", figs)
	}
	for _, f := range figs {
		if len(f.RunsUS) != 2 || f.MedianUS <= 0 || !slices.Equal(f.N, []int{3, 3}) {
			t.Errorf("%s: %+v, want 2 runs of 3 iterations and a positive median", f.Name, f)
		}
	}
	if err := run([]string{"-cases", "swap/nothing"}, &out); err == nil || !strings.Contains(err.Error(), `"swap/nothing"`) {
		t.Errorf("an unknown figure: error %v, want one naming it", err)
	}
	for _, name := range DefaultCases {
		if !hasCase(name) {
			t.Errorf("DefaultCases names %q, which is no figure", name)
		}
	}
}

func hasCase(name string) bool {
	for _, c := range cases() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// parseFigures reads the program's output: one JSON figure a line, then
// DONE; a line "ERROR ..." is the program's failure.
func parseFigures(out []byte) ([]Figure, error) {
	var figs []Figure
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "DONE":
			return figs, nil
		case strings.HasPrefix(line, "ERROR"):
			return nil, fmt.Errorf("the benchmark program failed: %s", line)
		case strings.HasPrefix(line, "{"):
			var f Figure
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				return nil, fmt.Errorf("figure %q: %w", line, err)
			}
			figs = append(figs, f)
		}
	}
	return nil, fmt.Errorf("the benchmark program stopped before DONE")
}

// page loads wasm_exec.js and bench.wasm, keeps what the program prints
// in window.benchLines, and runs it when startBench(argv) is called.
const page = `<!doctype html>
<meta charset="utf-8"><title>wasmbench</title>
<script src="wasm_exec.js"></script>
<script>
window.benchLines = [];
window.benchDone = false;
const consoleLog = console.log.bind(console);
console.log = (...a) => { window.benchLines.push(a.join(" ")); consoleLog(...a); };
window.startBench = async (argv) => {
  try {
    const go = new Go();
    go.argv = ["wasmbench", ...argv];
    const t0 = performance.now();
    const { instance } = await WebAssembly.instantiateStreaming(fetch("bench.wasm"), go.importObject);
    window.benchLoadMS = performance.now() - t0;
    await go.run(instance);
  } catch (e) {
    window.benchLines.push("ERROR " + e);
  }
  window.benchDone = true;
};
</script>`

// wasmExecDir is where Go keeps wasm_exec.js (lib/wasm since Go 1.24,
// misc/wasm before).
func wasmExecDir(t *testing.T) string {
	root := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		root = strings.TrimSpace(string(out))
	}
	for _, d := range []string{filepath.Join(root, "lib", "wasm"), filepath.Join(root, "misc", "wasm")} {
		if _, err := os.Stat(filepath.Join(d, "wasm_exec.js")); err == nil {
			return d
		}
	}
	t.Fatalf("no wasm_exec.js under %s (lib/wasm or misc/wasm)", root)
	return ""
}

func goBuild(t *testing.T, out string, env ...string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", env, err, b)
	}
}

// TestWasmBench measures the figures natively, in headless Chromium and
// in Node (when there is one), in one run, and prints them side by side:
//
//	MASQUE_WASM_BENCH=1 go test ./mental/mentalbench/wasmbench -run WasmBench -v -timeout 60m
//	MASQUE_WASM_BENCH=swap/prove,swap/verify MASQUE_WASM_RUNS=5 go test ...
//	MASQUE_WASM_PROFILE=mafia-night-12/prove-seat go test ./mental/mentalbench/wasmbench -run WasmBench -v
func TestWasmBench(t *testing.T) {
	spec, prof := os.Getenv(benchEnv), os.Getenv(profileEnv)
	if spec == "" && prof == "" {
		t.Skipf("set %s=1 (or a list of figures) or %s=FIGURE to measure the wasm figures", benchEnv, profileEnv)
	}
	exe := os.Getenv(chromiumEnv)
	if exe == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
			if p, err := exec.LookPath(name); err == nil {
				exe = p
				break
			}
		}
	}
	if exe == "" {
		t.Skipf("no chromium (install Debian's chromium or set %s)", chromiumEnv)
	}
	names := strings.Join(DefaultCases, ",")
	if spec != "" && spec != "1" {
		names = spec
	}
	runs := "3"
	if r := os.Getenv(runsEnv); r != "" {
		if _, err := strconv.Atoi(r); err != nil {
			t.Fatalf("%s=%q: want a number", runsEnv, r)
		}
		runs = r
	}
	dir := t.TempDir()
	goBuild(t, filepath.Join(dir, "native"))
	goBuild(t, filepath.Join(dir, "bench.wasm"), "GOOS=js", "GOARCH=wasm")
	wx := wasmExecDir(t)
	js, err := os.ReadFile(filepath.Join(wx, "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"wasm_exec.js": js, "index.html": []byte(page)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	if prof != "" {
		profileChromium(t, exe, srv.URL, prof)
		return
	}
	// The runs interleave (native, Chromium, Node, then again): on a
	// shared machine the load changes by the minute, and each figure's
	// median then sees the same minutes in every environment.
	nruns, _ := strconv.Atoi(runs)
	args := []string{"-runs", "1", "-cases", names}
	node, _ := exec.LookPath("node")
	samples := map[string][][]Figure{}
	var loadMS float64
	for r := range nruns {
		start := time.Now()
		out, err := exec.Command(filepath.Join(dir, "native"), args...).Output()
		if err != nil {
			t.Fatalf("native: %v\n%s", err, out)
		}
		figs, err := parseFigures(out)
		if err != nil {
			t.Fatalf("native: %v", err)
		}
		samples["native"] = append(samples["native"], figs)
		t.Logf("run %d/%d: native %s", r+1, nruns, time.Since(start).Round(time.Second))
		start = time.Now()
		figs, loadMS = runChromium(t, exe, srv.URL, args, nil)
		samples["chromium"] = append(samples["chromium"], figs)
		t.Logf("run %d/%d: chromium %s (bench.wasm instantiated in %.0f ms)", r+1, nruns, time.Since(start).Round(time.Second), loadMS)
		if node != "" {
			start = time.Now()
			out, err := exec.Command(node, append([]string{filepath.Join(wx, "wasm_exec_node.js"), filepath.Join(dir, "bench.wasm")}, args...)...).Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			figs, err := parseFigures(out)
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			samples["node"] = append(samples["node"], figs)
			t.Logf("run %d/%d: node %s", r+1, nruns, time.Since(start).Round(time.Second))
		}
	}
	results := map[string][]Figure{}
	for env, runs := range samples {
		results[env] = merge(runs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s %12s %12s %7s %12s %7s\n", "figure (µs, median of "+runs+")", "native", "chromium", "×", "node", "×")
	for i, f := range results["native"] {
		c := results["chromium"][i]
		fmt.Fprintf(&b, "%-32s %12.3f %12.3f %7.2f", f.Name, f.MedianUS, c.MedianUS, c.MedianUS/f.MedianUS)
		if n := results["node"]; len(n) > i {
			fmt.Fprintf(&b, " %12.3f %7.2f", n[i].MedianUS, n[i].MedianUS/f.MedianUS)
		}
		b.WriteString("\n")
	}
	t.Logf("bench.wasm: %s\n%s", sizeOf(filepath.Join(dir, "bench.wasm")), b.String())
	if p := os.Getenv(outEnv); p != "" {
		j, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(p, j, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// merge makes one figure of each name out of single runs: every run's
// time, and their median.
func merge(runs [][]Figure) []Figure {
	var out []Figure
	for i := range runs[0] {
		f := Figure{Name: runs[0][i].Name}
		for _, r := range runs {
			f.RunsUS = append(f.RunsUS, r[i].RunsUS...)
			f.N = append(f.N, r[i].N...)
		}
		sorted := slices.Clone(f.RunsUS)
		slices.Sort(sorted)
		f.MedianUS = sorted[len(sorted)/2]
		out = append(out, f)
	}
	return out
}

func sizeOf(p string) string {
	st, err := os.Stat(p)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%.1f MB", float64(st.Size())/1e6)
}

// runChromium opens the page in a new headless Chromium, runs the program
// with args, and returns its figures and the time bench.wasm took to
// load and compile. around, if set, runs in the browser before the
// program starts and returns a function run after it ends (the
// profiler).
func runChromium(t *testing.T, exe, url string, args []string, around func(ctx context.Context) func()) ([]Figure, float64) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/index.html")); err != nil {
		t.Fatal(err)
	}
	var after func()
	if around != nil {
		after = around(ctx)
	}
	argv, _ := json.Marshal(args)
	// setTimeout: the program keeps the page's thread until it ends, so
	// it must not run inside this evaluation.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("setTimeout(() => startBench(%s), 0)", argv))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void]("window.benchDone", chromedp.WithPollingInterval(time.Second), chromedp.WithPollingTimeout(60*time.Minute))); err != nil {
		t.Fatal(err)
	}
	if after != nil {
		after()
	}
	lines, err := chromedp.Run(ctx, chromedp.Evaluate[[]string]("window.benchLines"))
	if err != nil {
		t.Fatal(err)
	}
	loadMS, err := chromedp.Run(ctx, chromedp.Evaluate[float64]("window.benchLoadMS || 0"))
	if err != nil {
		t.Fatal(err)
	}
	figs, err := parseFigures([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return figs, loadMS
}

// profileChromium runs one figure in Chromium under V8's sampling
// profiler and prints the wasm functions by self time, and the same
// grouped by package.
func profileChromium(t *testing.T, exe, url, name string) {
	var prof *profiler.Profile
	around := func(ctx context.Context) func() {
		if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		return func() {
			r, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			prof = r.Profile
		}
	}
	figs, _ := runChromium(t, exe, url, []string{"-runs", "1", "-cases", name}, around)
	if prof == nil || len(prof.Samples) == 0 {
		t.Fatal("the profiler recorded no samples")
	}
	self := map[string]int64{}
	var total int64
	for _, n := range prof.Nodes {
		fn := n.CallFrame.FunctionName
		if fn == "" {
			fn = "(" + n.CallFrame.URL + ")"
		}
		self[fn] += n.HitCount
		total += n.HitCount
	}
	byPkg := map[string]int64{}
	for fn, h := range self {
		byPkg[pkgOf(fn)] += h
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in chromium: %+v\n%d samples; by function, self time:\n", name, figs, total)
	writeTop(&b, self, total, 40)
	b.WriteString("by package, self time:\n")
	writeTop(&b, byPkg, total, 25)
	t.Log(b.String())
}

// pkgOf is the Go package of a wasm function name such as
// "filippo.io/edwards25519/field.feMulGeneric" or
// "github.com/x/y.(*T).M".
func pkgOf(fn string) string {
	slash := strings.LastIndex(fn, "/")
	if dot := strings.Index(fn[slash+1:], "."); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

func writeTop(b *strings.Builder, m map[string]int64, total int64, n int) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	for i, k := range keys {
		if i == n {
			break
		}
		fmt.Fprintf(b, "  %5.1f%%  %s\n", 100*float64(m[k])/float64(total), k)
	}
}
