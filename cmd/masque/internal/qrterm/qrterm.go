// Package qrterm draws a QR code in a terminal with half-block characters:
// one text row holds two rows of modules, so a phone's URL (version 3 or
// 4, 29 or 33 modules) takes 17 to 19 rows of 33 to 37 columns with its
// quiet zone. The phone seat (issue 26) prints its URL this way.
//
// The encoder is github.com/piglig/go-qr (a port of Nayuki's reference
// QR Code generator; no dependencies).
package qrterm

import (
	"fmt"
	"strings"

	qr "github.com/piglig/go-qr"
)

// Quiet is the width of the light border drawn around the code, in
// modules. The standard asks for 4; phone cameras read a code on a
// screen with 2, and a terminal has few rows to spare.
const Quiet = 2

// Style says how the modules meet the terminal's colours.
type Style int

const (
	// LightOnDark draws the light modules (and the quiet zone) with
	// block characters and leaves the dark ones blank: for a terminal with
	// light text on a dark background, the usual default (as qrencode's
	// -t UTF8).
	LightOnDark Style = iota
	// DarkOnLight draws the dark modules: for a terminal with dark text on
	// a light background.
	DarkOnLight
	// ANSI sets black on bright white with SGR escapes on every row and
	// draws the dark modules: right on any terminal with colours.
	ANSI
)

// String names the style.
func (s Style) String() string {
	switch s {
	case LightOnDark:
		return "light-on-dark"
	case DarkOnLight:
		return "dark-on-light"
	case ANSI:
		return "ansi"
	}
	return fmt.Sprintf("Style(%d)", int(s))
}

// Matrix encodes text (error correction level L, raised when the same
// version has room) and returns its modules with the quiet zone around
// them, true for dark, indexed [y][x].
func Matrix(text string) ([][]bool, error) {
	code, err := qr.EncodeText(text, qr.Low)
	if err != nil {
		return nil, fmt.Errorf("qr code of %d bytes: %w", len(text), err)
	}
	n := code.Size() + 2*Quiet
	m := make([][]bool, n)
	for y := range m {
		m[y] = make([]bool, n)
		for x := range m[y] {
			cx, cy := x-Quiet, y-Quiet
			m[y][x] = cx >= 0 && cy >= 0 && cx < code.Size() && cy < code.Size() && code.Module(cx, cy)
		}
	}
	return m, nil
}

// Render draws text's QR code in style: one line per two rows of
// modules, each line ending in "\n".
func Render(text string, style Style) (string, error) {
	m, err := Matrix(text)
	if err != nil {
		return "", err
	}
	if style < LightOnDark || style > ANSI {
		return "", fmt.Errorf("qr code: unknown style %d", int(style))
	}
	// ink says whether a module is drawn: the light ones for LightOnDark.
	ink := func(y, x int) bool {
		if y >= len(m) {
			// The odd last row's lower half: the quiet zone goes on.
			return style == LightOnDark
		}
		return m[y][x] != (style == LightOnDark)
	}
	var b strings.Builder
	for y := 0; y < len(m); y += 2 {
		if style == ANSI {
			b.WriteString("\x1b[30;107m")
		}
		for x := range m[y] {
			switch up, down := ink(y, x), ink(y+1, x); {
			case up && down:
				b.WriteString("█")
			case up:
				b.WriteString("▀")
			case down:
				b.WriteString("▄")
			default:
				b.WriteString(" ")
			}
		}
		if style == ANSI {
			b.WriteString("\x1b[0m")
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
