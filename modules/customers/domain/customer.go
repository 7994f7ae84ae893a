// Package domain holds the customer entity and its rules. Plain Go.
package domain

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// CustomerID identifies a customer (a UUID).
type CustomerID string

// State is a customer's account state.
type State string

// Customer states.
const (
	StateEnabled  State = "enabled"
	StateDisabled State = "disabled"
	StateInvited  State = "invited"
	StateDeclined State = "declined"
)

// Valid reports whether s is a known state.
func (s State) Valid() bool {
	switch s {
	case StateEnabled, StateDisabled, StateInvited, StateDeclined:
		return true
	}
	return false
}

// MaxEmailLength is the longest accepted email address (RFC 5321 path limit).
const MaxEmailLength = 254

// MaxNameLength is the longest accepted first or last name, in characters.
const MaxNameLength = 255

// Customer is a customer profile.
type Customer struct {
	ID        CustomerID
	Email     string // lower case
	FirstName string
	LastName  string
	State     State
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NormalizeEmail trims and lower-cases an email address and checks it: a single
// addr-spec (no display name) accepted by net/mail, at most 254 characters, with a
// dot in the domain.
func NormalizeEmail(s string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(s))
	if e == "" || len(e) > MaxEmailLength {
		return "", ErrInvalidEmail
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return "", ErrInvalidEmail
	}
	at := strings.LastIndexByte(e, '@')
	domain := e[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", ErrInvalidEmail
	}
	return e, nil
}

// NewCustomer validates the input and builds a customer. An empty state means enabled.
func NewCustomer(id CustomerID, email, firstName, lastName string, state State, now time.Time) (*Customer, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if state == "" {
		state = StateEnabled
	}
	if !state.Valid() {
		return nil, ErrInvalidState
	}
	firstName, lastName = strings.TrimSpace(firstName), strings.TrimSpace(lastName)
	fields := map[string]string{}
	if utf8.RuneCountInString(firstName) > MaxNameLength {
		fields["first_name"] = "must be at most 255 characters"
	}
	if utf8.RuneCountInString(lastName) > MaxNameLength {
		fields["last_name"] = "must be at most 255 characters"
	}
	if len(fields) > 0 {
		return nil, apperr.Validation(fields)
	}
	return &Customer{ID: id, Email: e, FirstName: firstName, LastName: lastName, State: state, CreatedAt: now, UpdatedAt: now}, nil
}

// CanSignIn reports whether the customer may log in (only enabled customers may).
func (c *Customer) CanSignIn() bool { return c.State == StateEnabled }
