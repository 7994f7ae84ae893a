package domain_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestTotals(t *testing.T) {
	t.Parallel()
	lines := []domain.Line{
		{ItemID: "a", Quantity: 3, UnitPrice: d("3.335"), Discount: d("1.004"), RequiresShipping: true},
		{ItemID: "b", Quantity: 1, UnitPrice: d("2.00"), Discount: d("5.00")}, // capped at the line
	}
	tt := domain.NewTotals("USD", lines, d("7.50"), d("10.00"))
	tt.Tax = domain.Tax{ItemTax: d("0.80"), ShippingTax: d("0.00")}
	for name, c := range map[string][2]decimal.Decimal{
		"subtotal":       {tt.Subtotal, d("12.01")}, // 10.005 rounds half away to 10.01
		"line discount":  {tt.LineDiscount, d("3.00")},
		"shipping":       {tt.Shipping, d("7.50")},
		"ship discount":  {tt.ShippingDiscount, d("7.50")}, // capped at the price
		"shipping total": {tt.ShippingTotal(), d("0")},
		"discount total": {tt.DiscountTotal(), d("10.50")},
		"tax total":      {tt.TaxTotal(), d("0.80")},
		"total":          {tt.Total(), d("9.81")},
		"line a taxable": {tt.Lines[0].Taxable(), d("9.01")},
		"line b taxable": {tt.Lines[1].Taxable(), d("0")},
	} {
		if !c[0].Equal(c[1]) {
			t.Errorf("%s = %s, want %s", name, c[0], c[1])
		}
	}
	if !tt.RequiresShipping() {
		t.Error("a shipped line: RequiresShipping false")
	}
	if domain.NewTotals("JPY", []domain.Line{{Quantity: 1, UnitPrice: d("100")}}, d("0"), d("0")).RequiresShipping() {
		t.Error("nothing shipped: RequiresShipping true")
	}
}

func TestSessionRates(t *testing.T) {
	t.Parallel()
	s := &domain.Session{Rates: []domain.Rate{{ID: "x", Code: "express", Price: d("15")}, {ID: "s", Code: "standard", Price: d("5")}}}
	if r := s.Cheapest(); r == nil || r.ID != "s" {
		t.Errorf("cheapest: %v", r)
	}
	if r, ok := s.FindRate("EXPRESS"); !ok || r.ID != "x" {
		t.Errorf("by code: %v %v", r, ok)
	}
	if _, ok := s.FindRate("nope"); ok {
		t.Error("unknown rate found")
	}
	s.Status, s.OrderID, s.Reservations = domain.StatusProcessing, "o1", []string{"r1"}
	s.Reset(s.UpdatedAt)
	if s.Status != domain.StatusOpen || s.OrderID != "" || s.Reservations != nil {
		t.Errorf("reset: %+v", s)
	}
	if (&domain.Session{}).Cheapest() != nil {
		t.Error("no rates: a cheapest rate")
	}
}
