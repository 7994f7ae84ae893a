// Package none holds adapters answering "nothing" for the modules customers reads
// personal data from, for tests that need the module alone (production binds
// adapters/ordersapi, adapters/cartsapi, adapters/notificationsapi and
// adapters/subscriptionsapi).
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

// Carts exports no carts (tests; production binds adapters/cartsapi).
type Carts struct{}

// NewCarts builds the default carts adapter.
func NewCarts() Carts { return Carts{} }

// ExportCarts answers no records.
func (Carts) ExportCarts(context.Context, string) ([]ports.Record, error) {
	return []ports.Record{}, nil
}

// Subscriptions exports no subscriptions.
type Subscriptions struct{}

// NewSubscriptions builds the subscriptions adapter of tests.
func NewSubscriptions() Subscriptions { return Subscriptions{} }

// ExportSubscriptions answers no records.
func (Subscriptions) ExportSubscriptions(context.Context, string) ([]ports.Record, error) {
	return []ports.Record{}, nil
}

// Notifications exports no notifications.
type Notifications struct{}

// NewNotifications builds the default notifications adapter.
func NewNotifications() Notifications { return Notifications{} }

// ExportNotifications answers no records.
func (Notifications) ExportNotifications(context.Context, string) ([]ports.Record, error) {
	return []ports.Record{}, nil
}
