package phone

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/masque-games/masque/cmd/masque/internal/netsession"
	"github.com/masque-games/masque/cmd/masque/internal/phoneseat"
	"github.com/masque-games/masque/engine/mascarade"
	"github.com/masque-games/masque/engine/seatview"
	"github.com/masque-games/masque/p2p/roomcore"
)

// pageBrowser opens the phones' page of hub in headless Chromium as a
// phone (390×844, touch) and waits for its seat to start; it returns
// the browser's context. Its URL carries testCode: hub has no table
// whose roster the seat could sign.
func pageBrowser(t *testing.T, hub *Hub, width, height int64) (context.Context, *Server) {
	return pageBrowserCode(t, hub, width, height, testCode)
}

// testCode is a well-formed join code of no table.
const testCode = "K7PL-UM23-AB4C"

// pageBrowserCode is pageBrowser with the table's code in the URL (a
// page opened without one loads no seat: TestBrowserHandTypedLink).
func pageBrowserCode(t *testing.T, hub *Hub, width, height int64, code string) (context.Context, *Server) {
	t.Helper()
	if code == "" {
		t.Fatal("a phone's URL carries the table's code")
	}
	bctx := browserTab(t)
	seat := &Seat{Log: func(s string) { t.Log(s) }}
	if err := seat.Prepare(); err != nil {
		t.Fatal(err)
	}
	bctx, cancel := context.WithTimeout(bctx, 60*time.Second)
	t.Cleanup(cancel)
	srv, err := Listen("127.0.0.1:0", hub, seat, code, "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(width, height, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(srv.URL()), chromedp.Poll[chromedp.Void](`typeof masqueSeat !== "undefined"`)); err != nil {
		t.Fatal(err)
	}
	return bctx, srv
}

// drawPage has the page draw pg as the seat would publish it, and
// returns the texts of the elements ids.
func drawPage(t *testing.T, bctx context.Context, pg phoneseat.Page, ids ...string) []string {
	t.Helper()
	raw, err := json.Marshal(pg)
	if err != nil {
		t.Fatal(err)
	}
	js := `masqueDraw(` + string(mustJSON(t, string(raw))) + `); ` + string(mustJSON(t, ids)) + `.map((id) => (document.getElementById(id) || { textContent: "(no #" + id + ")" }).textContent)`
	got, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBrowserHeadingAnswer: when the phone must answer on another's
// turn (The Grimm Masquerade's forced response), the page's heading
// says so, and what, not "bob's turn" (as it did); on its own turn and
// while it waits, the heading is the table's status.
func TestBrowserHeadingAnswer(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "grimm", Token: "secret-token"}), 390, 844)
	q := "bob guessed right with Mask off!: you are the Beast and must unmask (bob gets 2 roses)."
	tab := &seatview.Table{Game: "The Grimm Masquerade", Status: "round 2 of 3 · bob's turn",
		Seats:    []seatview.Seat{{Name: "alice"}, {Name: "mila", You: true, Answers: true}, {Name: "bob", Turn: true}},
		Question: &seatview.Question{Text: q, Forced: true, Choices: []seatview.Choice{{Words: "unmask"}}}}
	got := drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: tab, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "unmask"}}}, "game", "question", "menu")
	t.Logf("answering: %q", got)
	if !strings.Contains(got[0], "you must answer") || !strings.Contains(got[0], q) || strings.HasSuffix(got[0], "bob's turn") {
		t.Errorf("the phone must answer; the heading says %q, want that it must answer, and what (%q)", got[0], q)
	}
	if got[2] != "unmask" {
		t.Errorf("the menu shows %q, want its one answer", got[2])
	}

	// A claim to answer (Mascarade): the question has no words of its
	// own; the claim the seat answers says what.
	claim := &seatview.Table{Game: "Mascarade", Status: "turn 3 · bob's turn", Seats: tab.Seats,
		Notices:  []seatview.Notice{{Title: "Claim", Text: "bob claims to be the King", Window: "challenge window: your answer", Yours: true}},
		Question: &seatview.Question{Choices: []seatview.Choice{{Words: "pass: let the King claim go"}}}}
	got = drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: claim, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "pass: let the King claim go"}}}, "game")
	if got[0] != "Mascarade · your answer (bob's turn): bob claims to be the King" {
		t.Errorf("a claim to answer: the heading says %q, want that the phone answers, and what (the claim)", got[0])
	}

	// The draft (Grimm): each takes an item on the first player's turn;
	// no answer to anyone.
	draft := &seatview.Table{Game: "The Grimm Masquerade", Status: "round 1 of 3 · the draft: each takes an item from the row", Seats: tab.Seats,
		Question: &seatview.Question{Text: "The draft: take one item from the row.", Choices: []seatview.Choice{{Words: "take the Mirror"}}}}
	got = drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: draft, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "take the Mirror"}}}, "game", "question")
	if got[0] != "The Grimm Masquerade · round 1 of 3 · the draft: each takes an item from the row" || got[1] != "The draft: take one item from the row." {
		t.Errorf("the draft: the page says %q, want the table's status and the question under it (no answer to anyone)", got)
	}

	// Waiting for bob: the table's status.
	tab.Question = nil
	got = drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: tab, Waiting: "bob"}, "game")
	if got[0] != "The Grimm Masquerade · round 2 of 3 · bob's turn" {
		t.Errorf("waiting for bob, the heading says %q", got[0])
	}
	// Its own turn: the table's status, the question under it.
	tab.Status, tab.Seats[1].Turn, tab.Seats[2].Turn = "round 2 of 3 · your turn", true, false
	tab.Question = &seatview.Question{Text: "Your items allow an action.", Choices: []seatview.Choice{{Words: "end your turn"}}}
	got = drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: tab, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "end your turn"}}}, "game", "question")
	if got[0] != "The Grimm Masquerade · round 2 of 3 · your turn" || got[1] != "Your items allow an action." {
		t.Errorf("on its own turn the page says %q", got)
	}
}

// TestBrowserCountdown: the page counts down to the seat's deadline
// (Page.UntilMS: the table's, which a reload keeps), not a full time
// left from when it drew the page; drawn again and again as the seat
// publishes, the countdown keeps going down.
func TestBrowserCountdown(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "mascarade", Token: "secret-token"}), 390, 844)
	tab := &seatview.Table{Game: "Mascarade", Status: "bob's turn", Seats: []seatview.Seat{{Name: "mila", You: true}, {Name: "bob", Turn: true}}}
	until := time.Now().Add(40 * time.Second)
	pg := phoneseat.Page{Name: "mila", Seat: 0, Table: tab, Waiting: "bob", LeftMS: 60_000, UntilMS: until.UnixMilli()}
	got := drawPage(t, bctx, pg, "waiting")
	if got[0] != "waiting for bob · 40 s" && got[0] != "waiting for bob · 39 s" {
		t.Errorf("40 s before the table's deadline the page shows %q, want waiting for bob · 40 s", got[0])
	}
	for range 6 {
		time.Sleep(500 * time.Millisecond)
		pg.LeftMS = time.Until(until).Milliseconds()
		got = drawPage(t, bctx, pg, "waiting")
	}
	if got[0] != "waiting for bob · 37 s" && got[0] != "waiting for bob · 36 s" {
		t.Errorf("3 s later, drawn six times, the page shows %q, want waiting for bob · 37 s", got[0])
	}
}

// TestBrowserPhoneChat: in headless Chromium, the phone's page shows the
// table chat and sends the player's lines: typed and sent on the page,
// a line reaches the host and the joiner (signed by the phone's seat in
// its WebAssembly, carried on by the host); the host's line appears on
// the page under its name.
func TestBrowserPhoneChat(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tr := startGame(ctx, t, mascarade.GameName, 3)
	bctx, _ := pageBrowserCode(t, tr.hub, 390, 844, tr.code())
	dir := artifacts(t)
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.ID("who")), chromedp.SendKeys(chromedp.ID("who"), "mila"), chromedp.Click(chromedp.ID("sit"))); err != nil {
		t.Fatal(err)
	}
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	games := map[int]*netsession.Game{}
	for range 2 {
		select {
		case r := <-tr.results:
			if r.err != nil {
				t.Fatal(r.err)
			}
			games[r.seat] = r.g
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}
	// The host's and the joiner's games have started; the phone's seat,
	// slower under load, opens its chat (the input enabled) once it has
	// taken the start in too.
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.ID("line")),
		chromedp.Poll[chromedp.Void](`!document.getElementById("line").disabled`),
		chromedp.SendKeys(chromedp.ID("line"), "hello from mila"), chromedp.Click(chromedp.ID("send"))); err != nil {
		t.Fatal(err)
	}
	saw := func(g *netsession.Game, seat int, text string) bool {
		for _, l := range g.ChatLog() {
			if l.Seat == seat && l.Text == text {
				return true
			}
		}
		return false
	}
	for seat, g := range games {
		for !saw(g, 1, "hello from mila") {
			select {
			case <-ctx.Done():
				t.Fatalf("seat %d never saw the phone's line", seat)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	if err := games[0].Chat("hi mila, welcome"); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(bctx, chromedp.Poll[string](`(() => { const t = document.getElementById("chatlog").textContent; return t.includes("alicehi mila, welcome") && t; })()`))
	if err != nil {
		t.Fatalf("the host's line never showed on the phone: %v", err)
	}
	if !strings.Contains(got, "milahello from mila") {
		t.Errorf("the page's chat shows %q, without the phone's own line", got)
	}
	if v, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.getElementById("line").value`)); v != "" {
		t.Errorf("the line sent stays in the input: %q", v)
	}
	chromedp.Run(bctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("say").scrollIntoView(false)`))
	png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
	if err == nil {
		os.WriteFile(filepath.Join(dir, "chat.png"), png, 0o644)
	}
}

// TestBrowserNamePage: before the player types a name, the page says
// which game the table plays, its code, and who sits there so far (it
// said only "masque"); the table's players are told only with the token.
func TestBrowserNamePage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tr := startGame(ctx, t, "grimm", 3)
	dir := artifacts(t)
	for _, size := range [][2]int64{{390, 844}, {360, 740}} {
		bctx, srv := pageBrowserCode(t, tr.hub, size[0], size[1], tr.code())
		got, err := chromedp.Run(bctx, chromedp.Poll[[]string](`!document.getElementById("name").classList.contains("hidden") && ["game", "tableinfo", "status"].map((id) => (document.getElementById(id) || {}).textContent || "")`))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%dx%d: %q", size[0], size[1], got)
		if want := "Table " + tr.code() + " · 1 of 3 seats taken: alice"; got[0] != "The Grimm Masquerade" || got[1] != want {
			t.Errorf("the name page says %q, want the game (The Grimm Masquerade) and the table (%s)", got, want)
		}
		if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("name-%dx%d.png", size[0], size[1])), png, 0o644)
		}
		for _, tok := range []string{"", "wrong-token", srv.Token() + "x"} {
			req, _ := http.NewRequest("GET", "http://"+srv.Addr()+"/table", nil)
			if tok != "" {
				req.Header.Set(TokenHeader, tok)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("the table's info asked with token %q: %d, want 403", tok, resp.StatusCode)
			}
		}
	}
}

// TestBrowserStorageCleared: a phone seated and playing in Chromium has
// its storage cleared mid-game and opens the table's URL again: the page
// says plainly that the game has started and this phone holds no seat
// (its seat lost with its storage), and asks no name (it does not
// pretend to join as a new seat); the table treats the seat as gone as
// it treats a seat whose state directory was lost: every other seat
// times it out (a timeout verdict naming seat 1), and no seat is taken
// again.
func TestBrowserStorageCleared(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tr := startGameTimeout(ctx, t, mascarade.GameName, 3, 4*time.Second)
	bctx, srv := pageBrowserCode(t, tr.hub, 390, 844, tr.code())
	dir := artifacts(t)
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.ID("who")), chromedp.SendKeys(chromedp.ID("who"), "mila"), chromedp.Click(chromedp.ID("sit"))); err != nil {
		t.Fatal(err)
	}
	tr.waitTaken(ctx, t, 2)
	tr.startJoiner(ctx, t)
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS("#seats .seat"))); err != nil {
		t.Fatal(err)
	}
	// The player taps until the phone holds a few entries.
	for taps := 0; taps < 3; {
		what, err := chromedp.Run(bctx, chromedp.Evaluate[string](clickJS))
		if err != nil {
			t.Fatal(err)
		}
		if what == "over" {
			t.Fatal("the game ended before the storage was cleared")
		}
		if what == "tap" {
			taps++
		}
		time.Sleep(150 * time.Millisecond)
	}
	// The page closes; its storage is cleared; the URL is opened again.
	origin := "http://" + srv.Addr()
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bctx, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "all"}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL())); err != nil {
		t.Fatal(err)
	}
	var got []string
	for deadline := time.Now().Add(20 * time.Second); ; {
		var err error
		got, err = chromedp.Run(bctx, chromedp.Evaluate[[]string](`((g) => [document.getElementById("status").textContent, String(!g || g.classList.contains("hidden")), String(document.getElementById("name").classList.contains("hidden"))])(document.getElementById("gone"))`))
		if err != nil {
			t.Fatal(err)
		}
		if got[1] == "false" {
			break
		}
		if time.Now().After(deadline) {
			st, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
			t.Fatalf("the page never said the seat is gone; it shows %q", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the page says %q", got)
	if !strings.Contains(got[0], "has started") || !strings.Contains(got[0], "no seat") || got[2] != "true" {
		t.Errorf("after its storage was cleared the page says %q, name form hidden %s; want that the game started and it holds no seat, and no name asked", got[0], got[2])
	}
	if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
		os.WriteFile(filepath.Join(dir, "storage-cleared.png"), png, 0o644)
	}
	// The table: every other seat times the phone's seat out.
	for range 2 {
		var r seatRes
		select {
		case r = <-tr.results:
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
		out, err := r.g.Result()
		if err != nil {
			t.Fatalf("seat %d: %v", r.seat, err)
		}
		if out.Verdict == nil || out.Verdict.Seat != 1 || out.Verdict.Kind != roomcore.VerdictTimeout {
			t.Fatalf("seat %d ended with %+v, want a timeout verdict naming seat 1 (the phone's)", r.seat, out.Verdict)
		}
		t.Logf("seat %d: %v", r.seat, out.Verdict)
	}
	if taken, _ := tr.tbl.Taken(); taken != 3 {
		t.Errorf("%d seats taken after the phone came back without its storage, want 3", taken)
	}
}

// TestBrowserNotices: the page shows the table's counters (Mascarade's
// court and bank, Mafia's living) and its notices (a claim and who must
// answer it, the vote, the morning's news), as the --web page does; it
// showed neither. At the end the empty question and menu take no room.
func TestBrowserNotices(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "mascarade", Token: "secret-token"}), 390, 844)
	tab := &seatview.Table{Game: "Mascarade", Status: "turn 4 · alice's turn", Seats: []seatview.Seat{{Name: "alice", Turn: true}, {Name: "mila", You: true}},
		Counters: []seatview.Attr{{Name: "court", Value: "3", Words: "court 3"}, {Name: "bank", Value: "40", Words: "bank 40"}},
		Notices:  []seatview.Notice{{Title: "Claim", Text: "alice claims to be the King", Window: "challenge window: mila to answer", Yours: true}}}
	got := drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 1, Table: tab, Waiting: "alice"}, "notices")
	if got[0] != "court 3 · bank 40Claimalice claims to be the Kingchallenge window: mila to answer" {
		t.Errorf("the page's notices say %q, want the court, the bank and the claim with its window", got[0])
	}
	tab.Over, tab.Notices, tab.Outcome = true, nil, "you lost"
	raw, _ := json.Marshal(phoneseat.Page{Name: "mila", Seat: 1, Table: tab, Over: true})
	hidden, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`masqueDraw(`+string(mustJSON(t, string(raw)))+`); document.getElementById("turn").offsetHeight === 0`))
	if err != nil || !hidden {
		t.Errorf("at the end the empty turn section takes room (%v)", err)
	}
}

// TestBrowserAnswerWindow: a claim to answer passes by itself when its
// answer window runs out (the table's --challenge-window, 30 s by
// default), long before the move's own time; the page counts down to
// the window, saying that the seat then passes, as the terminal does
// ("29s left, then you pass"). It showed "5:00 left to move".
func TestBrowserAnswerWindow(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "mascarade", Token: "secret-token"}), 360, 740)
	claim := &seatview.Table{Game: "Mascarade", Status: "turn 3 · bob's turn",
		Seats:    []seatview.Seat{{Name: "mila", You: true, Answers: true}, {Name: "bob", Turn: true}},
		Notices:  []seatview.Notice{{Title: "Claim", Text: "bob claims to be the King", Window: "challenge window: your answer", Yours: true}},
		Question: &seatview.Question{Window: true, Choices: []seatview.Choice{{Words: "pass: let the King claim go"}}}}
	now := time.Now()
	pg := phoneseat.Page{Name: "mila", Seat: 0, Table: claim, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "pass: let the King claim go"}},
		LeftMS: 300_000, UntilMS: now.Add(5 * time.Minute).UnixMilli(), WindowUntilMS: now.Add(25 * time.Second).UnixMilli()}
	got := drawPage(t, bctx, pg, "waiting")
	if got[0] != "25 s left to answer, then you pass" && got[0] != "24 s left to answer, then you pass" {
		t.Errorf("a claim to answer, its window running out in 25 s: the page shows %q, want \"25 s left to answer, then you pass\"", got[0])
	}
	// The claim answered, the seat's own move: the move's time again.
	own := &seatview.Table{Game: "Mascarade", Status: "turn 4 · your turn", Seats: []seatview.Seat{{Name: "mila", You: true, Turn: true}, {Name: "bob"}},
		Question: &seatview.Question{Text: "Your move", Choices: []seatview.Choice{{Words: "peek"}}}}
	got = drawPage(t, bctx, phoneseat.Page{Name: "mila", Seat: 0, Table: own, MyTurn: true, Menu: []phoneseat.MenuLine{{Label: "peek"}},
		LeftMS: 300_000, UntilMS: time.Now().Add(5 * time.Minute).UnixMilli()}, "waiting")
	if got[0] != "5:00 left to move" && got[0] != "4:59 left to move" {
		t.Errorf("on its own move after the claim the page shows %q, want the move's time (5:00 left to move)", got[0])
	}
}

// TestBrowserNamePageNotHost: served by a machine that is not the
// table's host (join --phones, masque phones: it knows neither the game
// nor who sits before the game starts), the name page names the table
// by its code and says nothing false: it said "0 seated" (two sat
// there) under an empty heading. (Its foot, which said that the table's
// host served the page, names the machine that serves it:
// TestBrowserServedBy.)
func TestBrowserNamePageNotHost(t *testing.T) {
	bctx, _ := pageBrowserCode(t, NewHub(Config{Token: "secret-token"}), 360, 740, testCode)
	got, err := chromedp.Run(bctx, chromedp.Poll[[]string](`!document.getElementById("name").classList.contains("hidden") && ["game", "tableinfo", "status"].map((id) => (document.getElementById(id) || {}).textContent || "").concat([document.querySelector("footer").textContent])`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q", got)
	if got[0] == "" || got[1] != "Table "+testCode {
		t.Errorf("the name page from a machine that knows only the table's code says %q, %q; want a heading and \"Table %s\" (nothing of seats it does not know)", got[0], got[1], testCode)
	}
}

// TestBrowserNamePageUnannounced: the name page served for a table known
// only by its invite (join --phones of an --unlisted table: nothing
// names its game or players before its roster) says what the machine
// knows, the table's seats as its creator told them, and why it names
// no game or players; it said only the code, under "masque".
func TestBrowserNamePageUnannounced(t *testing.T) {
	h := NewHub(Config{Token: "secret-token"})
	h.SetCreator(peer.AddrInfo{}, [16]byte{1}, 2)
	h.SetTotal(4)
	bctx, _ := pageBrowserCode(t, h, 390, 844, testCode)
	got, err := chromedp.Run(bctx, chromedp.Poll[[]string](`!document.getElementById("name").classList.contains("hidden") && ["game", "tableinfo", "status"].map((id) => (document.getElementById(id) || {}).textContent || "")`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q", got)
	if want := "Table " + testCode + " · 4 seats · not announced: its game and players are shown when every seat is taken and the game starts"; got[1] != want {
		t.Errorf("the name page of a table known by its invite says %q, want %q", got[1], want)
	}
	if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
		os.WriteFile(filepath.Join(artifacts(t), "name-unannounced-390x844.png"), png, 0o644)
	}
}

// TestBrowserDownloadName: the transcript the page downloads at the end
// is named as masque names its own (.masque, here with the table's
// code), not "masque.transcript", and the page says how to check it.
func TestBrowserDownloadName(t *testing.T) {
	bctx, _ := pageBrowserCode(t, NewHub(Config{Game: "mascarade", Token: "secret-token"}), 360, 740, "K7PL-UM23-AB4C")
	const js = `(() => {
  masqueSeat.transcript = () => new Uint8Array([1, 2, 3]);
  let name = "";
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () { name = this.download; };
  document.getElementById("download").click();
  HTMLAnchorElement.prototype.click = click;
  return [name, document.getElementById("over").textContent];
})()`
	got, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != "masque-K7PL-UM23-AB4C.masque" {
		t.Errorf("the downloaded transcript is named %q, want masque-K7PL-UM23-AB4C.masque", got[0])
	}
	if !strings.Contains(got[1], "masque verify") {
		t.Errorf("the end of the game says %q: nothing of how to check the transcript (masque verify)", got[1])
	}
}

// TestBrowserAreaWords: an area is shown in the view's words when it
// has them (the page read a.Words, which the JSON never has: it showed
// "centre: 2" for "centre: 2 cards, face down"), and a marked area with
// nothing marked yet (Grimm's portraits before any hint token) says so
// instead of a bare "portraits".
func TestBrowserAreaWords(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "mascarade2", Token: "secret-token"}), 360, 740)
	tab := &seatview.Table{Game: "Mascarade (2nd edition)", Status: "bob's turn", Seats: []seatview.Seat{{Name: "mila", You: true}, {Name: "bob", Turn: true}},
		Areas: []seatview.Area{
			{Name: "centre", Count: 2, Cards: []seatview.Card{{}, {}}, Words: "centre: 2 cards, face down"},
			{Name: "portraits", Count: -1, Marked: true, Cards: []seatview.Card{{Name: "Cinderella"}, {Name: "the Beast"}}},
		}}
	got := drawPage(t, bctx, phoneseat.Page{Name: "mila", Table: tab, Waiting: "bob"}, "areas")
	t.Logf("%q", got[0])
	if !strings.Contains(got[0], "centre: 2 cards, face down") {
		t.Errorf("the areas read %q, want the view's words \"centre: 2 cards, face down\"", got[0])
	}
	if !strings.Contains(got[0], "portraits: none marked yet") {
		t.Errorf("the areas read %q, want the portraits with nothing marked to say so (portraits: none marked yet)", got[0])
	}
}

// TestBrowserChatPlaceholderFits: the chat line's placeholder, open or
// closed to the player (Mafia's out players, the end of the game), is
// read whole on a 360-pixel phone; the closed one was cut ("You may not
// write in the ch").
func TestBrowserChatPlaceholderFits(t *testing.T) {
	bctx, _ := pageBrowser(t, NewHub(Config{Game: "mafia", Token: "secret-token"}), 360, 740)
	tab := &seatview.Table{Game: "Mafia: Random Incident", Status: "day 2 · bob's turn", Seats: []seatview.Seat{{Name: "mila", You: true}, {Name: "bob", Turn: true}}}
	const fits = `(() => { const i = document.getElementById("line"), cs = getComputedStyle(i);
  const c = document.createElement("canvas").getContext("2d"); c.font = cs.font;
  const room = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  return [i.placeholder, String(c.measureText(i.placeholder).width <= room), c.font + " " + c.measureText(i.placeholder).width + " " + room]; })()`
	for _, may := range []bool{true, false} {
		drawPage(t, bctx, phoneseat.Page{Name: "mila", Table: tab, Waiting: "bob", MayChat: may}, "line")
		got, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](fits))
		if err != nil {
			t.Fatal(err)
		}
		if got[1] != "true" {
			t.Errorf("may chat %v: the placeholder %q is cut on a 360-pixel phone (font, width, room: %s)", may, got[0], got[2])
		}
	}
}

// TestBrowserServedBy: the page's foot names the machine that serves it
// (the host's, another player's, one holding no seat), next to the build
// hash that machine says it serves; it said "as the table's host serves
// it" on every machine, wrong for 'masque join --phones' and 'masque
// phones'.
func TestBrowserServedBy(t *testing.T) {
	bctx, srv := pageBrowser(t, NewHub(Config{Game: "mascarade"}), 390, 844)
	for _, role := range []Role{RoleHost, RoleJoiner, RoleForwarder} {
		srv.SetRole(role)
		if err := chromedp.Do(bctx, chromedp.Reload(), chromedp.Poll[chromedp.Void](`typeof masqueSeat !== "undefined"`)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(bctx, chromedp.Poll[string](`(() => { const e = document.getElementById("servedby"); const b = document.getElementById("build");
  return e && b && b.textContent !== "…" && e.textContent !== "its machine" ? document.querySelector("footer p").textContent : (e ? false : "no #servedby: " + document.querySelector("footer p").textContent); })()`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(got, "served by "+role.String()+", which says its code is SHA-256 ") || strings.Contains(got, "host serves it") {
			t.Errorf("role %d: the page's foot says %q, want it served by %q", role, got, role)
		}
	}
}
