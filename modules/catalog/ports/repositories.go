// Package ports declares what the catalog module needs from the outside: its stores,
// the image storage and the orders check, in the catalog's own words.
package ports

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/modules/catalog/domain"
)

// Product list sorts.
const (
	SortTitle     = "title"
	SortPrice     = "price"
	SortCreatedAt = "created_at"
	SortUpdatedAt = "updated_at"
	SortPosition  = "position"  // a manual collection's order (collection filter only)
	SortRelevance = "relevance" // search rank (q only)
)

// ProductFilter is a product list query. Empty fields do not filter.
type ProductFilter struct {
	Status          string
	ProductType     string
	Vendor          string
	MinPrice        *decimal.Decimal
	MaxPrice        *decimal.Decimal
	Tags            []string // lower case; any of them
	IDs             []string
	Collection      *domain.Collection // manual: its members; smart: its rules
	Query           string
	CreatedAfter    *time.Time // created_at >= CreatedAfter
	CreatedBefore   *time.Time // created_at < CreatedBefore
	InventoryStatus string
	IsFeatured      *bool
	Sort            string
	Desc            bool
	Offset          int
	Limit           int
}

// ListedProduct is a product of a list page with the URL of its first image ("" when
// it has none).
type ListedProduct struct {
	Product  *domain.Product
	ImageURL string
}

// ProductWithVariants is a product with its variants (default first, then by
// creation) and the URL of its first image ("" when it has none).
type ProductWithVariants struct {
	Product  *domain.Product
	Variants []*domain.Variant
	ImageURL string
}

// SluggedRepository stores entities (*T) that have an id and a unique slug: products
// and collections. Every method uses the transaction carried by ctx. A taken slug is
// the entity's own error (domain.ErrProductSlugTaken, domain.ErrCollectionSlugTaken), so
// is one not found (domain.ErrProductNotFound, domain.ErrCollectionNotFound).
type SluggedRepository[T any] interface {
	// Create inserts an entity; its slug must be free.
	Create(ctx context.Context, e *T) error
	// Update saves every field of an entity; its slug must be free.
	Update(ctx context.Context, e *T) error
	// Delete removes an entity with what belongs to it (a product's variants, images
	// and memberships; a collection's memberships).
	Delete(ctx context.Context, id string) error
	// Get loads an entity, or not found.
	Get(ctx context.Context, id string) (*T, error)
	// GetForUpdate loads an entity and locks its row until the transaction ends (a
	// no-op lock on SQLite, whose writers are serialised).
	GetForUpdate(ctx context.Context, id string) (*T, error)
	// GetBySlug loads an entity by slug, or not found.
	GetBySlug(ctx context.Context, slug string) (*T, error)
	// SlugsLike lists the slugs in use that equal base or start with base + "-".
	SlugsLike(ctx context.Context, base string) ([]string, error)
}

// ProductRepository stores products. Every method uses the transaction carried by ctx.
type ProductRepository interface {
	SluggedRepository[domain.Product]
	// GetMany loads the products found among ids (any order).
	GetMany(ctx context.Context, ids []string) ([]*domain.Product, error)
	// GetWithVariants loads the products found among ids (any order) with their
	// variants and first image in one round trip.
	GetWithVariants(ctx context.Context, ids []string) ([]ProductWithVariants, error)
	// SaleVariants loads the variants of the products found among ids (any order of
	// products, a product's default variant first) with what a sale needs of them.
	SaleVariants(ctx context.Context, ids []string) ([]api.SaleVariant, error)
	// GetWithVariant loads a product with only one of its variants (the default one
	// when variantID is "", none when the product has no such variant) and its first
	// image in one round trip, or domain.ErrProductNotFound.
	GetWithVariant(ctx context.Context, productID, variantID string) (ProductWithVariants, error)
	// GetByVariant loads the product a variant belongs to with only that variant and
	// its first image in one round trip, or domain.ErrVariantNotFound.
	GetByVariant(ctx context.Context, variantID string) (ProductWithVariants, error)
	// List returns one page of products matching f with their first image URLs.
	List(ctx context.Context, f ProductFilter) ([]ListedProduct, error)
	// Count counts the products matching f (Sort, Desc, Offset and Limit aside).
	Count(ctx context.Context, f ProductFilter) (int64, error)
	// LockMany loads the products found among ids and locks their rows, in id order
	// (one statement; no lock on SQLite, whose writers are serialised).
	LockMany(ctx context.Context, ids []string) ([]*domain.Product, error)
	// SumInventoryQuantities sets each product's stock total to the sum of its
	// variants' and returns the totals (one statement).
	SumInventoryQuantities(ctx context.Context, ids []string) (map[string]int, error)
	// Seed inserts products with their variants in batches (no slug retry, no events).
	Seed(ctx context.Context, products []*domain.Product, variants []*domain.Variant) error
}

// VariantQuantity is a variant's stock total.
type VariantQuantity struct {
	ProductID, VariantID string
	Quantity             int
}

// ProductPartRepository stores the parts (*T) of products that are addressed by
// product and id: variants and image records.
type ProductPartRepository[T any] interface {
	// Create inserts a part (a taken variant SKU is domain.ErrVariantSKUTaken).
	Create(ctx context.Context, e *T) error
	// Update saves a part (a taken variant SKU is domain.ErrVariantSKUTaken).
	Update(ctx context.Context, e *T) error
	// Delete removes a part of a product.
	Delete(ctx context.Context, productID, id string) error
	// Get loads a part of a product, or its not-found error (domain.ErrVariantNotFound,
	// domain.ErrImageNotFound).
	Get(ctx context.Context, productID, id string) (*T, error)
	// List returns a page of a product's parts and their count: variants default
	// first, then by creation; images by position.
	List(ctx context.Context, productID string, offset, limit int) ([]*T, int64, error)
}

// VariantRepository stores variants.
type VariantRepository interface {
	ProductPartRepository[domain.Variant]
	// ListByProducts returns every variant of the products, grouped by product id,
	// each group default first, then by creation.
	ListByProducts(ctx context.Context, productIDs []string) (map[string][]*domain.Variant, error)
	// SetQuantities stores variants' stock totals in one statement; a variant that
	// does not exist (or is not its product's) is skipped.
	SetQuantities(ctx context.Context, qs []VariantQuantity) error
	// SumQuantities sums variant stock per product.
	SumQuantities(ctx context.Context, productIDs []string) (map[string]int, error)
}

// ImageRepository stores image records (the files live in ImageStorage).
type ImageRepository interface {
	ProductPartRepository[domain.Image]
	// ListByProduct returns every image of a product by position.
	ListByProduct(ctx context.Context, productID string) ([]*domain.Image, error)
	// Count counts a product's images.
	Count(ctx context.Context, productID string) (int, error)
	// Shift adds delta to the positions from..to (inclusive; to 0 = no upper bound).
	Shift(ctx context.Context, productID string, from, to, delta int) error
}

// CollectionFilter is a collection list query.
type CollectionFilter struct {
	IsActive       *bool
	CollectionType string
	Sort           string // title | created_at | updated_at
	Desc           bool
	Offset         int
	Limit          int
}

// CollectionRepository stores collections and their manual memberships.
type CollectionRepository interface {
	SluggedRepository[domain.Collection] // GetForUpdate: membership positions change
	// List returns a page of collections and the total count.
	List(ctx context.Context, f CollectionFilter) ([]*domain.Collection, int64, error)
	// ListSmart returns every smart collection.
	ListSmart(ctx context.Context) ([]*domain.Collection, error)
	// ListForProducts returns, per product id, the manual collections the product
	// belongs to, by title.
	ListForProducts(ctx context.Context, productIDs []string) (map[string][]*domain.Collection, error)
	// AddProduct inserts a membership; an existing one is domain.ErrProductInCollection.
	AddProduct(ctx context.Context, m *domain.Membership) error
	// GetMembership loads a membership, or domain.ErrProductNotFound.
	GetMembership(ctx context.Context, collectionID, productID string) (*domain.Membership, error)
	// RemoveProduct deletes a membership.
	RemoveProduct(ctx context.Context, collectionID, productID string) error
	// CountProducts counts a manual collection's members.
	CountProducts(ctx context.Context, collectionID string) (int, error)
	// ShiftProducts adds delta to the member positions >= from.
	ShiftProducts(ctx context.Context, collectionID string, from, delta int) error
}
