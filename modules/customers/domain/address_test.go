package domain

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestNewAddress(t *testing.T) {
	t.Parallel()
	a, err := NewAddress("a1", "c1", AddressPatch{Address1: ptr(" 1 Main St "), City: ptr("Paris"), Country: ptr("fr"), Phone: ptr("+33 1 23 45 67 89"), Province: ptr("IDF")}, now)
	if err != nil {
		t.Fatal(err)
	}
	if a.Address1 != "1 Main St" || a.Country != "FR" || a.Phone != "+33123456789" || a.Province != "IDF" || a.IsDefaultShipping {
		t.Fatalf("address %+v", a)
	}
	cases := []struct {
		name  string
		patch AddressPatch
		field string
	}{
		{"missing everything", AddressPatch{}, "address1,city,country"},
		{"unknown country", AddressPatch{Address1: ptr("x"), City: ptr("y"), Country: ptr("XX")}, "country"},
		{"alpha-3 country", AddressPatch{Address1: ptr("x"), City: ptr("y"), Country: ptr("FRA")}, "country"},
		{"blank city", AddressPatch{Address1: ptr("x"), City: ptr("  "), Country: ptr("DE")}, "city"},
		{"long zip", AddressPatch{Address1: ptr("x"), City: ptr("y"), Country: ptr("DE"), Zip: ptr(strings.Repeat("1", 21))}, "zip"},
		{"bad phone", AddressPatch{Address1: ptr("x"), City: ptr("y"), Country: ptr("DE"), Phone: ptr("12")}, "phone"},
	}
	for _, c := range cases {
		_, err := NewAddress("a", "c", c.patch, now)
		e, ok := apperr.As(err)
		if !errors.Is(err, ErrInvalidAddress) || !ok {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, f := range strings.Split(c.field, ",") {
			if e.Fields[f] == "" {
				t.Errorf("%s: no message for %s: %v", c.name, f, e.Fields)
			}
		}
	}
	// A failed update leaves the address unchanged.
	if err := a.Apply(AddressPatch{City: ptr(""), Zip: ptr("75001")}, now); err == nil || a.City != "Paris" || a.Zip != "" {
		t.Fatalf("failed update: %v %+v", err, a)
	}
	a.SetDefault(DefaultBilling, true, now)
	if !a.IsDefault(DefaultBilling) || a.IsDefault(DefaultShipping) {
		t.Fatal("SetDefault")
	}
	for _, c := range []string{"US", "GB", "AX", "SS", "ZW"} {
		if !ValidCountry(c) {
			t.Errorf("ValidCountry(%s)", c)
		}
	}
	for _, c := range []string{"UK", "EU", "us", ""} {
		if ValidCountry(c) {
			t.Errorf("ValidCountry(%q) accepted", c)
		}
	}
}
