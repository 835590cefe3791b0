package phone

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromiumEnv names a browser binary for the browser test; without it
// the test looks for Debian's chromium and the usual Chrome names.
const chromiumEnv = "MASQUE_CHROMIUM"

// artifactsEnv names the directory the browser test saves its
// screenshots in (default: a new temporary directory, kept).
const artifactsEnv = "MASQUE_PHONE_ARTIFACTS"

func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(chromiumEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("no chromium binary found (install Debian's 'chromium', or set %s): the phone's browser test is skipped", chromiumEnv)
	return ""
}

func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(artifactsEnv)
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "masque-phone-"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// clickJS is the player on the phone: it taps a random line of the menu
// (or yes/no), and says what it saw.
const clickJS = `(() => {
  if (!document.getElementById("over").classList.contains("hidden")) return "over";
  const bs = [...document.querySelectorAll("#menu button:not(.back)")];
  if (!bs.length) return "wait";
  bs[Math.floor(Math.random() * bs.length)].click();
  return "tap";
})()`

// TestBrowserPhonePlays: headless Chromium, as a phone (390×844,
// touch), opens the URL `masque host --phones` shows, takes a name and a
// seat, and plays a whole game with its own WebAssembly seat (keys,
// entries, proofs, replica, storage in IndexedDB) against the host's bot
// and joiners' bots, its frames forwarded by the host's server, in every
// game; in Mascarade it reloads its page mid-game and the seat comes
// back from its storage alone. Every transcript is the same and replays.
func TestBrowserPhonePlays(t *testing.T) {
	findChromium(t)
	seat := &Seat{Log: func(s string) { t.Log(s) }}
	began := time.Now()
	if err := seat.Prepare(); err != nil {
		t.Fatal(err)
	}
	t.Logf("the seat's WebAssembly ready in %v", time.Since(began).Round(time.Millisecond))
	dir := artifacts(t)
	for _, c := range []struct {
		game    string
		players int
		reload  bool
	}{
		{"mascarade", 3, true},
		{"mascarade2", 4, false},
		{"grimm", 3, false},
		{"mafia", 5, false},
	} {
		t.Run(c.game, func(t *testing.T) {
			browserGame(t, seat, filepath.Join(dir, c.game), c.game, c.players, c.reload)
		})
	}
	t.Logf("screenshots in %s", dir)
}

func browserGame(t *testing.T, seat *Seat, dir, game string, players int, reload bool) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tr := startGame(ctx, t, game, players)
	srv, err := Listen("127.0.0.1:0", tr.hub, seat, tr.code(), "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	defer srv.Close()
	bctx := browserTab(t)
	do := func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(bctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	began := time.Now()
	do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(srv.URL()),
		chromedp.WaitVisible(chromedp.ID("who")))
	t.Logf("the page asks for a name %v after opening", time.Since(began).Round(time.Millisecond))
	do(chromedp.SendKeys(chromedp.ID("who"), "mila"), chromedp.Click(chromedp.ID("sit")))
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	for deadline := time.Now().Add(30 * time.Second); ; {
		seen, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[String(document.querySelectorAll("#seats .seat").length > 0), document.getElementById("status").textContent, document.getElementById("faults").textContent]`))
		if err != nil {
			t.Fatal(err)
		}
		if seen[0] == "true" {
			break
		}
		if time.Now().After(deadline) {
			shot("not-seated")
			t.Fatalf("the phone's page shows no table: status %q, faults %q (screenshots in %s)", seen[1], seen[2], dir)
		}
		time.Sleep(100 * time.Millisecond)
	}
	shot("1-seated")
	steadyMenu(bctx, t)
	taps, midShot, reloaded, nightShot, noticeShot := 0, false, false, false, false
	lastLog := time.Now()
	for {
		if testing.Verbose() && time.Since(lastLog) > 5*time.Second {
			lastLog = time.Now()
			st, _ := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[document.getElementById("status").textContent, document.getElementById("waiting").textContent, document.getElementById("game").textContent, document.getElementById("faults").textContent]`))
			t.Logf("phone: %q (%d taps)", st, taps)
		}
		if !nightShot || !noticeShot {
			// The moments worth a picture: a night choice (Mafia), an
			// answer on another's turn (a claim, a forced response).
			st, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[document.getElementById("game").textContent, String(document.querySelectorAll("#menu button").length), String(document.querySelectorAll("#notices .notice .window").length)]`))
			if err != nil {
				t.Fatal(err)
			}
			if !nightShot && strings.Contains(st[0], "night") && st[1] != "0" {
				nightShot = true
				shot("2-night")
			}
			if !noticeShot && st[1] != "0" && (st[2] != "0" || strings.Contains(st[0], " answer (")) {
				noticeShot = true
				shot("2-answer")
			}
		}
		what, err := chromedp.Run(bctx, chromedp.Evaluate[string](clickJS))
		if err != nil {
			t.Fatal(err)
		}
		if what == "over" {
			break
		}
		if what == "tap" {
			taps++
			if taps == 4 && !midShot {
				midShot = true
				time.Sleep(300 * time.Millisecond)
				shot("2-playing")
			}
			if reload && taps == 8 && !reloaded {
				// The phone reloads its page mid-game: the seat comes
				// back from IndexedDB alone and plays on.
				reloaded = true
				began := time.Now()
				do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#seats .seat")))
				t.Logf("reloaded mid-game: the table is back %v later", time.Since(began).Round(time.Millisecond))
			}
		}
		select {
		case <-ctx.Done():
			shot("timeout")
			t.Fatalf("the game did not end on the phone: %v (screenshots in %s)", ctx.Err(), dir)
		case <-time.After(120 * time.Millisecond):
		}
	}
	games := tr.finish(ctx, t)
	time.Sleep(300 * time.Millisecond)
	shot("3-over")
	raw, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](`Array.from(masqueSeat.transcript() || [])`))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(raw))
	for i, v := range raw {
		got[i] = byte(v)
	}
	checkTranscript(t, got, games)
	t.Logf("%d taps on the phone", taps)
}

// steadyMenu waits for the phone's first move and checks what a finger
// needs there: the menu's buttons stay the same nodes while the seat
// publishes its page again (several times a second; a button replaced
// between touchstart and touchend loses the tap), and the time left on
// the move is shown and counts down.
func steadyMenu(bctx context.Context, t *testing.T) {
	t.Helper()
	// The page's last drawing is kept, to draw it again as the seat does.
	const keep = `(() => { const o = window.masqueDraw; window.masqueDraw = (j) => { window.lastPage = j; o(j); }; return ""; })()`
	const mark = `(() => { const b = document.querySelector("#menu button:not(.back)"); if (!b || !window.lastPage) return ""; b.dataset.steady = "1"; return "marked"; })()`
	const check = `(() => { if (window.lastPage) masqueDraw(window.lastPage); const b = document.querySelector("#menu button:not(.back)"); return [b ? String(b.dataset.steady === "1") : "gone", document.getElementById("waiting").textContent,
  [...document.querySelectorAll("#menu button")].filter((x) => x.scrollHeight > x.clientHeight + 1).map((x) => x.textContent).join(" | ")];
})()`
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[string](keep)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); ; {
		w, err := chromedp.Run(bctx, chromedp.Evaluate[string](mark))
		if err != nil {
			t.Fatal(err)
		}
		if w != "" || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(2100 * time.Millisecond)
	got, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](check))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("steady: %q", got)
	if got[0] == "gone" {
		return // the move went by (a bot's challenge window): nothing to check
	}
	if got[0] != "true" {
		t.Errorf("the menu's buttons were built again while the page stood still: a tap in progress is lost")
	}
	if got[2] != "" {
		t.Errorf("menu lines whose words overflow their button (squeezed by the menu's height): %s", got[2])
	}
	if !regexp.MustCompile(`^(\d+:\d\d|\d+ s) left to move$`).MatchString(got[1]) {
		t.Errorf("on the phone's own move the page shows %q, want the time left (\"4:58 left to move\")", got[1])
	}
}
