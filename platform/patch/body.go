package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Body is a JSON object request body read member by member, so that each member is
// absent, null or a value, and each member of the wrong type is named (all of them, not
// only the first). Unknown members are ignored (docs/decisions/0007-request-bodies.md).
// Read the members, then call Err once.
type Body struct {
	raw    map[string]json.RawMessage
	prefix string // "applies_to." in a nested object
	state  *state
}

// state is what a body and its nested objects share.
type state struct {
	bad         Problems
	coded       error // the first coded error (a JSON number for an amount, with AmountCode)
	amountCode  *apperr.Error
	ignoreNulls bool
}

// Option changes how a body is read.
type Option func(*state)

// AmountCode makes a JSON number for an amount (Body.Amount) the module's coded error
// (catalog: INVALID_PRICE, decision 0022) instead of a validation problem. It is
// reported only when no member has the wrong type.
func AmountCode(code *apperr.Error) Option { return func(s *state) { s.amountCode = code } }

// IgnoreNulls reads a null member as absent, for resources whose fields are never null
// (a customer's profile: null leaves a field as it is).
func IgnoreNulls() Option { return func(s *state) { s.ignoreNulls = true } }

// Read reads the request body as a JSON object. An empty body is {}; a body over the
// limit is 413; anything else than one JSON object is a 400 validation error naming
// "body".
func Read(r *http.Request, opts ...Option) (*Body, error) {
	if r.Body == nil {
		return Parse(nil, opts...)
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", mbe.Limit))
		}
		return nil, apperr.Validation(map[string]string{"body": "could not be read"})
	}
	return Parse(data, opts...)
}

// Parse reads data as Read does.
func Parse(data []byte, opts ...Option) (*Body, error) {
	b := &Body{raw: map[string]json.RawMessage{}, state: &state{bad: Problems{}}}
	for _, o := range opts {
		o(b.state)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return b, nil
	}
	if err := json.Unmarshal(data, &b.raw); err != nil || b.raw == nil {
		return nil, apperr.Validation(map[string]string{"body": "must be a valid JSON object"}).WithMessage("Request body is not valid JSON")
	}
	return b, nil
}

// Has reports whether the body names the member (null included).
func (b *Body) Has(name string) bool {
	_, ok := b.raw[name]
	return ok
}

// Fail records a problem of a member (the first problem of a member wins).
func (b *Body) Fail(name, msg string) { b.state.bad.Add(b.prefix+name, msg) }

// Failed reports whether the member already has a problem.
func (b *Body) Failed(name string) bool { return b.state.bad.Has(b.prefix + name) }

// Err is the body's error: a 400 validation error naming every member of the wrong type
// and every problem added with Fail, else the coded error of AmountCode, else nil.
func (b *Body) Err() error {
	if err := b.state.bad.Err(); err != nil {
		return err
	}
	return b.state.coded
}

// JSON kinds, as Kind names them.
const (
	KindString  = "string"
	KindNumber  = "number"
	KindBoolean = "boolean"
	KindObject  = "object"
	KindArray   = "array"
	KindNull    = "null"
)

// Kind names the JSON type of a raw value.
func Kind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return ""
	}
	switch s[0] {
	case '"':
		return KindString
	case '{':
		return KindObject
	case '[':
		return KindArray
	case 't', 'f':
		return KindBoolean
	case 'n':
		return KindNull
	default:
		return KindNumber
	}
}

// Get reads a member with decode; want completes the problem "must be <want>" when
// decode refuses the value (the field is then absent).
func Get[T any](b *Body, name, want string, decode func(json.RawMessage) (T, bool)) Field[T] {
	raw, ok := b.raw[name]
	if !ok {
		return Field[T]{}
	}
	if Kind(raw) == KindNull {
		if b.state.ignoreNulls {
			return Field[T]{}
		}
		return Null[T]()
	}
	v, ok := decode(raw)
	if !ok {
		b.Fail(name, "must be "+want)
		return Field[T]{}
	}
	return Val(v)
}

// unmarshal decodes a value of one JSON kind.
func unmarshal[T any](kind string) func(json.RawMessage) (T, bool) {
	return func(raw json.RawMessage) (T, bool) {
		var v T
		return v, Kind(raw) == kind && json.Unmarshal(raw, &v) == nil
	}
}

// String reads a string member.
func (b *Body) String(name string) Field[string] {
	return Get(b, name, "a string", unmarshal[string](KindString))
}

// Bool reads a boolean member.
func (b *Body) Bool(name string) Field[bool] {
	return Get(b, name, "a boolean", unmarshal[bool](KindBoolean))
}

// Int reads an integer member (1.5 and 1e3 are not integers).
func (b *Body) Int(name string) Field[int] {
	return Get(b, name, "an integer", unmarshal[int](KindNumber))
}

// Strings reads an array of strings.
func (b *Body) Strings(name string) Field[[]string] {
	return Get(b, name, "an array of strings", unmarshal[[]string](KindArray))
}

// StringMap reads an object of strings.
func (b *Body) StringMap(name string) Field[map[string]string] {
	return Get(b, name, "an object of strings", unmarshal[map[string]string](KindObject))
}

// Object reads an object of any JSON values; numbers stay json.Number, as written.
func (b *Body) Object(name string) Field[map[string]any] {
	return Get(b, name, "an object", func(raw json.RawMessage) (map[string]any, bool) {
		if Kind(raw) != KindObject {
			return nil, false
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v map[string]any
		return v, dec.Decode(&v) == nil
	})
}

// Amount reads a money amount: a decimal string ("19.99"), checked later with
// money.Parse. A JSON number is refused (decision 0022: it may already have passed
// through floating point in the client): a problem of the member, or the coded error
// of AmountCode.
func (b *Body) Amount(name string) Field[string] {
	if raw, ok := b.raw[name]; ok && Kind(raw) == KindNumber {
		const msg = `must be a decimal string such as "19.99", not a JSON number`
		switch {
		case b.state.amountCode == nil:
			b.Fail(name, msg)
		case b.state.coded == nil:
			b.state.coded = b.state.amountCode.WithMessage("%s%s %s", b.prefix, name, msg).WithField(b.prefix+name, msg)
		}
		return Field[string]{}
	}
	return Get(b, name, `a decimal string such as "19.99"`, unmarshal[string](KindString))
}

// Decimal reads a decimal that is not money (a weight): a string, or a JSON number kept
// exactly as written.
func (b *Body) Decimal(name string) Field[string] {
	return Get(b, name, `a decimal string such as "1.25"`, func(raw json.RawMessage) (string, bool) {
		if Kind(raw) == KindNumber {
			return string(bytes.TrimSpace(raw)), true
		}
		return unmarshal[string](KindString)(raw)
	})
}

// Time reads an RFC 3339 (ISO 8601) timestamp string, in UTC.
func (b *Body) Time(name string) Field[time.Time] {
	return Get(b, name, "an ISO 8601 timestamp", func(raw json.RawMessage) (time.Time, bool) {
		s, ok := unmarshal[string](KindString)(raw)
		if !ok {
			return time.Time{}, false
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		return t.UTC(), err == nil
	})
}

// Sub reads a nested object member as a body of its own whose problems name
// "name.member". The body is nil unless the field has a value.
func (b *Body) Sub(name string) (*Body, Field[struct{}]) {
	var sub *Body
	f := Get(b, name, "an object", func(raw json.RawMessage) (struct{}, bool) {
		var m map[string]json.RawMessage
		if Kind(raw) != KindObject || json.Unmarshal(raw, &m) != nil {
			return struct{}{}, false
		}
		sub = &Body{raw: m, prefix: b.prefix + name + ".", state: b.state}
		return struct{}{}, true
	})
	return sub, f
}
