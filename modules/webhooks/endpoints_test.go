package webhooks_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestEndpoints(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		admin := h.As("admin")
		// Created with a generated secret, shown once.
		r := h.As("writer").Must(http.StatusCreated, "POST", "/api/v1/webhooks",
			map[string]any{"url": "http://127.0.0.1:9/hook", "events": []string{"order.created", "order.created", "cart.created"}, "description": "ERP"})
		ep := r.Data()
		id, _ := ep["id"].(string)
		if s, _ := ep["secret"].(string); !strings.HasPrefix(s, "whsec_") || len(s) != 70 || ep["enabled"] != true ||
			httpxtest.Keys(map[string]any{"events": ep["events"]}) == "" || len(ep["events"].([]any)) != 2 {
			t.Fatalf("created %v", ep)
		}
		// A given secret is kept; "*" stands alone.
		own := h.create("http://localhost:9/x", "*", "order.created")
		if ev := own["events"].([]any); len(ev) != 1 || ev[0] != "*" {
			t.Errorf("events %v", ev)
		}
		withSecret := admin.Must(http.StatusCreated, "POST", "/api/v1/webhooks",
			map[string]any{"url": "http://127.0.0.1:9/y", "events": []string{"*"}, "secret": "0123456789abcdef"}).Data()
		if withSecret["secret"] != "0123456789abcdef" {
			t.Errorf("secret %v", withSecret["secret"])
		}

		got := admin.Must(http.StatusOK, "GET", "/api/v1/webhooks/"+id, nil).Data()
		if _, shown := got["secret"]; shown || got["description"] != "ERP" || got["failure_count"] != float64(0) {
			t.Errorf("get %v", got)
		}
		list := admin.Must(http.StatusOK, "GET", "/api/v1/webhooks?per_page=2", nil)
		if ids := httpxtest.IDs(list.List()); len(ids) != 2 || ids[0] != id || list.Pagination()["total"] != float64(3) || list.Pagination()["has_next"] != true {
			t.Errorf("list %s", list.Raw)
		}

		// Validation: every bad member named.
		bad := admin.Do("POST", "/api/v1/webhooks", map[string]any{"url": "ftp://x", "events": []string{"Order Created"}, "secret": "short"})
		httpxtest.AssertError(t, bad, http.StatusBadRequest, 400, "validation")
		if f := bad.Fields(); f["url"] == nil || f["events"] == nil || f["secret"] == nil {
			t.Errorf("fields %v", f)
		}
		if f := admin.Do("POST", "/api/v1/webhooks", map[string]any{}).Fields(); f["url"] == nil || f["events"] == nil {
			t.Errorf("missing members: %v", f)
		}
		if f := admin.Do("POST", "/api/v1/webhooks", map[string]any{"url": "https://user:pw@example.com/", "events": []string{}}).Fields(); f["url"] == nil || f["events"] == nil {
			t.Errorf("credentials and no events: %v", f)
		}

		// PATCH: events, description, enabled.
		up := admin.Must(http.StatusOK, "PATCH", "/api/v1/webhooks/"+id, map[string]any{"events": []string{"product.created"}, "enabled": false}).Data()
		if up["enabled"] != false || up["events"].([]any)[0] != "product.created" || up["disabled_at"] == nil || up["description"] != "ERP" {
			t.Errorf("patched %v", up)
		}
		up = admin.Must(http.StatusOK, "PATCH", "/api/v1/webhooks/"+id, map[string]any{"enabled": true}).Data()
		if up["enabled"] != true || up["disabled_at"] != nil || up["disabled_reason"] != nil {
			t.Errorf("re-enabled %v", up)
		}
		httpxtest.AssertError(t, admin.Do("PATCH", "/api/v1/webhooks/"+id, map[string]any{"url": "mailto:x"}), http.StatusBadRequest, 400, "validation")

		// Scope webhooks:write (admin includes it); others are refused.
		httpxtest.AssertError(t, h.As("reader").Get("/api/v1/webhooks"), http.StatusForbidden, 403, "auth")
		httpxtest.AssertError(t, h.As("customer").Post("/api/v1/webhooks", map[string]any{"url": "http://x.test", "events": []string{"*"}}), http.StatusForbidden, 403, "auth")
		httpxtest.AssertError(t, h.As().Get("/api/v1/webhooks"), http.StatusUnauthorized, 401, "auth")

		// Delete, then it is gone.
		admin.Must(http.StatusNoContent, "DELETE", "/api/v1/webhooks/"+id, nil)
		httpxtest.AssertError(t, admin.Get("/api/v1/webhooks/"+id), http.StatusNotFound, "WEBHOOK_ENDPOINT_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, admin.Delete("/api/v1/webhooks/"+id), http.StatusNotFound, "WEBHOOK_ENDPOINT_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, admin.Get("/api/v1/webhooks/nope/deliveries"), http.StatusNotFound, "WEBHOOK_ENDPOINT_NOT_FOUND", "not_found")
		_ = domain.AllEvents
	})
}
