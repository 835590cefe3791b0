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
	// buildEnv adds variables to the wasm build, space-separated (for
	// example "GOWASM=satconv,signext").
	buildEnv = "MASQUE_WASM_BUILDENV"
	// gogcEnv sets GOGC for the program in every environment.
	gogcEnv = "MASQUE_WASM_GOGC"
	// nodeEnv=0 leaves Node out.
	nodeEnv = "MASQUE_WASM_NODE"
	// pgoEnv=0 leaves the profile-guided wasm build (pgoFile) out.
	pgoEnv = "MASQUE_WASM_PGO"
	// benchtimeEnv sets each run's length (testing's -benchtime, default
	// 1s). Beware short runs ("5x"): each run starts the program afresh,
	// and a few iterations leave the wasm in V8's baseline tier (a swap
	// proof measured twice as slow), so compare like with like only.
	benchtimeEnv = "MASQUE_WASM_BENCHTIME"
)

// pgoFile is a CPU profile of this program's figures, taken natively
// with the generic field arithmetic (-tags purego), so that a wasm build
// with -pgo inlines the field code's hot calls (addMul19, addMul38),
// which the inliner's default budget leaves as calls on wasm. Remake it
// with:
//
//	go run -tags purego . -runs 1 -cpuprofile wasm.pgo -cases swap/prove,swap/verify,shuffle/prove/n=14,shuffle/verify/n=14,peek/13-players,mafia-night-12/prove-seat,mafia-night-12/verify-batch
const pgoFile = "wasm.pgo"

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
window.startBench = async (argv, env) => {
  try {
    const go = new Go();
    go.argv = ["wasmbench", ...argv];
    go.env = env;
    const t0 = performance.now();
    const wasm = location.search.slice(1) || "bench.wasm";
    const { instance } = await WebAssembly.instantiateStreaming(fetch(wasm), go.importObject);
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
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	root := strings.TrimSpace(string(out))
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
	wasmEnv := append([]string{"GOOS=js", "GOARCH=wasm"}, strings.Fields(os.Getenv(buildEnv))...)
	goBuild(t, filepath.Join(dir, "bench.wasm"), wasmEnv...)
	pgo, err := filepath.Abs(pgoFile)
	if err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(pgo)
	withPGO := statErr == nil && os.Getenv(pgoEnv) != "0"
	if withPGO {
		goBuild(t, filepath.Join(dir, "bench-pgo.wasm"), append(wasmEnv, "GOFLAGS=-pgo="+pgo)...)
	}
	progEnv := map[string]string{}
	if g := os.Getenv(gogcEnv); g != "" {
		progEnv["GOGC"] = g
	}
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
		profileChromium(t, exe, srv.URL, prof, progEnv)
		return
	}
	// The environments: native, the wasm in Chromium, the wasm built
	// with pgoFile's profile in Chromium (when the file is there), and
	// the wasm in Node (when there is one).
	type env struct {
		name string
		run  func(args []string) []Figure
	}
	envs := []env{{"native", func(args []string) []Figure {
		out, err := command(progEnv, filepath.Join(dir, "native"), args...).Output()
		if err != nil {
			t.Fatalf("native: %v\n%s", err, out)
		}
		figs, err := parseFigures(out)
		if err != nil {
			t.Fatalf("native: %v", err)
		}
		return figs
	}}}
	chromiumOf := func(wasm string) func(args []string) []Figure {
		return func(args []string) []Figure {
			figs, loadMS := runChromium(t, exe, srv.URL+"/index.html?"+wasm, args, progEnv, nil)
			t.Logf("%s instantiated in %.0f ms", wasm, loadMS)
			return figs
		}
	}
	envs = append(envs, env{"chromium", chromiumOf("bench.wasm")})
	if withPGO {
		envs = append(envs, env{"chromium+pgo", chromiumOf("bench-pgo.wasm")})
	}
	if node, err := exec.LookPath("node"); err == nil && os.Getenv(nodeEnv) != "0" {
		envs = append(envs, env{"node", func(args []string) []Figure {
			out, err := command(progEnv, node, append([]string{filepath.Join(wx, "wasm_exec_node.js"), filepath.Join(dir, "bench.wasm")}, args...)...).Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			figs, err := parseFigures(out)
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			return figs
		}})
	}
	// The runs interleave (every environment once, then again): on a
	// shared machine the load changes by the minute, and each figure's
	// median then sees the same minutes in every environment.
	nruns, _ := strconv.Atoi(runs)
	args := []string{"-runs", "1", "-cases", names}
	if bt := os.Getenv(benchtimeEnv); bt != "" {
		args = append(args, "-benchtime", bt)
	}
	samples := map[string][][]Figure{}
	for r := range nruns {
		for _, e := range envs {
			start := time.Now()
			samples[e.name] = append(samples[e.name], e.run(args))
			t.Logf("run %d/%d: %s %s", r+1, nruns, e.name, time.Since(start).Round(time.Second))
		}
	}
	results := map[string][]Figure{}
	for env, runs := range samples {
		results[env] = merge(runs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "µs per operation, median of %s interleaved runs (× native's median; min over runs: × native's min)\n", runs)
	fmt.Fprintf(&b, "%-30s", "figure")
	for _, e := range envs {
		fmt.Fprintf(&b, " %26s", e.name)
	}
	b.WriteString("\n")
	for i, f := range results["native"] {
		fmt.Fprintf(&b, "%-30s %26.3f", f.Name, f.MedianUS)
		for _, e := range envs[1:] {
			c := results[e.name][i]
			fmt.Fprintf(&b, " %12.3f %5.2f× %5.2f×", c.MedianUS, c.MedianUS/f.MedianUS, c.MinUS/f.MinUS)
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
		f.MedianUS, f.MinUS = sorted[len(sorted)/2], sorted[0]
		out = append(out, f)
	}
	return out
}

// command runs name with args and the variables of env added.
func command(env map[string]string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
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
func runChromium(t *testing.T, exe, url string, args []string, env map[string]string, around func(ctx context.Context) func()) ([]Figure, float64) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Minute)
	defer cancelT()
	if !strings.Contains(url, "/index.html") {
		url += "/index.html"
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	var after func()
	if around != nil {
		after = around(ctx)
	}
	argv, _ := json.Marshal(args)
	envJS, _ := json.Marshal(env)
	// setTimeout: the program keeps the page's thread until it ends, so
	// it must not run inside this evaluation.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf("setTimeout(() => startBench(%s, %s), 0)", argv, envJS))); err != nil {
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
func profileChromium(t *testing.T, exe, url, name string, env map[string]string) {
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
	figs, _ := runChromium(t, exe, url, []string{"-runs", "1", "-cases", name}, env, around)
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
