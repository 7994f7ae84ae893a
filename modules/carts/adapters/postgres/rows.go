package postgres

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/platform/db"
)

// cartRow and itemRow are also the rows of the batched write's JSON arrays (batch.go):
// their json names are the columns.
type cartRow struct {
	ID                     string          `json:"id" gorm:"primaryKey"`
	CustomerID             *string         `json:"customer_id"`
	SessionTokenHash       *string         `json:"session_token_hash"`
	Currency               string          `json:"currency"`
	Status                 string          `json:"status"`
	Email                  string          `json:"email"`
	ShippingMethod         string          `json:"shipping_method"`
	Notes                  string          `json:"notes"`
	Coupons                string          `json:"coupons"` // JSON array
	Subtotal               decimal.Decimal `json:"subtotal"`
	DiscountTotal          decimal.Decimal `json:"discount_total"`
	ShippingBeforeDiscount decimal.Decimal `json:"shipping_before_discount"`
	ShippingTotal          decimal.Decimal `json:"shipping_total"`
	ItemCount              int             `json:"item_count"`
	ConvertedOrderID       *string         `json:"converted_order_id"`
	MergedIntoID           *string         `json:"merged_into_id"`
	ExpiresAt              time.Time       `json:"expires_at"`
	CreatedAt              time.Time       `json:"created_at" gorm:"autoCreateTime:false"`
	UpdatedAt              time.Time       `json:"updated_at" gorm:"autoUpdateTime:false"`
	Version                int64           `json:"version"`
	// ExpiryHour is ExpiresAt truncated to the hour, what the expiry sweep's index
	// holds (an update that keeps it can be heap-only).
	ExpiryHour time.Time `json:"expiry_hour"`
}

func (cartRow) TableName() string { return "carts" }

// fields lists the carts columns with the row's fields, in the order of the SELECT
// list: one place for reading, scanning and writing only what changed.
func (r *cartRow) fields() []field {
	return []field{
		{"id", &r.ID}, {"customer_id", &r.CustomerID}, {"session_token_hash", &r.SessionTokenHash}, {"currency", &r.Currency},
		{"status", &r.Status}, {"email", &r.Email}, {"shipping_method", &r.ShippingMethod}, {"notes", &r.Notes},
		{"coupons", &r.Coupons}, {"subtotal", &r.Subtotal}, {"discount_total", &r.DiscountTotal},
		{"shipping_before_discount", &r.ShippingBeforeDiscount}, {"shipping_total", &r.ShippingTotal}, {"item_count", &r.ItemCount},
		{"converted_order_id", &r.ConvertedOrderID}, {"merged_into_id", &r.MergedIntoID}, {"expires_at", &r.ExpiresAt},
		{"created_at", &r.CreatedAt}, {"updated_at", &r.UpdatedAt}, {"version", &r.Version},
		{"expiry_hour", &r.ExpiryHour},
	}
}

// expiryHour is the hour an expiry falls in.
func expiryHour(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

type itemRow struct {
	ID               string          `json:"id" gorm:"primaryKey"`
	CartID           string          `json:"cart_id"`
	ProductID        string          `json:"product_id"`
	VariantID        string          `json:"variant_id"`
	Quantity         int             `json:"quantity"`
	UnitPrice        decimal.Decimal `json:"unit_price"`
	OriginalPrice    decimal.Decimal `json:"original_price"`
	DiscountAmount   decimal.Decimal `json:"discount_amount"`
	SKU              string          `json:"sku" gorm:"column:sku"`
	Title            string          `json:"title"`
	VariantTitle     string          `json:"variant_title"`
	ImageURL         string          `json:"image_url" gorm:"column:image_url"`
	RequiresShipping bool            `json:"requires_shipping"`
	IsGiftCard       bool            `json:"is_gift_card"`
	CustomAttributes string          `json:"custom_attributes"` // JSON object
	AttributesHash   string          `json:"attributes_hash"`
	CreatedAt        time.Time       `json:"created_at" gorm:"autoCreateTime:false"`
	UpdatedAt        time.Time       `json:"updated_at" gorm:"autoUpdateTime:false"`
}

func (itemRow) TableName() string { return "cart_items" }

// fields lists the cart_items columns with the row's fields, in the order of the
// SELECT list.
func (r *itemRow) fields() []field {
	return []field{
		{"id", &r.ID}, {"cart_id", &r.CartID}, {"product_id", &r.ProductID}, {"variant_id", &r.VariantID}, {"quantity", &r.Quantity},
		{"unit_price", &r.UnitPrice}, {"original_price", &r.OriginalPrice}, {"discount_amount", &r.DiscountAmount}, {"sku", &r.SKU},
		{"title", &r.Title}, {"variant_title", &r.VariantTitle}, {"image_url", &r.ImageURL}, {"requires_shipping", &r.RequiresShipping},
		{"is_gift_card", &r.IsGiftCard}, {"custom_attributes", &r.CustomAttributes}, {"attributes_hash", &r.AttributesHash},
		{"created_at", &r.CreatedAt}, {"updated_at", &r.UpdatedAt},
	}
}

type couponJSON struct {
	Code       string          `json:"code"`
	ID         string          `json:"id,omitempty"`
	Type       string          `json:"type,omitempty"`
	Applicable bool            `json:"applicable"`
	Amount     decimal.Decimal `json:"amount"`
}

func fromCart(c *domain.Cart) (cartRow, error) {
	coupons := make([]couponJSON, len(c.Coupons))
	for i, cp := range c.Coupons {
		coupons[i] = couponJSON(cp)
	}
	raw, err := json.Marshal(coupons)
	if err != nil {
		return cartRow{}, err
	}
	return cartRow{
		ID: string(c.ID), CustomerID: db.NullString(c.CustomerID), SessionTokenHash: db.NullString(c.SessionTokenHash), Currency: c.Currency,
		Status: string(c.Status), Email: c.Email, ShippingMethod: c.ShippingMethod, Notes: c.Notes, Coupons: string(raw),
		Subtotal: c.Subtotal, DiscountTotal: c.DiscountTotal, ShippingBeforeDiscount: c.ShippingBeforeDiscount,
		ShippingTotal: c.ShippingTotal, ItemCount: c.ItemCount, ConvertedOrderID: db.NullString(c.ConvertedOrderID),
		MergedIntoID: db.NullString(string(c.MergedIntoID)), ExpiresAt: c.ExpiresAt.UTC(), CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
		Version: c.Version, ExpiryHour: expiryHour(c.ExpiresAt),
	}, nil
}

func (r cartRow) toDomain(items []itemRow) (*domain.Cart, error) {
	c := &domain.Cart{
		ID: domain.CartID(r.ID), CustomerID: db.Deref(r.CustomerID), SessionTokenHash: db.Deref(r.SessionTokenHash), Currency: r.Currency,
		Status: domain.Status(r.Status), Email: r.Email, ShippingMethod: r.ShippingMethod, Notes: r.Notes,
		Subtotal: r.Subtotal, DiscountTotal: r.DiscountTotal, ShippingBeforeDiscount: r.ShippingBeforeDiscount,
		ShippingTotal: r.ShippingTotal, ItemCount: r.ItemCount, ConvertedOrderID: db.Deref(r.ConvertedOrderID),
		MergedIntoID: domain.CartID(db.Deref(r.MergedIntoID)), ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
		Version: r.Version,
	}
	var coupons []couponJSON
	if err := json.Unmarshal([]byte(r.Coupons), &coupons); err != nil {
		return nil, fmt.Errorf("carts: coupons of %s: %w", r.ID, err)
	}
	for _, cp := range coupons {
		c.Coupons = append(c.Coupons, domain.AppliedCoupon(cp))
	}
	for _, ir := range items {
		it, err := ir.toDomain()
		if err != nil {
			return nil, err
		}
		c.Items = append(c.Items, it)
	}
	return c, nil
}

func attributesHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func fromItem(cart domain.CartID, it *domain.Item) itemRow {
	key := domain.AttributesKey(it.CustomAttributes)
	return itemRow{
		ID: string(it.ID), CartID: string(cart), ProductID: it.ProductID, VariantID: it.VariantID, Quantity: it.Quantity,
		UnitPrice: it.UnitPrice, OriginalPrice: it.OriginalPrice, DiscountAmount: it.DiscountAmount, SKU: it.SKU, Title: it.Title,
		VariantTitle: it.VariantTitle, ImageURL: it.ImageURL, RequiresShipping: it.RequiresShipping, IsGiftCard: it.IsGiftCard,
		CustomAttributes: key, AttributesHash: attributesHash(key), CreatedAt: it.CreatedAt.UTC(), UpdatedAt: it.UpdatedAt.UTC(),
	}
}

func (r itemRow) toDomain() (*domain.Item, error) {
	attrs := map[string]string{}
	if err := json.Unmarshal([]byte(r.CustomAttributes), &attrs); err != nil {
		return nil, fmt.Errorf("carts: custom_attributes of item %s: %w", r.ID, err)
	}
	return &domain.Item{
		ID: domain.ItemID(r.ID), ProductID: r.ProductID, VariantID: r.VariantID, Quantity: r.Quantity, UnitPrice: r.UnitPrice,
		OriginalPrice: r.OriginalPrice, DiscountAmount: r.DiscountAmount, SKU: r.SKU, Title: r.Title, VariantTitle: r.VariantTitle,
		ImageURL: r.ImageURL, RequiresShipping: r.RequiresShipping, IsGiftCard: r.IsGiftCard, CustomAttributes: attrs,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}, nil
}
