package phone

import (
	"context"
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/masque-games/masque/cmd/masque/internal/browsertest"
)

// chromium is the package's one headless Chromium (browsertest: each
// test a browser context of its own, so that no test sees another's
// storage: TestBrowserStorageCleared, TestBrowserPhonePlays' reload from
// IndexedDB). evil.test is TestBrowserOtherOrigins' DNS rebinding name;
// no other test names it.
var chromium = &browsertest.Browser{Flags: []chromedp.ExecAllocatorOption{
	chromedp.Flag("host-resolver-rules", "MAP evil.test 127.0.0.1")}}

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.Close()
	os.Exit(code)
}

// browserTab returns a tab of the package's Chromium (started at the
// first call) in a browser context of its own, closed with the test.
// It skips the test when there is no Chromium.
func browserTab(t *testing.T) context.Context {
	t.Helper()
	tab, cancel, err := chromium.Context(findChromium(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return tab
}
