package domain

import "github.com/gocommerce/commerce/platform/email"

// MaxEmailLength is the longest accepted email address (RFC 5321 path limit).
const MaxEmailLength = email.MaxLength

// NormalizeEmail trims and lower-cases an email address and validates it
// (platform/email). Anything else is ErrInvalidEmail.
func NormalizeEmail(s string) (string, error) {
	e, ok := email.Normalize(s)
	if !ok {
		return "", ErrInvalidEmail
	}
	return e, nil
}
