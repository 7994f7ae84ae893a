// Package domain holds the carts module's rules: the cart and its items, quantities,
// merging, totals, expiry and session tokens. Plain Go: no framework.
package domain

import (
	"encoding/json"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// CartID identifies a cart.
type CartID string

// ItemID identifies a cart item.
type ItemID string

// Status is a cart's state.
type Status string

// Cart states (Part 1 "States and transitions").
const (
	StatusActive    Status = "active"
	StatusExpired   Status = "expired"
	StatusConverted Status = "converted"
)

// Quantity bounds (Part 1 "Limits").
const (
	MinQuantity = 1
	MaxQuantity = 9999
)

// Limits of the free-text fields and attributes.
const (
	MaxAttributes          = 50
	MaxAttributeKeyLength  = 100
	MaxAttributeValueChars = 1000
	MaxEmailLength         = 254
	MaxShippingMethodChars = 100
	MaxNotesChars          = 5000
)

// AppliedCoupon is a coupon on the cart. Applicable is false while its conditions are
// not met (it stays on the cart and applies again when they are); Amount is the
// discount it gives (lines and shipping).
type AppliedCoupon struct {
	Code       string
	ID         string
	Type       string
	Applicable bool
	Amount     decimal.Decimal
}

// Cart is a shopping cart with its items.
type Cart struct {
	ID               CartID
	CustomerID       string // "" for a guest cart
	SessionTokenHash string // guest carts only
	Currency         string
	Status           Status
	Email            string
	ShippingMethod   string
	Notes            string
	Items            []*Item
	Coupons          []AppliedCoupon
	Subtotal         decimal.Decimal
	DiscountTotal    decimal.Decimal
	// ShippingBeforeDiscount is the price of the rate checkout chose for
	// ShippingMethod (zero for a method named otherwise: docs/decisions/0175);
	// ShippingTotal is what is left after shipping discounts.
	ShippingBeforeDiscount decimal.Decimal
	ShippingTotal          decimal.Decimal
	ItemCount              int
	ConvertedOrderID       string
	MergedIntoID           CartID
	ExpiresAt              time.Time
	CreatedAt              time.Time
	UpdatedAt              time.Time
	// Version is the stored cart's version: every stored change bumps it, and a change
	// written without a row lock applies only to the version it was made from.
	Version int64
}

// New starts an active cart that expires ttl after now.
func New(id CartID, customerID, currency string, now time.Time, ttl time.Duration) *Cart {
	return &Cart{
		ID: id, CustomerID: customerID, Currency: currency, Status: StatusActive,
		Subtotal: decimal.Zero, DiscountTotal: decimal.Zero, ShippingBeforeDiscount: decimal.Zero, ShippingTotal: decimal.Zero,
		ExpiresAt: now.Add(ttl), CreatedAt: now, UpdatedAt: now,
	}
}

// EffectiveStatus is the status at now: an active cart past expires_at is expired
// even before the sweep marks it.
func (c *Cart) EffectiveStatus(now time.Time) Status {
	if c.Status == StatusActive && !now.Before(c.ExpiresAt) {
		return StatusExpired
	}
	return c.Status
}

// CheckActive answers CART_EXPIRED or CART_CONVERTED for a cart that is not active.
func (c *Cart) CheckActive(now time.Time) error {
	switch c.EffectiveStatus(now) {
	case StatusExpired:
		return ErrCartExpired
	case StatusConverted:
		return ErrCartConverted
	case StatusActive:
	}
	return nil
}

// Touch records activity: expires_at moves to ttl after now.
func (c *Cart) Touch(now time.Time, ttl time.Duration) {
	c.UpdatedAt = now
	c.ExpiresAt = now.Add(ttl)
}

// Total is subtotal - discount_total + shipping_total (tax is not part of a cart
// without an address; see the totals operation).
func (c *Cart) Total() decimal.Decimal {
	return c.Subtotal.Sub(c.DiscountTotal).Add(c.ShippingTotal)
}

// Item returns the item with the id, or ErrItemNotFound.
func (c *Cart) Item(id ItemID) (*Item, error) {
	for _, it := range c.Items {
		if it.ID == id {
			return it, nil
		}
	}
	return nil, ErrItemNotFound
}

// identical returns the item with the variant and attributes, except skip.
func (c *Cart) identical(variantID string, attrs map[string]string, skip ItemID) *Item {
	key := AttributesKey(attrs)
	for _, it := range c.Items {
		if it.ID != skip && it.VariantID == variantID && AttributesKey(it.CustomAttributes) == key {
			return it
		}
	}
	return nil
}

// CheckQuantity validates a quantity (1 to 9999).
func CheckQuantity(q int) error {
	if q < MinQuantity || q > MaxQuantity {
		return ErrInvalidQuantity
	}
	return nil
}

// CheckAttributes validates custom attributes (string to string).
func CheckAttributes(attrs map[string]string) error {
	if len(attrs) > MaxAttributes {
		return ErrInvalidAttributes.WithMessage("custom_attributes may have at most %d entries", MaxAttributes)
	}
	for k, v := range attrs {
		if strings.TrimSpace(k) == "" || len(k) > MaxAttributeKeyLength {
			return ErrInvalidAttributes.WithMessage("custom_attributes keys must be 1 to %d characters", MaxAttributeKeyLength)
		}
		if utf8.RuneCountInString(v) > MaxAttributeValueChars {
			return ErrInvalidAttributes.WithMessage("custom_attributes values must be at most %d characters", MaxAttributeValueChars)
		}
	}
	return nil
}

// AttributesKey is the canonical form of custom attributes (sorted JSON; "{}" when
// empty), which identifies identical items.
func AttributesKey(attrs map[string]string) string {
	if len(attrs) == 0 {
		return "{}"
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kk, _ := json.Marshal(k)
		vv, _ := json.Marshal(attrs[k])
		b.Write(kk)
		b.WriteByte(':')
		b.Write(vv)
	}
	b.WriteByte('}')
	return b.String()
}

// Product is the catalog's answer about a product variant, in the cart's words.
type Product struct {
	ProductID         string
	VariantID         string
	Title             string
	VariantTitle      string
	SKU               string
	Status            string // active, draft, archived
	Currency          string
	Price             decimal.Decimal
	ImageURL          string
	RequiresShipping  bool
	IsGiftCard        bool
	InventoryTracked  bool
	InventoryPolicy   string // deny | continue
	InventoryQuantity int
}

// ProductActive is the catalog status of sellable products.
const ProductActive = "active"

// PolicyContinue lets a variant sell below zero stock.
const PolicyContinue = "continue"

// Available checks that the product can be sold in the quantity: it is active, and
// when its stock is tracked and it does not sell when out of stock, the quantity is in
// stock (PRODUCT_NOT_AVAILABLE otherwise).
func (p Product) Available(quantity int) error {
	if p.Status != ProductActive {
		return ErrProductNotAvailable.WithMessage("Product is not available")
	}
	if p.InventoryTracked && p.InventoryPolicy != PolicyContinue && quantity > p.InventoryQuantity {
		if p.InventoryQuantity <= 0 {
			return ErrProductNotAvailable.WithMessage("Product is out of stock")
		}
		return ErrProductNotAvailable.WithMessage("Only %d in stock", p.InventoryQuantity)
	}
	return nil
}

// AddItem adds a quantity of a product variant, merging with an identical item (same
// variant and custom attributes) by summing quantities; the quantity must stay 1 to
// 9999 and be available. It returns the new or merged item.
func (c *Cart) AddItem(id ItemID, p Product, quantity int, attrs map[string]string, now time.Time) (*Item, error) {
	if err := CheckQuantity(quantity); err != nil {
		return nil, err
	}
	if p.Currency != c.Currency {
		return nil, ErrCurrencyMismatch.WithMessage("The product is priced in %s; the cart's currency is %s", p.Currency, c.Currency)
	}
	if existing := c.identical(p.VariantID, attrs, ""); existing != nil {
		total := existing.Quantity + quantity
		if total > MaxQuantity {
			return nil, ErrInvalidQuantity.WithMessage("Quantity must be 1 to 9999 (the cart already holds %d)", existing.Quantity)
		}
		if err := p.Available(total); err != nil {
			return nil, err
		}
		existing.Quantity = total
		existing.UpdatedAt = now
		return existing, nil
	}
	if err := p.Available(quantity); err != nil {
		return nil, err
	}
	it := &Item{
		ID: id, ProductID: p.ProductID, VariantID: p.VariantID, Quantity: quantity, UnitPrice: p.Price, OriginalPrice: p.Price,
		DiscountAmount: decimal.Zero, SKU: p.SKU, Title: p.Title, VariantTitle: p.VariantTitle, ImageURL: p.ImageURL,
		RequiresShipping: p.RequiresShipping, IsGiftCard: p.IsGiftCard, CustomAttributes: copyAttrs(attrs), CreatedAt: now, UpdatedAt: now,
	}
	c.Items = append(c.Items, it)
	return it, nil
}

// ItemChange is an update of an item: nil members are left alone.
type ItemChange struct {
	Quantity         *int
	CustomAttributes *map[string]string
}

// UpdateItem changes an item's quantity and/or attributes. When new attributes make
// it identical to another item, the other item is merged into it (quantities summed,
// 1 to 9999) and returned as removed.
func (c *Cart) UpdateItem(id ItemID, ch ItemChange, now time.Time) (updated, removed *Item, err error) {
	it, err := c.Item(id)
	if err != nil {
		return nil, nil, err
	}
	quantity := it.Quantity
	if ch.Quantity != nil {
		if err := CheckQuantity(*ch.Quantity); err != nil {
			return nil, nil, err
		}
		quantity = *ch.Quantity
	}
	attrs := it.CustomAttributes
	if ch.CustomAttributes != nil {
		attrs = copyAttrs(*ch.CustomAttributes)
	}
	other := c.identical(it.VariantID, attrs, it.ID)
	if other != nil {
		quantity += other.Quantity
		if quantity > MaxQuantity {
			return nil, nil, ErrInvalidQuantity.WithMessage("Quantity must be 1 to 9999 (merging with an identical item gives %d)", quantity)
		}
	}
	it.Quantity, it.CustomAttributes, it.UpdatedAt = quantity, attrs, now
	if other != nil {
		c.remove(other.ID)
	}
	return it, other, nil
}

// RemoveItem removes an item.
func (c *Cart) RemoveItem(id ItemID) (*Item, error) {
	it, err := c.Item(id)
	if err != nil {
		return nil, err
	}
	c.remove(id)
	return it, nil
}

func (c *Cart) remove(id ItemID) {
	out := c.Items[:0]
	for _, it := range c.Items {
		if it.ID != id {
			out = append(out, it)
		}
	}
	c.Items = out
}

// Clear removes every item and returns them.
func (c *Cart) Clear() []*Item {
	removed := c.Items
	c.Items = nil
	return removed
}

// MergeFrom adds a guest cart's items: identical items have their quantities summed
// (capped at 9999), others are copied with new ids from newID.
func (c *Cart) MergeFrom(g *Cart, newID func() ItemID, now time.Time) {
	for _, gi := range g.Items {
		if it := c.identical(gi.VariantID, gi.CustomAttributes, ""); it != nil {
			it.Quantity = min(it.Quantity+gi.Quantity, MaxQuantity)
			it.UpdatedAt = now
			continue
		}
		cp := *gi
		cp.ID = newID()
		cp.CustomAttributes = copyAttrs(gi.CustomAttributes)
		cp.CreatedAt, cp.UpdatedAt = now, now
		c.Items = append(c.Items, &cp)
	}
}

// CouponCodes lists the codes on the cart.
func (c *Cart) CouponCodes() []string {
	out := make([]string, len(c.Coupons))
	for i, cp := range c.Coupons {
		out[i] = cp.Code
	}
	return out
}

// HasCoupon reports whether the code is on the cart (case-insensitive).
func (c *Cart) HasCoupon(code string) bool {
	for _, cp := range c.Coupons {
		if strings.EqualFold(cp.Code, code) {
			return true
		}
	}
	return false
}

// RemoveCoupons removes the named coupon (every coupon when code is "") and returns
// what it removed.
func (c *Cart) RemoveCoupons(code string) []AppliedCoupon {
	var kept, removed []AppliedCoupon
	for _, cp := range c.Coupons {
		if code == "" || strings.EqualFold(cp.Code, code) {
			removed = append(removed, cp)
		} else {
			kept = append(kept, cp)
		}
	}
	c.Coupons = kept
	return removed
}

// SetShippingMethod names the cart's shipping method. A method other than the current
// one has no price until checkout chooses its rate (docs/decisions/0175); "" clears it.
func (c *Cart) SetShippingMethod(method string) {
	if method != c.ShippingMethod {
		c.ShippingMethod, c.ShippingBeforeDiscount = method, decimal.Zero
	}
}

// ChooseShippingRate sets the shipping method to a rate checkout priced: the cart's
// shipping is that price (before shipping discounts) until another is chosen.
func (c *Cart) ChooseShippingRate(method string, price decimal.Decimal) {
	c.ShippingMethod, c.ShippingBeforeDiscount = method, price
}

// Discounts are the coupon discounts to apply: per item and on shipping.
type Discounts struct {
	Items    map[ItemID]decimal.Decimal
	Shipping decimal.Decimal
}

// Recalculate sets every item's discount and the cart's totals (Part 1 "Cart
// calculations"): subtotal = sum(quantity x unit_price); discount_total = sum(item
// discount_amount), each item's discount at most its subtotal; shipping_total is the
// chosen rate's price less shipping discounts (not below zero); item_count is the
// number of units.
func (c *Cart) Recalculate(d Discounts) {
	shipping := c.ShippingBeforeDiscount
	if c.ShippingMethod == "" {
		shipping = decimal.Zero
	}
	c.Subtotal, c.DiscountTotal, c.ItemCount = decimal.Zero, decimal.Zero, 0
	for _, it := range c.Items {
		sub := it.Subtotal()
		disc := decimal.Min(d.Items[it.ID], sub)
		if disc.IsNegative() {
			disc = decimal.Zero
		}
		it.DiscountAmount = disc
		c.Subtotal = c.Subtotal.Add(sub)
		c.DiscountTotal = c.DiscountTotal.Add(disc)
		c.ItemCount += it.Quantity
	}
	c.ShippingBeforeDiscount = shipping
	c.ShippingTotal = decimal.Max(shipping.Sub(d.Shipping), decimal.Zero)
}

func copyAttrs(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Clone is a deep copy of the cart: changing the copy, its items or their attributes
// leaves c as it was.
func (c *Cart) Clone() *Cart {
	out := *c
	out.Items = make([]*Item, len(c.Items))
	for i, it := range c.Items {
		cp := *it
		if it.CustomAttributes != nil {
			cp.CustomAttributes = make(map[string]string, len(it.CustomAttributes))
			for k, v := range it.CustomAttributes {
				cp.CustomAttributes[k] = v
			}
		}
		out.Items[i] = &cp
	}
	if c.Coupons != nil {
		out.Coupons = append([]AppliedCoupon(nil), c.Coupons...)
	}
	return &out
}
