package web

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
)

// The Grimm character deck, whose cards nobody sees, is drawn as a deck:
// a card back under its heading with the count (it used to be an empty
// box: only piles drew a back).
func TestBrowserGrimmCharacterDeckBack(t *testing.T) {
	exe := findChromium(t)
	dir := artifacts(t)
	alloc, cancel := allocator(exe)
	defer cancel()
	ctx := openTable(t, alloc, localsession.Options{Game: "grimm"}, 3)
	backs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-place="area character deck"] figure.card-down').length`))
	if err != nil {
		t.Fatal(err)
	}
	head, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector('[data-place="area character deck"]')||{}).textContent||""`))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "grimm-character-deck.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if backs != 1 {
		t.Errorf("character deck: %d card backs drawn, want 1 (text %q)", backs, head)
	}
}

// openTable opens, in a new tab of alloc's browser, the page of a local
// table of players (opts), once drawn; the tab closes when t ends.
func openTable(t *testing.T, alloc context.Context, opts localsession.Options, players int) context.Context {
	t.Helper()
	srv, _ := newLocalWith(t, opts, players, Options{Title: "browser test"})
	go func() { _, _ = srv.Run(context.Background()) }()
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL()),
		chromedp.WaitVisible(chromedp.CSS("body[data-rendered]")), chromedp.Sleep(500*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	return ctx
}
