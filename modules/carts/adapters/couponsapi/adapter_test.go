package couponsapi_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	coupons "github.com/gocommerce/commerce/modules/coupons/api"

	"github.com/gocommerce/commerce/modules/carts/adapters/couponsapi"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

type fakeCoupons struct {
	cmd      coupons.EvaluateCommand
	notified []coupons.CartCoupon
}

func (f *fakeCoupons) Evaluate(_ context.Context, cmd coupons.EvaluateCommand) (coupons.Evaluation, error) {
	f.cmd = cmd
	return coupons.Evaluation{
		Valid: true, Coupon: coupons.CouponSummary{ID: "c1", Code: "TEN", Type: "percentage"},
		LineDiscounts: map[string]decimal.Decimal{"i1": decimal.RequireFromString("1.50")}, ShippingDiscount: decimal.Zero,
		DiscountAmount: decimal.RequireFromString("1.50"),
	}, nil
}

func (f *fakeCoupons) RecordUsage(context.Context, coupons.RecordUsageCommand) (coupons.Usage, error) {
	return coupons.Usage{}, nil
}

func (f *fakeCoupons) ReleaseUsage(context.Context, coupons.ReleaseUsageCommand) error { return nil }

func (f *fakeCoupons) NotifyApplied(_ context.Context, c coupons.CartCoupon) error {
	f.notified = append(f.notified, c)
	return nil
}

func (f *fakeCoupons) NotifyRemoved(_ context.Context, c coupons.CartCoupon) error {
	f.notified = append(f.notified, c)
	return nil
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	f := &fakeCoupons{}
	a := couponsapi.NewAdapter(f)
	res, err := a.Evaluate(context.Background(), ports.CouponQuery{
		Code: "ten", Lines: []ports.CouponLine{{ItemID: "i1", ProductID: "p", VariantID: "v", CollectionIDs: []string{"c"}, Quantity: 3, UnitPrice: decimal.RequireFromString("5")}},
		Subtotal: decimal.RequireFromString("15"), CustomerID: "cu", Email: "e@x.io", Currency: "USD", Applied: []string{"SHIP"}, HasAutomaticDiscounts: true,
	})
	if err != nil || !res.Valid || res.Code != "TEN" || res.CouponID != "c1" || !res.Items[domain.ItemID("i1")].Equal(decimal.RequireFromString("1.5")) {
		t.Fatalf("result %+v %v", res, err)
	}
	c := f.cmd
	if c.Code != "ten" || c.Lines[0].ID != "i1" || c.Lines[0].CollectionIDs[0] != "c" || c.Email != "e@x.io" || c.AppliedCodes[0] != "SHIP" || !c.HasAutomaticDiscounts {
		t.Errorf("command %+v", c)
	}
	_ = a.Applied(context.Background(), ports.CouponNotice{Code: "TEN", CartID: "cart", Amount: decimal.RequireFromString("2"), Currency: "USD"})
	_ = a.Removed(context.Background(), ports.CouponNotice{Code: "TEN", CartID: "cart"})
	if len(f.notified) != 2 || f.notified[0].CartID != "cart" || !f.notified[0].DiscountAmount.Equal(decimal.RequireFromString("2")) {
		t.Errorf("notified %+v", f.notified)
	}
}
