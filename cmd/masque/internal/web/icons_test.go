package web

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/localsession"
)

// The page draws an attribute's token where the game's viewer says
// (seatview.Attr.Icon): a coin on every Mascarade seat's coins and on
// the court and the bank, a rose on every Grimm seat's roses, and no
// token on Mafia's counters.
func TestBrowserIconsFromTheView(t *testing.T) {
	exe := findChromium(t)
	dir := artifacts(t)
	alloc, cancel := allocator(exe)
	defer cancel()
	const count = `[document.querySelectorAll('#seats .attrs svg.coin-svg circle[fill="#e7c04a"]').length,
  document.querySelectorAll('#seats .attrs svg.coin-svg circle[fill="#8a1f2f"]').length,
  document.querySelectorAll('#counters svg.coin-svg circle[fill="#e7c04a"]').length,
  document.querySelectorAll('#counters svg.coin-svg circle[fill="#8a1f2f"]').length].join(" ")`
	for _, tc := range []struct {
		game    string
		players int
		want    string // seats' coins, seats' roses, counters' coins, counters' roses
	}{
		{"mascarade", 4, "4 0 2 0"},
		{"grimm", 3, "0 3 0 0"},
		{"mafia", 6, "0 0 0 0"},
	} {
		t.Run(tc.game, func(t *testing.T) {
			ctx := openTable(t, alloc, localsession.Options{Game: tc.game, NightFloor: time.Hour}, tc.players)
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](count))
			if err != nil {
				t.Fatal(err)
			}
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("icons-%s.png", tc.game)), png, 0o644); err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(got) != tc.want {
				t.Errorf("coins and roses drawn (seats' coins, seats' roses, counters' coins, counters' roses) = %s, want %s", got, tc.want)
			}
		})
	}
}

// The page holds no game's knowledge of what to draw: it picks no token
// by an attribute's name ("coins", "roses") and has no game's answers to
// a question ("No, pretend": Mascarade's hidden swap); the viewers say
// both (seatview.Attr.Icon, seatview.Choice.Yes and No).
func TestPageKeysNothingOnGameWords(t *testing.T) {
	js, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`\.name\s*===?\s*"`),
		regexp.MustCompile(`"(coins|court|bank|roses)"`),
		regexp.MustCompile(`(?i)"[^"\n]*(really|pretend)[^"\n]*"`),
	} {
		if m := bad.Find(js); m != nil {
			t.Errorf("app.js keys on a game's words: %s", m)
		}
	}
}
