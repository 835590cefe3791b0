package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/masque-games/masque/engine/grimm"
	"github.com/masque-games/masque/engine/mafia"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/mascarade2"
)

// Every character of both Mascarade editions, every Grimm character
// and item, and every Mafia role and incident card has a picture of its
// own in cards.js (any other name gets the generic card with its
// initials).
func TestEveryCardHasAPicture(t *testing.T) {
	js, err := static.ReadFile("static/cards.js")
	if err != nil {
		t.Fatal(err)
	}
	src := string(js)
	start, end := strings.Index(src, "const S = {"), strings.Index(src, "// Card families")
	if start < 0 || end < start {
		t.Fatal("no symbol table in cards.js")
	}
	symbols := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+([a-z]+): \[`).FindAllStringSubmatch(src[start:end], -1) {
		symbols[m[1]] = true
	}
	inks := map[string]bool{}
	for _, m := range regexp.MustCompile(`([a-z]+): "#[0-9a-f]{6}"`).FindAllStringSubmatch(src[end:], -1) {
		inks[m[1]] = true
	}
	key := func(name string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, strings.ToLower(name))
	}
	var names []string
	for _, c := range mascarade.Cards() {
		names = append(names, c.Name)
	}
	for _, c := range mascarade2.Cards() {
		names = append(names, c.Name)
	}
	for _, c := range append(grimm.Characters(), grimm.Items()...) {
		names = append(names, grimm.DisplayName(c))
	}
	for c := mafia.Civilian; c <= mafia.EvidenceRight; c++ {
		names = append(names, mafia.CardWords(c)) // the seven roles and the six incident cards
	}
	for _, n := range names {
		k := key(n)
		if !symbols[k] {
			t.Errorf("%s (%q) has no picture in cards.js", n, k)
		}
		if !inks[k] {
			t.Errorf("%s (%q) has no ink in cards.js", n, k)
		}
	}
	if len(names) < 40 {
		t.Errorf("only %d card names: the catalogues were not read", len(names))
	}
}
