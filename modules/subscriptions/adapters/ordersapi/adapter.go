// Package ordersapi implements the subscriptions module's ports.Orders on the orders
// module's api: the originating order's customer, and the order of each paid cycle.
package ordersapi

import (
	"context"
	"errors"

	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/money"
)

// Adapter is ports.Orders over orders.Orders and orders.Queries.
type Adapter struct {
	orders  orders.Orders
	queries orders.Queries
}

var _ ports.Orders = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(o orders.Orders, q orders.Queries) *Adapter { return &Adapter{orders: o, queries: q} }

// Exists reports whether the order exists.
func (a *Adapter) Exists(ctx context.Context, id string) (bool, error) {
	_, err := a.queries.GetOrder(ctx, id)
	if errors.Is(err, orders.ErrOrderNotFound) {
		return false, nil
	}
	return err == nil, err
}

// CustomerOf is the order's customer.
func (a *Adapter) CustomerOf(ctx context.Context, id string) (string, error) {
	o, err := a.queries.GetOrder(ctx, id)
	if err != nil {
		return "", err
	}
	if o.CustomerID == nil {
		return "", nil
	}
	return *o.CustomerID, nil
}

// Create creates the cycle's order: one line of the product at the invoice's total,
// paid by the cycle's payment (recorded in the same transaction), stock untouched.
func (a *Adapter) Create(ctx context.Context, d ports.OrderDraft) error {
	_, err := a.orders.CreateOrder(ctx, orders.CreateOrderCommand{
		ID: d.ID, CustomerID: d.CustomerID, Currency: d.Currency, SourceName: "subscription", Note: d.Note, NoteAttributes: d.Attributes,
		LineItems:          []orders.LineItemInput{{ProductID: d.ProductID, VariantID: d.VariantID, Quantity: 1, Price: money.Format(d.Price, d.Currency)}},
		InventoryBehaviour: orders.InventoryBypass, PaymentID: d.PaymentID, Tags: []string{"subscription"},
	})
	return err
}
