package app

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// RatesInput is GET /shipping/rates as sent: every parameter a string ("" when absent).
type RatesInput struct {
	FromCountry, FromZip, ToCountry, ToZip string
	Weight, WeightUnit                     string
	Length, Width, Height, DimensionUnit   string
	Carriers, ServiceCode, Currency        string
}

// RatesEcho is what the answer's meta repeats: the addresses and weight as understood.
type RatesEcho struct {
	FromCountry, FromZip, ToCountry, ToZip string
	Weight                                 decimal.Decimal
	WeightUnit                             string
	Carriers                               []string
}

// rateQuery is a validated query.
type rateQuery struct {
	req        domain.RateRequest
	carriers   []string
	weightUnit domain.WeightUnit
	dimUnit    domain.DimensionUnit
	echo       RatesEcho
}

// parseRates validates the input, naming every bad parameter.
func (s *Service) parseRates(in RatesInput) (rateQuery, error) {
	p := domain.Problems{}
	var q rateQuery
	set := func(field, m string) {
		if m != "" {
			p[field] = m
		}
	}
	q.req.FromCountry, q.req.FromZip = place(p, "from_", in.FromCountry, in.FromZip)
	q.req.ToCountry, q.req.ToZip = place(p, "to_", in.ToCountry, in.ToZip)
	pkg := domain.ValidateParcel(p, domain.ParcelInput{Weight: in.Weight, WeightUnit: in.WeightUnit,
		Length: in.Length, Width: in.Width, Height: in.Height, DimensionUnit: in.DimensionUnit})
	q.weightUnit = pkg.WeightUnit
	q.dimUnit, _ = domain.ParseDimensionUnit(in.DimensionUnit)
	if in.Carriers == "" {
		q.carriers = domain.Carriers
	} else {
		seen := map[string]bool{}
		for _, c := range strings.Split(in.Carriers, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if !domain.ValidCarrier(c) {
				set("carriers", "must be a comma-separated list of: "+strings.Join(domain.Carriers, ", "))
				break
			}
			if !seen[c] {
				seen[c] = true
				q.carriers = append(q.carriers, c)
			}
		}
	}
	q.req.ServiceCode = strings.TrimSpace(in.ServiceCode)
	if len(q.req.ServiceCode) > 64 {
		set("service_code", "must be at most 64 characters")
	}
	q.req.Currency = "USD"
	if in.Currency != "" {
		c, ok := money.Normalize(in.Currency)
		switch {
		case !ok:
			set("currency", "must be an ISO 4217 currency code")
		case !s.exchange.Supports(c):
			set("currency", "is not supported; supported: "+strings.Join(s.exchange.Currencies(), ", "))
		default:
			q.req.Currency = c
		}
	}
	if len(p) > 0 {
		return q, apperr.Validation(p)
	}
	q.req.Parcel = pkg.Parcel()
	q.req.ShipDate = s.clock.Now().UTC()
	q.echo = RatesEcho{FromCountry: q.req.FromCountry, FromZip: q.req.FromZip, ToCountry: q.req.ToCountry, ToZip: q.req.ToZip,
		Weight: pkg.Weight, WeightUnit: string(pkg.WeightUnit), Carriers: q.carriers}
	return q, nil
}

// ValidateRates checks a rates query without asking any carrier.
func (s *Service) ValidateRates(in RatesInput) error {
	_, err := s.parseRates(in)
	return err
}

// QuoteInput answers GET /shipping/rates: the validated query's echo and the quote.
func (s *Service) QuoteInput(ctx context.Context, in RatesInput) (api.Quote, RatesEcho, error) {
	q, err := s.parseRates(in)
	if err != nil {
		return api.Quote{}, RatesEcho{}, err
	}
	return s.quote(ctx, q), q.echo, nil
}

// Rates implements api.Shipping.
func (s *Service) Rates(ctx context.Context, q api.RateQuery) (api.Quote, error) {
	str := func(d decimal.Decimal) string {
		if d.IsZero() {
			return ""
		}
		return d.String()
	}
	weight := q.Weight.String()
	if q.Weight.IsZero() {
		weight = ""
	}
	out, _, err := s.QuoteInput(ctx, RatesInput{
		FromCountry: q.FromCountry, FromZip: q.FromZip, ToCountry: q.ToCountry, ToZip: q.ToZip,
		Weight: weight, WeightUnit: q.WeightUnit, Length: str(q.Length), Width: str(q.Width), Height: str(q.Height),
		DimensionUnit: q.DimensionUnit, Carriers: strings.Join(q.Carriers, ","), ServiceCode: q.ServiceCode, Currency: q.Currency,
	})
	return out, err
}

type carrierAnswer struct {
	code  string
	rates []domain.Rate
	err   error
}

// quote asks every carrier of the query at once, each within RatesTimeout, and keeps
// what arrived: a carrier that fails or is late is a failure next to the others' rates.
func (s *Service) quote(ctx context.Context, q rateQuery) api.Quote {
	answers := make(chan carrierAnswer, len(q.carriers))
	for _, code := range q.carriers {
		c, ok := s.carriers.get(code)
		if !ok {
			answers <- carrierAnswer{code: code, err: domain.ErrCarrierUnavailable.WithMessage("%s is not configured", code)}
			continue
		}
		go func() {
			cctx, cancel := context.WithTimeout(ctx, s.settings.RatesTimeout)
			defer cancel()
			done := make(chan carrierAnswer, 1)
			go func() {
				rates, err := c.Rates(cctx, q.req)
				done <- carrierAnswer{code: code, rates: rates, err: err}
			}()
			select {
			case a := <-done:
				answers <- a
			case <-cctx.Done():
				answers <- carrierAnswer{code: code, err: fmt.Errorf("%w: %w", domain.ErrCarrierUnavailable.WithMessage("%s did not answer within %s", code, s.settings.RatesTimeout), cctx.Err())}
			}
		}()
	}
	out := api.Quote{Rates: []api.Rate{}}
	for range q.carriers {
		a := <-answers
		if a.err != nil {
			out.Failures = append(out.Failures, failure(a.code, a.err))
			continue
		}
		for _, r := range a.rates {
			if q.req.ServiceCode != "" && r.ServiceCode != q.req.ServiceCode {
				continue
			}
			if rate, ok := s.present(r, q); ok {
				out.Rates = append(out.Rates, rate)
			}
		}
	}
	order := map[string]int{}
	for i, c := range domain.Carriers {
		order[c] = i
	}
	sort.SliceStable(out.Rates, func(i, j int) bool {
		a, b := out.Rates[i], out.Rates[j]
		if !a.Price.Equal(b.Price) {
			return a.Price.LessThan(b.Price)
		}
		if a.Carrier != b.Carrier {
			return order[a.Carrier] < order[b.Carrier]
		}
		return a.ServiceCode < b.ServiceCode
	})
	sort.Slice(out.Failures, func(i, j int) bool { return order[out.Failures[i].Carrier] < order[out.Failures[j].Carrier] })
	return out
}

func failure(code string, err error) api.CarrierFailure {
	f := api.CarrierFailure{Carrier: code, Code: domain.ErrCarrierUnavailable.Code, Message: domain.ErrCarrierUnavailable.Message}
	if e, ok := apperr.As(err); ok && e.Code != "" {
		f.Code, f.Message = e.Code, e.Message
	}
	if errors.Is(err, context.DeadlineExceeded) {
		f.Code = domain.ErrCarrierUnavailable.Code
	}
	return f
}

// present converts a carrier's rate to the caller's currency and units, and gives it
// its id: the same quote always has the same id.
func (s *Service) present(r domain.Rate, q rateQuery) (api.Rate, bool) {
	price, ok := s.exchange.Convert(r.Price, r.Currency, q.req.Currency)
	if !ok {
		return api.Rate{}, false
	}
	unit := domain.Kilogram
	if q.weightUnit == domain.Pound || q.weightUnit == domain.Ounce {
		unit = domain.Pound
	}
	out := api.Rate{
		Carrier: r.Carrier, ServiceCode: r.ServiceCode, ServiceName: r.ServiceName, Description: r.Description,
		EstimatedDays: r.EstimatedDays, Price: price, Currency: q.req.Currency, WeightUnit: string(unit),
		IsNegotiatedRate: r.IsNegotiatedRate, DeliveryDateGuaranteed: r.DeliveryDateGuaranteed, DeliveryDate: r.DeliveryDate,
	}
	if r.WeightLimitKg.IsPositive() {
		out.WeightLimit = unit.FromKg(r.WeightLimitKg)
	}
	if lim := r.DimensionsLimitCm; lim[0].IsPositive() {
		out.DimensionsLimit = &api.DimensionsLimit{Length: q.dimUnit.FromCm(lim[0]), Width: q.dimUnit.FromCm(lim[1]),
			Height: q.dimUnit.FromCm(lim[2]), Unit: string(q.dimUnit)}
	}
	key := strings.Join([]string{r.Carrier, r.ServiceCode, price.String(), out.Currency, q.req.FromCountry, q.req.FromZip,
		q.req.ToCountry, q.req.ToZip, q.req.Parcel.WeightKg.String(), q.req.Parcel.Volume().String()}, "|")
	sum := sha256.Sum256([]byte(key))
	out.ID = uuid.NewSHA1(rateNamespace, sum[:]).String()
	return out, true
}

// rateNamespace names the rate ids (UUID v5 of the quote).
var rateNamespace = uuid.MustParse("6f1c2a7e-5b0d-4c1e-9a3f-2d8e7b6c5a41")

// place reads a country and its postal code (<prefix>country, <prefix>zip).
func place(p domain.Problems, prefix, country, zip string) (string, string) {
	c, msg := domain.NormalizeCountry(country)
	if msg != "" {
		p[prefix+"country"] = msg
		if strings.TrimSpace(zip) == "" {
			p[prefix+"zip"] = "is required"
		}
		return c, ""
	}
	z, msg := domain.NormalizeZip(c, zip)
	if msg != "" {
		p[prefix+"zip"] = msg
	}
	return c, z
}
