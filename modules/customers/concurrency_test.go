package customers_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
)

// TestConcurrentActivationAndDefaults: a token works exactly once even when raced,
// and racing default changes leave exactly one default (row lock on PostgreSQL,
// serialized writers on SQLite, unique partial index on both).
func TestConcurrentActivationAndDefaults(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		id := h.createCustomer(map[string]any{"email": "race@example.com"})["id"].(string)
		link, err := h.svc.ActivationLink(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		const n = 8
		codes := make([]int, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = h.Do(http.MethodPost, "/api/v1/customers/"+id+"/activate", map[string]any{"activation_token": link.Token, "password": "secret-pass-1"}, "").Code
			}()
		}
		wg.Wait()
		ok := 0
		for _, c := range codes {
			switch c {
			case 200:
				ok++
			case 400:
			default:
				t.Errorf("unexpected status %d", c)
			}
		}
		if ok != 1 || len(h.Payloads("customer.enabled", id)) != 1 {
			t.Fatalf("%d activations succeeded (%v)", ok, codes)
		}

		base := "/api/v1/customers/" + id + "/addresses"
		var addrs []string
		for range 4 {
			addrs = append(addrs, h.Must(201, http.MethodPost, base, map[string]any{"address1": "x", "city": "y", "country": "US"}, "admin").Data()["id"].(string))
		}
		for _, a := range addrs {
			wg.Add(2)
			go func() {
				defer wg.Done()
				if r := h.Do(http.MethodPost, base+"/"+a+"/default", map[string]any{"type": "billing"}, "admin"); r.Code != 200 {
					t.Errorf("default billing: %s", r.Raw)
				}
			}()
			go func() {
				defer wg.Done()
				if r := h.Do(http.MethodPost, base+"/"+a+"/default", nil, "admin"); r.Code != 200 {
					t.Errorf("default shipping: %s", r.Raw)
				}
			}()
		}
		wg.Wait()
		if s, b := h.Count("customer_addresses", "customer_id = ? AND is_default_shipping = ?", id, true),
			h.Count("customer_addresses", "customer_id = ? AND is_default_billing = ?", id, true); s != 1 || b != 1 {
			t.Fatalf("defaults after the race: %d shipping, %d billing", s, b)
		}
	})
}
