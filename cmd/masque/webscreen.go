package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/cmd/masque/internal/termsafe"
	"github.com/masque-games/masque/cmd/masque/internal/web"
)

// webOptions are the flags of the play screen in a browser (play, host,
// join).
type webOptions struct {
	on     bool
	addr   string
	noOpen bool
}

func addWebFlags(cmd *cobra.Command, o *webOptions) {
	f := cmd.Flags()
	f.BoolVar(&o.on, "web", false, "play on a page in your browser instead of the terminal screen (served on 127.0.0.1 only, with a secret token in its address)")
	f.StringVar(&o.addr, "web-addr", "", "with --web: listen on `HOST:PORT`, a loopback address (default: 127.0.0.1 on a random port)")
	f.BoolVar(&o.noOpen, "no-open", false, "with --web: print the page's address without opening a browser")
}

// check refuses --web-addr or --no-open without --web, and a web address
// off the loopback interface, before anything else is done.
func (o webOptions) check() error {
	if !o.on && (o.addr != "" || o.noOpen) {
		return &exitError{code: exitUsage, err: fmt.Errorf("--web-addr and --no-open go with --web"), hint: "add --web to play in a browser"}
	}
	if o.on {
		if _, err := web.LoopbackAddr(o.addr); err != nil {
			return &exitError{code: exitUsage, err: err, hint: "the page is for this machine only: give --web-addr 127.0.0.1:PORT"}
		}
	}
	return nil
}

// hasDesktop reports whether a browser can be opened: a graphical session
// and an opener to ask.
func hasDesktop() (opener string, ok bool) {
	switch runtime.GOOS {
	case "darwin":
		p, err := exec.LookPath("open")
		return p, err == nil
	case "windows":
		return "", false
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return "", false
	}
	p, err := exec.LookPath("xdg-open")
	return p, err == nil
}

// openBrowser asks the desktop to open url; it does not wait for the
// browser.
func openBrowser(opener, url string, lg *slog.Logger) {
	c := exec.Command(opener, url)
	c.Stdout, c.Stderr = io.Discard, io.Discard
	if err := c.Start(); err != nil {
		lg.Warn("open browser", "err", err)
		return
	}
	go c.Wait()
}

// runWeb shows the play screen for sess in a browser until the player
// leaves it, ctx ends or an interrupt comes; out gets the page's address
// and a line each time the situation changes. It reports whether the
// player left (from the page or with Ctrl-C here) and whether the page
// showed the game over.
func runWeb(ctx context.Context, out io.Writer, sess session.Session, wo webOptions, opts web.Options) (left, over bool, err error) {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	opts.Addr = wo.addr
	// The line quotes names peers chose: escaped for the terminal. On a
	// terminal it is one line, rewritten in place; elsewhere (a log, a
	// pipe) a line per change.
	inPlace := isTerminal(out)
	var mu sync.Mutex
	shown := false
	opts.Status = func(line string) {
		mu.Lock()
		defer mu.Unlock()
		if inPlace {
			fmt.Fprintf(out, "\r\x1b[2Ktable: %s", termsafe.String(line))
			shown = true
			return
		}
		fmt.Fprintf(out, "table: %s\n", termsafe.String(line))
	}
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprintln(out)
		}
	}()
	srv, err := web.New(sess, opts)
	if err != nil {
		return false, false, &exitError{code: exitUsage, err: err, hint: "choose a free loopback port with --web-addr 127.0.0.1:PORT, or leave it out for a random one"}
	}
	fmt.Fprintf(out, "the table is at %s\n", srv.URL())
	fmt.Fprintln(out, "  (this address holds a secret: it plays your seat; keep it to yourself. Ctrl-C here leaves the table.)")
	if opener, ok := hasDesktop(); ok && !wo.noOpen {
		// The browser is opened on a start file, not the URL: a command
		// line is readable by every user of the machine.
		dir := os.Getenv("XDG_RUNTIME_DIR")
		if dir == "" {
			dir = os.TempDir()
		}
		if start, err := srv.StartFile(dir); err != nil {
			lg.Warn("open browser", "err", err)
			fmt.Fprintln(out, "  open it in a browser on this machine")
		} else {
			defer os.Remove(start)
			openBrowser(opener, start, lg)
		}
	} else if !wo.noOpen {
		fmt.Fprintln(out, "  open it in a browser on this machine")
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	left, err = srv.Run(ctx)
	if ctx.Err() != nil {
		left = true // Ctrl-C here: the player left too
	}
	return left, srv.Over(), err
}

// transcriptNotes are the lines under the page's result: where the
// transcript goes (written when, e.g. "when you leave this page") and
// how to check and replay it.
func transcriptNotes(path string, publish bool, when string) []string {
	notes := []string{fmt.Sprintf("transcript: %s (written %s)", path, when), "check it: masque verify " + path}
	if publish {
		return append(notes, "every card: masque replay "+path+" --reveal")
	}
	return append(notes, "replay it: masque replay "+path)
}
