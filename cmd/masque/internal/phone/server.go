package phone

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/masque-games/masque/cmd/masque/internal/web"
	"github.com/masque-games/masque/p2p"
)

//go:embed static
var static embed.FS

// Server is the phones' HTTP server: the page, its scripts, the seat's
// WebAssembly and the WebSocket (/ws) of each phone. It answers only
// for the address it bound (the Host header: DNS rebinding), takes a
// WebSocket only from its own page (the Origin header), and the phone
// gives the token in its first message (the URL's fragment, which no
// browser sends in a request).
type Server struct {
	hub   *Hub
	ln    net.Listener
	host  string
	token string
	code  string
	role  Role
	seat  *Seat
	srv   *http.Server

	mu    sync.Mutex
	gzips map[string][]byte
}

// Listen binds addr ("192.168.1.20:0"; a LAN address only when the player
// asks, --phones) for a hub, with token (empty: a new random one; a
// restarted table gives its old one, and its old address, so that its
// phones find their seats: a phone's storage belongs to the page's
// origin); code, if set, is the table's code, shown in the URL before
// the token.
func Listen(addr string, hub *Hub, seat *Seat, code, token string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if token == "" {
		tok := make([]byte, 16)
		if _, err := rand.Read(tok); err != nil {
			ln.Close()
			return nil, err
		}
		token = hex.EncodeToString(tok)
	}
	s := &Server{hub: hub, ln: ln, host: ln.Addr().String(), token: token, code: code, seat: seat,
		gzips: map[string][]byte{}}
	hub.cfg.Token = s.token
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// URL is what a phone opens: the page, with the table's code and the
// token in the fragment.
func (s *Server) URL() string {
	s.mu.Lock()
	code := s.code
	s.mu.Unlock()
	frag := s.token
	if code != "" {
		frag = code + "-" + s.token
	}
	return "http://" + s.host + "/#" + frag
}

// SetCode sets the table's code shown in the URL before the token, once
// the table is known (the phone reads the token after the last '-').
func (s *Server) SetCode(code string) {
	s.mu.Lock()
	s.code = code
	s.mu.Unlock()
}

// Role is which machine serves the page: its foot names it (GET
// /served-by), next to the build hash that machine says it serves.
type Role int

const (
	// RoleHost is the table's host's machine ('masque host --phones').
	RoleHost Role = iota
	// RoleJoiner is another player's machine ('masque join --phones').
	RoleJoiner
	// RoleForwarder is a machine that holds no seat ('masque phones').
	RoleForwarder
)

// String is the page's words for the machine.
func (r Role) String() string {
	switch r {
	case RoleHost:
		return "the table's host's machine (masque host --phones)"
	case RoleJoiner:
		return "another player's machine, not the table's host (masque join --phones)"
	case RoleForwarder:
		return "a machine that holds no seat (masque phones)"
	}
	return "an unknown machine"
}

// SetRole says which machine serves the page (the zero Role: the
// table's host's).
func (s *Server) SetRole(r Role) {
	s.mu.Lock()
	s.role = r
	s.mu.Unlock()
}

// Token is the phones' token (in the URL's fragment).
func (s *Server) Token() string { return s.token }

// Addr is the bound address.
func (s *Server) Addr() string { return s.host }

// Serve answers until Close.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the server and every phone's connection.
func (s *Server) Close() error { return s.srv.Close() }

func forbid(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusForbidden)
}

// CSP is the pages' content security policy: its own scripts, and
// WebAssembly compiled ('wasm-unsafe-eval'), nothing else.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// allowed: the Host is the bound address; an Origin, if any, is ours;
// only GET and HEAD.
func (s *Server) allowed(r *http.Request) bool {
	if r.Host != s.host {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+s.host {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return false
	}
	return r.Method == http.MethodGet || r.Method == http.MethodHead
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.allowed(r) {
		forbid(w)
		return
	}
	securityHeaders(w.Header())
	switch p := strings.TrimPrefix(r.URL.Path, "/"); p {
	case "ws":
		s.serveWS(w, r)
	case "build":
		h, err := s.seat.BuildHash()
		if err != nil {
			http.Error(w, "the phone's seat is not built: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, h)
	case "table":
		s.serveTable(w, r)
	case "served-by":
		s.mu.Lock()
		role := s.role
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, role)
	default:
		if p == "" {
			p = "index.html"
		}
		b, err := s.seat.pageFile(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			http.NotFound(w, r)
		case err != nil:
			http.Error(w, "the phone's seat is not built: "+err.Error(), http.StatusServiceUnavailable)
		default:
			s.serveBytes(w, r, p, contentType(p), b)
		}
	}
}

// TokenHeader carries the token (the URL's fragment) in the page's
// request for the table's info.
const TokenHeader = "X-Masque-Token"

// serveTable answers the page, before its player takes a seat, what the
// table is (Hub.Info): only with the token, as the table's players'
// names are the table's.
func (s *Server) serveTable(w http.ResponseWriter, r *http.Request) {
	if !s.hub.token(r.Header.Get(TokenHeader)) {
		forbid(w)
		return
	}
	in := s.hub.Info()
	s.mu.Lock()
	in.Code = s.code
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(in)
}

// pageFiles names every file of the page: its static files, the --web
// page's card pictures (cards.js), the seat's WebAssembly and its
// wasm_exec.js. The server serves these and nothing else, and
// BuildHash hashes exactly these bytes.
func pageFiles() []string {
	names := []string{"cards.js", "seat.wasm", "wasm_exec.js"}
	ents, _ := fs.ReadDir(static, "static")
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// pageFile is one of the page's files (fs.ErrNotExist for any other
// name).
func (s *Seat) pageFile(name string) ([]byte, error) {
	switch name {
	case "seat.wasm":
		return s.Wasm()
	case "wasm_exec.js":
		return s.WasmExec()
	case "cards.js":
		return web.CardsJS(), nil
	}
	if strings.Contains(name, "/") || !fs.ValidPath(name) {
		return nil, fs.ErrNotExist
	}
	return fs.ReadFile(static, path.Join("static", name))
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".wasm":
		return "application/wasm"
	}
	return "application/octet-stream"
}

// serveBytes answers with b, gzipped (once, kept) when the phone takes it.
func (s *Server) serveBytes(w http.ResponseWriter, r *http.Request, name, ctype string, b []byte) {
	w.Header().Set("Content-Type", ctype)
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") && len(b) > 1024 {
		s.mu.Lock()
		z, ok := s.gzips[name]
		if !ok {
			var buf bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
			zw.Write(b)
			zw.Close()
			z = buf.Bytes()
			s.gzips[name] = z
		}
		s.mu.Unlock()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
		b = z
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}

// serveWS takes a phone's WebSocket: only from the page's own origin.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Origin") != "http://"+s.host {
		forbid(w)
		return
	}
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: []string{s.host}})
	if err != nil {
		return
	}
	c.SetReadLimit(int64(p2p.DefaultMaxFrame) + 1024)
	defer c.CloseNow()
	err = s.hub.Serve(r.Context(), wsConn{c, r.RemoteAddr})
	// A page that closes its socket (the game is over, the tab closed or
	// reloaded) is no fault: said on the host's screen, where the play
	// screen is drawn, it would only garble it.
	if err != nil && !errors.Is(err, context.Canceled) && websocket.CloseStatus(err) == -1 {
		s.hub.logf("phone connection: %v", err)
	}
	c.Close(websocket.StatusNormalClosure, "")
}

// wsConn is a WebSocket as a [Conn], with its client's address.
type wsConn struct {
	c      *websocket.Conn
	remote string
}

// RemoteAddr is the client's address (host:port).
func (w wsConn) RemoteAddr() string { return w.remote }

func (w wsConn) Read(ctx context.Context) ([]byte, bool, error) {
	typ, b, err := w.c.Read(ctx)
	return b, typ == websocket.MessageBinary, err
}

func (w wsConn) Write(ctx context.Context, b []byte, bin bool) error {
	typ := websocket.MessageText
	if bin {
		typ = websocket.MessageBinary
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return w.c.Write(ctx, typ, b)
}

// BuildHashContext begins the build hash's input.
const BuildHashContext = "masque phone page v1\x00"

// BuildHash is the SHA-256, in hex, of what a phone runs: every file of
// the page as served (pageFiles, by name), each as u16 name length,
// name, u64 length, bytes, after BuildHashContext. The page shows its
// first 16 digits (GET /build), and 'masque version' prints them: a
// player compares the two on a machine they trust.
func (s *Seat) BuildHash() (string, error) {
	h := sha256.New()
	h.Write([]byte(BuildHashContext))
	for _, name := range pageFiles() {
		b, err := s.pageFile(name)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		var n [10]byte
		binary.BigEndian.PutUint16(n[:2], uint16(len(name)))
		h.Write(n[:2])
		h.Write([]byte(name))
		binary.BigEndian.PutUint64(n[2:], uint64(len(b)))
		h.Write(n[2:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ShortHash is the part of a build hash the page shows and 'masque
// version' prints: its first 16 hex digits (64 bits).
// Anything else (a message) comes back as it is.
func ShortHash(full string) string {
	if _, err := hex.DecodeString(full); err != nil || len(full) != 2*sha256.Size {
		return full
	}
	return full[:16]
}
