package phone

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
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
	} {
		if res := get(c.path, c.hdr); res.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", c.name, res.StatusCode)
		}
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
