package db

import "time"

// Nullable columns: a repository's row keeps a nullable column as a pointer, and these
// convert it from and to the domain's value.

// UTCPtr is t in UTC, nil staying nil (a nullable timestamp column).
func UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// NullString is s, or nil (NULL) when s is empty.
func NullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Deref is *s, or "" when s is nil (NULL).
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
