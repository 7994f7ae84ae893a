// Package ports declares what the inventory module needs from the outside: its
// repositories and the catalog, in inventory's words.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/domain"
)

// Variant is what inventory needs to know about a catalog variant and its product.
type Variant struct {
	ProductID         string
	ProductName       string
	LowStockThreshold int
	Currency          string
	VariantID         string
	Title             string
	SKU               string
	Policy            domain.Policy
	IsDefault         bool
}

// Product is what inventory needs to know about a catalog product.
type Product struct {
	ID                string
	Name              string
	LowStockThreshold int
	Currency          string
}

// VariantTotal is a variant's available stock summed over every location.
type VariantTotal struct {
	ProductID string
	VariantID string
	Available int
}

// Catalog is the product catalog as inventory sees it. Every method joins ctx's
// transaction.
type Catalog interface {
	// GetVariant returns the variant of the product, or its default variant when
	// variantID is "": domain.ErrProductNotFound or domain.ErrVariantNotFound.
	GetVariant(ctx context.Context, productID, variantID string) (Variant, error)
	// GetVariants is GetVariant for several (product, variant) pairs, in order, with
	// one catalog read for those naming their variant: the first pair's error fails it.
	GetVariants(ctx context.Context, refs []VariantRef) ([]Variant, error)
	// GetProduct returns a product or domain.ErrProductNotFound.
	GetProduct(ctx context.Context, productID string) (Product, error)
	// SetInventoryQuantities records the variants' new stock totals (their
	// inventory_quantity) inside ctx's transaction.
	SetInventoryQuantities(ctx context.Context, totals []VariantTotal) error
}

// VariantRef names a variant: its product and its id ("" for the default variant).
type VariantRef struct {
	ProductID string
	VariantID string
}

// Page is a slice of a list.
type Page struct {
	Offset int
	Limit  int
}

// LocationFilter narrows the location list.
type LocationFilter struct {
	IsActive *bool
}

// LocationRepository stores locations.
type LocationRepository interface {
	// Create inserts a location; a code in use is domain.ErrLocationCodeTaken.
	Create(ctx context.Context, l *domain.Location) error
	// Get returns a location or domain.ErrLocationNotFound.
	Get(ctx context.Context, id string) (*domain.Location, error)
	// List returns a page of locations (the default first, then by name) and the total.
	List(ctx context.Context, f LocationFilter, p Page) ([]*domain.Location, int64, error)
}

// ProductInfo is the copy of a product's name and threshold kept with its stock.
type ProductInfo struct {
	ID                string
	Name              string
	LowStockThreshold int
}

// LevelDelta is a change of one level's quantities and its guard.
type LevelDelta struct {
	Key   LevelKey
	Delta domain.Quantities
	Guard Guard
}

// LevelKey names one variant at one location.
type LevelKey struct {
	ProductID  string
	VariantID  string
	LocationID string
}

// ErrGuard is returned by LevelRepository.Apply when the conditional update's guard
// refused the change; the use case turns it into its domain error.
var ErrGuard = errors.New("inventory: level guard refused the change")

// Guard is the condition a level update must meet in the database.
type Guard struct {
	// NonNegativeAvailable refuses a decrease of available below zero.
	NonNegativeAvailable bool
}

// LevelSort orders the level list.
type LevelSort string

// Level sorts.
const (
	SortProductID LevelSort = "product_id"
	SortAvailable LevelSort = "available"
	SortUpdatedAt LevelSort = "updated_at"
)

// LevelFilter narrows and orders the level list.
type LevelFilter struct {
	ProductID       string
	LocationID      string // totals and locations[] count only this location
	Status          domain.StockStatus
	LowStockOnly    bool // total available at or below the threshold (out of stock included)
	IncludeIncoming bool // incoming stock counts as available for status and filters
	Sort            LevelSort
	Desc            bool
}

// LevelRepository stores per-product stock records and per-variant, per-location levels.
type LevelRepository interface {
	// UpsertProduct creates or refreshes the product's stock record and locks it until
	// the transaction ends: every stock change of a product is serialised on it.
	UpsertProduct(ctx context.Context, p ProductInfo, now time.Time) error
	// UpsertProducts is UpsertProduct for several products in one statement, locking
	// them in the given order.
	UpsertProducts(ctx context.Context, ps []ProductInfo, now time.Time) error
	// LockProduct locks an existing product's stock record (touching updated_at);
	// false when there is none.
	LockProduct(ctx context.Context, productID string, now time.Time) (bool, error)
	// LockProducts locks the existing stock records of the products in product id
	// order (no deadlock between two callers), in one statement.
	LockProducts(ctx context.Context, productIDs []string) error
	// LockProductsOf is LockProducts for the products of the reservations.
	LockProductsOf(ctx context.Context, reservationIDs []string) error
	// RefreshProduct updates name and threshold of an existing record (no-op otherwise).
	RefreshProduct(ctx context.Context, p ProductInfo) error
	// Ensure returns the level's quantities, creating a zero level when there is none.
	Ensure(ctx context.Context, k LevelKey, now time.Time) (domain.Quantities, error)
	// FindAllAt is FindAll that also answers, for the location of each level found,
	// whether it is active (one statement: the levels with their locations).
	FindAllAt(ctx context.Context, keys []LevelKey) (map[LevelKey]domain.Quantities, map[string]bool, error)
	// FindAll returns the quantities of the levels that exist among keys.
	FindAll(ctx context.Context, keys []LevelKey) (map[LevelKey]domain.Quantities, error)
	// Find returns the level's quantities; false when there is none.
	Find(ctx context.Context, k LevelKey) (domain.Quantities, bool, error)
	// Apply adds delta to the level with a conditional update that also keeps reserved
	// and incoming non-negative; ErrGuard when the condition fails.
	Apply(ctx context.Context, k LevelKey, delta domain.Quantities, g Guard, now time.Time) error
	// ApplyAll is Apply for several levels in one statement (deltas of one key are
	// added up): all or ErrGuard, and then the caller's transaction must roll back.
	ApplyAll(ctx context.Context, ds []LevelDelta, now time.Time) error
	// ApplyAllLater is ApplyAll for a caller whose transaction goes on without
	// reading the answer: in a PostgreSQL transaction the update is queued and goes
	// out with the transaction's next statement, and should a guard fail, refused is
	// the transaction's answer (decision 0240). Elsewhere it runs at once and answers
	// refused for a failed guard.
	ApplyAllLater(ctx context.Context, ds []LevelDelta, now time.Time, refused error) error
	// VariantTotals sums each variant's levels over locations (absent ids are omitted).
	VariantTotals(ctx context.Context, variantIDs []string) (map[string]VariantStock, error)
	// ProductLevel returns a product's aggregated level; false when it has no levels.
	ProductLevel(ctx context.Context, productID string) (domain.ProductLevel, bool, error)
	// List returns a page of aggregated product levels and the total.
	List(ctx context.Context, f LevelFilter, p Page) ([]domain.ProductLevel, int64, error)
	// DeleteProduct removes every level of a product.
	DeleteProduct(ctx context.Context, productID string) error
	// DeleteVariant removes every level of a variant.
	DeleteVariant(ctx context.Context, variantID string) error
}

// VariantStock is a variant's stock summed over locations.
type VariantStock struct {
	ProductID string
	domain.Quantities
}

// MovementFilter narrows the movement list.
type MovementFilter struct {
	ProductID  string
	VariantID  string
	LocationID string
	Type       domain.MovementType
	Reference  string
	From       *time.Time // created_at >= From
	Until      *time.Time // created_at < Until
	Desc       bool
}

// MovementRepository stores movements (never updated or deleted).
type MovementRepository interface {
	// Add inserts movements (several in one statement).
	Add(ctx context.Context, ms ...*domain.Movement) error
	// List returns a page of movements with product and location names, and the total.
	List(ctx context.Context, f MovementFilter, p Page) ([]*domain.Movement, int64, error)
}

// ReservationRepository stores reservations.
type ReservationRepository interface {
	// Create inserts reservations (several in one statement).
	Create(ctx context.Context, rs ...*domain.Reservation) error
	// Get returns a reservation or domain.ErrReservationNotFound.
	Get(ctx context.Context, id string) (*domain.Reservation, error)
	// MarkReleased releases an active reservation with a conditional update; false when
	// it was no longer active.
	MarkReleased(ctx context.Context, id string, reason domain.ReleaseReason, at time.Time) (bool, error)
	// GetAll returns the reservations among ids that exist, in the order of ids.
	GetAll(ctx context.Context, ids []string) ([]*domain.Reservation, error)
	// ReleaseActive releases the active reservations among ids in one conditional
	// update and returns them (released); the others are left as they are.
	ReleaseActive(ctx context.Context, ids []string, reason domain.ReleaseReason, at time.Time) ([]*domain.Reservation, error)
	// Active lists a product's active reservations with location names, soonest expiry first.
	Active(ctx context.Context, productID string) ([]*domain.Reservation, error)
	// ActiveIDs lists the ids of active reservations of an order, a product or a
	// variant (exactly one of them set).
	ActiveIDs(ctx context.Context, by ReservationScope) ([]string, error)
	// Due lists up to limit ids of active reservations with expires_at <= now.
	Due(ctx context.Context, now time.Time, limit int) ([]string, error)
	// ReservedSince lists the variants (product and variant ids, each once) of the
	// reservations created at or after since.
	ReservedSince(ctx context.Context, since time.Time) ([]Variant, error)
}

// ReservationScope selects reservations by order, product or variant.
type ReservationScope struct {
	OrderID   string
	ProductID string
	VariantID string
}

// ProcessedEvents remembers the events a subscriber has handled (at-least-once
// delivery made idempotent).
type ProcessedEvents interface {
	// MarkProcessed records the event inside ctx's transaction; false when it was
	// already recorded.
	MarkProcessed(ctx context.Context, eventID, handler string, at time.Time) (bool, error)
}
