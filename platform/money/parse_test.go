package money_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// TestParse checks the house rules for amounts (docs/decisions/0022): the accepted forms
// and each refused one with its problem.
func TestParse(t *testing.T) {
	t.Parallel()
	ok := []struct{ in, currency, want string }{
		{"19.99", "USD", "19.99"},
		{"20", "USD", "20"},
		{"0", "USD", "0"},
		{"0.5", "USD", "0.5"},
		{"19.990", "USD", "19.99"}, // trailing zeros are not extra precision
		{" 5.00 ", "USD", "5"},     // surrounding white space
		{"007.5", "USD", "7.5"},    // leading zeros
		{"1999", "JPY", "1999"},
		{"1999.0", "JPY", "1999"},
		{"1.234", "BHD", "1.234"},
		{"1.2345", "CLF", "1.2345"},
		{"1.25", "ABC", "1.25"}, // an unlisted code has two decimals
		{"123456789012345", "USD", "123456789012345"},
		{"000000000000000123456789012345.5", "USD", "123456789012345.5"},
	}
	for _, c := range ok {
		d, err := money.Parse(c.in, c.currency)
		if err != nil || !d.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("Parse(%q, %s) = %s, %v; want %s", c.in, c.currency, d, err, c.want)
		}
	}
	bad := []struct {
		in, currency string
		problem      money.Problem
		msg          string
	}{
		{"-1", "USD", money.Negative, "must not be negative"},
		{"-0.01", "USD", money.Negative, "must not be negative"},
		{" -5", "USD", money.Negative, "must not be negative"},
		{"1.999", "USD", money.TooPrecise, "must have at most 2 decimal places for USD"},
		{"10.5", "JPY", money.TooPrecise, "must have at most 0 decimal places for JPY"},
		{"1.2345", "BHD", money.TooPrecise, "must have at most 3 decimal places for BHD"},
		{"1234567890123456", "USD", money.TooLarge, "must have at most 15 integer digits"},
		{strings.Repeat("9", 400), "USD", money.TooLarge, "must have at most 15 integer digits"},
		{"", "USD", money.NotDecimal, `must be a decimal string such as "19.99"`},
		{"   ", "USD", money.NotDecimal, ""},
		{"abc", "USD", money.NotDecimal, ""},
		{"1e3", "USD", money.NotDecimal, ""},
		{"1E3", "USD", money.NotDecimal, ""},
		{"1.5e2", "USD", money.NotDecimal, ""},
		{"NaN", "USD", money.NotDecimal, ""},
		{"nan", "USD", money.NotDecimal, ""},
		{"Infinity", "USD", money.NotDecimal, ""},
		{"+5", "USD", money.NotDecimal, ""},
		{".5", "USD", money.NotDecimal, ""},
		{"5.", "USD", money.NotDecimal, ""},
		{"1.2.3", "USD", money.NotDecimal, ""},
		{"1 000", "USD", money.NotDecimal, ""},
		{"1,50", "USD", money.NotDecimal, ""},
		{"1_000", "USD", money.NotDecimal, ""},
		{"0x10", "USD", money.NotDecimal, ""},
		{"١٢", "USD", money.NotDecimal, ""}, // non-ASCII digits
		{"19.99 USD", "USD", money.NotDecimal, ""},
	}
	for _, c := range bad {
		d, err := money.Parse(c.in, c.currency)
		var pe *money.ParseError
		if !errors.As(err, &pe) || pe.Problem != c.problem || !d.IsZero() {
			t.Errorf("Parse(%q, %s) = %s, %v; want problem %d", c.in, c.currency, d, err, c.problem)
			continue
		}
		if c.msg != "" && err.Error() != c.msg {
			t.Errorf("Parse(%q, %s) message %q, want %q", c.in, c.currency, err, c.msg)
		}
	}
}

// TestParseDecimal checks amounts without a currency: the same grammar, the given
// number of decimals, and a message without a currency.
func TestParseDecimal(t *testing.T) {
	t.Parallel()
	if d, err := money.ParseDecimal("1.2345", money.StoredDecimals); err != nil || d.String() != "1.2345" {
		t.Errorf("ParseDecimal(1.2345, 4) = %s, %v", d, err)
	}
	if d, err := money.ParseDecimal("12.50000", money.StoredDecimals); err != nil || d.String() != "12.5" {
		t.Errorf("ParseDecimal(12.50000, 4) = %s, %v", d, err)
	}
	_, err := money.ParseDecimal("1.23456", money.StoredDecimals)
	if err == nil || err.Error() != "must have at most 4 decimal places" {
		t.Errorf("ParseDecimal(1.23456, 4) error %v", err)
	}
	for _, in := range []string{"-1", "1e3", "NaN", "", "9999999999999999"} {
		if _, err := money.ParseDecimal(in, money.StoredDecimals); err == nil {
			t.Errorf("ParseDecimal(%q) accepted", in)
		}
	}
}
