package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

var t0 = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// CONTRACT §7: failed at once; while attempt_count < max_attempts the retry is
// scheduled after retry_backoff[attempt-1] (the last step repeats).
func TestFailedSchedulesRetriesWithTheBackoff(t *testing.T) {
	t.Parallel()
	backoff := []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute}
	n := &domain.Notification{Status: domain.StatusPending, MaxAttempts: 5}
	want := []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, 10 * time.Minute}
	for i, d := range want {
		n.AttemptCount = i + 1
		n.Failed(t0, "boom", backoff)
		if n.Status != domain.StatusFailed || n.ErrorMessage != "boom" || n.NextAttemptAt == nil || !n.NextAttemptAt.Equal(t0.Add(d)) {
			t.Fatalf("attempt %d: %+v", i+1, n)
		}
		if n.Due(t0) || !n.Due(t0.Add(d)) {
			t.Errorf("attempt %d: due before its time or not after", i+1)
		}
	}
	n.AttemptCount = 5
	n.Failed(t0, "boom", backoff)
	if n.NextAttemptAt != nil || n.Due(t0.Add(time.Hour)) {
		t.Errorf("budget spent but a retry is scheduled: %+v", n)
	}
	if err := n.Retry(t0); err != nil || n.Status != domain.StatusPending || n.MaxAttempts != 6 || !n.Due(t0) {
		t.Errorf("retry %v %+v", err, n)
	}
	if err := n.Retry(t0); !errors.Is(err, domain.ErrInvalidTransition) {
		t.Errorf("retry of pending: %v", err)
	}
}

func TestTransitions(t *testing.T) {
	t.Parallel()
	at := t0.Add(time.Hour)
	n := &domain.Notification{Channel: domain.ChannelEmail, Status: domain.StatusPending, NextAttemptAt: &at, MaxAttempts: 3}
	if n.Due(t0) || !n.Due(at) {
		t.Error("scheduled notification due at the wrong time")
	}
	if err := n.Cancel(t0); err != nil || n.Status != domain.StatusCancelled {
		t.Fatal(err)
	}
	if err := n.Cancel(t0); !errors.Is(err, domain.ErrInvalidTransition) {
		t.Error("cancelled twice")
	}
	s := &domain.Notification{Channel: domain.ChannelEmail, Status: domain.StatusPending}
	s.Sent(t0, "<id@x>")
	if s.Status != domain.StatusSent || s.ProviderMessageID != "<id@x>" || s.SentAt == nil {
		t.Errorf("sent %+v", s)
	}
	if !s.DeliveryStatus(t0, domain.StatusDelivered, "") || s.DeliveredAt == nil {
		t.Error("delivered refused")
	}
	if s.DeliveryStatus(t0, domain.StatusSent, "") || s.Status != domain.StatusDelivered {
		t.Error("a late sent moved delivered back")
	}
	if !s.DeliveryStatus(t0, domain.StatusBounced, "full") || s.ErrorMessage != "full" {
		t.Error("bounce after delivery refused")
	}
	in := &domain.Notification{Channel: domain.ChannelInApp, Status: domain.StatusPending}
	in.Sent(t0, "")
	if in.Status != domain.StatusDelivered {
		t.Errorf("in_app is delivered once stored and sent: %s", in.Status)
	}
}

func TestRecipients(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ channel, in, want, problem string }{
		{"email", " Ada@Example.COM ", "ada@example.com", ""},
		{"email", "ada", "", "must be an email address"},
		{"sms", "+1 (555) 010-0123", "+15550100123", ""},
		{"sms", "5550100", "", "E.164"},
		{"webhook", "https://hooks.example/x", "https://hooks.example/x", ""},
		{"webhook", "javascript:alert(1)", "", "http or https"},
		{"push", "fcm-token", "fcm-token", ""},
		{"in_app", "", "", "is required"},
	} {
		got, problem := domain.NormalizeRecipient(c.channel, c.in)
		if (c.problem == "" && (problem != "" || got != c.want)) || (c.problem != "" && !strings.Contains(problem, c.problem)) {
			t.Errorf("%s %q: %q %q", c.channel, c.in, got, problem)
		}
	}
}

func TestRender(t *testing.T) {
	t.Parallel()
	r, err := domain.Render("Order {{ order.number }}", "Hi {{ name }}: {{#items}}{{ title }};{{/items}} {{ missing }}",
		"<p>{{ name }}</p>", map[string]any{"order": map[string]any{"number": "1001"}, "name": `<a href="x">`,
			"items": []any{map[string]any{"title": "A & B"}, map[string]any{"title": "C"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Order 1001" || r.Body != `Hi <a href="x">: A & B;C; ` || r.HTMLBody != "<p>&lt;a href=&#34;x&#34;&gt;</p>" ||
		strings.Join(r.Missing, ",") != "missing" {
		t.Errorf("rendered %+v", r)
	}
	if _, err := domain.Render("{{#open}}", "", "", nil); !errors.Is(err, domain.ErrInvalidTemplate) {
		t.Errorf("unclosed section: %v", err)
	}
	if got := domain.Placeholders("{{ a }} {{ b.c }}", "{{ a }}"); strings.Join(got, ",") != "a,b.c" {
		t.Errorf("placeholders %v", got)
	}
}
