package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/gocommerce/commerce/platform/testdb"
)

// The server's memory work per checkout complete (issue 20), a budget that the host's
// speed does not move: allocations and bytes allocated by the whole process (the
// request and the background work it starts) over 300 completes of a 3-line guest
// cart, the handler called directly. The load benchmark's rates swing with this
// shared host by more than a server-side change moves them (docs/performance.md,
// session 26); these counts do not, but for the background work a complete starts
// (the catalog's stock sync coalesces more or less of it): measured on PostgreSQL at
// 3,971–4,102 allocations and 411–425 KB per complete (decision 0244), on SQLite (the
// embedded path's driver) 4,359 and 281 KB. The budgets leave room for that spread;
// the build before decision 0243 (4,892 allocations, 547 KB) fails them. `go test ./cmd/commerce -run CheckoutCompleteAllocations -v` prints them.
func TestCheckoutCompleteAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the database")
	}
	const completes, warmUpCarts = 300, 20
	budgets := map[string]struct{ allocs, bytes uint64 }{
		"postgres": {4500, 470 << 10},
		"sqlite":   {4800, 310 << 10},
	}
	engine := testdb.Primary()
	budget := budgets[engine]
	ta := newTestApp(t, engine, nil)
	e := checkoutOn(ta)
	products := []string{e.product("10.00", 100000), e.product("20.00", 100000), e.product("30.00", 100000)}
	type cart struct {
		id      string
		session []string
	}
	carts := make([]cart, completes+warmUpCarts)
	for i := range carts {
		id, session := e.newGuestCart("USD")
		for _, p := range products {
			e.addItem(id, p, 1, session...)
		}
		carts[i] = cart{id, session}
	}
	complete := func(c cart) {
		body, err := json.Marshal(map[string]any{"cart_id": c.id, "customer_email": "buyer@example.com",
			"shipping_address": usAddress, "payment_method": card("4242424242424242")})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, "/api/v1/checkout/complete", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(c.session); i += 2 {
			req.Header.Set(c.session[i], c.session[i+1])
		}
		w := httptest.NewRecorder()
		ta.app.Server.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("complete: %d %s", w.Code, w.Body.String())
		}
	}
	for _, c := range carts[completes:] { // statement caches, pools, first-use paths
		complete(c)
	}
	ta.relay(20)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, c := range carts[:completes] {
		complete(c)
	}
	runtime.ReadMemStats(&after)
	allocs := (after.Mallocs - before.Mallocs) / completes
	bytesPer := (after.TotalAlloc - before.TotalAlloc) / completes
	t.Logf("%s, per complete: %d allocations, %d KB", engine, allocs, bytesPer>>10)
	if allocs > budget.allocs || bytesPer > budget.bytes {
		t.Fatalf("%s: a complete allocates %d objects, %d KB: the budget is %d, %d KB", engine, allocs, bytesPer>>10, budget.allocs, budget.bytes>>10)
	}
}
