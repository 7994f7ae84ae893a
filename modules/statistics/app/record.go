package app

import (
	"context"
	"maps"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
)

// RecordOrder takes an order as an order event shows it (created, updated, cancelled,
// closed, reopened, payment received): its record replaces the stored one and the
// rollups get the difference, in one transaction, so they stay exact whatever changes
// (refunds, cancellations, fulfillment). An event older than the stored record (by the
// order's updated_at) changes nothing; the same event twice, or an event that shows
// the order as recorded, writes nothing.
func (s *Service) RecordOrder(ctx context.Context, o ports.OrderFacts) error {
	return s.RecordOrders(ctx, []ports.OrderFacts{o})
}

// RecordOrders records order events in the order given (a relay batch, decision
// 0231), each as RecordOrder would one after the other, and writes what the batch
// changed together in one transaction: one read of the stored records, the rollup
// cells' differences summed per cell, the records and their lines in one statement
// each.
func (s *Service) RecordOrders(ctx context.Context, facts []ports.OrderFacts) error {
	ids := make([]string, 0, len(facts))
	seen := make(map[string]bool, len(facts))
	for _, f := range facts {
		if f.ID != "" && !seen[f.ID] {
			seen[f.ID] = true
			ids = append(ids, f.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		stored, err := s.repo.Orders(ctx, ids)
		if err != nil {
			return err
		}
		cur := maps.Clone(stored)
		for _, f := range facts {
			if f.ID == "" {
				continue
			}
			old := cur[f.ID]
			rec := s.orderRecord(f, old)
			if old != nil && (old.Version > rec.Version || old.Same(rec)) {
				continue
			}
			cur[f.ID] = rec
		}
		changes := make([]ports.OrderChange, 0, len(ids))
		for _, id := range ids {
			if rec, old := cur[id], stored[id]; rec != old {
				changes = append(changes, ports.OrderChange{Old: old, New: rec})
			}
		}
		if len(changes) == 0 {
			return nil
		}
		if err := s.applyChanges(ctx, changes); err != nil {
			return err
		}
		if err := s.repo.SaveOrders(ctx, changes); err != nil {
			return err
		}
		return s.refreshCustomers(ctx, changes)
	})
}

// applyChanges gives the rollups what the changes make: each cell's difference in one
// statement per day cell (cells in key order, so that concurrent writers lock them in
// the same order) and one for the product cells, nothing for a cell that does not
// change (an order paid keeps its product cells).
func (s *Service) applyChanges(ctx context.Context, changes []ports.OrderChange) error {
	daily := map[domain.DailyKey]domain.Measures{}
	cells := map[domain.ProductKey]domain.ProductMeasures{}
	for _, c := range changes {
		k, m := c.New.Daily()
		d := daily[k]
		d.Add(m, 1)
		daily[k] = d
		for pk, pm := range c.New.Products() {
			cells[pk] = cells[pk].Plus(pm)
		}
		if c.Old == nil {
			continue
		}
		ok, om := c.Old.Daily()
		d = daily[ok]
		d.Add(om, -1)
		daily[ok] = d
		for pk, pm := range c.Old.Products() {
			cells[pk] = cells[pk].Minus(pm)
		}
	}
	for _, k := range domain.SortedDailyKeys(daily) {
		if m := daily[k]; m != (domain.Measures{}) {
			if err := s.repo.AddDaily(ctx, k, m, 1); err != nil {
				return err
			}
		}
	}
	return s.repo.AddProducts(ctx, cells)
}

// refreshCustomers recomputes the totals of the customers whose orders changed in a
// way their totals see (and of an order's former customer or currency), once each.
func (s *Service) refreshCustomers(ctx context.Context, changes []ports.OrderChange) error {
	type key struct{ customer, currency string }
	var todo []key
	done := map[key]bool{}
	add := func(k key) {
		if !done[k] {
			done[k] = true
			todo = append(todo, k)
		}
	}
	for _, c := range changes {
		if c.Old != nil && !domain.CustomerTotalsChange(c.Old, c.New) {
			continue
		}
		add(key{c.New.CustomerID, c.New.Currency})
		if c.Old != nil && (c.Old.CustomerID != c.New.CustomerID || c.Old.Currency != c.New.Currency) {
			add(key{c.Old.CustomerID, c.Old.Currency})
		}
	}
	for _, k := range todo {
		if err := s.repo.RefreshCustomer(ctx, k.customer, k.currency); err != nil {
			return err
		}
	}
	return nil
}

// orderRecord is what the statistics keep of o; old (nil for a first event) lends
// what this event may not carry (the payment method, the first shipment's time).
func (s *Service) orderRecord(o ports.OrderFacts, old *domain.Order) *domain.Order {
	created := orTime(o.CreatedAt, s.clock.Now())
	version := orTime(o.UpdatedAt, created)
	rec := &domain.Order{
		ID: o.ID, Version: version.UnixMicro(), Currency: strings.ToUpper(o.Currency), Day: s.day(created),
		CreatedAt: created.Unix(), Channel: orDefault(o.Channel, "unknown"), Country: orDefault(strings.ToUpper(strings.TrimSpace(o.Country)), "unknown"),
		Gross: domain.ParseUnits(o.TotalPrice), Discounts: domain.ParseUnits(o.TotalDiscounts),
		Refunded: domain.ParseUnits(o.TotalRefunded), PaymentMethod: "unknown", CustomerID: o.CustomerID,
	}
	refundedItems := 0
	for i, l := range o.Lines {
		price, err := decimal.NewFromString(strings.TrimSpace(l.Price))
		if err != nil {
			price = decimal.Zero
		}
		rec.Items += l.Quantity
		refundedItems += l.RefundedQuantity
		rec.Lines = append(rec.Lines, domain.Line{
			Line: i, ProductID: l.ProductID, VariantID: l.VariantID, Title: l.Title, SKU: l.SKU,
			Quantity: l.Quantity, RefundedQty: l.RefundedQuantity,
			Revenue:  domain.Units(price.Mul(decimal.NewFromInt(int64(l.Quantity)))),
			Refunded: domain.Units(price.Mul(decimal.NewFromInt(int64(l.RefundedQuantity)))),
		})
	}
	rec.Status = domain.StatusKey(o.Status, o.FinancialStatus, o.FulfillmentStatus)
	rec.Fulfillment = domain.FulfillmentKey(o.FulfillmentStatus, refundedItems)
	if o.ClosedAt != nil {
		rec.ClosedAt = o.ClosedAt.Unix()
	}
	switch {
	case o.PaymentMethod != "":
		rec.PaymentMethod = o.PaymentMethod
	case old != nil:
		rec.PaymentMethod = old.PaymentMethod
	}
	rec.FulfilledAt = s.firstShipment(o, old, rec.Fulfillment)
	if rec.FulfilledAt > 0 {
		rec.FulfilledSameDay = s.day(time.Unix(rec.FulfilledAt, 0)) == rec.Day
	}
	return rec
}

// firstShipment is the instant of the order's first shipment: the earliest successful
// fulfillment the event carries, else the one already recorded, else the event's
// updated_at when it is the first to show the order shipped; 0 while unshipped.
func (s *Service) firstShipment(o ports.OrderFacts, old *domain.Order, fulfillment string) int64 {
	switch {
	case fulfillment == domain.FulfillUnfulfilled:
		return 0
	case o.FirstShipment != nil:
		return o.FirstShipment.Unix()
	case old != nil && old.FulfilledAt > 0:
		return old.FulfilledAt
	case !o.UpdatedAt.IsZero():
		return o.UpdatedAt.Unix()
	default:
		return s.clock.Now().Unix()
	}
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// orTime is t, or def when an event did not give t (zero).
func orTime(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}

// RecordProduct keeps a product's title, type, stock and its variants' costs and
// stock as a product event shows them.
func (s *Service) RecordProduct(ctx context.Context, p ports.Product) error {
	return s.RecordProducts(ctx, []ports.Product{p})
}

// RecordProducts records products as events showed them, in order: each product's last
// snapshot is the one kept, all in one write (decision 0231).
func (s *Service) RecordProducts(ctx context.Context, ps []ports.Product) error {
	at := make(map[string]int, len(ps))
	latest := make([]ports.Product, 0, len(ps))
	for _, p := range ps {
		if p.ID == "" {
			continue
		}
		p.Currency = strings.ToUpper(p.Currency)
		if i, seen := at[p.ID]; seen {
			latest[i] = p
			continue
		}
		at[p.ID] = len(latest)
		latest = append(latest, p)
	}
	if len(latest) == 0 {
		return nil
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error { return s.repo.SaveProducts(ctx, latest) })
}

// ForgetProduct removes a deleted product.
func (s *Service) ForgetProduct(ctx context.Context, id string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error { return s.repo.DeleteProduct(ctx, id) })
}

// RecordCustomer keeps a new customer's creation day.
func (s *Service) RecordCustomer(ctx context.Context, c ports.CustomerFacts) error {
	if c.ID == "" {
		return nil
	}
	created := orTime(c.CreatedAt, s.clock.Now())
	return s.repo.SaveCustomer(ctx, c.ID, s.day(created), created.Unix())
}

// ForgetCustomer removes a deleted customer (its orders stay in the rollups).
func (s *Service) ForgetCustomer(ctx context.Context, id string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error { return s.repo.DeleteCustomer(ctx, id) })
}

// RecordSubscription keeps a subscription's status, monthly amount and the days it
// started and ended, as a subscription event shows it (an older event changes nothing).
func (s *Service) RecordSubscription(ctx context.Context, f ports.SubscriptionFacts) error {
	if f.ID == "" {
		return nil
	}
	started := orTime(f.StartsAt, f.CreatedAt)
	version := orTime(f.UpdatedAt, s.clock.Now())
	rec := domain.Subscription{ID: f.ID, Currency: strings.ToUpper(f.Currency), Status: f.Status, Version: version.UnixMicro(),
		MRR: domain.MonthlyAmount(f.Amount, f.Interval, f.IntervalCount), StartedDay: s.day(started)}
	if domain.Ended(f.Status) {
		end := version
		switch {
		case f.CancelledAt != nil:
			end = *f.CancelledAt
		case f.EndsAt != nil:
			end = *f.EndsAt
		}
		rec.EndedDay = s.day(end)
	}
	return s.repo.SaveSubscription(ctx, rec)
}
