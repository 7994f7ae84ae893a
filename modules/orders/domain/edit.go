package domain

import (
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/tags"
)

// Limits of an order's contents.
const (
	MaxQuantity  = 9999 // per line item, as for cart items
	MaxLineItems = 250
	MaxTags      = tags.MaxCount
	MaxNote      = 5000
	MaxText      = 255
)

// CheckQuantity refuses quantities outside 1..MaxQuantity (INVALID_QUANTITY).
func CheckQuantity(q int) error {
	if q < 1 || q > MaxQuantity {
		return ErrInvalidQuantity.WithMessage("Quantity must be from 1 to %d", MaxQuantity)
	}
	return nil
}

// NormalizeEmail trims and checks an email address ("" stays ""): a malformed one is
// INVALID_EMAIL naming the field email (as the customers module answers).
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 || !strings.Contains(s[strings.LastIndex(s, "@")+1:], ".") {
		return "", ErrInvalidEmail.WithField("email", "must be a valid email address")
	}
	return s, nil
}

// NormalizeTags trims tags, drops empty ones and duplicates (case-insensitively,
// keeping the first spelling), and checks their number and length.
func NormalizeTags(in []string) ([]string, error) {
	out, p := tags.Normalize(in, tags.TooLong) // commas are allowed
	if p == tags.TooLong {
		return nil, apperr.Validation(map[string]string{"tags": "each tag must be at most 255 characters"})
	}
	if p == tags.TooMany {
		return nil, apperr.Validation(map[string]string{"tags": "must have at most 250 tags"})
	}
	return out, nil
}

// CheckAddress checks an address's members (each at most 255 characters); field names
// the address in errors.
func CheckAddress(a *Address, field string) error {
	if a == nil {
		return nil
	}
	fields := map[string]string{}
	for name, v := range map[string]string{
		"first_name": a.FirstName, "last_name": a.LastName, "company": a.Company, "phone": a.Phone, "address1": a.Address1,
		"address2": a.Address2, "city": a.City, "state": a.State, "country": a.Country, "zip": a.Zip,
	} {
		if utf8.RuneCountInString(v) > MaxText {
			fields[field+"."+name] = "must be at most 255 characters"
		}
	}
	if len(fields) > 0 {
		return apperr.Validation(fields)
	}
	return nil
}

// CheckNote checks a note's length.
func CheckNote(note, field string) error {
	if utf8.RuneCountInString(note) > MaxNote {
		return apperr.Validation(map[string]string{field: "must be at most 5000 characters"})
	}
	return nil
}

// Patch is PUT /orders/{id}: the limited set of editable fields (nil: unchanged).
// ShippingAddress and BillingAddress set to a nil *Address clear the address.
type Patch struct {
	Email           *string
	Phone           *string
	Note            *string
	NoteAttributes  *map[string]any
	Tags            *[]string
	ShippingAddress **Address
	BillingAddress  **Address
	Metafields      *map[string]any
}

// Update applies a patch; any order status may be edited this way (as in Shopify).
// It reports whether anything changed.
func (o *Order) Update(p Patch, now time.Time) (bool, error) {
	changed := false
	if p.Email != nil {
		e, err := NormalizeEmail(*p.Email)
		if err != nil {
			return false, err
		}
		changed = changed || e != o.Email
		o.Email = e
	}
	if p.Phone != nil {
		ph := strings.TrimSpace(*p.Phone)
		if utf8.RuneCountInString(ph) > MaxText {
			return false, apperr.Validation(map[string]string{"phone": "must be at most 255 characters"})
		}
		changed = changed || ph != o.Phone
		o.Phone = ph
	}
	if p.Note != nil {
		if err := CheckNote(*p.Note, "note"); err != nil {
			return false, err
		}
		changed = changed || *p.Note != o.Note
		o.Note = *p.Note
	}
	if p.NoteAttributes != nil {
		o.NoteAttributes, changed = nonNilMap(*p.NoteAttributes), true
	}
	if p.Metafields != nil {
		o.Metafields, changed = nonNilMap(*p.Metafields), true
	}
	if p.Tags != nil {
		tags, err := NormalizeTags(*p.Tags)
		if err != nil {
			return false, err
		}
		o.Tags, changed = tags, true
	}
	if p.ShippingAddress != nil {
		if err := CheckAddress(*p.ShippingAddress, "shipping_address"); err != nil {
			return false, err
		}
		o.ShippingAddress, changed = *p.ShippingAddress, true
	}
	if p.BillingAddress != nil {
		if err := CheckAddress(*p.BillingAddress, "billing_address"); err != nil {
			return false, err
		}
		o.BillingAddress, changed = *p.BillingAddress, true
	}
	if changed {
		o.Touch(now)
	}
	return changed, nil
}

func nonNilMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// checkEditable allows line item changes only on open orders without fulfillments
// (docs/decisions/0074).
func (o *Order) checkEditable() error {
	if err := o.ensureOpen(); err != nil {
		return err
	}
	if o.ActiveFulfillments() > 0 || o.Fulfillment != FulfillmentUnfulfilled {
		return ErrInvalidStatusTransition.WithMessage("Line items can be changed only on unfulfilled orders")
	}
	return nil
}

// AddLineItem adds a line (quantity 1..9999) to an open unfulfilled order and
// recomputes the totals.
func (o *Order) AddLineItem(li *LineItem, now time.Time) error {
	if err := o.checkEditable(); err != nil {
		return err
	}
	if err := CheckQuantity(li.Quantity); err != nil {
		return err
	}
	if len(o.LineItems) >= MaxLineItems {
		return apperr.Validation(map[string]string{"line_items": "an order has at most 250 line items"})
	}
	o.LineItems = append(o.LineItems, li)
	o.Retax(nil)
	o.Touch(now)
	return nil
}

// ChangeLineItem sets a line's quantity and/or unit price. The quantity may not go
// below what was refunded. It returns the line and the quantity change.
func (o *Order) ChangeLineItem(id string, quantity *int, price *decimal.Decimal, now time.Time) (*LineItem, int, error) {
	if err := o.checkEditable(); err != nil {
		return nil, 0, err
	}
	li, err := o.LineItem(id)
	if err != nil {
		return nil, 0, err
	}
	delta := 0
	if quantity != nil {
		if err := CheckQuantity(*quantity); err != nil {
			return nil, 0, err
		}
		if *quantity < li.RefundedQuantity {
			return nil, 0, ErrInvalidQuantity.WithMessage("Quantity cannot be below the %d refunded", li.RefundedQuantity)
		}
		delta = *quantity - li.Quantity
		li.Quantity = *quantity
	}
	if price != nil {
		if price.IsNegative() {
			return nil, 0, ErrInvalidPrice.WithField("price", "must not be negative")
		}
		li.Price = *price
	}
	o.Retax(nil)
	o.Touch(now)
	return li, delta, nil
}

// RemoveLineItem removes a line that nothing was refunded from; the last line cannot
// be removed (INVALID_QUANTITY: an order has at least one line item).
func (o *Order) RemoveLineItem(id string, now time.Time) (*LineItem, error) {
	if err := o.checkEditable(); err != nil {
		return nil, err
	}
	li, err := o.LineItem(id)
	if err != nil {
		return nil, err
	}
	if li.RefundedQuantity > 0 {
		return nil, ErrInvalidStatusTransition.WithMessage("A refunded line item cannot be removed")
	}
	if len(o.LineItems) == 1 {
		return nil, ErrInvalidQuantity.WithMessage("An order needs at least one line item")
	}
	kept := o.LineItems[:0]
	for _, x := range o.LineItems {
		if x.ID != id {
			kept = append(kept, x)
		}
	}
	o.LineItems = kept
	o.Retax(nil)
	o.Touch(now)
	return li, nil
}

// ReleaseExcess gives back the claimed units a line holds beyond its quantity (after a
// decrease; all of them after a removal, when quantity is 0).
func ReleaseExcess(li *LineItem, quantity int) (Restock, bool) {
	n := li.RestockableQuantity() - quantity
	if n <= 0 {
		return Restock{}, false
	}
	li.RestockedQuantity += n
	return Restock{ProductID: li.ProductID, VariantID: li.VariantID, Quantity: n}, true
}
