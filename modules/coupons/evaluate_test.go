package coupons_test

import (
	"context"
	"testing"

	"github.com/gocommerce/commerce/modules/coupons/api"
)

// Evaluate reads the lines' collections through the command only for a coupon
// restricted to collections, once per evaluation.
func TestEvaluateReadsCollectionsOnlyWhenRestricted(t *testing.T) {
	t.Parallel()
	const kitchen = "0190a000-0000-7000-8000-0000000000d1"
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		h.create("ALL", "percentage", "10", nil)
		h.create("KITCHEN", "percentage", "10", map[string]any{"applies_to": map[string]any{"collection_ids": []string{kitchen}}})
		calls := 0
		cmd := api.EvaluateCommand{
			Lines: []api.Line{
				{ID: "a", ProductID: productA, VariantID: "va", Quantity: 1, UnitPrice: dec("30")},
				{ID: "b", ProductID: productB, VariantID: "vb", Quantity: 1, UnitPrice: dec("40")},
			},
			Subtotal: dec("70"), ShippingTotal: dec("0"), Currency: "USD",
			Collections: func(context.Context) (map[string][]string, error) {
				calls++
				return map[string][]string{productB: {kitchen}}, nil
			},
		}
		cmd.Code = "all"
		ev, err := h.svc.Evaluate(ctx, cmd)
		if err != nil || !ev.Valid || !ev.DiscountAmount.Equal(dec("7")) || calls != 0 {
			t.Errorf("unrestricted: %+v %v, %d collection reads", ev, err, calls)
		}
		cmd.Code = "kitchen"
		ev, err = h.svc.Evaluate(ctx, cmd)
		if err != nil || !ev.Valid || !ev.DiscountAmount.Equal(dec("4")) || !ev.LineDiscounts["b"].Equal(dec("4")) || calls != 1 {
			t.Errorf("restricted: %+v %v, %d collection reads", ev, err, calls)
		}
	})
}

// A notice that carries the evaluated coupon's id and type is published as given.
func TestNotifyAppliedWithEvaluatedCoupon(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(t *testing.T, h *harness) {
		c := h.create("GIVEN", "percentage", "10", nil)
		err := h.svc.NotifyApplied(context.Background(), api.CartCoupon{
			Code: "GIVEN", CouponID: c["id"].(string), Type: "percentage", CartID: cartID, DiscountAmount: dec("1"), Currency: "USD",
		})
		if err != nil {
			t.Fatal(err)
		}
		a := h.Payloads("coupon.applied", "")
		if len(a) != 1 || a[0]["coupon_id"] != c["id"] || a[0]["code"] != "GIVEN" || a[0]["type"] != "percentage" || a[0]["discount_amount"] != "1.00" {
			t.Errorf("coupon.applied %v", a)
		}
	})
}
