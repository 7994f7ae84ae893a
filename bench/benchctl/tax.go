package main

import (
	"math/rand/v2"
	"strconv"
	"sync"
)

// The tax scenario: POST /api/v1/tax/calculate for a 5-line cart shipped to Germany
// (issue 18: at least 30% of the reference's GET-by-id rate in the same run; rates are
// served from the tax module's memory). The admin key holds tax:read.

func init() {
	targets["tax"] = target{"≥ 30% of ref", func(_ result, ratio float64) bool { return ratio >= 0.30 }}
}

// taxBodyCount is how many different request bodies the workers cycle through.
const taxBodyCount = 256

var (
	taxBodiesOnce sync.Once
	taxBodies     [][]byte
)

// taxCalculateBody is a calculate request of 5 lines of the seeded catalog (prices and
// quantities drawn by rng) to a Berlin address, with shipping.
func taxCalculateBody(e *env, rng *rand.Rand) []byte {
	items := make([]map[string]any, 5)
	for i := range items {
		p := e.cat.Products[rng.IntN(len(e.cat.Products))]
		items[i] = map[string]any{
			"id": "line-" + strconv.Itoa(i+1), "product_id": p.ID, "quantity": 1 + rng.IntN(3),
			"unit_price": strconv.Itoa(5+rng.IntN(95)) + "." + strconv.Itoa(10+rng.IntN(90)),
			"title":      "Bench item " + strconv.Itoa(i+1), "sku": "BENCH-" + strconv.Itoa(i+1),
		}
	}
	return mustJSON(map[string]any{
		"items":            items,
		"shipping_address": map[string]string{"country_code": "DE", "postal_code": "10115", "city": "Berlin"},
		"currency":         "EUR",
		"shipping_amount":  "4.90",
	})
}

// taxBody is one of the prepared bodies (built once, outside the measured window's
// hot path).
func taxBody(w *worker) []byte {
	taxBodiesOnce.Do(func() {
		rng := newRNG(18, 5)
		taxBodies = make([][]byte, taxBodyCount)
		for i := range taxBodies {
			taxBodies[i] = taxCalculateBody(w.env, rng)
		}
	})
	return taxBodies[w.rng.IntN(len(taxBodies))]
}

// taxScenario is the table's tax row, divided by ref-get.
func taxScenario() *scenario {
	return &scenario{
		key: "tax", title: "tax calculate, 5 lines to DE (API key)", ref: "ref-get", perIteration: 1,
		missing: func(e *env, k *conn) (string, error) {
			return probe(k, "POST", "/api/v1/tax/calculate", []byte(`{}`), bearer(e.key))
		},
		step: func(w *worker) bool {
			w.call(200, "POST", "/api/v1/tax/calculate", taxBody(w), bearer(w.env.key))
			return true
		},
	}
}
