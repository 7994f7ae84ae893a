package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Update changes the limited set of editable fields (PUT /orders/{id}) and writes
// order.updated when anything changed.
func (s *Service) Update(ctx context.Context, a Actor, key string, p domain.Patch) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	changed := false
	return s.changeOrder(ctx, key, func(_ context.Context, o *domain.Order) error {
		var err error
		changed, err = o.Update(p, s.clock.Now())
		return err
	}, func(ctx context.Context, o *domain.Order) error {
		if !changed {
			return nil
		}
		return s.publishOrder(ctx, api.EventOrderUpdated, o)
	})
}

// CancelCommand cancels an order.
type CancelCommand struct {
	Reason         string // customer_request, fraudulent, inventory, other (default other)
	Restock        bool   // give the claimed, unfulfilled stock back
	NotifyCustomer bool
}

// Cancel cancels an open order (with or without fulfillments); with restock the units
// the order took from stock and did not ship go back through the inventory port in the
// same transaction.
func (s *Service) Cancel(ctx context.Context, a Actor, key string, cmd CancelCommand) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	reason := domain.CancelReason(cmd.Reason)
	if reason == "" {
		reason = domain.CancelOther
	}
	if !reason.Valid() {
		return api.Order{}, apperr.Validation(map[string]string{"reason": "must be one of: customer_request, fraudulent, inventory, other"})
	}
	return s.changeOrder(ctx, key, func(ctx context.Context, o *domain.Order) error {
		if err := o.Cancel(reason, s.clock.Now()); err != nil {
			return err
		}
		if cmd.Restock {
			return s.restock(ctx, o, o.RestockUnfulfilled())
		}
		return nil
	}, func(ctx context.Context, o *domain.Order) error {
		return s.publish(ctx, api.EventOrderCancelled, o.ID, api.OrderCancelled{Order: ToOrder(o), Restock: cmd.Restock, NotifyCustomer: cmd.NotifyCustomer})
	})
}

// Close closes a fulfilled, paid order.
func (s *Service) Close(ctx context.Context, a Actor, key string) (api.Order, error) {
	return s.transition(ctx, a, key, api.EventOrderClosed, func(o *domain.Order) error { return o.Close(s.clock.Now()) })
}

// Reopen reopens a closed or cancelled order.
func (s *Service) Reopen(ctx context.Context, a Actor, key string) (api.Order, error) {
	return s.transition(ctx, a, key, api.EventOrderReopened, func(o *domain.Order) error { return o.Reopen(s.clock.Now()) })
}

func (s *Service) transition(ctx context.Context, a Actor, key, event string, fn func(*domain.Order) error) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	return s.changeOrder(ctx, key, func(_ context.Context, o *domain.Order) error { return fn(o) },
		func(ctx context.Context, o *domain.Order) error { return s.publishOrder(ctx, event, o) })
}
