package exportapi_test

import (
	"context"
	"errors"
	"testing"
	"time"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/customers/adapters/exportapi"
	"github.com/gocommerce/commerce/modules/customers/ports"
	notifications "github.com/gocommerce/commerce/modules/notifications/api"
	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
)

// query is another module's export query with canned resources per customer.
type query[T any] struct {
	list map[string][]T
	err  error
}

func (q *query[T]) export(_ context.Context, customerID string) ([]T, error) {
	return q.list[customerID], q.err
}

// sourceCase is a Source (built as module.go builds it) over a query where customer c1
// has one resource, the checks of that resource's record, and where to set the query's
// error.
type sourceCase struct {
	name  string
	port  func() (ports.Exporter, *error)
	check func(t *testing.T, r ports.Record)
}

func newCase[T any](name, what string, id func(T) string, c1 T, check func(t *testing.T, r ports.Record)) sourceCase {
	return sourceCase{name: name, check: check, port: func() (ports.Exporter, *error) {
		q := &query[T]{list: map[string][]T{"c1": {c1}}}
		return exportapi.NewSource(q.export, what, id), &q.err
	}}
}

func TestSource(t *testing.T) {
	t.Parallel()
	cust, order, tpl := "c1", "o1", "welcome_html"
	cases := []sourceCase{
		newCase("carts", "cart", func(v carts.ExportedCart) string { return v.ID },
			carts.ExportedCart{CartResource: carts.CartResource{ID: "k1", CustomerID: &cust, Currency: "USD", Subtotal: "25.00", CouponCodes: []string{},
				Items: []carts.ItemResource{{ID: "i1", ProductID: "p1", Quantity: 2, UnitPrice: "12.50"}}}, Status: "converted", OrderID: &order},
			func(t *testing.T, r ports.Record) {
				if r["id"] != "k1" || r["customer_id"] != "c1" || r["subtotal"] != "25.00" || r["status"] != "converted" || r["order_id"] != "o1" {
					t.Errorf("record %v", r)
				}
				if items, _ := r["items"].([]any); len(items) != 1 || items[0].(map[string]any)["unit_price"] != "12.50" {
					t.Errorf("record items %v", r["items"])
				}
			}),
		newCase("notifications", "notification", func(v notifications.Notification) string { return v.ID },
			notifications.Notification{ID: "n1", Channel: "email", Recipient: "ada@example.com",
				Subject: "Welcome", Status: "sent", TemplateID: &tpl, Metadata: map[string]any{}, CreatedAt: time.Now()},
			func(t *testing.T, r ports.Record) {
				if r["id"] != "n1" || r["subject"] != "Welcome" || r["template_id"] != "welcome_html" {
					t.Errorf("record %v", r)
				}
			}),
		newCase("subscriptions", "subscription", func(v subscriptions.ExportedSubscription) string { return v.ID },
			subscriptions.ExportedSubscription{Subscription: subscriptions.Subscription{ID: "s1", CustomerID: "c1", Status: "active", Amount: "9.00"},
				Invoices: []subscriptions.Invoice{{ID: "v1", SubscriptionID: "s1", Total: "9.00"}}},
			func(t *testing.T, r ports.Record) {
				if r["id"] != "s1" || r["customer_id"] != "c1" || r["amount"] != "9.00" {
					t.Errorf("record %v", r)
				}
				if invoices, _ := r["invoices"].([]any); len(invoices) != 1 || invoices[0].(map[string]any)["total"] != "9.00" {
					t.Errorf("record invoices %v", r["invoices"])
				}
			}),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			port, fail := c.port()
			recs, err := port.Export(ctx, "c1")
			if err != nil || len(recs) != 1 {
				t.Fatalf("export %v %v", recs, err)
			}
			c.check(t, recs[0])
			if recs, err := port.Export(ctx, "c2"); err != nil || recs == nil || len(recs) != 0 {
				t.Errorf("a customer without any: %v %v", recs, err)
			}
			*fail = errors.New("store down")
			if _, err := port.Export(ctx, "c1"); !errors.Is(err, *fail) {
				t.Errorf("error not passed on: %v", err)
			}
		})
	}
}
