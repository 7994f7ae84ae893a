// Package shippingapi implements checkout's ports.Shipping on the shipping module's
// api.
package shippingapi

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	shipping "github.com/gocommerce/commerce/modules/shipping/api"
)

// Origin is where parcels leave from. There is no configuration key for it yet
// (shipping.origin would be one): DefaultOrigin until then.
type Origin struct{ Country, Zip string }

// DefaultOrigin is the origin of quotes.
var DefaultOrigin = Origin{Country: "US", Zip: "10001"}

// unitWeight is the weight of a unit when the parcel's is unknown (cart lines carry
// none): half a kilogram.
var unitWeight = decimal.RequireFromString("0.5")

// Adapter is ports.Shipping over shipping.Shipping.
type Adapter struct {
	shipping shipping.Shipping
	origin   Origin
}

var _ ports.Shipping = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(s shipping.Shipping) *Adapter { return &Adapter{shipping: s, origin: DefaultOrigin} }

// Rates quotes the parcel with every carrier; carriers that fail are left out.
func (a *Adapter) Rates(ctx context.Context, q ports.RateQuery) ([]domain.Rate, error) {
	weight := q.Parcel.Weight.Div(decimal.NewFromInt(1000)) // grams to kg
	if !weight.IsPositive() {
		weight = unitWeight.Mul(decimal.NewFromInt(int64(max(q.Parcel.Items, 1))))
	}
	quote, err := a.shipping.Rates(ctx, shipping.RateQuery{
		FromCountry: a.origin.Country, FromZip: a.origin.Zip, ToCountry: q.Destination.CountryCode, ToZip: q.Destination.PostalCode,
		Weight: weight.Round(3), WeightUnit: "kg", Currency: q.Currency,
	})
	if err != nil {
		return nil, err
	}
	out := make([]domain.Rate, 0, len(quote.Rates))
	for _, r := range quote.Rates {
		out = append(out, domain.Rate{ID: r.ID, Carrier: r.Carrier, Name: r.ServiceName, Code: r.ServiceCode, Price: r.Price,
			Currency: r.Currency, EstimatedDays: r.EstimatedDays})
	}
	return out, nil
}
