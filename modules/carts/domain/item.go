package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Item is a line of a cart: a product variant, its quantity and the product data
// copied when it was added.
type Item struct {
	ID               ItemID
	ProductID        string
	VariantID        string
	Quantity         int
	UnitPrice        decimal.Decimal
	OriginalPrice    decimal.Decimal
	DiscountAmount   decimal.Decimal
	SKU              string
	Title            string
	VariantTitle     string
	ImageURL         string
	RequiresShipping bool
	IsGiftCard       bool
	CustomAttributes map[string]string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// Subtotal is quantity x unit_price.
func (i *Item) Subtotal() decimal.Decimal {
	return i.UnitPrice.Mul(decimal.NewFromInt(int64(i.Quantity)))
}

// Total is subtotal - discount_amount.
func (i *Item) Total() decimal.Decimal { return i.Subtotal().Sub(i.DiscountAmount) }
