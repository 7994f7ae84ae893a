// Package ids creates identifiers: UUIDv7 (time ordered, index friendly) by default.
package ids

import "github.com/google/uuid"

// New returns a new UUID string (version 7, falling back to version 4).
func New() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}

// Valid reports whether s is a UUID in canonical form.
func Valid(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}
