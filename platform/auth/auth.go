// Package auth holds the authenticated principal, scope rules and the authenticator
// port (implemented by the identity module). No framework imports.
package auth

import (
	"context"
	"strings"
)

// Kind is the kind of client.
type Kind string

const (
	Anonymous Kind = "anonymous"
	Customer  Kind = "customer"
	Staff     Kind = "staff"
	APIKey    Kind = "api_key"
)

// Principal is who is calling.
type Principal struct {
	Kind   Kind
	ID     string // customer id, staff user id or API key id
	Email  string
	Scopes []string
	// KeyPrefix is set for API keys (their public identifier).
	KeyPrefix string
	// RateLimitMultiplier scales default limits (API keys); 0 means 1.
	RateLimitMultiplier float64
}

// ClientID identifies the client for rate limiting and logs.
func (p *Principal) ClientID() string {
	if p == nil {
		return ""
	}
	switch p.Kind {
	case APIKey:
		return "key:" + p.KeyPrefix
	case Customer:
		return "customer:" + p.ID
	case Staff:
		return "staff:" + p.ID
	default:
		return ""
	}
}

// IsAdmin reports full control.
func (p *Principal) IsAdmin() bool { return p != nil && HasScope(p.Scopes, "admin") }

// Can reports whether the principal holds scope.
func (p *Principal) Can(scope string) bool { return p != nil && HasScope(p.Scopes, scope) }

// IsCustomer reports a customer token.
func (p *Principal) IsCustomer() bool { return p != nil && p.Kind == Customer }

// CustomerID is the customer's id for a customer token, "" for any other principal.
func (p *Principal) CustomerID() string {
	if !p.IsCustomer() {
		return ""
	}
	return p.ID
}

// Authenticator turns a credential (JWT or API key, without "Bearer ") into a principal.
type Authenticator interface {
	Authenticate(ctx context.Context, credential, remoteIP string) (*Principal, error)
}

type ctxKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// FromContext returns the principal, or nil for anonymous callers.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(ctxKey{}).(*Principal)
	return p
}

var levels = map[string]int{"read": 1, "write": 2, "admin": 3}

// HasScope reports whether granted satisfies required ("resource:action" or a bare
// wildcard). Levels: read < write < admin; "admin" and "<resource>:admin" are full
// control of everything / of the resource; bare "read" and "write" are wildcards
// over every resource.
func HasScope(granted []string, required string) bool {
	reqRes, reqAct, ok := strings.Cut(required, ":")
	if !ok { // bare wildcard required: "admin", "read", "write"
		reqRes, reqAct = "*", required
	}
	need, known := levels[reqAct]
	if !known {
		return false
	}
	for _, g := range granted {
		res, act, ok := strings.Cut(g, ":")
		if !ok {
			res, act = "*", g
		}
		have, known := levels[act]
		if !known {
			continue
		}
		if res != "*" && res != reqRes {
			continue
		}
		if act == "admin" && res == "*" {
			return true
		}
		if have >= need {
			return true
		}
	}
	return false
}

// ValidScope reports whether s is a well-formed scope.
func ValidScope(s string) bool {
	res, act, ok := strings.Cut(s, ":")
	if !ok {
		_, known := levels[s]
		return known
	}
	if _, known := levels[act]; !known || res == "" {
		return false
	}
	for _, r := range res {
		if (r < 'a' || r > 'z') && r != '_' {
			return false
		}
	}
	return true
}
