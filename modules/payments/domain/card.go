package domain

import (
	"strconv"
	"strings"
	"time"
)

// Card patterns of the payment method descriptor (Part 1 "Payment method descriptor").
const (
	PatternCardNumber = `^[0-9 ]{13,19}$`
	PatternExpMonth   = `^(0[1-9]|1[0-2])$`
	PatternExpYear    = `^20[2-9][0-9]$`
	PatternCVC        = `^[0-9]{3,4}$`
)

// Card is raw card data as it arrives. It lives only in memory for the length of one
// request: it is never stored, logged or put into an event.
type Card struct {
	Number   string // digits, spaces allowed
	ExpMonth int
	ExpYear  int
	CVC      string
	Name     string
}

// CardDetails is what may be kept about a card: brand, last four, expiry and holder.
type CardDetails struct {
	Brand    string
	LastFour string
	ExpMonth int
	ExpYear  int
	Name     string
}

// Digits returns the card number without spaces.
func (c Card) Digits() string { return strings.ReplaceAll(c.Number, " ", "") }

// Validate checks the card's shape (13-19 digits, Luhn, month 1-12, year 2020-2099,
// CVC 3-4 digits when given) and names each bad field (INVALID_PAYMENT_METHOD).
func (c Card) Validate(prefix string) error {
	fields := map[string]string{}
	digits := c.Digits()
	switch {
	case len(digits) < 13 || len(digits) > 19 || !allDigits(digits):
		fields[prefix+"number"] = "must be 13 to 19 digits (spaces allowed)"
	case !Luhn(digits):
		fields[prefix+"number"] = "is not a valid card number"
	}
	if c.ExpMonth < 1 || c.ExpMonth > 12 {
		fields[prefix+"exp_month"] = "must be 1 to 12"
	}
	if c.ExpYear < 2020 || c.ExpYear > 2099 {
		fields[prefix+"exp_year"] = "must be 2020 to 2099"
	}
	if c.CVC != "" && (len(c.CVC) < 3 || len(c.CVC) > 4 || !allDigits(c.CVC)) {
		fields[prefix+"cvc"] = "must be 3 or 4 digits"
	}
	if len(fields) > 0 {
		e := ErrInvalidPaymentMethod
		for k, v := range fields {
			e = e.WithField(k, v)
		}
		return e
	}
	return nil
}

// Details returns the storable part of the card.
func (c Card) Details() CardDetails {
	d := c.Digits()
	last := d
	if len(d) > 4 {
		last = d[len(d)-4:]
	}
	return CardDetails{Brand: Brand(d), LastFour: last, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, Name: strings.TrimSpace(c.Name)}
}

// Expired reports whether the card's expiry month has ended at now.
func (d CardDetails) Expired(now time.Time) bool {
	return !now.Before(d.ExpiresAt())
}

// ExpiresAt is the first instant after the expiry month (UTC).
func (d CardDetails) ExpiresAt() time.Time {
	return time.Date(d.ExpYear, time.Month(d.ExpMonth)+1, 1, 0, 0, 0, 0, time.UTC)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Luhn reports whether a digit string passes the Luhn checksum.
func Luhn(digits string) bool {
	if !allDigits(digits) {
		return false
	}
	sum := 0
	double := false
	for i := len(digits) - 1; i >= 0; i-- {
		n := int(digits[i] - '0')
		if double {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

// Brand names the card network from the number's prefix (Stripe's brand names).
func Brand(digits string) string {
	p := func(n int) int {
		if len(digits) < n {
			return -1
		}
		v, _ := strconv.Atoi(digits[:n])
		return v
	}
	switch {
	case strings.HasPrefix(digits, "4"):
		return "visa"
	case p(2) >= 51 && p(2) <= 55, p(4) >= 2221 && p(4) <= 2720:
		return "mastercard"
	case p(2) == 34, p(2) == 37:
		return "amex"
	case p(4) == 6011, p(2) == 65, p(3) >= 644 && p(3) <= 649, p(6) >= 622126 && p(6) <= 622925:
		return "discover"
	case p(4) >= 3528 && p(4) <= 3589:
		return "jcb"
	case p(2) == 36, p(2) == 38, p(2) == 39, p(3) >= 300 && p(3) <= 305:
		return "diners"
	case p(2) == 62:
		return "unionpay"
	default:
		return "unknown"
	}
}
