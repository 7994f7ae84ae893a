package money_test

import (
	"sort"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// TestTable checks Valid and MinorUnits on listed, fund, excluded and unknown codes.
func TestTable(t *testing.T) {
	cases := []struct {
		code  string
		valid bool
		units int32
	}{
		{"JPY", true, 0},
		{"KRW", true, 0},
		{"UYI", true, 0}, // fund code
		{"BHD", true, 3},
		{"KWD", true, 3},
		{"EUR", true, 2},
		{"USD", true, 2},
		{"CHE", true, 2}, // fund code
		{"USN", true, 2},
		{"XCG", true, 2},
		{"CLF", true, 4},
		{"UYW", true, 4},
		{"XXX", false, 2}, // excluded: the default
		{"XTS", false, 2},
		{"XAU", false, 2}, // precious metal
		{"XDR", false, 2},
		{"XSU", false, 2},
		{"XUA", false, 2},
		{"HRK", false, 2}, // withdrawn
		{"ABC", false, 2},
		{"", false, 2},
		{"US", false, 2},
		{"USDD", false, 2},
		{" USD", false, 2},
		{"usd", false, 2}, // the code must be upper case
		{"jpy", false, 2},
	}
	for _, c := range cases {
		if got := money.Valid(c.code); got != c.valid {
			t.Errorf("Valid(%q) = %v, want %v", c.code, got, c.valid)
		}
		if got := money.MinorUnits(c.code); got != c.units {
			t.Errorf("MinorUnits(%q) = %d, want %d", c.code, got, c.units)
		}
	}
}

func TestNormalize(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"USD", "USD", true},
		{"usd", "USD", true},
		{" eur ", "EUR", true},
		{"Jpy\n", "JPY", true},
		{"", "", false},
		{"  ", "", false},
		{"xxx", "", false},
		{"dollars", "", false},
		{"U SD", "", false},
	}
	for _, c := range cases {
		got, ok := money.Normalize(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Normalize(%q) = %q, %v, want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestRoundAndFormat(t *testing.T) {
	cases := []struct {
		amount, code  string
		round, format string
	}{
		{"19.9", "USD", "19.9", "19.90"},
		{"0", "USD", "0", "0.00"},
		{"1.005", "USD", "1.01", "1.01"},    // half away from zero
		{"-1.005", "USD", "-1.01", "-1.01"}, // half away from zero
		{"1.004", "EUR", "1", "1.00"},
		{"-19.9", "EUR", "-19.9", "-19.90"},
		{"1999", "JPY", "1999", "1999"},
		{"1999.5", "JPY", "2000", "2000"},
		{"-1999.5", "JPY", "-2000", "-2000"},
		{"1.25", "BHD", "1.25", "1.250"},
		{"1.2345", "BHD", "1.235", "1.235"},
		{"-0.0005", "BHD", "-0.001", "-0.001"},
		{"1.23456", "CLF", "1.2346", "1.2346"},
		{"7", "CLF", "7", "7.0000"},
		{"12.345", "ZZZ", "12.35", "12.35"}, // unknown: 2
	}
	for _, c := range cases {
		d := decimal.RequireFromString(c.amount)
		if got := money.Round(d, c.code); !got.Equal(decimal.RequireFromString(c.round)) {
			t.Errorf("Round(%s, %s) = %s, want %s", c.amount, c.code, got, c.round)
		}
		if got := money.Format(d, c.code); got != c.format {
			t.Errorf("Format(%s, %s) = %q, want %q", c.amount, c.code, got, c.format)
		}
	}
}

func TestCodes(t *testing.T) {
	codes := money.Codes()
	if !sort.StringsAreSorted(codes) {
		t.Error("Codes() is not sorted")
	}
	seen := map[string]bool{}
	for _, c := range codes {
		if seen[c] {
			t.Errorf("Codes() repeats %s", c)
		}
		seen[c] = true
		if len(c) != 3 || !money.Valid(c) {
			t.Errorf("Codes() has %q, which is not a valid code", c)
		}
	}
	for _, c := range []string{"USD", "EUR", "JPY", "BHD", "CLF", "UYW", "BOV", "ZWG"} {
		if !seen[c] {
			t.Errorf("Codes() lacks %s", c)
		}
	}
	if len(codes) != 166 {
		t.Errorf("len(Codes()) = %d, want 166", len(codes))
	}
	codes[0] = "mutated"
	if money.Codes()[0] == "mutated" {
		t.Error("Codes() shares its slice with the caller")
	}
}

// Bounded takes what the columns hold and refuses what would overflow the integer units
// or build a huge number, whatever the notation.
func TestBounded(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "19.99": true, "-19.99": true, "999999999999999": true, "999999999999999.9999": true, "1e14": true,
		"0.0000000001": true, "1e-64": true, "1e-10000": true, "0e5": true, "0.000000000000000000000000000000000000000000000000000000000000000000000": true,
		"1000000000000000": false, "1e15": false, "-1e15": false, "1e30": false, "1e10000": false, "99999999999999999999": false,
	} {
		if got := money.Bounded(decimal.RequireFromString(s)); got != want {
			t.Errorf("Bounded(%s) = %v, want %v", s, got, want)
		}
	}
	if money.Bounded(decimal.New(1, 999999999)) || money.Bounded(decimal.New(1, -999999999)) {
		t.Error("Bounded takes a huge exponent")
	}
}
