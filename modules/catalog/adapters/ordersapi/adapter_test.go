package ordersapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/catalog/adapters/ordersapi"
	"github.com/gocommerce/commerce/modules/catalog/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
)

// fakeQueries answers ProductHasOrders from a set; the rest is unused by the catalog.
type fakeQueries struct {
	orders.Queries
	with map[string]bool
	err  error
}

func (f fakeQueries) ProductHasOrders(_ context.Context, id string) (bool, error) {
	return f.with[id], f.err
}

func TestProductHasOrders(t *testing.T) {
	t.Parallel()
	var port ports.Orders = ordersapi.NewAdapter(fakeQueries{with: map[string]bool{"p1": true}})
	for id, want := range map[string]bool{"p1": true, "p2": false} {
		if got, err := port.ProductHasOrders(context.Background(), id); err != nil || got != want {
			t.Errorf("ProductHasOrders(%s) = %v %v, want %v", id, got, err, want)
		}
	}
	boom := errors.New("store down")
	if _, err := ordersapi.NewAdapter(fakeQueries{err: boom}).ProductHasOrders(context.Background(), "p1"); !errors.Is(err, boom) {
		t.Errorf("error not passed on: %v", err)
	}
}
