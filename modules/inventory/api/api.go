// Package api is what other modules (and cmd) may import from inventory: the Inventory
// interface (reservations for checkout and orders, adjustments, totals), its DTOs, its
// errors and its event payloads. No framework imports.
package api

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Event types published through the outbox, in the transaction of the change
// (docs/decisions/0034-inventory-events.md). The data of each is the payload type below,
// shaped as the HTTP API answers the operation.
const (
	EventAdjusted    = "inventory.adjusted"    // Adjustment (adjust and set)
	EventReceived    = "inventory.received"    // Receipt
	EventReserved    = "inventory.reserved"    // Reservation
	EventReleased    = "inventory.released"    // Reservation (status released, with reason)
	EventTransferred = "inventory.transferred" // Transfer
)

// Release reasons (the spec's values).
const (
	ReleaseOrderCancelled = "order_cancelled"
	ReleaseOrderExpired   = "order_expired"
	ReleaseManual         = "manual_release"
	ReleaseOrderCompleted = "order_completed" // commits the stock instead of returning it
)

// Reservation states.
const (
	ReservationActive   = "active"
	ReservationReleased = "released"
)

// DefaultLocationID is the id of the default location every installation has.
const DefaultLocationID = "00000000-0000-4000-8000-000000000001"

// Errors other modules may test for with errors.Is (they match on the code).
var (
	ErrProductNotFound            = apperr.New(apperr.NotFound, "PRODUCT_NOT_FOUND", "Product not found")
	ErrVariantNotFound            = apperr.New(apperr.NotFound, "VARIANT_NOT_FOUND", "Variant not found")
	ErrLocationNotFound           = apperr.New(apperr.NotFound, "LOCATION_NOT_FOUND", "Location not found")
	ErrLocationInactive           = apperr.New(apperr.Invalid, "LOCATION_INACTIVE", "Location is not active")
	ErrLocationCodeTaken          = apperr.New(apperr.Conflict, "LOCATION_CODE_TAKEN", "Location code is already in use")
	ErrInventoryNegative          = apperr.New(apperr.Invalid, "INVENTORY_NEGATIVE", "Negative stock is not allowed")
	ErrInsufficientInventory      = apperr.New(apperr.Invalid, "INSUFFICIENT_INVENTORY", "Not enough stock available")
	ErrInvalidQuantity            = apperr.New(apperr.Invalid, "INVALID_QUANTITY", "Quantity must be positive")
	ErrReservationNotFound        = apperr.New(apperr.NotFound, "RESERVATION_NOT_FOUND", "Reservation not found")
	ErrReservationAlreadyReleased = apperr.New(apperr.Conflict, "RESERVATION_ALREADY_RELEASED", "Reservation is already released")
)

// ReserveCommand holds stock of a variant at a location for an order.
type ReserveCommand struct {
	ProductID  string
	VariantID  string // "" for the product's default variant
	LocationID string // "" for the default location
	OrderID    string
	Quantity   int
	// TTL overrides inventory.reservation_timeout when positive.
	TTL time.Duration
	// Variant, with VariantID set, is the variant as the caller has just read it from
	// the catalog in ctx's transaction (checkout): when every command of a ReserveAll
	// has it, the catalog is not read again (docs/decisions/0229).
	Variant *VariantFacts
}

// VariantFacts is what a reservation needs to know of a catalog variant.
type VariantFacts struct {
	ProductName       string
	LowStockThreshold int
	Currency          string
	Title, SKU        string
	Policy            string // the variant's inventory policy: deny or continue
	IsDefault         bool
}

// Reservation is a stock reservation; the data of inventory.reserved and
// inventory.released.
type Reservation struct {
	ID            string     `json:"reservation_id"`
	ProductID     string     `json:"product_id"`
	VariantID     string     `json:"variant_id"`
	LocationID    string     `json:"location_id"`
	OrderID       string     `json:"order_id"`
	Quantity      int        `json:"quantity"`
	Status        string     `json:"status"`
	ExpiresAt     time.Time  `json:"expires_at"`
	CreatedAt     time.Time  `json:"created_at"`
	ReleasedAt    *time.Time `json:"released_at,omitempty"`
	ReleaseReason string     `json:"reason,omitempty"`
}

// AdjustCommand changes a variant's available stock at a location by a signed amount.
type AdjustCommand struct {
	ProductID  string
	VariantID  string // "" for the default variant
	LocationID string // "" for the default location
	Adjustment int    // signed, not zero
	Reason     string // damaged, lost, found, count, return, other, or free text ("other" when empty)
	Notes      string
	Reference  string
	Actor      string // who did it (recorded as adjusted_by); "system" when empty
}

// SetCommand makes a variant's available stock at a location equal to Quantity.
type SetCommand struct {
	ProductID  string
	VariantID  string
	LocationID string
	Quantity   int
	Reason     string // "count" when empty
	Notes      string
	Reference  string
	Actor      string
}

// Adjustment is the outcome of an adjust or a set; the data of inventory.adjusted.
type Adjustment struct {
	MovementID     string    `json:"movement_id"`
	ProductID      string    `json:"product_id"`
	VariantID      string    `json:"variant_id"`
	LocationID     string    `json:"location_id"`
	MovementType   string    `json:"movement_type"`
	Adjustment     int       `json:"adjustment"`
	QuantityBefore int       `json:"quantity_before"`
	QuantityAfter  int       `json:"quantity_after"`
	Reason         string    `json:"reason"`
	Notes          string    `json:"notes"`
	Reference      string    `json:"reference"`
	AdjustedBy     string    `json:"adjusted_by"`
	CreatedAt      time.Time `json:"created_at"`
}

// ReceiveCommand adds received stock (quantity > 0) at a location.
type ReceiveCommand struct {
	ProductID   string
	VariantID   string
	LocationID  string
	Quantity    int
	CostPerUnit string // optional non-negative decimal string
	Reference   string
	Notes       string
	Actor       string
}

// Receipt is the outcome of a receive; the data of inventory.received.
type Receipt struct {
	MovementID     string    `json:"movement_id"`
	ProductID      string    `json:"product_id"`
	VariantID      string    `json:"variant_id"`
	LocationID     string    `json:"location_id"`
	MovementType   string    `json:"movement_type"`
	Quantity       int       `json:"quantity"`
	QuantityBefore int       `json:"quantity_before"`
	QuantityAfter  int       `json:"quantity_after"`
	CostPerUnit    *string   `json:"cost_per_unit"`
	Reference      string    `json:"reference"`
	Notes          string    `json:"notes"`
	ReceivedBy     string    `json:"received_by"`
	CreatedAt      time.Time `json:"created_at"`
}

// TransferCommand moves available stock of a variant between two locations.
type TransferCommand struct {
	ProductID      string
	VariantID      string
	FromLocationID string
	ToLocationID   string
	Quantity       int
	Reason         string // "transfer" when empty
	Reference      string
	Notes          string
	Actor          string
}

// Transfer is the outcome of a transfer; the data of inventory.transferred.
type Transfer struct {
	TransferID     string    `json:"transfer_id"`
	ProductID      string    `json:"product_id"`
	VariantID      string    `json:"variant_id"`
	FromLocationID string    `json:"from_location_id"`
	ToLocationID   string    `json:"to_location_id"`
	Quantity       int       `json:"quantity"`
	Status         string    `json:"status"`
	Reason         string    `json:"reason"`
	Reference      string    `json:"reference"`
	Notes          string    `json:"notes"`
	TransferredBy  string    `json:"transferred_by"`
	CreatedAt      time.Time `json:"created_at"`
	CompletedAt    time.Time `json:"completed_at"`
}

// CreateLocationCommand creates a stock location.
type CreateLocationCommand struct {
	Name, Code, Address1, Address2, City, Province, Country, Zip, Phone string
	IsActive                                                            *bool // nil: active
}

// Location is a stock location.
type Location struct {
	ID, Name, Code, Address1, Address2, City, Province, Country, Zip, Phone string
	IsActive, IsDefault                                                     bool
	CreatedAt, UpdatedAt                                                    time.Time
}

// VariantStock is a variant's stock summed over every location.
type VariantStock struct {
	VariantID string
	ProductID string // "" when the variant has no stock records
	Available int
	Reserved  int
	Incoming  int
}

// Inventory is what the inventory module offers other modules. Every method joins the
// transaction carried by ctx, so a caller may reserve several lines and create its
// order atomically (reserve lines in a stable order, e.g. by product id, to avoid
// deadlocks between concurrent callers).
type Inventory interface {
	// Reserve moves stock from available to reserved for an order until it is released
	// or expires: ErrInsufficientInventory when not enough is available (unless the
	// variant's policy is continue), ErrInvalidQuantity, ErrProductNotFound,
	// ErrVariantNotFound, ErrLocationNotFound, ErrLocationInactive.
	Reserve(ctx context.Context, cmd ReserveCommand) (Reservation, error)
	// ReserveAll is Reserve for several lines, all or none, in a few statements
	// whatever the number of lines (docs/decisions/0174). The products are locked in
	// the commands' order.
	ReserveAll(ctx context.Context, cmds []ReserveCommand) ([]Reservation, error)
	// Release ends an active reservation with a reason (the Release* constants):
	// order_completed commits the stock, any other reason returns it to available.
	// ErrReservationNotFound, ErrReservationAlreadyReleased.
	Release(ctx context.Context, reservationID, reason string) (Reservation, error)
	// Commit is Release with order_completed.
	Commit(ctx context.Context, reservationID string) (Reservation, error)
	// CommitAll commits the reservations among ids still active, all in one go
	// (docs/decisions/0174), and returns them: one no longer active (released or
	// expired) is left out; an unknown id is ErrReservationNotFound.
	CommitAll(ctx context.Context, reservationIDs []string) ([]Reservation, error)
	// ReleaseOrder releases every active reservation of an order with the reason and
	// returns them (none is not an error).
	ReleaseOrder(ctx context.Context, orderID, reason string) ([]Reservation, error)
	// Adjust changes available stock by a signed amount (ErrInventoryNegative when a
	// decrease would go below zero under policy deny).
	Adjust(ctx context.Context, cmd AdjustCommand) (Adjustment, error)
	// Set makes available stock equal to a quantity (a count).
	Set(ctx context.Context, cmd SetCommand) (Adjustment, error)
	// Receive adds received stock (quantity > 0) with an optional cost per unit.
	Receive(ctx context.Context, cmd ReceiveCommand) (Receipt, error)
	// Transfer moves available stock between two locations.
	Transfer(ctx context.Context, cmd TransferCommand) (Transfer, error)
	// Totals returns the stock of each variant summed over locations, one entry per
	// requested id in order (zeros for a variant without stock records).
	Totals(ctx context.Context, variantIDs []string) ([]VariantStock, error)
	// CreateLocation creates a stock location (e.g. for seeding); a code in use is a
	// LOCATION_CODE_TAKEN conflict.
	CreateLocation(ctx context.Context, cmd CreateLocationCommand) (Location, error)
}
