package web

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/session"
	"github.com/masque-games/masque/engine"
	"github.com/masque-games/masque/engine/games/localplay"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/masquerade/masqview"
	"github.com/masque-games/masque/engine/table"
)

// fixedSession is one seat at a table that stands still: a snapshot, its
// moves, and the moves submitted to it.
type fixedSession struct {
	snap session.Snapshot
	upd  chan struct{}
	mu   sync.Mutex
	got  []engine.Move
}

func (f *fixedSession) Snapshot() session.Snapshot { return f.snap }
func (f *fixedSession) Updates() <-chan struct{}   { return f.upd }
func (f *fixedSession) Close() error               { return nil }
func (f *fixedSession) Submit(m engine.Move, _ []bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, m)
	return nil
}

// mascaradeAt plays a Mascarade script through the real stack and returns
// the session of the seat whose move is due.
func mascaradeAt(t *testing.T, src string) *fixedSession {
	t.Helper()
	lt, err := localplay.Run(mascarade.Game{}, []byte(src), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	tr := lt.Transcript()
	rt, err := table.New(tr.Roster, mascarade.Game{})
	if err != nil {
		t.Fatal(err)
	}
	f := masqview.First().Follower()
	f.Start(rt)
	for _, e := range tr.Entries {
		if err := rt.Apply(e); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Follow(rt, e); err != nil {
			t.Fatal(err)
		}
	}
	s := rt.Rules().(*mascarade.State)
	seat := int(s.Next().Seat)
	snap := session.Snapshot{Seat: seat, Rules: s, Memory: lt.Seats[seat].Player.Memory, SwapBits: lt.Seats[seat].Player.SwapBits(),
		Log: f.Lines, Entries: int(rt.Pos()), MyTurn: true, Viewer: masqview.First(), Record: f.Moves}
	for _, st := range lt.Seats {
		snap.Names = append(snap.Names, st.Name)
	}
	return &fixedSession{snap: snap, upd: make(chan struct{})}
}

// On the page, at a 13-player Mascarade table: the header is one line at
// 1280 px; the choices come in steps (swap, look, claim) and every line of
// a step has its key, past the ninth too ("0" plays the tenth claim); the
// seat's own card, which only it knows, shows its face marked "only you
// know"; the last reveal is not named twice.
func TestBrowserMenuInSteps(t *testing.T) {
	exe := findChromium(t)
	names := "Anna,Boris,Sasha,Dima,Egor,Fedya,Gosha,Katya,Lena,Misha,Nina,Oleg,Petya"
	fs := mascaradeAt(t, "game mascarade players="+names+"\nAnna swap Boris yes\nBoris swap Sasha no\nSasha swap Dima yes\nDima swap Egor no\n"+
		"Egor claim King\nGosha challenge\nFedya swap Katya yes\nGosha swap Lena no\nKatya swap Lena yes\nLena swap Misha no\nMisha swap Nina yes\nNina swap Oleg no\n"+
		"Oleg swap Petya yes\nPetya swap Anna no\nAnna swap Boris no\nBoris swap Sasha no\nSasha swap Dima no\nDima swap Egor no\nEgor swap Gosha no\n")
	srv, err := New(fs, Options{Title: "hosted table OPAL-TIGER-SEVEN, 13 players, a long title"})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, srv)
	alloc, cancel := allocator(exe)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	do := doer(ctx, t)
	do(chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL()), chromedp.WaitVisible(chromedp.CSS("body[data-rendered] #question button.choice")))
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// One line: the status's top is the title's, and the header is no
	// taller than its buttons.
	if got := eval(`(() => { const h = document.querySelector("header"), s = document.getElementById("status"), b = document.getElementById("leave");
		return s.getBoundingClientRect().height <= b.getBoundingClientRect().height && h.getBoundingClientRect().height < 2.2 * b.getBoundingClientRect().height ? "one" : "wraps: " + h.getBoundingClientRect().height; })()`); got != "one" {
		t.Errorf("the header at 1280 px %s", got)
	}
	lines := func() string {
		return eval(`Array.from(document.querySelectorAll("#question button.choice")).map((b) => b.textContent).join("\n")`)
	}
	top := lines()
	if !strings.Contains(top, "swap your card with another …") || !strings.Contains(top, "claim a character …") || strings.Contains(top, "claim to be") {
		t.Fatalf("the choices are not in steps:\n%s", top)
	}
	if got := eval(`(() => { const f = Array.from(document.querySelectorAll("#seats li.seat.you figure")); return f.map((x) => x.className + "|" + x.getAttribute("aria-label")).join(";"); })()`); !strings.Contains(got, "card-known") || !strings.Contains(got, "(only you know)") {
		t.Errorf("the seat's own card, which only it knows: %s", got)
	}
	if got := eval(`Array.from(document.querySelectorAll(".area-words, .seat-status")).map((x) => x.textContent).filter((x) => /^(last reveal|centre|out)\b/i.test(x)).join(";")`); got != "" {
		t.Errorf("a label said twice: %s", got)
	}
	// The claims: a step of 13 lines, each with its key.
	do(chromedp.KeyEvent("3"), chromedp.Sleep(300*time.Millisecond))
	claims := lines()
	n := strings.Count(claims, "claim to be")
	if n < 10 {
		t.Fatalf("the claim step offers %d claims:\n%s", n, claims)
	}
	if got := eval(`Array.from(document.querySelectorAll("#question button.choice")).filter((b) => !b.querySelector("kbd")).length + ""`); got != "0" {
		t.Errorf("%s lines of the claim step have no key:\n%s", got, claims)
	}
	tenth := strings.Split(claims, "\n")[9]
	do(chromedp.KeyEvent("0"), chromedp.Sleep(500*time.Millisecond))
	fs.mu.Lock()
	got := fs.got
	fs.mu.Unlock()
	rules, _ := masqview.First().Of(fs.snap.Rules)
	if len(got) != 1 || got[0].Kind != mascarade.KindClaim || !strings.HasSuffix(tenth, masqview.Choice(rules, got[0])) {
		t.Fatalf("0 played %+v, want the tenth line %q", got, tenth)
	}
}
