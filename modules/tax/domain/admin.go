package domain

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/patch"
)

// ZoneInput is the body of POST /admin/tax/zones.
type ZoneInput struct {
	Name, Code, CountryCode, RegionCode, ZoneType patch.Field[string]
}

// NewZone checks a zone's fields: name, code and country_code are required; zone_type
// defaults to state for a region and country otherwise.
func NewZone(id string, in ZoneInput, now time.Time) (*Zone, error) {
	z, bad := &Zone{ID: id, CreatedAt: now, UpdatedAt: now}, patch.Problems{}
	required(bad, "name", in.Name)
	required(bad, "code", in.Code)
	required(bad, "country_code", in.CountryCode)
	patch.Text{Max: 255, Required: true}.Apply(bad, "name", in.Name, &z.Name)
	patch.Apply(bad, "code", in.Code, &z.Code, func(s string) (string, string) {
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "" || len(s) > 64 {
			return "", "must be 1 to 64 characters"
		}
		return s, ""
	})
	patch.Apply(bad, "country_code", in.CountryCode, &z.CountryCode, countryCode)
	patch.Text{Max: 16, Trim: true}.Apply(bad, "region_code", in.RegionCode, &z.RegionCode)
	z.RegionCode = strings.TrimPrefix(strings.ToUpper(z.RegionCode), z.CountryCode+"-")
	z.ZoneType = ZoneCountry
	if z.RegionCode != "" {
		z.ZoneType = ZoneState
	}
	patch.Text{Max: 32, Trim: true}.Apply(bad, "zone_type", in.ZoneType, &z.ZoneType)
	if z.ZoneType == "" {
		bad.Add("zone_type", "must not be empty")
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	return z, nil
}

func required(bad patch.Problems, name string, f patch.Field[string]) {
	if !f.Set {
		bad.Add(name, "is required")
	}
}

func countryCode(s string) (string, string) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return "", "must be an ISO 3166-1 alpha-2 country code"
	}
	return s, ""
}

// RateInput is the body of POST /admin/tax/rates.
type RateInput struct {
	Name, ZoneID, CategoryID, Rate, RateType, VATType, ValidFrom, ValidUntil patch.Field[string]
	IsVAT, B2BExempt, ReverseCharge                                          patch.Field[bool]
	Priority                                                                 patch.Field[int]
}

// NewRate checks a rate's fields. name, tax_zone_id and rate are required; rate is a
// decimal fraction from 0 to 1 (0.19 for 19 %): anything else is invalid_tax_rate.
// valid_from defaults to today; vat_type to standard for a VAT rate.
func NewRate(id string, in RateInput, now time.Time) (*Rate, error) {
	r, bad := &Rate{ID: id, RateType: RateTypePercentage, ValidFrom: now.Format(time.DateOnly), CreatedAt: now, UpdatedAt: now}, patch.Problems{}
	required(bad, "name", in.Name)
	required(bad, "tax_zone_id", in.ZoneID)
	patch.Text{Max: 255, Required: true}.Apply(bad, "name", in.Name, &r.Name)
	patch.Text{Max: 64, Required: true}.Apply(bad, "tax_zone_id", in.ZoneID, &r.ZoneID)
	if in.CategoryID.HasValue() {
		r.CategoryID = strings.TrimSpace(in.CategoryID.Value)
	}
	patch.OneOf(bad, "rate_type", in.RateType, &r.RateType, RateTypePercentage)
	patch.Copy(bad, "is_vat", in.IsVAT, &r.IsVAT)
	patch.Copy(bad, "b2b_exempt", in.B2BExempt, &r.B2BExempt)
	patch.Copy(bad, "reverse_charge", in.ReverseCharge, &r.ReverseCharge)
	patch.Copy(bad, "priority", in.Priority, &r.Priority)
	if r.IsVAT {
		r.VATType = VATStandard
	}
	if in.VATType.HasValue() {
		patch.OneOf(bad, "vat_type", in.VATType, &r.VATType, VATStandard, VATReduced)
	}
	patch.Apply(bad, "valid_from", in.ValidFrom, &r.ValidFrom, day)
	if in.ValidUntil.HasValue() {
		patch.Apply(bad, "valid_until", in.ValidUntil, &r.ValidUntil, day)
	}
	if r.ValidUntil != "" && r.ValidUntil < r.ValidFrom {
		bad.Add("valid_until", "must not be before valid_from")
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	rate, msg := fraction(in.Rate)
	if msg != "" {
		return nil, ErrInvalidRate.WithMessage("Invalid tax rate: rate %s", msg).WithField("rate", msg)
	}
	r.Rate = rate
	return r, nil
}

// fraction reads a rate: a decimal string (or JSON number) from 0 to 1.
func fraction(f patch.Field[string]) (decimal.Decimal, string) {
	if !f.HasValue() {
		return decimal.Zero, "is required"
	}
	d, err := decimal.NewFromString(strings.TrimSpace(f.Value))
	if err != nil || strings.ContainsAny(f.Value, "eE") {
		return decimal.Zero, `must be a decimal fraction such as "0.19"`
	}
	if d.IsNegative() || d.GreaterThan(decimal.NewFromInt(1)) {
		return decimal.Zero, `must be a fraction from 0 to 1 ("0.19" for 19%)`
	}
	if d.Exponent() < -6 {
		return decimal.Zero, "must have at most 6 decimal places"
	}
	return d, ""
}

func day(s string) (string, string) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return "", "must be a date YYYY-MM-DD"
	}
	return t.Format(time.DateOnly), ""
}
