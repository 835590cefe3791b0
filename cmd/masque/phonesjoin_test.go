package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/phone"
	"github.com/masque-games/masque/engine/ledger"
)

// urlCode is the table's join code in a phones' URL (phoneURLRE).
func urlCode(u string) string {
	f := u[strings.Index(u, "#")+1:]
	return f[:strings.LastIndex(f, "-")]
}

func chromiumOrSkip(t *testing.T) string {
	t.Helper()
	exe := os.Getenv("MASQUE_CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if exe != "" {
			break
		}
		exe, _ = exec.LookPath(name)
	}
	if exe == "" {
		t.Skip("no chromium binary found (install Debian's 'chromium', or set MASQUE_CHROMIUM): the phone test is skipped")
	}
	return exe
}

// TestJoinAndPhonesServePhones: the two other ways to serve phones, as
// players run them, at one Mascarade table of four: 'masque host --bot'
// (no phones of its own), 'masque join --bot --phones' (a joiner's
// machine is the path of the phone it seats, as the host's is with
// host --phones), and 'masque phones INVITE' (a process next to the
// table that holds no seat: its own identity, the path of its phone).
// Headless Chromium opens each URL as a phone; both phones take seats
// through their servers (a forwarded join request to the host) and play
// the game to its end; every transcript (the host's, the joiner's, each
// phone's, downloaded from its page) is the same and 'masque verify'
// accepts the phones'. 'masque join --phones' and 'masque phones',
// killed (SIGKILL) once the game has begun and run again with the same
// commands, serve their phones at the same URLs, the phones resume their
// seats (and the joiner its own), and 'masque phones' ends by itself once
// the game is over. Both URLs carry the host's join code (by invite too:
// it is asked of the host before the URL is printed), the same after the
// restart. The page shows the build hash 'masque version' prints,
// computed from the same bytes, and names the machine that serves it.
func TestJoinAndPhonesServePhones(t *testing.T) {
	exe := chromiumOrSkip(t)
	began := time.Now()
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, "cfg", string(rune('0'+i))) }
	state := func(i int) string { return filepath.Join(dir, "state", string(rune('0'+i))) }
	tr := func(i int) string { return filepath.Join(dir, "t"+string(rune('0'+i))+".masque") }
	type res struct {
		code     int
		out, err string
	}
	results := make([]res, 1)
	errs := []*syncBuffer{{}}
	var wg sync.WaitGroup
	wg.Go(func() {
		var out bytes.Buffer
		c := run([]string{"host", "--bot", "--game", "mascarade", "--players", "4", "--name", "phones2", "--player", "Anna", "--seed", "1",
			"--no-mdns", "--wait", "120s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0", "--json"}, nil, &out, errs[0])
		results[0] = res{c, out.String(), errs[0].String()}
	})
	invite := pollFor(inviteRE, 20*time.Second, errs[0].String)
	if invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no invite:\n%s", errs[0].String())
	}
	// 'masque join --phones' and 'masque phones' are processes of their
	// own, killed mid-game and run again with the same commands.
	xdg := filepath.Join(dir, "xdg")
	joinArgs := []string{"join", "--bot", invite, "--seed", "2", "--player", "Bob", "--config", cfg(1), "--state", state(1), "--transcript", tr(1),
		"--listen", "/ip4/127.0.0.1/tcp/0", "--phones", "--phones-addr", "127.0.0.1:0", "--json"}
	phonesArgs := []string{"phones", invite, "--state", state(2), "--listen", "/ip4/127.0.0.1/tcp/0", "--phones-addr", "127.0.0.1:0"}
	join := startChild(t, xdg, filepath.Join(dir, "join.out"), joinArgs...)
	phones := startChild(t, xdg, filepath.Join(dir, "phones.out"), phonesArgs...)
	all := func() string {
		return "host:\n" + errs[0].String() + "\njoin --phones:\n" + join.output() + "\nphones:\n" + phones.output()
	}
	urls := []string{join.waitFor(t, phoneURLRE, 20*time.Second)[1], phones.waitFor(t, phoneURLRE, 20*time.Second)[1]}
	// Both URLs carry a join code (phoneURLRE), the same: by invite, the
	// table's code is learnt from the host before the URL is printed (it
	// was printed without one, and the phone then signed any table's
	// roster); it is checked against the signed roster at the end.
	if urlCode(urls[0]) != urlCode(urls[1]) {
		t.Fatalf("the phones' URLs name two tables: %s and %s\n%s", urls[0], urls[1], all())
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer stopAlloc()
	ctx, cancel := context.WithTimeout(alloc, 180*time.Second)
	defer cancel()
	browser, stop := chromedp.NewContext(ctx)
	defer stop()
	if err := chromedp.Do(browser); err != nil {
		t.Fatal(err)
	}
	var tabs []context.Context
	for i, u := range urls {
		tab, closeTab := chromedp.NewContext(browser)
		defer closeTab()
		name := []string{"mila", "noor"}[i]
		if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
			chromedp.Navigate(u), chromedp.WaitVisible(chromedp.ID("who")),
			chromedp.SendKeys(chromedp.ID("who"), name), chromedp.Click(chromedp.ID("sit"))); err != nil {
			t.Fatalf("phone %s: %v\n%s", name, err, all())
		}
		if pollFor(regexp.MustCompile(`(`+name+`) joined \(phone\)`), 60*time.Second, []func() string{join.output, phones.output}[i]) == "" {
			t.Fatalf("phone %s was not seated:\n%s", name, all())
		}
		tabs = append(tabs, tab)
	}
	const tap = `(() => {
  if (!document.getElementById("over").classList.contains("hidden")) return "over";
  const bs = [...document.querySelectorAll("#menu button:not(.back)")];
  if (!bs.length) return "wait";
  bs[Math.floor(Math.random() * bs.length)].click();
  return "tap";
})()`
	over := make([]bool, len(tabs))
	restarted := false
	for !over[0] || !over[1] {
		if !restarted && strings.Contains(phones.output(), "seated: table") {
			// The game has begun: kill both phones' servers (SIGKILL) and
			// run the same commands again; each phone reconnects to the
			// same URL and resumes its seat, and the joiner its own.
			time.Sleep(time.Second)
			join.kill(t)
			phones.kill(t)
			join = startChild(t, xdg, filepath.Join(dir, "join2.out"), joinArgs...)
			phones = startChild(t, xdg, filepath.Join(dir, "phones2.out"), phonesArgs...)
			phones.waitFor(t, regexp.MustCompile(`serving the phones of table \S+ again`), 20*time.Second)
			for i, c := range []*child{join, phones} {
				if got := c.waitFor(t, phoneURLRE, 20*time.Second)[1]; got != urls[i] {
					t.Fatalf("restarted, %s serves %s, not %s", c.out, got, urls[i])
				}
			}
			restarted = true
			t.Logf("'masque join --phones' and 'masque phones' killed and run again at %v", time.Since(began).Round(time.Millisecond))
		}
		for i, tab := range tabs {
			if over[i] {
				continue
			}
			what, err := chromedp.Run(tab, chromedp.Evaluate[string](tap))
			if err != nil {
				t.Fatalf("phone %d: %v\n%s", i, err, all())
			}
			over[i] = what == "over"
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("both phones' games over at %v", time.Since(began).Round(time.Millisecond))
	wg.Wait()
	join.wait(t, 60*time.Second)
	phones.wait(t, 60*time.Second)
	t.Logf("every process ended at %v", time.Since(began).Round(time.Millisecond))
	if !strings.Contains(phones.output(), "the game is over") {
		t.Errorf("'masque phones' did not see the end:\n%s", phones.output())
	}
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("process %d: exit %d\nstdout:\n%s\n%s", i, r.code, r.out, all())
		}
	}
	want, err := os.ReadFile(tr(0))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(tr(1)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the joiner's transcript differs from the host's (%v)", err)
	}
	if tx, err := ledger.UnmarshalTranscript(want); err != nil {
		t.Fatal(err)
	} else if code := rosterCode(tx.Roster); urlCode(urls[0]) != code {
		t.Fatalf("the phones' URLs name the table %s, the game's is %s", urlCode(urls[0]), code)
	}
	for i, tab := range tabs {
		raw, err := chromedp.Run(tab, chromedp.Evaluate[[]int](`Array.from(masqueSeat.transcript() || [])`))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(raw))
		for j, v := range raw {
			got[j] = byte(v)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("phone %d's transcript differs from the host's", i)
		}
		path := filepath.Join(dir, "phone"+string(rune('0'+i))+".masque")
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := runOut("verify", path); code != 0 {
			t.Errorf("verify phone %d's transcript: exit %d\n%s%s", i, code, out, errOut)
		}
	}
	// The build hash: the page's foot shows what 'masque version' prints.
	shown, err := chromedp.Run(tabs[0], chromedp.Evaluate[string](`document.getElementById("build").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runOut("version", "--json")
	var v map[string]string
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("version --json: exit %d\n%s%s", code, out, errOut)
	}
	if short := phone.ShortHash(v["phone_page"]); len(short) != 16 || strings.TrimSpace(shown) != short {
		t.Errorf("the page shows build %q, 'masque version' prints %q", shown, short)
	}
	if code, out, _ := runOut("version"); code != 0 || !strings.Contains(out, "phone page: "+strings.TrimSpace(shown)) {
		t.Errorf("'masque version' does not print the page's hash %q:\n%s", shown, out)
	}
	// The page's foot names the machine that serves it: it said "the
	// table's host" on every machine.
	for i, want := range []phone.Role{phone.RoleJoiner, phone.RoleForwarder} {
		by, err := chromedp.Run(tabs[i], chromedp.Evaluate[string](`(document.getElementById("servedby") || {}).textContent || ""`))
		if err != nil {
			t.Fatal(err)
		}
		if by != want.String() {
			t.Errorf("phone %d's page says it is served by %q, want %q", i, by, want)
		}
	}
}
