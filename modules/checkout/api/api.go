// Package api is what other modules (and cmd) may import from checkout: its event
// types and payloads. Checkout orchestrates other modules and offers no calls of its
// own. No framework imports.
package api

import "time"

// EventCheckoutCompleted is the order confirmation: a checkout's order is paid, its
// stock committed and its cart converted (notifications sends the confirmation from
// it). Data is a CheckoutCompleted (docs/decisions/0171).
const EventCheckoutCompleted = "checkout.completed"

// CheckoutCompleted is the data of checkout.completed. Money is a decimal string.
type CheckoutCompleted struct {
	CheckoutID    string    `json:"checkout_id"`
	CartID        string    `json:"cart_id"`
	OrderID       string    `json:"order_id"`
	OrderNumber   string    `json:"order_number"`
	CustomerID    *string   `json:"customer_id"`
	Email         string    `json:"email"`
	Currency      string    `json:"currency"`
	Subtotal      string    `json:"subtotal"`
	DiscountTotal string    `json:"discount_total"`
	ShippingTotal string    `json:"shipping_total"`
	TaxTotal      string    `json:"tax_total"`
	Total         string    `json:"total"`
	PaymentID     string    `json:"payment_id"`
	CouponCodes   []string  `json:"coupon_codes"`
	CompletedAt   time.Time `json:"completed_at"`
}
