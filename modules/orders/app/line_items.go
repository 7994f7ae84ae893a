package app

import (
	"context"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// AddLineItem adds a line (variant_id, product_id or both) to an open unfulfilled order
// (stock claimed as the order's inventory behaviour says) and writes order.updated.
func (s *Service) AddLineItem(ctx context.Context, a Actor, key string, in api.LineItemInput) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	if fields := checkLineRef(in); len(fields) > 0 {
		return api.Order{}, apperr.Validation(fields)
	}
	if err := domain.CheckQuantity(in.Quantity); err != nil {
		return api.Order{}, err
	}
	return s.updateOrder(ctx, key, func(ctx context.Context, o *domain.Order) error {
		now := s.clock.Now()
		li, err := s.lineItem(ctx, o, in, "line_item", now)
		if err != nil {
			return unprefix(err)
		}
		if err := o.AddLineItem(li, now); err != nil {
			return err
		}
		return s.claim(ctx, o, []*domain.LineItem{li})
	})
}

// unprefix drops the "line_item." prefix of field names (the body is the line item).
func unprefix(err error) error {
	ae, ok := apperr.As(err)
	if !ok || len(ae.Fields) == 0 {
		return err
	}
	fields := map[string]string{}
	for k, v := range ae.Fields {
		fields[strings.TrimPrefix(k, "line_item.")] = v
	}
	c := *ae
	c.Fields = fields
	return &c
}

// ChangeLineItemCommand changes a line's quantity and/or price (nil: unchanged; price
// is a decimal string).
type ChangeLineItemCommand struct {
	Quantity *int
	Price    *string
}

// ChangeLineItem changes a line of an open unfulfilled order: more units are claimed,
// fewer units give their claimed stock back.
func (s *Service) ChangeLineItem(ctx context.Context, a Actor, key, lineID string, cmd ChangeLineItemCommand) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	if cmd.Quantity != nil {
		if err := domain.CheckQuantity(*cmd.Quantity); err != nil {
			return api.Order{}, err
		}
	}
	return s.updateOrder(ctx, key, func(ctx context.Context, o *domain.Order) error {
		var price *decimal.Decimal
		if cmd.Price != nil {
			p, err := domain.ParseMoney(*cmd.Price, o.Currency, "price")
			if err != nil {
				return err
			}
			price = &p
		}
		li, delta, err := o.ChangeLineItem(lineID, cmd.Quantity, price, s.clock.Now())
		if err != nil {
			return err
		}
		switch {
		case delta > 0:
			return s.claim(ctx, o, []*domain.LineItem{li})
		case delta < 0:
			if rs, ok := domain.ReleaseExcess(li, li.Quantity); ok {
				return s.restock(ctx, o, []domain.Restock{rs})
			}
		}
		return nil
	})
}

// RemoveLineItem removes a line of an open unfulfilled order and gives its claimed stock
// back.
func (s *Service) RemoveLineItem(ctx context.Context, a Actor, key, lineID string) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	return s.updateOrder(ctx, key, func(ctx context.Context, o *domain.Order) error {
		li, err := o.RemoveLineItem(lineID, s.clock.Now())
		if err != nil {
			return err
		}
		if rs, ok := domain.ReleaseExcess(li, 0); ok {
			return s.restock(ctx, o, []domain.Restock{rs})
		}
		return nil
	})
}

// updateOrder applies change to the order under key and publishes order.updated.
func (s *Service) updateOrder(ctx context.Context, key string, change func(ctx context.Context, o *domain.Order) error) (api.Order, error) {
	return s.changeOrder(ctx, key, change, func(ctx context.Context, o *domain.Order) error { return s.publishOrder(ctx, api.EventOrderUpdated, o) })
}
