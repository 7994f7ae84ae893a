package domain

import (
	"net/url"
	"strings"

	"github.com/gocommerce/commerce/platform/apperr"
)

// MaxIdempotencyKeyLength bounds idempotency keys.
const MaxIdempotencyKeyLength = 255

// MissingMethodField answers a payment method without a field it needs
// (INVALID_PAYMENT_METHOD naming the field).
func MissingMethodField(field string) error {
	return ErrInvalidPaymentMethod.WithField(field, "is required").WithMessage("%s is required", field)
}

// CheckIdempotencyKey refuses a key longer than 255 characters (400 validation).
func CheckIdempotencyKey(key string) error {
	if len(key) > MaxIdempotencyKeyLength {
		return apperr.Validation(map[string]string{"idempotency_key": "must be at most 255 characters"})
	}
	return nil
}

// CheckReturnURL accepts "" or an absolute http(s) URL (400 validation otherwise).
func CheckReturnURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Validation(map[string]string{"return_url": "must be an absolute http(s) URL"})
	}
	return nil
}

// BankAccount checks a bank transfer's account number (required; spaces are dropped)
// and returns it with the details a payment keeps: its last four and the holder.
func BankAccount(accountNumber, holder string) (string, CardDetails, error) {
	if strings.TrimSpace(accountNumber) == "" {
		return "", CardDetails{}, MissingMethodField("payment_method.bank_transfer.account_number")
	}
	acct := strings.ReplaceAll(accountNumber, " ", "")
	last := acct
	if len(acct) > 4 {
		last = acct[len(acct)-4:]
	}
	return acct, CardDetails{LastFour: last, Name: strings.TrimSpace(holder)}, nil
}
