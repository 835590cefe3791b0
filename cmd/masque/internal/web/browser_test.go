package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/masque-games/masque/cmd/masque/internal/browsertest"
	"github.com/masque-games/masque/cmd/masque/internal/localsession"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/grimm"
)

// chromiumEnv names a browser binary for the browser test; without it
// the test looks for Debian's chromium and the usual Chrome names.
const chromiumEnv = "MASQUE_CHROMIUM"

// artifactsEnv names the directory the browser test saves its
// screenshots in (default: a new temporary directory, kept).
const artifactsEnv = "MASQUE_WEB_ARTIFACTS"

// lookChromium returns a browser binary to drive, or "".
func lookChromium() string {
	if p := os.Getenv(chromiumEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// findChromium returns a browser to drive, or skips the test.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := lookChromium(); p != "" {
		return p
	}
	t.Skipf("no chromium binary found (install Debian's 'chromium', or set %s to a Chrome binary): the browser test is skipped", chromiumEnv)
	return ""
}

// chromium is the package's one headless Chromium, at 1280×800
// (browsertest), started by the first browser test and stopped by
// TestMain.
var chromium = &browsertest.Browser{Flags: []chromedp.ExecAllocatorOption{chromedp.WindowSize(1280, 800)}}

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.Close()
	os.Exit(code)
}

// allocator returns a browser context of its own (its own storage) in
// the package's Chromium exe (started at the first call), headless at
// 1280×800: chromedp.NewContext of it opens a tab there. cancel closes
// its tabs. If the browser cannot be started, it returns an allocator
// of exe's browsers, whose tabs say why.
func allocator(exe string) (alloc context.Context, cancel context.CancelFunc) {
	if ctx, cancel, err := chromium.Context(exe); err == nil {
		return ctx, cancel
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 800), chromedp.Flag("disable-gpu", true))
	return chromedp.NewExecAllocator(context.Background(), opts...)
}

// doer returns a function that runs steps in the browser ctx; t fails
// on an error.
func doer(ctx context.Context, t *testing.T) func(steps ...chromedp.Action[chromedp.Void]) {
	return func(steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
	}
}

// artifacts is where the screenshots go.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(artifactsEnv)
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "masque-web-artifacts-"); err != nil {
			t.Fatal(err)
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// situationJS says what the page offers now, and its state's revision.
const situationJS = `(() => {
  if (!document.body || location.protocol !== "http:") return "loading:";
  const rev = document.body.dataset.rev || "";
  if (!document.body.dataset.rendered) return "loading:" + rev;
  if (document.getElementById("leave-end")) return "over:" + rev;
  if (document.getElementById("ask-yes")) return "ask:" + rev;
  const first = document.querySelector("#question button.choice:not([disabled])");
  if (first && first.classList.contains("step")) return "step:" + rev;
  if (first) return "choice:" + rev;
  return "wait:" + rev;
})()`

// faceDownJS lists what a face-down card of the page says beyond "a
// face-down card" (nothing, when all is well), and counts them.
const faceDownJS = `(() => {
  const bad = [];
  const downs = document.querySelectorAll("figure.card-down");
  for (const f of downs) {
    const label = f.getAttribute("aria-label") || "";
    if (!/^face-down( [a-z]+)? card( \d+)?$/.test(label)) bad.push("label: " + label);
    if (f.title !== label) bad.push("title: " + f.title);
    for (const x of f.querySelectorAll("text")) if (!/^\d*$/.test(x.textContent)) bad.push("text: " + x.textContent);
  }
  return {bad: bad, count: downs.length};
})()`

// seatTextsJS returns each seat's text by its name (with "@out " before
// it for a seat that is out of the game), with the aria labels and
// titles of its cards.
const seatTextsJS = `(() => {
  const out = {};
  for (const li of document.querySelectorAll("#seats li.seat")) {
    const n = li.querySelector(".seat-name").textContent.replace(/ \(you\)$/, "");
    let text = li.textContent;
    for (const f of li.querySelectorAll("figure")) text += " " + (f.getAttribute("aria-label") || "") + " " + (f.title || "");
    out[n] = (li.classList.contains("out") ? "@out " : "") + text;
  }
  out["@at"] = document.body.dataset.at || "";
  out["@over"] = document.getElementById("leave-end") ? "over" : "";
  return out;
})()`

// hiddenCharacters are the Grimm characters of the other seats that the
// local seat does not know, by the player's name: the truth, from the
// other seats' own knowledge (every seat of a local table is here).
func hiddenCharacters(ls *localsession.Session) (hidden map[string]string, entries int) {
	snap := ls.Snapshot()
	s, ok := snap.Rules.(*grimm.State)
	if !ok || snap.Over {
		return nil, snap.Entries
	}
	out := map[string]string{}
	for p := 1; p < len(snap.Names); p++ {
		theirs := ls.SeatKnown(p)
		for _, sl := range s.CharSlotsOf(engine.Seat(p)) {
			if s.Known(sl) != 0 {
				continue
			}
			if _, mine := snap.Known[sl]; mine {
				continue
			}
			if c, ok := theirs[sl]; ok {
				out[snap.Names[p]] = grimm.DisplayName(c)
			}
		}
	}
	return out, snap.Entries
}

// TestBrowserPlaysToTheEnd plays a whole local game of each game in a
// real browser, by clicking the page's buttons and pressing its keys,
// and checks on every step that no face-down card says what it is, in
// the DOM or in the event stream (its patches applied as the page
// applies them), and that no other player's hidden character (Grimm) or
// role (Mafia, until it is out) appears beside them. It saves
// screenshots at 1280×800 and 390×844, mid-game (Mafia: at night too)
// and at the end.
func TestBrowserPlaysToTheEnd(t *testing.T) {
	exe := findChromium(t)
	if testing.Short() {
		t.Skip("the browser test plays whole games: skipped with -short")
	}
	dir := artifacts(t)
	t.Logf("screenshots in %s", dir)
	alloc, cancel := allocator(exe)
	defer cancel()
	for _, tc := range []struct {
		game    string
		players int
		// reduced: the browser asks for reduced motion; swaps: the game
		// has hidden swaps to show (Mascarade), or items that change
		// hands in the open (Grimm's exchanges, dances, toasts, drafts).
		reduced, swaps bool
	}{
		{game: "mascarade", players: 4, swaps: true},
		{game: "grimm", players: 3, swaps: true},
		{game: "mascarade2", players: 7, swaps: true},
		{game: "mascarade", players: 4, swaps: true, reduced: true},
		{game: "grimm", players: 3, swaps: true, reduced: true},
		{game: "mafia", players: 6},
	} {
		name := tc.game
		if tc.reduced {
			name += "-reduced-motion"
		}
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			lopts := localsession.Options{Game: tc.game}
			if tc.game == "mafia" {
				lopts.NightFloor = time.Hour // a night without a power waits for sleep
			}
			srv, ls := newLocalWith(t, lopts, tc.players, Options{Title: "browser test",
				EndNotes: func() []string { return []string{"every card: masque replay game.masque --reveal"} }})
			var roles map[string]string // Mafia: every seat's role, by name
			if tc.game == "mafia" {
				roles = mafiaTruth(t, ls)
			}
			left := make(chan bool, 1)
			go func() {
				l, _ := srv.Run(context.Background())
				left <- l
			}()
			ctx, cancel := chromedp.NewContext(alloc)
			defer cancel()
			if err := chromedp.Do(ctx); err != nil {
				t.Fatalf("starting %s: %v", exe, err)
			}
			var mu sync.Mutex
			var streamed, patched int
			msgs := chromedp.Events(ctx, network.EventSourceMessageReceived)
			go func() {
				// The page's stream sends a whole state, then patches: each
				// is applied as the page applies it, and the state checked.
				var state map[string]json.RawMessage
				for ev, err := range msgs {
					if err != nil {
						return
					}
					mu.Lock()
					streamed++
					if ev.EventName == "patch" {
						patched++
					}
					mu.Unlock()
					raw := ev.Data
					if ev.EventName == "patch" {
						if raw, err = applyPatch(state, ev.Data); err != nil {
							t.Error(err)
							return
						}
					} else if err := json.Unmarshal([]byte(raw), &state); err != nil {
						t.Error(err)
						return
					}
					if err := faceDownNamed(raw); err != nil {
						t.Error(err) // not Fatal: this is not the test's goroutine
					}
					if roles != nil {
						var st pageState
						if err := json.Unmarshal([]byte(raw), &st); err != nil {
							t.Error(err)
						} else if leak := mafiaLeak(st, roles); leak != "" {
							t.Errorf("in the event stream: %s", leak)
						}
					}
				}
			}()
			do := doer(ctx, t)
			shot := func(when string) {
				t.Helper()
				if tc.reduced {
					return
				}
				for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
					do(chromedp.EmulateViewport(size[0], size[1]), chromedp.Sleep(800*time.Millisecond)) // a swap seen moving has landed
					png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
					if err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(dir, fmt.Sprintf("%s-%s-%dx%d.png", tc.game, when, size[0], size[1]))
					if err := os.WriteFile(path, png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				do(chromedp.EmulateViewport(1280, 800))
			}
			if tc.reduced {
				feat := []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}
				if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: feat}); err != nil {
					t.Fatal(err)
				}
			}
			// The first game opens the page as masque opens a browser: on
			// the start file, which sends it on (a cross-site navigation).
			target := srv.URL()
			if name == "mascarade" {
				start, err := srv.StartFile(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				target = "file://" + start
			}
			do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(target))
			if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("body[data-rendered]"))); err != nil {
				t.Fatalf("the table was not drawn after opening %s: %v", target, err)
			}
			animated, marked, ownRole := 0, 0, 0
			menuShot := false

			deadline := time.Now().Add(90 * time.Second)
			acted, moves, downs, steps, compared := "", 0, 0, 0, 0
			real, asked, nightShot := false, false, false
			for {
				if time.Now().After(deadline) {
					t.Fatalf("the game did not end by clicking in 90s (%d moves)", moves)
				}
				sit, err := chromedp.Run(ctx, chromedp.Evaluate[string](situationJS))
				if err != nil {
					t.Fatal(err)
				}
				steps++
				fd, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
					Bad   []string `json:"bad"`
					Count int      `json:"count"`
				}](faceDownJS))
				if err != nil {
					t.Fatal(err)
				}
				if len(fd.Bad) > 0 {
					t.Fatalf("a face-down card says what it is: %q", fd.Bad)
				}
				downs = max(downs, fd.Count)
				motion, err := chromedp.Run(ctx, chromedp.Evaluate[[2]int](`[document.getAnimations().length, document.querySelectorAll(".swapped").length]`))
				if err != nil {
					t.Fatal(err)
				}
				animated, marked = max(animated, motion[0]), max(marked, motion[1])
				if tc.reduced && motion[0] > 0 {
					t.Fatalf("%d animations run for a player who asked for reduced motion", motion[0])
				}
				if hidden, n := hiddenCharacters(ls); len(hidden) > 0 {
					texts, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](seatTextsJS))
					if err != nil {
						t.Fatal(err)
					}
					// The page may lag the table (an earlier round, where
					// the name was a public token): only a page drawn from
					// the state the truth was taken at is compared.
					again, m := hiddenCharacters(ls)
					same := n == m && texts["@at"] == strconv.Itoa(n)
					if same {
						compared++
					}
					for name, char := range hidden {
						if same && again[name] == char && strings.Contains(texts[name], char) {
							t.Fatalf("%s's hidden character %s shows on the page: %q", name, char, texts[name])
						}
					}
				}
				if roles != nil {
					texts, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](seatTextsJS))
					if err != nil {
						t.Fatal(err)
					}
					over := texts["@over"] != "" // every card is opened at the end
					for name, text := range texts {
						if name == "Me" || strings.HasPrefix(name, "@") || over || strings.HasPrefix(text, "@out ") {
							continue
						}
						compared++
						if strings.Contains(text, roles[name]) {
							t.Fatalf("%s's hidden role %s shows on the page: %q", name, roles[name], text)
						}
					}
					if strings.Contains(texts["Me"], roles["Me"]) {
						ownRole++
					}
				}
				if tc.game == "mafia" && !nightShot {
					// A night (the seat's secret choice, or waiting for the
					// others'), drawn at both sizes.
					ph, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.phase || ""`))
					if err != nil {
						t.Fatal(err)
					}
					if ph == "night" && !strings.HasPrefix(sit, "over:") {
						shot("night")
						nightShot = true
					}
				}
				kind, rev, _ := strings.Cut(sit, ":")
				switch {
				case kind == "over":
					goto over
				case kind == "ask":
					// The page asks whether a hidden swap is real: answered
					// with the keyboard, yes and no in turn.
					if !asked && name == "mascarade" {
						shot("confirm")
						asked = true
					}
					real = !real
					key := "n"
					if real {
						key = "y"
					}
					do(chromedp.KeyEvent(key))
					acted = rev
				case kind == "step":
					// A menu in steps: the first step opens the choices
					// under it, on the page alone (the state is the same).
					if moves%2 == 0 {
						do(chromedp.Click(chromedp.CSS("#question button.choice.step:not([disabled])"), chromedp.NodeVisible))
					} else {
						do(chromedp.KeyEvent("1"))
					}
					acted = ""
					if !menuShot {
						menuShot = true
						shot("menu") // a step's page, with its path and back key
					}
				case kind == "choice" && rev != acted:
					if moves%2 == 0 {
						do(chromedp.Click(chromedp.CSS("#question button.choice:not([disabled])"), chromedp.NodeVisible))
					} else {
						do(chromedp.KeyEvent("1"))
					}
					moves++
					if moves == 3 {
						shot("midgame")
					}
					if moves == 3 && (name == "mascarade" || name == "mafia") {
						// The help, opened with its key, closed with Escape.
						do(chromedp.KeyEvent("?"), chromedp.WaitVisible(chromedp.CSS("#help[open]")))
						shot("help")
						do(chromedp.KeyEvent(kb.Escape))
						open, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("help").open`))
						if err != nil || open {
							t.Fatalf("the help stays open after Escape (%v)", err)
						}
					}
					acted = rev
				default:
					time.Sleep(20 * time.Millisecond)
				}
			}
		over:
			switch {
			case (tc.game == "grimm" || tc.game == "mafia") && compared == 0:
				t.Error("the other players' hidden characters were never compared with the page")
			case tc.game == "mafia" && ownRole == 0:
				t.Error("the page never showed the seat its own role")
			case tc.swaps && !tc.reduced && animated == 0:
				t.Error("no swap was ever seen moving")
			case tc.swaps && tc.reduced && marked == 0:
				t.Error("with reduced motion, no swap was ever marked")
			}
			if moves == 0 || downs == 0 {
				t.Fatalf("played %d moves, saw at most %d face-down cards", moves, downs)
			}
			result, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#question")))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(result, "Result") || !strings.Contains(result, "masque replay") {
				t.Errorf("the end shows %q", result)
			}
			shot("end")
			mu.Lock()
			n, np := streamed, patched
			mu.Unlock()
			if n == 0 || np == 0 {
				t.Errorf("%d server-sent events seen by the browser, %d patches: the stream was not checked", n, np)
			}
			do(chromedp.Click(chromedp.ID("leave-end")))
			select {
			case l := <-left:
				if !l {
					t.Error("leaving from the page did not end the screen")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the screen did not end after the leave button")
			}
			snap := ls.Snapshot()
			if !snap.Over || snap.Verdict != "" {
				t.Fatalf("session: over %v, verdict %q", snap.Over, snap.Verdict)
			}
			sum, _ := json.Marshal(map[string]any{"moves": moves, "polls": steps, "events": n, "animations": animated,
				"marked": marked, "compared": compared, "seconds": time.Since(start).Seconds()})
			t.Logf("%s: %s", name, sum)
		})
	}
}
