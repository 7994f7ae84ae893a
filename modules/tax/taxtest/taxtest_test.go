package taxtest_test

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/taxtest"
)

func TestFlat(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	f := taxtest.Flat{Rate: d("0.1")}
	r, err := f.Calculate(t.Context(), api.Query{Currency: "USD", ShippingAmount: d("5.00"),
		Lines: []api.Line{{ID: "a", Quantity: 3, UnitPrice: d("0.35")}, {ID: "b", Quantity: 1, UnitPrice: d("10.00")}}})
	if err != nil || !r.Lines[0].TaxAmount.Equal(d("0.11")) || !r.Lines[1].TaxAmount.Equal(d("1")) ||
		!r.ShippingTax.Equal(d("0.5")) || !r.TotalTax.Equal(d("1.61")) || len(r.Breakdown) != 1 || !r.Breakdown[0].TaxableAmount.Equal(d("16.05")) {
		t.Errorf("%+v %v", r, err)
	}
	boom := errors.New("down")
	if _, err := (taxtest.Flat{Err: boom}).Calculate(t.Context(), api.Query{}); !errors.Is(err, boom) {
		t.Errorf("err %v", err)
	}
}
