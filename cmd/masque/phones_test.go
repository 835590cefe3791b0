package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var phoneURLRE = regexp.MustCompile(`phones: open (http://127\.0\.0\.1:\d+/#[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9a-f]{32})`)

// TestHostPhones: 'masque host --phones' as a player runs it: headless
// Chromium, as a phone (390×844, touch), opens the URL the host prints,
// takes a seat and plays a whole Mascarade game against the host's bot
// and a 'masque join --bot' process; the phone's transcript (downloaded
// from its page) is the host's and the joiner's, and 'masque verify'
// accepts it.
func TestHostPhones(t *testing.T) {
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
	dir := t.TempDir()
	cfg := func(i int) string { return filepath.Join(dir, "cfg", string(rune('0'+i))) }
	state := func(i int) string { return filepath.Join(dir, "state", string(rune('0'+i))) }
	tr := func(i int) string { return filepath.Join(dir, "t"+string(rune('0'+i))+".masque") }
	type res struct {
		code     int
		out, err string
	}
	results := make([]res, 2)
	hostErr := &syncBuffer{}
	var wg sync.WaitGroup
	wg.Go(func() {
		var out bytes.Buffer
		c := run([]string{"host", "--bot", "--game", "mascarade", "--players", "3", "--name", "phones", "--player", "Anna", "--seed", "1",
			"--no-mdns", "--wait", "90s", "--config", cfg(0), "--state", state(0), "--transcript", tr(0),
			"--listen", "/ip4/127.0.0.1/tcp/0", "--phones", "--phones-addr", "127.0.0.1:0", "--json"}, nil, &out, hostErr)
		results[0] = res{c, out.String(), hostErr.String()}
	})
	url := pollFor(phoneURLRE, 20*time.Second, hostErr.String)
	invite := pollFor(inviteRE, 20*time.Second, hostErr.String)
	if url == "" || invite == "" {
		wg.Wait()
		t.Fatalf("the host printed no phone URL or no invite:\n%s", hostErr.String())
	}
	// The QR code (19 lines) comes last, after the table's lines, so that
	// it is whole on a 24-line terminal.
	pollFor(regexp.MustCompile(`(waiting for players: 1/3)`), 20*time.Second, hostErr.String)
	if out := hostErr.String(); strings.Index(out, "phones: open") < strings.Index(out, "waiting for players: 1/3") {
		t.Errorf("the phones' URL is printed before the table's lines, which push its QR code off a 24-line terminal:\n%s", out)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer stopAlloc()
	ctx, cancel := context.WithTimeout(alloc, 150*time.Second)
	defer cancel()
	bctx, stop := chromedp.NewContext(ctx)
	defer stop()
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("who"))); err != nil {
		t.Fatalf("the phone's page: %v\nhost:\n%s", err, hostErr.String())
	}
	if err := chromedp.Do(bctx, chromedp.SendKeys(chromedp.ID("who"), "mila"), chromedp.Click(chromedp.ID("sit"))); err != nil {
		t.Fatal(err)
	}
	if pollFor(regexp.MustCompile(`(mila) joined \(phone\)`), 30*time.Second, hostErr.String) == "" {
		t.Fatalf("the host did not seat the phone:\n%s", hostErr.String())
	}
	wg.Go(func() {
		c, o, e := runOut("join", "--bot", invite, "--seed", "2",
			"--config", cfg(1), "--state", state(1), "--transcript", tr(1), "--listen", "/ip4/127.0.0.1/tcp/0")
		results[1] = res{c, o, e}
	})
	const tap = `(() => {
  if (!document.getElementById("over").classList.contains("hidden")) return "over";
  const bs = [...document.querySelectorAll("#menu button:not(.back)")];
  if (!bs.length) return "wait";
  bs[Math.floor(Math.random() * bs.length)].click();
  return "tap";
})()`
	for {
		what, err := chromedp.Run(bctx, chromedp.Evaluate[string](tap))
		if err != nil {
			t.Fatalf("the phone: %v\nhost:\n%s", err, hostErr.String())
		}
		if what == "over" {
			break
		}
		time.Sleep(120 * time.Millisecond)
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("peer %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, r.code, r.out, r.err)
		}
	}
	raw, err := chromedp.Run(bctx, chromedp.Evaluate[[]int](`Array.from(masqueSeat.transcript() || [])`))
	if err != nil {
		t.Fatal(err)
	}
	phoneTr := make([]byte, len(raw))
	for i, v := range raw {
		phoneTr[i] = byte(v)
	}
	for i := range 2 {
		got, err := os.ReadFile(tr(i))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, phoneTr) {
			t.Fatalf("the phone's transcript differs from peer %d's", i)
		}
	}
	// The state directory keeps the phones' address and token: the same
	// command again serves the phones where their pages' storage is.
	kept, err := os.ReadFile(filepath.Join(state(0), phonesFile))
	if f := strings.Fields(string(kept)); err != nil || len(f) != 2 || !strings.HasPrefix(url, "http://"+f[0]+"/#") || !strings.HasSuffix(url, "-"+f[1]) {
		t.Errorf("%s: %q (%v), want the address and token of %s", phonesFile, kept, err, url)
	}
	path := filepath.Join(dir, "phone.masque")
	if err := os.WriteFile(path, phoneTr, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runOut("verify", path); code != 0 || !strings.Contains(out+errOut, "mila") {
		t.Errorf("verify the phone's transcript: exit %d\n%s%s", code, out, errOut)
	}
}
