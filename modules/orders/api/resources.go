package api

import (
	"time"

	"github.com/gocommerce/commerce/platform/postal"
)

// Order is the order resource (Part 2 "Order") as the HTTP API shows it, and the data of
// the order events. Money is a decimal string in the currency's minor units; strings are
// never null ("" when unset); ids, timestamps and objects that may not exist are null.
// Fulfillments, Refunds, Transactions and Notes are present only when included.
type Order struct {
	ID                 string          `json:"id"`
	OrderNumber        string          `json:"order_number"`
	Name               string          `json:"name"`
	CustomerID         *string         `json:"customer_id"`
	Email              string          `json:"email"`
	Phone              string          `json:"phone"`
	Status             string          `json:"status"`
	FinancialStatus    string          `json:"financial_status"`
	FulfillmentStatus  string          `json:"fulfillment_status"`
	Currency           string          `json:"currency"`
	SubtotalPrice      string          `json:"subtotal_price"`
	TotalTax           string          `json:"total_tax"`
	TotalShipping      string          `json:"total_shipping"`
	TotalDiscounts     string          `json:"total_discounts"`
	TotalPrice         string          `json:"total_price"`
	TotalRefunded      string          `json:"total_refunded"`
	TotalOutstanding   string          `json:"total_outstanding"`
	Subtotal           string          `json:"subtotal"`       // = subtotal_price (the cart's name)
	DiscountTotal      string          `json:"discount_total"` // = total_discounts (the cart's name)
	TotalWeight        string          `json:"total_weight"`
	TotalItems         int             `json:"total_items"`
	LineItems          []LineItem      `json:"line_items"`
	ShippingAddress    *Address        `json:"shipping_address"`
	BillingAddress     *Address        `json:"billing_address"`
	ShippingLines      []ShippingLine  `json:"shipping_lines"`
	TaxLines           []TaxLine       `json:"tax_lines"`
	DiscountCodes      []DiscountCode  `json:"discount_codes"`
	CouponCode         *string         `json:"coupon_code"`
	AppliedCoupons     []AppliedCoupon `json:"applied_coupons"`
	Note               string          `json:"note"`
	NoteAttributes     map[string]any  `json:"note_attributes"`
	Tags               []string        `json:"tags"`
	Metafields         map[string]any  `json:"metafields"`
	CartToken          string          `json:"cart_token"`
	CheckoutToken      string          `json:"checkout_token"`
	ReferringSite      string          `json:"referring_site"`
	LandingSite        string          `json:"landing_site"`
	SourceName         string          `json:"source_name"`
	ClientDetails      *ClientDetails  `json:"client_details"`
	InventoryBehaviour string          `json:"inventory_behaviour"`
	CancelReason       *string         `json:"cancel_reason"`
	CreatedAt          time.Time       `json:"created_at"`
	UpdatedAt          time.Time       `json:"updated_at"`
	ProcessedAt        time.Time       `json:"processed_at"`
	ClosedAt           *time.Time      `json:"closed_at"`
	CancelledAt        *time.Time      `json:"cancelled_at"`

	Fulfillments *[]Fulfillment `json:"fulfillments,omitempty"`
	Refunds      *[]Refund      `json:"refunds,omitempty"`
	Transactions *[]Transaction `json:"transactions,omitempty"`
	Notes        *[]Note        `json:"notes,omitempty"`
}

// OrderSummary is an order in the order list (Part 2's summary fields).
type OrderSummary struct {
	ID                string    `json:"id"`
	OrderNumber       string    `json:"order_number"`
	Email             string    `json:"email"`
	TotalPrice        string    `json:"total_price"`
	Currency          string    `json:"currency"`
	Status            string    `json:"status"`
	FinancialStatus   string    `json:"financial_status"`
	FulfillmentStatus string    `json:"fulfillment_status"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// Address is Part 2's address shape (shared with the customers' saved addresses).
type Address = postal.Address

// ClientDetails describes the client that placed the order.
type ClientDetails struct {
	BrowserIP   string `json:"browser_ip"`
	UserAgent   string `json:"user_agent"`
	SessionHash string `json:"session_hash"`
}

// LineItem is a line of an order.
type LineItem struct {
	ID                  string `json:"id"`
	ProductID           string `json:"product_id"`
	VariantID           string `json:"variant_id"`
	Title               string `json:"title"`
	VariantTitle        string `json:"variant_title"`
	SKU                 string `json:"sku"`
	Quantity            int    `json:"quantity"`
	Price               string `json:"price"`
	Total               string `json:"total"`
	RequiresShipping    bool   `json:"requires_shipping"`
	IsGiftCard          bool   `json:"is_gift_card"`
	Taxable             bool   `json:"taxable"`
	FulfillableQuantity int    `json:"fulfillable_quantity"`
	FulfilledQuantity   int    `json:"fulfilled_quantity"`
	RefundedQuantity    int    `json:"refunded_quantity"`
}

// ShippingLine is a shipping charge.
type ShippingLine struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Price  string `json:"price"`
	Code   string `json:"code"`
	Source string `json:"source"`
}

// TaxLine is a tax; rate is a decimal fraction as a string ("0.2").
type TaxLine struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Rate  string `json:"rate"`
	Price string `json:"price"`
}

// DiscountCode is a discount applied to the order.
type DiscountCode struct {
	Code   string `json:"code"`
	Amount string `json:"amount"`
	Type   string `json:"type"`
}

// AppliedCoupon is a discount code with its amount, as the coupons module reads it
// from order.created.
type AppliedCoupon struct {
	Code           string `json:"code"`
	DiscountAmount string `json:"discount_amount"`
}

// FulfillmentLine is a shipped quantity of a line item.
type FulfillmentLine struct {
	ID        string `json:"id"` // the line item's id
	Quantity  int    `json:"quantity"`
	ProductID string `json:"product_id"`
	VariantID string `json:"variant_id"`
	Title     string `json:"title"`
	SKU       string `json:"sku"`
}

// Fulfillment is a shipment of an order's line items.
type Fulfillment struct {
	ID              string            `json:"id"`
	OrderID         string            `json:"order_id"`
	Status          string            `json:"status"` // success, cancelled
	LocationID      *string           `json:"location_id"`
	TrackingNumber  string            `json:"tracking_number"`
	TrackingCompany string            `json:"tracking_company"`
	TrackingURL     string            `json:"tracking_url"`
	NotifyCustomer  bool              `json:"notify_customer"`
	LineItems       []FulfillmentLine `json:"line_items"`
	CreatedAt       time.Time         `json:"created_at"`
	UpdatedAt       time.Time         `json:"updated_at"`
	CancelledAt     *time.Time        `json:"cancelled_at"`
}

// RefundLineItem is a refunded quantity of a line item.
type RefundLineItem struct {
	LineItemID string `json:"line_item_id"`
	Quantity   int    `json:"quantity"`
	Restock    bool   `json:"restock"`
	Subtotal   string `json:"subtotal"`
	TotalTax   string `json:"total_tax"`
}

// RefundShipping is the shipping part of a refund.
type RefundShipping struct {
	Amount string `json:"amount"`
}

// Refund is money and/or items given back.
type Refund struct {
	ID              string           `json:"id"`
	OrderID         string           `json:"order_id"`
	Status          string           `json:"status"` // pending, success, failed
	Note            string           `json:"note"`
	NotifyCustomer  bool             `json:"notify_customer"`
	RefundLineItems []RefundLineItem `json:"refund_line_items"`
	Shipping        RefundShipping   `json:"shipping"`
	Amount          string           `json:"amount"`
	Currency        string           `json:"currency"`
	Transactions    []Transaction    `json:"transactions"`
	CreatedAt       time.Time        `json:"created_at"`
	ProcessedAt     *time.Time       `json:"processed_at"`
}

// Transaction is a money movement of an order.
type Transaction struct {
	ID              string     `json:"id"`
	OrderID         string     `json:"order_id"`
	Kind            string     `json:"kind"`   // authorization, capture, sale, void, refund
	Status          string     `json:"status"` // pending, success, failure
	Amount          string     `json:"amount"`
	Currency        string     `json:"currency"`
	Gateway         string     `json:"gateway"`
	PaymentID       *string    `json:"payment_id"`
	ParentID        *string    `json:"parent_id"`
	RefundID        *string    `json:"refund_id"`
	PaymentRefundID *string    `json:"payment_refund_id"`
	ErrorCode       *string    `json:"error_code"`
	Message         string     `json:"message"`
	CreatedAt       time.Time  `json:"created_at"`
	ProcessedAt     *time.Time `json:"processed_at"`
}

// Note is a staff note on an order.
type Note struct {
	ID             string    `json:"id"`
	OrderID        string    `json:"order_id"`
	Body           string    `json:"body"`
	Author         string    `json:"author"`
	NotifyCustomer bool      `json:"notify_customer"`
	CreatedAt      time.Time `json:"created_at"`
}

// RiskReason is a signal of the fraud assessment.
type RiskReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Score   int    `json:"score"`
}

// Risk is the fraud assessment of an order.
type Risk struct {
	OrderID        string       `json:"order_id"`
	Score          int          `json:"score"`          // 0..100
	Recommendation string       `json:"recommendation"` // accept, investigate, cancel
	Reasons        []RiskReason `json:"reasons"`
	AssessedAt     time.Time    `json:"assessed_at"`
}

// SuggestedTransaction is a part of a calculated refund assigned to a payment.
type SuggestedTransaction struct {
	ParentID          string  `json:"parent_id"`
	PaymentID         *string `json:"payment_id"`
	Kind              string  `json:"kind"` // suggested_refund
	Gateway           string  `json:"gateway"`
	Amount            string  `json:"amount"`
	MaximumRefundable string  `json:"maximum_refundable"`
}

// RefundCalculationShipping is the shipping part of a calculated refund.
type RefundCalculationShipping struct {
	Amount            string `json:"amount"`
	MaximumRefundable string `json:"maximum_refundable"`
}

// RefundCalculation is what a refund would give back, before processing.
type RefundCalculation struct {
	OrderID           string                    `json:"order_id"`
	Currency          string                    `json:"currency"`
	RefundLineItems   []RefundLineItem          `json:"refund_line_items"`
	Shipping          RefundCalculationShipping `json:"shipping"`
	Subtotal          string                    `json:"subtotal"`
	TotalTax          string                    `json:"total_tax"`
	Amount            string                    `json:"amount"`
	MaximumRefundable string                    `json:"maximum_refundable"`
	Transactions      []SuggestedTransaction    `json:"transactions"`
}

// OrderCreated is the data of order.created: the order and whether a receipt should be
// sent (notifications reads it).
type OrderCreated struct {
	Order
	SendReceipt bool `json:"send_receipt"`
}

// OrderCancelled is the data of order.cancelled.
type OrderCancelled struct {
	Order
	Restock        bool `json:"restock"`
	NotifyCustomer bool `json:"notify_customer"`
}

// OrderRef names the order of a sub-resource event.
type OrderRef struct {
	OrderNumber string  `json:"order_number"`
	CustomerID  *string `json:"customer_id"`
	Email       string  `json:"email"`
}

// FulfillmentEvent is the data of order.fulfillment_created, _updated and _cancelled.
type FulfillmentEvent struct {
	Fulfillment
	OrderRef
}

// RefundEvent is the data of order.refund_created.
type RefundEvent struct {
	Refund
	OrderRef
}

// NoteEvent is the data of order.note_created.
type NoteEvent struct {
	Note
	OrderRef
}
