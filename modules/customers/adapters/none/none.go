// Package none holds adapters answering "nothing" for the modules customers reads
// personal data from, for tests that need the module alone (production binds
// adapters/ordersapi and adapters/exportapi).
package none

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/ports"
)

// Orders answers as if no customer had orders.
type Orders struct{}

var _ ports.Orders = Orders{}

// NewOrders builds the default orders adapter.
func NewOrders() Orders { return Orders{} }

// HasOrders answers false.
func (Orders) HasOrders(context.Context, string) (bool, error) { return false, nil }

// ListOrders answers an empty page.
func (Orders) ListOrders(context.Context, string, ports.OrderFilter, int, int) ([]ports.OrderSummary, int64, error) {
	return []ports.OrderSummary{}, 0, nil
}

// ExportOrders answers no records.
func (Orders) ExportOrders(context.Context, string) ([]ports.Record, error) {
	return []ports.Record{}, nil
}

// AnonymizeCustomerOrders has nothing to do.
func (Orders) AnonymizeCustomerOrders(context.Context, string) error { return nil }

// Records exports no records: no carts, subscriptions or notifications (tests;
// production binds adapters/exportapi).
type Records struct{}

var _ ports.Exporter = Records{}

// Export answers no records.
func (Records) Export(context.Context, string) ([]ports.Record, error) {
	return []ports.Record{}, nil
}
