package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/config"
)

// The real modules' cart.created, product.created and order.created reach a webhook
// endpoint as signed deliveries, through the relay and the in-process jobs runner, as
// wired in the embedded mode.
func TestWebhooksDeliverRealEvents(t *testing.T) {
	onEachEngine(t, func(c *config.Config) { c.Webhooks.RetryBase = 50 * time.Millisecond }, func(t *testing.T, ta *testApp) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() { defer close(stopped); _ = ta.app.Jobs.Runner.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-stopped })

		var mu sync.Mutex
		var bodies [][]byte
		var sigs []string
		rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			bodies, sigs = append(bodies, b), append(sigs, r.Header.Get("X-Commerce-Signature"))
			mu.Unlock()
		}))
		t.Cleanup(rc.Close)
		auth := ta.adminAuth()
		w := ta.must(http.StatusCreated, "POST", "/api/v1/webhooks", map[string]any{"url": rc.URL, "events": []string{"cart.created", "product.created", "order.created"}}, auth...)
		secret := w.JSON(t)["data"].(map[string]any)["secret"].(string)

		p := ta.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "10.00", "currency": "USD"}, auth...)
		if c := ta.do("POST", "/api/v1/carts/guest", map[string]any{"currency": "USD"}); c.Status != http.StatusCreated {
			t.Fatalf("cart %d %s", c.Status, c.Body)
		}
		o := ta.do("POST", "/api/v1/orders", map[string]any{"email": "ada@example.com",
			"line_items": []any{map[string]any{"product_id": p.JSON(t)["data"].(map[string]any)["id"], "quantity": 1}}}, auth...)
		if o.Status != http.StatusCreated {
			t.Fatalf("order %d %s", o.Status, o.Body)
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			ta.relay(1)
			mu.Lock()
			n := len(bodies)
			mu.Unlock()
			if n >= 3 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d deliveries", n)
			}
			time.Sleep(20 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		types := map[string]bool{}
		for i, b := range bodies {
			var ev struct {
				ID, Type string
				Data     map[string]any
			}
			if err := json.Unmarshal(b, &ev); err != nil || !strings.HasPrefix(ev.ID, "evt_") || ev.Data["id"] == nil {
				t.Errorf("body %s", b)
			}
			types[ev.Type] = true
			ts, v1, _ := strings.Cut(strings.TrimPrefix(sigs[i], "t="), ",v1=")
			mac := hmac.New(sha256.New, []byte(secret))
			mac.Write([]byte(ts + "."))
			mac.Write(b)
			if hex.EncodeToString(mac.Sum(nil)) != v1 {
				t.Errorf("signature %s does not verify", sigs[i])
			}
		}
		if len(bodies) != 3 || !types["cart.created"] || !types["product.created"] || !types["order.created"] {
			t.Errorf("delivered %v (%d)", types, len(bodies))
		}
	})
}
