package coupons_test

import (
	"encoding/json"
)

// canonical re-encodes a JSON document with sorted keys.
func canonical(t interface{ Fatal(...any) }, raw string) string {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
