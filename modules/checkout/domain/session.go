// Package domain holds checkout's entities and rules: the checkout session of a cart
// (address, rates, chosen rate, totals, the attempt in flight), its states, and the
// totals arithmetic. Plain Go: no framework, no tags.
package domain

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Status is a checkout session's state.
type Status string

// Session states (docs/decisions/0170): open (initiated, or back after a failed
// attempt), processing (a complete holds it), awaiting_payment (the order exists,
// pending a 3D Secure or redirect payment), completed (paid; the cart is converted).
const (
	StatusOpen            Status = "open"
	StatusProcessing      Status = "processing"
	StatusAwaitingPayment Status = "awaiting_payment"
	StatusCompleted       Status = "completed"
)

// Address is a postal address (shipping or billing).
type Address struct {
	FirstName, LastName, Company, Phone string
	Address1, Address2, City            string
	RegionCode, PostalCode, CountryCode string
}

// Rate is a shipping rate offered for the session's destination.
type Rate struct {
	ID, Carrier, Name, Code string
	Price                   decimal.Decimal
	Currency                string
	EstimatedDays           int
}

// Method is the rate's shipping method code as a cart names it: its service code,
// else its id.
func (r Rate) Method() string {
	if r.Code != "" {
		return r.Code
	}
	return r.ID
}

// CouponUse is a coupon of the cart as the attempt recorded its use.
type CouponUse struct {
	Code     string
	CouponID string
	Amount   decimal.Decimal
}

// Action is the customer action a pending payment waits for.
type Action struct {
	Type      string
	Data      map[string]any
	ExpiresAt time.Time
}

// Session is the checkout of one cart.
type Session struct {
	ID              string
	CartID          string
	CustomerID      string
	Email           string
	Currency        string
	Status          Status
	ShippingAddress *Address
	BillingAddress  *Address
	VATID           string
	Rates           []Rate
	Rate            *Rate // the chosen rate
	Totals          Totals
	// The attempt: its order id (named before the order exists), payment,
	// reservations and coupon uses; HoldExpiresAt is when the reservations lapse.
	Attempt       int
	OrderID       string
	OrderNumber   string
	PaymentID     string
	Action        *Action
	Reservations  []string
	Coupons       []CouponUse
	HoldExpiresAt *time.Time
	Version       int
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// FindRate returns the offered rate with the id (or code), if any.
func (s *Session) FindRate(id string) (Rate, bool) {
	for _, r := range s.Rates {
		if r.ID == id || (r.Code != "" && strings.EqualFold(r.Code, id)) {
			return r, true
		}
	}
	return Rate{}, false
}

// Cheapest is the cheapest offered rate (the default when none was chosen).
func (s *Session) Cheapest() *Rate {
	var best *Rate
	for i := range s.Rates {
		if best == nil || s.Rates[i].Price.LessThan(best.Price) {
			best = &s.Rates[i]
		}
	}
	return best
}

// Reset ends a failed or expired attempt: the session is open again.
func (s *Session) Reset(now time.Time) {
	s.Status, s.OrderID, s.OrderNumber, s.PaymentID, s.Action = StatusOpen, "", "", "", nil
	s.Reservations, s.Coupons, s.HoldExpiresAt, s.UpdatedAt = nil, nil, nil, now
}
