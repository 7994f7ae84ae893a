package app

import (
	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/clock"
)

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toAddress(a *domain.Address) *api.Address {
	if a == nil {
		return nil
	}
	out := api.Address(*a) // the same fields
	return &out
}

// FromAddress converts an API address.
func FromAddress(a *api.Address) *domain.Address {
	if a == nil {
		return nil
	}
	out := domain.Address(*a) // the same fields
	return &out
}

// ToOrder maps an order to its resource (without the optional includes).
func ToOrder(o *domain.Order) api.Order {
	c := o.Currency
	m := domain.FormatMoney
	money := o.Money()
	out := api.Order{
		ID: o.ID, OrderNumber: o.NumberString(), Name: o.Name(), CustomerID: optString(o.CustomerID), Email: o.Email, Phone: o.Phone,
		Status: string(o.Status), FinancialStatus: string(o.Financial), FulfillmentStatus: string(o.Fulfillment), Currency: c,
		SubtotalPrice: m(o.Subtotal, c), TotalTax: m(o.TotalTax, c), TotalShipping: m(o.TotalShipping, c),
		TotalDiscounts: m(o.TotalDiscounts, c), TotalPrice: m(o.TotalPrice, c), TotalRefunded: m(money.Refunded, c),
		TotalOutstanding: m(o.Outstanding(), c), Subtotal: m(o.Subtotal, c), DiscountTotal: m(o.TotalDiscounts, c),
		TotalWeight: domain.FormatWeight(o.TotalWeightKg), TotalItems: o.TotalItems,
		LineItems: make([]api.LineItem, 0, len(o.LineItems)), ShippingAddress: toAddress(o.ShippingAddress),
		BillingAddress: toAddress(o.BillingAddress), ShippingLines: make([]api.ShippingLine, 0, len(o.ShippingLines)),
		TaxLines: make([]api.TaxLine, 0, len(o.TaxLines)), DiscountCodes: make([]api.DiscountCode, 0, len(o.DiscountCodes)),
		AppliedCoupons: make([]api.AppliedCoupon, 0, len(o.DiscountCodes)),
		Note:           o.Note, NoteAttributes: o.NoteAttributes, Tags: o.Tags, Metafields: o.Metafields,
		CartToken: o.CartToken, CheckoutToken: o.CheckoutToken, ReferringSite: o.ReferringSite, LandingSite: o.LandingSite,
		SourceName: o.SourceName, InventoryBehaviour: string(o.InventoryBehaviour), CancelReason: optString(string(o.CancelReason)),
		CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC(), ProcessedAt: o.ProcessedAt.UTC(),
		ClosedAt: clock.UTCPtr(o.ClosedAt), CancelledAt: clock.UTCPtr(o.CancelledAt),
	}
	if out.NoteAttributes == nil {
		out.NoteAttributes = map[string]any{}
	}
	if out.Metafields == nil {
		out.Metafields = map[string]any{}
	}
	if out.Tags == nil {
		out.Tags = []string{}
	}
	for _, li := range o.LineItems {
		out.LineItems = append(out.LineItems, api.LineItem{
			ID: li.ID, ProductID: li.ProductID, VariantID: li.VariantID, Title: li.Title, VariantTitle: li.VariantTitle, SKU: li.SKU,
			Quantity: li.Quantity, Price: m(li.Price, c), Total: m(li.Total(c), c), RequiresShipping: li.RequiresShipping,
			IsGiftCard: li.IsGiftCard, Taxable: li.Taxable, FulfillableQuantity: li.FulfillableQuantity(),
			FulfilledQuantity: li.FulfilledQuantity, RefundedQuantity: li.RefundedQuantity,
		})
	}
	for _, s := range o.ShippingLines {
		out.ShippingLines = append(out.ShippingLines, api.ShippingLine{ID: s.ID, Title: s.Title, Price: m(s.Price, c), Code: s.Code, Source: s.Source})
	}
	for _, t := range o.TaxLines {
		out.TaxLines = append(out.TaxLines, api.TaxLine{ID: t.ID, Title: t.Title, Rate: t.Rate.String(), Price: m(t.Price, c)})
	}
	for _, d := range o.DiscountCodes {
		out.DiscountCodes = append(out.DiscountCodes, api.DiscountCode{Code: d.Code, Amount: m(d.Amount, c), Type: d.Type})
		out.AppliedCoupons = append(out.AppliedCoupons, api.AppliedCoupon{Code: d.Code, DiscountAmount: m(d.Amount, c)})
	}
	if len(o.DiscountCodes) > 0 {
		out.CouponCode = &o.DiscountCodes[0].Code
	}
	if o.ClientDetails != nil {
		out.ClientDetails = &api.ClientDetails{BrowserIP: o.ClientDetails.BrowserIP, UserAgent: o.ClientDetails.UserAgent, SessionHash: o.ClientDetails.SessionHash}
	}
	return out
}

// ToSummary maps an order to a list summary.
func ToSummary(o *domain.Order) api.OrderSummary {
	return api.OrderSummary{
		ID: o.ID, OrderNumber: o.NumberString(), Email: o.Email, TotalPrice: domain.FormatMoney(o.TotalPrice, o.Currency),
		Currency: o.Currency, Status: string(o.Status), FinancialStatus: string(o.Financial), FulfillmentStatus: string(o.Fulfillment),
		CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC(),
	}
}

// ToFulfillment maps a fulfillment.
func ToFulfillment(o *domain.Order, f *domain.Fulfillment) api.Fulfillment {
	out := api.Fulfillment{
		ID: f.ID, OrderID: o.ID, Status: f.Status, LocationID: optString(f.LocationID), TrackingNumber: f.TrackingNumber,
		TrackingCompany: f.TrackingCompany, TrackingURL: f.TrackingURL, NotifyCustomer: f.NotifyCustomer,
		LineItems: make([]api.FulfillmentLine, 0, len(f.Lines)), CreatedAt: f.CreatedAt.UTC(), UpdatedAt: f.UpdatedAt.UTC(), CancelledAt: clock.UTCPtr(f.CancelledAt),
	}
	for _, l := range f.Lines {
		fl := api.FulfillmentLine{ID: l.LineItemID, Quantity: l.Quantity}
		if li, err := o.LineItem(l.LineItemID); err == nil {
			fl.ProductID, fl.VariantID, fl.Title, fl.SKU = li.ProductID, li.VariantID, li.Title, li.SKU
		}
		out.LineItems = append(out.LineItems, fl)
	}
	return out
}

// ToTransaction maps a transaction.
func ToTransaction(o *domain.Order, t *domain.Transaction) api.Transaction {
	return api.Transaction{
		ID: t.ID, OrderID: o.ID, Kind: string(t.Kind), Status: string(t.Status), Amount: domain.FormatMoney(t.Amount, t.Currency),
		Currency: t.Currency, Gateway: t.Gateway, PaymentID: optString(t.PaymentID), ParentID: optString(t.ParentID),
		RefundID: optString(t.RefundID), PaymentRefundID: optString(t.GatewayRefundID), ErrorCode: optString(t.ErrorCode),
		Message: t.Message, CreatedAt: t.CreatedAt.UTC(), ProcessedAt: clock.UTCPtr(t.ProcessedAt),
	}
}

// ToRefund maps a refund with its transactions.
func ToRefund(o *domain.Order, r *domain.Refund) api.Refund {
	c := o.Currency
	out := api.Refund{
		ID: r.ID, OrderID: o.ID, Status: r.Status, Note: r.Note, NotifyCustomer: r.NotifyCustomer,
		RefundLineItems: make([]api.RefundLineItem, 0, len(r.Lines)), Shipping: api.RefundShipping{Amount: domain.FormatMoney(r.Shipping, c)},
		Amount: domain.FormatMoney(r.Amount, c), Currency: c, Transactions: []api.Transaction{},
		CreatedAt: r.CreatedAt.UTC(), ProcessedAt: clock.UTCPtr(r.ProcessedAt),
	}
	for _, l := range r.Lines {
		out.RefundLineItems = append(out.RefundLineItems, api.RefundLineItem{
			LineItemID: l.LineItemID, Quantity: l.Quantity, Restock: l.Restock,
			Subtotal: domain.FormatMoney(l.Subtotal, c), TotalTax: domain.FormatMoney(l.Tax, c),
		})
	}
	for _, t := range o.Transactions {
		if t.RefundID == r.ID {
			out.Transactions = append(out.Transactions, ToTransaction(o, t))
		}
	}
	return out
}

// ToNote maps a note.
func ToNote(n *domain.Note) api.Note {
	return api.Note{ID: n.ID, OrderID: n.OrderID, Body: n.Body, Author: n.Author, NotifyCustomer: n.NotifyCustomer, CreatedAt: n.CreatedAt.UTC()}
}

// ToRefundCalculation maps a refund calculation.
func ToRefundCalculation(o *domain.Order, calc domain.RefundCalculation) api.RefundCalculation {
	c := o.Currency
	m := domain.FormatMoney
	out := api.RefundCalculation{
		OrderID: o.ID, Currency: c, RefundLineItems: make([]api.RefundLineItem, 0, len(calc.Lines)),
		Shipping: api.RefundCalculationShipping{Amount: m(calc.Shipping, c), MaximumRefundable: m(calc.ShippingMax, c)},
		Subtotal: m(calc.Subtotal, c), TotalTax: m(calc.Tax, c), Amount: m(calc.Total, c), MaximumRefundable: m(calc.MaximumRefundable, c),
		Transactions: make([]api.SuggestedTransaction, 0, len(calc.Transactions)),
	}
	for _, l := range calc.Lines {
		out.RefundLineItems = append(out.RefundLineItems, api.RefundLineItem{LineItemID: l.LineItemID, Quantity: l.Quantity, Restock: l.Restock, Subtotal: m(l.Subtotal, c), TotalTax: m(l.Tax, c)})
	}
	for _, t := range calc.Transactions {
		out.Transactions = append(out.Transactions, api.SuggestedTransaction{
			ParentID: t.ParentID, PaymentID: optString(t.PaymentID), Kind: "suggested_refund", Gateway: t.Gateway,
			Amount: m(t.Amount, c), MaximumRefundable: m(t.MaxRefundable, c),
		})
	}
	return out
}

// ref names the order in sub-resource events.
func ref(o *domain.Order) api.OrderRef {
	return api.OrderRef{OrderNumber: o.NumberString(), CustomerID: optString(o.CustomerID), Email: o.Email}
}
