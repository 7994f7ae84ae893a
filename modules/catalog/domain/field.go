package domain

// Field is one member of a write request: absent (Set false), null (Set and Null), or
// a value. It lets one input type serve create, full replacement and partial update.
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

// problems collects per-field validation messages.
type problems map[string]string

func (p problems) add(field, msg string) {
	if _, ok := p[field]; !ok {
		p[field] = msg
	}
}

const msgNotNull = "must not be null"
