package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestAdminPageInBrowser signs a staff user in to /admin in headless Chromium and
// checks what a merchant sees: the figures of a store with an order, the two charts
// drawn, top products, low stock and webhook health, with no console error and no
// request to another host. The screenshot is checked element by element: each main
// element is on screen, and each chart's area is drawn on (not blank). ADMIN_SCREENSHOT
// names a file to keep the picture. Runs when Chromium is installed (`make browser`;
// CI installs it).
func TestAdminPageInBrowser(t *testing.T) {
	t.Parallel()
	chrome, ta := browserApp(t, "/admin")
	ctx := context.Background()
	if _, err := ta.app.Identity.CreateAdmin(ctx, "owner@example.com", "Owner12345"); err != nil {
		t.Fatal(err)
	}
	auth := ta.adminAuth()
	drain := func() { ta.relay(5) }
	mustCreate := func(path string, body map[string]any) map[string]any {
		t.Helper()
		return ta.created(path, body, auth...)
	}
	kettle := mustCreate("/api/v1/products", map[string]any{"title": "Copper kettle", "price": "40.00", "currency": "USD", "inventory_quantity": 20})
	mustCreate("/api/v1/products", map[string]any{"title": "Tea strainer", "price": "6.00", "currency": "USD", "inventory_quantity": 2, "low_stock_threshold": 5})
	drain()
	mustCreate("/api/v1/orders", map[string]any{"email": "buyer@example.com", "inventory_behaviour": "decrement_obeying_policy",
		"line_items": []any{map[string]any{"product_id": kettle["id"], "quantity": 2}}})
	mustCreate("/api/v1/webhooks", map[string]any{"url": "http://127.0.0.1:9/hooks", "events": []string{"order.created"}})
	drain()

	// The browser reaches the app at its own origin; any other host is recorded.
	var mu sync.Mutex
	var foreign, problems []string
	srv := httptest.NewServer(ta.server)
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox,
		chromedp.WindowSize(1280, 1000),
		chromedp.Flag("proxy-server", "http://127.0.0.1:9")) // loopback goes direct; any other host to a closed port
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Listen(bctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value))
				}
				problems = append(problems, fmt.Sprintf("console.%s %s", e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("log %s %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
				if e.Entry.URL != "" && !strings.HasPrefix(e.Entry.URL, srv.URL) {
					foreign = append(foreign, e.Entry.URL)
				}
			}
		}
	}); err != nil {
		t.Fatalf("browser: %v", err)
	}
	for _, enable := range []cdp.Command[cdp.Empty, cdp.Empty]{log.Enable, runtime.Enable} {
		if _, err := chromedp.Call(bctx, enable, cdp.Empty{}); err != nil {
			t.Fatalf("browser: %v", err)
		}
	}
	run, cancel := context.WithTimeout(bctx, 60*time.Second)
	defer cancel()
	err := chromedp.Do(run,
		chromedp.Navigate(srv.URL+"/admin"),
		chromedp.WaitVisible("#login"),
		chromedp.SendKeys("#email", "owner@example.com"),
		chromedp.SendKeys("#password", "Owner12345"),
		chromedp.Click(`#login button[type="submit"]`),
		chromedp.WaitVisible(`body[data-state="ready"]`),
	)
	if err != nil {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("browser: %v (problems so far: %v)", err, problems)
	}
	text := func(sel string) string {
		v, err := chromedp.Run(run, chromedp.Text(sel))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	ordersCard, revenueCard := text("#card-orders .value"), text("#card-revenue .value")
	topProducts, lowStock, hooks := text("#top-products tbody"), text("#low-stock tbody"), text("#webhooks tbody")
	shot, err := chromedp.Run(run, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if ordersCard != "1" || !strings.HasPrefix(revenueCard, "80.00") {
		t.Errorf("key figures: orders %q, revenue %q (want 1 and 80.00 USD)", ordersCard, revenueCard)
	}
	if !strings.Contains(topProducts, "Copper kettle") || !strings.Contains(lowStock, "Tea strainer") || strings.Contains(lowStock, "Copper kettle") {
		t.Errorf("tables: top products %q, low stock %q", topProducts, lowStock)
	}
	if !strings.Contains(hooks, "http://127.0.0.1:9/hooks") || !strings.Contains(hooks, "enabled") {
		t.Errorf("webhook health %q", hooks)
	}
	if path := os.Getenv("ADMIN_SCREENSHOT"); path != "" {
		if err := os.WriteFile(path, shot, 0o600); err != nil {
			t.Error(err)
		}
	}
	checkScreenshot(t, run, shot, map[string]bool{
		"#card-revenue": false, "#card-orders": false, "#sales-chart canvas": true, "#status-chart canvas": true,
		"#top-products table": false, "#low-stock table": false, "#webhooks table": false,
	})
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("console errors: %v", problems)
	}
	if len(foreign) > 0 {
		t.Errorf("the page asked other hosts: %v", foreign)
	}
}

// checkScreenshot finds each element's box on the page and checks it in the
// screenshot: inside the picture, and for a chart (true) drawn on: at least 2% of its
// pixels differ from its corner's background.
func checkScreenshot(t *testing.T, ctx context.Context, shot []byte, elements map[string]bool) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b := img.Bounds()
	for sel, chart := range elements {
		js := fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {X: r.x + scrollX, Y: r.y + scrollY, W: r.width, H: r.height}; })()`, sel)
		box, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y, W, H float64 }](js))
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		r := image.Rect(int(box.X), int(box.Y), int(box.X+box.W), int(box.Y+box.H))
		if r.Dx() < 40 || r.Dy() < 20 || !r.In(b) {
			t.Errorf("%s: box %v is not a visible element of the %v screenshot", sel, r, b)
			continue
		}
		if !chart {
			continue
		}
		bg := img.At(r.Min.X+1, r.Min.Y+1)
		br, bgc, bb, _ := bg.RGBA()
		drawn, total := 0, 0
		for y := r.Min.Y; y < r.Max.Y; y += 2 {
			for x := r.Min.X; x < r.Max.X; x += 2 {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if absDiff(cr, br)+absDiff(cg, bgc)+absDiff(cb, bb) > 0x3000 {
					drawn++
				}
				total++
			}
		}
		if drawn*50 < total {
			t.Errorf("%s: %d of %d sampled pixels drawn: the chart looks blank", sel, drawn, total)
		}
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
