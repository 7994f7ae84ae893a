package domain

import (
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// Order statuses and financial statuses (Part 2 "Order").
var (
	OrderStatuses           = []string{"open", "closed", "cancelled"}
	OrderFinancialStatuses  = []string{"pending", "authorized", "paid", "partially_paid", "refunded", "partially_refunded", "voided"}
	spendingFinancialStatus = map[string]bool{"paid": true, "partially_refunded": true}
)

// OrderFact is what customers keeps of one order, from the orders module's events, to
// compute a customer's statistics. One per order id; a later version replaces it.
type OrderFact struct {
	OrderID         string
	CustomerID      CustomerID
	OrderNumber     string
	TotalPrice      decimal.Decimal
	Currency        string
	Status          string
	FinancialStatus string
	CreatedAt       time.Time // the order's
	UpdatedAt       time.Time // the order's; orders older than the stored version are ignored
}

// Name is the order's display name: "#" and the order number (Shopify's order name).
func (f OrderFact) Name() string {
	if f.OrderNumber == "" {
		return ""
	}
	return "#" + f.OrderNumber
}

// Counts reports whether the order counts in orders_count (any order not cancelled).
func (f OrderFact) Counts() bool { return f.Status != "cancelled" }

// Spends reports whether the order's total counts in total_spent: not cancelled and
// paid (paid or partially_refunded).
func (f OrderFact) Spends() bool { return f.Counts() && spendingFinancialStatus[f.FinancialStatus] }

// OrderStats are the statistics fields of a customer.
type OrderStats struct {
	OrdersCount int
	// PaidOrders is the number of orders whose total is in TotalSpent.
	PaidOrders    int
	TotalSpent    decimal.Decimal
	Currency      string // of the last order; formats the amounts
	LastOrderID   string
	LastOrderName string
	LastOrderAt   *time.Time
}

// AverageOrderValue is TotalSpent over the paid orders, rounded to the currency's
// minor units; zero without paid orders.
func (s OrderStats) AverageOrderValue() decimal.Decimal {
	if s.PaidOrders == 0 {
		return decimal.Zero
	}
	return s.TotalSpent.DivRound(decimal.NewFromInt(int64(s.PaidOrders)), MinorUnits(s.Currency))
}

// ComputeStats derives a customer's statistics from all its orders (docs/decisions/0044):
// orders_count counts orders not cancelled; total_spent sums the totals of those also
// paid; the last order is the most recently created one, cancelled or not.
func ComputeStats(facts []OrderFact) OrderStats {
	s := OrderStats{TotalSpent: decimal.Zero}
	sorted := append([]OrderFact(nil), facts...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if !sorted[i].CreatedAt.Equal(sorted[j].CreatedAt) {
			return sorted[i].CreatedAt.Before(sorted[j].CreatedAt)
		}
		return sorted[i].OrderID < sorted[j].OrderID
	})
	for _, f := range sorted {
		if f.Counts() {
			s.OrdersCount++
		}
		if f.Spends() {
			s.PaidOrders++
			s.TotalSpent = s.TotalSpent.Add(f.TotalPrice)
		}
	}
	if n := len(sorted); n > 0 {
		last := sorted[n-1]
		at := last.CreatedAt
		s.LastOrderID, s.LastOrderName, s.LastOrderAt, s.Currency = last.OrderID, last.Name(), &at, last.Currency
	}
	return s
}

// MinorUnits is the number of decimals of a currency (ISO 4217); 2 when unknown or empty.
func MinorUnits(currency string) int32 { return money.MinorUnits(currency) }

// FormatMoney writes an amount with the currency's minor units ("19.99", JPY "1999").
func FormatMoney(d decimal.Decimal, currency string) string { return money.Format(d, currency) }
