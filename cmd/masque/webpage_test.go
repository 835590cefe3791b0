package main

import (
	"bufio"
	"context"
	"iter"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// tableURLRE matches the page's address that masque prints with --web.
var tableURLRE = regexp.MustCompile(`the table is at (http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{43}/)`)

// pollFor looks for re in what text returns, every 20ms for at most
// limit, and returns the first submatch of the first match, or "" if
// none came in time.
func pollFor(re *regexp.Regexp, limit time.Duration, text func() string) string {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(text()); m != nil {
			return m[1]
		}
	}
	return ""
}

// testPage is a table's page as a test drives it through HTTP.
type testPage struct {
	t           *testing.T
	url, origin string
}

// waitPage waits at most limit for out to print the page's address and
// returns the page; t fails with out and errOut if none is printed.
func waitPage(t *testing.T, out, errOut *syncBuffer, limit time.Duration) *testPage {
	t.Helper()
	url := pollFor(tableURLRE, limit, out.String)
	if url == "" {
		t.Fatalf("no address printed:\n%s\n%s", out.String(), errOut.String())
	}
	return &testPage{t: t, url: url, origin: url[:strings.Index(url[len("http://"):], "/")+len("http://")]}
}

// post sends body to the page's actions from the page's origin and
// returns the status code.
func (p *testPage) post(body string) int {
	req, _ := http.NewRequest("POST", p.url+"act", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", p.origin)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// events opens the page's event stream for at most limit and returns
// the data of its events in order, and stop, which ends the stream.
func (p *testPage) events(limit time.Duration) (data iter.Seq[string], stop func()) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	req, _ := http.NewRequestWithContext(ctx, "GET", p.url+"events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		p.t.Fatal(err)
	}
	stop = func() {
		resp.Body.Close()
		cancel()
	}
	data = func(yield func(string) bool) {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && !yield(d) {
				return
			}
		}
	}
	return data, stop
}

// leave leaves from the page and waits at most limit for code, the exit
// status of the command that serves the page (name, with its outputs
// out and errOut in a failure): t fails unless it ends with 0.
func (p *testPage) leave(code <-chan int, limit time.Duration, name string, out, errOut *syncBuffer) {
	p.t.Helper()
	if c := p.post(`{"op":"leave"}`); c != http.StatusNoContent {
		p.t.Fatalf("leave: %d", c)
	}
	select {
	case c := <-code:
		if c != 0 {
			p.t.Fatalf("%s: exit %d\n%s\n%s", name, c, out.String(), errOut.String())
		}
	case <-time.After(limit):
		p.t.Fatalf("%s did not end after its page was left", name)
	}
}
