package couponsapi_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/api/couponstest"

	"github.com/gocommerce/commerce/modules/carts/adapters/couponsapi"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

func TestAdapter(t *testing.T) {
	t.Parallel()
	f := &couponstest.Recorder{Answer: func(coupons.EvaluateCommand) (coupons.Evaluation, error) {
		return coupons.Evaluation{
			Valid: true, Coupon: coupons.CouponSummary{ID: "c1", Code: "TEN", Type: "percentage"},
			LineDiscounts: map[string]decimal.Decimal{"i1": decimal.RequireFromString("1.50")}, ShippingDiscount: decimal.Zero,
			DiscountAmount: decimal.RequireFromString("1.50"),
		}, nil
	}}
	a := couponsapi.NewAdapter(f)
	res, err := a.Evaluate(context.Background(), ports.CouponQuery{
		Code: "ten", Lines: []ports.CouponLine{{ItemID: "i1", ProductID: "p", VariantID: "v", CollectionIDs: []string{"c"}, Quantity: 3, UnitPrice: decimal.RequireFromString("5")}},
		Subtotal: decimal.RequireFromString("15"), CustomerID: "cu", Email: "e@x.io", Currency: "USD", Applied: []string{"SHIP"}, HasAutomaticDiscounts: true,
	})
	if err != nil || !res.Valid || res.Code != "TEN" || res.CouponID != "c1" || !res.Items[domain.ItemID("i1")].Equal(decimal.RequireFromString("1.5")) {
		t.Fatalf("result %+v %v", res, err)
	}
	c := f.Evaluated()[0]
	if c.Code != "ten" || c.Lines[0].ID != "i1" || c.Lines[0].CollectionIDs[0] != "c" || c.Email != "e@x.io" || c.AppliedCodes[0] != "SHIP" || !c.HasAutomaticDiscounts {
		t.Errorf("command %+v", c)
	}
	_ = a.Applied(context.Background(), ports.CouponNotice{Code: "TEN", CartID: "cart", Amount: decimal.RequireFromString("2"), Currency: "USD"})
	_ = a.Removed(context.Background(), ports.CouponNotice{Code: "TEN", CartID: "cart"})
	if n := f.Notified(); len(n) != 2 || n[0].CartID != "cart" || !n[0].DiscountAmount.Equal(decimal.RequireFromString("2")) {
		t.Errorf("notified %+v", n)
	}
}
