package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A spectator's page ('masque watch --web') in a real browser follows a
// Mafia game entry by entry, read-only: no button plays anything, no
// card is known to it, and no living player's role shows until the end.
// It saves screenshots at 1280×800 and 390×844.
func TestBrowserWatches(t *testing.T) {
	exe := findChromium(t)
	if testing.Short() {
		t.Skip("the browser test plays a whole game: skipped with -short")
	}
	dir := artifacts(t)
	// The game: played by a seat's page against bots, then followed.
	played, ls := newLocal(t, "mafia", 6, Options{})
	serve(t, played)
	playByEvents(t, played, 2*time.Minute)
	roles := mafiaTruth(t, ls)
	tr := ls.Transcript()
	tab, sp := followOpening(t, tr)
	srv, err := New(sp, Options{Title: "watching table (read-only)"})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, srv)

	alloc, cancel := allocator(exe)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	do := doer(ctx, t)
	shot := func(when string) {
		t.Helper()
		for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
			do(chromedp.EmulateViewport(size[0], size[1]), chromedp.Sleep(300*time.Millisecond))
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("watch-mafia-%s-%dx%d.png", when, size[0], size[1])), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		do(chromedp.EmulateViewport(1280, 800))
	}
	do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("body[data-rendered]")))

	// The table goes on, entry by entry, while the page is checked. The
	// entries come in four parts: after each of the first three the feed
	// waits for the page to be checked, so that it is checked at least
	// three times before the end however slow the machine (paced by the
	// clock alone, a loaded machine checked it twice).
	fed := make(chan struct{})
	checked := make(chan struct{}, 1)
	go func() {
		defer close(fed)
		n := len(tr.Entries)
		for k := range 4 {
			if !feed(t, tab, sp, tr.Entries[k*n/4:(k+1)*n/4], 15*time.Millisecond) || k == 3 {
				return
			}
			select {
			case <-checked: // a check made while this part was fed
			default:
			}
			select {
			case <-checked:
			case <-ctx.Done():
				return
			}
		}
	}()
	checks, midShot := 0, false
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatal("the spectator's page did not reach the end in 2 minutes")
		}
		page, err := chromedp.Run(ctx, chromedp.Evaluate[watchedPage](`(() => {
  const seats = {};
  for (const li of document.querySelectorAll("#seats li.seat")) {
    let text = li.textContent;
    for (const f of li.querySelectorAll("figure")) text += " " + (f.getAttribute("aria-label") || "");
    seats[li.querySelector(".seat-name").textContent] = (li.classList.contains("out") ? "@out " : "") + text;
  }
  return {buttons: document.querySelectorAll("#question button.choice").length,
    known: document.querySelectorAll("figure.card-known").length,
    chat: !!document.getElementById("chat").offsetParent,
    over: !!document.getElementById("leave-end"), title: document.getElementById("title").textContent,
    log: document.querySelectorAll("#log li").length, seats: seats};
})()`))
		if err != nil {
			t.Fatal(err)
		}
		fd, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Bad []string `json:"bad"`
		}](faceDownJS))
		if err != nil {
			t.Fatal(err)
		}
		if len(fd.Bad) > 0 || page.Buttons > 0 || page.Known > 0 || page.Chat || strings.Contains(page.Title, "you are") {
			t.Fatalf("a spectator's page: %d choices, %d known cards, a chat shown %v, title %q, face-down cards saying %q",
				page.Buttons, page.Known, page.Chat, page.Title, fd.Bad)
		}
		if page.Over {
			break
		}
		for name, text := range page.Seats {
			if !strings.HasPrefix(text, "@out ") && strings.Contains(text, roles[name]) {
				t.Fatalf("%s's hidden role %s shows on a spectator's page: %q", name, roles[name], text)
			}
		}
		checks++
		select {
		case checked <- struct{}{}:
		default:
		}
		if !midShot && page.Log > 20 {
			shot("midgame")
			midShot = true
		}
		time.Sleep(30 * time.Millisecond)
	}
	<-fed
	shot("end")
	if checks < 3 {
		t.Fatalf("the page was checked only %d times before the end", checks)
	}
	t.Logf("checked %d times; screenshots in %s", checks, dir)
}

// watchedPage is what TestBrowserWatches reads of the page.
type watchedPage struct {
	Buttons int               `json:"buttons"`
	Known   int               `json:"known"`
	Chat    bool              `json:"chat"` // the chat's input shows
	Over    bool              `json:"over"`
	Title   string            `json:"title"`
	Log     int               `json:"log"`
	Seats   map[string]string `json:"seats"`
}
