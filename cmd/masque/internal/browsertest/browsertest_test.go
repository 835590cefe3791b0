package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestContextsKeepStorageApart: two Contexts of one Browser opened on the
// same origin do not share its storage (localStorage, IndexedDB), while
// two tabs of one Context do: the phone's tests rely on the first
// (TestBrowserStorageCleared, a reload coming back from IndexedDB).
func TestContextsKeepStorageApart(t *testing.T) {
	exe := os.Getenv("MASQUE_CHROMIUM")
	if exe == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
			if p, err := exec.LookPath(name); err == nil {
				exe = p
				break
			}
		}
	}
	if exe == "" {
		t.Skip("no chromium binary found")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><title>storage</title>"))
	}))
	defer srv.Close()
	b := &Browser{}
	defer b.Close()
	// write stores a mark in localStorage and IndexedDB; read says what
	// a page finds of both.
	const write = `new Promise((ok, fail) => { localStorage.setItem("mark", "1");
  const r = indexedDB.open("db", 1); r.onupgradeneeded = () => r.result.createObjectStore("s");
  r.onsuccess = () => { const tx = r.result.transaction("s", "readwrite"); tx.objectStore("s").put("1", "mark"); tx.oncomplete = () => ok("written"); tx.onerror = fail; };
  r.onerror = fail; })`
	const read = `new Promise((ok, fail) => { const ls = localStorage.getItem("mark") || "";
  const r = indexedDB.open("db", 1); r.onupgradeneeded = () => r.result.createObjectStore("s");
  r.onsuccess = () => { const g = r.result.transaction("s").objectStore("s").get("mark"); g.onsuccess = () => ok("ls=" + ls + " idb=" + (g.result || "")); g.onerror = fail; };
  r.onerror = fail; })`
	// visit opens the page in ctx and runs js there.
	visit := func(ctx context.Context, js string) string {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	a, stopA, err := b.Context(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer stopA()
	a, cancelA := context.WithTimeout(a, 60*time.Second)
	defer cancelA()
	if got := visit(a, write); got != "written" {
		t.Fatalf("writing: %q", got)
	}
	// Another tab of the same Context sees the marks (the check can see
	// them at all).
	a2, stopA2 := chromedp.NewContext(a)
	defer stopA2()
	if got := visit(a2, read); got != "ls=1 idb=1" {
		t.Errorf("another tab of the same context reads %q, want ls=1 idb=1", got)
	}
	// Another Context does not.
	c, stopC, err := b.Context(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer stopC()
	c, cancelC := context.WithTimeout(c, 60*time.Second)
	defer cancelC()
	if got := visit(c, read); got != "ls= idb=" {
		t.Errorf("another context reads %q, want ls= idb= (nothing of the first's storage)", got)
	}
}
