package app

import (
	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/clock"
)

// ToEndpoint is an endpoint's resource; the secret only when asked (its creation).
func ToEndpoint(e *domain.Endpoint, withSecret bool) api.Endpoint {
	out := api.Endpoint{ID: e.ID, URL: e.URL, Description: e.Description, Events: append([]string{}, e.Events...), Enabled: e.Enabled,
		FailureCount: e.FailureStreak, DisabledAt: clock.UTCPtr(e.DisabledAt), CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()}
	if withSecret {
		out.Secret = e.Secret
	}
	if e.DisabledReason != "" {
		r := e.DisabledReason
		out.DisabledReason = &r
	}
	return out
}

// ToDelivery is a delivery's resource with its attempts.
func ToDelivery(d *domain.Delivery, attempts []domain.Attempt) api.Delivery {
	out := api.Delivery{ID: d.ID, EndpointID: d.EndpointID, EventID: d.EventID, EventType: d.EventType, Status: d.Status,
		AttemptCount: d.Attempts, NextAttemptAt: clock.UTCPtr(d.NextAttemptAt), LastStatusCode: nonZero(d.LastStatusCode),
		LastError: nonEmpty(d.LastError), RedeliveryOf: nonEmpty(d.RedeliveryOf), Attempts: make([]api.Attempt, len(attempts)),
		CreatedAt: d.CreatedAt.UTC(), CompletedAt: clock.UTCPtr(d.CompletedAt)}
	if d.Status != domain.StatusPending {
		out.NextAttemptAt = nil
	}
	for i, a := range attempts {
		out.Attempts[i] = api.Attempt{Attempt: a.Number, StatusCode: nonZero(a.StatusCode), DurationMS: a.Duration.Milliseconds(),
			ResponseBody: a.ResponseBody, Error: nonEmpty(a.Error), CreatedAt: a.CreatedAt.UTC()}
	}
	return out
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
