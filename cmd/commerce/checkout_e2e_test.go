package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// fakeTax is checkout's tax port for these tests until the tax module is wired: 10%
// on items and shipping in the US, 20% in FR, reverse charge with a VAT id.
type fakeTax struct{}

func (fakeTax) Calculate(_ context.Context, q ports.TaxQuery) (domain.Tax, error) {
	rate := decimal.RequireFromString("0.10")
	if q.ShippingAddress.CountryCode == "FR" {
		rate = decimal.RequireFromString("0.20")
	}
	out := domain.Tax{ItemTax: decimal.Zero, ShippingTax: decimal.Zero, ShippingRate: rate, Breakdown: []domain.TaxBreakdown{}}
	if q.VATID != "" {
		out.ReverseCharge, out.ShippingRate = true, decimal.Zero
		return out, nil
	}
	base := decimal.Zero
	for _, l := range q.Lines {
		tax := l.Amount.Mul(rate).Round(2)
		out.Lines = append(out.Lines, domain.LineTax{ItemID: l.ItemID, TaxableAmount: l.Amount, TaxAmount: tax, Rate: rate})
		out.ItemTax = out.ItemTax.Add(tax)
		base = base.Add(l.Amount)
	}
	out.ShippingTax = q.Shipping.Mul(rate).Round(2)
	out.Breakdown = append(out.Breakdown, domain.TaxBreakdown{ZoneID: "z1", ZoneName: q.ShippingAddress.CountryCode, RateID: "r1", RateName: "Sales tax",
		Rate: rate, TaxableAmount: base.Add(q.Shipping), TaxAmount: out.ItemTax.Add(out.ShippingTax)})
	return out, nil
}

// fakeShipping offers a standard and an express rate.
type fakeShipping struct{}

func (fakeShipping) Rates(_ context.Context, q ports.RateQuery) ([]domain.Rate, error) {
	return []domain.Rate{
		{ID: "rate_express", Carrier: "UPS", Name: "Express", Code: "express", Price: decimal.RequireFromString("15.00"), Currency: q.Currency, EstimatedDays: 1},
		{ID: "rate_standard", Carrier: "USPS", Name: "Standard", Code: "standard", Price: decimal.RequireFromString("5.00"), Currency: q.Currency, EstimatedDays: 5},
	}, nil
}

type checkoutEnv struct {
	*testApp
	admin []string
	mod   *checkout.Module
}

// checkoutOn is the app with an admin key and the checkout module's tax and shipping
// ports on the fakes.
func checkoutOn(ta *testApp) *checkoutEnv {
	e := &checkoutEnv{testApp: ta, admin: ta.adminAuth()}
	for _, m := range ta.app.Modules {
		if c, ok := m.(*checkout.Module); ok {
			e.mod = c
		}
	}
	e.mod.Service().Tax, e.mod.Service().Shipping = fakeTax{}, fakeShipping{}
	return e
}

func dataOf(t *testing.T, r response) map[string]any {
	t.Helper()
	d, ok := r.JSON(t)["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data: %d %s", r.Status, r.Body)
	}
	return d
}

func (e *checkoutEnv) product(price string, stock int) string {
	e.t.Helper()
	id := e.createdID("/api/v1/products", map[string]any{"title": "Thing " + price, "price": price, "currency": "USD", "inventory_quantity": stock}, e.admin...)
	e.drain()
	return id
}

func (e *checkoutEnv) drain() {
	e.t.Helper()
	e.relay(5)
}

// guestCart creates a guest cart holding quantity of the product (and the coupon).
func (e *checkoutEnv) guestCart(productID string, quantity int, coupon string) (string, []string) {
	e.t.Helper()
	id, session := e.newGuestCart("USD")
	e.addItem(id, productID, quantity, session...)
	if coupon != "" {
		e.must(http.StatusOK, "POST", "/api/v1/carts/"+id+"/coupon", map[string]any{"coupon_code": coupon}, session...)
	}
	return id, session
}

var usAddress = map[string]any{"first_name": "Ada", "last_name": "Buyer", "address1": "1 Main St", "city": "Springfield", "postal_code": "12345",
	"country_code": "US", "region_code": "IL"}

func card(number string) map[string]any {
	return map[string]any{"type": "card", "card": map[string]any{"number": number, "exp_month": 12, "exp_year": time.Now().Year() + 3, "cvc": "123", "name": "Ada"}}
}

func (e *checkoutEnv) complete(cartID string, session []string, number, key string) response {
	h := append([]string{}, session...)
	if key != "" {
		h = append(h, "Idempotency-Key", key)
	}
	return e.do("POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "customer_email": "buyer@example.com",
		"shipping_address": usAddress, "payment_method": card(number)}, h...)
}

// recorded is r as platform/httpxtest records an answer (Concurrently, WithCode).
func (r response) recorded() httpxtest.Response {
	out := httpxtest.Response{Code: r.Status, Raw: string(r.Body), Header: r.Header}
	_ = json.Unmarshal(r.Body, &out.Body)
	return out
}

func (e *checkoutEnv) available(productID string) float64 {
	e.t.Helper()
	return dataOf(e.t, e.do("GET", "/api/v1/inventory/"+productID, nil, e.admin...))["total_available"].(float64)
}

func (e *checkoutEnv) count(query string, args ...any) int64 {
	e.t.Helper()
	var n int64
	if err := e.app.DB.Gorm().Raw(query, args...).Scan(&n).Error; err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *checkoutEnv) coupon(code string, limit int) string {
	e.t.Helper()
	return e.createdID("/api/v1/coupons", map[string]any{"code": code, "type": "percentage", "value": "10", "is_active": true, "usage_limit": limit}, e.admin...)
}

// couponCart is a product at 10.00 with stock units, the coupon SAVE10 (10%, 10 uses)
// and a guest cart holding 2 of the product with the coupon.
func (e *checkoutEnv) couponCart(stock int) (productID, couponID, cartID string, session []string) {
	e.t.Helper()
	productID, couponID = e.product("10.00", stock), e.coupon("SAVE10", 10)
	cartID, session = e.guestCart(productID, 2, "SAVE10")
	return productID, couponID, cartID, session
}

func (e *checkoutEnv) usageCount(couponID string) float64 {
	e.t.Helper()
	return dataOf(e.t, e.do("GET", "/api/v1/coupons/"+couponID+"/usage", nil, e.admin...))["usage_count"].(float64)
}

// stockAndUses checks, after what, the product's available stock and the coupon's uses.
func (e *checkoutEnv) stockAndUses(what, productID, couponID string, available, uses float64) {
	e.t.Helper()
	if got, n := e.available(productID), e.usageCount(couponID); got != available || n != uses {
		e.t.Errorf("%s: available %v, uses %v (want %v, %v)", what, got, n, available, uses)
	}
}

// order is the order as staff read it.
func (e *checkoutEnv) order(id string) map[string]any {
	e.t.Helper()
	return dataOf(e.t, e.do("GET", "/api/v1/orders/"+id, nil, e.admin...))
}

// A guest: initiate (tax by address, rates), choose a rate, pay; the order is paid,
// the stock committed, the cart converted, and the same cart again answers the order.
func TestCheckoutGuestEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid := e.product("10.00", 100)
		cartID, session := e.guestCart(pid, 2, "")

		if r := e.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": usAddress}); r.Status != http.StatusUnauthorized {
			t.Errorf("no credentials: %d %s", r.Status, r.Body)
		}
		if r := e.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": usAddress}, "X-Session-Token", "nope"); r.Status != http.StatusNotFound {
			t.Errorf("another's token: %d %s", r.Status, r.Body)
		}
		if r := e.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": map[string]any{"country_code": "USA"}}, session...); r.Status != http.StatusBadRequest {
			t.Errorf("bad country: %d %s", r.Status, r.Body)
		}
		init := e.must(http.StatusOK, "POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": usAddress}, session...)
		d := dataOf(t, init)
		if d["subtotal"] != "20.00" || d["item_tax"] != "2.00" || d["shipping_tax"] != "0.00" || d["tax_total"] != "2.00" ||
			len(d["available_shipping_rates"].([]any)) != 2 || len(d["tax_breakdown"].([]any)) != 1 || d["discount_total"] != "0.00" {
			t.Errorf("initiate body: %s", init.Body)
		}
		fr := map[string]any{"country_code": "FR", "city": "Paris", "postal_code": "75001", "address1": "1 rue X"}
		b2b := e.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": fr, "vat_id": "FR40303265045"}, session...)
		if d := dataOf(t, b2b); b2b.Status != http.StatusOK || d["tax_total"] != "0.00" || d["reverse_charge_applied"] != true || d["vat_id"] != "FR40303265045" {
			t.Errorf("reverse charge: %d %s", b2b.Status, b2b.Body)
		}
		fr2 := dataOf(t, e.do("POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": fr}, session...))
		if fr2["item_tax"] != "4.00" || fr2["reverse_charge_applied"] != false {
			t.Errorf("FR tax: %v", fr2)
		}
		e.must(http.StatusOK, "POST", "/api/v1/checkout/initiate", map[string]any{"cart_id": cartID, "shipping_address": usAddress}, session...) // initiate again
		if r := e.do("POST", "/api/v1/checkout/shipping", map[string]any{"cart_id": cartID, "shipping_rate_id": "nope"}, session...); r.Status != http.StatusNotFound || errorOf(t, r)["code"] != "SHIPPING_RATE_NOT_FOUND" {
			t.Errorf("unknown rate: %d %s", r.Status, r.Body)
		}
		ship := e.do("POST", "/api/v1/checkout/shipping", map[string]any{"cart_id": cartID, "shipping_rate_id": "rate_express"}, session...)
		d = dataOf(t, ship)
		if ship.Status != http.StatusOK || d["shipping_total"] != "15.00" || d["shipping_tax"] != "1.50" || d["tax_total"] != "3.50" || d["total"] != "38.50" {
			t.Fatalf("shipping: %d %s", ship.Status, ship.Body)
		}
		if r := e.do("POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "payment_method": card("4242424242424242")}, session...); r.Status != http.StatusBadRequest {
			t.Errorf("guest without email: %d %s", r.Status, r.Body)
		}
		done := e.complete(cartID, session, "4242424242424242", "")
		if done.Status != http.StatusOK {
			t.Fatalf("complete: %d %s", done.Status, done.Body)
		}
		d = dataOf(t, done)
		order := d["order"].(map[string]any)
		if d["status"] != "completed" || order["financial_status"] != "paid" || order["total_price"] != "38.50" || order["email"] != "buyer@example.com" ||
			d["payment"].(map[string]any)["type"] != "success" {
			t.Errorf("complete body: %s", done.Body)
		}
		orderID := order["id"].(string)
		if got := e.available(pid); got != 98 {
			t.Errorf("available after sale: %v", got)
		}
		if n := e.count("SELECT count(*) FROM inventory_reservations WHERE order_id = ? AND status = 'active'", orderID); n != 0 {
			t.Errorf("active reservations: %d", n)
		}
		o := e.order(orderID)
		if o["source_name"] != "checkout" || o["financial_status"] != "paid" || o["total_tax"] != "3.50" || o["total_shipping"] != "15.00" || len(o["line_items"].([]any)) != 1 ||
			len(o["shipping_lines"].([]any)) != 1 || o["cart_token"] != cartID {
			t.Errorf("order: %v", o)
		}
		if tl := o["tax_lines"].([]any); len(tl) != 1 || tl[0].(map[string]any)["price"] != "3.50" || tl[0].(map[string]any)["rate"] != "0.1" {
			t.Errorf("order tax lines: %v", tl)
		}
		again := e.complete(cartID, session, "4242424242424242", "")
		if again.Status != http.StatusOK || dataOf(t, again)["order"].(map[string]any)["id"] != orderID {
			t.Errorf("same cart again: %d %s", again.Status, again.Body)
		}
		if n := e.count("SELECT count(*) FROM payments_payments WHERE order_id = ?", orderID); n != 1 {
			t.Errorf("payments of the order: %d", n)
		}
		if r := e.do("GET", "/api/v1/carts/"+cartID, nil, session...); r.Status != http.StatusConflict {
			t.Errorf("cart after checkout: %d %s", r.Status, r.Body)
		}
		for _, typ := range []string{"cart.converted", "checkout.completed", "order.created"} {
			if n := e.count("SELECT count(*) FROM outbox_events WHERE type = ? AND CAST(payload AS text) LIKE ?", typ, "%"+orderID+"%"); n != 1 {
				t.Errorf("%s events: %d", typ, n)
			}
		}
	})
}

// A customer checks out their cart without initiating (the address comes with complete).
func TestCheckoutCustomerEndToEnd(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid := e.product("8.00", 10)
		s := e.register("ada@example.com")
		creds := bearer(s.access)
		cartID, _ := e.customerCart("USD", pid, 3, creds...)
		other := e.register("eve@example.com")
		if r := e.do("POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "payment_method": card("4242424242424242")}, bearer(other.access)...); r.Status != http.StatusNotFound {
			t.Errorf("another customer's cart: %d %s", r.Status, r.Body)
		}
		done := e.must(http.StatusOK, "POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "shipping_address": usAddress, "payment_method": card("4000000000003055")}, creds...)
		d := dataOf(t, done)
		order := d["order"].(map[string]any)
		// 24.00 + standard shipping 5.00 (the cheapest, none chosen) + 10% tax.
		if order["customer_id"] != s.id || order["financial_status"] != "paid" || order["total_price"] != "31.90" || order["email"] != "ada@example.com" {
			t.Errorf("customer order: %s", done.Body)
		}
		// The checkout answers the buyer's email too: the customer's, not the cart's none.
		if d["email"] != "ada@example.com" {
			t.Errorf("customer checkout's email: %v", d["email"])
		}
		again := e.must(http.StatusOK, "POST", "/api/v1/checkout/complete", map[string]any{"cart_id": cartID, "payment_method": card("4242424242424242")}, creds...)
		if a := dataOf(t, again); a["order_id"] != d["order_id"] || a["email"] != "ada@example.com" {
			t.Errorf("replayed customer checkout: %s", again.Body)
		}
		if got := e.available(pid); got != 7 {
			t.Errorf("available: %v", got)
		}
		hist := e.do("GET", "/api/v1/customers/"+s.id+"/orders", nil, e.admin...)
		if hist.Status != http.StatusOK || len(hist.JSON(t)["data"].([]any)) != 1 {
			t.Errorf("history: %d %s", hist.Status, hist.Body)
		}
	})
}

// A declined card, an Idempotency-Key replayed, out of stock at complete and a
// coupon: nothing of a failed attempt stays.
func TestCheckoutFailuresLeaveNothing(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid, couponID, cartID, session := e.couponCart(3)

		declined := e.complete(cartID, session, "4000000000000002", "key-1")
		if er := errorOf(t, declined); declined.Status != http.StatusPaymentRequired || er["code"] != "CARD_DECLINED" {
			t.Fatalf("declined: %d %s", declined.Status, declined.Body)
		}
		e.stockAndUses("after decline", pid, couponID, 3, 0)
		if n := e.count("SELECT count(*) FROM orders"); n != 0 {
			t.Errorf("orders after decline: %d", n)
		}
		payments := e.count("SELECT count(*) FROM payments_payments")
		replay := e.complete(cartID, session, "4242424242424242", "key-1")
		if replay.Status != http.StatusPaymentRequired || errorOf(t, replay)["code"] != "CARD_DECLINED" {
			t.Errorf("same key replays the decline: %d %s", replay.Status, replay.Body)
		}
		if n := e.count("SELECT count(*) FROM payments_payments"); n != payments {
			t.Errorf("the replay charged: %d payments, want %d", n, payments)
		}
		// Another guest buys 2 of the 3 units first: this cart is out of stock.
		other, otherSession := e.guestCart(pid, 2, "")
		if r := e.complete(other, otherSession, "4242424242424242", ""); r.Status != http.StatusOK {
			t.Fatalf("other: %d %s", r.Status, r.Body)
		}
		short := e.complete(cartID, session, "4242424242424242", "key-2")
		if short.Status != http.StatusBadRequest || errorOf(t, short)["code"] != "INSUFFICIENT_INVENTORY" {
			t.Errorf("out of stock: %d %s", short.Status, short.Body)
		}
		e.stockAndUses("after out of stock", pid, couponID, 1, 0)
		if r := e.complete(other, otherSession, "4242424242424242", "key-2"); r.Status != http.StatusConflict || errorOf(t, r)["code"] != "IDEMPOTENCY_KEY_REUSED" {
			t.Errorf("key of another cart: %d %s", r.Status, r.Body)
		}
		if r := e.do("PUT", "/api/v1/carts/"+cartID+"/items/"+dataOf(t, e.do("GET", "/api/v1/carts/"+cartID, nil, session...))["items"].([]any)[0].(map[string]any)["id"].(string),
			map[string]any{"quantity": 1}, session...); r.Status != http.StatusOK {
			t.Fatalf("update item: %d %s", r.Status, r.Body)
		}
		ok := e.complete(cartID, session, "4242424242424242", "key-3")
		if ok.Status != http.StatusOK {
			t.Fatalf("after fixing the cart: %d %s", ok.Status, ok.Body)
		}
		e.stockAndUses("after the sale", pid, couponID, 0, 1)
		if d := dataOf(t, ok); d["discount_total"] != "1.00" || d["order"].(map[string]any)["total_price"] != "15.40" {
			t.Errorf("discounted order: %s", ok.Body)
		}
	})
}

// 3D Secure: the order waits, pending; completing the payment pays it and converts
// the cart; a payment never completed lapses with its stock hold.
func TestCheckoutThreeDSecure(t *testing.T) {
	onEachEngine(t, func(c *config.Config) { c.Inventory.ReservationTimeout = 2 * time.Second }, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid, couponID, cartID, session := e.couponCart(5)
		pending := e.complete(cartID, session, "4000002500003155", "")
		d := dataOf(t, pending)
		if pending.Status != http.StatusOK || d["status"] != "requires_action" || d["order"].(map[string]any)["financial_status"] != "pending" ||
			d["payment"].(map[string]any)["action_type"] == nil {
			t.Fatalf("3DS: %d %s", pending.Status, pending.Body)
		}
		paymentID := d["payment"].(map[string]any)["payment_id"].(string)
		intent := d["payment"].(map[string]any)["action_data"].(map[string]any)["payment_intent"]
		orderID := d["order_id"].(string)
		if again := e.complete(cartID, session, "4242424242424242", ""); dataOf(t, again)["order_id"] != orderID || dataOf(t, again)["status"] != "requires_action" {
			t.Errorf("again while pending: %s", again.Body)
		}
		e.stockAndUses("held", pid, couponID, 3, 1)
		e.must(http.StatusOK, "POST", "/api/v1/payments/"+paymentID+"/complete", map[string]any{"action_type": "three_d_secure", "action_data": map[string]any{"payment_intent": intent}}, e.admin...)
		e.drain()
		o := e.order(orderID)
		if o["financial_status"] != "paid" {
			t.Errorf("order after 3DS: %v", o["financial_status"])
		}
		if r := e.do("GET", "/api/v1/carts/"+cartID, nil, session...); r.Status != http.StatusConflict {
			t.Errorf("cart after 3DS: %d", r.Status)
		}
		if n := e.count("SELECT count(*) FROM outbox_events WHERE type = 'checkout.completed' AND CAST(payload AS text) LIKE ?", "%"+orderID+"%"); n != 1 {
			t.Errorf("confirmation events: %d", n)
		}

		// A third cart's 3D Secure fails: the checkout is undone when the payment says so.
		cart3, session3 := e.guestCart(pid, 1, "SAVE10")
		p3 := dataOf(t, e.complete(cart3, session3, "4000002500003155", ""))
		pay3 := p3["payment"].(map[string]any)
		intent3 := pay3["action_data"].(map[string]any)["payment_intent"]
		if r := e.do("POST", "/api/v1/payments/"+pay3["payment_id"].(string)+"/complete", map[string]any{"action_type": "three_d_secure",
			"action_data": map[string]any{"payment_intent": intent3, "payment_intent_client_secret": "wrong"}}, e.admin...); r.Status == http.StatusOK {
			t.Fatalf("a failing 3DS answered 200: %s", r.Body)
		}
		e.drain()
		if o := e.order(p3["order_id"].(string)); o["status"] != "cancelled" {
			t.Errorf("order of the failed 3DS: %v", o["status"])
		}
		e.stockAndUses("after the failed 3DS", pid, couponID, 3, 1)

		// A second cart's payment is never completed: the hold lapses.
		cart2, session2 := e.guestCart(pid, 3, "SAVE10")
		p2 := e.complete(cart2, session2, "4000000000003220", "")
		if p2.Status != http.StatusOK || dataOf(t, p2)["status"] != "requires_action" {
			t.Fatalf("3DS 2: %d %s", p2.Status, p2.Body)
		}
		order2 := dataOf(t, p2)["order_id"].(string)
		if got := e.available(pid); got != 0 {
			t.Errorf("held 2: %v", got)
		}
		time.Sleep(2100 * time.Millisecond)
		n, err := e.mod.Service().ExpireLapsed(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("expire: %d %v", n, err)
		}
		o2 := e.order(order2)
		if o2["status"] != "cancelled" {
			t.Errorf("lapsed order: %v", o2["status"])
		}
		e.stockAndUses("after lapse", pid, couponID, 3, 1)
		if r := e.do("GET", "/api/v1/carts/"+cart2, nil, session2...); r.Status != http.StatusOK {
			t.Errorf("cart after lapse: %d", r.Status)
		}

		// An attempt left processing by a stopped process is undone by the sweep.
		if err := e.app.DB.Gorm().Exec("UPDATE checkout_sessions SET status = 'processing', order_id = ?, updated_at = ? WHERE cart_id = ?",
			"01a20000-0000-7000-8000-000000000001", time.Now().Add(-time.Hour).UTC(), cart2).Error; err != nil {
			t.Fatal(err)
		}
		if n, err := e.mod.Service().ExpireLapsed(context.Background()); err != nil || n != 1 {
			t.Fatalf("stuck: %d %v", n, err)
		}
		if r := e.complete(cart2, session2, "4242424242424242", ""); r.Status != http.StatusOK || dataOf(t, r)["status"] != "completed" {
			t.Errorf("after the stuck attempt: %d %s", r.Status, r.Body)
		}
	})
}

// Concurrency: 50 completes on the last 10 units sell exactly 10; 20 completes with a
// coupon limited to 5 count exactly 5 uses; the same key racing charges once.
func TestCheckoutConcurrency(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		run := func(n int, pid, coupon string, want int, code string) {
			t.Helper()
			type cart struct {
				id      string
				session []string
			}
			carts := make([]cart, n)
			for i := range carts {
				carts[i].id, carts[i].session = e.guestCart(pid, 1, coupon)
			}
			rs := httpxtest.Concurrently(n, func(i int) httpxtest.Response {
				return e.complete(carts[i].id, carts[i].session, "4242424242424242", fmt.Sprintf("k-%s-%d", pid, i)).recorded()
			})
			ok, rest := httpxtest.WithCode(rs, http.StatusOK)
			for _, r := range rest {
				if r.Code != http.StatusBadRequest || r.Err()["code"] != code {
					t.Errorf("complete: %d %s, want %s", r.Code, r.Raw, code)
				}
			}
			if len(ok) != want {
				t.Errorf("%d of %d completes succeeded, want %d", len(ok), n, want)
			}
		}
		last := e.product("4.00", 10)
		run(50, last, "", 10, "INSUFFICIENT_INVENTORY")
		if got := e.available(last); got != 0 {
			t.Errorf("available after the rush: %v", got)
		}
		if n := e.count("SELECT count(*) FROM orders"); n != 10 {
			t.Errorf("orders: %d", n)
		}
		plenty := e.product("10.00", 100)
		couponID := e.coupon("FIVE", 5)
		run(20, plenty, "FIVE", 5, "COUPON_USAGE_LIMIT")
		if n := e.usageCount(couponID); n != 5 {
			t.Errorf("coupon uses: %v", n)
		}
		if got := e.available(plenty); got != 95 {
			t.Errorf("available after the coupon rush: %v", got)
		}

		cartID, session := e.guestCart(plenty, 1, "")
		orders := make([]string, 2)
		for i, r := range httpxtest.Concurrently(2, func(int) httpxtest.Response {
			return e.complete(cartID, session, "4242424242424242", "same-key").recorded()
		}) {
			orders[i], _ = r.Data()["order_id"].(string)
			if r.Code != http.StatusOK {
				t.Errorf("racing key %d: %d %s", i, r.Code, r.Raw)
			}
		}
		if orders[0] == "" || orders[0] != orders[1] {
			t.Errorf("racing key: orders %v", orders)
		}
		if r := e.complete(cartID, session, "4242424242424242", "same-key"); r.Status != http.StatusOK || dataOf(t, r)["order_id"] != orders[0] {
			t.Errorf("the key once more: %d %s", r.Status, r.Body)
		}
		if n := e.count("SELECT count(*) FROM payments_payments WHERE order_id = ?", orders[0]); n != 1 {
			t.Errorf("racing key: %d payments", n)
		}
	})
}

// Admin orders record their coupon uses under the same limits as checkout.
func TestAdminOrderCouponLimit(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid := e.product("10.00", 10)
		couponID := e.coupon("ONCE", 1)
		order := func(code string) response {
			return e.do("POST", "/api/v1/orders", map[string]any{"email": "a@example.com", "line_items": []any{map[string]any{"product_id": pid, "quantity": 1}},
				"discount_codes": []any{map[string]any{"code": code, "amount": "1.00"}}}, e.admin...)
		}
		if r := order("ONCE"); r.Status != http.StatusCreated {
			t.Fatalf("first: %d %s", r.Status, r.Body)
		}
		if r := order("once"); r.Status != http.StatusBadRequest || errorOf(t, r)["code"] != "COUPON_USAGE_LIMIT" {
			t.Errorf("over the limit: %d %s", r.Status, r.Body)
		}
		if r := order("MANUAL"); r.Status != http.StatusCreated {
			t.Errorf("a manual discount code: %d %s", r.Status, r.Body)
		}
		e.drain()
		if n := e.usageCount(couponID); n != 1 {
			t.Errorf("uses: %v", n)
		}
		if n := e.count("SELECT count(*) FROM orders"); n != 2 {
			t.Errorf("orders: %d", n)
		}
	})
}

// failingOrders fails the order creation after the payment was taken.
type failingOrders struct {
	ports.Orders
}

func (failingOrders) Create(context.Context, ports.OrderDraft) (ports.Order, error) {
	return ports.Order{}, apperr.New(apperr.Unavailable, "", "orders are down")
}

// A failure after the charge voids it: the payment is refunded, the stock and the
// coupon use given back, no order made; the next attempt succeeds.
func TestCheckoutFailureAfterChargeVoids(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		e := checkoutOn(ta)
		pid, couponID, cartID, session := e.couponCart(5)
		svc := e.mod.Service()
		real := svc.Orders
		svc.Orders = failingOrders{real}
		r := e.complete(cartID, session, "4242424242424242", "")
		if r.Status != http.StatusServiceUnavailable {
			t.Fatalf("orders down: %d %s", r.Status, r.Body)
		}
		if n := e.count("SELECT count(*) FROM payments_payments WHERE status IN ('refunded', 'canceled')"); n != 1 {
			t.Errorf("voided payments: %d", n)
		}
		e.stockAndUses("after the failure", pid, couponID, 5, 0)
		if n := e.count("SELECT count(*) FROM orders"); n != 0 {
			t.Errorf("orders: %d", n)
		}
		svc.Orders = real
		if r := e.complete(cartID, session, "4242424242424242", ""); r.Status != http.StatusOK {
			t.Fatalf("retry: %d %s", r.Status, r.Body)
		}
		e.stockAndUses("after the retry", pid, couponID, 3, 1)
	})
}
