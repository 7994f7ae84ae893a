package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// Calculate taxes a set of lines (api.Tax; POST /tax/calculate).
func (s *Service) Calculate(ctx context.Context, q api.Query) (api.Result, error) {
	in, err := s.input(q)
	if err != nil {
		return api.Result{}, err
	}
	var valid *bool
	if strings.TrimSpace(q.VATID) != "" {
		v, err := s.ValidateVAT(ctx, q.VATID)
		if err != nil {
			return api.Result{}, err
		}
		if !v.Valid {
			return api.Result{}, domain.ErrInvalidVATID.WithMessage("VAT ID %s is not valid according to VIES", v.VATID)
		}
		in.B2B, valid = true, &v.Valid
	}
	b, err := s.Book(ctx)
	if err != nil {
		return api.Result{}, err
	}
	res, err := s.provider.Calculate(ctx, b, s.engineSettings(b), in)
	if err != nil {
		return api.Result{}, failed(err, domain.ErrCalculation)
	}
	res.VATIDValid = valid
	return res, nil
}

// failed keeps an apperr as it is and makes any other provider error code's error.
func failed(err error, code *apperr.Error) error {
	if _, ok := apperr.As(err); ok {
		return err
	}
	return code.WithCause(err)
}

// input checks a query and turns it into the engine's input.
func (s *Service) input(q api.Query) (domain.Input, error) {
	bad := map[string]string{}
	currency, ok := money.Normalize(q.Currency)
	if !ok {
		bad["currency"] = "must be an ISO 4217 currency code"
	}
	addr, where := q.ShippingAddress, "shipping_address"
	if addr == nil || strings.TrimSpace(addr.CountryCode) == "" {
		addr, where = q.BillingAddress, "billing_address"
	}
	a, msg := address(addr)
	if msg != "" {
		if q.BillingAddress == nil {
			where = "shipping_address"
		}
		bad[where+".country_code"] = msg
	}
	in := domain.Input{Address: a, Currency: currency, TaxIncluded: s.settings.TaxIncluded, Day: s.today(),
		ShippingAmount: q.ShippingAmount, Lines: make([]api.Line, len(q.Lines))}
	if q.TaxIncluded != nil {
		in.TaxIncluded = *q.TaxIncluded
	}
	if q.ShippingAmount.IsNegative() {
		bad["shipping_amount"] = "must not be negative"
	}
	for i, l := range q.Lines {
		if l.Quantity < 1 {
			bad[lineField(i, "quantity")] = "must be at least 1"
		}
		if l.UnitPrice.IsNegative() {
			bad[lineField(i, "unit_price")] = "must not be negative"
		}
		l.TaxCategoryID = strings.TrimSpace(l.TaxCategoryID)
		in.Lines[i] = l
	}
	if len(bad) > 0 {
		return in, apperr.Validation(bad)
	}
	return in, nil
}

func lineField(i int, name string) string {
	return "items[" + strconv.Itoa(i) + "]." + name
}

// address checks an address: a country code of two letters is required.
func address(a *api.Address) (domain.Address, string) {
	if a == nil || strings.TrimSpace(a.CountryCode) == "" {
		return domain.Address{}, "is required (shipping_address or billing_address)"
	}
	cc := strings.ToUpper(strings.TrimSpace(a.CountryCode))
	if len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
		return domain.Address{}, "must be an ISO 3166-1 alpha-2 country code"
	}
	region := strings.ToUpper(strings.TrimSpace(a.RegionCode))
	region = strings.TrimPrefix(region, cc+"-") // "US-CA" and "CA" alike
	return domain.Address{CountryCode: cc, RegionCode: region, PostalCode: strings.TrimSpace(a.PostalCode), City: a.City}, ""
}

// ShippingQuery asks for the tax of a shipping amount.
type ShippingQuery struct {
	Amount      decimal.Decimal
	Address     *api.Address
	Currency    string
	TaxIncluded *bool
}

// ShippingTax is the tax of a shipping amount.
type ShippingTax struct {
	Amount, Tax, Rate, TotalWithTax decimal.Decimal
	Currency                        string
}

// CalculateShipping taxes a shipping amount by the destination's rule (POST
// /tax/calculate-shipping).
func (s *Service) CalculateShipping(ctx context.Context, q ShippingQuery) (ShippingTax, error) {
	in, err := s.input(api.Query{ShippingAddress: q.Address, Currency: q.Currency, ShippingAmount: q.Amount, TaxIncluded: q.TaxIncluded})
	if err != nil {
		return ShippingTax{}, err
	}
	b, err := s.Book(ctx)
	if err != nil {
		return ShippingTax{}, err
	}
	res, err := s.provider.Calculate(ctx, b, s.engineSettings(b), in)
	if err != nil {
		return ShippingTax{}, failed(err, domain.ErrShippingTax)
	}
	out := ShippingTax{Amount: money.Round(q.Amount, in.Currency), Tax: res.ShippingTax, Rate: res.ShippingRate, Currency: in.Currency}
	out.TotalWithTax = out.Amount.Add(out.Tax)
	if in.TaxIncluded {
		out.TotalWithTax = out.Amount
	}
	return out, nil
}

// VATValidation is the outcome of a VAT id check.
type VATValidation struct {
	VATID       string
	CountryCode string
	Valid       bool
	Name        string
	Address     string
	ValidatedAt time.Time
}

// ValidateVAT checks a VAT id: its format always; with tax.validate_vat_ids VIES
// decides (answers cached tax.vat_cache_days days), else a well-formed id is valid
// (CONTRACT.md §7).
func (s *Service) ValidateVAT(ctx context.Context, raw string) (VATValidation, error) {
	id, err := domain.ParseVATID(raw)
	if err != nil {
		return VATValidation{}, err
	}
	out := VATValidation{VATID: id.String(), CountryCode: id.Country, Valid: true, ValidatedAt: s.now()}
	if !s.settings.ValidateVATIDs {
		return out, nil
	}
	if s.settings.VATCacheDays > 0 {
		c, err := s.repo.CachedVAT(ctx, id.String(), s.now().AddDate(0, 0, -s.settings.VATCacheDays))
		if err != nil {
			return out, err
		}
		if c != nil {
			return fromCheck(out, c), nil
		}
	}
	c, err := s.vies.Check(ctx, id)
	if err != nil {
		if errors.Is(err, domain.ErrVIESUnavailable) {
			return out, err
		}
		return out, domain.ErrVIESUnavailable.WithCause(err)
	}
	c.CheckedAt = s.now()
	if s.settings.VATCacheDays > 0 {
		if err := s.repo.CacheVAT(ctx, id.String(), c); err != nil {
			return out, err
		}
	}
	return fromCheck(out, c), nil
}

func fromCheck(v VATValidation, c *ports.VATCheck) VATValidation {
	v.Valid, v.Name, v.Address, v.ValidatedAt = c.Valid, c.Name, c.Address, c.CheckedAt.UTC()
	return v
}

// RateView is a rate with its zone and category (GET /tax/rates).
type RateView struct {
	Rate     *domain.Rate
	Zone     *domain.Zone
	Category *domain.Category
}

// RatesQuery filters GET /tax/rates.
type RatesQuery struct {
	CountryCode, RegionCode, PostalCode, CategoryID string
}

// Rates lists the rates valid today for a location, best first.
func (s *Service) Rates(ctx context.Context, q RatesQuery) ([]RateView, error) {
	a, msg := address(&api.Address{CountryCode: q.CountryCode, RegionCode: q.RegionCode})
	if msg != "" {
		return nil, apperr.Validation(map[string]string{"country_code": msg})
	}
	b, err := s.Book(ctx)
	if err != nil {
		return nil, err
	}
	rates := b.List(domain.RateFilter{CountryCode: a.CountryCode, RegionCode: a.RegionCode, CategoryID: strings.TrimSpace(q.CategoryID), Day: s.today()})
	out := make([]RateView, len(rates))
	for i, r := range rates {
		out[i] = RateView{Rate: r, Zone: b.Zones[r.ZoneID], Category: b.Categories[r.CategoryID]}
	}
	return out, nil
}

// Categories lists the tax categories by name.
func (s *Service) Categories(ctx context.Context) ([]*domain.Category, error) {
	return s.repo.Categories(ctx)
}
