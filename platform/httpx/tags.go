package httpx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Tags reads a request's tags as a JSON array of strings or, as Shopify sends them,
// one comma-separated string (split as sent; the domain trims and normalises). Any
// other JSON is a type error BindJSON names ("must be an array").
type Tags []string

// UnmarshalJSON reads an array of strings or one comma-separated string.
func (t *Tags) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = strings.Split(s, ",")
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return &json.UnmarshalTypeError{Value: "tags", Type: reflect.TypeOf([]string{})}
	}
	*t = list
	return nil
}

// Slice is the tags sent as a non-nil slice, or nil when the member was absent (t nil).
func (t *Tags) Slice() *[]string {
	if t == nil {
		return nil
	}
	s := []string(*t)
	if s == nil {
		s = []string{}
	}
	return &s
}
