package app

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Query is what every report reads: the period (date_from, date_to), the currency
// (empty: statistics.currency, else the one with the most orders in the period) and
// compare_with.
type Query struct {
	DateFrom, DateTo string
	Currency         string
	CompareWith      string
}

// span is a resolved query: the period, its range in the currency and the compared
// range (ok false for none).
type span struct {
	period   domain.Period
	rng      ports.Range
	prev     ports.Range
	hasPrev  bool
	currency string
}

func (s *Service) resolve(ctx context.Context, q Query, defFrom, defTo string) (span, error) {
	p, err := domain.ParsePeriod(q.DateFrom, q.DateTo, defFrom, defTo, s.clock.Now(), s.settings.Location)
	if err != nil {
		return span{}, err
	}
	switch q.CompareWith {
	case "", domain.ComparePrevious, domain.ComparePrevYear, domain.CompareNone:
	default:
		return span{}, apperr.Validation(map[string]string{"compare_with": "must be previous_period, previous_year or none"})
	}
	cur := strings.ToUpper(strings.TrimSpace(q.Currency))
	if cur != "" && len(cur) != 3 {
		return span{}, apperr.Validation(map[string]string{"currency": "must be an ISO 4217 code"})
	}
	if cur == "" {
		cur = s.settings.Currency
	}
	if cur == "" {
		if cur, err = s.repo.TopCurrency(ctx, p.FromDay(), p.ToDay()); err != nil {
			return span{}, err
		}
	}
	if cur == "" {
		cur = "USD"
	}
	today := s.day(s.clock.Now())
	sp := span{period: p, currency: cur, rng: ports.Range{Currency: cur, From: p.FromDay(), To: p.ToDay(), Current: p.ToDay() >= today}}
	if prev, ok := p.Compared(q.CompareWith); ok {
		sp.prev, sp.hasPrev = ports.Range{Currency: cur, From: prev.FromDay(), To: prev.ToDay()}, true
	}
	return sp, nil
}

// PeriodView is the period of a report.
type PeriodView struct {
	From string `json:"from"`
	To   string `json:"to"`
	Days int    `json:"days"`
}

func (sp span) view() PeriodView {
	return PeriodView{From: sp.rng.From, To: sp.rng.To, Days: sp.period.Days()}
}

// salesTotals are the sales figures of a range (orders not cancelled).
type salesTotals struct {
	orders, items, gross, discounts, refunded int64
}

// revenue is the total revenue: what the orders came to before discounts and refunds.
func (t salesTotals) revenue() int64 { return t.gross + t.discounts }

// net is the revenue net of discounts and refunds (what was kept).
func (t salesTotals) net() int64 { return t.gross - t.refunded }

func (t salesTotals) aov() int64 {
	if t.orders == 0 {
		return 0
	}
	return t.revenue() / t.orders
}

func (t *salesTotals) add(row ports.DailyRow) {
	t.orders += row.Orders
	t.items += row.Items
	t.gross += row.Gross
	t.discounts += row.Discounts
	t.refunded += row.Refunded
}

// sales sums the range's rows by status (and the totals of the orders not cancelled).
func (s *Service) sales(ctx context.Context, r ports.Range) (salesTotals, map[string]int64, []ports.DailyRow, error) {
	rows, err := s.repo.Daily(ctx, r, "status", "fulfillment")
	if err != nil {
		return salesTotals{}, nil, nil, err
	}
	var t salesTotals
	by := map[string]int64{}
	for _, row := range rows {
		by[row.Dims["status"]] += row.Orders
		if row.Dims["status"] != domain.StatusCancelled {
			t.add(row)
		}
	}
	return t, by, rows, nil
}

// previous is the sales of the compared range (zero without one).
func (s *Service) previous(ctx context.Context, sp span) (salesTotals, error) {
	if !sp.hasPrev {
		return salesTotals{}, nil
	}
	t, _, _, err := s.sales(ctx, sp.prev)
	return t, err
}

// ChangeView is a figure's change against the compared period.
type ChangeView struct {
	ChangePercentage *float64 `json:"change_percentage"`
	ChangeDirection  *string  `json:"change_direction"`
}

func change(cur, prev float64, has bool) ChangeView {
	if !has {
		return ChangeView{}
	}
	p, d := domain.Change(cur, prev)
	return ChangeView{ChangePercentage: p, ChangeDirection: &d}
}

func changePct(cur, prev float64, has bool) *float64 {
	if !has {
		return nil
	}
	p, _ := domain.Change(cur, prev)
	return p
}

// AmountView is an amount with its change.
type AmountView struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	ChangeView
}

// CountView is a count with its change.
type CountView struct {
	Count int64 `json:"count"`
	ChangeView
}

// Dashboard is GET /dashboard's data.
type Dashboard struct {
	Period PeriodView `json:"period"`
	Sales  struct {
		TotalRevenue      AmountView `json:"total_revenue"`
		TotalOrders       CountView  `json:"total_orders"`
		AverageOrderValue AmountView `json:"average_order_value"`
	} `json:"sales"`
	Orders struct {
		ByStatus        map[string]int64 `json:"by_status"`
		FulfillmentRate float64          `json:"fulfillment_rate"`
	} `json:"orders"`
	Customers struct {
		NewCustomers       int64   `json:"new_customers"`
		ReturningCustomers int64   `json:"returning_customers"`
		ConversionRate     float64 `json:"conversion_rate"`
	} `json:"customers"`
	Products struct {
		TopSelling    []TopSelling `json:"top_selling"`
		LowStockCount int64        `json:"low_stock_count"`
	} `json:"products"`
	// Subscriptions: active subscribers and MRR now (active and past due, decision
	// 0214), churn over the period.
	Subscriptions struct {
		ActiveSubscribers *int64   `json:"active_subscribers"`
		MRR               *string  `json:"mrr"`
		ChurnRate         *float64 `json:"churn_rate"`
	} `json:"subscriptions"`
}

// TopSelling is a product of the dashboard's top five.
type TopSelling struct {
	ProductID    string `json:"product_id"`
	Title        string `json:"title"`
	QuantitySold int64  `json:"quantity_sold"`
	Revenue      string `json:"revenue"`
}

// TopSellingCount is how many products the dashboard lists (Part 2 "Limits").
const TopSellingCount = 5

// Dashboard answers GET /dashboard (default: today, compared with the day before).
func (s *Service) Dashboard(ctx context.Context, q Query) (*Dashboard, error) {
	sp, err := s.resolve(ctx, q, "today", "today")
	if err != nil {
		return nil, err
	}
	cur, byStatus, rows, err := s.sales(ctx, sp.rng)
	if err != nil {
		return nil, err
	}
	prev, err := s.previous(ctx, sp)
	if err != nil {
		return nil, err
	}
	d := &Dashboard{Period: sp.view()}
	d.Sales.TotalRevenue = AmountView{Amount: domain.Money(cur.revenue()), Currency: sp.currency,
		ChangeView: change(domain.UnitsFloat(cur.revenue()), domain.UnitsFloat(prev.revenue()), sp.hasPrev)}
	d.Sales.TotalOrders = CountView{Count: cur.orders, ChangeView: change(float64(cur.orders), float64(prev.orders), sp.hasPrev)}
	d.Sales.AverageOrderValue = AmountView{Amount: domain.Money(cur.aov()), Currency: sp.currency,
		ChangeView: change(domain.UnitsFloat(cur.aov()), domain.UnitsFloat(prev.aov()), sp.hasPrev)}
	d.Orders.ByStatus = statusCounts(byStatus)
	d.Orders.FulfillmentRate = fulfillmentRate(rows, cur.orders)
	cust, err := s.repo.Customers(ctx, sp.rng, false, "", "")
	if err != nil {
		return nil, err
	}
	d.Customers.NewCustomers, d.Customers.ReturningCustomers = cust.New, cust.Returning
	d.Customers.ConversionRate = domain.Percent(float64(cust.NewBuyers), float64(cust.New))
	top, err := s.repo.TopProducts(ctx, sp.rng, TopSellingCount)
	if err != nil {
		return nil, err
	}
	d.Products.TopSelling = []TopSelling{}
	for _, p := range top {
		d.Products.TopSelling = append(d.Products.TopSelling, TopSelling{ProductID: p.ProductID, Title: p.Title,
			QuantitySold: p.Quantity, Revenue: domain.Money(p.Revenue)})
	}
	inv, err := s.repo.Inventory(ctx, sp.currency)
	if err != nil {
		return nil, err
	}
	d.Products.LowStockCount = inv.LowStock
	subs, err := s.repo.Subscriptions(ctx, sp.currency, sp.rng.From, sp.rng.To)
	if err != nil {
		return nil, err
	}
	mrr := domain.Money(subs.MRR)
	churn := domain.Percent(float64(subs.Churned), float64(subs.AtStart))
	d.Subscriptions.ActiveSubscribers, d.Subscriptions.MRR, d.Subscriptions.ChurnRate = &subs.Active, &mrr, &churn
	return d, nil
}

// statusCounts lists every status key (0 when none).
func statusCounts(by map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(domain.StatusKeys))
	for _, k := range domain.StatusKeys {
		out[k] = by[k]
	}
	return out
}

// fulfillmentRate is the percentage of the orders not cancelled that were shipped
// (fully, or fully and then returned).
func fulfillmentRate(rows []ports.DailyRow, orders int64) float64 {
	var shipped int64
	for _, r := range rows {
		if r.Dims["status"] == domain.StatusCancelled {
			continue
		}
		if f := r.Dims["fulfillment"]; f == domain.FulfillFulfilled || f == domain.FulfillReturned {
			shipped += r.Orders
		}
	}
	return domain.Percent(float64(shipped), float64(orders))
}

// sortProducts orders products by net revenue, net quantity or profit, largest first
// (then by id).
func sortProducts(ps []ports.ProductRow, by string) {
	key := func(p ports.ProductRow) int64 {
		switch by {
		case "quantity":
			return p.Quantity - p.RefundedQty
		case "profit":
			return profit(p)
		default:
			return p.Revenue - p.Refunded
		}
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := key(ps[i]), key(ps[j])
		if a != b {
			return a > b
		}
		return ps[i].ProductID < ps[j].ProductID
	})
}

func profit(p ports.ProductRow) int64 { return p.Revenue - p.Refunded - p.Cost }

// buckets are the start days of the period's days, weeks (Monday) or months, each
// clipped to the period.
func buckets(p domain.Period, period string) []time.Time {
	var out []time.Time
	for d := p.From; !d.After(p.To); d = d.AddDate(0, 0, 1) {
		switch period {
		case "week":
			if d.Equal(p.From) || d.Weekday() == time.Monday {
				out = append(out, d)
			}
		case "month":
			if d.Equal(p.From) || d.Day() == 1 {
				out = append(out, d)
			}
		default:
			out = append(out, d)
		}
	}
	return out
}

// bucketDays is buckets written as YYYY-MM-DD.
func bucketDays(p domain.Period, period string) []string {
	starts := buckets(p, period)
	days := make([]string, len(starts))
	for i, d := range starts {
		days[i] = d.Format(domain.DayLayout)
	}
	return days
}

// bucketOf is the index of the bucket holding day (YYYY-MM-DD).
func bucketOf(starts []string, day string) int {
	i, found := slices.BinarySearch(starts, day)
	if found {
		return i
	}
	return i - 1
}

func checkPeriod(period string) (string, error) {
	switch period {
	case "":
		return "day", nil
	case "day", "week", "month":
		return period, nil
	}
	return "", apperr.Validation(map[string]string{"period": "must be day, week or month"})
}
