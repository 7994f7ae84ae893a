// Package ports declares what the statistics use cases need from storage.
package ports

import (
	"context"

	"github.com/gocommerce/commerce/modules/statistics/domain"
)

// Range is a currency and local days [From, To] (YYYY-MM-DD). Current says To is
// today or later (no order is after it): a customer ordered in the range exactly when
// their last order is on From or later, which the customer totals answer without the
// orders.
type Range struct {
	Currency, From, To string
	Current            bool
}

// DailyRow is a group of the daily rollup: the dimensions asked for (by name) and the
// sums.
type DailyRow struct {
	Dims map[string]string
	domain.Measures
}

// ProductRow is a product's sales in a range, with the cost of what was kept.
type ProductRow struct {
	ProductID, Title, SKU, ProductType string
	Orders, Quantity, RefundedQty      int64
	Revenue, Refunded, Cost            int64
	CostKnown                          bool
}

// ProductTypeSums are the sums of a product type's products (ProductsTop).
type ProductTypeSums struct {
	ProductType                                        string
	Products, Quantity, RefundedQty, Revenue, Refunded int64
	// KnownCost and KnownNet are the cost and the net revenue of its products whose
	// cost is known.
	KnownCost, KnownNet int64
}

// Inventory is the stock figures of the products in a currency.
type Inventory struct {
	SKUs, LowStock, OutOfStock, Value int64
}

// Product is a catalog product as the product events show it.
type Product struct {
	ID, Title, ProductType, Currency string
	InventoryQuantity, LowStock      int
	Tracked                          bool
	Variants                         []Variant
}

// Variant is a variant of a Product; Cost is nil when unknown.
type Variant struct {
	ID, Title, SKU    string
	Cost              *int64
	InventoryQuantity int
}

// CustomerFigures are the customer figures of a range.
type CustomerFigures struct {
	Total, New, Returning, Churned, NewBuyers int64
	Sources                                   map[string]int64
	// Ordering are the customers who ordered in the range: their lifetime orders,
	// net spend and first and last order instants.
	Ordering []CustomerTotal
}

// CustomerTotal is a customer's orders in a currency.
type CustomerTotal struct {
	Orders          int64
	Spent           int64
	FirstAt, LastAt int64
}

// SegmentRow is a segment's size and its members' orders and spend in a currency.
type SegmentRow struct {
	Segment       string
	Count         int64
	Orders, Spent int64
}

// OrderChange replaces an order's stored record Old (nil for none) with New.
type OrderChange struct {
	Old, New *domain.Order
}

// Repository stores the statistics. Writes join ctx's transaction.
type Repository interface {
	// Orders returns the stored records of the orders (with their lines) by id; an
	// order not recorded is absent.
	Orders(ctx context.Context, ids []string) (map[string]*domain.Order, error)
	// SaveOrders writes each change's record and lines in place of its Old, the stored
	// record (nil for none): lines equal to Old's are not written again.
	SaveOrders(ctx context.Context, changes []OrderChange) error
	// AddDaily adds m times sign to the cell k (a cell left with no order is removed).
	AddDaily(ctx context.Context, k domain.DailyKey, m domain.Measures, sign int64) error
	// AddProducts adds each cell's measures to the product cells of its day and of its
	// month (a cell left with no order is removed).
	AddProducts(ctx context.Context, cells map[domain.ProductKey]domain.ProductMeasures) error
	// RefreshCustomer recomputes a customer's totals in a currency from the orders.
	RefreshCustomer(ctx context.Context, customerID, currency string) error
	// SaveCustomer records a customer's creation (once; later calls keep the first).
	SaveCustomer(ctx context.Context, id, day string, createdAt int64) error
	// DeleteCustomer forgets a customer (and its totals and segments).
	DeleteCustomer(ctx context.Context, id string) error
	// SaveProducts replaces distinct products and their variants; DeleteProduct
	// removes one.
	SaveProducts(ctx context.Context, ps []Product) error
	DeleteProduct(ctx context.Context, id string) error

	// Rebuild recomputes the rollups and the customer totals from the order records.
	Rebuild(ctx context.Context) error

	// Daily sums the rollup over r grouped by dims (column names of DailyDims).
	Daily(ctx context.Context, r Range, dims ...string) ([]DailyRow, error)
	// Products sums the product rollup over r per product (of a product type when
	// productType is not "").
	Products(ctx context.Context, r Range, productType string) ([]ProductRow, error)
	// ProductsTop is the products report's share of Products in one statement: the
	// limit products first by sortBy (revenue, quantity or profit; then by id), and
	// the sums of every product per product type.
	ProductsTop(ctx context.Context, r Range, productType, sortBy string, limit int) ([]ProductRow, []ProductTypeSums, error)
	// TopProducts answers the limit products with the most net revenue in r (then by
	// id), with their net quantity and revenue and their title (no cost: the dashboard).
	TopProducts(ctx context.Context, r Range, limit int) ([]ProductRow, error)
	// Inventory answers the stock figures of the products priced in currency.
	Inventory(ctx context.Context, currency string) (Inventory, error)
	// Customers answers the customer figures of r; with full, also the churned
	// (customers whose last order was from churnFrom to churnTo) and the customers who
	// ordered in r.
	Customers(ctx context.Context, r Range, full bool, churnFrom, churnTo string) (CustomerFigures, error)
	// TopCurrency is the currency with the most orders in [from, to] ("" for none).
	TopCurrency(ctx context.Context, from, to string) (string, error)

	// SaveSubscription writes a subscription's record unless the stored one is newer
	// (by version).
	SaveSubscription(ctx context.Context, s domain.Subscription) error
	// Subscriptions answers the subscription figures in currency: the active ones and
	// their monthly amount now, those that ended from from to to, and those active when
	// from began.
	Subscriptions(ctx context.Context, currency, from, to string) (SubscriptionFigures, error)

	// ReplaceSegments recomputes the segments from the customer totals in currency
	// on today (YYYY-MM-DD) and answers how many memberships there are.
	ReplaceSegments(ctx context.Context, currency, today string) (int64, error)
	// InSegment reports whether the customer is in the segment.
	InSegment(ctx context.Context, segment, customerID string) (bool, error)
	// Segments answers each segment's size and its members' orders and spend as of the
	// last run in currency, and that run's number of customers with orders (none and 0
	// when the last run was in another currency).
	Segments(ctx context.Context, currency string) ([]SegmentRow, int64, error)
}

// DailyDims are the dimension columns of the daily rollup.
var DailyDims = []string{"day", "channel", "payment_method", "status", "fulfillment", "country"}

// SubscriptionFigures are the dashboard's subscription figures.
type SubscriptionFigures struct {
	Active, MRR, Churned, AtStart int64
}
