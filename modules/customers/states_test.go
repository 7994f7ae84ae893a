package customers_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestStateMovesOverHTTP drives every allowed move through its endpoint and refuses
// the others with INVALID_STATE_TRANSITION, checking the state events.
func TestStateMovesOverHTTP(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		n := 0
		// mk creates a customer in a state: enabled (password), invited, disabled
		// (without password), disabled+pw (enabled, then disabled), declined.
		mk := func(state string) string {
			t.Helper()
			n++
			email := "c" + strconv.Itoa(n) + "@example.com"
			var id string
			switch state {
			case "enabled", "disabled+pw":
				id = h.enabled(email, nil)["id"].(string)
				if state == "disabled+pw" {
					h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "disabled"}, "admin")
				}
			case "invited", "declined":
				id = h.createCustomer(map[string]any{"email": email})["id"].(string)
				if state == "declined" {
					h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "declined"}, "admin")
				}
			case "disabled":
				id = h.createCustomer(map[string]any{"email": email, "send_email_invite": false})["id"].(string)
			}
			return id
		}
		stateOf := func(id string) string {
			return h.Must(200, http.MethodGet, "/api/v1/customers/"+id, nil, "admin").Data()["state"].(string)
		}
		update := func(id, to string) httpxtest.Response {
			return h.Do(http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": to}, "admin")
		}
		invite := func(id, _ string) httpxtest.Response {
			return h.Do(http.MethodPost, "/api/v1/customers/"+id+"/send_invite", nil, "admin")
		}

		cases := []struct {
			from, to string
			via      func(id, to string) httpxtest.Response
			ok       bool
			event    string // state event expected on success
		}{
			{"enabled", "disabled", update, true, "customer.disabled"},
			{"disabled+pw", "enabled", update, true, "customer.enabled"},
			{"invited", "declined", update, true, ""},
			{"invited", "disabled", update, true, "customer.disabled"},
			{"invited", "invited", invite, true, ""},
			{"declined", "invited", invite, true, ""},
			{"disabled", "invited", invite, true, ""},
			{"disabled+pw", "invited", invite, true, ""},
			// Refused.
			{"enabled", "invited", update, false, ""},
			{"enabled", "declined", update, false, ""},
			{"enabled", "invited", invite, false, ""},
			{"invited", "enabled", update, false, ""},
			{"declined", "enabled", update, false, ""},
			{"declined", "disabled", update, false, ""},
			{"disabled", "enabled", update, false, ""}, // no password: invite instead
			{"disabled", "declined", update, false, ""},
			{"disabled+pw", "declined", update, false, ""},
		}
		for _, c := range cases {
			id := mk(c.from)
			before := len(h.Payloads("customer.enabled", id)) + len(h.Payloads("customer.disabled", id))
			r := c.via(id, c.to)
			if !c.ok {
				assertError(t, r, 400, "INVALID_STATE_TRANSITION", "validation")
				from := c.from
				if from == "disabled+pw" {
					from = "disabled"
				}
				if got := stateOf(id); got != from {
					t.Errorf("%s→%s refused but state is %s", c.from, c.to, got)
				}
				continue
			}
			if r.Code != 200 || r.Data()["state"] != c.to || stateOf(id) != c.to {
				t.Errorf("%s→%s: %d %s", c.from, c.to, r.Code, r.Raw)
				continue
			}
			after := len(h.Payloads("customer.enabled", id)) + len(h.Payloads("customer.disabled", id))
			if c.event != "" && len(h.Payloads(c.event, id)) == 0 || c.event == "" && after != before {
				t.Errorf("%s→%s: state events %d→%d, want %q", c.from, c.to, before, after, c.event)
			}
			if c.to == "invited" && len(h.Payloads("customer.invited", id)) == 0 {
				t.Errorf("%s→invited: no customer.invited", c.from)
			}
		}
		// Same state by update is no move and no state event; withdrawing an invite kills its token.
		id := mk("enabled")
		h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "enabled"}, "admin")
		if len(h.Payloads("customer.enabled", id)) != 0 {
			t.Error("no-op update published customer.enabled")
		}
		inv := mk("invited")
		if n := h.Count("customers_account_tokens", "customer_id = ?", inv); n != 1 {
			t.Fatalf("invite token rows %d", n)
		}
		h.Must(200, http.MethodPut, "/api/v1/customers/"+inv, map[string]any{"state": "declined"}, "admin")
		if n := h.Count("customers_account_tokens", "customer_id = ?", inv); n != 0 {
			t.Errorf("declined invite kept its token: %d", n)
		}
		// Invites are staff work; unknown customers are not found.
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+inv+"/send_invite", nil, "cust:"+inv), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+inv+"/send_invite", nil, "reader"), 403, 403, "auth")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/00000000-0000-0000-0000-000000000000/send_invite", nil, "admin"), 404, "CUSTOMER_NOT_FOUND", "not_found")
	})
}
