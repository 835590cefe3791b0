package phone

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHandTypedLink: a phone's address typed by hand often lacks
// the part after # (the table's code and this machine's key), or cuts
// the key. The page says what is missing and where the right link comes
// from, and loads no seat: without the key it could neither find a
// seat stored on the phone nor be let in (it asked a name, then tried
// to connect for ever). A well-formed key this machine does not know (a
// link of another table) is told apart. An address with the key but
// without the table's code (or with the code cut) loads no seat either:
// a seat without the code could not tell its table from another (the
// version before loaded it, and its seat signed any table's roster;
// phoneseat's TestOfferCode: it now signs none).
func TestBrowserHandTypedLink(t *testing.T) {
	exe := findChromium(t)
	seat := &Seat{Log: func(s string) { t.Log(s) }}
	if err := seat.Prepare(); err != nil {
		t.Fatal(err)
	}
	srv, err := Listen("127.0.0.1:0", NewHub(Config{Game: "mafia"}), seat, "K7PL-UM23-AB4C", "")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(stopAlloc)
	base := "http://" + srv.Addr() + "/"
	dir := artifacts(t)
	for i, tc := range []struct{ url, want string }{
		{base, "This address lacks the table's code and key, the part after # in the link masque printed"},
		{base + "#K7PL-UM23-AB4C", "is cut or mistyped"},
		{base + "#K7PL-UM23-AB4C-" + srv.Token()[:20], "is cut or mistyped"},
		{base + "#K7PL-UM23-AB4C-" + strings.Repeat("0", 32), "This machine does not know this address's key"},
		{base + "#" + srv.Token(), "This address lacks the table's code (…/#CODE-KEY: the link has only the key): without it this phone cannot tell its table from another and takes no seat"},
		{base + "#-" + srv.Token(), "lacks the table's code"},
		{base + "#K7PL-UM23-" + srv.Token(), "table code (before the key, 12 letters and digits) is cut or mistyped"},
	} {
		bctx, stop := chromedp.NewContext(alloc)
		bctx, cancel := context.WithTimeout(bctx, 60*time.Second)
		err := chromedp.Do(bctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch), chromedp.Navigate(tc.url))
		var status string
		if err == nil {
			status, err = chromedp.Run(bctx, chromedp.Poll[string](`(() => { const s = document.getElementById("status").textContent; return s.includes("QR code") ? s : ""; })()`))
		}
		if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("link-%d.png", i)), png, 0o644)
		}
		cancel()
		stop()
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		if !strings.Contains(status, tc.want) || !strings.Contains(status, "masque host --phones") {
			t.Errorf("%s: the page says %q, want %q and where the link comes from", tc.url, status, tc.want)
		}
	}
}
