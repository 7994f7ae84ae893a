package customers_test

import (
	"net/http"
	"testing"
)

// TestTokensRevokedWhenCustomerLosesAccess checks which use cases revoke the customer's
// tokens through identity (docs/decisions/0096): leaving enabled, anonymization and
// deletion do, in their transaction; re-enabling, other updates and refused moves do
// not.
func TestTokensRevokedWhenCustomerLosesAccess(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		put := func(id string, body map[string]any, status int) {
			t.Helper()
			h.Must(status, http.MethodPut, "/api/v1/customers/"+id, body, "admin")
		}
		want := func(id string, n int64) {
			t.Helper()
			if got := h.creds.revocations(t, id); got != n {
				t.Fatalf("revocations of %s: %d, want %d", id, got, n)
			}
		}

		id := h.enabled("ada@example.com", nil)["id"].(string)
		put(id, map[string]any{"first_name": "Ada"}, http.StatusOK)
		want(id, 0)
		put(id, map[string]any{"state": "disabled"}, http.StatusOK)
		want(id, 1)
		put(id, map[string]any{"state": "disabled"}, http.StatusOK) // no move
		put(id, map[string]any{"state": "declined"}, http.StatusBadRequest)
		want(id, 1)
		put(id, map[string]any{"state": "enabled"}, http.StatusOK)
		want(id, 1)
		put(id, map[string]any{"state": "disabled"}, http.StatusOK)
		want(id, 2)

		anon := h.enabled("grace@example.com", nil)["id"].(string)
		h.Must(http.StatusOK, http.MethodPost, "/api/v1/customers/"+anon+"/anonymize", nil, "admin")
		want(anon, 1)

		gone := h.enabled("alan@example.com", nil)["id"].(string)
		h.Must(http.StatusNoContent, http.MethodDelete, "/api/v1/customers/"+gone, nil, "admin")
		want(gone, 1)

		// A refused delete (the customer has orders) revokes nothing.
		kept := h.enabled("kept@example.com", nil)["id"].(string)
		h.orders.mu.Lock()
		h.orders.has[kept] = true
		h.orders.mu.Unlock()
		h.Do(http.MethodDelete, "/api/v1/customers/"+kept, nil, "admin")
		want(kept, 0)
	})
}
