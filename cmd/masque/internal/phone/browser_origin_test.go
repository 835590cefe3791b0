package phone

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// probeJS opens the phones' WebSocket and fetches its build hash from
// the page it runs in, and says what happened in the page's title.
const probeJS = `(() => {
  const r = [];
  const done = () => { document.title = "done:" + r.join(","); };
  fetch(%q).then(x => r.push("fetch:" + x.status), () => r.push("fetch:refused")).finally(() => {
    const ws = new WebSocket(%q);
    ws.onopen = () => r.push("open");
    ws.onmessage = e => r.push("message");
    ws.onclose = () => { r.push("closed"); done(); };
  });
  return "probing";
})()`

// TestBrowserOtherOrigins: in headless Chromium, a page of another site
// (another origin on the same machine) cannot drive the phones'
// WebSocket or read its answers; and a DNS rebinding page (a name of the
// attacker's, its page loaded, the name then pointing at the phones'
// server at the same port, so that the browser takes the server for the
// page's own origin) gets 403 for both.
func TestBrowserOtherOrigins(t *testing.T) {
	ctx, cancelT := context.WithTimeout(browserTab(t), 60*time.Second)
	defer cancelT()

	evilPage := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>evil</title>")
	}
	// probe runs js in the page open and waits for its title.
	probe := func(name, js string) string {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](js)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for {
			title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.title`))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if strings.HasPrefix(title, "done:") {
				return title
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	run := func(name, pageURL, js string) string {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(pageURL)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return probe(name, js)
	}

	// Another origin: a page on another port.
	hub := NewHub(Config{Game: "mascarade"})
	srv, err := Listen("127.0.0.1:0", hub, &Seat{}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	eln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	evil := &http.Server{Handler: http.HandlerFunc(evilPage)}
	go evil.Serve(eln)
	got := run("another origin", "http://"+eln.Addr().String()+"/",
		fmt.Sprintf(probeJS, "http://"+srv.Addr()+"/build", "ws://"+srv.Addr()+"/ws"))
	evil.Close()
	if strings.Contains(got, "open") || strings.Contains(got, "message") || strings.Contains(got, "fetch:200") {
		t.Errorf("a page of another origin: %s, want no WebSocket and no answer it can read", got)
	}

	// DNS rebinding: the attacker's page at evil.test:PORT, then the
	// phones' server at that same port.
	rln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := rln.Addr().(*net.TCPAddr).Port
	rebind := &http.Server{Handler: http.HandlerFunc(evilPage)}
	go rebind.Serve(rln)
	origin := fmt.Sprintf("http://evil.test:%d", port)
	if err := chromedp.Do(ctx, chromedp.Navigate(origin+"/")); err != nil {
		t.Fatal(err)
	}
	rebind.Close()
	srv2, err := Listen(fmt.Sprintf("127.0.0.1:%d", port), NewHub(Config{Game: "mascarade"}), &Seat{}, "", "")
	if err != nil {
		t.Skipf("the port was taken again before the phones' server: %v", err)
	}
	go srv2.Serve()
	defer srv2.Close()
	title := probe("DNS rebinding", fmt.Sprintf(probeJS, origin+"/build", fmt.Sprintf("ws://evil.test:%d/ws", port)))
	if title != "done:fetch:403,closed" {
		t.Errorf("a DNS rebinding page: %s, want done:fetch:403,closed (403 for the fetch, no WebSocket)", title)
	}
}
