// Package api is what the webhooks module offers: the resources of its endpoints and
// deliveries and its event. Other modules need nothing from it: webhooks reacts to
// every module's events through the bus.
package api

import "time"

// EventEndpointDisabled is published when an endpoint is disabled after its streak of
// failed attempts (webhooks.disable_after); the data is the endpoint (no secret).
const EventEndpointDisabled = "webhook_endpoint.disabled"

// Endpoint is an outbound webhook endpoint. Secret is set only in the answer to its
// creation.
type Endpoint struct {
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	Description    string     `json:"description"`
	Events         []string   `json:"events"`
	Enabled        bool       `json:"enabled"`
	Secret         string     `json:"secret,omitempty"`
	FailureCount   int        `json:"failure_count"`
	DisabledAt     *time.Time `json:"disabled_at"`
	DisabledReason *string    `json:"disabled_reason"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

// Delivery is one event sent to one endpoint, with its attempts, oldest first.
type Delivery struct {
	ID             string     `json:"id"`
	EndpointID     string     `json:"endpoint_id"`
	EventID        string     `json:"event_id"`
	EventType      string     `json:"event_type"`
	Status         string     `json:"status"` // pending, succeeded, failed
	AttemptCount   int        `json:"attempt_count"`
	NextAttemptAt  *time.Time `json:"next_attempt_at"`
	LastStatusCode *int       `json:"last_status_code"`
	LastError      *string    `json:"last_error"`
	RedeliveryOf   *string    `json:"redelivery_of"`
	Attempts       []Attempt  `json:"attempts"`
	CreatedAt      time.Time  `json:"created_at"`
	CompletedAt    *time.Time `json:"completed_at"`
}

// Attempt is one request of a delivery: the answer's status (null without one), how
// long it took, the start of the answer's body and the error.
type Attempt struct {
	Attempt      int       `json:"attempt"`
	StatusCode   *int      `json:"status_code"`
	DurationMS   int64     `json:"duration_ms"`
	ResponseBody string    `json:"response_body"`
	Error        *string   `json:"error"`
	CreatedAt    time.Time `json:"created_at"`
}
