// Package api is what other modules (and cmd) may import from catalog: the Catalog
// interface, its DTOs, the JSON resources carried by catalog events, the event types
// and payloads, and the catalog's errors. No framework imports.
package api

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Variant is a variant as other modules see it.
type Variant struct {
	ID, ProductID, Title, SKU string
	Price                     decimal.Decimal
	InventoryPolicy           string // "deny" | "continue"
	InventoryQuantity         int
	IsDefault                 bool
	RequiresShipping          bool
	Weight                    decimal.Decimal
	WeightUnit                string
	Options                   map[string]string
}

// SaleVariant is a variant with what a sale of it needs from its product
// (GetSaleVariants): no descriptions, images or options.
type SaleVariant struct {
	ProductID, ProductTitle, Currency string
	Taxable                           bool
	InventoryManagement               string // the product's; "" when not tracked
	LowStockThreshold                 int    // the product's
	ID, Title, SKU                    string
	IsDefault, RequiresShipping       bool
	Price, Weight                     decimal.Decimal
	WeightUnit                        string
	InventoryPolicy                   string // the variant's, else the product's
}

// SaleVariantOf is p's variant v as GetSaleVariants answers it.
func SaleVariantOf(p Product, v Variant) SaleVariant {
	policy := v.InventoryPolicy
	if policy == "" {
		policy = p.InventoryPolicy
	}
	return SaleVariant{
		ProductID: p.ID, ProductTitle: p.Title, Currency: p.Currency, Taxable: p.Taxable, InventoryManagement: p.InventoryManagement,
		LowStockThreshold: p.LowStockThreshold, ID: v.ID, Title: v.Title, SKU: v.SKU, IsDefault: v.IsDefault,
		RequiresShipping: v.RequiresShipping, Price: v.Price, Weight: v.Weight, WeightUnit: v.WeightUnit, InventoryPolicy: policy,
	}
}

// Product is a product as other modules see it (with all variants, default first).
type Product struct {
	ID, Title, Slug, Status, Currency, ProductType string
	Price                                          decimal.Decimal
	InventoryPolicy                                string
	InventoryManagement                            string // "" when not tracked
	InventoryQuantity                              int
	LowStockThreshold                              int
	Taxable, RequiresShipping                      bool
	ImageURL                                       string // first image or ""
	Variants                                       []Variant
}

// InventoryQuantity is the stock total of one variant (sum of available over locations).
type InventoryQuantity struct {
	ProductID, VariantID string
	Quantity             int
}

// Catalog is what the catalog module offers other modules. Every method joins the
// transaction carried by ctx, if any.
type Catalog interface {
	// GetProduct returns a product with its variants, or ErrProductNotFound.
	GetProduct(ctx context.Context, id string) (Product, error)
	// GetProducts returns the products found among ids (missing ids are omitted), in
	// the order of ids.
	GetProducts(ctx context.Context, ids []string) ([]Product, error)
	// GetSaleVariants returns the variants of the products found among ids (missing
	// and malformed ids are omitted) with what a sale needs of them, in one light
	// read; a product's default variant comes first.
	GetSaleVariants(ctx context.Context, ids []string) ([]SaleVariant, error)
	// GetVariant returns the variant, or the default variant when variantID is "".
	// ErrProductNotFound, or ErrVariantNotFound (also when variantID is "" and the
	// product has explicit variants).
	GetVariant(ctx context.Context, productID, variantID string) (Variant, error)
	// GetProductVariant returns the product with only one variant in Variants: the
	// one asked for, or the default variant when variantID is "". ErrProductNotFound,
	// or ErrVariantNotFound (also when variantID is "" and the product has explicit
	// variants). One read where GetProduct and GetVariant would take two.
	GetProductVariant(ctx context.Context, productID, variantID string) (Product, error)
	// FindVariant returns the product a variant belongs to, with only that variant in
	// Variants (for callers that know the variant id but not the product id), or
	// ErrVariantNotFound. One read.
	FindVariant(ctx context.Context, variantID string) (Product, error)
	// SetInventoryQuantities records new variant totals inside the caller's transaction
	// (ctx) and recomputes each product's inventory_quantity as the sum of its
	// variants'. Unknown products or variants are skipped. A changed product total
	// publishes product.inventory_changed, and product.low_stock / product.out_of_stock
	// when the total crosses the low-stock threshold / reaches zero.
	SetInventoryQuantities(ctx context.Context, q []InventoryQuantity) error
	// ProductCollections returns, per product id, the ids of the active collections the
	// product belongs to (manual memberships and matching smart collections).
	ProductCollections(ctx context.Context, productIDs []string) (map[string][]string, error)
}

// Product statuses.
const (
	StatusActive   = "active"
	StatusDraft    = "draft"
	StatusArchived = "archived"
)

// Inventory policies.
const (
	InventoryPolicyDeny     = "deny"
	InventoryPolicyContinue = "continue"
)

// InventoryManagementCommerce is the inventory_management value of products whose stock
// this service tracks.
const InventoryManagementCommerce = "commerce"

// Stock statuses (inventory_status filter, derived from inventory_quantity and
// low_stock_threshold: out_of_stock when <= 0, low_stock when <= threshold, else in_stock).
const (
	StockInStock    = "in_stock"
	StockLowStock   = "low_stock"
	StockOutOfStock = "out_of_stock"
)

// StockStatus derives the stock status of a quantity under a low-stock threshold.
func StockStatus(quantity, lowStockThreshold int) string {
	switch {
	case quantity <= 0:
		return StockOutOfStock
	case quantity <= lowStockThreshold:
		return StockLowStock
	default:
		return StockInStock
	}
}

// Event types. The data of product events is a ProductResource (with its variants), of
// variant events a VariantResource, of collection.created/updated/deleted a
// CollectionResource and of collection.product_added/removed a CollectionProduct.
const (
	EventProductCreated           = "product.created"
	EventProductUpdated           = "product.updated"
	EventProductDeleted           = "product.deleted"
	EventProductPublished         = "product.published"
	EventProductUnpublished       = "product.unpublished"
	EventProductInventoryChanged  = "product.inventory_changed"
	EventProductLowStock          = "product.low_stock"
	EventProductOutOfStock        = "product.out_of_stock"
	EventVariantCreated           = "variant.created"
	EventVariantUpdated           = "variant.updated"
	EventVariantDeleted           = "variant.deleted"
	EventCollectionCreated        = "collection.created"
	EventCollectionUpdated        = "collection.updated"
	EventCollectionDeleted        = "collection.deleted"
	EventCollectionProductAdded   = "collection.product_added"
	EventCollectionProductRemoved = "collection.product_removed"
)

// EventStockSet is published by catalog as event "catalog.stock_set" whenever a product
// or variant is created or updated WITH inventory_quantity in the request (CONTRACT §5:
// it sets the available stock at the default location). Inventory subscribes and sets
// the level (movement recorded), then calls SetInventoryQuantities with the real totals.
const EventStockSet = "catalog.stock_set"

// StockSet is the data of a catalog.stock_set event.
type StockSet struct {
	ProductID string `json:"product_id"`
	VariantID string `json:"variant_id"`
	Quantity  int    `json:"quantity"`
}

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrProductNotFound    = apperr.New(apperr.NotFound, "PRODUCT_NOT_FOUND", "Product not found")
	ErrVariantNotFound    = apperr.New(apperr.NotFound, "VARIANT_NOT_FOUND", "Variant not found")
	ErrCollectionNotFound = apperr.New(apperr.NotFound, "COLLECTION_NOT_FOUND", "Collection not found")
	ErrProductHasOrders   = apperr.New(apperr.Conflict, "PRODUCT_HAS_ORDERS", "Cannot delete a product with orders; archive it instead")
	// ErrStockLimit: SetInventoryQuantities would take a product's stock over its
	// variants beyond 1,000,000,000 (docs/decisions/0094).
	ErrStockLimit = apperr.New(apperr.Invalid, "STOCK_LIMIT", "A product's stock over its variants must stay from -1000000000 to 1000000000")
)
