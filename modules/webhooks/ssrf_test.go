package webhooks_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// In production (COMMERCE_ENV=production) an endpoint must be https and resolve only
// to public addresses unless the allow-list names it; the rule holds again at
// delivery, on the address actually dialed, so a name that later resolves to a
// loopback address (DNS rebinding) reaches nothing.
func TestSSRFProduction(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(s *app.Settings) {
		s.Production = true
		s.AllowedHosts = []string{"allowed.example.com", "198.51.100.0/24"}
		s.Retry.MaxRetries = 0
	}, func(t *testing.T, h *harness) {
		h.resolver.set("public.test", "93.184.216.34")
		h.resolver.set("internal.test", "93.184.216.34", "192.168.1.5")
		h.resolver.set("v6.test", "fd00::1")
		h.resolver.set("allowed.example.com", "127.0.0.1")
		admin := h.As("admin")

		refused := map[string]string{
			"http://public.test/hook":                  domain.MsgHTTPSRequired,
			"https://127.0.0.1/hook":                   domain.MsgPrivate,
			"https://[::1]/hook":                       domain.MsgPrivate,
			"https://10.1.2.3/hook":                    domain.MsgPrivate,
			"https://169.254.169.254/latest/meta-data": domain.MsgPrivate,
			"https://internal.test/hook":               domain.MsgPrivate,
			"https://v6.test/hook":                     domain.MsgPrivate,
			"https://0.0.0.0/hook":                     domain.MsgPrivate,
			"https://nowhere.test/hook":                domain.MsgUnresolvable,
		}
		for url, msg := range refused {
			r := admin.Do("POST", "/api/v1/webhooks", map[string]any{"url": url, "events": []string{"*"}})
			httpxtest.AssertError(t, r, http.StatusBadRequest, 400, "validation")
			if r.Fields()["url"] != msg {
				t.Errorf("%s: %v, want %q", url, r.Fields(), msg)
			}
		}
		// A public name, the allow-listed name and range are accepted.
		for _, url := range []string{"https://public.test/hook", "https://allowed.example.com/hook", "https://198.51.100.7/hook"} {
			admin.Must(http.StatusCreated, "POST", "/api/v1/webhooks", map[string]any{"url": url, "events": []string{"order.created"}})
		}
		// PATCH checks the new URL too.
		ep := h.create("https://public.test/other", "order.created")
		r := admin.Do("PATCH", "/api/v1/webhooks/"+ep["id"].(string), map[string]any{"url": "https://127.0.0.1/x"})
		if r.Code != http.StatusBadRequest || r.Fields()["url"] != domain.MsgPrivate {
			t.Errorf("patch to loopback: %d %s", r.Code, r.Raw)
		}
		if n := h.Count("webhook_endpoints", "1 = 1"); n != 4 {
			t.Fatalf("%d endpoints stored", n)
		}
		admin.Must(http.StatusNoContent, "DELETE", "/api/v1/webhooks/"+ep["id"].(string), nil)
		for _, e := range admin.Must(http.StatusOK, "GET", "/api/v1/webhooks", nil).List() {
			admin.Must(http.StatusNoContent, "DELETE", "/api/v1/webhooks/"+e["id"].(string), nil)
		}

		// At delivery: a TLS receiver on 127.0.0.1. The allow-listed name reaches it; a
		// name that resolved to a public address at creation and to 127.0.0.1 now does not.
		rc := newReceiver(t, true, nil)
		h.trust(rc)
		ok := h.create("https://allowed.example.com:"+rc.port()+"/hook", "order.created")
		h.resolver.set("rebind.example.com", "93.184.216.34")
		rebound := h.create("https://rebind.example.com:"+rc.port()+"/hook", "order.created")
		h.resolver.set("rebind.example.com", "127.0.0.1")

		h.publish("order.created", "o1", map[string]any{"id": "o1"})
		waitFor(t, "both deliveries settled", func() bool {
			a, b := h.deliveries(ok["id"].(string)), h.deliveries(rebound["id"].(string))
			return len(a) == 1 && a[0]["status"] != domain.StatusPending && len(b) == 1 && b[0]["status"] != domain.StatusPending
		})
		if d := h.deliveries(ok["id"].(string))[0]; d["status"] != domain.StatusSucceeded {
			t.Errorf("allow-listed delivery %v", d)
		}
		d := h.deliveries(rebound["id"].(string))[0]
		at := httpxtest.Objects(d["attempts"])
		if d["status"] != domain.StatusFailed || len(at) != 1 || at[0]["status_code"] != nil || !strings.Contains(at[0]["error"].(string), "not allowed") {
			t.Errorf("rebound delivery %v", d)
		}
		if n := rc.count(); n != 1 {
			t.Errorf("the receiver got %d requests, want 1 (the allow-listed one)", n)
		}
		if got := rc.requests()[0]; !strings.HasPrefix(got.Header.Get("X-Commerce-Signature"), "t=") {
			t.Errorf("request %v", got.Header)
		}
	})
}
