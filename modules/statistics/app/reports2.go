package app

import (
	"context"
	"math"
	"sort"
	"strings"

	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// SalesQuery is GET /sales's query.
type SalesQuery struct {
	Query
	Period  string
	GroupBy string
}

// Sales is GET /sales's data (by_product or by_category when group_by names them).
type Sales struct {
	Period  PeriodView `json:"period"`
	Summary struct {
		TotalRevenue      string `json:"total_revenue"`
		TotalOrders       int64  `json:"total_orders"`
		AverageOrderValue string `json:"average_order_value"`
		TotalDiscounts    string `json:"total_discounts"`
		NetRevenue        string `json:"net_revenue"`
		Currency          string `json:"currency"`
	} `json:"summary"`
	Comparison struct {
		RevenueChange *float64 `json:"revenue_change"`
		OrdersChange  *float64 `json:"orders_change"`
		AOVChange     *float64 `json:"aov_change"`
	} `json:"comparison"`
	TimeSeries      []SalesPoint  `json:"time_series"`
	ByChannel       []ChannelRow  `json:"by_channel"`
	ByPaymentMethod []MethodRow   `json:"by_payment_method"`
	ByProduct       []GroupRow    `json:"by_product,omitempty"`
	ByCategory      []CategoryRow `json:"by_category,omitempty"`
}

// SalesPoint is a bucket of the sales time series.
type SalesPoint struct {
	Date    string `json:"date"`
	Revenue string `json:"revenue"`
	Orders  int64  `json:"orders"`
	AOV     string `json:"aov"`
}

// ChannelRow is a channel's (order source's) sales.
type ChannelRow struct {
	Channel    string  `json:"channel"`
	Revenue    string  `json:"revenue"`
	Orders     int64   `json:"orders"`
	Percentage float64 `json:"percentage"`
}

// MethodRow is a payment method's (gateway's) sales.
type MethodRow struct {
	Method     string  `json:"method"`
	Revenue    string  `json:"revenue"`
	Orders     int64   `json:"orders"`
	Percentage float64 `json:"percentage"`
}

// GroupRow is a product's sales (group_by product).
type GroupRow struct {
	ProductID  string  `json:"product_id"`
	Title      string  `json:"title"`
	Revenue    string  `json:"revenue"`
	Orders     int64   `json:"orders"`
	Percentage float64 `json:"percentage"`
}

// CategoryRow is a category's (product type's) revenue.
type CategoryRow struct {
	CategoryID string  `json:"category_id"`
	Name       string  `json:"name"`
	Revenue    string  `json:"revenue"`
	Percentage float64 `json:"percentage"`
}

// Sales answers GET /sales (default: this month to today, by day).
func (s *Service) Sales(ctx context.Context, q SalesQuery) (*Sales, error) {
	period, err := checkPeriod(q.Period)
	if err != nil {
		return nil, err
	}
	switch q.GroupBy {
	case "", "product", "category", "channel":
	default:
		return nil, apperr.Validation(map[string]string{"group_by": "must be product, category or channel"})
	}
	sp, err := s.resolve(ctx, q.Query, "this_month", "today")
	if err != nil {
		return nil, err
	}
	rows, err := s.repo.Daily(ctx, sp.rng, "day", "channel", "payment_method", "status")
	if err != nil {
		return nil, err
	}
	prev, err := s.previous(ctx, sp)
	if err != nil {
		return nil, err
	}
	out := &Sales{Period: sp.view()}
	days := bucketDays(sp.period, period)
	series := make([]salesTotals, len(days))
	var total salesTotals
	channels, methods := map[string]*salesTotals{}, map[string]*salesTotals{}
	for _, r := range rows {
		if r.Dims["status"] == domain.StatusCancelled {
			continue
		}
		total.add(r)
		if i := bucketOf(days, r.Dims["day"]); i >= 0 {
			series[i].add(r)
		}
		group(channels, r.Dims["channel"]).add(r)
		group(methods, r.Dims["payment_method"]).add(r)
	}
	sm := &out.Summary
	sm.TotalRevenue, sm.TotalOrders, sm.AverageOrderValue = domain.Money(total.revenue()), total.orders, domain.Money(total.aov())
	sm.TotalDiscounts, sm.NetRevenue, sm.Currency = domain.Money(total.discounts), domain.Money(total.net()), sp.currency
	out.Comparison.RevenueChange = changePct(domain.UnitsFloat(total.revenue()), domain.UnitsFloat(prev.revenue()), sp.hasPrev)
	out.Comparison.OrdersChange = changePct(float64(total.orders), float64(prev.orders), sp.hasPrev)
	out.Comparison.AOVChange = changePct(domain.UnitsFloat(total.aov()), domain.UnitsFloat(prev.aov()), sp.hasPrev)
	out.TimeSeries = make([]SalesPoint, len(series))
	for i, t := range series {
		out.TimeSeries[i] = SalesPoint{Date: days[i], Revenue: domain.Money(t.revenue()), Orders: t.orders, AOV: domain.Money(t.aov())}
	}
	whole := float64(total.revenue())
	out.ByChannel = []ChannelRow{}
	for _, k := range sortedByRevenue(channels) {
		t := channels[k]
		out.ByChannel = append(out.ByChannel, ChannelRow{Channel: k, Revenue: domain.Money(t.revenue()), Orders: t.orders,
			Percentage: domain.Percent(float64(t.revenue()), whole)})
	}
	out.ByPaymentMethod = []MethodRow{}
	for _, k := range sortedByRevenue(methods) {
		t := methods[k]
		out.ByPaymentMethod = append(out.ByPaymentMethod, MethodRow{Method: k, Revenue: domain.Money(t.revenue()), Orders: t.orders,
			Percentage: domain.Percent(float64(t.revenue()), whole)})
	}
	if q.GroupBy == "product" || q.GroupBy == "category" {
		products, err := s.repo.Products(ctx, sp.rng, "")
		if err != nil {
			return nil, err
		}
		if q.GroupBy == "product" {
			out.ByProduct = byProduct(products)
		} else {
			out.ByCategory = byCategory(products)
		}
	}
	return out, nil
}

func group(m map[string]*salesTotals, k string) *salesTotals {
	t := m[k]
	if t == nil {
		t = &salesTotals{}
		m[k] = t
	}
	return t
}

func sortedByRevenue(m map[string]*salesTotals) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := m[keys[i]].revenue(), m[keys[j]].revenue()
		if a != b {
			return a > b
		}
		return keys[i] < keys[j]
	})
	return keys
}

// byProduct is the products' net revenue and share (group_by product).
func byProduct(ps []ports.ProductRow) []GroupRow {
	sortProducts(ps, "revenue")
	var whole int64
	for _, p := range ps {
		whole += p.Revenue - p.Refunded
	}
	out := []GroupRow{}
	for _, p := range ps {
		out = append(out, GroupRow{ProductID: p.ProductID, Title: p.Title, Revenue: domain.Money(p.Revenue - p.Refunded), Orders: p.Orders,
			Percentage: domain.Percent(float64(p.Revenue-p.Refunded), float64(whole))})
	}
	return out
}

// byCategory is the net revenue and share of each category: the products' type
// (docs/decisions/0212), "uncategorized" for none.
func byCategory(ps []ports.ProductRow) []CategoryRow {
	sums := map[string]int64{}
	for _, p := range ps {
		sums[p.ProductType] += p.Revenue - p.Refunded
	}
	return categoryRows(sums)
}

// categoryRows are the rows of the net revenue per product type ("" is
// "uncategorized"), by revenue then name, with their shares.
func categoryRows(byType map[string]int64) []CategoryRow {
	sums := map[string]int64{}
	var whole int64
	for k, v := range byType {
		if k == "" {
			k = "uncategorized"
		}
		sums[k] += v
		whole += v
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if sums[keys[i]] != sums[keys[j]] {
			return sums[keys[i]] > sums[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := []CategoryRow{}
	for _, k := range keys {
		out = append(out, CategoryRow{CategoryID: k, Name: k, Revenue: domain.Money(sums[k]), Percentage: domain.Percent(float64(sums[k]), float64(whole))})
	}
	return out
}

// OrdersQuery is GET /orders's query.
type OrdersQuery struct {
	Query
	Period     string
	IncludeGeo bool
}

// OrdersReport is GET /orders's data.
type OrdersReport struct {
	Period  PeriodView `json:"period"`
	Summary struct {
		TotalOrders                int64   `json:"total_orders"`
		TotalItems                 int64   `json:"total_items"`
		AverageItemsPerOrder       float64 `json:"average_items_per_order"`
		AverageProcessingTimeHours float64 `json:"average_processing_time_hours"`
	} `json:"summary"`
	ByStatus            map[string]int64 `json:"by_status"`
	ByFulfillmentStatus map[string]int64 `json:"by_fulfillment_status"`
	FulfillmentMetrics  struct {
		AverageFulfillmentTimeHours float64 `json:"average_fulfillment_time_hours"`
		SameDayFulfillmentRate      float64 `json:"same_day_fulfillment_rate"`
		Within48hRate               float64 `json:"within_48h_rate"`
	} `json:"fulfillment_metrics"`
	TimeSeries             []OrdersPoint `json:"time_series"`
	GeographicDistribution []GeoRow      `json:"geographic_distribution,omitempty"`
}

// OrdersPoint is a bucket of the orders time series.
type OrdersPoint struct {
	Date   string `json:"date"`
	Orders int64  `json:"orders"`
	Items  int64  `json:"items"`
}

// GeoRow is a country's orders.
type GeoRow struct {
	Country    string  `json:"country"`
	Orders     int64   `json:"orders"`
	Revenue    string  `json:"revenue"`
	Percentage float64 `json:"percentage"`
}

// Orders answers GET /orders (default: this month to today).
func (s *Service) Orders(ctx context.Context, q OrdersQuery) (*OrdersReport, error) {
	period, err := checkPeriod(q.Period)
	if err != nil {
		return nil, err
	}
	sp, err := s.resolve(ctx, q.Query, "this_month", "today")
	if err != nil {
		return nil, err
	}
	dims := []string{"day", "status", "fulfillment"}
	if q.IncludeGeo {
		dims = append(dims, "country")
	}
	rows, err := s.repo.Daily(ctx, sp.rng, dims...)
	if err != nil {
		return nil, err
	}
	out := &OrdersReport{Period: sp.view()}
	days := bucketDays(sp.period, period)
	out.TimeSeries = make([]OrdersPoint, len(days))
	for i := range days {
		out.TimeSeries[i].Date = days[i]
	}
	byStatus, byFulfillment := map[string]int64{}, map[string]int64{}
	geo := map[string]*salesTotals{}
	var m domain.Measures
	for _, r := range rows {
		byStatus[r.Dims["status"]] += r.Orders
		if r.Dims["status"] == domain.StatusCancelled {
			continue
		}
		byFulfillment[r.Dims["fulfillment"]] += r.Orders
		m.Add(r.Measures, 1)
		if i := bucketOf(days, r.Dims["day"]); i >= 0 {
			out.TimeSeries[i].Orders += r.Orders
			out.TimeSeries[i].Items += r.Items
		}
		if q.IncludeGeo {
			group(geo, r.Dims["country"]).add(r)
		}
	}
	sm := &out.Summary
	sm.TotalOrders, sm.TotalItems = m.Orders, m.Items
	sm.AverageItemsPerOrder = ratio(float64(m.Items), float64(m.Orders))
	sm.AverageProcessingTimeHours = ratio(float64(m.ClosedSecs)/3600, float64(m.ClosedOrders))
	out.ByStatus = statusCounts(byStatus)
	out.ByFulfillmentStatus = map[string]int64{}
	for _, k := range domain.FulfillmentKeys {
		out.ByFulfillmentStatus[k] = byFulfillment[k]
	}
	fm := &out.FulfillmentMetrics
	fm.AverageFulfillmentTimeHours = ratio(float64(m.FulfilledSecs)/3600, float64(m.FulfilledOrders))
	fm.SameDayFulfillmentRate = domain.Percent(float64(m.SameDay), float64(m.FulfilledOrders))
	fm.Within48hRate = domain.Percent(float64(m.Within48h), float64(m.FulfilledOrders))
	if q.IncludeGeo {
		out.GeographicDistribution = []GeoRow{}
		keys := make([]string, 0, len(geo))
		for k := range geo {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if geo[keys[i]].orders != geo[keys[j]].orders {
				return geo[keys[i]].orders > geo[keys[j]].orders
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			out.GeographicDistribution = append(out.GeographicDistribution, GeoRow{Country: k, Orders: geo[k].orders,
				Revenue: domain.Money(geo[k].revenue()), Percentage: domain.Percent(float64(geo[k].orders), float64(m.Orders))})
		}
	}
	return out, nil
}

// ratio is a/b rounded to 2 places (0 when b is 0).
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return domain.Round2(a / b)
}

// ProductsQuery is GET /products's query.
type ProductsQuery struct {
	Query
	Limit      int
	SortBy     string
	CategoryID string
}

// ProductsReport is GET /products's data.
type ProductsReport struct {
	Period  PeriodView `json:"period"`
	Summary struct {
		TotalProductsSold  int64    `json:"total_products_sold"`
		UniqueProductsSold int64    `json:"unique_products_sold"`
		TotalRevenue       string   `json:"total_revenue"`
		GrossProfit        string   `json:"gross_profit"`
		GrossMargin        *float64 `json:"gross_margin"`
		Currency           string   `json:"currency"`
	} `json:"summary"`
	TopProducts      []TopProduct  `json:"top_products"`
	ByCategory       []CategoryRow `json:"by_category"`
	InventoryMetrics struct {
		TotalSKUCount   int64  `json:"total_sku_count"`
		LowStockCount   int64  `json:"low_stock_count"`
		OutOfStockCount int64  `json:"out_of_stock_count"`
		InventoryValue  string `json:"inventory_value"`
	} `json:"inventory_metrics"`
}

// TopProduct is a product's sales, profit and returns.
type TopProduct struct {
	ProductID    string   `json:"product_id"`
	Title        string   `json:"title"`
	SKU          string   `json:"sku"`
	QuantitySold int64    `json:"quantity_sold"`
	Revenue      string   `json:"revenue"`
	Profit       *string  `json:"profit"`
	Margin       *float64 `json:"margin"`
	ReturnRate   float64  `json:"return_rate"`
}

// Products answers GET /products (default: this month to today, 20 by revenue).
func (s *Service) Products(ctx context.Context, q ProductsQuery) (*ProductsReport, error) {
	if q.Limit == 0 {
		q.Limit = 20
	}
	if q.Limit < 1 || q.Limit > 100 {
		return nil, apperr.Validation(map[string]string{"limit": "must be from 1 to 100"})
	}
	switch q.SortBy {
	case "":
		q.SortBy = "revenue"
	case "revenue", "quantity", "profit":
	default:
		return nil, apperr.Validation(map[string]string{"sort_by": "must be revenue, quantity or profit"})
	}
	sp, err := s.resolve(ctx, q.Query, "this_month", "today")
	if err != nil {
		return nil, err
	}
	productType := strings.TrimSpace(q.CategoryID)
	if productType == "uncategorized" {
		productType = ""
	}
	ps, types, err := s.repo.ProductsTop(ctx, sp.rng, productType, q.SortBy, q.Limit)
	if err != nil {
		return nil, err
	}
	out := &ProductsReport{Period: sp.view()}
	var sold, revenue, knownRevenue, gross, unique int64
	categories := map[string]int64{}
	for _, t := range types {
		sold += t.Quantity - t.RefundedQty
		revenue += t.Revenue - t.Refunded
		knownRevenue += t.KnownNet
		gross += t.KnownNet - t.KnownCost
		unique += t.Products
		categories[t.ProductType] += t.Revenue - t.Refunded
	}
	sm := &out.Summary
	sm.TotalProductsSold, sm.UniqueProductsSold, sm.Currency = sold, unique, sp.currency
	sm.TotalRevenue, sm.GrossProfit = domain.Money(revenue), domain.Money(gross)
	if knownRevenue != 0 {
		m := domain.Percent(float64(gross), float64(knownRevenue))
		sm.GrossMargin = &m
	}
	sortProducts(ps, q.SortBy)
	out.TopProducts = []TopProduct{}
	for _, p := range ps[:min(q.Limit, len(ps))] {
		tp := TopProduct{ProductID: p.ProductID, Title: p.Title, SKU: p.SKU, QuantitySold: p.Quantity - p.RefundedQty,
			Revenue: domain.Money(p.Revenue - p.Refunded), ReturnRate: domain.Percent(float64(p.RefundedQty), float64(p.Quantity))}
		if p.CostKnown {
			pr := domain.Money(profit(p))
			tp.Profit = &pr
			if net := p.Revenue - p.Refunded; net != 0 {
				m := domain.Percent(float64(profit(p)), float64(net))
				tp.Margin = &m
			}
		}
		out.TopProducts = append(out.TopProducts, tp)
	}
	out.ByCategory = categoryRows(categories)
	inv, err := s.repo.Inventory(ctx, sp.currency)
	if err != nil {
		return nil, err
	}
	im := &out.InventoryMetrics
	im.TotalSKUCount, im.LowStockCount, im.OutOfStockCount, im.InventoryValue = inv.SKUs, inv.LowStock, inv.OutOfStock, domain.Money(inv.Value)
	return out, nil
}

// CustomersQuery is GET /customers's query.
type CustomersQuery struct {
	Query
	IncludeSegments bool
}

// CustomersReport is GET /customers's data (segments with include_segments).
type CustomersReport struct {
	Period  PeriodView `json:"period"`
	Summary struct {
		TotalCustomers     int64 `json:"total_customers"`
		NewCustomers       int64 `json:"new_customers"`
		ReturningCustomers int64 `json:"returning_customers"`
		ChurnedCustomers   int64 `json:"churned_customers"`
	} `json:"summary"`
	Acquisition struct {
		TotalNew       int64       `json:"total_new"`
		BySource       []SourceRow `json:"by_source"`
		ConversionRate float64     `json:"conversion_rate"`
	} `json:"acquisition"`
	Retention struct {
		RepeatPurchaseRate           float64 `json:"repeat_purchase_rate"`
		AverageTimeBetweenOrdersDays float64 `json:"average_time_between_orders_days"`
		CustomerLifetimeValue        struct {
			Average  string `json:"average"`
			Median   string `json:"median"`
			Currency string `json:"currency"`
		} `json:"customer_lifetime_value"`
	} `json:"retention"`
	Segments []SegmentView `json:"segments,omitempty"`
}

// SourceRow is a source of new customers: the channel of their first order ("none"
// before one).
type SourceRow struct {
	Source     string  `json:"source"`
	Count      int64   `json:"count"`
	Percentage float64 `json:"percentage"`
}

// SegmentView is a computed segment.
type SegmentView struct {
	Segment           string  `json:"segment"`
	Count             int64   `json:"count"`
	AverageOrderValue string  `json:"average_order_value"`
	Percentage        float64 `json:"percentage"`
}

// Customers answers GET /customers (default: this month to today).
func (s *Service) Customers(ctx context.Context, q CustomersQuery) (*CustomersReport, error) {
	sp, err := s.resolve(ctx, q.Query, "this_month", "today")
	if err != nil {
		return nil, err
	}
	// churned: customers whose 90 days without an order ran out in the period
	churnFrom := sp.period.From.AddDate(0, 0, -domain.DormantDays).Format(domain.DayLayout)
	churnTo := sp.period.To.AddDate(0, 0, -domain.DormantDays).Format(domain.DayLayout)
	f, err := s.repo.Customers(ctx, sp.rng, true, churnFrom, churnTo)
	if err != nil {
		return nil, err
	}
	out := &CustomersReport{Period: sp.view()}
	out.Summary.TotalCustomers, out.Summary.NewCustomers = f.Total, f.New
	out.Summary.ReturningCustomers, out.Summary.ChurnedCustomers = f.Returning, f.Churned
	out.Acquisition.TotalNew = f.New
	out.Acquisition.ConversionRate = domain.Percent(float64(f.NewBuyers), float64(f.New))
	out.Acquisition.BySource = []SourceRow{}
	sources := make([]string, 0, len(f.Sources))
	for k := range f.Sources {
		sources = append(sources, k)
	}
	sort.Slice(sources, func(i, j int) bool {
		if f.Sources[sources[i]] != f.Sources[sources[j]] {
			return f.Sources[sources[i]] > f.Sources[sources[j]]
		}
		return sources[i] < sources[j]
	})
	for _, k := range sources {
		out.Acquisition.BySource = append(out.Acquisition.BySource, SourceRow{Source: k, Count: f.Sources[k],
			Percentage: domain.Percent(float64(f.Sources[k]), float64(f.New))})
	}
	ret := &out.Retention
	var repeat, gapsN int64
	var gapDays float64
	values := make([]int64, 0, len(f.Ordering))
	var spent int64
	for _, c := range f.Ordering {
		values = append(values, c.Spent)
		spent += c.Spent
		if c.Orders >= 2 {
			repeat++
			gapDays += float64(c.LastAt-c.FirstAt) / 86400 / float64(c.Orders-1)
			gapsN++
		}
	}
	ret.RepeatPurchaseRate = domain.Percent(float64(repeat), float64(len(f.Ordering)))
	ret.AverageTimeBetweenOrdersDays = ratio(gapDays, float64(gapsN))
	ret.CustomerLifetimeValue.Average = domain.MoneyDiv(spent, int64(len(values)))
	ret.CustomerLifetimeValue.Median = domain.Money(median(values))
	ret.CustomerLifetimeValue.Currency = sp.currency
	if q.IncludeSegments {
		rows, buyers, err := s.repo.Segments(ctx, sp.currency)
		if err != nil {
			return nil, err
		}
		by := map[string]ports.SegmentRow{}
		for _, r := range rows {
			by[r.Segment] = r
		}
		out.Segments = []SegmentView{}
		for _, name := range domain.Segments {
			r := by[name]
			out.Segments = append(out.Segments, SegmentView{Segment: name, Count: r.Count, AverageOrderValue: domain.MoneyDiv(r.Spent, r.Orders),
				Percentage: domain.Percent(float64(r.Count), float64(buyers))})
		}
	}
	return out, nil
}

// median is the middle value (the mean of the two middle ones), 0 for none.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return int64(math.Round(float64(v[n/2-1]+v[n/2]) / 2))
}
