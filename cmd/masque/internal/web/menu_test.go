package web

import (
	"log/slog"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/masque-games/masque/engine/seatview"
)

// The page's menus come from masque: the state sent to it carries the
// question's choices as a menu's pages (seatview.MenuTree, with the
// page's keys), and the page's script holds no menu logic of its own:
// it never reads a choice's steps nor groups choices, it draws the pages
// it is sent.
func TestPageMenuFromTheView(t *testing.T) {
	names := "Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg,Petya"
	fs := mascaradeAt(t, "game mascarade players="+names+"\nAnna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\n")
	sc := newScreen(fs, Options{}, slog.New(slog.DiscardHandler))
	now := time.Now()
	sc.refresh(now)
	sc.mu.Lock()
	st := sc.pageState(now)
	sc.mu.Unlock()
	if st.Question == nil {
		t.Fatal("no question")
	}
	want := seatview.MenuTree(st.Question.Choices, menuKeys)
	if len(want) < 2 {
		t.Fatalf("the choices are not in steps: %+v", want)
	}
	if !reflect.DeepEqual(st.Menu, want) {
		t.Fatalf("the page's menu %+v, want %+v", st.Menu, want)
	}
	for _, p := range st.Menu {
		for _, l := range p.Lines {
			if l.Key == "" {
				t.Errorf("page %v: line %q has no key", p.Path, l.Label)
			}
		}
	}
	js, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	// What the page may not do: read a choice's steps (c.steps, .steps),
	// or key the menu itself (a list of keys of its own).
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`\.steps\b`), regexp.MustCompile(`MENU_KEYS|menuAt`), regexp.MustCompile(`"1234567890`)} {
		if loc := bad.FindIndex(js); loc != nil {
			t.Errorf("app.js works out the menu itself: %q", js[max(0, loc[0]-40):min(len(js), loc[1]+40)])
		}
	}
}
