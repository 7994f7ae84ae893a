package main

import (
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/testdb"
)

// The request sequences the end-to-end scenarios share: a request that must answer a
// status, a created object, a guest's or a customer's cart with items.

// must sends a request (as do) and fails the test unless it answers want.
func (ta *testApp) must(want int, method, path string, body any, headers ...string) response {
	ta.t.Helper()
	r := ta.do(method, path, body, headers...)
	if r.Status != want {
		ta.t.Fatalf("%s %s: %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return r
}

// created POSTs body to path, fails the test unless the answer is 201, and answers the
// created object (the "data" member).
func (ta *testApp) created(path string, body any, headers ...string) map[string]any {
	ta.t.Helper()
	return dataOf(ta.t, ta.must(http.StatusCreated, http.MethodPost, path, body, headers...))
}

// createdID is the id of the object created as created does.
func (ta *testApp) createdID(path string, body any, headers ...string) string {
	ta.t.Helper()
	return ta.created(path, body, headers...)["id"].(string)
}

// newGuestCart creates an empty guest cart in currency and answers its id and the
// X-Session-Token header that reaches it.
func (ta *testApp) newGuestCart(currency string) (id string, session []string) {
	ta.t.Helper()
	d := ta.created("/api/v1/carts/guest", map[string]any{"currency": currency})
	return d["id"].(string), []string{"X-Session-Token", d["session_token"].(string)}
}

// addItem adds quantity of the product to the cart (201) with the credentials and
// answers the item.
func (ta *testApp) addItem(cartID, productID string, quantity int, creds ...string) map[string]any {
	ta.t.Helper()
	return ta.created("/api/v1/carts/"+cartID+"/items", map[string]any{"product_id": productID, "quantity": quantity}, creds...)
}

// customerCart is the cart of the customer the credentials name (GET /carts/me, with
// ?currency= when currency is set) holding quantity of the product: its id and the
// item's.
func (ta *testApp) customerCart(currency, productID string, quantity int, creds ...string) (cartID, itemID string) {
	ta.t.Helper()
	path := "/api/v1/carts/me"
	if currency != "" {
		path += "?currency=" + currency
	}
	cartID = dataOf(ta.t, ta.must(http.StatusOK, http.MethodGet, path, nil, creds...))["id"].(string)
	return cartID, ta.addItem(cartID, productID, quantity, creds...)["id"].(string)
}

// browserApp is the app on the primary engine for a check of page in headless
// Chromium; the test is skipped where no Chromium is installed.
func browserApp(t *testing.T, page string) (chrome string, ta *testApp) {
	t.Helper()
	if chrome = findChrome(); chrome == "" {
		t.Skipf("no Chromium found (make browser, or set CHROME_BIN): the browser check of %s did not run", page)
	}
	return chrome, newTestApp(t, testdb.Primary(), nil)
}
