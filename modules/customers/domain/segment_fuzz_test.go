package domain

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gocommerce/commerce/platform/money"
)

// A segment's query, fuzzed: any JSON object is parsed or refused naming query members,
// and an accepted amount fits the integer units it is compared in (total_spent "1e30"
// wrapped around int64, comparing with a garbage number).
// `make fuzz` runs it for longer.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{`{"total_spent":{"gte":"100.50","lte":1e3}}`, `{"total_spent":"1e30"}`, `{"total_spent":{"gte":"99999999999999999999"}}`,
		`{"total_spent":"1e-9999"}`, `{"orders_count":{"gte":5,"lte":10},"tags":{"in":["a","b"]},"state":{"in":["enabled"]}}`,
		`{"created_at":{"gte":"-30d","lte":"2026-12-31"},"email":{"contains":"Ex"},"currency":{"eq":"usd"},"accepts_marketing":true}`,
		`{"bogus":1}`, `{}`, `{"total_spent":{}}`, `{"orders_count":-1.5}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q map[string]any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if dec.Decode(&q) != nil {
			return
		}
		conds, bad := ParseQuery(q)
		if (len(conds) == 0) == (len(bad) == 0) {
			t.Fatalf("%s: %d conditions and %d problems", body, len(conds), len(bad))
		}
		for _, c := range conds {
			if c.Kind == KindMoney && !money.Bounded(c.Money) {
				t.Fatalf("%s: accepted amount %s, beyond its integer units", body, c.Money)
			}
		}
	})
}
