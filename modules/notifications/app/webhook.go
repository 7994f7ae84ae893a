package app

import (
	"context"
	"errors"
	"strings"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

// DeliveryEvent is an inbound delivery-status report: its evt_ id, its topic
// (notification.sent, notification.delivered, notification.bounced,
// notification.failed) and the notification it concerns, by our id or by the
// provider's message id.
type DeliveryEvent struct {
	ID, Topic, NotificationID, ProviderMessageID, Error string
}

// Topics of the delivery webhook and the status each sets.
var deliveryTopics = map[string]string{
	"notification.sent":      domain.StatusSent,
	"notification.delivered": domain.StatusDelivered,
	"notification.bounced":   domain.StatusBounced,
	"notification.failed":    domain.StatusFailed,
}

// ApplyDeliveryEvent applies a provider's report once per event id. An unknown
// notification is ignored (answered as received, as providers retry otherwise).
func (s *Service) ApplyDeliveryEvent(ctx context.Context, e DeliveryEvent) error {
	bad := domain.Problems{}
	if !strings.HasPrefix(e.ID, "evt_") {
		bad["id"] = "must begin with evt_"
	}
	status, ok := deliveryTopics[e.Topic]
	if !ok {
		bad["topic"] = "must be one of: notification.sent, notification.delivered, notification.bounced, notification.failed"
	}
	if e.NotificationID == "" && e.ProviderMessageID == "" {
		bad["data.notification_id"] = "is required (or data.provider_message_id)"
	}
	if err := bad.Err(); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		fresh, err := s.stores.Notifications.RecordDeliveryEvent(ctx, e.ID, s.clock.Now())
		if err != nil || !fresh {
			return err
		}
		id := e.NotificationID
		if id == "" {
			n, err := s.stores.Notifications.FindByProviderID(ctx, e.ProviderMessageID)
			if errors.Is(err, domain.ErrNotificationNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			id = n.ID
		}
		_, err = s.stores.Notifications.Update(ctx, id, s.clock.Now(), func(n *domain.Notification) error {
			if !n.DeliveryStatus(s.clock.Now(), status, e.Error) {
				return errSkip
			}
			return nil
		})
		if errors.Is(err, errSkip) || errors.Is(err, domain.ErrNotificationNotFound) {
			return nil
		}
		return err
	})
}

var errSkip = errors.New("notifications: nothing to change")
