package notifications_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
)

func emailBody(extra map[string]any) map[string]any {
	b := map[string]any{"channel": "email", "recipient": "Ada@Example.com", "subject": "Hello", "body": "Plain body",
		"html_body": "<p>HTML body</p>", "metadata": map[string]any{"source": "test"}}
	return httpxtest.Override(b, extra)
}

func TestSendEmailDeliversThroughSMTP(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		n := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer").Data()
		if n["status"] != "pending" || httpxtest.Num(n["attempt_count"]) != 0 || httpxtest.Num(n["max_attempts"]) != 4 ||
			n["priority"] != "normal" || n["recipient"] != "ada@example.com" {
			t.Fatalf("created %v", n)
		}
		id, _ := n["id"].(string)
		got := h.waitStatus(id, "sent", 5*time.Second)
		msgs := h.smtp.Wait(t, 1, 5*time.Second)
		m := msgs[0]
		if m.Subject() != "Hello" || m.To[0] != "ada@example.com" || !strings.Contains(m.Part("text/plain"), "Plain body") ||
			!strings.Contains(m.Part("text/html"), "<p>HTML body</p>") {
			t.Errorf("message %q to %v: %q", m.Subject(), m.To, m.Raw)
		}
		if m.Header.Get("X-Notification-Id") != id {
			t.Errorf("X-Notification-Id %q", m.Header.Get("X-Notification-Id"))
		}
		attempts := httpxtest.Objects(got["attempts"])
		if httpxtest.Num(got["attempt_count"]) != 1 || len(attempts) != 1 || attempts[0]["status"] != "sent" || attempts[0]["error"] != nil ||
			attempts[0]["channel"] != "email" || got["sent_at"] == nil {
			t.Errorf("after send %v", got)
		}
	})
}

func TestSendValidationAndScopes(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		r := h.Must(http.StatusBadRequest, "POST", "/api/v1/notifications", map[string]any{}, "writer")
		if f := r.Fields(); f["channel"] == nil || f["recipient"] == nil || f["body"] == nil {
			t.Errorf("empty body fields %v", f)
		}
		cases := []struct {
			body  map[string]any
			field string
		}{
			{emailBody(map[string]any{"subject": nil}), "subject"},
			{emailBody(map[string]any{"body": nil}), "body"},
			{emailBody(map[string]any{"recipient": "not-an-email"}), "recipient"},
			{emailBody(map[string]any{"priority": "asap"}), "priority"},
			{emailBody(map[string]any{"channel": "fax"}), "channel"},
			{emailBody(map[string]any{"template_id": "nope"}), "template_id"},
			{map[string]any{"channel": "sms", "recipient": "12345", "body": "x"}, "recipient"},
			{map[string]any{"channel": "webhook", "recipient": "ftp://x", "body": "x"}, "recipient"},
			{map[string]any{"channel": "sms", "recipient": "+15550100123", "template_id": "order_shipped"}, "template_id"},
		}
		for _, c := range cases {
			r := h.Must(http.StatusBadRequest, "POST", "/api/v1/notifications", c.body, "writer")
			if r.Fields()[c.field] == nil || r.Err()["category"] != "validation" {
				t.Errorf("%v: fields %v", c.body, r.Fields())
			}
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications", emailBody(nil), "reader"), http.StatusForbidden, 403, "auth")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications", emailBody(nil), "customer"), http.StatusForbidden, 403, "auth")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/notifications", nil, "other"), http.StatusForbidden, 403, "auth")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/notifications", nil), http.StatusUnauthorized, 401, "auth")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/notifications/0190a000-0000-7000-8000-000000000999", nil, "reader"),
			http.StatusNotFound, "NOTIFICATION_NOT_FOUND", "not_found")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/notifications/x", nil, "reader"), http.StatusNotFound, "NOTIFICATION_NOT_FOUND", "not_found")
		if n := h.Count("notifications", "1 = 1"); n != 0 {
			t.Errorf("%d notifications stored by refused requests", n)
		}
	})
}

func TestSendWithTemplateEscapesHTML(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		n := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", map[string]any{
			"channel": "email", "recipient": "ada@example.com", "template_id": "order_shipped_html", "priority": "urgent",
			"template_variables": map[string]any{"customer_name": "Ada <script>", "order_number": "1001", "carrier": "UPS",
				"tracking_number": "1Z999", "tracking_url": "https://track.example/1Z999?a=1&b=2"},
		}, "writer").Data()
		if n["subject"] != "Your order 1001 has shipped" || n["template_id"] != "order_shipped_html" || n["priority"] != "urgent" {
			t.Fatalf("created %v", n)
		}
		html, _ := n["html_body"].(string)
		body, _ := n["body"].(string)
		if !strings.Contains(html, "Ada &lt;script&gt;") || strings.Contains(html, "<script>") || !strings.Contains(html, "a=1&amp;b=2") {
			t.Errorf("html not escaped: %s", html)
		}
		if !strings.Contains(body, "Hi Ada <script>,") || !strings.Contains(body, "Tracking number: 1Z999") || !strings.Contains(body, "Test Shop") {
			t.Errorf("text body %q", body)
		}
		h.waitStatus(n["id"].(string), "sent", 5*time.Second)
		m := h.smtp.Wait(t, 1, 5*time.Second)[0]
		if !strings.Contains(m.Part("text/html"), "Ada &lt;script&gt;") {
			t.Errorf("sent html %q", m.Part("text/html"))
		}
		got := h.Must(http.StatusOK, "GET", "/api/v1/notifications/"+n["id"].(string)+"?include=template", nil, "reader").Data()
		if tpl, _ := got["template"].(map[string]any); tpl["id"] != "order_shipped_html" || tpl["is_system"] != true {
			t.Errorf("include=template %v", got["template"])
		}
		h.Must(http.StatusBadRequest, "GET", "/api/v1/notifications/"+n["id"].(string)+"?include=everything", nil, "reader")
	})
}

// A failing SMTP server: failed at once with the error, the automatic retries after
// the backoff while attempt_count < max_attempts, then retry moves it to pending and
// it is sent.
func TestFailingSMTPRetriesOnScheduleThenManualRetry(t *testing.T) {
	t.Parallel()
	backoff := []time.Duration{150 * time.Millisecond, 300 * time.Millisecond}
	eachEngine(t, options{backoff: backoff, maxAttempts: 3}, func(t *testing.T, h *harness) {
		h.smtp.Fail(true)
		id := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer").Data()["id"].(string)
		first := h.waitStatus(id, "failed", 5*time.Second)
		if msg, _ := first["error_message"].(string); !strings.Contains(msg, "554") {
			t.Errorf("error_message %q", msg)
		}
		var n map[string]any
		jobstest.WaitFor(t, 10*time.Second, "three failed attempts", func() bool {
			n = h.get(id)
			return httpxtest.Num(n["attempt_count"]) == 3 && n["status"] == "failed" && n["next_retry_at"] == nil
		})
		attempts := httpxtest.Objects(n["attempts"])
		if len(attempts) != 3 {
			t.Fatalf("attempts %v", attempts)
		}
		at := make([]time.Time, 3)
		for i, a := range attempts {
			at[i], _ = time.Parse(time.RFC3339Nano, a["attempted_at"].(string))
			if a["status"] != "failed" || a["error"] == nil {
				t.Errorf("attempt %d %v", i, a)
			}
		}
		if d := at[1].Sub(at[0]); d < backoff[0] {
			t.Errorf("second attempt after %v, want >= %v", d, backoff[0])
		}
		if d := at[2].Sub(at[1]); d < backoff[1] {
			t.Errorf("third attempt after %v, want >= %v", d, backoff[1])
		}
		time.Sleep(400 * time.Millisecond) // no fourth attempt: the budget is spent
		if got := h.get(id); httpxtest.Num(got["attempt_count"]) != 3 || len(h.smtp.Messages()) != 0 {
			t.Fatalf("after the budget %v", got)
		}
		h.smtp.Fail(false)
		r := h.Must(http.StatusOK, "POST", "/api/v1/notifications/"+id+"/retry", nil, "writer").Data()
		if r["id"] != id || r["status"] != "pending" || httpxtest.Num(r["attempt_count"]) != 3 || r["message"] == nil {
			t.Errorf("retry %v", r)
		}
		sent := h.waitStatus(id, "sent", 5*time.Second)
		if httpxtest.Num(sent["attempt_count"]) != 4 || sent["error_message"] != nil || len(h.smtp.Wait(t, 1, 5*time.Second)) != 1 {
			t.Errorf("after retry %v", sent)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/"+id+"/retry", nil, "writer"), http.StatusBadRequest,
			"INVALID_STATUS_TRANSITION", "validation")
	})
}

func TestScheduledNotificationCancel(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{}, func(t *testing.T, h *harness) {
		at := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		n := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(map[string]any{"scheduled_at": at.Format(time.RFC3339)}),
			"writer").Data()
		id := n["id"].(string)
		if n["scheduled_at"] != at.Format(time.RFC3339) || n["status"] != "pending" {
			t.Fatalf("scheduled %v", n)
		}
		if err := h.jobs.SendDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := h.get(id); got["status"] != "pending" || httpxtest.Num(got["attempt_count"]) != 0 {
			t.Fatalf("sent before its time: %v", got)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/"+id+"/retry", nil, "writer"), http.StatusBadRequest,
			"INVALID_STATUS_TRANSITION", "validation")
		c := h.Must(http.StatusOK, "POST", "/api/v1/notifications/"+id+"/cancel", nil, "writer").Data()
		if c["id"] != id || c["status"] != "cancelled" || c["message"] == nil {
			t.Errorf("cancel %v", c)
		}
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/"+id+"/cancel", nil, "writer"), http.StatusBadRequest,
			"INVALID_STATUS_TRANSITION", "validation")
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/0190a000-0000-7000-8000-000000000999/cancel", nil, "writer"),
			http.StatusNotFound, "NOTIFICATION_NOT_FOUND", "not_found")
		if got := h.get(id); got["status"] != "cancelled" {
			t.Errorf("stored %v", got)
		}
		// A sent notification cannot be cancelled.
		sent := h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(nil), "writer").Data()["id"].(string)
		h.waitStatus(sent, "sent", 5*time.Second)
		httpxtest.AssertError(t, h.Do("POST", "/api/v1/notifications/"+sent+"/cancel", nil, "writer"), http.StatusBadRequest,
			"INVALID_STATUS_TRANSITION", "validation")
	})
}

func TestListFiltersSortAndCustomerScope(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true}, func(t *testing.T, h *harness) {
		for _, b := range []map[string]any{
			emailBody(map[string]any{"priority": "low"}),
			emailBody(map[string]any{"priority": "urgent", "recipient": "bob@example.com"}),
			{"channel": "sms", "recipient": "+1 555 010 0123", "body": "Your code is 1234", "priority": "high"},
			{"channel": "in_app", "recipient": customer1, "body": "Welcome aboard"},
		} {
			h.Must(http.StatusCreated, "POST", "/api/v1/notifications", b, "writer")
		}
		// The store's own message to customer1 (linked to the customer).
		h.deliver("customer.created", "evt_c1", map[string]any{"id": customer1, "state": "enabled"})
		all := h.Must(http.StatusOK, "GET", "/api/v1/notifications", nil, "reader")
		if len(all.List()) != 5 || httpxtest.Num(all.Pagination()["total"]) != 5 {
			t.Fatalf("list %v", all.Body)
		}
		sms := h.Must(http.StatusOK, "GET", "/api/v1/notifications?channel=sms", nil, "reader").List()
		if len(sms) != 1 || sms[0]["recipient"] != "+15550100123" {
			t.Errorf("sms %v", sms)
		}
		byPriority := h.Must(http.StatusOK, "GET", "/api/v1/notifications?sort=priority&order=desc", nil, "reader").List()
		if byPriority[0]["priority"] != "urgent" || byPriority[1]["priority"] != "high" || byPriority[4]["priority"] != "low" {
			t.Errorf("sorted %v", httpxtest.IDs(byPriority))
		}
		if l := h.Must(http.StatusOK, "GET", "/api/v1/notifications?recipient=bob@example.com&status=pending", nil, "reader").List(); len(l) != 1 {
			t.Errorf("recipient filter %v", l)
		}
		if l := h.Must(http.StatusOK, "GET", "/api/v1/notifications?created_after=2999-01-01", nil, "reader").List(); len(l) != 0 {
			t.Errorf("created_after %v", l)
		}
		if l := h.Must(http.StatusOK, "GET", "/api/v1/notifications?per_page=2&page=2", nil, "reader"); len(l.List()) != 2 ||
			l.Pagination()["has_next"] != true {
			t.Errorf("page 2 %v", l.Body)
		}
		for _, q := range []string{"channel=fax", "status=lost", "sort=name", "order=up", "created_before=yesterday", "priority=x"} {
			h.Must(http.StatusBadRequest, "GET", "/api/v1/notifications?"+q, nil, "reader")
		}
		// Linked to customer1: the email to their address, the in_app message to their
		// id and the welcome; to customer2: the email to theirs.
		mine := h.Must(http.StatusOK, "GET", "/api/v1/notifications?sort=created_at&order=asc", nil, "customer").List()
		if len(mine) != 3 || mine[0]["recipient"] != "ada@example.com" || mine[1]["channel"] != "in_app" ||
			mine[2]["template_id"] != "welcome_html" || mine[2]["customer_id"] != customer1 {
			t.Fatalf("customer's list %v", mine)
		}
		h.Must(http.StatusOK, "GET", "/api/v1/notifications/"+mine[1]["id"].(string), nil, "customer")
		httpxtest.AssertError(t, h.Do("GET", "/api/v1/notifications/"+mine[1]["id"].(string), nil, "customer2"),
			http.StatusNotFound, "NOTIFICATION_NOT_FOUND", "not_found")
		if l := h.Must(http.StatusOK, "GET", "/api/v1/notifications", nil, "customer2").List(); len(l) != 1 || l[0]["recipient"] != "bob@example.com" {
			t.Errorf("customer2 sees %v", l)
		}
	})
}

// The database is the source of truth: a notification whose send task was lost (a
// restart of the in-process runner) is sent by the due sweep, the most urgent first.
func TestDueSweepSendsLostTasksMostUrgentFirst(t *testing.T) {
	t.Parallel()
	eachEngine(t, options{noRunner: true, concurrency: 1}, func(t *testing.T, h *harness) {
		for _, p := range []string{"low", "normal", "urgent", "high"} {
			h.Must(http.StatusCreated, "POST", "/api/v1/notifications", emailBody(map[string]any{"priority": p, "subject": p}), "writer")
		}
		if len(h.smtp.Messages()) != 0 {
			t.Fatal("sent without a runner")
		}
		if err := h.jobs.SendDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, m := range h.smtp.Wait(t, 4, 5*time.Second) {
			order = append(order, m.Subject())
		}
		if strings.Join(order, ",") != "urgent,high,normal,low" {
			t.Errorf("sent in order %v", order)
		}
		if err := h.jobs.SendDue(t.Context()); err != nil || len(h.smtp.Messages()) != 4 {
			t.Errorf("a second sweep sent again: %v %d", err, len(h.smtp.Messages()))
		}
	})
}
