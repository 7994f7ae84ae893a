package domain_test

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// book: DE 19 % (reverse charge), DE food 7 %, FR 20 %, US CA 7.25 % with a nexus rule,
// an expired DE rate with a high priority.
func book(caSales string) *domain.Book {
	zones := []*domain.Zone{
		{ID: "de", Name: "Germany", CountryCode: "DE"}, {ID: "fr", Name: "France", CountryCode: "FR"},
		{ID: "ca", Name: "California", CountryCode: "US", RegionCode: "CA"},
	}
	rates := []*domain.Rate{
		{ID: "de-std", Name: "DE VAT", ZoneID: "de", Rate: d("0.19"), ValidFrom: "2026-01-01", ReverseCharge: true, B2BExempt: true},
		{ID: "de-old", Name: "DE old", ZoneID: "de", Rate: d("0.16"), ValidFrom: "2020-07-01", ValidUntil: "2026-06-14", Priority: 9},
		{ID: "de-food", Name: "DE food", ZoneID: "de", CategoryID: "food", Rate: d("0.07"), ValidFrom: "2026-01-01", ReverseCharge: true},
		{ID: "fr-std", Name: "FR VAT", ZoneID: "fr", Rate: d("0.2"), ValidFrom: "2026-01-01", ReverseCharge: true},
		{ID: "ca-std", Name: "CA", ZoneID: "ca", Rate: d("0.0725"), ValidFrom: "2026-01-01"},
	}
	cats := []*domain.Category{{ID: "food", IsFood: true}, {ID: "digital", IsDigital: true}}
	nexus := []*domain.Nexus{{CountryCode: "US", RegionCode: "CA", SalesThreshold: d("500000"), Sales: d(caSales)}}
	return domain.NewBook(zones, rates, cats, nexus)
}

func TestCalculateTable(t *testing.T) {
	t.Parallel()
	de := domain.Settings{Origin: "DE"}
	for _, c := range []struct {
		name     string
		settings domain.Settings
		in       domain.Input
		caSales  string
		taxes    []string // each line's tax
		rates    []string // each line's rate id
		shipping string
		total    string
		reverse  bool
	}{
		{"DE→DE", de, in("DE", "EUR", line("10.00", 3, "", false)), "0", []string{"5.70"}, []string{"de-std"}, "0", "5.70", false},
		{"rounding per line", de, in("DE", "EUR", line("0.05", 1, "", false), line("0.05", 1, "", false)), "0", []string{"0.01", "0.01"}, []string{"de-std", "de-std"}, "0", "0.02", false},
		{"food category", de, in("DE", "EUR", line("10.00", 1, "food", false)), "0", []string{"0.70"}, []string{"de-food"}, "0", "0.70", false},
		{"expired yesterday", de, in("DE", "EUR", line("100.00", 1, "", false)), "0", []string{"19.00"}, []string{"de-std"}, "0", "19.00", false},
		{"DE→FR goods, no OSS", de, in("FR", "EUR", line("100.00", 1, "", false)), "0", []string{"19.00"}, []string{"de-std"}, "0", "19.00", false},
		{"DE→FR goods, OSS", domain.Settings{Origin: "DE", OSS: true}, in("FR", "EUR", line("100.00", 1, "", false)), "0", []string{"20.00"}, []string{"fr-std"}, "0", "20.00", false},
		{"DE→FR digital", de, in("FR", "EUR", line("100.00", 1, "", true), line("10.00", 1, "digital", false)), "0", []string{"20.00", "2.00"}, []string{"fr-std", "fr-std"}, "0", "22.00", false},
		{"DE→FR B2B", de, b2b(in("FR", "EUR", line("100.00", 1, "", false))), "0", []string{"0"}, []string{"fr-std"}, "0", "0", true},
		{"DE→DE B2B", de, b2b(in("DE", "EUR", line("100.00", 1, "", false))), "0", []string{"19.00"}, []string{"de-std"}, "0", "19.00", false},
		{"CA without nexus", de, in("US", "USD", line("100.00", 1, "", false)), "499999.99", []string{"0"}, []string{""}, "0", "0", false},
		{"CA with nexus", de, in("US", "USD", line("100.00", 1, "", false)), "500000", []string{"7.25"}, []string{"ca-std"}, "0", "7.25", false},
		{"no zone", de, in("JP", "JPY", line("1000", 1, "", false)), "0", []string{"0"}, []string{""}, "0", "0", false},
		{"shipping", de, ship(in("DE", "EUR", line("10.00", 1, "", false)), "4.90"), "0", []string{"1.90"}, []string{"de-std"}, "0.93", "2.83", false},
		{"included", de, included(ship(in("DE", "EUR", line("119.00", 1, "", false), line("0.99", 1, "", false)), "5.95")), "0", []string{"19.00", "0.16"}, []string{"de-std", "de-std"}, "0.95", "20.11", false},
		{"no origin: B2B everywhere in the EU", domain.Settings{}, b2b(in("DE", "EUR", line("100.00", 1, "", false))), "0", []string{"0"}, []string{"de-std"}, "0", "0", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := domain.Calculate(book(c.caSales), c.settings, c.in)
			for i, l := range r.Lines {
				if !l.TaxAmount.Equal(d(c.taxes[i])) || l.TaxRateID != c.rates[i] {
					t.Errorf("line %d: tax %s rate %q, want %s %q", i, l.TaxAmount, l.TaxRateID, c.taxes[i], c.rates[i])
				}
				if l.ReverseCharge != c.reverse {
					t.Errorf("line %d: reverse charge %v", i, l.ReverseCharge)
				}
			}
			if !r.ShippingTax.Equal(d(c.shipping)) || !r.TotalTax.Equal(d(c.total)) || r.ReverseChargeApplied != c.reverse {
				t.Errorf("shipping %s total %s reverse %v, want %s %s %v", r.ShippingTax, r.TotalTax, r.ReverseChargeApplied, c.shipping, c.total, c.reverse)
			}
			if c.reverse && len(r.Breakdown) != 0 {
				t.Errorf("breakdown %v", r.Breakdown)
			}
			sum := decimal.Zero
			for _, j := range r.Breakdown {
				sum = sum.Add(j.TaxAmount)
			}
			if !sum.Equal(r.TotalTax) {
				t.Errorf("breakdown sums %s, total %s", sum, r.TotalTax)
			}
		})
	}
}

func in(country, currency string, lines ...api.Line) domain.Input {
	return domain.Input{Lines: lines, Address: domain.Address{CountryCode: country, RegionCode: "CA"}, Currency: currency, Day: "2026-06-15"}
}

func line(price string, qty int, category string, digital bool) api.Line {
	return api.Line{ID: price, Quantity: qty, UnitPrice: d(price), TaxCategoryID: category, IsDigital: digital}
}

func b2b(i domain.Input) domain.Input { i.B2B = true; return i }

func ship(i domain.Input, amount string) domain.Input { i.ShippingAmount = d(amount); return i }

func included(i domain.Input) domain.Input { i.TaxIncluded = true; return i }

func TestParseVATID(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"DE123456789": "DE123456789", "de 123 456 789": "DE123456789", "ATU12345678": "ATU12345678", "EL123456789": "EL123456789",
		"FR40303265045": "FR40303265045", "FRXX303265045": "FRXX303265045", "NL123456789B01": "NL123456789B01", "IE1234567FA": "IE1234567FA",
		"ESX1234567A": "ESX1234567A", "SE123456789001": "SE123456789001", "BE0123456789": "BE0123456789", "LT123456789012": "LT123456789012",
		"CY12345678L": "CY12345678L", "RO12": "RO12", "dk-12.34.56.78": "DK12345678",
	} {
		v, err := domain.ParseVATID(raw)
		if err != nil || v.String() != want {
			t.Errorf("%q: %v %v, want %s", raw, v, err, want)
		}
	}
	for _, raw := range []string{"", "DE", "DE12345678", "DE1234567890", "GR123456789", "US123456789", "XI123456789", "FRIO303265045",
		"NL123456789A01", "SE123456789012", "BE2123456789", "AT12345678", "DE12345678X"} {
		if _, err := domain.ParseVATID(raw); !errors.Is(err, domain.ErrMalformedVATID) {
			t.Errorf("%q: %v, want malformed", raw, err)
		}
	}
}

func TestNexusReached(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    domain.Nexus
		want bool
	}{
		{domain.Nexus{SalesThreshold: d("100000"), Sales: d("99999.99"), Transactions: 1000}, false},
		{domain.Nexus{SalesThreshold: d("100000"), Sales: d("100000")}, true},
		{domain.Nexus{SalesThreshold: d("500000"), TransactionsThreshold: 100, Transactions: 99}, false},
		{domain.Nexus{SalesThreshold: d("500000"), TransactionsThreshold: 100, Transactions: 100}, true},
		{domain.Nexus{SalesThreshold: d("500000"), Registered: true}, true},
	} {
		if got := c.n.Reached(); got != c.want {
			t.Errorf("%+v: %v", c.n, got)
		}
	}
}

// BenchmarkCalculate is the engine's share of a 5-line cart's calculation (rates in
// memory; no VAT id).
func BenchmarkCalculate(b *testing.B) {
	bk, s := book("0"), domain.Settings{Origin: "DE"}
	input := ship(in("FR", "EUR", line("10.00", 1, "", false), line("5.00", 2, "food", false), line("3.99", 3, "", true),
		line("20.00", 1, "digital", false), line("0.99", 5, "", false)), "4.90")
	b.ReportAllocs()
	for b.Loop() {
		domain.Calculate(bk, s, input)
	}
}
