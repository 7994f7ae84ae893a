package ordersapi_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/customers/adapters/ordersapi"
	"github.com/gocommerce/commerce/modules/customers/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// fakeQueries is orders/api.Queries with canned answers, recording its calls.
type fakeQueries struct {
	orders.Queries
	summaries  []orders.OrderSummary
	export     []orders.Order
	filter     orders.CustomerOrderFilter
	offset     int
	limit      int
	anonymized []string
	err        error
}

func (f *fakeQueries) CustomerHasOrders(_ context.Context, id string) (bool, error) {
	return id == "c1", f.err
}

func (f *fakeQueries) ListCustomerOrders(_ context.Context, _ string, flt orders.CustomerOrderFilter, offset, limit int) ([]orders.OrderSummary, int64, error) {
	f.filter, f.offset, f.limit = flt, offset, limit
	return f.summaries, 7, f.err
}

func (f *fakeQueries) ExportCustomerOrders(context.Context, string) ([]orders.Order, error) {
	return f.export, f.err
}

func (f *fakeQueries) AnonymizeCustomerOrders(_ context.Context, id string) error {
	f.anonymized = append(f.anonymized, id)
	return f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cust := "c1"
	q := &fakeQueries{
		summaries: []orders.OrderSummary{{ID: "o1", OrderNumber: "1001", Email: "a@example.com", TotalPrice: "25.50", Currency: "USD", Status: "open",
			FinancialStatus: "paid", FulfillmentStatus: "partial", CreatedAt: t0, UpdatedAt: t0.Add(time.Hour)}},
		export: []orders.Order{{ID: "o1", OrderNumber: "1001", CustomerID: &cust, TotalPrice: "25.50", LineItems: []orders.LineItem{{ID: "l1", Quantity: 2}}}},
	}
	var port ports.Orders = ordersapi.NewAdapter(q)
	if has, err := port.HasOrders(ctx, "c1"); err != nil || !has {
		t.Errorf("HasOrders c1 = %v %v", has, err)
	}
	if has, _ := port.HasOrders(ctx, "c2"); has {
		t.Error("HasOrders c2")
	}
	list, total, err := port.ListOrders(ctx, "c1", ports.OrderFilter{Status: "open", FinancialStatus: "paid"}, 20, 10)
	if err != nil || total != 7 || len(list) != 1 {
		t.Fatalf("ListOrders %v %d %v", err, total, list)
	}
	o := list[0]
	if o.ID != "o1" || o.OrderNumber != "1001" || o.TotalPrice.String() != "25.5" || o.FulfillmentStatus != "partial" || !o.UpdatedAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("summary %+v", o)
	}
	if q.filter != (orders.CustomerOrderFilter{Status: "open", FinancialStatus: "paid"}) || q.offset != 20 || q.limit != 10 {
		t.Errorf("passed %+v %d %d", q.filter, q.offset, q.limit)
	}
	recs, err := port.ExportOrders(ctx, "c1")
	if err != nil || len(recs) != 1 || recs[0]["order_number"] != "1001" || recs[0]["customer_id"] != "c1" || recs[0]["total_price"] != "25.50" {
		t.Fatalf("ExportOrders %v %v", err, recs)
	}
	if lines, _ := recs[0]["line_items"].([]any); len(lines) != 1 {
		t.Errorf("export lines %v", recs[0]["line_items"])
	}
	if err := port.AnonymizeCustomerOrders(ctx, "c1"); err != nil || len(q.anonymized) != 1 || q.anonymized[0] != "c1" {
		t.Errorf("anonymize %v %v", err, q.anonymized)
	}
	q.summaries = []orders.OrderSummary{{ID: "o2", TotalPrice: "x"}}
	if _, _, err := port.ListOrders(ctx, "c1", ports.OrderFilter{}, 0, 10); err == nil {
		t.Error("a malformed total was accepted")
	}
	q.err = errors.New("store down")
	if _, err := port.ExportOrders(ctx, "c1"); !errors.Is(err, q.err) {
		t.Errorf("error not passed on: %v", err)
	}
}
