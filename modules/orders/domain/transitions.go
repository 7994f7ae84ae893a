package domain

import "time"

// Cancel moves an open order to cancelled (Part 2's table: open → cancel → cancelled,
// with no other condition: an order with fulfillments may be cancelled too, its
// fulfillments stay as they are). A cancelled order answers ORDER_ALREADY_CANCELLED, a
// closed one INVALID_STATUS_TRANSITION (docs/decisions/0073).
func (o *Order) Cancel(reason CancelReason, now time.Time) error {
	switch o.Status {
	case StatusCancelled:
		return ErrOrderAlreadyCancelled
	case StatusClosed:
		return ErrInvalidStatusTransition.WithMessage("A closed order cannot be cancelled; reopen it first")
	case StatusOpen:
	}
	if !reason.Valid() {
		reason = CancelOther
	}
	o.Status, o.CancelReason, o.CancelledAt = StatusCancelled, reason, &now
	o.Touch(now)
	return nil
}

// Close moves a fulfilled open order to closed. Closed: ORDER_ALREADY_CLOSED;
// cancelled or not fully fulfilled: INVALID_STATUS_TRANSITION; fulfilled but not paid:
// PAYMENT_REQUIRED (docs/decisions/0073).
func (o *Order) Close(now time.Time) error {
	switch o.Status {
	case StatusClosed:
		return ErrOrderAlreadyClosed
	case StatusCancelled:
		return ErrInvalidStatusTransition.WithMessage("A cancelled order cannot be closed")
	case StatusOpen:
	}
	if o.Fulfillment != FulfillmentFulfilled {
		return ErrInvalidStatusTransition.WithMessage("Only fulfilled orders can be closed")
	}
	if !o.Financial.Settled() {
		return ErrPaymentRequired.WithMessage("Order must be paid before it is closed")
	}
	o.Status, o.ClosedAt = StatusClosed, &now
	o.Touch(now)
	return nil
}

// Reopen moves a closed or cancelled order back to open (clearing closed_at,
// cancelled_at and cancel_reason). An open order: INVALID_STATUS_TRANSITION.
func (o *Order) Reopen(now time.Time) error {
	if o.Status == StatusOpen {
		return ErrInvalidStatusTransition.WithMessage("Only closed or cancelled orders can be reopened")
	}
	o.Status, o.ClosedAt, o.CancelledAt, o.CancelReason = StatusOpen, nil, nil, ""
	o.Touch(now)
	return nil
}

// ActiveFulfillments counts the fulfillments that are not cancelled.
func (o *Order) ActiveFulfillments() int {
	n := 0
	for _, f := range o.Fulfillments {
		if f.Status == FulfillmentSuccess {
			n++
		}
	}
	return n
}

// ensureOpen refuses changes to cancelled and closed orders.
func (o *Order) ensureOpen() error {
	switch o.Status {
	case StatusCancelled:
		return ErrOrderAlreadyCancelled
	case StatusClosed:
		return ErrOrderAlreadyClosed
	case StatusOpen:
	}
	return nil
}
