package domain

import (
	"errors"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestInitiateRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"", true}, {"https://shop.example/return", true}, {"http://localhost:8080/x", true},
		{"ftp://shop.example/", false}, {"/relative", false}, {"https://", false}, {"::not a url", false},
	} {
		err := CheckReturnURL(tc.url)
		if e, _ := apperr.As(err); (err == nil) != tc.ok || (err != nil && e.Fields["return_url"] == "") {
			t.Errorf("return_url %q: %v", tc.url, err)
		}
	}
	if CheckIdempotencyKey(strings.Repeat("k", MaxIdempotencyKeyLength)) != nil {
		t.Error("a 255-character key is refused")
	}
	if e, _ := apperr.As(CheckIdempotencyKey(strings.Repeat("k", MaxIdempotencyKeyLength+1))); e == nil || e.Fields["idempotency_key"] == "" {
		t.Error("a 256-character key is accepted")
	}
	for _, tc := range []struct{ number, holder, acct, last string }{
		{"0001 2345 6789", " Ann Lee ", "000123456789", "6789"},
		{"123", "", "123", "123"},
	} {
		acct, d, err := BankAccount(tc.number, tc.holder)
		if err != nil || acct != tc.acct || d.LastFour != tc.last || d.Name != strings.TrimSpace(tc.holder) {
			t.Errorf("bank %q: %q %+v %v", tc.number, acct, d, err)
		}
	}
	_, _, err := BankAccount("   ", "x")
	if e, _ := apperr.As(err); !errors.Is(err, ErrInvalidPaymentMethod) || e.Fields["payment_method.bank_transfer.account_number"] != "is required" ||
		e.Message != "payment_method.bank_transfer.account_number is required" {
		t.Errorf("bank without an account: %v", err)
	}
}
