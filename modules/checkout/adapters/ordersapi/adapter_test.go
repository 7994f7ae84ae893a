package ordersapi_test

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/adapters/ordersapi"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

type fakeOrders struct {
	orders.Orders
	cmd       orders.CreateOrderCommand
	cancelErr error
}

func (f *fakeOrders) CreateOrder(_ context.Context, cmd orders.CreateOrderCommand) (orders.Order, error) {
	f.cmd = cmd
	return orders.Order{ID: cmd.ID, OrderNumber: "1001", Status: "open", FinancialStatus: "pending", Currency: cmd.Currency, TotalPrice: "38.50"}, nil
}

func (f *fakeOrders) CancelOrder(context.Context, string, string) (orders.Order, error) {
	return orders.Order{}, f.cancelErr
}

func draft(breakdown []domain.TaxBreakdown) ports.OrderDraft {
	lines := []domain.Line{{ItemID: "i1", ProductID: "p1", VariantID: "v1", Quantity: 2, UnitPrice: d("10")}}
	t := domain.NewTotals("USD", lines, d("15"), d("0"))
	t.Tax = domain.Tax{ItemTax: d("2.00"), ShippingTax: d("1.50"), Breakdown: breakdown}
	addr := &domain.Address{FirstName: "Ada", City: "Springfield", RegionCode: "IL", PostalCode: "12345", CountryCode: "US"}
	return ports.OrderDraft{ID: "o1", Email: "a@example.com", Currency: "USD", CartID: "c1", CheckoutID: "k1", Lines: t.Lines, ShippingAddress: addr,
		Shipping: &domain.Rate{ID: "r1", Carrier: "UPS", Name: "Express", Code: "express", Price: d("15")}, Totals: t,
		Coupons: []domain.CouponUse{{Code: "TEN", Amount: d("0.00")}}}
}

func TestCreate(t *testing.T) {
	t.Parallel()
	f := &fakeOrders{}
	a := ordersapi.NewAdapter(f, nil)
	o, err := a.Create(context.Background(), draft([]domain.TaxBreakdown{{RateName: "IL", Rate: d("0.1"), TaxAmount: d("3.50")}}))
	if err != nil {
		t.Fatal(err)
	}
	c := f.cmd
	if o.ID != "o1" || o.Number != "1001" || !o.Total.Equal(d("38.50")) {
		t.Errorf("order: %+v", o)
	}
	if c.ID != "o1" || c.SourceName != "checkout" || c.CartToken != "c1" || c.CheckoutToken != "k1" || !c.CouponUsesRecorded ||
		c.InventoryBehaviour != orders.InventoryBypass || c.BillingAddress == nil || c.BillingAddress.State != "IL" || c.ShippingAddress.Country != "US" {
		t.Errorf("command: %+v", c)
	}
	if len(c.LineItems) != 1 || c.LineItems[0].Price != "10.00" || c.LineItems[0].Quantity != 2 || c.LineItems[0].VariantID != "v1" {
		t.Errorf("lines: %+v", c.LineItems)
	}
	if len(c.ShippingLines) != 1 || c.ShippingLines[0].Title != "UPS Express" || c.ShippingLines[0].Price != "15.00" || c.ShippingLines[0].Code != "express" {
		t.Errorf("shipping: %+v", c.ShippingLines)
	}
	if len(c.TaxLines) != 1 || c.TaxLines[0].Title != "IL" || c.TaxLines[0].Price != "3.50" || c.TaxLines[0].Rate != "0.1" {
		t.Errorf("tax lines: %+v", c.TaxLines)
	}
	if len(c.DiscountCodes) != 1 || c.DiscountCodes[0].Code != "TEN" || c.DiscountCodes[0].Amount != "0.00" {
		t.Errorf("discounts: %+v", c.DiscountCodes)
	}
	// A breakdown that does not add up to the tax: the item and shipping tax instead.
	if _, err := a.Create(context.Background(), draft([]domain.TaxBreakdown{{RateName: "IL", Rate: d("10"), TaxAmount: d("2.00")}})); err != nil {
		t.Fatal(err)
	}
	if tl := f.cmd.TaxLines; len(tl) != 2 || tl[0].Price != "2.00" || tl[1].Title != "Shipping tax" || tl[1].Price != "1.50" || tl[0].Rate != "" {
		t.Errorf("fallback tax lines: %+v", tl)
	}
}

// The attempt's catalog read and recorded payment are passed on, so orders reads
// neither again (docs/decisions/0229).
func TestCreateWithKnownVariantsAndPayment(t *testing.T) {
	t.Parallel()
	f := &fakeOrders{}
	a := ordersapi.NewAdapter(f, nil)
	dr := draft(nil)
	dr.PaymentID = "pay_1"
	dr.Payment = &ports.RecordedPayment{ID: "pay_1", Status: "succeeded", Currency: "USD", Gateway: "test", OrderID: "o1", Amount: d("38.50"), AmountCaptured: d("38.50")}
	dr.Variants = map[string]ports.VariantFacts{"v1": {ProductID: "p1", VariantID: "v1", ProductTitle: "Mug", Title: "Large", SKU: "M-L",
		Currency: "USD", Price: d("12"), Weight: d("300"), WeightUnit: "g", RequiresShipping: true, Taxable: true, Tracked: true}}
	if _, err := a.Create(context.Background(), dr); err != nil {
		t.Fatal(err)
	}
	c := f.cmd
	if p := c.Payment; p == nil || p.ID != "pay_1" || p.OrderID != "o1" || !p.Amount.Equal(d("38.50")) || p.Gateway != "test" {
		t.Errorf("payment: %+v", c.Payment)
	}
	if v := c.LineItems[0].Variant; v == nil || v.ProductTitle != "Mug" || v.VariantTitle != "Large" || v.SKU != "M-L" || !v.Weight.Equal(d("300")) ||
		v.WeightUnit != "g" || !v.Taxable || !v.Tracked || !v.RequiresShipping || c.LineItems[0].Price != "10.00" {
		t.Errorf("line variant: %+v", c.LineItems[0].Variant)
	}
	// A default variant has no variant title; a variant of another product is not used.
	dr.Variants["v1"] = ports.VariantFacts{ProductID: "p1", VariantID: "v1", ProductTitle: "Mug", Title: "Default", IsDefault: true}
	if _, err := a.Create(context.Background(), dr); err != nil || f.cmd.LineItems[0].Variant == nil || f.cmd.LineItems[0].Variant.VariantTitle != "" {
		t.Errorf("default variant: %+v, %v", f.cmd.LineItems[0].Variant, err)
	}
	dr.Variants["v1"] = ports.VariantFacts{ProductID: "p2", VariantID: "v1"}
	dr.Payment = &ports.RecordedPayment{ID: "pay_other"}
	if _, err := a.Create(context.Background(), dr); err != nil || f.cmd.LineItems[0].Variant != nil || f.cmd.Payment != nil {
		t.Errorf("mismatched facts passed on: %+v %+v, %v", f.cmd.LineItems[0].Variant, f.cmd.Payment, err)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	f := &fakeOrders{cancelErr: apperr.New(apperr.Conflict, "ORDER_ALREADY_CANCELLED", "Order is already cancelled")}
	a := ordersapi.NewAdapter(f, nil)
	if err := a.Cancel(context.Background(), "o1"); err != nil {
		t.Errorf("already cancelled: %v", err)
	}
	f.cancelErr = apperr.New(apperr.NotFound, "ORDER_NOT_FOUND", "Order not found")
	if err := a.Cancel(context.Background(), "o1"); err == nil {
		t.Error("not found: no error")
	}
}
