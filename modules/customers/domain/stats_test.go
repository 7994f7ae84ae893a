package domain

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func fact(id, total, status, financial string, created time.Time) OrderFact {
	return OrderFact{OrderID: id, OrderNumber: id, TotalPrice: decimal.RequireFromString(total), Currency: "USD", Status: status, FinancialStatus: financial, CreatedAt: created, UpdatedAt: created}
}

func TestComputeStats(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                string
		facts               []OrderFact
		count               int
		spent, average, ccy string
		last                string
	}{
		{"none", nil, 0, "0", "0", "", ""},
		{"paid orders", []OrderFact{fact("1001", "10.00", "open", "paid", now), fact("1002", "20.01", "closed", "partially_refunded", now.Add(time.Hour))}, 2, "30.01", "15.01", "USD", "1002"},
		{"pending counts but does not spend", []OrderFact{fact("1001", "10", "open", "paid", now), fact("1002", "99", "open", "pending", now.Add(time.Hour))}, 2, "10", "10", "USD", "1002"},
		{"cancelled neither counts nor spends but can be last", []OrderFact{fact("1001", "10", "open", "paid", now), fact("1002", "99", "cancelled", "paid", now.Add(time.Hour))}, 1, "10", "10", "USD", "1002"},
		{"voided and refunded do not spend", []OrderFact{fact("1001", "10", "open", "voided", now), fact("1002", "5", "closed", "refunded", now.Add(-time.Hour))}, 2, "0", "0", "USD", "1001"},
	}
	for _, c := range cases {
		s := ComputeStats(c.facts)
		if s.OrdersCount != c.count || !s.TotalSpent.Equal(decimal.RequireFromString(c.spent)) ||
			!s.AverageOrderValue().Equal(decimal.RequireFromString(c.average)) || s.Currency != c.ccy || s.LastOrderID != c.last {
			t.Errorf("%s: %+v avg %s", c.name, s, s.AverageOrderValue())
		}
		if c.last != "" && (s.LastOrderName != "#"+c.last || s.LastOrderAt == nil) {
			t.Errorf("%s: last order name/at %q %v", c.name, s.LastOrderName, s.LastOrderAt)
		}
	}
}

func TestMoney(t *testing.T) {
	t.Parallel()
	cases := []struct{ amount, currency, want string }{
		{"19.9", "USD", "19.90"}, {"1999", "JPY", "1999"}, {"1.2345", "KWD", "1.235"}, {"0", "", "0.00"}, {"10.005", "EUR", "10.01"},
	}
	for _, c := range cases {
		if got := FormatMoney(decimal.RequireFromString(c.amount), c.currency); got != c.want {
			t.Errorf("FormatMoney(%s %s) = %s, want %s", c.amount, c.currency, got, c.want)
		}
	}
	if MoneyUnits(decimal.RequireFromString("19.99")) != 199900 || MoneyUnits(decimal.RequireFromString("0.00005")) != 1 {
		t.Error("MoneyUnits")
	}
	avg := OrderStats{PaidOrders: 3, TotalSpent: decimal.RequireFromString("100"), Currency: "JPY"}.AverageOrderValue()
	if avg.String() != "33" {
		t.Errorf("JPY average %s", avg)
	}
}
