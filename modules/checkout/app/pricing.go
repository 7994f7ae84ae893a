package app

import (
	"context"
	"sort"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
)

// price computes the session's totals for the cart: coupon discounts (evaluated
// against the chosen rate's price), shipping, and tax by the shipping address.
func (s *Service) price(ctx context.Context, a Access, c ports.Cart, sess *domain.Session) ([]domain.CouponUse, error) {
	shipping := decimal.Zero
	if sess.Rate != nil {
		shipping = sess.Rate.Price
	}
	d := ports.Discounts{Lines: map[string]decimal.Decimal{}, Shipping: decimal.Zero}
	if len(c.CouponCodes) > 0 {
		cc, err := s.Carts.CouponCart(ctx, a)
		if err != nil {
			return nil, err
		}
		if d, err = s.Coupons.Discounts(ctx, cc, shipping); err != nil {
			return nil, err
		}
	}
	lines := make([]domain.Line, len(c.Lines))
	for i, l := range c.Lines {
		lines[i] = domain.Line{ItemID: l.ID, ProductID: l.ProductID, VariantID: l.VariantID, Title: l.Title, VariantTitle: l.VariantTitle,
			SKU: l.SKU, Quantity: l.Quantity, UnitPrice: l.UnitPrice, Discount: d.Lines[l.ID], RequiresShipping: l.RequiresShipping}
	}
	t := domain.NewTotals(c.Currency, lines, shipping, d.Shipping)
	if sess.ShippingAddress != nil {
		q := ports.TaxQuery{Currency: c.Currency, Shipping: t.ShippingTotal(), ShippingAddress: *sess.ShippingAddress,
			BillingAddress: sess.BillingAddress, CustomerID: c.CustomerID, VATID: sess.VATID}
		for _, l := range t.Lines {
			q.Lines = append(q.Lines, ports.TaxLine{ItemID: l.ItemID, ProductID: l.ProductID, Title: l.Title, SKU: l.SKU,
				Quantity: l.Quantity, UnitPrice: l.UnitPrice, Amount: l.Taxable()})
		}
		tax, err := s.Tax.Calculate(ctx, q)
		if err != nil {
			return nil, err
		}
		t.Tax = tax
	}
	sess.Totals, sess.Currency = t, c.Currency
	return d.Coupons, nil
}

// quote asks for the rates to the session's address (none when nothing ships).
func (s *Service) quote(ctx context.Context, c ports.Cart, sess *domain.Session) error {
	sess.Rates = nil
	parcel := ports.Parcel{Value: decimal.Zero, Weight: decimal.Zero}
	for _, l := range c.Lines {
		if l.RequiresShipping {
			parcel.Items += l.Quantity
			parcel.Value = parcel.Value.Add(l.UnitPrice.Mul(decimal.NewFromInt(int64(l.Quantity))))
		}
	}
	if parcel.Items > 0 && sess.ShippingAddress != nil {
		rates, err := s.Shipping.Rates(ctx, ports.RateQuery{Currency: c.Currency, Destination: *sess.ShippingAddress, Parcel: parcel})
		if err != nil {
			return err
		}
		sort.SliceStable(rates, func(i, j int) bool { return rates[i].Price.LessThan(rates[j].Price) })
		sess.Rates = rates
	}
	if sess.Rate != nil {
		if r, ok := sess.FindRate(sess.Rate.ID); ok {
			sess.Rate = &r
		} else {
			sess.Rate = nil
		}
	}
	return nil
}
