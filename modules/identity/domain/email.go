package domain

import (
	"net/mail"
	"strings"
)

// MaxEmailLength is the longest accepted email address (RFC 5321 path limit).
const MaxEmailLength = 254

// NormalizeEmail trims and lower-cases an email address and validates it: a single
// addr-spec accepted by net/mail.ParseAddress (no display name), at most 254
// characters, with a dot inside the domain. Anything else is ErrInvalidEmail.
func NormalizeEmail(s string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(s))
	if e == "" || len(e) > MaxEmailLength {
		return "", ErrInvalidEmail
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return "", ErrInvalidEmail
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", ErrInvalidEmail
	}
	return e, nil
}
