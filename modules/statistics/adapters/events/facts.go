package events

import (
	"strings"
	"time"

	catalog "github.com/gocommerce/commerce/modules/catalog/api"
	customers "github.com/gocommerce/commerce/modules/customers/api"
	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/statistics/domain"
	"github.com/gocommerce/commerce/modules/statistics/ports"
	subscriptions "github.com/gocommerce/commerce/modules/subscriptions/api"
)

// orderFacts reads what the statistics need of an order resource.
func orderFacts(o orders.Order) ports.OrderFacts {
	f := ports.OrderFacts{ID: o.ID, Currency: o.Currency, Status: o.Status, FinancialStatus: o.FinancialStatus,
		FulfillmentStatus: o.FulfillmentStatus, Channel: o.SourceName, TotalPrice: o.TotalPrice, TotalDiscounts: o.TotalDiscounts,
		TotalRefunded: o.TotalRefunded, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, ClosedAt: o.ClosedAt}
	if o.CustomerID != nil {
		f.CustomerID = *o.CustomerID
	}
	for _, a := range []*orders.Address{o.ShippingAddress, o.BillingAddress} {
		if a != nil && strings.TrimSpace(a.Country) != "" {
			f.Country = a.Country
			break
		}
	}
	if o.Transactions != nil {
		for _, t := range *o.Transactions {
			if t.Status == "success" && (t.Kind == "sale" || t.Kind == "capture" || t.Kind == "authorization") && t.Gateway != "" {
				f.PaymentMethod = t.Gateway
				break
			}
		}
	}
	if o.Fulfillments != nil {
		var first time.Time
		for _, fl := range *o.Fulfillments {
			if fl.Status != "cancelled" && (first.IsZero() || fl.CreatedAt.Before(first)) {
				first = fl.CreatedAt
			}
		}
		if !first.IsZero() {
			f.FirstShipment = &first
		}
	}
	for _, l := range o.LineItems {
		f.Lines = append(f.Lines, ports.LineFacts{ProductID: l.ProductID, VariantID: l.VariantID, Title: l.Title, SKU: l.SKU,
			Price: l.Price, Quantity: l.Quantity, RefundedQuantity: l.RefundedQuantity})
	}
	return f
}

// productFacts reads a product resource: its stock, type and each variant's cost
// (the variant's cost price, else the product's; nil when neither is set).
func productFacts(p catalog.ProductResource) ports.Product {
	rec := ports.Product{ID: p.ID, Title: p.Title, ProductType: p.ProductType, Currency: p.Currency,
		InventoryQuantity: p.InventoryQuantity, LowStock: p.LowStockThreshold,
		Tracked: p.InventoryManagement != nil && *p.InventoryManagement != ""}
	if p.Variants == nil {
		return rec
	}
	for _, v := range *p.Variants {
		cost := p.CostPrice
		if v.CostPrice != nil {
			cost = v.CostPrice
		}
		var units *int64
		if cost != nil && strings.TrimSpace(*cost) != "" {
			u := domain.ParseUnits(*cost)
			units = &u
		}
		rec.Variants = append(rec.Variants, ports.Variant{ID: v.ID, Title: v.Title, SKU: v.SKU, Cost: units, InventoryQuantity: v.InventoryQuantity})
	}
	return rec
}

func customerFacts(c customers.Customer) ports.CustomerFacts {
	return ports.CustomerFacts{ID: c.ID, CreatedAt: c.CreatedAt}
}

func subscriptionFacts(s subscriptions.Subscription) ports.SubscriptionFacts {
	return ports.SubscriptionFacts{ID: s.ID, Currency: s.Currency, Status: s.Status, Interval: s.Interval, Amount: s.Amount,
		IntervalCount: s.IntervalCount, StartsAt: s.StartsAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
		CancelledAt: s.CancelledAt, EndsAt: s.EndsAt}
}
