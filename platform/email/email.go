// Package email reads an email address the one way every module accepts it.
package email

import (
	"net/mail"
	"strings"
)

// MaxLength is the longest accepted address (RFC 5321 path limit).
const MaxLength = 254

// Normalize trims and lower-cases an address and checks it: a single addr-spec (no
// display name) accepted by net/mail, at most MaxLength characters, with a dot inside
// the domain. ok is false for anything else.
func Normalize(s string) (addr string, ok bool) {
	e := strings.ToLower(strings.TrimSpace(s))
	if e == "" || len(e) > MaxLength {
		return "", false
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return "", false
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", false
	}
	return e, true
}
