package cartsapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	carts "github.com/gocommerce/commerce/modules/carts/api"

	"github.com/gocommerce/commerce/modules/coupons/adapters/cartsapi"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/auth"
)

type fakeCarts struct {
	carts.Carts
	access carts.Access
}

func (f *fakeCarts) CouponContext(_ context.Context, a carts.Access) (carts.CouponContext, error) {
	f.access = a
	if a.CartID != "c1" {
		return carts.CouponContext{}, carts.ErrCartNotFound
	}
	return carts.CouponContext{
		CartID: "c1", Currency: "USD", CustomerID: "cu", Email: "e@x.io", Subtotal: decimal.RequireFromString("10"),
		ShippingTotal: decimal.RequireFromString("2"), TaxTotal: decimal.Zero, CouponCodes: []string{"TEN"},
		Lines: []carts.CouponLine{{ID: "i1", ProductID: "p", VariantID: "v", CollectionIDs: []string{"col"}, Quantity: 2, UnitPrice: decimal.RequireFromString("5")}},
	}, nil
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	f := &fakeCarts{}
	a := cartsapi.NewAdapter(f)
	p := &auth.Principal{Kind: auth.Customer, ID: "cu"}
	c, err := a.Cart(context.Background(), ports.CartAccess{CartID: "c1", SessionToken: "tok", Principal: p})
	if err != nil || c.ID != "c1" || len(c.Lines) != 1 || c.Lines[0].ID != "i1" || c.Lines[0].CollectionIDs[0] != "col" || c.CouponCodes[0] != "TEN" || !c.ShippingTotal.Equal(decimal.RequireFromString("2")) {
		t.Fatalf("cart %+v %v", c, err)
	}
	if f.access.SessionToken != "tok" || f.access.Principal != p {
		t.Errorf("access %+v", f.access)
	}
	if _, err := a.Cart(context.Background(), ports.CartAccess{CartID: "other"}); !errors.Is(err, carts.ErrCartNotFound) {
		t.Errorf("unknown cart: %v", err)
	}
}
