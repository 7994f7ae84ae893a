// Package apperr is the one error type every layer uses: a kind (which decides the
// HTTP status in one table in platform/httpx), the spec's code, a public message,
// optional per-field details and a wrapped cause. Standard library only.
package apperr

import (
	"errors"
	"fmt"
	"maps"
)

// Kind classifies an error; platform/httpx maps each kind to one HTTP status.
type Kind int

const (
	Internal Kind = iota
	Invalid
	NotFound
	Conflict
	Gone
	Unauthenticated
	Forbidden
	RateLimited
	Unavailable
	PaymentRequired
	UnsupportedMediaType
	TooLarge
	MethodNotAllowed
)

// Error is a typed application error.
type Error struct {
	Kind    Kind
	Code    string            // spec code such as CART_NOT_FOUND; empty for generic errors
	Message string            // public message
	Fields  map[string]string // per-field validation messages (category validation)
	Extra   map[string]any    // extra members written into the envelope's error object
	cause   error
}

// New declares an error; domains keep them as package variables.
func New(kind Kind, code, message string) *Error {
	return &Error{Kind: kind, Code: code, Message: message}
}

func (e *Error) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.cause)
	}
	if e.Code == "" {
		return e.Message
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.cause }

// Is matches two errors with the same non-empty code, so errors.Is(err, ErrCartNotFound)
// holds for copies made with WithMessage, WithCause and friends.
func (e *Error) Is(target error) bool {
	var t *Error
	if !errors.As(target, &t) {
		return false
	}
	if e.Code == "" || t.Code == "" {
		return e == t
	}
	return e.Code == t.Code
}

func (e *Error) clone() *Error {
	c := *e
	return &c
}

// WithMessage returns a copy with another public message.
func (e *Error) WithMessage(format string, args ...any) *Error {
	c := e.clone()
	c.Message = fmt.Sprintf(format, args...)
	return c
}

// WithCause returns a copy that wraps cause (never shown to clients).
func (e *Error) WithCause(cause error) *Error {
	c := e.clone()
	c.cause = cause
	return c
}

// WithField returns a copy with one more field message.
func (e *Error) WithField(field, message string) *Error {
	c := e.clone()
	c.Fields = withEntry(e.Fields, field, message)
	return c
}

// WithExtra returns a copy carrying an extra envelope member.
func (e *Error) WithExtra(key string, value any) *Error {
	c := e.clone()
	c.Extra = withEntry(e.Extra, key, value)
	return c
}

// withEntry is a copy of m with key set to value (m itself is shared by other copies
// of the error and stays as it is).
func withEntry[V any](m map[string]V, key string, value V) map[string]V {
	out := make(map[string]V, len(m)+1)
	maps.Copy(out, m)
	out[key] = value
	return out
}

// Validation builds a 400 validation error naming each bad field.
func Validation(fields map[string]string) *Error {
	return &Error{Kind: Invalid, Message: "Validation failed", Fields: fields}
}

// Invalidf is a generic 400 without a spec code.
func Invalidf(format string, args ...any) *Error {
	return &Error{Kind: Invalid, Message: fmt.Sprintf(format, args...)}
}

// NotFoundf is a generic 404 without a spec code.
func NotFoundf(format string, args ...any) *Error {
	return &Error{Kind: NotFound, Message: fmt.Sprintf(format, args...)}
}

// Unauthorized is a generic 401 with the given message.
func Unauthorized(message string) *Error {
	return &Error{Kind: Unauthenticated, Message: message}
}

// Wrap turns any error into an internal error (unless it already is an *Error).
func Wrap(err error, message string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Kind: Internal, Message: message, cause: err}
}

// As extracts an *Error from err.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
