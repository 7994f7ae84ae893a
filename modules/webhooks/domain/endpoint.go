// Package domain holds the webhooks rules: endpoints (URL, subscribed event types,
// secret, enabled), the address policy that keeps deliveries off private networks,
// deliveries with their retry schedule, and the signature scheme. Plain Go.
package domain

import (
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/commerce/platform/patch"
)

// AllEvents subscribes an endpoint to every event type.
const AllEvents = "*"

// Endpoint is an outbound webhook endpoint.
type Endpoint struct {
	ID          string
	URL         string
	Description string
	Events      []string // event types, or ["*"]
	Secret      string
	Enabled     bool
	// FailureStreak counts the consecutive failed attempts (reset by a success).
	FailureStreak  int
	DisabledAt     *time.Time
	DisabledReason string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Wants reports whether the endpoint is subscribed to events of the type.
func (e *Endpoint) Wants(eventType string) bool {
	return slices.Contains(e.Events, AllEvents) || slices.Contains(e.Events, eventType)
}

// EndpointInput is a create or PATCH body, member by member.
type EndpointInput struct {
	URL         patch.Field[string]
	Description patch.Field[string]
	Events      patch.Field[[]string]
	Secret      patch.Field[string]
	Enabled     patch.Field[bool]
}

// Limits of an endpoint's fields.
const (
	MaxURLLength    = 2048
	MinSecretLength = 16
	MaxSecretLength = 256
	MaxEventTypes   = 100
)

var eventType = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$`)

// NewEndpoint builds an endpoint from a create body: url and events are required, a
// missing secret is generated, enabled defaults to true. The URL's address is checked
// by the caller (Policy.CheckURL), which may need the network.
func NewEndpoint(id string, in EndpointInput, now time.Time) (*Endpoint, error) {
	e := &Endpoint{ID: id, Enabled: true, CreatedAt: now, UpdatedAt: now}
	bad := patch.Problems{}
	if !in.URL.HasValue() {
		bad.Add("url", "is required")
	}
	if !in.Events.HasValue() {
		bad.Add("events", "is required")
	}
	if !in.Secret.HasValue() {
		e.Secret = NewSecret()
	}
	if err := e.apply(bad, in); err != nil {
		return nil, err
	}
	return e, nil
}

// Update applies a PATCH body; enabling a disabled endpoint clears its failure streak.
func (e *Endpoint) Update(in EndpointInput, now time.Time) error {
	was := e.Enabled
	if err := e.apply(patch.Problems{}, in); err != nil {
		return err
	}
	if e.Enabled && !was {
		e.FailureStreak, e.DisabledAt, e.DisabledReason = 0, nil, ""
	}
	if !e.Enabled && was {
		e.DisabledAt, e.DisabledReason = &now, "disabled by a user"
	}
	e.UpdatedAt = now
	return nil
}

func (e *Endpoint) apply(bad patch.Problems, in EndpointInput) error {
	next := *e
	patch.Apply(bad, "url", in.URL, &next.URL, CheckURLSyntax)
	patch.Text{Max: 1000}.Apply(bad, "description", in.Description, &next.Description)
	patch.Apply(bad, "events", in.Events, &next.Events, CheckEvents)
	patch.Apply(bad, "secret", in.Secret, &next.Secret, func(s string) (string, string) {
		if len(s) < MinSecretLength || len(s) > MaxSecretLength {
			return s, "must be 16 to 256 characters"
		}
		return s, ""
	})
	patch.Copy(bad, "enabled", in.Enabled, &next.Enabled)
	if err := bad.Err(); err != nil {
		return err
	}
	*e = next
	return nil
}

// CheckURLSyntax accepts an absolute http or https URL with a host and no credentials.
func CheckURLSyntax(s string) (string, string) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > MaxURLLength {
		return s, "must be an http or https URL of at most 2048 characters"
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return s, "must be an absolute http or https URL"
	}
	if u.User != nil {
		return s, "must not carry credentials"
	}
	if u.Fragment != "" {
		return s, "must not have a fragment"
	}
	return s, ""
}

// CheckEvents accepts a non-empty list of event types ("cart.created") or "*"; duplicates
// are dropped and "*" stands alone.
func CheckEvents(list []string) ([]string, string) {
	if len(list) == 0 {
		return list, "must name at least one event type, or \"*\" for all"
	}
	if len(list) > MaxEventTypes {
		return list, "must name at most 100 event types"
	}
	out := make([]string, 0, len(list))
	for _, t := range list {
		t = strings.TrimSpace(t)
		if t == AllEvents {
			return []string{AllEvents}, ""
		}
		if !eventType.MatchString(t) || len(t) > 100 {
			return list, "must be event types such as \"order.created\", or \"*\""
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, ""
}

// NewSecret is a fresh signing secret: "whsec_" and 32 random bytes in hex.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return "whsec_" + hex.EncodeToString(b)
}

// DisabledReason is the reason recorded on an endpoint disabled after n consecutive
// failed attempts.
func DisabledReason(n int) string {
	return "disabled after " + strconv.Itoa(n) + " consecutive failed delivery attempts"
}
