package web

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// luminance is the WCAG relative luminance of a colour "#rrggbb".
func luminance(hex string) float64 {
	ch := func(i int) float64 {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(0) + 0.7152*ch(1) + 0.0722*ch(2)
}

func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// The page's text colours keep a contrast of at least 4.5:1 (WCAG AA)
// on the backgrounds they are drawn on.
func TestContrast(t *testing.T) {
	css, err := static.ReadFile("static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})`).FindAllStringSubmatch(string(css), -1) {
		vars[m[1]] = m[2]
	}
	fixed := map[string]string{"card-face": "#fdf8ec", "card-ink": "#1a1a1a", "back": "#1d2a4a", "back-text": "#f4e2a1",
		"coin": "#e7c04a", "badge-text": "#14161c", "pass": "#394150", "primary": "#8a5a00", "white": "#ffffff"}
	color := func(name string) string {
		if c, ok := vars[name]; ok {
			return c
		}
		if c, ok := fixed[name]; ok {
			return c
		}
		t.Fatalf("no colour %q in style.css", name)
		return ""
	}
	for _, p := range [][2]string{
		{"text", "bg"}, {"text", "panel"}, {"dim", "bg"}, {"dim", "panel"}, {"warn", "panel"}, {"won", "panel"},
		{"accent", "panel"}, {"btn-text", "btn"}, {"white", "pass"}, {"white", "primary"}, {"badge-text", "turn"},
		{"badge-text", "warn"}, {"card-ink", "card-face"}, {"back-text", "back"}, {"card-ink", "coin"},
		{"text", "night"}, {"dim", "night"}, {"text", "day"}, {"dim", "day"}, {"text", "out"}, {"dim", "out"}, {"badge-text", "dim"},
		{"back-text", "night"}, {"accent", "day"},
	} {
		if c := contrast(color(p[0]), color(p[1])); c < 4.5 {
			t.Errorf("%s on %s: contrast %.1f, want 4.5 or more", p[0], p[1], c)
		}
	}
}

// Every card's ink (its symbol and frame) keeps a contrast of at least
// 4.5:1 on the card's light face, so that a picture reads as well as
// its name.
func TestCardInkContrast(t *testing.T) {
	js, err := static.ReadFile("static/cards.js")
	if err != nil {
		t.Fatal(err)
	}
	src := string(js)
	start := strings.Index(src, "const INK = {")
	if start < 0 {
		t.Fatal("no inks in cards.js")
	}
	end := start + strings.Index(src[start:], "};")
	inks := regexp.MustCompile(`([a-z]+): "(#[0-9a-f]{6})"`).FindAllStringSubmatch(src[start:end], -1)
	if len(inks) < 50 {
		t.Fatalf("only %d inks found", len(inks))
	}
	for _, m := range inks {
		if c := contrast(m[2], "#fdf8ec"); c < 4.5 {
			t.Errorf("%s's ink %s on the card face: contrast %.1f, want 4.5 or more", m[1], m[2], c)
		}
	}
}

// No text on the page is cut in the middle of a word where a space would
// do: "word-break: break-all" split the end notes' "written when you
// leave" into "yo" / "u leave" on a phone; "overflow-wrap: anywhere"
// breaks inside a word only when the word alone is too long (a path).
func TestNoBreakAll(t *testing.T) {
	css, err := static.ReadFile("static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`[^;{}]*word-break:\s*break-all`).Find(css); m != nil {
		t.Errorf("style.css breaks words anywhere: %q", strings.TrimSpace(string(m)))
	}
}
