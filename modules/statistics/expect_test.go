package statistics_test

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	orders "github.com/gocommerce/commerce/modules/orders/api"
)

// This file computes the figures straight from the orders' final states, without the
// module's code: the reports must agree with it.

func dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero
	}
	return d
}

func money(d decimal.Decimal) string { return d.StringFixed(2) }

func pct(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return round2(part / whole * 100)
}

func round2(f float64) float64 {
	d := decimal.NewFromFloat(f).Round(2)
	v, _ := d.Float64()
	return v
}

func expStatus(o orders.Order) string {
	if o.Status == "cancelled" {
		return "cancelled"
	}
	if o.FinancialStatus == "refunded" {
		return "refunded"
	}
	if o.Status == "closed" || o.FulfillmentStatus == "fulfilled" {
		return "completed"
	}
	if o.FulfillmentStatus == "partial" {
		return "processing"
	}
	if o.FinancialStatus == "pending" {
		return "pending"
	}
	return "confirmed"
}

func expFulfillment(o orders.Order) string {
	refunded := 0
	for _, l := range o.LineItems {
		refunded += l.RefundedQuantity
	}
	switch {
	case o.FulfillmentStatus == "unfulfilled":
		return "unfulfilled"
	case refunded > 0:
		return "returned"
	default:
		return o.FulfillmentStatus
	}
}

func gateway(o orders.Order) string {
	if o.Transactions != nil && len(*o.Transactions) > 0 {
		return (*o.Transactions)[0].Gateway
	}
	return "unknown"
}

// figures are the expected sales figures of some orders.
type figures struct {
	orders                            int64
	items                             int64
	revenue, discounts, refunded, net decimal.Decimal
	byStatus                          map[string]int64
	byFulfillment                     map[string]int64
	shipped                           int64
	byChannel, byMethod, byCountry    map[string]decimal.Decimal
	channelOrders, countryOrders      map[string]int64
}

func (f figures) aov() decimal.Decimal {
	if f.orders == 0 {
		return decimal.Zero
	}
	return f.revenue.Div(decimal.NewFromInt(f.orders))
}

type window struct {
	from, to string
	cur      string
	loc      *time.Location
}

func (w window) has(o orders.Order) bool {
	d := o.CreatedAt.In(w.loc).Format(time.DateOnly)
	return o.Currency == w.cur && d >= w.from && d <= w.to
}

func (st *store) figures(w window) figures {
	f := figures{byStatus: map[string]int64{}, byFulfillment: map[string]int64{}, byChannel: map[string]decimal.Decimal{},
		byMethod: map[string]decimal.Decimal{}, byCountry: map[string]decimal.Decimal{}, channelOrders: map[string]int64{},
		countryOrders: map[string]int64{}}
	for _, o := range st.orders {
		if !w.has(o) {
			continue
		}
		s := expStatus(o)
		f.byStatus[s]++
		if s == "cancelled" {
			continue
		}
		f.orders++
		rev := dec(o.TotalPrice).Add(dec(o.TotalDiscounts))
		f.revenue = f.revenue.Add(rev)
		f.discounts = f.discounts.Add(dec(o.TotalDiscounts))
		f.refunded = f.refunded.Add(dec(o.TotalRefunded))
		for _, l := range o.LineItems {
			f.items += int64(l.Quantity)
		}
		fk := expFulfillment(o)
		f.byFulfillment[fk]++
		if fk == "fulfilled" || fk == "returned" {
			f.shipped++
		}
		f.byChannel[o.SourceName] = f.byChannel[o.SourceName].Add(rev)
		f.channelOrders[o.SourceName]++
		f.byMethod[gateway(o)] = f.byMethod[gateway(o)].Add(rev)
		f.byCountry[o.ShippingAddress.Country] = f.byCountry[o.ShippingAddress.Country].Add(rev)
		f.countryOrders[o.ShippingAddress.Country]++
	}
	f.net = f.revenue.Sub(f.discounts).Sub(f.refunded)
	return f
}

// productFigure is a product's expected net sales.
type productFigure struct {
	id                      string
	sold, quantity, refunds int64
	revenue                 decimal.Decimal
	cost                    decimal.Decimal
	costKnown               bool
}

func (st *store) products(w window) []productFigure {
	by := map[string]*productFigure{}
	for _, o := range st.orders {
		if !w.has(o) || o.Status == "cancelled" {
			continue
		}
		for _, l := range o.LineItems {
			p := by[l.ProductID]
			if p == nil {
				p = &productFigure{id: l.ProductID, costKnown: true}
				by[l.ProductID] = p
			}
			kept := int64(l.Quantity - l.RefundedQuantity)
			p.quantity += int64(l.Quantity)
			p.refunds += int64(l.RefundedQuantity)
			p.sold += kept
			p.revenue = p.revenue.Add(dec(l.Price).Mul(decimal.NewFromInt(kept)))
			for _, c := range products {
				if c.id == l.ProductID {
					if c.cost == "" {
						p.costKnown = false
					}
					p.cost = p.cost.Add(dec(c.cost).Mul(decimal.NewFromInt(kept)))
				}
			}
		}
	}
	out := make([]productFigure, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].revenue.Equal(out[j].revenue) {
			return out[i].revenue.GreaterThan(out[j].revenue)
		}
		return out[i].id < out[j].id
	})
	return out
}

// customerFigure is a customer's counted orders in a currency.
type customerFigure struct {
	orders       int64
	spent        decimal.Decimal
	first, last  time.Time
	firstDay     string
	firstChannel string
}

func (st *store) customerTotals(cur string, loc *time.Location) map[string]*customerFigure {
	out := map[string]*customerFigure{}
	for _, o := range st.orders {
		if o.CustomerID == nil || o.Currency != cur || o.Status == "cancelled" {
			continue
		}
		c := out[*o.CustomerID]
		if c == nil {
			c = &customerFigure{first: o.CreatedAt, last: o.CreatedAt, firstChannel: o.SourceName}
			out[*o.CustomerID] = c
		}
		c.orders++
		c.spent = c.spent.Add(dec(o.TotalPrice)).Sub(dec(o.TotalRefunded))
		if o.CreatedAt.Before(c.first) {
			c.first, c.firstChannel = o.CreatedAt, o.SourceName
		}
		if o.CreatedAt.After(c.last) {
			c.last = o.CreatedAt
		}
	}
	for _, c := range out {
		c.firstDay = c.first.In(loc).Format(time.DateOnly)
	}
	return out
}

// change is the expected change in percent (nil without a base).
func change(cur, prev decimal.Decimal) any {
	if prev.IsZero() {
		return nil
	}
	v, _ := cur.Sub(prev).Div(prev.Abs()).Mul(decimal.NewFromInt(100)).Round(2).Float64()
	return v
}

func direction(cur, prev decimal.Decimal) string {
	switch cur.Cmp(prev) {
	case 1:
		return "up"
	case -1:
		return "down"
	}
	return "flat"
}
