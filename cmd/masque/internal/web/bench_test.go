package web

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
)

// The benchmarks of the web screen (docs/performance.md quotes them):
//
//	go test -run '^$' -bench . -benchtime 3x ./cmd/masque/internal/web/
//
// BenchmarkEntryToEvent and BenchmarkEntryToPage time an entry from the
// moment the session says it was applied (its update) to the event
// stream carrying it, and to the page in a browser showing it;
// BenchmarkFirstLoad times and weighs the page's first load. The
// browser's benchmarks are skipped when no chromium is found.

// timedSession is a local session that notes when each entry count was
// first announced by the session.
type timedSession struct {
	*localsession.Session
	up chan struct{}

	mu      sync.Mutex
	applied map[int]time.Time
}

func newTimed(b *testing.B, game string, players int, delay time.Duration) *timedSession {
	b.Helper()
	names := []string{"Me", "Anna", "Boris", "Sasha", "Dima"}[:players]
	ls, err := localsession.New(names, 5, localsession.Options{Game: game, PublishKeys: true, Delay: delay})
	if err != nil {
		b.Fatal(err)
	}
	ts := &timedSession{Session: ls, up: make(chan struct{}, 1), applied: map[int]time.Time{}}
	go func() {
		defer close(ts.up)
		for range ls.Updates() {
			n := ls.Snapshot().Entries
			ts.mu.Lock()
			if _, ok := ts.applied[n]; !ok {
				ts.applied[n] = time.Now()
			}
			ts.mu.Unlock()
			select {
			case ts.up <- struct{}{}:
			default:
			}
		}
	}()
	return ts
}

// Updates implements session.Session.
func (ts *timedSession) Updates() <-chan struct{} { return ts.up }

// since is how long after the announcement of entry count n t is.
func (ts *timedSession) since(n int, t time.Time) (time.Duration, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t0, ok := ts.applied[n]
	if !ok {
		return 0, false
	}
	return t.Sub(t0), true
}

// quantile is the q-quantile of ds (sorted in place).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func reportLatency(b *testing.B, ds []time.Duration) {
	b.Helper()
	if len(ds) == 0 {
		b.Fatal("no entry was timed")
	}
	b.ReportMetric(float64(quantile(ds, 0.5).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(quantile(ds, 0.9).Microseconds())/1000, "p90-ms")
	b.ReportMetric(float64(len(ds))/float64(b.N), "entries/game")
}

// BenchmarkEntryToEvent: from an entry's update to the server-sent event
// that carries it, read by a Go client (the screen's own work: the
// snapshot, the view, the JSON, the stream), over a short game (4-player
// Mascarade) and a long one (5-player Grimm: hundreds of log lines); with
// the bytes each event carries, whole states or patches (the page's).
func BenchmarkEntryToEvent(b *testing.B) {
	for _, g := range []struct {
		name    string
		game    string
		players int
		delay   time.Duration
	}{{"mascarade-4", "mascarade", 4, 20 * time.Millisecond}, {"grimm-5", "grimm", 5, 5 * time.Millisecond}} {
		for _, stream := range []string{"whole", "patch"} {
			b.Run(g.name+"/"+stream, func(b *testing.B) { benchEntryToEvent(b, g.game, g.players, g.delay, stream == "patch") })
		}
	}
}

func benchEntryToEvent(b *testing.B, game string, players int, delay time.Duration, patches bool) {
	var lat []time.Duration
	var wire, sent int
	for range b.N {
		ts := newTimed(b, game, players, delay)
		srv, err := New(ts, Options{})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		done := make(chan struct{})
		go func() { srv.Run(ctx); close(done) }()
		url := srv.URL() + "events"
		if patches {
			url += "?patch=1"
		}
		evs := events(b, ctx, url)
		played := -1
		for ev := range evs {
			now := time.Now()
			wire, sent = wire+ev.wire, sent+1
			if d, ok := ts.since(ev.st.At, now); ok && ev.st.At != played {
				lat = append(lat, d)
			}
			if ev.st.Over {
				break
			}
			if q := ev.st.Question; q != nil && !ev.st.Busy && ev.st.At != played {
				post(srv, action{Op: "play", At: ev.st.At, Choice: 0, Answer: "yes"})
				played = ev.st.At
			}
		}
		cancel()
		<-done
		ts.Close()
	}
	reportLatency(b, lat)
	b.ReportMetric(float64(wire)/float64(max(1, sent))/1024, "KB/event")
}

// browser starts a chromium for a benchmark, or skips it.
func browser(b *testing.B) (context.Context, func()) {
	b.Helper()
	exe := findChromiumB(b)
	alloc, cancelAlloc := allocator(exe)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		cancelAlloc()
		b.Fatalf("starting %s: %v", exe, err)
	}
	return ctx, func() { cancel(); cancelAlloc() }
}

// findChromiumB is findChromium for a benchmark.
func findChromiumB(b *testing.B) string {
	b.Helper()
	if p := lookChromium(); p != "" {
		return p
	}
	b.Skipf("no chromium binary found (install Debian's 'chromium', or set %s): the browser benchmark is skipped", chromiumEnv)
	return ""
}

// watchJS records, in the page, when each entry count is first shown.
const watchJS = `(() => {
  window.__shown = {};
  const note = () => { const a = document.body.dataset.at; if (a !== undefined && !(a in window.__shown)) window.__shown[a] = Date.now(); };
  new MutationObserver(note).observe(document.body, {attributes: true, attributeFilter: ["data-at"]});
  note();
  return true;
})()`

// BenchmarkEntryToPage: from an entry's update to a browser's page
// showing it (drawn: the page sets its entry count after drawing), over
// a whole game of Mascarade against bots played by clicking.
func BenchmarkEntryToPage(b *testing.B) {
	ctx, stop := browser(b)
	defer stop()
	var lat []time.Duration
	for range b.N {
		ts := newTimed(b, "mascarade", 4, 20*time.Millisecond)
		srv, err := New(ts, Options{})
		if err != nil {
			b.Fatal(err)
		}
		sctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { srv.Run(sctx); close(done) }()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("body[data-rendered]"))); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](watchJS)); err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		acted := ""
		for time.Now().Before(deadline) {
			sit, err := chromedp.Run(ctx, chromedp.Evaluate[string](situationJS))
			if err != nil {
				b.Fatal(err)
			}
			kind, rev, _ := strings.Cut(sit, ":")
			if kind == "over" {
				break
			}
			switch {
			case kind == "ask":
				chromedp.Do(ctx, chromedp.KeyEvent("y"))
			case kind == "step": // a menu in steps: into the first
				chromedp.Do(ctx, chromedp.KeyEvent("1"))
				acted = ""
			case kind == "choice" && rev != acted:
				chromedp.Do(ctx, chromedp.KeyEvent("1"))
				acted = rev
			default:
				time.Sleep(20 * time.Millisecond)
			}
		}
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int64](`window.__shown`))
		if err != nil {
			b.Fatal(err)
		}
		for at, ms := range shown {
			n, err := strconv.Atoi(at)
			if err != nil {
				continue
			}
			if d, ok := ts.since(n, time.UnixMilli(ms)); ok && d >= 0 {
				lat = append(lat, d)
			}
		}
		cancel()
		<-done
		ts.Close()
	}
	reportLatency(b, lat)
}

// BenchmarkFirstLoad: the page's first load in a browser, from the
// request to the table drawn from the first event, and its weight (the
// page's files and the first event).
func BenchmarkFirstLoad(b *testing.B) {
	ctx, stop := browser(b)
	defer stop()
	ts := newTimed(b, "grimm", 5, time.Hour) // a big table that does not move
	defer ts.Close()
	srv, err := New(ts, Options{})
	if err != nil {
		b.Fatal(err)
	}
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Run(sctx)
	var times, drawn []time.Duration
	var bytes int64
	for range b.N {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("body[data-rendered]"))); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByName("masque-drawn")[0].startTime`))
		if err != nil {
			b.Fatal(err)
		}
		drawn = append(drawn, time.Duration(ms*float64(time.Millisecond)))
	}
	// The weight: every file of the page and the first event, as served.
	for _, f := range []string{"", "style.css", "cards.js", "app.js"} {
		bytes += fetchLen(b, srv, srv.URL()+f)
	}
	srv.sc.mu.Lock()
	bytes += int64(len(srv.sc.page))
	srv.sc.mu.Unlock()
	// drawn-ms: from the navigation's start to the table drawn, by the
	// page's clock; wall-ms: the same seen from here, with the driver's
	// round trips.
	b.ReportMetric(float64(quantile(drawn, 0.5).Microseconds())/1000, "drawn-p50-ms")
	b.ReportMetric(float64(quantile(times, 0.5).Microseconds())/1000, "wall-p50-ms")
	b.ReportMetric(float64(bytes)/1024, "KB")
}

func fetchLen(b *testing.B, srv *Server, url string) int64 {
	b.Helper()
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var n int64
	buf := make([]byte, 32<<10)
	for {
		k, err := resp.Body.Read(buf)
		n += int64(k)
		if err != nil {
			break
		}
	}
	return n
}
