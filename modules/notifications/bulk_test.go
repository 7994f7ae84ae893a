package notifications_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

func TestBulkSendQueuesAndDeliversPersonalised(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		body := map[string]any{"template_id": "welcome_html", "channel": "email", "priority": "low", "metadata": map[string]any{"campaign": "c1"},
			"recipients": []any{
				map[string]any{"email": "ada@example.com", "variables": map[string]any{"customer_name": "Ada"}},
				map[string]any{"email": "not an address", "variables": map[string]any{"customer_name": "Nope"}},
				map[string]any{"email": "bob@example.com", "variables": map[string]any{"customer_name": "Bob"}},
			}}
		r := h.Must(http.StatusAccepted, "POST", "/api/v1/notifications/bulk", body, "writer").Data()
		items := httpxtest.Objects(r["notifications"])
		if httpxtest.Num(r["total"]) != 3 || httpxtest.Num(r["queued"]) != 2 || httpxtest.Num(r["failed"]) != 1 || r["batch_id"] == nil ||
			len(items) != 3 || items[1]["status"] != "failed" || items[1]["id"] != nil || items[0]["status"] != "pending" {
			t.Fatalf("bulk %v", r)
		}
		msgs := h.smtp.Wait(t, 2, 10*time.Second)
		got := map[string]string{}
		for _, m := range msgs {
			got[m.To[0]] = m.Part("text/plain")
		}
		if !strings.Contains(got["ada@example.com"], "Hi Ada,") || !strings.Contains(got["bob@example.com"], "Hi Bob,") {
			t.Errorf("personalised bodies %v", got)
		}
		n := h.waitStatus(items[0]["id"].(string), "sent", 5*time.Second)
		if n["batch_id"] != r["batch_id"] || n["priority"] != "low" || n["metadata"].(map[string]any)["campaign"] != "c1" {
			t.Errorf("bulk notification %v", n)
		}
		h.Must(http.StatusBadRequest, "POST", "/api/v1/notifications/bulk", map[string]any{"channel": "email"}, "writer")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/bulk", map[string]any{"template_id": "nope", "channel": "email",
			"recipients": []any{map[string]any{"email": "a@example.com"}}}, "writer"), http.StatusNotFound, "TEMPLATE_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/bulk", body, "reader"), http.StatusForbidden, 403, "auth")
		// Other channels name the recipient as such.
		h.Must(http.StatusCreated, "POST", "/api/v1/notifications/templates", map[string]any{"id": "sms_code", "name": "Code",
			"channel": "sms", "body": "Your code is {{ code }}", "variables": []string{"code"}}, "admin")
		sms := h.Must(http.StatusAccepted, "POST", "/api/v1/notifications/bulk", map[string]any{"template_id": "sms_code", "channel": "sms",
			"recipients": []any{map[string]any{"recipient": "+15550100123", "variables": map[string]any{"code": "42"}}}}, "writer").Data()
		if httpxtest.Num(sms["queued"]) != 1 {
			t.Errorf("sms bulk %v", sms)
		}
	})
}

// 10,000 recipients are queued in one request that does not wait for the sends.
func TestBulkTenThousandRecipientsInOneRequest(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true}, func(t *testing.T, h *harness) {
		recipients := make([]any, 10000)
		for i := range recipients {
			recipients[i] = map[string]any{"email": fmt.Sprintf("c%05d@example.com", i), "variables": map[string]any{"customer_name": "C" + strconv.Itoa(i)}}
		}
		start := time.Now()
		r := h.Must(http.StatusAccepted, "POST", "/api/v1/notifications/bulk", map[string]any{"template_id": "welcome_html",
			"channel": "email", "recipients": recipients}, "writer").Data()
		took := time.Since(start)
		if httpxtest.Num(r["queued"]) != 10000 || httpxtest.Num(r["failed"]) != 0 {
			t.Fatalf("queued %v failed %v", r["queued"], r["failed"])
		}
		if n := h.Count("notifications", "batch_id = ? AND status = ?", r["batch_id"], "pending"); n != 10000 {
			t.Errorf("%d pending rows", n)
		}
		if len(h.smtp.Messages()) != 0 {
			t.Error("the request sent messages itself")
		}
		t.Logf("10,000 recipients queued in %v", took)
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/bulk", map[string]any{"template_id": "welcome_html",
			"channel": "email", "recipients": append(recipients, map[string]any{"email": "x@example.com"})}, "writer"),
			http.StatusBadRequest, "TOO_MANY_RECIPIENTS", "validation")
	})
}

func sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	return "X-Commerce-Signature: t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

func TestDeliveryWebhookAndStats(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		var ids []string
		for i := range 3 {
			n := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(map[string]any{"recipient": fmt.Sprintf("u%d@example.com", i)}),
				"writer").Data()
			ids = append(ids, n["id"].(string))
		}
		sms := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", map[string]any{"channel": "sms", "recipient": "+15550100123",
			"body": "Code 1"}, "writer").Data()["id"].(string)
		for _, id := range append(ids, sms) {
			h.waitStatus(id, "sent", 5*time.Second)
		}
		hook := func(body map[string]any, headers ...string) httpxtest.Response {
			raw := httpxtest.Encode(t, body)
			if headers == nil {
				headers = []string{sign(hookSecret, time.Now(), raw)}
			}
			return h.Do("POST", "/webhooks/notifications/delivery", body, headers...)
		}
		ev := func(id, topic, nid string) map[string]any {
			return map[string]any{"id": id, "topic": topic, "data": map[string]any{"notification_id": nid, "error": "mailbox full"}}
		}
		if r := hook(ev("evt_1", "notification.delivered", ids[0])); r.Code != http.StatusOK || r.Body["received"] != true {
			t.Fatalf("delivered %d %v", r.Code, r.Body)
		}
		if n := h.get(ids[0]); n["status"] != "delivered" || n["delivered_at"] == nil {
			t.Errorf("after delivered %v", n)
		}
		hook(ev("evt_2", "notification.bounced", ids[1]))
		if n := h.get(ids[1]); n["status"] != "bounced" || n["error_message"] != "mailbox full" {
			t.Errorf("after bounced %v", n)
		}
		// The same event again changes nothing; a late "sent" does not move back.
		hook(ev("evt_2", "notification.delivered", ids[1]))
		hook(ev("evt_3", "notification.sent", ids[0]))
		if h.get(ids[1])["status"] != "bounced" || h.get(ids[0])["status"] != "delivered" {
			t.Error("a replayed or late event moved a notification")
		}
		// By the provider's message id (the SMS recorder's id).
		hook(map[string]any{"id": "evt_4", "topic": "notification.delivered", "data": map[string]any{"provider_message_id": "sms-" + sms[:8]}})
		if h.get(sms)["status"] != "delivered" {
			t.Error("provider_message_id not matched")
		}
		if r := hook(ev("evt_5", "notification.delivered", "0190a000-0000-7000-8000-000000000999")); r.Code != http.StatusOK {
			t.Errorf("unknown notification answered %d", r.Code)
		}
		httpxtest.AssertError(t, hook(ev("evt_6", "notification.delivered", ids[2]), "X-Commerce-Signature: t=1,v1=00"),
			http.StatusBadRequest, "INVALID_SIGNATURE", "validation")
		httpxtest.AssertError(t, hook(ev("evt_6", "notification.delivered", ids[2]), ""), http.StatusBadRequest, "INVALID_SIGNATURE", "validation")
		old := httpxtest.Encode(t, ev("evt_6", "notification.delivered", ids[2]))
		httpxtest.AssertError(t, hook(ev("evt_6", "notification.delivered", ids[2]), sign(hookSecret, time.Now().Add(-time.Hour), old)),
			http.StatusBadRequest, "INVALID_SIGNATURE", "validation")
		r := hook(ev("6", "notification.opened", ids[2]))
		if r.Code != http.StatusBadRequest || r.Fields()["id"] == nil || r.Fields()["topic"] == nil {
			t.Errorf("bad event %d %v", r.Code, r.Body)
		}

		s := h.Must(http.StatusOK, "GET", "/api/v1/notifications/stats", nil, "reader").Data()
		o := s["overall"].(map[string]any)
		if httpxtest.Num(o["sent"]) != 4 || httpxtest.Num(o["delivered"]) != 2 || httpxtest.Num(o["bounced"]) != 1 ||
			httpxtest.Num(o["failed"]) != 0 || o["delivery_rate"] != 50.0 || o["failure_rate"] != 25.0 {
			t.Errorf("overall %v", o)
		}
		email := s["by_channel"].(map[string]any)["email"].(map[string]any)
		if httpxtest.Num(email["sent"]) != 3 || httpxtest.Num(email["delivered"]) != 1 {
			t.Errorf("email %v", email)
		}
		if s["period"].(map[string]any)["start"] == nil {
			t.Errorf("period %v", s["period"])
		}
		smsOnly := h.Must(http.StatusOK, "GET", "/api/v1/notifications/stats?channel=sms&since=2026-01-01", nil, "reader").Data()
		if len(smsOnly["by_channel"].(map[string]any)) != 1 || httpxtest.Num(smsOnly["overall"].(map[string]any)["delivered"]) != 1 {
			t.Errorf("sms stats %v", smsOnly)
		}
		h.Must(http.StatusBadRequest, "GET", "/api/v1/notifications/stats?since=last-week", nil, "reader")
		if c := h.Must(http.StatusOK, "GET", "/api/v1/notifications/stats", nil, "customer").Data(); httpxtest.Num(c["overall"].(map[string]any)["sent"]) != 0 {
			t.Errorf("customer stats %v", c)
		}
	})
}
