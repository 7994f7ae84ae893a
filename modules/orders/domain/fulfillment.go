package domain

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Fulfillment statuses (Shopify's success and cancelled).
const (
	FulfillmentSuccess   = "success"
	FulfillmentCancelled = "cancelled"
)

// FulfillmentLine is a quantity of one line item shipped by a fulfillment.
type FulfillmentLine struct {
	LineItemID string
	Quantity   int
}

// Fulfillment is a shipment of some of an order's line items.
type Fulfillment struct {
	ID              string
	Status          string
	LocationID      string
	TrackingNumber  string
	TrackingCompany string
	TrackingURL     string
	NotifyCustomer  bool
	Lines           []FulfillmentLine
	CreatedAt       time.Time
	UpdatedAt       time.Time
	CancelledAt     *time.Time
}

// Tracking is a fulfillment's tracking information; nil members are left as they are.
type Tracking struct {
	Number, Company, URL *string
	NotifyCustomer       *bool
}

// Check validates the tracking members (at most 255 characters, URL at most 2048 and
// http(s)).
func (t Tracking) Check() error {
	fields := map[string]string{}
	for name, v := range map[string]*string{"tracking_number": t.Number, "tracking_company": t.Company} {
		if v != nil && utf8.RuneCountInString(*v) > 255 {
			fields[name] = "must be at most 255 characters"
		}
	}
	if t.URL != nil && *t.URL != "" {
		u := strings.ToLower(*t.URL)
		if len(*t.URL) > 2048 || (!strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://")) {
			fields["tracking_url"] = "must be an http(s) URL of at most 2048 characters"
		}
	}
	if len(fields) > 0 {
		return apperr.Validation(fields)
	}
	return nil
}

func (f *Fulfillment) apply(t Tracking) {
	if t.Number != nil {
		f.TrackingNumber = strings.TrimSpace(*t.Number)
	}
	if t.Company != nil {
		f.TrackingCompany = strings.TrimSpace(*t.Company)
	}
	if t.URL != nil {
		f.TrackingURL = strings.TrimSpace(*t.URL)
	}
	if t.NotifyCustomer != nil {
		f.NotifyCustomer = *t.NotifyCustomer
	}
}

// FindFulfillment finds a fulfillment by id (FULFILLMENT_NOT_FOUND).
func (o *Order) FindFulfillment(id string) (*Fulfillment, error) {
	for _, f := range o.Fulfillments {
		if f.ID == id {
			return f, nil
		}
	}
	return nil, ErrFulfillmentNotFound
}

// Fulfill ships line items: each requested line's quantity (0 means all that is left),
// or every line with something left when lines is empty. The order must be open
// (ORDER_ALREADY_CANCELLED / ORDER_ALREADY_CLOSED); an unknown line is
// LINE_ITEM_NOT_FOUND; a quantity below zero, above what is left to fulfill, or nothing
// to fulfill at all is INVALID_QUANTITY. Unpaid orders may be fulfilled (as in Shopify).
func (o *Order) Fulfill(id, locationID string, lines []FulfillmentLine, t Tracking, now time.Time) (*Fulfillment, error) {
	if err := o.ensureOpen(); err != nil {
		return nil, err
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	want := map[string]int{}
	var order []string
	if len(lines) == 0 {
		for _, li := range o.LineItems {
			if n := li.FulfillableQuantity(); n > 0 {
				want[li.ID] = n
				order = append(order, li.ID)
			}
		}
	}
	for _, l := range lines {
		li, err := o.LineItem(l.LineItemID)
		if err != nil {
			return nil, err
		}
		if l.Quantity < 0 {
			return nil, ErrInvalidQuantity
		}
		q := l.Quantity
		if q == 0 {
			q = li.FulfillableQuantity() - want[li.ID]
		}
		if _, seen := want[li.ID]; !seen {
			order = append(order, li.ID)
		}
		want[li.ID] += q
	}
	out := &Fulfillment{ID: id, Status: FulfillmentSuccess, LocationID: locationID, CreatedAt: now, UpdatedAt: now}
	total := 0
	for _, lid := range order {
		li, _ := o.LineItem(lid)
		q := want[lid]
		if q > li.FulfillableQuantity() {
			return nil, ErrInvalidQuantity.WithMessage("Line item %s has %d left to fulfill", li.ID, li.FulfillableQuantity())
		}
		if q <= 0 {
			continue
		}
		out.Lines = append(out.Lines, FulfillmentLine{LineItemID: lid, Quantity: q})
		total += q
	}
	if total == 0 {
		return nil, ErrInvalidQuantity.WithMessage("Nothing left to fulfill")
	}
	for _, l := range out.Lines {
		li, _ := o.LineItem(l.LineItemID)
		li.FulfilledQuantity += l.Quantity
	}
	out.apply(t)
	o.Fulfillments = append(o.Fulfillments, out)
	o.Recalculate()
	o.Touch(now)
	return out, nil
}

// UpdateTracking changes a fulfillment's tracking information. A cancelled fulfillment
// answers INVALID_STATUS_TRANSITION.
func (o *Order) UpdateTracking(id string, t Tracking, now time.Time) (*Fulfillment, error) {
	f, err := o.FindFulfillment(id)
	if err != nil {
		return nil, err
	}
	if f.Status == FulfillmentCancelled {
		return nil, ErrInvalidStatusTransition.WithMessage("A cancelled fulfillment cannot be changed")
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	f.apply(t)
	f.UpdatedAt = now
	o.Touch(now)
	return f, nil
}

// CancelFulfillment cancels a fulfillment: its quantities become unfulfilled again.
// Already cancelled: INVALID_STATUS_TRANSITION; on a closed order ORDER_ALREADY_CLOSED.
func (o *Order) CancelFulfillment(id string, now time.Time) (*Fulfillment, error) {
	f, err := o.FindFulfillment(id)
	if err != nil {
		return nil, err
	}
	if o.Status == StatusClosed {
		return nil, ErrOrderAlreadyClosed
	}
	if f.Status == FulfillmentCancelled {
		return nil, ErrInvalidStatusTransition.WithMessage("Fulfillment is already cancelled")
	}
	for _, l := range f.Lines {
		if li, err := o.LineItem(l.LineItemID); err == nil {
			li.FulfilledQuantity = max(0, li.FulfilledQuantity-l.Quantity)
		}
	}
	f.Status, f.CancelledAt, f.UpdatedAt = FulfillmentCancelled, &now, now
	o.Recalculate()
	o.Touch(now)
	return f, nil
}
