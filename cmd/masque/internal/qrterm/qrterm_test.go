package qrterm

import (
	"image"
	"image/color"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	qr "github.com/piglig/go-qr"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// unrender reads a drawing back into dark modules, [y][x], two rows per
// line (the last row of an odd matrix comes back as a quiet row).
func unrender(t *testing.T, s string, style Style) [][]bool {
	t.Helper()
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("%s: the drawing does not end its last line", style)
	}
	var m [][]bool
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if style == ANSI {
			if !strings.HasPrefix(line, "\x1b[30;107m") || !strings.HasSuffix(line, "\x1b[0m") {
				t.Fatalf("%s: line %d %q does not set and reset its colours", style, i, line)
			}
		} else if sgr.MatchString(line) {
			t.Fatalf("%s: line %d %q has escapes", style, i, line)
		}
		line = sgr.ReplaceAllString(line, "")
		up, down := []bool{}, []bool{}
		for _, r := range line {
			var u, d bool
			switch r {
			case '█':
				u, d = true, true
			case '▀':
				u = true
			case '▄':
				d = true
			case ' ':
			default:
				t.Fatalf("%s: line %d has %q", style, i, r)
			}
			// Drawn ink is light for LightOnDark, dark otherwise.
			up, down = append(up, u != (style == LightOnDark)), append(down, d != (style == LightOnDark))
		}
		m = append(m, up, down)
	}
	return m
}

// image draws dark modules as 4×4 black squares on white.
func toImage(m [][]bool) image.Image {
	const scale = 4
	img := image.NewGray(image.Rect(0, 0, len(m[0])*scale, len(m)*scale))
	for y := range img.Rect.Dy() {
		for x := range img.Rect.Dx() {
			c := color.Gray{Y: 255}
			if m[y/scale][x/scale] {
				c = color.Gray{}
			}
			img.SetGray(x, y, c)
		}
	}
	return img
}

// TestRenderDecodes draws each URL in each style, reads the drawing back
// into modules, checks them against the encoder's own matrix, and decodes
// the picture they make back into the URL.
func TestRenderDecodes(t *testing.T) {
	urls := []string{
		"http://192.168.1.20:41641/#K7QX-3F9A-hJ2kLm9PqR4sT6vW8xYz0aBcDeFgHiJk",
		"http://10.0.0.2:8080/#A",
		"http://[fe80::1c2b:3cff:fe4d:5e6f]:41641/#K7QX-3F9A-" + strings.Repeat("x", 100),
	}
	for _, url := range urls {
		want, err := Matrix(url)
		if err != nil {
			t.Fatal(err)
		}
		code, err := qr.EncodeText(url, qr.Low)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != code.Size()+2*Quiet {
			t.Fatalf("%s: matrix %d wide, want the code's %d and a quiet zone of %d", url, len(want), code.Size(), Quiet)
		}
		for _, style := range []Style{LightOnDark, DarkOnLight, ANSI} {
			s, err := Render(url, style)
			if err != nil {
				t.Fatal(err)
			}
			got := unrender(t, s, style)
			if len(got) != len(want)+len(want)%2 {
				t.Fatalf("%s, %s: %d rows of modules drawn, want %d", url, style, len(got), len(want)+len(want)%2)
			}
			for y := range got {
				if len(got[y]) != len(want) {
					t.Fatalf("%s, %s: row %d is %d modules wide, want %d", url, style, y, len(got[y]), len(want))
				}
				for x := range got[y] {
					w := y < len(want) && want[y][x]
					if got[y][x] != w {
						t.Fatalf("%s, %s: module (%d,%d) drawn dark=%v, the code has %v", url, style, x, y, got[y][x], w)
					}
				}
			}
			text, err := qr.Decode(toImage(got))
			if err != nil {
				t.Fatalf("%s, %s: the drawing does not decode: %v\n%s", url, style, err, s)
			}
			if text != url {
				t.Fatalf("%s, %s: decoded %q", url, style, text)
			}
		}
	}
}

// TestRenderFitsATerminal: a LAN URL with a 32-character token fits in 40
// columns and 20 rows, with room for the URL under it on an 80×24 screen.
func TestRenderFitsATerminal(t *testing.T) {
	s, err := Render("http://192.168.100.200:54321/#K7QX-3F9A-hJ2kLm9PqR4sT6vW8xYz0aBcDeFgHiJk", LightOnDark)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) > 20 || utf8.RuneCountInString(lines[0]) > 40 {
		t.Errorf("%d rows of %d columns, want at most 20 of 40:\n%s", len(lines), utf8.RuneCountInString(lines[0]), s)
	}
}

func TestRenderRefuses(t *testing.T) {
	if _, err := Render(strings.Repeat("x", 3000), LightOnDark); err == nil || !strings.Contains(err.Error(), "3000 bytes") {
		t.Errorf("3000 bytes: error %v, want one saying the text is too long for a QR code", err)
	}
	if _, err := Render("http://x/", Style(7)); err == nil || !strings.Contains(err.Error(), "style 7") {
		t.Errorf("style 7: error %v, want one naming the style", err)
	}
}
