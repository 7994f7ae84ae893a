package app

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/ids"
)

// QueryService is the read side of the module for other modules (api.Queries). It
// depends only on the module's own store and the clock, so the customers module can
// read it through its port while the command Service depends on customers' addresses
// (docs/decisions/0108).
type QueryService struct {
	repo  ports.CartRepository
	clock clock.Clock
}

var _ api.Queries = (*QueryService)(nil)

// NewQueryService builds the read side.
func NewQueryService(repo ports.CartRepository, clk clock.Clock) *QueryService {
	return &QueryService{repo: repo, clock: clk}
}

func (q *QueryService) now() time.Time { return q.clock.Now().UTC() }

// ExportCarts returns the customer's carts, newest first, each with its items, its
// status (expired once its expiry has passed) and the order it became (api.Queries,
// for data exports).
func (q *QueryService) ExportCarts(ctx context.Context, customerID string) ([]api.ExportedCart, error) {
	customerID = strings.ToLower(strings.TrimSpace(customerID))
	if !ids.Valid(customerID) {
		return []api.ExportedCart{}, nil
	}
	cs, err := q.repo.ForCustomer(ctx, customerID)
	if err != nil {
		return nil, err
	}
	now := q.now()
	out := make([]api.ExportedCart, len(cs))
	for i, c := range cs {
		out[i] = api.ExportedCart{CartResource: ToResource(c), Status: string(c.EffectiveStatus(now))}
		if c.ConvertedOrderID != "" {
			id := c.ConvertedOrderID
			out[i].OrderID = &id
		}
	}
	return out, nil
}

// IdleCustomerCarts returns active customer carts with items idle since before, after
// the cursor (api.Queries, for the abandoned-cart sweep).
func (q *QueryService) IdleCustomerCarts(ctx context.Context, before time.Time, after api.IdleCart, limit int) ([]api.IdleCart, error) {
	limit = min(max(limit, 1), 500)
	cs, err := q.repo.IdleCustomerCarts(ctx, before, q.now(), after.UpdatedAt, after.ID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]api.IdleCart, len(cs))
	for i, c := range cs {
		out[i] = api.IdleCart{ID: string(c.ID), CustomerID: c.CustomerID, Currency: c.Currency, Total: domain.Format(c.Total(), c.Currency),
			ItemCount: c.ItemCount, UpdatedAt: c.UpdatedAt}
	}
	return out, nil
}
