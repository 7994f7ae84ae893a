// Package notificationsapi implements the subscriptions module's ports.Notifier on the
// notifications module's api (the dunning emails).
package notificationsapi

import (
	"context"

	notifications "github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
)

// Adapter is ports.Notifier over notifications.Notifications.
type Adapter struct{ n notifications.Notifications }

var _ ports.Notifier = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(n notifications.Notifications) *Adapter { return &Adapter{n: n} }

// Send sends the email from its template.
func (a *Adapter) Send(ctx context.Context, m ports.Message) (string, error) {
	out, err := a.n.Send(ctx, notifications.Message{Channel: "email", Recipient: m.Recipient, CustomerID: m.CustomerID,
		TemplateID: m.TemplateID, Variables: m.Variables, Metadata: m.Metadata, Priority: "high"})
	return out.ID, err
}
