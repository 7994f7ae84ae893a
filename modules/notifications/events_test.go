package notifications_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/adapters/postgres"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/ports"
)

func order(extra map[string]any) map[string]any {
	o := map[string]any{"id": "0190a000-0000-7000-8000-00000000d001", "order_number": "1001", "customer_id": customer1,
		"email": "ada@example.com", "currency": "EUR", "subtotal_price": "40.00", "total_shipping": "5.00", "total_tax": "9.00",
		"total_price": "54.00", "billing_address": map[string]any{"first_name": "Ada"},
		"line_items": []any{map[string]any{"title": "Green tea", "quantity": 2, "price": "20.00", "total": "40.00"}}}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

// The store's own messages: each event delivers its email to the SMTP server once.
func TestStoreMessagesFromEvents(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		h.deliver("checkout.completed", "evt_checkout", map[string]any{"order_id": "0190a000-0000-7000-8000-00000000d001",
			"order_number": "1001", "customer_id": customer1, "email": "ada@example.com", "currency": "EUR", "subtotal": "40.00",
			"shipping_total": "5.00", "tax_total": "9.00", "total": "54.00"})
		m := h.smtp.Wait(t, 1, 5*time.Second)[0]
		if m.Subject() != "Order 1001 confirmed" || m.To[0] != "ada@example.com" || !strings.Contains(m.Part("text/plain"), "Total: 54.00 EUR") ||
			!strings.Contains(m.Part("text/html"), "<strong>1001</strong>") {
			t.Fatalf("confirmation %q: %s", m.Subject(), m.Part("text/plain"))
		}
		// Redelivery, and the same order's order.created with send_receipt, send nothing more.
		h.deliver("checkout.completed", "evt_checkout", map[string]any{"order_id": "0190a000-0000-7000-8000-00000000d001", "email": "ada@example.com"})
		h.deliver("order.created", "evt_oc", order(map[string]any{"send_receipt": true}))
		// An admin order with send_receipt: its confirmation lists the items.
		h.deliver("order.created", "evt_oc2", order(map[string]any{"id": "0190a000-0000-7000-8000-00000000d002", "order_number": "1002",
			"send_receipt": true}))
		h.deliver("order.created", "evt_oc3", order(map[string]any{"id": "0190a000-0000-7000-8000-00000000d003", "send_receipt": false}))
		msgs := h.smtp.Wait(t, 2, 5*time.Second)
		if second := msgs[1]; second.Subject() != "Order 1002 confirmed" || !strings.Contains(second.Part("text/plain"), "- 2 x Green tea: 40.00 EUR") ||
			!strings.Contains(second.Part("text/plain"), "Hi Ada,") {
			t.Errorf("admin order confirmation %q %s", second.Subject(), second.Part("text/plain"))
		}
		h.deliver("order.fulfillment_created", "evt_f", map[string]any{"id": "f1", "order_id": "o1", "order_number": "1001",
			"email": "ada@example.com", "customer_id": customer1, "tracking_number": "1Z999AA10123456784", "tracking_company": "UPS",
			"tracking_url": "https://www.ups.com/track?tracknum=1Z999AA10123456784", "notify_customer": true})
		h.deliver("order.fulfillment_created", "evt_f2", map[string]any{"id": "f2", "order_number": "1001", "email": "ada@example.com",
			"tracking_number": "X", "notify_customer": false})
		h.deliver("order.cancelled", "evt_c", order(map[string]any{"notify_customer": true, "cancel_reason": "customer"}))
		h.deliver("order.payment_received", "evt_p", order(nil))
		h.deliver("payment.failed", "evt_pf", map[string]any{"payment_id": "pay_1", "amount": "54.00", "currency": "EUR",
			"customer_email": "ada@example.com", "error_message": "Your card was declined."})
		h.deliver("order.refund_created", "evt_r", map[string]any{"id": "r1", "order_id": "o1", "amount": "10.00", "currency": "EUR",
			"notify_customer": true, "order_number": "1001", "email": "ada@example.com"})
		h.deliver("customer.invited", "evt_i", map[string]any{"id": customer2, "state": "invited"})
		h.deliver("customer.password_reset", "evt_pw", map[string]any{"id": customer1})
		h.deliver("customer.created", "evt_cc", map[string]any{"id": customer1, "state": "enabled"})
		h.deliver("customer.enabled", "evt_ce", map[string]any{"id": customer1, "state": "enabled"}) // welcomed once
		h.deliver("product.low_stock", "evt_ls", map[string]any{"id": "p1", "title": "Green tea", "inventory_quantity": 3,
			"low_stock_threshold": 5, "variants": []any{map[string]any{"sku": "TEA-1"}}})
		h.deliver("webhook_endpoint.disabled", "evt_wd", map[string]any{"id": "we_1", "url": "https://hooks.example/in", "enabled": false,
			"failure_count": 50, "disabled_reason": "50 consecutive failed deliveries"})
		msgs = h.smtp.Wait(t, 12, 10*time.Second)
		time.Sleep(200 * time.Millisecond)
		if len(h.smtp.Messages()) != 12 {
			t.Errorf("%d messages, want 12", len(h.smtp.Messages()))
		}
		bySubject := map[string]string{}
		for _, m := range msgs {
			bySubject[m.Subject()] = m.To[0] + "\n" + m.Part("text/plain")
		}
		for subject, want := range map[string]string{
			"Your order 1001 has shipped":                         "Tracking number: 1Z999AA10123456784",
			"Your order 1001 has been cancelled":                  "cancelled (customer)",
			"Payment received for order 1001":                     "54.00 EUR",
			"Your payment of 54.00 EUR did not go through":        "Your payment of 54.00 EUR did not go through: Your card was declined.",
			"Your refund for order 1001":                          "refunded 10.00 EUR",
			"You are invited to create your Test Shop account":    "https://shop.example/account/activate/" + customer2 + "/tok",
			"Reset your Test Shop password":                       "https://shop.example/account/reset/" + customer1 + "/tok",
			"Welcome to Test Shop":                                "Hi Ada Lovelace,",
			"Low stock: Green tea (3 left)":                       "staff@example.com\nStock of Green tea (SKU TEA-1",
			"Webhook endpoint disabled: https://hooks.example/in": "staff@example.com\nThe webhook endpoint https://hooks.example/in (we_1) was disabled after 50 failed deliveries in a row: 50 consecutive failed deliveries.",
		} {
			if got, ok := bySubject[subject]; !ok || !strings.Contains(got, want) {
				t.Errorf("%q: %q does not contain %q (subjects %v)", subject, got, want, keys(bySubject))
			}
		}
	})
}

func keys(m map[string]string) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Abandoned carts: a customer cart with items idle past the delay (as the carts module
// reports it) gets one reminder, only when the customer accepts marketing; new
// activity makes it eligible again once idle past the delay.
func TestAbandonedCartReminder(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		old := time.Now().Add(-5 * time.Hour).UTC().Truncate(time.Microsecond)
		h.carts.put(
			ports.CartActivity{CartID: "cart-ada", CustomerID: customer1, Currency: "EUR", Total: "25.00", ItemCount: 2, LastActiveAt: old},
			ports.CartActivity{CartID: "cart-bob", CustomerID: customer2, Currency: "EUR", Total: "9.00", ItemCount: 1, LastActiveAt: old}, // Bob does not accept marketing
			ports.CartActivity{CartID: "cart-fresh", CustomerID: customer1, Currency: "EUR", Total: "3.00", ItemCount: 1, LastActiveAt: time.Now().Add(-time.Hour)},
		)
		if err := h.jobs.RemindAbandonedCarts(ctx); err != nil {
			t.Fatal(err)
		}
		m := h.smtp.Wait(t, 1, 5*time.Second)[0]
		if m.Subject() != "You left something in your cart" || m.To[0] != "ada@example.com" ||
			!strings.Contains(m.Part("text/plain"), "You left 2 item(s) worth 25.00 EUR") {
			t.Errorf("reminder %q %s", m.Subject(), m.Part("text/plain"))
		}
		if err := h.jobs.RemindAbandonedCarts(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if n := len(h.smtp.Messages()); n != 1 {
			t.Errorf("%d reminders, want 1", n)
		}
		if n := h.Count("notifications", "customer_id = ?", customer2); n != 0 {
			t.Errorf("Bob, who refuses marketing, got %d", n)
		}
		// New activity, idle past the delay again: a second reminder.
		h.carts.put(ports.CartActivity{CartID: "cart-ada", CustomerID: customer1, Currency: "EUR", Total: "30.00", ItemCount: 3,
			LastActiveAt: old.Add(30 * time.Minute)})
		if err := h.jobs.RemindAbandonedCarts(ctx); err != nil {
			t.Fatal(err)
		}
		if got := h.smtp.Wait(t, 2, 5*time.Second); !strings.Contains(got[1].Part("text/plain"), "You left 3 item(s) worth 30.00 EUR") {
			t.Errorf("second reminder %s", got[1].Part("text/plain"))
		}
	})
}

// The sweep reads the idle carts page by page: more carts than a page are each
// considered once a run (reminded, or dropped for a customer who refuses marketing).
func TestAbandonedCartSweepPages(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true}, func(t *testing.T, h *harness) {
		old := time.Now().Add(-5 * time.Hour).UTC().Truncate(time.Microsecond)
		for i := range 1100 {
			h.carts.put(ports.CartActivity{CartID: fmt.Sprintf("cart-%04d", i), CustomerID: customer2, Currency: "EUR", Total: "1.00",
				ItemCount: 1, LastActiveAt: old.Add(time.Duration(i%7) * time.Second)})
		}
		if err := h.jobs.RemindAbandonedCarts(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := h.Count("notification_cart_activity", "reminded_at IS NOT NULL"); n != 1100 {
			t.Errorf("%d carts considered, want 1100", n)
		}
	})
}

// The query side exports a customer's notifications (GDPR).
func TestExportNotifications(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true}, func(t *testing.T, h *harness) {
		h.deliver("customer.created", "evt_a", map[string]any{"id": customer1, "state": "enabled"})
		h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(map[string]any{"recipient": "someone@example.com"}), "writer")
		h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer") // to customer1's address
		q := app.NewQueries(postgres.NewNotificationRepository(h.DB))
		list, err := q.ExportNotifications(context.Background(), customer1)
		if err != nil || len(list) != 2 || list[1].TemplateID == nil || *list[1].TemplateID != "welcome_html" || list[0].Recipient != "ada@example.com" {
			t.Fatalf("export %v %v", list, err)
		}
		if list, _ := q.ExportNotifications(context.Background(), customer2); len(list) != 0 {
			t.Errorf("customer2 export %v", list)
		}
	})
}

// A deleted or anonymized customer's notifications lose their personal data; those
// not sent yet are cancelled.
func TestForgetCustomer(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true}, func(t *testing.T, h *harness) {
		sent := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer").Data()["id"].(string)
		if _, err := h.svc.Deliver(context.Background(), sent); err != nil {
			t.Fatal(err)
		}
		pending := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer").Data()["id"].(string)
		other := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(map[string]any{"recipient": "bob@example.com"}),
			"writer").Data()["id"].(string)
		h.deliver("customer.anonymized", "evt_anon", map[string]any{"id": customer1})
		s, p, o := h.get(sent), h.get(pending), h.get(other)
		if s["status"] != "sent" || s["recipient"] != "" || s["subject"] != "" || s["body"] != "" || len(s["metadata"].(map[string]any)) != 0 {
			t.Errorf("sent notification kept personal data: %v", s)
		}
		if p["status"] != "cancelled" || p["recipient"] != "" {
			t.Errorf("pending notification %v", p)
		}
		if o["recipient"] != "bob@example.com" || o["status"] != "pending" {
			t.Errorf("another customer's notification changed: %v", o)
		}
	})
}
