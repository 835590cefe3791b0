// Package browsertest shares one headless Chromium among the browser
// tests of a test binary. Starting Chromium cost each test 1–3 s of a
// loaded 2-core machine; a test gets instead a browser context of its
// own (Target.createBrowserContext, an incognito profile: its own
// cookies, cache, localStorage and IndexedDB) in the shared browser,
// disposed of when the test is done, so that no test sees another's
// storage.
package browsertest

import (
	"context"
	"fmt"
	"sync"

	"github.com/chromedp/chromedp"
)

// Browser is a headless Chromium started at the first Context and
// stopped by Close. Its zero value is ready; Flags are set before the
// first Context.
type Browser struct {
	// Flags are added to chromedp's default allocator options (with
	// the binary, --no-sandbox and --disable-gpu).
	Flags []chromedp.ExecAllocatorOption

	mu   sync.Mutex
	root context.Context // the browser's first tab; nil until started
	stop []context.CancelFunc
	err  error
}

// Context starts the browser exe if it is not running, and returns a
// chromedp context in a new browser context of it, with its own tab:
// chromedp.NewContext of it opens more tabs in the same browser
// context. cancel closes them and disposes of the browser context.
func (b *Browser) Context(exe string) (ctx context.Context, cancel context.CancelFunc, err error) {
	root, err := b.start(exe)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel = chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	// The browser context is made by the first action: a child made
	// before it would open its tab in the default one.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("a new browser context in %s: %w", exe, err)
	}
	return ctx, cancel, nil
}

func (b *Browser) start(exe string) (context.Context, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.root != nil || b.err != nil {
		return b.root, b.err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true))
	opts = append(opts, b.Flags...)
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

// Close stops the browser, if it was started.
func (b *Browser) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, stop := range b.stop {
		stop()
	}
	b.stop = nil
}
