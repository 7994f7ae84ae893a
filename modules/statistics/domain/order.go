package domain

import (
	"cmp"
	"maps"
	"slices"
)

// Order is what the statistics keep of an order (statistics_orders) and give the
// rollups; Version orders the events (the order's updated_at in microseconds).
type Order struct {
	ID               string
	Version          int64
	Currency         string
	CustomerID       string
	Day              string
	CreatedAt        int64
	Status           string // a status key
	Fulfillment      string // a fulfillment key
	Channel          string
	PaymentMethod    string
	Country          string
	Items            int
	Gross            int64 // total_price
	Discounts        int64
	Refunded         int64
	ClosedAt         int64 // 0 while open
	FulfilledAt      int64 // first shipment; 0 before
	FulfilledSameDay bool
	Lines            []Line
}

// Line is a line of an Order.
type Line struct {
	Line                  int
	ProductID, VariantID  string
	Title, SKU            string
	Quantity, RefundedQty int
	Revenue, Refunded     int64
}

// Same reports whether p is the same record as o: every field and line alike (a
// second event of an unchanged order, such as order.payment_received written with
// order.created, changes nothing).
func (o *Order) Same(p *Order) bool {
	return o.ID == p.ID && o.Version == p.Version && o.Currency == p.Currency && o.CustomerID == p.CustomerID &&
		o.Day == p.Day && o.CreatedAt == p.CreatedAt && o.Status == p.Status && o.Fulfillment == p.Fulfillment &&
		o.Channel == p.Channel && o.PaymentMethod == p.PaymentMethod && o.Country == p.Country && o.Items == p.Items &&
		o.Gross == p.Gross && o.Discounts == p.Discounts && o.Refunded == p.Refunded && o.ClosedAt == p.ClosedAt &&
		o.FulfilledAt == p.FulfilledAt && o.FulfilledSameDay == p.FulfilledSameDay && slices.Equal(o.Lines, p.Lines)
}

// Counted reports whether the order counts in sales figures (not cancelled).
func (o *Order) Counted() bool { return o.Status != StatusCancelled }

// DailyKey is a cell of the daily rollup.
type DailyKey struct {
	Day, Currency, Channel, PaymentMethod, Status, Fulfillment, Country string
}

// Measures are the sums of a cell of the daily rollup.
type Measures struct {
	Orders, Items, Gross, Discounts, Refunded                int64
	ClosedOrders, ClosedSecs, FulfilledOrders, FulfilledSecs int64
	SameDay, Within48h                                       int64
}

// Add adds m2 times sign to m.
func (m *Measures) Add(m2 Measures, sign int64) {
	m.Orders += sign * m2.Orders
	m.Items += sign * m2.Items
	m.Gross += sign * m2.Gross
	m.Discounts += sign * m2.Discounts
	m.Refunded += sign * m2.Refunded
	m.ClosedOrders += sign * m2.ClosedOrders
	m.ClosedSecs += sign * m2.ClosedSecs
	m.FulfilledOrders += sign * m2.FulfilledOrders
	m.FulfilledSecs += sign * m2.FulfilledSecs
	m.SameDay += sign * m2.SameDay
	m.Within48h += sign * m2.Within48h
}

// Daily is the order's cell and what it adds to it.
func (o *Order) Daily() (DailyKey, Measures) {
	k := DailyKey{Day: o.Day, Currency: o.Currency, Channel: o.Channel, PaymentMethod: o.PaymentMethod,
		Status: o.Status, Fulfillment: o.Fulfillment, Country: o.Country}
	m := Measures{Orders: 1, Items: int64(o.Items), Gross: o.Gross, Discounts: o.Discounts, Refunded: o.Refunded}
	if o.ClosedAt > 0 {
		m.ClosedOrders, m.ClosedSecs = 1, max(o.ClosedAt-o.CreatedAt, 0)
	}
	if o.FulfilledAt > 0 {
		secs := max(o.FulfilledAt-o.CreatedAt, 0)
		m.FulfilledOrders, m.FulfilledSecs = 1, secs
		if o.FulfilledSameDay {
			m.SameDay = 1
		}
		if secs <= 48*3600 {
			m.Within48h = 1
		}
	}
	return k, m
}

// ProductKey is a cell of the product rollup.
type ProductKey struct{ Day, Currency, ProductID, VariantID string }

// ProductMeasures are the sums of a cell of the product rollup.
type ProductMeasures struct{ Orders, Quantity, RefundedQty, Revenue, Refunded int64 }

// Products is what the order adds to the product rollup (nothing when cancelled); an
// order with two lines of a variant counts once in orders.
func (o *Order) Products() map[ProductKey]ProductMeasures {
	out := map[ProductKey]ProductMeasures{}
	if !o.Counted() {
		return out
	}
	for _, l := range o.Lines {
		k := ProductKey{Day: o.Day, Currency: o.Currency, ProductID: l.ProductID, VariantID: l.VariantID}
		m, seen := out[k]
		if !seen {
			m.Orders = 1
		}
		m.Quantity += int64(l.Quantity)
		m.RefundedQty += int64(l.RefundedQty)
		m.Revenue += l.Revenue
		m.Refunded += l.Refunded
		out[k] = m
	}
	return out
}

// Minus is m less m2.
// Plus is m with m2's measures added.
func (m ProductMeasures) Plus(m2 ProductMeasures) ProductMeasures {
	return ProductMeasures{Orders: m.Orders + m2.Orders, Quantity: m.Quantity + m2.Quantity,
		RefundedQty: m.RefundedQty + m2.RefundedQty, Revenue: m.Revenue + m2.Revenue, Refunded: m.Refunded + m2.Refunded}
}

func (m ProductMeasures) Minus(m2 ProductMeasures) ProductMeasures {
	return ProductMeasures{Orders: m.Orders - m2.Orders, Quantity: m.Quantity - m2.Quantity,
		RefundedQty: m.RefundedQty - m2.RefundedQty, Revenue: m.Revenue - m2.Revenue, Refunded: m.Refunded - m2.Refunded}
}

// SortedProductKeys are the cells' keys in a fixed order (statements in the same order
// in every transaction).
func SortedProductKeys[V any](cells map[ProductKey]V) []ProductKey {
	return slices.SortedFunc(maps.Keys(cells), func(a, b ProductKey) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.Currency, b.Currency), cmp.Compare(a.ProductID, b.ProductID),
			cmp.Compare(a.VariantID, b.VariantID))
	})
}

// SortedDailyKeys are the day cells' keys in a fixed order, as SortedProductKeys.
func SortedDailyKeys[V any](cells map[DailyKey]V) []DailyKey {
	return slices.SortedFunc(maps.Keys(cells), func(a, b DailyKey) int {
		return cmp.Or(cmp.Compare(a.Currency, b.Currency), cmp.Compare(a.Day, b.Day), cmp.Compare(a.Channel, b.Channel),
			cmp.Compare(a.PaymentMethod, b.PaymentMethod), cmp.Compare(a.Status, b.Status),
			cmp.Compare(a.Fulfillment, b.Fulfillment), cmp.Compare(a.Country, b.Country))
	})
}

// CustomerTotalsChange reports whether replacing old with rec can change a customer's
// totals (statistics_customer_totals: the orders not cancelled, their net spend, first
// and last instants and days, and the first order's channel).
func CustomerTotalsChange(old, rec *Order) bool {
	return old.CustomerID != rec.CustomerID || old.Currency != rec.Currency || old.Counted() != rec.Counted() ||
		old.Gross-old.Refunded != rec.Gross-rec.Refunded || old.CreatedAt != rec.CreatedAt || old.Day != rec.Day ||
		old.Channel != rec.Channel
}

// SameLines reports whether two orders' lines are the same.
func SameLines(a, b *Order) bool { return slices.Equal(a.Lines, b.Lines) }
