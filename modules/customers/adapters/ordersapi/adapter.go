// Package ordersapi implements the customers module's ports.Orders on top of the orders
// module's api (its query side, which depends on no other module, so the wire graph
// stays acyclic).
package ordersapi

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/customers/adapters/exportapi"
	"github.com/gocommerce/commerce/modules/customers/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
)

// Adapter is ports.Orders over orders/api.Queries.
type Adapter struct {
	orders orders.Queries
}

var _ ports.Orders = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q orders.Queries) *Adapter { return &Adapter{orders: q} }

// HasOrders reports whether any order references the customer.
func (a *Adapter) HasOrders(ctx context.Context, customerID string) (bool, error) {
	return a.orders.CustomerHasOrders(ctx, customerID)
}

// ListOrders returns a page of the customer's orders, newest first.
func (a *Adapter) ListOrders(ctx context.Context, customerID string, f ports.OrderFilter, offset, limit int) ([]ports.OrderSummary, int64, error) {
	list, total, err := a.orders.ListCustomerOrders(ctx, customerID, orders.CustomerOrderFilter{Status: f.Status, FinancialStatus: f.FinancialStatus}, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]ports.OrderSummary, 0, len(list))
	for _, o := range list {
		total, err := decimal.NewFromString(o.TotalPrice)
		if err != nil {
			return nil, 0, fmt.Errorf("customers: order %s: total_price %q: %w", o.ID, o.TotalPrice, err)
		}
		out = append(out, ports.OrderSummary{
			ID: o.ID, OrderNumber: o.OrderNumber, Email: o.Email, TotalPrice: total, Currency: o.Currency, Status: o.Status,
			FinancialStatus: o.FinancialStatus, FulfillmentStatus: o.FulfillmentStatus, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
		})
	}
	return out, total, nil
}

// ExportOrders returns every order of the customer as the orders API shows it (with
// fulfillments, refunds and transactions).
func (a *Adapter) ExportOrders(ctx context.Context, customerID string) ([]ports.Record, error) {
	return exportapi.NewSource(a.orders.ExportCustomerOrders, "order", func(v orders.Order) string { return v.ID }).Export(ctx, customerID)
}

// AnonymizeCustomerOrders strips the customer's personal data from its orders, in the
// caller's transaction.
func (a *Adapter) AnonymizeCustomerOrders(ctx context.Context, customerID string) error {
	return a.orders.AnonymizeCustomerOrders(ctx, customerID)
}
