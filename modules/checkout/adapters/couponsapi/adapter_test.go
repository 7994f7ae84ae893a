package couponsapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/adapters/couponsapi"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	coupons "github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fakeCoupons evaluates TEN (10% of each line), SHIP (free shipping) and EXPIRED.
type fakeCoupons struct {
	coupons.Coupons
	cmds     []coupons.EvaluateCommand
	recorded []coupons.RecordUsageCommand
	released []coupons.ReleaseUsageCommand
}

func (f *fakeCoupons) Evaluate(_ context.Context, cmd coupons.EvaluateCommand) (coupons.Evaluation, error) {
	f.cmds = append(f.cmds, cmd)
	ev := coupons.Evaluation{Valid: true, Coupon: coupons.CouponSummary{ID: "id-" + cmd.Code, Code: cmd.Code}, LineDiscounts: map[string]decimal.Decimal{}, ShippingDiscount: decimal.Zero}
	switch cmd.Code {
	case "TEN":
		for _, l := range cmd.Lines {
			ev.LineDiscounts[l.ID] = l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))).Div(decimal.NewFromInt(10))
			ev.DiscountAmount = ev.DiscountAmount.Add(ev.LineDiscounts[l.ID])
		}
	case "SHIP":
		ev.ShippingDiscount, ev.DiscountAmount = cmd.ShippingTotal, cmd.ShippingTotal
	case "EXPIRED":
		return coupons.Evaluation{ErrorCode: "COUPON_EXPIRED", ErrorMessage: "Coupon has expired"}, nil
	default:
		return coupons.Evaluation{ErrorCode: "COUPON_NOT_FOUND", ErrorMessage: "Coupon not found"}, nil
	}
	return ev, nil
}

func (f *fakeCoupons) RecordUsage(_ context.Context, cmd coupons.RecordUsageCommand) (coupons.Usage, error) {
	f.recorded = append(f.recorded, cmd)
	return coupons.Usage{}, nil
}

func (f *fakeCoupons) ReleaseUsage(_ context.Context, cmd coupons.ReleaseUsageCommand) error {
	f.released = append(f.released, cmd)
	return nil
}

func TestDiscounts(t *testing.T) {
	t.Parallel()
	f := &fakeCoupons{}
	a := couponsapi.NewAdapter(f)
	cart := ports.CouponCart{CartID: "c1", Currency: "USD", Subtotal: d("30"), CouponCodes: []string{"TEN", "SHIP"},
		Lines: []ports.CouponLine{{ID: "i1", Quantity: 2, UnitPrice: d("10")}, {ID: "i2", Quantity: 1, UnitPrice: d("10")}}}
	got, err := a.Discounts(context.Background(), cart, d("7.50"))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Lines["i1"].Equal(d("2")) || !got.Lines["i2"].Equal(d("1")) || !got.Shipping.Equal(d("7.50")) || len(got.Coupons) != 2 ||
		got.Coupons[0].CouponID != "id-TEN" || !got.Coupons[0].Amount.Equal(d("3")) || !got.Coupons[1].Amount.Equal(d("7.50")) {
		t.Errorf("discounts: %+v", got)
	}
	if len(f.cmds) != 2 || len(f.cmds[0].AppliedCodes) != 1 || f.cmds[0].AppliedCodes[0] != "SHIP" || !f.cmds[1].ShippingTotal.Equal(d("7.50")) {
		t.Errorf("evaluations: %+v", f.cmds)
	}
	for code, kind := range map[string]apperr.Kind{"EXPIRED": apperr.Invalid, "NOPE": apperr.NotFound} {
		cart.CouponCodes = []string{code}
		_, err := a.Discounts(context.Background(), cart, decimal.Zero)
		var e *apperr.Error
		if !errors.As(err, &e) || e.Kind != kind || (code == "EXPIRED" && e.Code != "COUPON_EXPIRED") {
			t.Errorf("%s: %v", code, err)
		}
	}
}

func TestRecordRelease(t *testing.T) {
	t.Parallel()
	f := &fakeCoupons{}
	a := couponsapi.NewAdapter(f)
	u := domain.CouponUse{Code: "TEN", CouponID: "id-TEN", Amount: d("3")}
	if err := a.Record(context.Background(), u, "o1", "cust", "USD", d("27")); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(context.Background(), u, "o1"); err != nil {
		t.Fatal(err)
	}
	r := f.recorded[0]
	if r.CouponID != "id-TEN" || r.OrderID != "o1" || r.CustomerID != "cust" || !r.OrderTotal.Equal(d("27")) || !r.DiscountAmount.Equal(d("3")) {
		t.Errorf("recorded: %+v", r)
	}
	if rel := f.released[0]; rel.CouponID != "id-TEN" || rel.OrderID != "o1" {
		t.Errorf("released: %+v", rel)
	}
}
