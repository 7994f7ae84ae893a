package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// ListOrders answers a page of the customer's order history (through the orders
// port; empty until the orders module provides it).
func (s *Service) ListOrders(ctx context.Context, a Actor, customer string, f ports.OrderFilter, p Page) ([]ports.OrderSummary, int64, error) {
	c, err := s.load(ctx, a, customer)
	if err != nil {
		return nil, 0, err
	}
	list, total, err := s.orders.ListOrders(ctx, string(c.ID), f, p.Offset, p.Limit)
	if err != nil {
		return nil, 0, err
	}
	if list == nil {
		list = []ports.OrderSummary{}
	}
	return list, total, nil
}

// RecordOrder keeps an order's fact from an order event and recomputes the statistics
// of its customer (and of its previous customer when the order moved). Re-delivered
// or stale events change nothing: facts are keyed by order id and ordered by the
// order's updated_at.
func (s *Service) RecordOrder(ctx context.Context, f domain.OrderFact) error {
	if f.CustomerID == "" || f.OrderID == "" {
		return nil
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		applied, prev, err := s.stats.Record(ctx, f)
		if err != nil || !applied {
			return err
		}
		if err := s.recompute(ctx, f.CustomerID); err != nil {
			return err
		}
		if prev != "" && prev != f.CustomerID {
			return s.recompute(ctx, prev)
		}
		return nil
	})
}

func (s *Service) recompute(ctx context.Context, id domain.CustomerID) error {
	facts, err := s.stats.ForCustomer(ctx, id)
	if err != nil {
		return err
	}
	return s.repo.SetStats(ctx, id, domain.ComputeStats(facts))
}
