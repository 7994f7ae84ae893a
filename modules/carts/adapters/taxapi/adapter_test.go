package taxapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	tax "github.com/gocommerce/commerce/modules/tax/api"

	"github.com/gocommerce/commerce/modules/carts/adapters/taxapi"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// fakeTax keeps the last query and answers a fixed result or error (tax/taxtest's
// stand-in is another module's package, out of reach: platform/archtest).
type fakeTax struct {
	last *tax.Query
	res  tax.Result
	err  error
}

func (f fakeTax) Calculate(_ context.Context, q tax.Query) (tax.Result, error) {
	*f.last = q
	return f.res, f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	var last tax.Query
	a := taxapi.NewAdapter(fakeTax{last: &last, res: tax.Result{TotalTax: d("3.04"), Currency: "EUR", Breakdown: []tax.Jurisdiction{
		{TaxZoneID: "z-de", TaxZoneName: "Germany", Rate: d("0.19"), TaxableAmount: d("15.98"), TaxAmount: d("2.85")},
		{TaxZoneID: "z-x", Rate: d("0.19"), TaxAmount: d("0.19")},
	}}})
	q := ports.TaxQuery{CartID: "cart", Currency: "EUR", CustomerID: "c1", ShippingTotal: d("4.99"),
		ShippingAddress: &ports.Address{Country: "DE", Region: "BE", PostalCode: "10115", City: "Berlin"},
		Lines: []ports.TaxLine{
			{ItemID: "i1", ProductID: "p1", Quantity: 3, Amount: d("0.99"), RequiresShipping: true}, // 3 × 0.33
			{ItemID: "i2", ProductID: "p2", Quantity: 1, Amount: d("10.00")},
		}}
	r, err := a.Calculate(t.Context(), q)
	if err != nil || !r.Total.Equal(d("3.04")) || r.Included || len(r.Breakdown) != 2 || r.Breakdown[0].Jurisdiction != "Germany" ||
		!r.Breakdown[0].Rate.Equal(d("0.19")) || !r.Breakdown[0].Amount.Equal(d("2.85")) || r.Breakdown[1].Jurisdiction != "z-x" {
		t.Fatalf("%+v %v", r, err)
	}
	if last.ShippingAddress == nil || *last.ShippingAddress != (tax.Address{CountryCode: "DE", RegionCode: "BE", PostalCode: "10115", City: "Berlin"}) ||
		last.Currency != "EUR" || last.CustomerID != "c1" || !last.ShippingAmount.Equal(d("4.99")) || len(last.Lines) != 2 ||
		last.Lines[0].ID != "i1" || last.Lines[0].ProductID != "p1" || last.Lines[0].Quantity != 1 || !last.Lines[0].UnitPrice.Equal(d("0.99")) ||
		last.Lines[0].IsDigital || !last.Lines[1].IsDigital {
		t.Errorf("query %+v", last)
	}

	// No address: no tax, and the tax module is not asked.
	last = tax.Query{}
	q.ShippingAddress = nil
	if r, err := a.Calculate(t.Context(), q); err != nil || !r.Total.IsZero() || r.Breakdown == nil || len(r.Breakdown) != 0 || last.Currency != "" {
		t.Errorf("no address: %+v %v %+v", r, err, last)
	}

	// Prices including tax are reported; the tax module's errors pass through.
	q.ShippingAddress = &ports.Address{Country: "DE"}
	if r, err := taxapi.NewAdapter(fakeTax{last: &last, res: tax.Result{TaxIncluded: true}}).Calculate(t.Context(), q); err != nil || !r.Included {
		t.Errorf("included: %+v %v", r, err)
	}
	boom := errors.New("tax down")
	if _, err := taxapi.NewAdapter(fakeTax{last: &last, err: boom}).Calculate(t.Context(), q); !errors.Is(err, boom) {
		t.Errorf("err %v", err)
	}
}
