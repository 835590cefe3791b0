package phone

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// One headless Chromium serves every browser test of the package: each
// test started its own (1–3 s each on a loaded 2-core machine, for some
// fifteen tests). Each test gets a tab of its own in a browser context of
// its own (Target.createBrowserContext, an incognito profile: its own
// cookies, cache, localStorage and IndexedDB), disposed of at the test's
// end, so that no test sees another's storage
// (TestBrowserStorageCleared, TestBrowserPhonePlays' reload from
// IndexedDB).

// sharedBrowser is the package's Chromium, started by the first test
// that asks for a tab and stopped by TestMain.
type sharedBrowser struct {
	mu   sync.Mutex
	root context.Context // the browser's first tab; nil until started
	stop []context.CancelFunc
	err  error
}

var chromium sharedBrowser

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.close()
	os.Exit(code)
}

// browserTab returns a new tab of the package's Chromium (started at the
// first call), in a browser context of its own, closed with the test.
// It skips the test when there is no Chromium.
func browserTab(t *testing.T) context.Context {
	t.Helper()
	root, err := chromium.start(findChromium(t))
	if err != nil {
		t.Fatal(err)
	}
	tab, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return tab
}

func (b *sharedBrowser) start(exe string) (context.Context, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.root != nil || b.err != nil {
		return b.root, b.err
	}
	// evil.test is TestBrowserOtherOrigins' DNS rebinding name; no other
	// test names it.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("host-resolver-rules", "MAP evil.test 127.0.0.1"))
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	root, stopRoot := chromedp.NewContext(alloc)
	b.stop = []context.CancelFunc{stopRoot, stopAlloc}
	if err := chromedp.Do(root); err != nil {
		b.err = fmt.Errorf("starting %s: %w", exe, err)
		return nil, b.err
	}
	b.root = root
	return root, nil
}

func (b *sharedBrowser) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, stop := range b.stop {
		stop()
	}
}
