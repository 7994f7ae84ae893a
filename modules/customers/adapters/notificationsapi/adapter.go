// Package notificationsapi implements the customers module's ports.Notifications on
// top of the notifications module's api (its query side, which depends on no other
// module, so the wire graph stays acyclic: docs/decisions/0108).
package notificationsapi

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/adapters/internal/export"
	"github.com/gocommerce/commerce/modules/customers/ports"
	notifications "github.com/gocommerce/commerce/modules/notifications/api"
)

// Adapter is ports.Notifications over notifications/api.Queries.
type Adapter struct {
	notifications notifications.Queries
}

var _ ports.Notifications = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(q notifications.Queries) *Adapter { return &Adapter{notifications: q} }

// ExportNotifications returns every notification sent to the customer as the
// notifications API shows it, newest first.
func (a *Adapter) ExportNotifications(ctx context.Context, customerID string) ([]ports.Record, error) {
	list, err := a.notifications.ExportNotifications(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return export.Records(list, "notification", func(v notifications.Notification) string { return v.ID })
}
