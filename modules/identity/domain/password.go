package domain

import "unicode"

// Password length bounds in bytes. 72 is bcrypt's input limit: longer passwords would
// be silently truncated, so they are refused instead.
const (
	MinPasswordBytes = 8
	MaxPasswordBytes = 72
)

// ValidatePassword applies the password policy (docs/decisions/0010-password-policy.md):
// 8 to 72 bytes, at least one letter and at least one digit (any script).
func ValidatePassword(p string) error {
	if len(p) < MinPasswordBytes || len(p) > MaxPasswordBytes {
		return ErrInvalidPassword
	}
	var letter, digit bool
	for _, r := range p {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	if !letter || !digit {
		return ErrInvalidPassword
	}
	return nil
}
