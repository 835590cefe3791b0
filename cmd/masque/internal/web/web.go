// Package web is the play screen in a browser: an HTTP server on the
// loopback interface, run by the player's own peer, that draws the same
// game-neutral view model the terminal screen draws
// (engine/seatview, filled by the game's viewer) and plays the seat's moves as the terminal's
// key presses do. It drives a [session.Session] and nothing else: the
// page is fed only from the seat's view, so nothing its seat does not
// know can reach it.
//
// The server listens on 127.0.0.1 (or another loopback address) only,
// on a random port unless told one, and answers only requests whose path
// starts with a random token (crypto/rand) and whose Host is the bound
// address; a request from another origin gets nothing. Every refusal is
// a bare 403. The page is embedded (plain HTML, CSS and a little
// JavaScript; no external fetch) and served under a strict
// Content-Security-Policy; it follows the table over server-sent events
// and posts its actions with the token.
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/masque-games/masque/cmd/masque/internal/session"
)

// Options set up the web screen.
type Options struct {
	// Addr is where to listen, "HOST:PORT" with a loopback HOST (an IP
	// address or "localhost"); "" is 127.0.0.1 on a random port.
	Addr string
	// Title says what kind of table it is ("local table against 3 bots").
	Title string
	// NoMemory hides the seat's memory panel.
	NoMemory bool
	// ChallengeWindow is how long the seat has to answer a claim before it
	// passes automatically; 0 means no limit.
	ChallengeWindow time.Duration
	// EndNotes, if set, is called once when the game is over; its lines
	// show under the result (where the transcript is, how to replay it).
	EndNotes func() []string
	// Status, if set, receives a line each time the table's situation
	// for the seat changes ("your move", "waiting for Anna", "game over"):
	// the terminal's one-line status while the browser shows the table.
	Status func(line string)
	Logger *slog.Logger // nil: discard
}

// Server is one seat's web screen.
type Server struct {
	ln    net.Listener
	host  string // the bound address, "127.0.0.1:PORT": the only Host and origin accepted
	token string
	http  *http.Server
	sc    *screen
	log   *slog.Logger
}

// tokenBytes is the token's length before encoding: 256 bits.
const tokenBytes = 32

// ErrNotLoopback is returned for an address that is not on the loopback
// interface.
var ErrNotLoopback = errors.New("the web screen listens on a loopback address only (127.0.0.1, ::1 or localhost)")

// LoopbackAddr checks addr ("HOST:PORT", "" for the default) and returns
// it with HOST as a loopback IP address.
func LoopbackAddr(addr string) (string, error) {
	if addr == "" {
		return "127.0.0.1:0", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("web address %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("web address %q: %w", addr, ErrNotLoopback)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return "", fmt.Errorf("web address %q: bad port: %w", addr, err)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

// New listens on opts.Addr (a loopback address) and returns the screen
// for sess; [Server.Run] serves it.
func New(sess session.Session, opts Options) (*Server, error) {
	addr, err := LoopbackAddr(opts.Addr)
	if err != nil {
		return nil, err
	}
	if sess == nil {
		return nil, errors.New("web screen: no session")
	}
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	var tok [tokenBytes]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, fmt.Errorf("web screen token: %w", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("web screen: %w", err)
	}
	s := &Server{ln: ln, host: ln.Addr().String(), token: base64.RawURLEncoding.EncodeToString(tok[:]), log: lg}
	s.sc = newScreen(sess, opts, lg)
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, ErrorLog: slog.NewLogLogger(lg.Handler(), slog.LevelWarn)}
	return s, nil
}

// URL is the page's address, token included: whoever has it can play
// the seat, so it is printed for the player alone.
func (s *Server) URL() string { return "http://" + s.host + "/" + s.token + "/" }

// Addr is the bound address, "127.0.0.1:PORT".
func (s *Server) Addr() string { return s.host }

// Run serves the screen until the player leaves it (the page's leave
// button), ctx ends, or the server fails. It reports whether the player
// left from the page. It does not close the session.
func (s *Server) Run(ctx context.Context) (left bool, err error) {
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(s.ln) }()
	scDone := make(chan struct{})
	go func() { s.sc.run(ctx); close(scDone) }()
	select {
	case <-ctx.Done():
	case <-s.sc.leave:
		left = true
	case err = <-errc:
	}
	s.sc.stop()
	shut, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	s.http.Shutdown(shut)
	s.http.Close()
	<-scDone
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if err != nil {
		return left, fmt.Errorf("web screen: %w", err)
	}
	return left, nil
}

// Over reports whether the screen showed the game over (the rules' end,
// which may come before the session's: the keys published at the end).
func (s *Server) Over() bool {
	s.sc.mu.Lock()
	defer s.sc.mu.Unlock()
	return s.sc.over()
}

// StartFile writes, in dir, a page that sends a browser to the screen's
// URL, readable by the user only, and returns its path: a browser opened
// on it has the file's name on its command line, not the token (which
// other users of the machine could read there). The caller removes it.
func (s *Server) StartFile(dir string) (string, error) {
	f, err := os.CreateTemp(dir, "masque-table-*.html") // mode 0600
	if err != nil {
		return "", fmt.Errorf("web screen start file: %w", err)
	}
	u := html.EscapeString(s.URL())
	_, err = fmt.Fprintf(f, "<!doctype html><meta charset=\"utf-8\"><meta name=\"referrer\" content=\"no-referrer\">"+
		"<meta http-equiv=\"refresh\" content=\"0;url=%s\"><title>masque</title><p><a href=\"%s\">Open the table</a></p>\n", u, u)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("web screen start file: %w", err)
	}
	return f.Name(), nil
}

// Close stops listening, for a server that is never Run.
func (s *Server) Close() error { return s.ln.Close() }

// forbid answers a refused request: 403, no body, nothing to learn.
func forbid(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusForbidden)
}

// allowed reports whether r may be answered: its Host is the bound
// address, its path starts with the token, and it comes from the page's
// own origin (or, for a page load, from no origin at all). rest is the
// path after the token.
func (s *Server) allowed(r *http.Request) (rest string, ok bool) {
	if r.Host != s.host {
		return "", false // DNS rebinding, or another name for this port
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+s.host {
		return "", false
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		// Only a top-level load of the page itself may come from
		// elsewhere: the start file masque opens the browser with
		// (file://), which keeps the token out of the browser's command
		// line. It carries the token, cannot be framed (frame-ancestors)
		// and reads nothing back.
		if !isPageLoad(r) {
			return "", false
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Header.Get("Origin") == "" {
		// Every browser sends Origin with a POST; a POST without one is
		// not from the page.
		return "", false
	}
	p := strings.TrimPrefix(r.URL.Path, "/")
	tok, rest, _ := strings.Cut(p, "/")
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		return "", false
	}
	return rest, true
}

// isPageLoad reports whether r is a top-level navigation to the page
// (not its events or actions).
func isPageLoad(r *http.Request) bool {
	if r.Method != http.MethodGet || r.Header.Get("Sec-Fetch-Mode") != "navigate" || r.Header.Get("Sec-Fetch-Dest") != "document" {
		return false
	}
	_, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	return rest == ""
}

// securityHeaders are sent with every allowed answer.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "+
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // the token is in the URL
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := s.allowed(r)
	if !ok {
		forbid(w)
		return
	}
	securityHeaders(w.Header())
	switch {
	case rest == "events" && r.Method == http.MethodGet:
		s.sc.serveEvents(w, r)
	case rest == "act" && r.Method == http.MethodPost:
		s.sc.serveAct(w, r)
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		serveStatic(w, r, rest)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}
