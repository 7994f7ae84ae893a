package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/platform/ids"
)

// orderID is the id a create command names (a UUID, checkout's), else a new one.
func orderID(given string, newID func() string) string {
	if ids.Valid(given) {
		return strings.ToLower(given)
	}
	return newID()
}

// CancelOrder cancels an open order for another module (api.Orders): no restock, no
// customer notification.
func (s *Service) CancelOrder(ctx context.Context, orderID, reason string) (api.Order, error) {
	return s.Cancel(ctx, Actor{Label: "checkout"}, orderID, CancelCommand{Reason: reason})
}
