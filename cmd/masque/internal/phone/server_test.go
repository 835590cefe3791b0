package phone

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
)

// TestRequestChecks: the phones' server answers only for the address it
// bound (DNS rebinding), takes a WebSocket only from its own page
// (cross-site WebSocket hijacking), serves its page with a CSP that
// allows compiling WebAssembly and nothing else, and seats no phone
// without the token (compared in constant time) and a signature by the
// key it speaks for.
func TestRequestChecks(t *testing.T) {
	hub := NewHub(Config{Game: "mascarade"})
	srv, err := Listen("127.0.0.1:0", hub, &Seat{}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	base := "http://" + srv.Addr()
	get := func(path string, hdr map[string]string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := get("/", nil); res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "script-src 'self' 'wasm-unsafe-eval'") ||
		res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("page: %d, headers %v", res.StatusCode, res.Header)
	}
	for _, c := range []struct {
		name string
		path string
		hdr  map[string]string
	}{
		{"another Host (DNS rebinding)", "/", map[string]string{"Host": "evil.example:" + strings.Split(srv.Addr(), ":")[1]}},
		{"a foreign Origin", "/phone.js", map[string]string{"Origin": "http://evil.example"}},
		{"a cross-site fetch", "/phone.js", map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"a WebSocket with no Origin", "/ws", map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}},
		{"the table's players without the token", "/table", nil},
		{"the table's players with a wrong token", "/table", map[string]string{TokenHeader: strings.Repeat("0", len(srv.Token()))}},
	} {
		if res := get(c.path, c.hdr); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", c.name, res.StatusCode)
		}
	}
	if res := get("/table", map[string]string{TokenHeader: srv.Token()}); res.StatusCode != 200 {
		t.Errorf("the table's info with the token: %d, want 200", res.StatusCode)
	}
	if _, _, err := websocket.Dial(context.Background(), "ws://"+srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example"}}}); err == nil {
		t.Error("a WebSocket from a foreign origin was taken")
	}

	// The token and the hello's signature.
	_, key, _ := ed25519.GenerateKey(nil)
	pub := key.Public().(ed25519.PublicKey)
	_, other, _ := ed25519.GenerateKey(nil)
	for _, c := range []struct {
		name  string
		hello func(nonce []byte) phoneseat.Control
		want  string
	}{
		{"no token", func(n []byte) phoneseat.Control {
			return phoneseat.Control{T: "hello", Name: "x", Key: pub, Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), n...))}
		}, "token"},
		{"a wrong token of the right length", func(n []byte) phoneseat.Control {
			return phoneseat.Control{T: "hello", Token: strings.Repeat("0", len(srv.token)), Name: "x", Key: pub, Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), n...))}
		}, "token"},
		{"a signature by another key", func(n []byte) phoneseat.Control {
			return phoneseat.Control{T: "hello", Token: srv.token, Name: "x", Key: pub, Sig: ed25519.Sign(other, append([]byte(phoneseat.HelloContext), n...))}
		}, "signature"},
		{"an old challenge's signature", func(n []byte) phoneseat.Control {
			return phoneseat.Control{T: "hello", Token: srv.token, Name: "x", Key: pub, Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), make([]byte, 32)...))}
		}, "signature"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ws, _, err := websocket.Dial(ctx, "ws://"+srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + srv.Addr()}}})
		if err != nil {
			t.Fatalf("%s: dial: %v", c.name, err)
		}
		_, raw, err := ws.Read(ctx)
		var ch phoneseat.Control
		if err != nil || json.Unmarshal(raw, &ch) != nil || ch.T != "challenge" {
			t.Fatalf("%s: first message %q, %v", c.name, raw, err)
		}
		out, _ := json.Marshal(c.hello(ch.Nonce))
		ws.Write(ctx, websocket.MessageText, out)
		_, raw, err = ws.Read(ctx)
		var ans phoneseat.Control
		if err != nil || json.Unmarshal(raw, &ans) != nil || ans.T != "error" || !strings.Contains(ans.Reason, c.want) {
			t.Errorf("%s: answer %q (%v), want an error about the %s", c.name, raw, err, c.want)
		}
		ws.CloseNow()
		cancel()
	}
	// The right token and signature: the table is not seating yet.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + srv.Addr()}}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	_, raw, _ := ws.Read(ctx)
	var ch phoneseat.Control
	json.Unmarshal(raw, &ch)
	out, _ := json.Marshal(phoneseat.Control{T: "hello", Token: srv.token, Name: "x", Key: pub, Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), ch.Nonce...))})
	ws.Write(ctx, websocket.MessageText, out)
	_, raw, err = ws.Read(ctx)
	if err != nil || !strings.Contains(string(raw), "not seating") {
		t.Errorf("a good hello before the table opens: %q %v", raw, err)
	}
}

// fromAddr is a connection from a client address.
type fromAddr struct {
	*memConn
	addr string
}

func (f fromAddr) RemoteAddr() string { return f.addr }

// TestHubLimits: a connection without the token cannot hold the hub:
// one that never says hello is closed after the hello timeout, one more
// than MaxWaiting connections from one address waiting for their hello
// is refused at once (a phone at another address still gets in), and an
// oversized control message is refused naming its size (each fails on
// the first version, which waited for a hello forever, took any number
// of connections and parsed a message of a megabyte).
func TestHubLimits(t *testing.T) {
	serve := func(h *Hub, c Conn) chan error {
		done := make(chan error, 1)
		go func() { done <- h.Serve(context.Background(), c) }()
		return done
	}
	within := func(name string, done chan error, want string) {
		t.Helper()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want an error about %q", name, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the hub still holds the connection", name)
		}
	}
	// The error the phone is told, after the challenge.
	told := func(name string, c *memConn, want string) {
		t.Helper()
		for {
			select {
			case m := <-c.in:
				var ctl phoneseat.Control
				json.Unmarshal(m.b, &ctl)
				if ctl.T == "challenge" {
					continue
				}
				if ctl.T != "error" || !strings.Contains(ctl.Reason, want) {
					t.Errorf("%s: told %q, want an error about %q", name, m.b, want)
				}
				return
			case <-time.After(5 * time.Second):
				t.Errorf("%s: told nothing", name)
				return
			}
		}
	}

	_, key, _ := ed25519.GenerateKey(nil)
	pub := key.Public().(ed25519.PublicKey)
	h := NewHub(Config{Token: "tok", HelloTimeout: 200 * time.Millisecond})
	a, b := memPair()
	done := serve(h, a)
	within("a silent connection", done, "no hello within")
	told("a silent connection", b, "no hello within")

	h = NewHub(Config{Token: "tok", HelloTimeout: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range MaxWaiting {
		a, _ := memPair()
		go h.Serve(ctx, fromAddr{a, "192.168.1.66:4000"})
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		h.mu.Lock()
		n := h.waiting["192.168.1.66"]
		h.mu.Unlock()
		if n == MaxWaiting || time.Now().After(deadline) {
			break
		}
	}
	a, b = memPair()
	done = serve(h, fromAddr{a, "192.168.1.66:4001"})
	within("one connection more than MaxWaiting from one address", done, "waiting")
	told("one connection more than MaxWaiting from one address", b, "waiting")
	// Another phone, at another address, still gets its challenge and
	// its answer.
	a, b = memPair()
	done = serve(h, fromAddr{a, "192.168.1.20:4000"})
	ch := <-b.in
	var chc phoneseat.Control
	json.Unmarshal(ch.b, &chc)
	out, _ := json.Marshal(phoneseat.Control{T: "hello", Token: "tok", Name: "x", Key: pub, Sig: ed25519.Sign(key, append([]byte(phoneseat.HelloContext), chc.Nonce...))})
	b.Write(ctx, out, false)
	within("a phone at another address", done, "not seating")
	cancel()

	h = NewHub(Config{Token: "tok", HelloTimeout: time.Minute})
	a, b = memPair()
	big, _ := json.Marshal(phoneseat.Control{T: "hello", Token: "tok", Name: strings.Repeat("x", 1<<20)})
	b.Write(context.Background(), big, false)
	done = serve(h, a)
	within("a megabyte hello", done, "limit")
}

// TestPhoneClosesQuietly: a phone's page that closes its WebSocket (its
// game over, its tab closed or reloaded) is not reported on the host's
// screen, where the play screen is drawn: only connections that fail are.
func TestPhoneClosesQuietly(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	hub := NewHub(Config{Game: "mascarade", Log: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}})
	srv, err := Listen("127.0.0.1:0", hub, &Seat{}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	for _, code := range []websocket.StatusCode{websocket.StatusNormalClosure, websocket.StatusGoingAway} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ws, _, err := websocket.Dial(ctx, "ws://"+srv.Addr()+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + srv.Addr()}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := ws.Read(ctx); err != nil {
			t.Fatal(err)
		}
		ws.Close(code, "")
		cancel()
	}
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if len(logged) > 0 {
		t.Errorf("pages that closed their socket were reported: %q", logged)
	}
}

// TestServedBy: the server says which machine serves the page (GET
// /served-by, shown at the page's foot: TestBrowserServedBy), as its
// command set it, and the page has the element that shows it; the foot
// said "as the table's host serves it" on a joiner's and a seatless
// machine too.
func TestServedBy(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", NewHub(Config{Game: "mascarade"}), &Seat{}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	seen := map[string]bool{}
	for _, role := range []Role{RoleHost, RoleJoiner, RoleForwarder} {
		srv.SetRole(role)
		res, err := http.Get("http://" + srv.Addr() + "/served-by")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		got := strings.TrimSpace(string(b))
		if res.StatusCode != 200 || got != role.String() || seen[got] {
			t.Errorf("role %d: GET /served-by: %d %q, want %q (each role its own words)", role, res.StatusCode, got, role)
		}
		seen[got] = true
	}
	page, err := fs.ReadFile(static, "static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `id="servedby"`) || strings.Contains(string(page), "host serves it") {
		t.Errorf("the page's foot does not show the serving machine:\n%s", page)
	}
}
