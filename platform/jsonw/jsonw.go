// Package jsonw appends JSON values to a byte slice exactly as encoding/json encodes
// them (strings HTML-escaped, times in RFC 3339 with nanoseconds), for the few hot
// resources whose handlers write their body without reflection (docs/performance.md,
// finding 11). Anything without a function here goes through Value (encoding/json).
package jsonw

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

const hex = "0123456789abcdef"

// safe[b] reports whether the ASCII byte b is written as is inside a string: what
// encoding/json's htmlSafeSet holds (no control characters, quote, backslash, <, > or &).
var safe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// String appends s as a JSON string, escaped as encoding/json escapes it.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// StringPtr appends *s, or null.
func StringPtr(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return String(dst, *s)
}

// Strings appends a JSON array of strings (null for a nil slice, as encoding/json).
func Strings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, s)
	}
	return append(dst, ']')
}

// Bool appends true or false.
func Bool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

// Int appends n.
func Int(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }

// Decimal appends d as decimal.Decimal's MarshalJSON does: a string, unless
// decimal.MarshalJSONWithoutQuotes is set.
func Decimal(dst []byte, d decimal.Decimal) []byte {
	if decimal.MarshalJSONWithoutQuotes {
		return append(dst, d.String()...)
	}
	dst = append(dst, '"')
	dst = append(dst, d.String()...)
	return append(dst, '"')
}

// Time appends t as time.Time's MarshalJSON does.
func Time(dst []byte, t time.Time) []byte {
	_, offset := t.Zone()
	if y := t.Year(); y < 0 || y > 9999 || offset <= -24*3600 || offset >= 24*3600 {
		return Value(dst, t) // outside RFC 3339: encoding/json fails, Value writes null
	}
	dst = append(dst, '"')
	dst = t.AppendFormat(dst, time.RFC3339Nano)
	return append(dst, '"')
}

// TimePtr appends *t, or null.
func TimePtr(dst []byte, t *time.Time) []byte {
	if t == nil {
		return append(dst, "null"...)
	}
	return Time(dst, *t)
}

// Value appends v as encoding/json encodes it; a value it cannot encode is written as
// null (the hot resources hold none: maps of JSON values and plain types).
func Value(dst []byte, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return append(dst, "null"...)
	}
	return append(dst, b...)
}

// Elem appends the comma before an array element, unless it is the array's first
// (dst ends with '[').
func Elem(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '[' {
		return append(dst, ',')
	}
	return dst
}

// Key appends a member's name and colon, after a comma unless it is the object's
// first: name must need no escaping (the resources' own field names).
func Key(dst []byte, name string) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}
