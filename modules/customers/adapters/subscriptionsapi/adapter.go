// Package subscriptionsapi implements the customers module's ports.Subscriptions on
// top of the subscriptions module's api (its query side, which depends on no other
// module, so the wire graph stays acyclic: docs/decisions/0108).
package subscriptionsapi

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/adapters/internal/export"
	"github.com/gocommerce/commerce/modules/customers/ports"
	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
)

// Adapter is ports.Subscriptions over subscriptions/api.Queries.
type Adapter struct {
	subs subscriptions.Queries
}

var _ ports.Subscriptions = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q subscriptions.Queries) *Adapter { return &Adapter{subs: q} }

// ExportSubscriptions returns every subscription of the customer as the subscriptions
// API shows it, with its invoices.
func (a *Adapter) ExportSubscriptions(ctx context.Context, customerID string) ([]ports.Record, error) {
	list, err := a.subs.ExportSubscriptions(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return export.Records(list, "subscription", func(v subscriptions.ExportedSubscription) string { return v.ID })
}
