package domain

import (
	"math/rand/v2"
	"time"

	"github.com/gocommerce/commerce/platform/signature"
)

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

// Delivery is one event sent to one endpoint, attempted until it succeeds or its
// retries run out. A redelivery is a new delivery of the same event (same event id
// and body).
type Delivery struct {
	ID             string
	EndpointID     string
	EventID        string
	EventType      string
	Payload        []byte // the body, as signed and sent
	Status         string
	Attempts       int
	NextAttemptAt  *time.Time
	LastStatusCode int
	LastError      string
	RedeliveryOf   string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	CompletedAt    *time.Time
}

// Attempt is one HTTP request of a delivery and its outcome.
type Attempt struct {
	ID           string
	DeliveryID   string
	EndpointID   string
	Number       int
	StatusCode   int // 0: no answer
	Duration     time.Duration
	ResponseBody string // an excerpt
	Error        string
	CreatedAt    time.Time
}

// Succeeded reports a 2xx answer.
func (a Attempt) Succeeded() bool { return a.Error == "" && a.StatusCode >= 200 && a.StatusCode < 300 }

// Retry is the schedule of failed attempts: at most MaxRetries after the first, the
// n-th waiting Base×2^(n-1) (at most Max) with jitter: a random half of it added to
// the other half, so receivers that failed together do not retry together.
type Retry struct {
	MaxRetries int
	Base, Max  time.Duration
}

// Delay is the wait before retry n (1 for the first).
func (r Retry) Delay(n int) time.Duration {
	d := r.Base << min(max(n-1, 0), 30)
	if d > r.Max || d <= 0 {
		d = r.Max
	}
	half := d / 2
	return half + rand.N(half+1) // #nosec G404 -- jitter needs no cryptographic randomness
}

// Record applies an attempt's outcome: a success completes the delivery; a failure
// schedules a retry, or fails it once the retries are spent. It reports whether the
// delivery is finished.
func (d *Delivery) Record(a Attempt, r Retry, now time.Time) bool {
	d.Attempts = a.Number
	d.LastStatusCode, d.LastError, d.UpdatedAt = a.StatusCode, a.Error, now
	if a.Succeeded() {
		d.Status, d.NextAttemptAt, d.CompletedAt = StatusSucceeded, nil, &now
		return true
	}
	if a.Number > r.MaxRetries {
		d.Status, d.NextAttemptAt, d.CompletedAt = StatusFailed, nil, &now
		return true
	}
	next := now.Add(r.Delay(a.Number))
	d.NextAttemptAt = &next
	return false
}

// SignatureHeader carries the delivery's signature.
const SignatureHeader = signature.Header

// Sign is the signature header's value: t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<body>" keyed with the endpoint's secret> (platform/signature).
func Sign(secret string, at time.Time, body []byte) string { return signature.Sign(secret, at, body) }
