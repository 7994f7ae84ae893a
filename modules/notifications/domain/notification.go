// Package domain holds the notification and template rules: channels, priorities,
// statuses and their moves, the retry schedule, validation with the module's codes,
// and template rendering ({{ name }} placeholders, by the mustache library). Plain Go.
package domain

import (
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/email"
)

// Channels.
const (
	ChannelEmail   = "email"
	ChannelSMS     = "sms"
	ChannelPush    = "push"
	ChannelWebhook = "webhook"
	ChannelInApp   = "in_app"
)

// Channels lists every channel.
var Channels = []string{ChannelEmail, ChannelSMS, ChannelPush, ChannelWebhook, ChannelInApp}

// Priorities, lowest first.
const (
	PriorityLow    = "low"
	PriorityNormal = "normal"
	PriorityHigh   = "high"
	PriorityUrgent = "urgent"
)

// Priorities lists every priority, lowest first.
var Priorities = []string{PriorityLow, PriorityNormal, PriorityHigh, PriorityUrgent}

// PriorityRank orders priorities (urgent 3 .. low 0; unknown -1).
func PriorityRank(p string) int {
	for i, q := range Priorities {
		if q == p {
			return i
		}
	}
	return -1
}

// Statuses.
const (
	StatusPending   = "pending"
	StatusSent      = "sent"
	StatusDelivered = "delivered"
	StatusFailed    = "failed"
	StatusBounced   = "bounced"
	StatusCancelled = "cancelled"
)

// Statuses lists every status.
var Statuses = []string{StatusPending, StatusSent, StatusDelivered, StatusFailed, StatusBounced, StatusCancelled}

// Valid reports whether v is one of set.
func Valid(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// Limits.
const (
	MaxSubject    = 998 // RFC 5322 line limit
	MaxBody       = 100_000
	MaxRecipients = 10_000 // one bulk request
	MaxRecipient  = 2048
)

// Notification is one message on one channel to one recipient.
type Notification struct {
	ID                string
	Channel           string
	Recipient         string
	Subject           string
	Body              string
	HTMLBody          string
	Priority          string
	Status            string
	AttemptCount      int
	MaxAttempts       int
	ErrorMessage      string
	Metadata          map[string]any
	TemplateID        string
	CustomerID        string // the customer it was sent to ("" when none is known)
	BatchID           string
	ProviderMessageID string
	DedupeKey         string // the store's own messages: one per event and message
	ScheduledAt       *time.Time
	NextAttemptAt     *time.Time // when it is due (scheduled_at, or the automatic retry)
	SentAt            *time.Time
	DeliveredAt       *time.Time
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Attempt is one delivery attempt.
type Attempt struct {
	ID             string
	NotificationID string
	Channel        string
	AttemptedAt    time.Time
	Status         string // sent or failed
	Error          string
}

var phoneRE = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// NormalizeRecipient checks a recipient for its channel: an email address, an E.164
// phone number (sms), a device token (push), an http(s) URL (webhook) or a user id
// (in_app). The problem is "" when it is good.
func NormalizeRecipient(channel, r string) (string, string) {
	r = strings.TrimSpace(r)
	if r == "" {
		return r, "is required"
	}
	if len(r) > MaxRecipient {
		return r, "is too long"
	}
	switch channel {
	case ChannelEmail:
		e, ok := email.Normalize(r)
		if !ok {
			return r, "must be an email address"
		}
		return e, ""
	case ChannelSMS:
		p := strings.NewReplacer(" ", "", "-", "", "(", "", ")", "").Replace(r)
		if !phoneRE.MatchString(p) {
			return r, "must be a phone number in E.164 form (+15550100)"
		}
		return p, ""
	case ChannelWebhook:
		u, err := url.Parse(r)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return r, "must be an http or https URL"
		}
		return r, ""
	}
	return r, ""
}

// Due reports whether the notification waits for a send at now: pending and not
// scheduled later, or failed with an automatic retry due.
func (n *Notification) Due(now time.Time) bool {
	switch n.Status {
	case StatusPending:
		return n.NextAttemptAt == nil || !n.NextAttemptAt.After(now)
	case StatusFailed:
		return n.NextAttemptAt != nil && !n.NextAttemptAt.After(now) && n.AttemptCount < n.MaxAttempts
	}
	return false
}

// Failed records a failed attempt (CONTRACT §7): status failed with the error at
// once, and while attempt_count < max_attempts the automatic retry after
// backoff[attempt_count-1] (the last step repeats).
func (n *Notification) Failed(now time.Time, msg string, backoff []time.Duration) {
	n.Status, n.ErrorMessage, n.UpdatedAt, n.NextAttemptAt = StatusFailed, msg, now, nil
	if n.AttemptCount < n.MaxAttempts && len(backoff) > 0 {
		d := backoff[min(n.AttemptCount, len(backoff))-1]
		at := now.Add(d)
		n.NextAttemptAt = &at
	}
}

// Sent records a successful attempt.
func (n *Notification) Sent(now time.Time, providerID string) {
	n.Status, n.ErrorMessage, n.UpdatedAt, n.NextAttemptAt, n.SentAt = StatusSent, "", now, nil, &now
	if providerID != "" {
		n.ProviderMessageID = providerID
	}
	if n.Channel == ChannelInApp {
		n.Status, n.DeliveredAt = StatusDelivered, &now
	}
}

// Retry moves a failed notification to pending now (POST /retry). The attempt budget
// grows by one when it is spent, so the manual retry always gets its attempt.
func (n *Notification) Retry(now time.Time) error {
	if n.Status != StatusFailed {
		return ErrInvalidTransition.WithMessage("Only a failed notification can be retried (status %s)", n.Status)
	}
	n.Status, n.NextAttemptAt, n.UpdatedAt = StatusPending, nil, now
	if n.AttemptCount >= n.MaxAttempts {
		n.MaxAttempts = n.AttemptCount + 1
	}
	return nil
}

// Cancel stops a notification that has not been sent: pending (scheduled or not) or
// failed with a retry still to come.
func (n *Notification) Cancel(now time.Time) error {
	if n.Status != StatusPending && n.Status != StatusFailed {
		return ErrInvalidTransition.WithMessage("Only a notification not yet sent can be cancelled (status %s)", n.Status)
	}
	n.Status, n.NextAttemptAt, n.UpdatedAt = StatusCancelled, nil, now
	return nil
}

// Delivery statuses the inbound webhook reports.
var deliveryMoves = map[string][]string{
	StatusDelivered: {StatusSent, StatusPending, StatusFailed},
	StatusBounced:   {StatusSent, StatusDelivered, StatusPending},
	StatusFailed:    {StatusSent, StatusPending},
	StatusSent:      {StatusPending},
}

// DeliveryStatus applies a provider's report. A report that would move backwards
// (sent after delivered) is ignored: changed is false.
func (n *Notification) DeliveryStatus(now time.Time, status, errMsg string) (changed bool) {
	if !Valid(deliveryMoves[status], n.Status) {
		return false
	}
	n.Status, n.UpdatedAt = status, now
	switch status {
	case StatusDelivered:
		n.DeliveredAt = &now
	case StatusBounced, StatusFailed:
		n.ErrorMessage = errMsg
		n.NextAttemptAt = nil
	}
	return true
}

// Problems collects field problems.
type Problems map[string]string

// Err is nil without problems, else a validation error naming the fields.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return apperr.Validation(p)
}
