// Package api is what other modules (and cmd) may import from notifications: the
// notification and template resources (the HTTP shapes), the Notifications interface
// other modules send through, and Queries, the query side customers' data export
// reads. No framework imports.
package api

import (
	"context"
	"time"
)

// Attempt is one delivery attempt of a notification.
type Attempt struct {
	Channel     string    `json:"channel"`
	AttemptedAt time.Time `json:"attempted_at"`
	Status      string    `json:"status"`
	Error       *string   `json:"error"`
}

// Notification is the notification resource (Part 2 "Notification"). Attempts and
// Template are present only when included.
type Notification struct {
	ID           string         `json:"id"`
	Channel      string         `json:"channel"`
	Recipient    string         `json:"recipient"`
	Subject      string         `json:"subject"`
	Body         string         `json:"body"`
	HTMLBody     string         `json:"html_body"`
	Priority     string         `json:"priority"`
	Status       string         `json:"status"`
	AttemptCount int            `json:"attempt_count"`
	MaxAttempts  int            `json:"max_attempts"`
	ErrorMessage *string        `json:"error_message"`
	Metadata     map[string]any `json:"metadata"`
	TemplateID   *string        `json:"template_id"`
	CustomerID   *string        `json:"customer_id"`
	BatchID      *string        `json:"batch_id"`
	ScheduledAt  *time.Time     `json:"scheduled_at"`
	NextRetryAt  *time.Time     `json:"next_retry_at"`
	SentAt       *time.Time     `json:"sent_at"`
	DeliveredAt  *time.Time     `json:"delivered_at"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
	Attempts     *[]Attempt     `json:"attempts,omitempty"`
	Template     *Template      `json:"template,omitempty"`
}

// Template is the template resource.
type Template struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Channel   string    `json:"channel"`
	Category  string    `json:"category"`
	Subject   string    `json:"subject"`
	Body      string    `json:"body"`
	HTMLBody  string    `json:"html_body"`
	Variables []string  `json:"variables"`
	HasHTML   bool      `json:"has_html"`
	IsSystem  bool      `json:"is_system"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Message is a notification another module asks for: a template with variables, or a
// subject and body of its own.
type Message struct {
	Channel    string
	Recipient  string
	CustomerID string
	TemplateID string
	Variables  map[string]any
	Subject    string
	Body       string
	Priority   string
	Metadata   map[string]any
	// Marketing messages go only to customers who accept marketing.
	Marketing bool
}

// Notifications is what the notifications module offers other modules (subscriptions
// and dunning will send through it).
type Notifications interface {
	// Send stores the message as a pending notification and queues its delivery.
	Send(ctx context.Context, m Message) (Notification, error)
}

// Queries is the query side: it depends on no other module (customers reads it for
// its data export; docs/decisions/0108).
type Queries interface {
	// ExportNotifications returns every notification sent to the customer, newest first.
	ExportNotifications(ctx context.Context, customerID string) ([]Notification, error)
}
