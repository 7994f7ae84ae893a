package domain

import (
	"math"
	"strings"

	"github.com/shopspring/decimal"
)

// Scale is the number of decimal places amounts are stored with: integers of
// ten-thousandths, so that sums are exact on both engines.
const Scale = 4

// Units is a decimal amount as stored (ten-thousandths, rounded half away from zero).
func Units(d decimal.Decimal) int64 { return d.Shift(Scale).Round(0).IntPart() }

// ParseUnits reads a decimal string as stored units; "" and a bad value are 0.
func ParseUnits(s string) int64 {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return Units(d)
}

// Money writes stored units as a decimal string with 2 places.
func Money(units int64) string { return decimal.New(units, -Scale).StringFixed(2) }

// MoneyDiv writes units/n as money (0 when n is 0).
func MoneyDiv(units, n int64) string {
	if n == 0 {
		return Money(0)
	}
	return decimal.New(units, -Scale).Div(decimal.NewFromInt(n)).StringFixed(2)
}

// Round2 rounds to 2 places.
func Round2(f float64) float64 { return math.Round(f*100) / 100 }

// Percent is part/whole*100 rounded to 2 places (0 when whole is 0).
func Percent(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return Round2(part / whole * 100)
}

// Directions of a change.
const (
	Up   = "up"
	Down = "down"
	Flat = "flat"
)

// Change is the change from previous to current in percent (2 places) and its
// direction; nil percent when previous is 0 (no base), with the direction still given.
func Change(current, previous float64) (*float64, string) {
	dir := Flat
	switch {
	case current > previous:
		dir = Up
	case current < previous:
		dir = Down
	}
	if previous == 0 {
		return nil, dir
	}
	p := Round2((current - previous) / math.Abs(previous) * 100)
	return &p, dir
}

// UnitsFloat is units as a float of the currency unit (for changes and rates only).
func UnitsFloat(units int64) float64 { return float64(units) / 10000 }

// Order status keys of the statistics (Part 2 "Statistics": by_status) and
// fulfillment keys (by_fulfillment_status), docs/decisions/0211.
const (
	StatusPending    = "pending"
	StatusConfirmed  = "confirmed"
	StatusProcessing = "processing"
	StatusCompleted  = "completed"
	StatusCancelled  = "cancelled"
	StatusRefunded   = "refunded"

	FulfillUnfulfilled = "unfulfilled"
	FulfillPartial     = "partial"
	FulfillFulfilled   = "fulfilled"
	FulfillReturned    = "returned"
)

// StatusKeys and FulfillmentKeys are the keys in the order the responses list them.
var (
	StatusKeys      = []string{StatusPending, StatusConfirmed, StatusProcessing, StatusCompleted, StatusCancelled, StatusRefunded}
	FulfillmentKeys = []string{FulfillUnfulfilled, FulfillPartial, FulfillFulfilled, FulfillReturned}
)

// StatusKey maps an order's status, financial and fulfillment status to one key:
// cancelled, then refunded (fully), then completed (closed or fully shipped), then
// processing (partly shipped), confirmed (money authorized or received), else pending.
func StatusKey(status, financial, fulfillment string) string {
	switch {
	case status == "cancelled":
		return StatusCancelled
	case financial == "refunded":
		return StatusRefunded
	case status == "closed" || fulfillment == "fulfilled":
		return StatusCompleted
	case fulfillment == "partial":
		return StatusProcessing
	case financial == "paid" || financial == "partially_paid" || financial == "authorized" || financial == "partially_refunded":
		return StatusConfirmed
	default:
		return StatusPending
	}
}

// FulfillmentKey maps an order's fulfillment status to a key; a shipped order with
// items refunded is returned.
func FulfillmentKey(fulfillment string, refundedItems int) string {
	switch fulfillment {
	case "fulfilled", "partial":
		if refundedItems > 0 {
			return FulfillReturned
		}
		if fulfillment == "fulfilled" {
			return FulfillFulfilled
		}
		return FulfillPartial
	default:
		return FulfillUnfulfilled
	}
}
