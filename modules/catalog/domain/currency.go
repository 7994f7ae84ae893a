package domain

import "github.com/gocommerce/commerce/platform/money"

// NormalizeCurrency upper-cases and checks an ISO 4217 code; ErrInvalidCurrency otherwise.
func NormalizeCurrency(code string) (string, error) {
	c, ok := money.Normalize(code)
	if !ok {
		return "", ErrInvalidCurrency.WithField("currency", "must be an active ISO 4217 code")
	}
	return c, nil
}

// MinorUnits returns the number of decimal places of a currency (2 when unknown).
func MinorUnits(currency string) int32 { return money.MinorUnits(currency) }
