package webhooks_test

import (
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/app"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

type eventBody struct {
	ID        string         `json:"id"`
	Type      string         `json:"type"`
	CreatedAt string         `json:"created_at"`
	Data      map[string]any `json:"data"`
}

func decodeBody(t *testing.T, r received) eventBody {
	t.Helper()
	var b eventBody
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatalf("body %s: %v", r.Body, err)
	}
	return b
}

// Committed cart.created, product.created and order.created reach the endpoints
// subscribed to them, signed with each endpoint's secret; other types do not.
func TestDeliversSubscribedEventsSigned(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		all := newReceiver(t, false, nil)
		orders := newReceiver(t, false, nil)
		a := h.create(all.srv.URL+"/hooks", "cart.created", "product.created", "order.created")
		b := h.create(orders.srv.URL+"/hooks", "order.created")

		h.publish("cart.created", "c1", map[string]any{"id": "c1", "currency": "EUR"})
		h.publish("product.created", "p1", map[string]any{"id": "p1", "title": "Mug"})
		h.publish("customer.created", "u1", map[string]any{"id": "u1"}) // nobody subscribed
		h.publish("order.created", "o1", map[string]any{"id": "o1", "order_number": "1001"})

		waitFor(t, "three deliveries to the first endpoint", func() bool { return all.count() >= 3 })
		waitFor(t, "one delivery to the second", func() bool { return orders.count() >= 1 })
		time.Sleep(100 * time.Millisecond)
		if all.count() != 3 || orders.count() != 1 {
			t.Fatalf("received %d and %d requests", all.count(), orders.count())
		}
		types := map[string]eventBody{}
		for _, r := range all.requests() {
			verify(t, a["secret"].(string), r)
			body := decodeBody(t, r)
			types[body.Type] = body
			if !strings.HasPrefix(body.ID, "evt_") || r.Header.Get("X-Commerce-Event-Id") != body.ID || r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("body %s headers %v", r.Body, r.Header)
			}
			if _, err := time.Parse(time.RFC3339Nano, body.CreatedAt); err != nil || !strings.HasSuffix(body.CreatedAt, "Z") {
				t.Errorf("created_at %q", body.CreatedAt)
			}
		}
		if types["cart.created"].Data["currency"] != "EUR" || types["product.created"].Data["title"] != "Mug" || types["order.created"].Data["order_number"] != "1001" {
			t.Errorf("bodies %+v", types)
		}
		o := orders.requests()[0]
		verify(t, b["secret"].(string), o)
		if decodeBody(t, o).ID != types["order.created"].ID {
			t.Errorf("the same event has one id for every endpoint")
		}
		// Each delivery is recorded with its attempt.
		waitFor(t, "recorded deliveries", func() bool {
			list := h.deliveries(a["id"].(string))
			return len(list) == 3 && list[0]["status"] == domain.StatusSucceeded && list[2]["status"] == domain.StatusSucceeded
		})
		d := h.deliveries(a["id"].(string))[0]
		at := httpxtest.Objects(d["attempts"])
		if d["event_type"] != "order.created" || d["attempt_count"] != float64(1) || len(at) != 1 || at[0]["status_code"] != float64(200) ||
			at[0]["response_body"] != `{"ok":true}` || at[0]["error"] != nil || d["completed_at"] == nil || d["next_attempt_at"] != nil {
			t.Errorf("delivery %v", d)
		}
		// The relay delivering an event again adds no delivery.
		if err := h.DB.Gorm().Exec("UPDATE outbox_events SET published_at = NULL, delivered_to = ''").Error; err != nil {
			t.Fatal(err)
		}
		h.drain()
		time.Sleep(100 * time.Millisecond)
		if n := h.Count("webhook_deliveries", "1 = 1"); n != 4 || all.count() != 3 {
			t.Errorf("%d deliveries, %d requests after the event came again", n, all.count())
		}
	})
}

// A receiver answering 500 twice is retried with growing delays, then succeeds; every
// attempt is recorded. Redelivery sends the same event (same id and body) again.
func TestRetryThenSuccessAndRedeliver(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		rc := newReceiver(t, false, func(n int, w http.ResponseWriter, _ *http.Request) {
			if n <= 2 {
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte("try\x00 later\xff")) // kept as valid text
				return
			}
			w.WriteHeader(http.StatusNoContent)
		})
		ep := h.create(rc.srv.URL, "*")
		id := ep["id"].(string)
		h.publish("cart.created", "c1", map[string]any{"id": "c1"})
		waitFor(t, "three attempts", func() bool { return rc.count() >= 3 })
		reqs := rc.requests()
		first, second := reqs[1].At.Sub(reqs[0].At), reqs[2].At.Sub(reqs[1].At)
		// Retry n waits between half and all of 40ms×2^(n-1).
		if first < 20*time.Millisecond || second < 40*time.Millisecond {
			t.Errorf("retries after %v and %v", first, second)
		}
		for i, r := range reqs {
			verify(t, ep["secret"].(string), r)
			if string(r.Body) != string(reqs[0].Body) || r.Header.Get("X-Commerce-Attempt") != string(rune('1'+i)) {
				t.Errorf("attempt %d: %s %v", i+1, r.Body, r.Header)
			}
		}
		waitFor(t, "the delivery succeeded", func() bool { return h.deliveries(id)[0]["status"] == domain.StatusSucceeded })
		d := h.deliveries(id)[0]
		at := httpxtest.Objects(d["attempts"])
		if len(at) != 3 || at[0]["status_code"] != float64(500) || at[0]["response_body"] != "try later\uFFFD" || at[1]["status_code"] != float64(500) ||
			at[2]["status_code"] != float64(204) || d["attempt_count"] != float64(3) || d["last_status_code"] != float64(204) {
			t.Fatalf("delivery %v", d)
		}

		// Redeliver: a new delivery of the same event.
		r := h.As("admin").Must(http.StatusAccepted, "POST", "/api/v1/webhooks/"+id+"/deliveries/"+d["id"].(string)+"/redeliver", nil).Data()
		if r["event_id"] != d["event_id"] || r["redelivery_of"] != d["id"] || r["status"] != domain.StatusPending || r["id"] == d["id"] {
			t.Errorf("redelivery %v", r)
		}
		waitFor(t, "the redelivery", func() bool { return rc.count() == 4 })
		again := rc.requests()[3]
		verify(t, ep["secret"].(string), again)
		if string(again.Body) != string(reqs[0].Body) || decodeBody(t, again).ID != d["event_id"] {
			t.Errorf("redelivered %s, first %s", again.Body, reqs[0].Body)
		}
		waitFor(t, "two deliveries", func() bool {
			l := h.deliveries(id)
			return len(l) == 2 && l[0]["status"] == domain.StatusSucceeded
		})

		httpxtest.AssertError(t, h.As("admin").Post("/api/v1/webhooks/"+id+"/deliveries/0190a000-0000-7000-8000-000000000000/redeliver", nil),
			http.StatusNotFound, "WEBHOOK_DELIVERY_NOT_FOUND", "not_found")
		h.As("admin").Must(http.StatusOK, "PATCH", "/api/v1/webhooks/"+id, map[string]any{"enabled": false})
		httpxtest.AssertError(t, h.As("admin").Post("/api/v1/webhooks/"+id+"/deliveries/"+d["id"].(string)+"/redeliver", nil),
			http.StatusConflict, "WEBHOOK_ENDPOINT_DISABLED", "conflict")
	})
}

// A dead endpoint (nothing listens) is retried, its streak of failures disables it,
// its pending deliveries fail and webhook_endpoint.disabled is published; a live
// endpoint next to it gets everything. Retries stop after max_retries.
func TestDeadEndpointDisabledAfterStreak(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(s *app.Settings) {
		s.DisableAfter = 4
		s.Retry.MaxRetries = 2
	}, func(t *testing.T, h *harness) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		deadURL := "http://" + l.Addr().String() + "/hook"
		_ = l.Close()
		dead := h.create(deadURL, "*")
		failing := newReceiver(t, false, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
		flaky := h.create(failing.srv.URL, "product.created")
		live := newReceiver(t, false, nil)
		h.create(live.srv.URL, "*")

		h.publish("order.created", "o1", map[string]any{"id": "o1"})
		h.publish("order.created", "o2", map[string]any{"id": "o2"})
		h.publish("product.created", "p1", map[string]any{"id": "p1"})

		// The failing one: its delivery is tried 1 + max_retries times, then failed
		// (3 failures: under the streak).
		waitFor(t, "the failing endpoint's delivery to fail", func() bool {
			l := h.deliveries(flaky["id"].(string))
			return len(l) == 1 && l[0]["status"] == domain.StatusFailed
		})
		if n := failing.count(); n != 3 {
			t.Errorf("%d attempts at the failing endpoint, want 3", n)
		}
		if f := h.As("admin").Must(http.StatusOK, "GET", "/api/v1/webhooks/"+flaky["id"].(string), nil).Data(); f["enabled"] != true || f["failure_count"] != float64(3) {
			t.Errorf("failing endpoint %v", f)
		}
		// The dead one: disabled at the 4th failed attempt.
		deadID := dead["id"].(string)
		waitFor(t, "the dead endpoint disabled", func() bool {
			return h.As("admin").Must(http.StatusOK, "GET", "/api/v1/webhooks/"+deadID, nil).Data()["enabled"] == false
		})
		got := h.As("admin").Must(http.StatusOK, "GET", "/api/v1/webhooks/"+deadID, nil).Data()
		if fc, _ := got["failure_count"].(float64); fc < 4 || fc > 4+3 || !strings.Contains(got["disabled_reason"].(string), "4 consecutive failed") || got["disabled_at"] == nil {
			t.Errorf("disabled endpoint %v", got)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			pending := []map[string]any{}
			for _, d := range h.deliveries(deadID) {
				if d["status"] != domain.StatusFailed {
					pending = append(pending, d)
				}
			}
			if len(pending) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the dead endpoint's deliveries not failed: %v", pending)
			}
			time.Sleep(10 * time.Millisecond)
		}
		attempts := 0
		for _, d := range h.deliveries(deadID) {
			for _, a := range httpxtest.Objects(d["attempts"]) {
				attempts++
				if a["status_code"] != nil || a["error"] == nil || a["error"] == "" {
					t.Errorf("dead attempt %v", a)
				}
			}
		}
		if attempts < 4 || attempts > 4+3 { // attempts in flight when it was disabled are recorded too
			t.Errorf("%d attempts at the dead endpoint, want 4 (up to 3 more in flight)", attempts)
		}
		ev := h.Events(api.EventEndpointDisabled)
		if len(ev) != 1 || ev[0].AggregateID != deadID || ev[0].Data["enabled"] != false || ev[0].Data["secret"] != nil {
			t.Fatalf("disabled events %v", ev)
		}
		// The live endpoint got everything, the disabled event too ("*").
		h.drain()
		waitFor(t, "the live endpoint's deliveries", func() bool { return live.count() == 4 })
		seen := map[string]bool{}
		for _, r := range live.requests() {
			b := decodeBody(t, r)
			seen[b.Type+" "+b.Data["id"].(string)] = true
		}
		if !seen["order.created o1"] || !seen["order.created o2"] || !seen["product.created p1"] || !seen[api.EventEndpointDisabled+" "+deadID] {
			t.Errorf("live endpoint got %v", seen)
		}
		// No new delivery for a disabled endpoint.
		before := len(h.deliveries(deadID))
		h.publish("order.created", "o3", map[string]any{"id": "o3"})
		waitFor(t, "the live endpoint's fifth", func() bool { return live.count() == 5 })
		if n := len(h.deliveries(deadID)); n != before {
			t.Errorf("%d deliveries to the disabled endpoint, %d before", n, before)
		}
	})
}

// A slow endpoint delays neither another endpoint nor the publishing side; its attempt
// ends at the timeout.
func TestSlowEndpointDoesNotDelayOthers(t *testing.T) {
	t.Parallel()
	eachEngine(t, func(s *app.Settings) {
		s.Timeout = 1500 * time.Millisecond
		s.Retry.MaxRetries = 0
	}, func(t *testing.T, h *harness) {
		slow := newReceiver(t, false, func(_ int, w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		})
		fastRc := newReceiver(t, false, nil)
		slowEp := h.create(slow.srv.URL, "*")
		h.create(fastRc.srv.URL, "*")

		start := time.Now()
		h.publish("product.created", "p1", map[string]any{"id": "p1"})
		if d := time.Since(start); d > time.Second {
			t.Errorf("publishing took %v", d)
		}
		waitFor(t, "the slow endpoint's request", func() bool { return slow.count() == 1 })
		waitFor(t, "the fast endpoint's request", func() bool { return fastRc.count() == 1 })
		if d := time.Since(start); d > time.Second {
			t.Errorf("the fast endpoint waited %v", d)
		}
		// A second event: the fast endpoint gets it while the slow one is still busy.
		h.publish("product.created", "p2", map[string]any{"id": "p2"})
		waitFor(t, "the fast endpoint's second", func() bool { return fastRc.count() == 2 })
		if d := time.Since(start); d > 1400*time.Millisecond {
			t.Errorf("the fast endpoint's second delivery came after %v", d)
		}
		// The slow attempt ends at the timeout, recorded as such.
		waitFor(t, "the slow delivery failed", func() bool {
			l := h.deliveries(slowEp["id"].(string))
			return len(l) == 2 && l[0]["status"] == domain.StatusFailed && l[1]["status"] == domain.StatusFailed
		})
		a := httpxtest.Objects(h.deliveries(slowEp["id"].(string))[1]["attempts"])[0]
		if e, _ := a["error"].(string); !strings.Contains(e, "deadline") || a["duration_ms"].(float64) < 1400 || a["duration_ms"].(float64) > 3000 {
			t.Errorf("slow attempt %v", a)
		}
	})
}

// Events are routed by a snapshot of the enabled endpoints (decision 0191): an
// endpoint created, changed or deleted through the API takes effect for the next
// event at once, even while a snapshot is held.
func TestRoutingFollowsEndpointChanges(t *testing.T) {
	t.Parallel()
	eachEngine(t, nil, func(t *testing.T, h *harness) {
		rc := newReceiver(t, false, nil)
		h.publish("cart.created", "c0", map[string]any{"id": "c0"}) // snapshot taken: no endpoints
		h.drain()
		e := h.create(rc.srv.URL+"/hooks", "cart.created")
		h.publish("cart.created", "c1", map[string]any{"id": "c1"})
		waitFor(t, "the event after the endpoint's creation", func() bool { return rc.count() >= 1 })
		h.Must(http.StatusOK, http.MethodPatch, "/api/v1/webhooks/"+e["id"].(string), map[string]any{"events": []string{"order.created"}}, "admin")
		h.publish("cart.created", "c2", map[string]any{"id": "c2"})
		h.publish("order.created", "o1", map[string]any{"id": "o1"})
		waitFor(t, "the order after the change", func() bool { return rc.count() >= 2 })
		time.Sleep(100 * time.Millisecond)
		got := []string{}
		for _, r := range rc.requests() {
			got = append(got, decodeBody(t, r).Type)
		}
		if len(got) != 2 || got[0] != "cart.created" || got[1] != "order.created" {
			t.Fatalf("delivered %v, want cart.created then order.created", got)
		}
	})
}
