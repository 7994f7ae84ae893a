// Package domain holds inventory's rules: locations, stock quantities at a location,
// movements, reservations and the words the spec gives them. Plain Go.
package domain

import (
	"slices"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/limits"
)

// MaxStock bounds every stock quantity, as in the catalog (limits.MaxStock): available
// stays within -MaxStock..MaxStock, reserved and incoming within 0..MaxStock, and one
// change moves at most MaxStock units.
const MaxStock = limits.MaxStock

// checkLimit refuses a change that takes a counter beyond MaxStock, unless it moves an
// out-of-range counter (older data) back toward the range.
func checkLimit(before, after Quantities) error {
	for _, c := range [][2]int{{before.Available, after.Available}, {before.Reserved, after.Reserved}, {before.Incoming, after.Incoming}} {
		b, a := c[0], c[1]
		if (a > MaxStock && a > b) || (a < -MaxStock && a < b) {
			return ErrStockLimit
		}
	}
	return nil
}

func tooMany(n int) bool { return n > MaxStock || n < -MaxStock }

// checkUnits accepts a count of units that is positive and within MaxStock.
func checkUnits(n int) error {
	if n <= 0 {
		return ErrInvalidQuantity
	}
	if tooMany(n) {
		return ErrStockLimit
	}
	return nil
}

// MovementType classifies a movement (the spec's enumeration).
type MovementType string

// Movement types.
const (
	MovementIn       MovementType = "in"
	MovementOut      MovementType = "out"
	MovementReturn   MovementType = "return"
	MovementLost     MovementType = "lost"
	MovementFound    MovementType = "found"
	MovementTransfer MovementType = "transfer"
)

// Valid reports whether t is one of the spec's movement types.
func (t MovementType) Valid() bool {
	return slices.Contains([]MovementType{MovementIn, MovementOut, MovementReturn, MovementLost, MovementFound, MovementTransfer}, t)
}

// AdjustReason is the reason of an adjustment through POST /inventory/adjust.
type AdjustReason string

// Adjustment reasons.
const (
	ReasonDamaged AdjustReason = "damaged"
	ReasonLost    AdjustReason = "lost"
	ReasonFound   AdjustReason = "found"
	ReasonCount   AdjustReason = "count"
	ReasonReturn  AdjustReason = "return"
	ReasonOther   AdjustReason = "other"
)

// Valid reports whether r is one of the spec's adjustment reasons.
func (r AdjustReason) Valid() bool {
	return slices.Contains([]AdjustReason{ReasonDamaged, ReasonLost, ReasonFound, ReasonCount, ReasonReturn, ReasonOther}, r)
}

// Reasons recorded on movements that are not adjustments.
const (
	ReasonReceived = "received"
	ReasonReserved = "reserved"
	ReasonTransfer = "transfer"
)

// MovementTypeFor maps an adjustment (its reason and signed change) to a movement type
// (docs/decisions/0031-inventory-movements.md):
//
//	reason    increase  decrease
//	damaged   in        lost
//	lost      found     lost
//	found     found     out
//	count     in        out
//	return    return    out
//	other     in        out
//
// Any other reason (the product-level endpoints take free text) maps by sign alone:
// in for an increase (or no change), out for a decrease.
func MovementTypeFor(reason string, delta int) MovementType {
	if delta < 0 {
		switch AdjustReason(reason) {
		case ReasonDamaged, ReasonLost:
			return MovementLost
		default:
			return MovementOut
		}
	}
	switch AdjustReason(reason) {
	case ReasonLost, ReasonFound:
		return MovementFound
	case ReasonReturn:
		return MovementReturn
	default:
		return MovementIn
	}
}

// Policy is a variant's inventory policy.
type Policy string

// Inventory policies.
const (
	PolicyDeny     Policy = "deny"
	PolicyContinue Policy = "continue"
)

// AllowsBackorder reports whether stock may go below zero (policy continue).
func (p Policy) AllowsBackorder() bool { return p == PolicyContinue }

// StockStatus is the derived state of a product's stock.
type StockStatus string

// Stock statuses.
const (
	InStock    StockStatus = "in_stock"
	LowStock   StockStatus = "low_stock"
	OutOfStock StockStatus = "out_of_stock"
)

// Valid reports whether s is a known stock status.
func (s StockStatus) Valid() bool {
	return slices.Contains([]StockStatus{InStock, LowStock, OutOfStock}, s)
}

// StatusOf derives the stock status: out_of_stock at or below zero, low_stock at or
// below the threshold, in_stock above it.
func StatusOf(available, threshold int) StockStatus {
	switch {
	case available <= 0:
		return OutOfStock
	case available <= threshold:
		return LowStock
	}
	return InStock
}

// Quantities are the counters of one variant at one location.
type Quantities struct {
	Available int
	Reserved  int
	Incoming  int
}

// Minus is the change from o to q, field by field.
func (q Quantities) Minus(o Quantities) Quantities {
	return Quantities{Available: q.Available - o.Available, Reserved: q.Reserved - o.Reserved, Incoming: q.Incoming - o.Incoming}
}

// Adjust changes available by delta. A decrease that leaves available below zero is
// ErrInventoryNegative unless backorders are allowed; an increase is always accepted
// (it can only improve a negative balance).
func (q Quantities) Adjust(delta int, policy Policy) (Quantities, error) {
	if tooMany(delta) {
		return q, ErrStockLimit
	}
	next := q
	next.Available += delta
	if delta < 0 && next.Available < 0 && !policy.AllowsBackorder() {
		return q, ErrInventoryNegative
	}
	return next, checkLimit(q, next)
}

// Set makes available equal to quantity. A negative quantity is ErrInventoryNegative
// unless backorders are allowed.
func (q Quantities) Set(quantity int, policy Policy) (Quantities, error) {
	if quantity < 0 && !policy.AllowsBackorder() {
		return q, ErrInventoryNegative
	}
	if tooMany(quantity) {
		return q, ErrStockLimit
	}
	next := q
	next.Available = quantity
	return next, nil
}

// Receive adds n (> 0) to available and consumes up to n of the incoming stock.
func (q Quantities) Receive(n int) (Quantities, error) {
	if err := checkUnits(n); err != nil {
		return q, err
	}
	next := q
	next.Available += n
	next.Incoming -= min(n, max(q.Incoming, 0))
	return next, checkLimit(q, next)
}

// Reserve moves n (> 0) from available to reserved: ErrInsufficientInventory when
// fewer than n are available, unless backorders are allowed.
func (q Quantities) Reserve(n int, policy Policy) (Quantities, error) {
	if err := checkUnits(n); err != nil {
		return q, err
	}
	if q.Available < n && !policy.AllowsBackorder() {
		return q, ErrInsufficientInventory
	}
	next := q
	next.Available -= n
	next.Reserved += n
	return next, checkLimit(q, next)
}

// Release takes n off reserved; unless commit, the units return to available.
func (q Quantities) Release(n int, commit bool) (Quantities, error) {
	if n <= 0 {
		return q, ErrInvalidQuantity
	}
	if q.Reserved < n {
		return q, apperr.New(apperr.Internal, "", "reserved stock is lower than the reservation")
	}
	next := q
	next.Reserved -= n
	if !commit {
		next.Available += n
	}
	return next, nil
}

// TransferOut takes n (> 0) off available at the source. Stock that is not there cannot
// be moved, whatever the policy: ErrInventoryNegative.
func (q Quantities) TransferOut(n int) (Quantities, error) {
	if err := checkUnits(n); err != nil {
		return q, err
	}
	if q.Available < n {
		return q, ErrInventoryNegative
	}
	next := q
	next.Available -= n
	return next, nil
}
