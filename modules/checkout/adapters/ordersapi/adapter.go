// Package ordersapi implements checkout's ports.Orders on the orders module's api.
package ordersapi

import (
	"context"
	"errors"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// Adapter is ports.Orders over orders.Orders and orders.Queries.
type Adapter struct {
	orders  orders.Orders
	queries orders.Queries
}

var _ ports.Orders = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(o orders.Orders, q orders.Queries) *Adapter { return &Adapter{orders: o, queries: q} }

func address(a *domain.Address) *orders.Address {
	if a == nil {
		return nil
	}
	return &orders.Address{FirstName: a.FirstName, LastName: a.LastName, Company: a.Company, Phone: a.Phone, Address1: a.Address1,
		Address2: a.Address2, City: a.City, State: a.RegionCode, Country: a.CountryCode, Zip: a.PostalCode}
}

// Create creates the order with the draft's id, lines at the cart's prices, its
// shipping line, tax lines and discount codes (stock is held by checkout: bypass).
func (a *Adapter) Create(ctx context.Context, d ports.OrderDraft) (ports.Order, error) {
	cur, t := d.Currency, d.Totals
	cmd := orders.CreateOrderCommand{
		ID: d.ID, CustomerID: d.CustomerID, Email: d.Email, Currency: cur, ShippingAddress: address(d.ShippingAddress),
		BillingAddress: address(d.BillingAddress), SourceName: "checkout", CartToken: d.CartID, CheckoutToken: d.CheckoutID,
		InventoryBehaviour: orders.InventoryBypass, CouponUsesRecorded: true, PaymentID: d.PaymentID,
	}
	if p := d.Payment; p != nil && p.ID == d.PaymentID {
		cmd.Payment = &orders.KnownPayment{ID: p.ID, Status: p.Status, Amount: p.Amount, AmountCaptured: p.AmountCaptured,
			Currency: p.Currency, Gateway: p.Gateway, OrderID: p.OrderID}
	}
	if cmd.BillingAddress == nil {
		cmd.BillingAddress = cmd.ShippingAddress
	}
	for _, l := range d.Lines {
		li := orders.LineItemInput{ProductID: l.ProductID, VariantID: l.VariantID, Quantity: l.Quantity, Price: money.Format(l.UnitPrice, cur)}
		if v, ok := d.Variants[l.VariantID]; ok && v.ProductID == l.ProductID && l.VariantID != "" {
			li.Variant = &orders.LineVariant{ProductTitle: v.ProductTitle, SKU: v.SKU, Currency: v.Currency, Price: v.Price,
				Weight: v.Weight, WeightUnit: v.WeightUnit, RequiresShipping: v.RequiresShipping, Taxable: v.Taxable, Tracked: v.Tracked}
			if !v.IsDefault {
				li.Variant.VariantTitle = v.Title
			}
		}
		cmd.LineItems = append(cmd.LineItems, li)
	}
	if r := d.Shipping; r != nil {
		title := strings.TrimSpace(r.Carrier + " " + r.Name)
		if title == "" {
			title = "Shipping"
		}
		cmd.ShippingLines = []orders.ShippingLineInput{{Title: title, Price: money.Format(t.Shipping, cur), Code: r.Code, Source: r.Carrier}}
	}
	cmd.TaxLines = taxLines(t, cur)
	for _, u := range d.Coupons {
		cmd.DiscountCodes = append(cmd.DiscountCodes, orders.DiscountCodeInput{Code: u.Code, Amount: money.Format(u.Amount, cur)})
	}
	o, err := a.orders.CreateOrder(ctx, cmd)
	if err != nil {
		return ports.Order{}, err
	}
	return toOrder(o), nil
}

// taxLines are the breakdown's jurisdictions when they add up to the tax total, else
// the item tax and the shipping tax.
func taxLines(t domain.Totals, cur string) []orders.TaxLineInput {
	var out []orders.TaxLineInput
	sum := decimal.Zero
	for _, b := range t.Tax.Breakdown {
		title := b.RateName
		if title == "" {
			title = b.ZoneName
		}
		if title == "" {
			title = "Tax"
		}
		sum = sum.Add(b.TaxAmount)
		tl := orders.TaxLineInput{Title: title, Price: money.Format(b.TaxAmount, cur)}
		if !b.Rate.IsNegative() && b.Rate.LessThanOrEqual(decimal.NewFromInt(1)) {
			tl.Rate = b.Rate.String() // a fraction, as the order's tax lines keep it
		}
		out = append(out, tl)
	}
	if sum.Equal(t.TaxTotal()) && len(out) > 0 {
		return out
	}
	out = nil
	if t.Tax.ItemTax.IsPositive() {
		out = append(out, orders.TaxLineInput{Title: "Tax", Price: money.Format(t.Tax.ItemTax, cur)})
	}
	if t.Tax.ShippingTax.IsPositive() {
		out = append(out, orders.TaxLineInput{Title: "Shipping tax", Price: money.Format(t.Tax.ShippingTax, cur)})
	}
	return out
}

func toOrder(o orders.Order) ports.Order {
	total, _ := decimal.NewFromString(o.TotalPrice)
	out := ports.Order{ID: o.ID, Number: o.OrderNumber, Status: o.Status, FinancialStatus: o.FinancialStatus, Email: o.Email, Currency: o.Currency, Total: total}
	if o.CustomerID != nil {
		out.CustomerID = *o.CustomerID
	}
	return out
}

// Get returns an order.
func (a *Adapter) Get(ctx context.Context, id string) (ports.Order, error) {
	o, err := a.queries.GetOrder(ctx, id)
	if err != nil {
		return ports.Order{}, err
	}
	return toOrder(o), nil
}

// Cancel cancels the unpaid order (an order already cancelled is not an error).
func (a *Adapter) Cancel(ctx context.Context, id string) error {
	_, err := a.orders.CancelOrder(ctx, id, "other")
	var e *apperr.Error
	if errors.As(err, &e) && e.Code == "ORDER_ALREADY_CANCELLED" {
		return nil
	}
	return err
}

// SyncPayment records the payment on its order.
func (a *Adapter) SyncPayment(ctx context.Context, paymentID string) error {
	return a.orders.SyncPayment(ctx, paymentID)
}
