package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
	"github.com/gocommerce/commerce/platform/patch"
)

// FitsCurrency reports whether d has no more decimals than the currency's minor units.
func FitsCurrency(d decimal.Decimal, currency string) bool {
	return d.Equal(d.Round(MinorUnits(currency)))
}

// FormatAmount writes an amount with the currency's minor units ("19.90", "1999").
func FormatAmount(d decimal.Decimal, currency string) string {
	return d.StringFixed(MinorUnits(currency))
}

// priceFields are the amounts of a write request, as sent.
type priceFields struct{ price, compareAt, cost patch.Field[string] }

// prices points at the amounts of a product or a variant.
type prices struct {
	price           *decimal.Decimal
	compareAt, cost **decimal.Decimal
}

// apply parses the present amounts in currency (INVALID_PRICE naming the field): price
// may not be null; compare_at_price and cost_price are cleared by null.
func (in priceFields) apply(currency string, to prices) error {
	if in.price.Set {
		if in.price.Null {
			return ErrInvalidPrice.WithField("price", patch.MsgNotNull)
		}
		d, err := ParseAmount("price", in.price.Value, currency)
		if err != nil {
			return err
		}
		*to.price = d
	}
	if err := applyOptionalAmount("compare_at_price", in.compareAt, currency, to.compareAt); err != nil {
		return err
	}
	return applyOptionalAmount("cost_price", in.cost, currency, to.cost)
}

func applyOptionalAmount(name string, f patch.Field[string], currency string, dst **decimal.Decimal) error {
	if !f.Set {
		return nil
	}
	if f.Null {
		*dst = nil
		return nil
	}
	d, err := ParseAmount(name, f.Value, currency)
	if err != nil {
		return err
	}
	*dst = &d
	return nil
}

// ParseAmount parses a money amount of currency by the house rules (money.Parse,
// docs/decisions/0022): "19.99", "1999" for JPY. Anything else is ErrInvalidPrice
// naming field.
func ParseAmount(field, raw, currency string) (decimal.Decimal, error) {
	d, err := money.Parse(raw, currency)
	if err != nil {
		return decimal.Zero, ErrInvalidPrice.WithMessage("%s %s", field, err).WithField(field, err.Error())
	}
	return d, nil
}

// ParseWeight parses a non-negative decimal weight (at most 4 decimals).
func ParseWeight(raw string) (decimal.Decimal, bool) {
	d, err := money.ParseDecimal(raw, money.StoredDecimals)
	return d, err == nil
}
