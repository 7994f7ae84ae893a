package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/ports"
)

// Queries is the module's query side (api.Queries): it reads the notification store
// only, so modules the command side depends on (customers) can read it.
type Queries struct {
	repo ports.NotificationRepository
}

var _ api.Queries = (*Queries)(nil)

// NewQueries builds the query side.
func NewQueries(repo ports.NotificationRepository) *Queries { return &Queries{repo: repo} }

// ExportNotifications returns a customer's notifications, newest first.
func (q *Queries) ExportNotifications(ctx context.Context, customerID string) ([]api.Notification, error) {
	ns, err := q.repo.ByCustomer(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return resources(ns, ToResource), nil
}

// resources converts each of items with f, into a list that is never nil (the API
// writes an empty one as []).
func resources[T, R any](items []T, f func(T) R) []R {
	out := make([]R, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}
