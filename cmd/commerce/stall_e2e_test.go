package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	identityapi "github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/testdb"
)

// liveServer serves the app over a real listener, so each request has its own
// goroutine, connection and context, as in production.
type liveServer struct {
	t      *testing.T
	url    string
	client *http.Client
}

func newLiveServer(t *testing.T, ta *testApp) *liveServer {
	t.Helper()
	srv := httptest.NewServer(ta.app.Server)
	t.Cleanup(srv.Close)
	// A stalled request fails the test instead of hanging it.
	return &liveServer{t: t, url: srv.URL, client: &http.Client{Timeout: 20 * time.Second}}
}

// call sends a JSON request and decodes the JSON answer (nil for an empty body); a
// transport error (a timeout) is returned, not fatal, so goroutines may call it.
func (s *liveServer) call(method, path string, body any, headers ...string) (int, map[string]any, error) {
	status, _, m, err := s.callHeader(method, path, body, headers...)
	return status, m, err
}

// callHeader is call that also answers the response's header.
func (s *liveServer) callHeader(method, path string, body any, headers ...string) (int, http.Header, map[string]any, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		return 0, nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := s.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer func() { _ = res.Body.Close() }()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, res.Header, nil, err
	}
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return res.StatusCode, res.Header, nil, fmt.Errorf("%s %s: body is not JSON: %s", method, path, raw)
		}
	}
	return res.StatusCode, res.Header, m, nil
}

// must is call for the test goroutine: the status must be want.
func (s *liveServer) must(want int, method, path string, body any, headers ...string) map[string]any {
	s.t.Helper()
	status, m, err := s.call(method, path, body, headers...)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	if status != want {
		s.t.Fatalf("%s %s: %d %v, want %d", method, path, status, m, want)
	}
	if d, ok := m["data"].(map[string]any); ok {
		return d
	}
	return m
}

// watchHealth polls /health until stop is closed and reports every answer that was
// not a 200 (or did not come).
func (s *liveServer) watchHealth(stop <-chan struct{}) func() []string {
	var (
		mu   sync.Mutex
		bad  []string
		done = make(chan struct{})
		n    atomic.Int64
	)
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			status, m, err := s.call("GET", "/health", nil)
			n.Add(1)
			if err != nil || status != http.StatusOK {
				mu.Lock()
				bad = append(bad, fmt.Sprintf("%d %v %v", status, m, err))
				mu.Unlock()
			}
		}
	}()
	return func() []string {
		<-done
		if n.Load() == 0 {
			return []string{"/health was never asked"}
		}
		return bad
	}
}

// cartTotals checks a cart's totals: subtotal as given, the 10 % coupon re-priced on it.
func cartTotals(t *testing.T, cart map[string]any, subtotal string) {
	t.Helper()
	sub := decimal.RequireFromString(subtotal)
	discount := sub.Mul(decimal.RequireFromString("0.10")).Round(2)
	want := map[string]string{"subtotal": sub.StringFixed(2), "discount_total": discount.StringFixed(2), "total": sub.Sub(discount).StringFixed(2)}
	for k, v := range want {
		if cart[k] != v {
			t.Errorf("cart %s = %v, want %s (cart %v)", k, cart[k], v, cart)
		}
	}
}

// One shopper must not freeze the store (issue 15, item 1): adding to a cart that
// carries a coupon re-evaluates the coupon inside the cart's transaction. With the
// request's context it asked for a second connection (SQLite has one) and waited
// forever, and every other request behind it; on PostgreSQL, concurrent adds to one
// couponed cart exhausted the pool the same way. The discount must be re-priced after
// each add, and /health must answer 200 throughout.
func TestCouponedCartAddsNeverStallTheStore(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		s := newLiveServer(t, ta)
		_, key, err := ta.app.Identity.CreateAPIKey(context.Background(), identityapi.CreateAPIKeyCommand{Name: "admin", Scopes: []string{"admin"}})
		if err != nil {
			t.Fatal(err)
		}
		admin := []string{"Authorization", "Bearer " + key}
		mug := s.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Mug", "price": "12.50", "currency": "EUR", "inventory_quantity": 100000}, admin...)["id"].(string)
		tea := s.must(http.StatusCreated, "POST", "/api/v1/products", map[string]any{"title": "Tea", "price": "4.00", "currency": "EUR", "inventory_quantity": 100000}, admin...)["id"].(string)
		s.must(http.StatusCreated, "POST", "/api/v1/coupons", map[string]any{"code": "TENOFF", "type": "percentage", "value": "10", "is_active": true}, admin...)

		guest := s.must(http.StatusCreated, "POST", "/api/v1/carts/guest", map[string]any{"currency": "EUR"})
		cartID := guest["id"].(string)
		session := []string{"X-Session-Token", guest["session_token"].(string)}
		items := "/api/v1/carts/" + cartID + "/items"

		// The single request of the report: add, apply the coupon, add again.
		s.must(http.StatusCreated, "POST", items, map[string]any{"product_id": mug, "quantity": 1}, session...)
		cartTotals(t, s.must(http.StatusOK, "POST", "/api/v1/carts/"+cartID+"/coupon", map[string]any{"coupon_code": "TENOFF"}, session...), "12.50")
		s.must(http.StatusCreated, "POST", items, map[string]any{"product_id": tea, "quantity": 1}, session...)
		cartTotals(t, s.must(http.StatusOK, "GET", "/api/v1/carts/"+cartID, nil, session...), "16.50")
		s.must(http.StatusOK, "GET", "/health", nil)

		// Then 100 adds to the same couponed cart at once, with /health asked throughout.
		const adds = 100
		stop := make(chan struct{})
		health := s.watchHealth(stop)
		var (
			wg     sync.WaitGroup
			failed = make(chan string, adds)
		)
		for range adds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, m, err := s.call("POST", items, map[string]any{"product_id": mug, "quantity": 1}, session...)
				if err != nil || status != http.StatusCreated {
					failed <- fmt.Sprintf("%d %v %v", status, m, err)
				}
			}()
		}
		wg.Wait()
		close(stop)
		close(failed)
		for f := range failed {
			t.Errorf("concurrent add: %s", f)
		}
		for _, b := range health() {
			t.Errorf("/health during the adds: %s", b)
		}
		cart := s.must(http.StatusOK, "GET", "/api/v1/carts/"+cartID, nil, session...)
		// 101 mugs and a tea, the coupon re-priced on all of it.
		cartTotals(t, cart, decimal.RequireFromString("12.50").Mul(decimal.NewFromInt(adds+1)).Add(decimal.RequireFromString("4.00")).StringFixed(2))
	})
}

// While every pooled connection is taken, a request waits database.acquire_timeout,
// not forever: 503 in the envelope with Retry-After, and nothing written. When the
// connections come back, the same request succeeds.
func TestPoolExhaustionAnswers503(t *testing.T) {
	t.Parallel()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			ta := newTestApp(t, engine, func(c *config.Config) {
				c.Database.MaxOpenConns = 2 // SQLite has one whatever this says
				c.Database.AcquireTimeout = 300 * time.Millisecond
			})
			s := newLiveServer(t, ta)
			conns := 2
			if engine == "sqlite" {
				conns = 1
			}
			release := make(chan struct{})
			var held sync.WaitGroup
			done := make(chan error, conns)
			for range conns {
				held.Add(1)
				go func() {
					done <- ta.app.DB.InTx(context.Background(), func(ctx context.Context) error {
						if err := ta.app.DB.Conn(ctx).Exec("SELECT 1").Error; err != nil {
							held.Done()
							return err
						}
						held.Done()
						<-release
						return nil
					})
				}()
			}
			held.Wait()
			body := map[string]any{"email": "ada@example.com", "password": "Secret123", "first_name": "Ada", "last_name": "Lovelace"}
			start := time.Now()
			status, header, m, err := s.callHeader("POST", "/api/v1/auth/register", body)
			if err != nil {
				t.Fatalf("register while the pool is taken: %v (after %v)", err, time.Since(start))
			}
			e, _ := m["error"].(map[string]any)
			if status != http.StatusServiceUnavailable || e["category"] != "unavailable" || e["code"] != float64(503) || e["request_id"] == "" {
				t.Fatalf("register while the pool is taken: %d %v", status, m)
			}
			if header.Get("Retry-After") == "" {
				t.Errorf("503 without Retry-After: %v", header)
			}
			close(release)
			for range conns {
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
			// Nothing was written: the same email registers now.
			s.must(http.StatusCreated, "POST", "/api/v1/auth/register", body)
		})
	}
}
