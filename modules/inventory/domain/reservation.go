package domain

import (
	"slices"
	"time"
)

// ReservationStatus is the state of a reservation.
type ReservationStatus string

// Reservation states.
const (
	ReservationActive   ReservationStatus = "active"
	ReservationReleased ReservationStatus = "released"
)

// ReleaseReason says why a reservation was released.
type ReleaseReason string

// Release reasons.
const (
	ReleaseOrderCancelled ReleaseReason = "order_cancelled"
	ReleaseOrderExpired   ReleaseReason = "order_expired"
	ReleaseManual         ReleaseReason = "manual_release"
	ReleaseOrderCompleted ReleaseReason = "order_completed"
)

// Valid reports whether r is one of the spec's release reasons.
func (r ReleaseReason) Valid() bool {
	return slices.Contains([]ReleaseReason{ReleaseOrderCancelled, ReleaseOrderExpired, ReleaseManual, ReleaseOrderCompleted}, r)
}

// Commits reports whether the release consumes the stock (the order completed) rather
// than returning it to available.
func (r ReleaseReason) Commits() bool { return r == ReleaseOrderCompleted }

// Reservation holds stock of a variant at a location for an order until it is released
// or expires.
type Reservation struct {
	ID            string
	ProductID     string
	VariantID     string
	LocationID    string
	LocationName  string // filled when read
	OrderID       string
	Quantity      int
	Status        ReservationStatus
	ExpiresAt     time.Time
	CreatedAt     time.Time
	ReleasedAt    *time.Time
	ReleaseReason ReleaseReason
}

// Expired reports whether an active reservation's time is up at now.
func (r *Reservation) Expired(now time.Time) bool {
	return r.Status == ReservationActive && !r.ExpiresAt.After(now)
}
