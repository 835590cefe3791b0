package main

import (
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/masquerade/masqview"
)

// 'masque play --help' quotes the question a hidden swap asks on the
// screen word for word (it quoted "really swap? y/n", which no screen
// asks: a first-time player looked for it).
func TestPlayHelpQuotesSwapQuestion(t *testing.T) {
	code, out, _ := runOut("play", "--help")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), `"`+masqview.SwapConfirm+` y/n"`) {
		t.Errorf("play --help does not quote %q:\n%s", masqview.SwapConfirm, out)
	}
}
