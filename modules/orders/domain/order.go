// Package domain holds the orders module's entities and rules: the order aggregate
// (line items, shipping and tax lines, discounts, fulfillments, refunds, transactions),
// its states and their transitions, totals, refunds and the risk assessment. Plain Go:
// no framework imports, money is decimal.Decimal, time comes from the caller.
package domain

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Status is the order's lifecycle status.
type Status string

// Order statuses (Part 2).
const (
	StatusOpen      Status = "open"
	StatusClosed    Status = "closed"
	StatusCancelled Status = "cancelled"
)

// Valid reports a known status.
func (s Status) Valid() bool { return s == StatusOpen || s == StatusClosed || s == StatusCancelled }

// FinancialStatus is derived from the order's transactions (docs/decisions/0072).
type FinancialStatus string

// Financial statuses (Part 2).
const (
	FinancialPending           FinancialStatus = "pending"
	FinancialAuthorized        FinancialStatus = "authorized"
	FinancialPaid              FinancialStatus = "paid"
	FinancialPartiallyPaid     FinancialStatus = "partially_paid"
	FinancialRefunded          FinancialStatus = "refunded"
	FinancialPartiallyRefunded FinancialStatus = "partially_refunded"
	FinancialVoided            FinancialStatus = "voided"
)

// Valid reports a known financial status.
func (s FinancialStatus) Valid() bool {
	return slices.Contains([]FinancialStatus{FinancialPending, FinancialAuthorized, FinancialPaid, FinancialPartiallyPaid, FinancialRefunded, FinancialPartiallyRefunded, FinancialVoided}, s)
}

// Settled reports a status in which the order's money has been received (paid, or paid
// and then refunded in part or in full).
func (s FinancialStatus) Settled() bool {
	return s == FinancialPaid || s == FinancialPartiallyRefunded || s == FinancialRefunded
}

// FulfillmentStatus is derived from the line items' fulfilled quantities.
type FulfillmentStatus string

// Fulfillment statuses (Part 2).
const (
	FulfillmentUnfulfilled FulfillmentStatus = "unfulfilled"
	FulfillmentPartial     FulfillmentStatus = "partial"
	FulfillmentFulfilled   FulfillmentStatus = "fulfilled"
)

// Valid reports a known fulfillment status.
func (s FulfillmentStatus) Valid() bool {
	return s == FulfillmentUnfulfilled || s == FulfillmentPartial || s == FulfillmentFulfilled
}

// InventoryBehaviour says how creating an order (and editing its line items) claims
// stock, with Shopify's names.
type InventoryBehaviour string

// Inventory behaviours (docs/decisions/0071).
const (
	InventoryBypass                  InventoryBehaviour = "bypass"
	InventoryDecrementIgnoringPolicy InventoryBehaviour = "decrement_ignoring_policy"
	InventoryDecrementObeyingPolicy  InventoryBehaviour = "decrement_obeying_policy"
)

// Valid reports a known behaviour.
func (b InventoryBehaviour) Valid() bool {
	return b == InventoryBypass || b == InventoryDecrementIgnoringPolicy || b == InventoryDecrementObeyingPolicy
}

// Claims reports whether the behaviour takes stock.
func (b InventoryBehaviour) Claims() bool { return b != InventoryBypass }

// CancelReason is why an order was cancelled (Part 2's values).
type CancelReason string

// Cancel reasons.
const (
	CancelCustomerRequest CancelReason = "customer_request"
	CancelFraudulent      CancelReason = "fraudulent"
	CancelInventory       CancelReason = "inventory"
	CancelOther           CancelReason = "other"
)

// Valid reports a known reason.
func (r CancelReason) Valid() bool {
	return r == CancelCustomerRequest || r == CancelFraudulent || r == CancelInventory || r == CancelOther
}

// Address is Part 2's address shape. Country is kept as given (ISO 3166-1 alpha-2 is
// expected).
type Address struct {
	FirstName, LastName, Company, Phone, Address1, Address2, City, State, Country, Zip string
}

// ClientDetails describes the client that placed the order.
type ClientDetails struct {
	BrowserIP, UserAgent, SessionHash string
}

// LineItem is one product variant of an order.
type LineItem struct {
	ID                string
	ProductID         string
	VariantID         string
	Title             string
	VariantTitle      string
	SKU               string
	Quantity          int
	Price             decimal.Decimal // unit price
	RequiresShipping  bool
	Taxable           bool
	IsGiftCard        bool
	Grams             decimal.Decimal // unit weight in grams
	InventoryTracked  bool            // the variant's stock is tracked by this service
	ClaimedQuantity   int             // units this order took from stock
	RestockedQuantity int             // units given back to stock
	FulfilledQuantity int
	RefundedQuantity  int
	Position          int
	CreatedAt         time.Time
}

// Total is the line's price times its quantity, in the currency's minor units.
func (li *LineItem) Total(currency string) decimal.Decimal {
	return Round(li.Price.Mul(decimal.NewFromInt(int64(li.Quantity))), currency)
}

// FulfillableQuantity is what is left to ship: the quantity less what was fulfilled and
// what was refunded (refunds count against unshipped units first).
func (li *LineItem) FulfillableQuantity() int {
	return max(0, li.Quantity-li.FulfilledQuantity-li.RefundedQuantity)
}

// RestockableQuantity is how many claimed units have not been given back yet.
func (li *LineItem) RestockableQuantity() int { return max(0, li.ClaimedQuantity-li.RestockedQuantity) }

// ShippingLine is a shipping charge.
type ShippingLine struct {
	ID, Title, Code, Source string
	Price                   decimal.Decimal
}

// TaxLine is a tax charged on the order. A line with a rate is priced again from the
// taxable amount whenever the line items change (Retax).
type TaxLine struct {
	ID, Title string
	Rate      decimal.Decimal
	Price     decimal.Decimal
}

// DiscountCode is a discount applied to the order (a coupon code and the amount it took
// off, as checkout or the administrator computed it).
type DiscountCode struct {
	Code   string
	Type   string // fixed_amount, percentage, shipping, ... (informational)
	Amount decimal.Decimal
}

// Discount types accepted on create.
var DiscountTypes = map[string]bool{"fixed_amount": true, "percentage": true, "shipping": true, "free_shipping": true, "buy_x_get_y": true}

// Order is the aggregate: the order with its lines, fulfillments, refunds and
// transactions. Notes are separate records.
type Order struct {
	ID                 string
	Number             int64
	CustomerID         string // "" for guests
	Email              string
	Phone              string
	Status             Status
	Financial          FinancialStatus
	Fulfillment        FulfillmentStatus
	Currency           string
	LineItems          []*LineItem
	ShippingLines      []ShippingLine
	TaxLines           []TaxLine
	DiscountCodes      []DiscountCode
	Subtotal           decimal.Decimal
	TotalTax           decimal.Decimal
	TotalShipping      decimal.Decimal
	TotalDiscounts     decimal.Decimal
	TotalPrice         decimal.Decimal
	TotalWeightKg      decimal.Decimal
	TotalItems         int
	ShippingAddress    *Address
	BillingAddress     *Address
	Note               string
	NoteAttributes     map[string]any
	Tags               []string
	Metafields         map[string]any
	CartToken          string
	CheckoutToken      string
	ReferringSite      string
	LandingSite        string
	SourceName         string
	ClientDetails      *ClientDetails
	InventoryBehaviour InventoryBehaviour
	SendReceipt        bool
	CancelReason       CancelReason
	CreatedAt          time.Time
	UpdatedAt          time.Time
	ProcessedAt        time.Time
	ClosedAt           *time.Time
	CancelledAt        *time.Time
	Fulfillments       []*Fulfillment
	Refunds            []*Refund
	Transactions       []*Transaction
	Version            int
}

// Name is the order's display name, "#" + number.
func (o *Order) Name() string { return "#" + o.NumberString() }

// NumberString is the order number as shown ("1001").
func (o *Order) NumberString() string { return decimal.NewFromInt(o.Number).String() }

// LineItem finds a line item by id.
func (o *Order) LineItem(id string) (*LineItem, error) {
	for _, li := range o.LineItems {
		if li.ID == id {
			return li, nil
		}
	}
	return nil, ErrLineItemNotFound
}

// Touch stamps a change.
func (o *Order) Touch(now time.Time) { o.UpdatedAt = now }

// Recalculate recomputes the totals and both derived statuses. Call it after any change
// of lines, discounts or transactions.
func (o *Order) Recalculate() {
	c := o.Currency
	sub, grams := decimal.Zero, decimal.Zero
	items := 0
	for i, li := range o.LineItems {
		li.Position = i + 1
		sub = sub.Add(li.Total(c))
		grams = grams.Add(li.Grams.Mul(decimal.NewFromInt(int64(li.Quantity))))
		items += li.Quantity
	}
	ship := decimal.Zero
	for _, s := range o.ShippingLines {
		ship = ship.Add(s.Price)
	}
	disc := decimal.Zero
	for _, d := range o.DiscountCodes {
		disc = disc.Add(d.Amount)
	}
	disc = decimal.Min(disc, sub.Add(ship))
	o.Subtotal, o.TotalShipping, o.TotalDiscounts = sub, ship, disc
	tax := decimal.Zero
	for _, t := range o.TaxLines {
		tax = tax.Add(t.Price)
	}
	o.TotalTax = tax
	o.TotalPrice = decimal.Max(decimal.Zero, sub.Sub(disc).Add(tax).Add(ship))
	o.TotalWeightKg = grams.Shift(-3).Round(WeightDecimals)
	o.TotalItems = items
	o.Financial = DeriveFinancial(o.TotalPrice, o.Money())
	o.Fulfillment = o.deriveFulfillment()
}

// Retax prices the tax lines that have a rate (those for which only answers true, or all
// when only is nil) as the rate times the taxable base, then recalculates.
func (o *Order) Retax(only func(i int) bool) {
	o.Recalculate()
	base := o.TaxableBase()
	for i := range o.TaxLines {
		if o.TaxLines[i].Rate.IsPositive() && (only == nil || only(i)) {
			o.TaxLines[i].Price = Round(base.Mul(o.TaxLines[i].Rate), o.Currency)
		}
	}
	o.Recalculate()
}

// ItemDiscount is the part of the order's discounts that falls on the line items (the
// discounts up to the subtotal).
func (o *Order) ItemDiscount() decimal.Decimal { return decimal.Min(o.TotalDiscounts, o.Subtotal) }

// TaxableBase is the taxable line items' total less their proportional share of the
// item discount: what a tax line's rate applies to.
func (o *Order) TaxableBase() decimal.Decimal {
	taxable := decimal.Zero
	for _, li := range o.LineItems {
		if li.Taxable {
			taxable = taxable.Add(li.Total(o.Currency))
		}
	}
	return taxable.Sub(o.discountShare(taxable))
}

// discountShare is the item discount allocated to an amount of the subtotal.
func (o *Order) discountShare(amount decimal.Decimal) decimal.Decimal {
	if !o.Subtotal.IsPositive() || !amount.IsPositive() {
		return decimal.Zero
	}
	return Round(o.ItemDiscount().Mul(amount).Div(o.Subtotal), o.Currency)
}

func (o *Order) deriveFulfillment() FulfillmentStatus {
	fulfilled, remaining := 0, 0
	for _, li := range o.LineItems {
		fulfilled += li.FulfilledQuantity
		remaining += li.FulfillableQuantity()
	}
	switch {
	case fulfilled == 0:
		return FulfillmentUnfulfilled
	case remaining == 0:
		return FulfillmentFulfilled
	default:
		return FulfillmentPartial
	}
}
