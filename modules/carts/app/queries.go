package app

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/carts/api"
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
