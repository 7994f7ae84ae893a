package cartsapi_test

import (
	"context"
	"errors"
	"testing"

	carts "github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/customers/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// fakeQueries is carts/api.Queries with canned carts per customer.
type fakeQueries struct {
	carts map[string][]carts.ExportedCart
	err   error
}

func (f *fakeQueries) ExportCarts(_ context.Context, customerID string) ([]carts.ExportedCart, error) {
	return f.carts[customerID], f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cust, order := "c1", "o1"
	q := &fakeQueries{carts: map[string][]carts.ExportedCart{"c1": {
		{CartResource: carts.CartResource{ID: "k1", CustomerID: &cust, Currency: "USD", Subtotal: "25.00", CouponCodes: []string{},
			Items: []carts.ItemResource{{ID: "i1", ProductID: "p1", Quantity: 2, UnitPrice: "12.50"}}}, Status: "converted", OrderID: &order},
	}}}
	var port ports.Carts = cartsapi.NewAdapter(q)
	recs, err := port.ExportCarts(ctx, "c1")
	if err != nil || len(recs) != 1 {
		t.Fatalf("ExportCarts %v %v", recs, err)
	}
	r := recs[0]
	if r["id"] != "k1" || r["customer_id"] != "c1" || r["subtotal"] != "25.00" || r["status"] != "converted" || r["order_id"] != "o1" {
		t.Errorf("record %v", r)
	}
	if items, _ := r["items"].([]any); len(items) != 1 || items[0].(map[string]any)["unit_price"] != "12.50" {
		t.Errorf("record items %v", r["items"])
	}
	if recs, err := port.ExportCarts(ctx, "c2"); err != nil || recs == nil || len(recs) != 0 {
		t.Errorf("a customer without carts: %v %v", recs, err)
	}
	q.err = errors.New("store down")
	if _, err := port.ExportCarts(ctx, "c1"); !errors.Is(err, q.err) {
		t.Errorf("error not passed on: %v", err)
	}
}
