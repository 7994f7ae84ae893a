// Package patch is the toolkit for JSON write bodies (POST, PUT and PATCH): a Field that
// is absent, null or a value; one decoder (Read) that reads a body member by member and
// names every member of the wrong type; Problems, the per-field messages of a 400
// validation error; and small appliers that move a present field into an entity.
//
// Field, Problems and the appliers are plain Go, so domain packages use them; the
// decoder is for adapters. See "Write bodies" in docs/architecture.md.
package patch

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Field is one member of a write body: absent (Set false), null (Set and Null) or a
// value. One input type serves create, full replacement (PUT) and partial update (PATCH).
type Field[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Val is a present, non-null field.
func Val[T any](v T) Field[T] { return Field[T]{Set: true, Value: v} }

// Null is a present null field.
func Null[T any]() Field[T] { return Field[T]{Set: true, Null: true} }

// HasValue reports a present, non-null field.
func (f Field[T]) HasValue() bool { return f.Set && !f.Null }

// Problems names the bad fields of a request, one message a field: the first one
// added wins.
type Problems map[string]string

// Add records msg for field unless the field already has a problem.
func (p Problems) Add(field, msg string) {
	if _, ok := p[field]; !ok {
		p[field] = msg
	}
}

// Has reports whether field has a problem.
func (p Problems) Has(field string) bool {
	_, ok := p[field]
	return ok
}

// Err is the 400 validation error naming every field, or nil when there is none.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Validation(p)
}

// MsgNotNull is the problem of a null where the field needs a value.
const MsgNotNull = "must not be null"

// Apply moves a present field into dst through check: absent leaves dst as it is, null
// is the problem MsgNotNull, and check returns the value to store or a problem (""
// when the value is good). Nothing is stored when there is a problem.
func Apply[T, U any](bad Problems, name string, f Field[T], dst *U, check func(T) (U, string)) {
	if !f.Set {
		return
	}
	if f.Null {
		bad.Add(name, MsgNotNull)
		return
	}
	v, msg := check(f.Value)
	if msg != "" {
		bad.Add(name, msg)
		return
	}
	*dst = v
}

// Copy moves a present field into dst as it is; null is the problem MsgNotNull.
func Copy[T any](bad Problems, name string, f Field[T], dst *T) {
	Apply(bad, name, f, dst, func(v T) (T, string) { return v, "" })
}

// OneOf moves a present string field that is one of allowed into dst; null or any
// other value is the problem "must be one of: a, b".
func OneOf(bad Problems, name string, f Field[string], dst *string, allowed ...string) {
	if !f.Set {
		return
	}
	for _, a := range allowed {
		if !f.Null && f.Value == a {
			*dst = a
			return
		}
	}
	bad.Add(name, "must be one of: "+strings.Join(allowed, ", "))
}

// Text is the rule of a string field: Trim trims white space, Required refuses an
// empty string (after trimming), Max bounds the characters (0: no bound).
type Text struct {
	Max      int
	Trim     bool
	Required bool
}

// Apply moves a present string field into dst by the rule; null is MsgNotNull.
func (r Text) Apply(bad Problems, name string, f Field[string], dst *string) {
	Apply(bad, name, f, dst, r.Check)
}

// Check returns the value to store and the problem of s ("" when it is good).
func (r Text) Check(s string) (string, string) {
	if r.Trim || r.Required {
		s = strings.TrimSpace(s)
	}
	if r.Required && s == "" {
		return "", "must not be empty"
	}
	if r.Max > 0 && utf8.RuneCountInString(s) > r.Max {
		return "", "must be at most " + strconv.Itoa(r.Max) + " characters"
	}
	return s, ""
}
