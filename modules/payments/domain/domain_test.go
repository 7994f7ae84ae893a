package domain

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func TestParseAmount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in       string
		currency Currency
		want     string
		err      error
	}{
		{"19.99", "USD", "19.99", nil},
		{"19.9", "USD", "19.90", nil},
		{"19.990", "USD", "19.99", nil}, // trailing zeros are not extra precision
		{"19.999", "USD", "", ErrInvalidAmount},
		{"1999", "JPY", "1999", nil},
		{"19.5", "JPY", "", ErrInvalidAmount},
		{"1.234", "KWD", "1.234", nil},
		{"0", "USD", "", ErrInvalidAmount},
		{"0.00", "USD", "", ErrInvalidAmount},
		{"-1", "USD", "", ErrInvalidAmount},
		{"1e3", "USD", "", ErrInvalidAmount},
		{"", "USD", "", ErrInvalidAmount},
		{" 5 ", "USD", "5.00", nil},
		{"5.", "USD", "", ErrInvalidAmount},
		{"1234567890123456", "USD", "", ErrInvalidAmount},
	}
	for _, c := range cases {
		got, err := ParseAmount(c.in, c.currency)
		if !errors.Is(err, c.err) || (err == nil && FormatAmount(got, c.currency) != c.want) {
			t.Errorf("ParseAmount(%q, %s) = %v, %v", c.in, c.currency, got, err)
		}
	}
	if c, err := ParseCurrency(" usd "); err != nil || c != "USD" {
		t.Errorf("ParseCurrency: %v %v", c, err)
	}
	for _, bad := range []string{"", "US", "XXX", "usdd"} {
		if _, err := ParseCurrency(bad); !errors.Is(err, ErrInvalidCurrency) {
			t.Errorf("ParseCurrency(%q) = %v", bad, err)
		}
	}
	if ToMinor(decimal.RequireFromString("19.99"), "USD") != 1999 || ToMinor(decimal.RequireFromString("500"), "JPY") != 500 ||
		!FromMinor(1999, "USD").Equal(decimal.RequireFromString("19.99")) || !FromMinor(1234, "BHD").Equal(decimal.RequireFromString("1.234")) {
		t.Error("minor units")
	}
}

func TestCards(t *testing.T) {
	t.Parallel()
	brands := map[string]string{
		"4242424242424242": "visa", "5555555555554444": "mastercard", "2223003122003222": "mastercard", "378282246310005": "amex",
		"6011111111111117": "discover", "3056930009020004": "diners", "3566002020360505": "jcb", "6200000000000005": "unionpay",
		"9999999999999995": "unknown",
	}
	for n, b := range brands {
		if got := Brand(n); got != b {
			t.Errorf("Brand(%s) = %s, want %s", n, got, b)
		}
		if !Luhn(n) {
			t.Errorf("Luhn(%s) = false", n)
		}
	}
	for _, bad := range []string{"4242424242424241", "1234567812345678", "", "abc"} {
		if Luhn(bad) {
			t.Errorf("Luhn(%q) = true", bad)
		}
	}
	ok := Card{Number: "4242 4242 4242 4242", ExpMonth: 1, ExpYear: 2030, CVC: "123", Name: " Ada "}
	if err := ok.Validate(""); err != nil {
		t.Fatal(err)
	}
	if d := ok.Details(); d.Brand != "visa" || d.LastFour != "4242" || d.Name != "Ada" || d.ExpMonth != 1 {
		t.Errorf("details %+v", d)
	}
	for name, c := range map[string]Card{
		"short":      {Number: "4242 4242", ExpMonth: 1, ExpYear: 2030},
		"letters":    {Number: "4242-4242-4242-4242", ExpMonth: 1, ExpYear: 2030},
		"luhn":       {Number: "4242424242424241", ExpMonth: 1, ExpYear: 2030},
		"month":      {Number: "4242424242424242", ExpMonth: 0, ExpYear: 2030},
		"year":       {Number: "4242424242424242", ExpMonth: 1, ExpYear: 2100},
		"cvc":        {Number: "4242424242424242", ExpMonth: 1, ExpYear: 2030, CVC: "12"},
		"20 digits":  {Number: "42424242424242424242", ExpMonth: 1, ExpYear: 2030},
		"cvc letter": {Number: "4242424242424242", ExpMonth: 1, ExpYear: 2030, CVC: "12a"},
	} {
		if err := c.Validate("card."); !errors.Is(err, ErrInvalidPaymentMethod) {
			t.Errorf("%s: %v", name, err)
		}
	}
	d := CardDetails{ExpMonth: 12, ExpYear: 2030}
	if !d.ExpiresAt().Equal(time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)) || d.Expired(time.Date(2030, 12, 31, 23, 0, 0, 0, time.UTC)) ||
		!d.Expired(time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("expiry")
	}
}

func TestPaymentTransitions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	amt := decimal.RequireFromString
	p := &Payment{Amount: amt("50"), Currency: "USD", Status: StatusPending}
	if err := p.ReserveRefund(amt("1"), now); err == nil {
		t.Fatal("refund of an unpaid payment")
	}
	p.Succeed(now)
	cases := []struct {
		amount string
		err    error
		status Status
	}{
		{"20", nil, StatusPartiallyRefunded},
		{"31", ErrRefundAmountInvalid, StatusPartiallyRefunded},
		{"0", ErrRefundAmountInvalid, StatusPartiallyRefunded},
		{"30", nil, StatusRefunded},
		{"1", ErrAlreadyRefunded, StatusRefunded},
	}
	for _, c := range cases {
		if err := p.ReserveRefund(amt(c.amount), now); !errors.Is(err, c.err) || p.Status != c.status {
			t.Errorf("refund %s: %v, status %s", c.amount, err, p.Status)
		}
	}
	p.ReleaseRefund(amt("30"), now)
	if p.Status != StatusPartiallyRefunded || !p.AmountRefunded.Equal(amt("20")) {
		t.Errorf("release: %s %s", p.Status, p.AmountRefunded)
	}
	if !errors.Is(p.CanCapture(), ErrAlreadyCaptured) || !errors.Is(p.CanCancel(), ErrAlreadyCaptured) {
		t.Error("captured payment")
	}
	a := &Payment{Amount: amt("10"), Currency: "USD", Status: StatusRequiresCapture}
	if err := a.Capture(amt("11"), now); !errors.Is(err, ErrInvalidAmount) {
		t.Errorf("over-capture: %v", err)
	}
	if err := a.Capture(decimal.Zero, now); err != nil || a.Status != StatusSucceeded || !a.AmountCaptured.Equal(amt("10")) {
		t.Errorf("capture: %v %+v", err, a)
	}
	c := &Payment{Status: StatusRequiresAction}
	if err := c.Cancel(now); err != nil || c.Status != StatusCanceled || c.CanceledAt == nil {
		t.Errorf("cancel: %v", err)
	}
	if err := c.Cancel(now); err == nil {
		t.Error("cancel twice")
	}
	f := &Payment{Status: StatusPending}
	f.Fail("insufficient_funds", "no money", now)
	if f.Status != StatusFailed || !f.RetryAllowed {
		t.Errorf("fail %+v", f)
	}
}

func TestDeclineCodes(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]error{
		"card_declined": ErrCardDeclined, "insufficient_funds": ErrInsufficientFunds, "expired_card": ErrExpiredCard,
		"incorrect_cvc": ErrIncorrectCVC, "processing_error": ErrProcessingError, "something_new": ErrCardDeclined,
	} {
		if got := DeclineError(code); !errors.Is(got, want) {
			t.Errorf("%s: %v", code, got)
		}
	}
	if RetryAllowed("card_declined") || RetryAllowed("expired_card") || !RetryAllowed("incorrect_cvc") || !RetryAllowed("processing_error") {
		t.Error("retry_allowed")
	}
}

func TestDeclineDefaults(t *testing.T) {
	now := time.Now()
	var p Payment
	p.Decline("", "", now)
	if p.Status != StatusFailed || p.ErrorCode != "card_declined" || p.ErrorMessage != DeclineError("card_declined").Message {
		t.Fatalf("decline without details: %+v", p)
	}
	p.Decline("insufficient_funds", "Not enough", now)
	if p.ErrorCode != "insufficient_funds" || p.ErrorMessage != "Not enough" {
		t.Fatalf("decline with details: %+v", p)
	}
}
