package web

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
)

func TestLoopbackAddr(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		bad      bool
	}{
		{in: "", want: "127.0.0.1:0"},
		{in: "127.0.0.1:0", want: "127.0.0.1:0"},
		{in: "127.0.0.1:8080", want: "127.0.0.1:8080"},
		{in: "127.1.2.3:80", want: "127.1.2.3:80"},
		{in: "localhost:9000", want: "127.0.0.1:9000"},
		{in: "LOCALHOST:9000", want: "127.0.0.1:9000"},
		{in: "[::1]:0", want: "[::1]:0"},
		{in: "0.0.0.0:8080", bad: true},
		{in: "[::]:8080", bad: true},
		{in: "192.168.1.20:8080", bad: true},
		{in: ":8080", bad: true},
		{in: "example.com:80", bad: true},
		{in: "127.0.0.1", bad: true},
		{in: "127.0.0.1:99999", bad: true},
		{in: "127.0.0.1:http-alt-nope", bad: true},
		{in: "\x00:1", bad: true},
	} {
		got, err := LoopbackAddr(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("LoopbackAddr(%q) = %q, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("LoopbackAddr(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := New(nil, Options{Addr: "0.0.0.0:0"}); !errors.Is(err, ErrNotLoopback) {
		t.Errorf("New on 0.0.0.0: %v, want ErrNotLoopback", err)
	}
}

// newLocal starts a local game against bots and its web screen.
func newLocal(t *testing.T, game string, players int, opts Options) (*Server, *localsession.Session) {
	t.Helper()
	return newLocalWith(t, localsession.Options{Game: game}, players, opts)
}

// newLocalWith starts a local game against bots with lopts (the keys
// published at the end) and its web screen.
func newLocalWith(t *testing.T, lopts localsession.Options, players int, opts Options) (*Server, *localsession.Session) {
	t.Helper()
	names := []string{"Me", "Anna", "Boris", "Sasha", "Dima", "Fedya", "Galya", "Igor"}[:players]
	lopts.PublishKeys = true
	ls, err := localsession.New(names, 11, lopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ls.Close() })
	srv, err := New(ls, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv, ls
}

// serve runs srv until the test ends.
func serve(t *testing.T, srv *Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
}

// The server answers only its token, on its own address, from its own
// origin: everything else is a bare 403.
func TestRequestChecks(t *testing.T) {
	srv, _ := newLocal(t, "mascarade", 4, Options{})
	serve(t, srv)
	if !strings.HasPrefix(srv.Addr(), "127.0.0.1:") {
		t.Fatalf("bound to %s, want 127.0.0.1", srv.Addr())
	}
	base := "http://" + srv.Addr()
	page := srv.URL()
	own := "http://" + srv.Addr()
	for _, tc := range []struct {
		name    string
		method  string
		url     string
		host    string
		headers map[string]string
		body    string
		want    int
	}{
		{name: "page", method: "GET", url: page, want: 200},
		{name: "script", method: "GET", url: page + "app.js", want: 200},
		{name: "no token", method: "GET", url: base + "/", want: 403},
		{name: "no token, a file", method: "GET", url: base + "/app.js", want: 403},
		{name: "wrong token", method: "GET", url: base + "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/", want: 403},
		{name: "token prefix", method: "GET", url: page[:len(page)-5] + "/", want: 403},
		{name: "token in the query", method: "GET", url: base + "/?" + strings.TrimPrefix(page, base+"/"), want: 403},
		{name: "another host name", method: "GET", url: page, host: "localhost" + strings.TrimPrefix(srv.Addr(), "127.0.0.1"), want: 403},
		{name: "rebinding", method: "GET", url: page, host: "evil.example:80", want: 403},
		{name: "foreign origin", method: "GET", url: page + "events", headers: map[string]string{"Origin": "http://evil.example"}, want: 403},
		{name: "null origin", method: "GET", url: page, headers: map[string]string{"Origin": "null"}, want: 403},
		{name: "cross-site fetch", method: "GET", url: page, headers: map[string]string{"Sec-Fetch-Site": "cross-site"}, want: 403},
		{name: "same-site fetch", method: "GET", url: page, headers: map[string]string{"Sec-Fetch-Site": "same-site"}, want: 403},
		{name: "typed address", method: "GET", url: page, headers: map[string]string{"Sec-Fetch-Site": "none"}, want: 200},
		{name: "start file's navigation", method: "GET", url: page,
			headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 200},
		{name: "cross-site navigation to the events", method: "GET", url: page + "events",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 403},
		{name: "cross-site navigation to a script", method: "GET", url: page + "app.js",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 403},
		{name: "cross-site frame", method: "GET", url: page,
			headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}, want: 403},
		{name: "cross-site navigation without the token", method: "GET", url: base + "/",
			headers: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, want: 403},
		{name: "post without origin", method: "POST", url: page + "act", body: `{"op":"pass"}`,
			headers: map[string]string{"Content-Type": "application/json"}, want: 403},
		{name: "post from elsewhere", method: "POST", url: page + "act", body: `{"op":"leave"}`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": "http://evil.example"}, want: 403},
		{name: "form post", method: "POST", url: page + "act", body: `op=leave`,
			headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": own}, want: 415},
		{name: "bad json", method: "POST", url: page + "act", body: `{`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": own}, want: 400},
		{name: "huge action", method: "POST", url: page + "act", body: `{"op":"chat","text":"` + strings.Repeat("x", 5000) + `"}`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": own}, want: 413},
		{name: "unknown action", method: "POST", url: page + "act", body: `{"op":"peek"}`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": own}, want: 409},
		{name: "stale choice", method: "POST", url: page + "act", body: `{"op":"play","at":-1,"choice":0}`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": own}, want: 409},
		{name: "choice out of range", method: "POST", url: page + "act", body: `{"op":"play","at":8,"choice":9999}`,
			headers: map[string]string{"Content-Type": "application/json", "Origin": own}, want: 409},
		{name: "climbing out", method: "GET", url: page + "../../etc/passwd", want: 404},
		{name: "not a page file", method: "GET", url: page + "web.go", want: 404},
		{name: "put", method: "PUT", url: page, headers: map[string]string{"Origin": own}, want: 405},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, tc.url, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d (body %q)", resp.StatusCode, tc.want, body)
			}
			if tc.want == 403 {
				if len(body) != 0 {
					t.Errorf("a refusal says %q, want nothing", body)
				}
				if csp := resp.Header.Get("Content-Security-Policy"); csp != "" {
					t.Errorf("a refusal has headers of the page: %q", csp)
				}
			}
			if tc.want == 200 {
				csp := resp.Header.Get("Content-Security-Policy")
				for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
					if !strings.Contains(csp, want) {
						t.Errorf("CSP %q lacks %q", csp, want)
					}
				}
				if rp := resp.Header.Get("Referrer-Policy"); rp != "no-referrer" {
					t.Errorf("Referrer-Policy %q: the token would leak", rp)
				}
			}
		})
	}
}

// The page has no reference to anything outside itself: no external
// script, style, font or image, no inline script or style.
func TestPageSelfContained(t *testing.T) {
	for name := range staticTypes {
		file := name
		if file == "" {
			file = "index.html"
		}
		b, err := static.ReadFile("static/" + file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, bad := range []string{"https:", "//cdn", "@import", "<style", "onclick=", "onload=", "innerHTML", "eval(", "style=\""} {
			if strings.Contains(s, bad) {
				t.Errorf("%s contains %q", file, bad)
			}
		}
		if file == "index.html" && strings.Count(s, "<script") != strings.Count(s, "<script src=") {
			t.Errorf("index.html has an inline script")
		}
	}
}

// event is one server-sent event's state.
type event struct {
	raw  string
	st   pageState
	wire int // the bytes of its data as sent
}

// events reads the page states of url's event stream into a channel.
func events(t testing.TB, ctx context.Context, url string) <-chan event {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	out := make(chan event, 64)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 8<<20)
		name := ""
		var state map[string]json.RawMessage // a patched stream's state so far
		for sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				name = n
				continue
			}
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			raw, err := data, error(nil)
			if name == "patch" {
				raw, err = applyPatch(state, data)
			} else {
				state = nil
				err = json.Unmarshal([]byte(data), &state)
			}
			name = ""
			var st pageState
			if err == nil {
				err = json.Unmarshal([]byte(raw), &st)
			}
			if err != nil {
				if ctx.Err() == nil { // not a line cut short by the end of the test
					t.Errorf("event: %v", err)
				}
				return
			}
			select {
			case out <- event{raw: raw, st: st, wire: len(data)}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// applyPatch applies a patch event's data to state (a stream's state so
// far, by top-level field) as the page does, and returns the new state.
func applyPatch(state map[string]json.RawMessage, data string) (string, error) {
	if state == nil {
		return "", errors.New("a patch before any whole state")
	}
	var p struct {
		Set map[string]json.RawMessage `json:"set"`
		Del []string                   `json:"del"`
		Arr map[string]struct {
			N  int                        `json:"n"`
			At map[string]json.RawMessage `json:"at"`
		} `json:"arr"`
	}
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		return "", err
	}
	maps.Copy(state, p.Set)
	for _, k := range p.Del {
		delete(state, k)
	}
	for k, a := range p.Arr {
		var list []json.RawMessage
		if err := json.Unmarshal(state[k], &list); err != nil {
			return "", fmt.Errorf("a patch of %s, not a list: %w", k, err)
		}
		list = append(list[:min(len(list), a.N)], make([]json.RawMessage, max(0, a.N-len(list)))...)
		for i, e := range a.At {
			n, err := strconv.Atoi(i)
			if err != nil || n < 0 || n >= a.N {
				return "", fmt.Errorf("a patch of %s at %q of %d", k, i, a.N)
			}
			list[n] = e
		}
		for i, e := range list {
			if e == nil {
				return "", fmt.Errorf("a patch of %s leaves element %d empty", k, i)
			}
		}
		b, err := json.Marshal(list)
		if err != nil {
			return "", err
		}
		state[k] = b
	}
	b, err := json.Marshal(state)
	return string(b), err
}

// post sends an action as the page does.
func post(srv *Server, a action) (int, string, error) {
	b, _ := json.Marshal(a)
	req, err := http.NewRequest("POST", srv.URL()+"act", strings.NewReader(string(b)))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+srv.Addr())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), nil
}

// faceDownNamed returns an error when a face-down card of the state has
// a name.
func faceDownNamed(raw string) error {
	var st struct {
		Seats []struct {
			Cards []map[string]any `json:"cards"`
		} `json:"seats"`
		Areas []struct {
			Cards []map[string]any `json:"cards"`
		} `json:"areas"`
	}
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	var all []map[string]any
	for _, s := range st.Seats {
		all = append(all, s.Cards...)
	}
	for _, a := range st.Areas {
		all = append(all, a.Cards...)
	}
	for _, c := range all {
		if _, has := c["name"]; has && c["face"] == "down" {
			return fmt.Errorf("a face-down card has a name in the event stream: %v", c)
		}
	}
	return nil
}

// playByEvents plays the seat's first choice (alternating real and
// pretended swaps) on every question of the event stream until the game
// is over, checking every state; it returns the states seen.
func playByEvents(t *testing.T, srv *Server, limit time.Duration) []event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	evs := events(t, ctx, srv.URL()+"events")
	var seen []event
	played := -1
	real := false
	for {
		var ev event
		var ok bool
		select {
		case ev, ok = <-evs:
		case <-ctx.Done():
			t.Fatalf("the game did not end in %v (%d states)", limit, len(seen))
		}
		if !ok {
			t.Fatalf("the event stream ended before the game (%d states)", len(seen))
		}
		seen = append(seen, ev)
		if err := faceDownNamed(ev.raw); err != nil {
			t.Fatal(err)
		}
		st := ev.st
		if st.Over {
			return seen
		}
		if st.Question == nil || st.Busy || st.At == played {
			continue
		}
		a := action{Op: "play", At: st.At, Choice: 0}
		if c := st.Question.Choices[0]; c.Secret || c.Confirm != "" {
			real = !real
			a.Answer = map[bool]string{true: "yes", false: "no"}[real || !c.Secret]
		}
		code, body, err := post(srv, a)
		if err != nil {
			t.Fatal(err)
		}
		if code != http.StatusNoContent && code != http.StatusConflict {
			t.Fatalf("play: %d %s", code, body)
		}
		played = st.At
	}
}

// The event stream sends the state at once, then every change; a posted
// choice is played, and a game is played to its end over it. No
// face-down card ever carries a name.
func TestEventsPlayMascarade(t *testing.T) {
	var notes int
	srv, ls := newLocal(t, "mascarade", 4, Options{EndNotes: func() []string { notes++; return []string{"transcript: x"} }})
	serve(t, srv)
	seen := playByEvents(t, srv, time.Minute)
	if !strings.Contains(seen[0].raw, `"face":"down"`) {
		t.Fatal("no face-down card in the first state: the check saw nothing to check")
	}
	last := seen[len(seen)-1].st
	if !last.Over || len(last.Result) == 0 || last.Outcome == "" {
		t.Fatalf("the end: over %v, result %q, outcome %q", last.Over, last.Result, last.Outcome)
	}
	if len(last.EndNotes) != 1 || notes != 1 {
		t.Errorf("end notes %q, asked %d times", last.EndNotes, notes)
	}
	if snap := ls.Snapshot(); !snap.Over || snap.Verdict != "" {
		t.Fatalf("session: over %v, verdict %q", snap.Over, snap.Verdict)
	}
	var swaps int
	for i := 1; i < len(seen); i++ {
		if seen[i].st.Rev <= seen[i-1].st.Rev {
			t.Fatalf("revisions go %d then %d", seen[i-1].st.Rev, seen[i].st.Rev)
		}
		if s := seen[i].st.Swap; s != nil && (seen[i-1].st.Swap == nil || seen[i-1].st.Swap.At != s.At) {
			swaps++
		}
	}
	if swaps == 0 {
		t.Error("no swap was ever shown")
	}
	if len(last.Help) == 0 || len(last.Log) == 0 {
		t.Error("no help or no log at the end")
	}
}

func TestEventsPlayGrimm(t *testing.T) {
	srv, _ := newLocal(t, "grimm", 3, Options{})
	serve(t, srv)
	seen := playByEvents(t, srv, 2*time.Minute)
	last := seen[len(seen)-1].st
	if !last.Over || len(last.Result) == 0 {
		t.Fatalf("the end: over %v, result %q", last.Over, last.Result)
	}
	var known bool
	biggest := 0
	for _, ev := range seen {
		biggest = max(biggest, len(ev.raw))
		for _, s := range ev.st.Seats {
			for _, c := range s.Cards {
				if c.Face == "known" && !s.You {
					t.Fatalf("another seat's card is known: %+v", c)
				}
				known = known || c.Face == "known"
			}
		}
	}
	if !known {
		t.Error("the seat never saw its own character")
	}
	t.Logf("%d states, the largest %d bytes", len(seen), biggest)
}

// Leaving from the page ends Run, reporting it; the event streams close.
func TestLeave(t *testing.T) {
	srv, _ := newLocal(t, "mascarade", 4, Options{})
	res := make(chan error, 1)
	var left bool
	go func() {
		var err error
		left, err = srv.Run(context.Background())
		res <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	evs := events(t, ctx, srv.URL()+"events")
	<-evs
	if code, body, err := post(srv, action{Op: "leave"}); err != nil || code != http.StatusNoContent {
		t.Fatalf("leave: %d %q %v", code, body, err)
	}
	select {
	case err := <-res:
		if err != nil || !left {
			t.Fatalf("Run: left %v, %v", left, err)
		}
	case <-ctx.Done():
		t.Fatal("Run did not return after leave")
	}
	for range evs {
	}
}

// A refused request is refused before anything is read or played.
func TestRefusedPostPlaysNothing(t *testing.T) {
	srv, ls := newLocal(t, "mascarade", 4, Options{})
	serve(t, srv)
	time.Sleep(100 * time.Millisecond)
	before := ls.Snapshot().Entries
	req := httptest.NewRequest("POST", srv.URL()+"act", strings.NewReader(fmt.Sprintf(`{"op":"play","at":%d,"choice":0,"answer":"yes"}`, before)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 403 || rec.Body.Len() != 0 {
		t.Fatalf("foreign post: %d %q", rec.Code, rec.Body.String())
	}
	time.Sleep(100 * time.Millisecond)
	if after := ls.Snapshot().Entries; after != before {
		t.Fatalf("entries went from %d to %d", before, after)
	}
}

// A claim the seat leaves unanswered is passed when the answer window
// runs out, as on the terminal; the page is told how long is left.
func TestAnswerWindowPasses(t *testing.T) {
	const window = 300 * time.Millisecond
	for seed := uint64(1); seed <= 8; seed++ {
		names := []string{"Me", "Anna", "Boris", "Sasha"}
		ls, err := localsession.New(names, seed, localsession.Options{PublishKeys: true})
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(ls, Options{ChallengeWindow: window})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		done := make(chan struct{})
		go func() { srv.Run(ctx); close(done) }()
		evs := events(t, ctx, srv.URL()+"events")
		var asked time.Time
		askedAt, played := -1, -1
		passed := false
		for ev := range evs {
			st := ev.st
			if st.Over || passed {
				break
			}
			q := st.Question
			switch {
			case q != nil && q.Window && askedAt != st.At:
				if !st.Window || st.WindowLeft <= 0 || st.WindowLeft > window.Milliseconds() {
					t.Fatalf("a claim to answer with window %v, time left %d ms", st.Window, st.WindowLeft)
				}
				asked, askedAt = time.Now(), st.At
			case askedAt >= 0 && st.At > askedAt && strings.Contains(st.Note, "time is up: you pass"):
				if waited := time.Since(asked); waited < window-50*time.Millisecond {
					t.Fatalf("passed after %v, before the window of %v ran out", waited, window)
				}
				passed = true
			case q != nil && !q.Window && !st.Busy && st.At != played:
				a := action{Op: "play", At: st.At, Choice: 0, Answer: "yes"}
				if c := q.Choices[0]; c.Secret {
					a.Answer = "no"
				}
				post(srv, a)
				played = st.At
			}
		}
		cancel()
		<-done
		ls.Close()
		if passed {
			return
		}
		if askedAt >= 0 {
			t.Fatalf("seed %d: a claim waited for an answer and the window never passed", seed)
		}
	}
	t.Fatal("no bot claimed in 8 games: the answer window was not tested")
}

// The start file sends a browser to the page without the token on the
// browser's command line; only its user may read it.
func TestStartFile(t *testing.T) {
	srv, _ := newLocal(t, "mascarade", 4, Options{})
	defer srv.Close()
	path, err := srv.StartFile(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("start file mode %v, want 0600", fi.Mode().Perm())
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `content="0;url=`+srv.URL()+`"`) {
		t.Errorf("start file %q does not send to %s", b, srv.URL())
	}
	if strings.Contains(path, strings.TrimSuffix(strings.TrimPrefix(srv.URL(), "http://"+srv.Addr()+"/"), "/")) {
		t.Error("the start file's name holds the token")
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New with no session: no error")
	}
}

// The 2nd edition plays to its end over the stream too (its Puppeteer
// moves players between chairs; the page draws whatever the view says).
func TestEventsPlayMascarade2(t *testing.T) {
	srv, _ := newLocal(t, "mascarade2", 6, Options{})
	serve(t, srv)
	seen := playByEvents(t, srv, time.Minute)
	if last := seen[len(seen)-1].st; !last.Over || len(last.Result) == 0 || len(last.Seats) != 6 {
		t.Fatalf("the end: over %v, result %q, %d seats", last.Over, last.Result, len(last.Seats))
	}
}

// itemMoves counts, over a game's states, the items that changed seats
// (seatview.Card.Track) and the updates that moved items both ways between
// two seats at once (an exchange, a dance).
func itemMoves(seen []event) (moved, both int) {
	where := func(st pageState) map[int]string {
		m := map[int]string{}
		for _, s := range st.Seats {
			for _, c := range s.Cards {
				if c.Track > 0 {
					m[c.Track] = s.Name
				}
			}
		}
		return m
	}
	for i := 1; i < len(seen); i++ {
		before, after := where(seen[i-1].st), where(seen[i].st)
		ways := map[[2]string]bool{}
		for tr, to := range after {
			if from, ok := before[tr]; ok && from != to {
				moved++
				ways[[2]string{from, to}] = true
			}
		}
		for w := range ways {
			if ways[[2]string{w[1], w[0]}] {
				both++
			}
		}
	}
	return moved, both
}

// In The Grimm Masquerade items change hands in the open: every item
// carries the place it lies (its track) so that the page shows it move,
// and an exchange or a dance moves items both ways between two seats in
// one update (the page flies every one of them: the browser test).
func TestGrimmItemsMoveBothWays(t *testing.T) {
	for game := range 8 {
		srv, _ := newLocal(t, "grimm", 3, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { srv.Run(ctx); close(done) }()
		seen := playByEvents(t, srv, 2*time.Minute)
		cancel()
		<-done
		moved, both := itemMoves(seen)
		if moved == 0 {
			t.Fatalf("game %d: no item ever moved between seats", game)
		}
		if both > 0 {
			t.Logf("game %d: items moved %d times, both ways at once %d times", game, moved, both)
			return
		}
	}
	t.Fatal("in 8 games no update moved items both ways between two seats")
}

// A stream of patches (the page's) rebuilds, at every revision it sends,
// exactly the state a whole-state stream sends at that revision; its
// events are smaller over a long game.
func TestPatchesRebuildTheState(t *testing.T) {
	srv, _ := newLocal(t, "grimm", 4, Options{})
	serve(t, srv)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	whole := events(t, ctx, srv.URL()+"events")
	patched := events(t, ctx, srv.URL()+"events?patch=1")
	byRev := map[uint64]string{}
	var mu sync.Mutex
	wholeDone := make(chan int)
	go func() {
		n, bytes := 0, 0
		for ev := range whole {
			mu.Lock()
			byRev[ev.st.Rev] = ev.raw
			mu.Unlock()
			n, bytes = n+1, bytes+ev.wire
			if ev.st.Over {
				break
			}
		}
		wholeDone <- bytes
	}()
	played, compared, patches, pbytes := -1, 0, 0, 0
	var last pageState
	for ev := range patched {
		pbytes += ev.wire
		if patches++; patches > 1 {
			if strings.Contains(ev.raw, `"set"`) {
				t.Fatalf("a patch was not applied: %s", ev.raw)
			}
		}
		mu.Lock()
		want, ok := byRev[ev.st.Rev]
		mu.Unlock()
		if ok {
			var a, b any
			json.Unmarshal([]byte(want), &a)
			json.Unmarshal([]byte(ev.raw), &b)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("revision %d: the patched state\n%s\ndiffers from the whole one\n%s", ev.st.Rev, ev.raw, want)
			}
			compared++
		}
		last = ev.st
		if ev.st.Over {
			break
		}
		if st := ev.st; st.Question != nil && !st.Busy && st.At != played {
			post(srv, action{Op: "play", At: st.At, Ask: st.Ask, Choice: 0, Answer: "yes"})
			played = st.At
		}
	}
	cancel()
	wbytes := <-wholeDone
	if !last.Over || compared < 10 {
		t.Fatalf("over %v, %d states compared", last.Over, compared)
	}
	if pbytes*3 > wbytes {
		t.Errorf("the patches weigh %d bytes, the whole states %d", pbytes, wbytes)
	}
	t.Logf("%d patched states, %d compared with the whole ones; %d bytes patched, %d whole", patches, compared, pbytes, wbytes)
}
