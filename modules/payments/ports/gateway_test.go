package ports

import (
	"errors"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

func TestMethodSpecCheck(t *testing.T) {
	t.Parallel()
	spec := MethodSpec{MethodType: "card", Currencies: []string{"USD", "JPY"}, MinMinor: 50, MaxMinor: 100000, SupportsTokenization: true}
	noTokens := spec
	noTokens.SupportsTokenization = false
	cases := []struct {
		name     string
		spec     MethodSpec
		currency domain.Currency
		amount   string
		save     bool
		newCard  bool
		code     string // "" when accepted; a field name for a validation error
		message  string
	}{
		{"accepted", spec, "USD", "10.00", false, true, "", ""},
		{"bounds included", spec, "JPY", "50", false, false, "", ""},
		{"other currency", spec, "EUR", "10.00", false, true, "INVALID_CURRENCY", "Gateway g does not accept EUR"},
		{"below the minimum", spec, "USD", "0.49", false, true, "INVALID_AMOUNT", "Amount must be between 0.50 and 1000.00 USD"},
		{"above the maximum", spec, "JPY", "100001", false, true, "INVALID_AMOUNT", "Amount must be between 50 and 100000 JPY"},
		{"save a new card", spec, "USD", "10.00", true, true, "", ""},
		{"save without a new card", spec, "USD", "10.00", true, false, "save_payment_method", ""},
		{"save without tokenization", noTokens, "USD", "10.00", true, true, "save_payment_method", ""},
	}
	for _, tc := range cases {
		err := tc.spec.Check("g", tc.currency, decimal.RequireFromString(tc.amount), tc.save, tc.newCard)
		e, _ := apperr.As(err)
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.code != "" && (e == nil || (e.Code != tc.code && e.Fields[tc.code] == "") || (tc.message != "" && e.Message != tc.message)):
			t.Errorf("%s: %v, want %s %q", tc.name, err, tc.code, tc.message)
		}
	}
	if !errors.Is(spec.Check("g", "EUR", decimal.NewFromInt(1), false, false), domain.ErrInvalidCurrency) {
		t.Error("not INVALID_CURRENCY")
	}
}
