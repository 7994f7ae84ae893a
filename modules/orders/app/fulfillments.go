package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// FulfillCommand ships line items (all that is left when Lines is empty).
type FulfillCommand struct {
	LocationID string
	Lines      []domain.FulfillmentLine
	Tracking   domain.Tracking
}

// CreateFulfillment ships line items of an open order: order.fulfillment_created and
// order.updated (fulfillment_status moved).
func (s *Service) CreateFulfillment(ctx context.Context, a Actor, key string, cmd FulfillCommand) (api.Fulfillment, error) {
	if err := a.write(); err != nil {
		return api.Fulfillment{}, err
	}
	if cmd.LocationID != "" && !ids.Valid(cmd.LocationID) {
		return api.Fulfillment{}, apperr.Validation(map[string]string{"location_id": "must be a UUID"})
	}
	return s.changeFulfillment(ctx, key, api.EventOrderFulfillmentCreated, true, func(o *domain.Order) (*domain.Fulfillment, error) {
		return o.Fulfill(s.newID(), cmd.LocationID, cmd.Lines, cmd.Tracking, s.clock.Now())
	})
}

// UpdateFulfillment changes a fulfillment's tracking: order.fulfillment_updated.
func (s *Service) UpdateFulfillment(ctx context.Context, a Actor, key, fulfillmentID string, t domain.Tracking) (api.Fulfillment, error) {
	if err := a.write(); err != nil {
		return api.Fulfillment{}, err
	}
	return s.changeFulfillment(ctx, key, api.EventOrderFulfillmentUpdated, false, func(o *domain.Order) (*domain.Fulfillment, error) {
		return o.UpdateTracking(fulfillmentID, t, s.clock.Now())
	})
}

// CancelFulfillment cancels a fulfillment: order.fulfillment_cancelled and order.updated.
func (s *Service) CancelFulfillment(ctx context.Context, a Actor, key, fulfillmentID string) (api.Fulfillment, error) {
	if err := a.write(); err != nil {
		return api.Fulfillment{}, err
	}
	return s.changeFulfillment(ctx, key, api.EventOrderFulfillmentCancelled, true, func(o *domain.Order) (*domain.Fulfillment, error) {
		return o.CancelFulfillment(fulfillmentID, s.clock.Now())
	})
}

// changeFulfillment applies change to the order under key and publishes eventType
// with the fulfillment it returns (and order.updated when orderChanged).
func (s *Service) changeFulfillment(ctx context.Context, key, eventType string, orderChanged bool, change func(o *domain.Order) (*domain.Fulfillment, error)) (api.Fulfillment, error) {
	var f *domain.Fulfillment
	o, err := s.change(ctx, key, func(_ context.Context, o *domain.Order) error {
		var err error
		f, err = change(o)
		return err
	}, func(ctx context.Context, o *domain.Order) error {
		return s.publishFulfillment(ctx, eventType, o, f, orderChanged)
	})
	if err != nil {
		return api.Fulfillment{}, err
	}
	return ToFulfillment(o, f), nil
}

func (s *Service) publishFulfillment(ctx context.Context, eventType string, o *domain.Order, f *domain.Fulfillment, orderChanged bool) error {
	if err := s.publish(ctx, eventType, o.ID, api.FulfillmentEvent{Fulfillment: ToFulfillment(o, f), OrderRef: ref(o)}); err != nil {
		return err
	}
	if orderChanged {
		return s.publishOrder(ctx, api.EventOrderUpdated, o)
	}
	return nil
}
