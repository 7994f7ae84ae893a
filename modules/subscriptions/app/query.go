package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
)

// QueryService is the query side other modules read (api.Queries); it depends only on
// the module's own store, so customers may depend on it without a wire cycle.
type QueryService struct {
	repo ports.Repository
}

var _ api.Queries = (*QueryService)(nil)

// NewQueryService builds the query side.
func NewQueryService(repo ports.Repository) *QueryService { return &QueryService{repo: repo} }

// ExportSubscriptions returns every subscription of the customer with its invoices.
func (q *QueryService) ExportSubscriptions(ctx context.Context, customerID string) ([]api.ExportedSubscription, error) {
	subs, err := q.repo.ListByCustomer(ctx, customerID)
	if err != nil {
		return nil, err
	}
	out := make([]api.ExportedSubscription, 0, len(subs))
	for i := range subs {
		invs, err := q.repo.Invoices(ctx, subs[i].ID)
		if err != nil {
			return nil, err
		}
		e := api.ExportedSubscription{Subscription: ToResource(&subs[i]), Invoices: make([]api.Invoice, len(invs))}
		for j := range invs {
			e.Invoices[j] = ToInvoice(&invs[j])
		}
		out = append(out, e)
	}
	return out, nil
}
