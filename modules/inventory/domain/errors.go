package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Domain errors. The codes match the ones inventory/api exports, so errors.Is works
// across the boundary. Statuses follow CONTRACT.md §5 where the spec gives none.
var (
	ErrProductNotFound            = apperr.New(apperr.NotFound, "PRODUCT_NOT_FOUND", "Product not found")
	ErrVariantNotFound            = apperr.New(apperr.NotFound, "VARIANT_NOT_FOUND", "Variant not found")
	ErrLocationNotFound           = apperr.New(apperr.NotFound, "LOCATION_NOT_FOUND", "Location not found")
	ErrLocationCodeTaken          = apperr.New(apperr.Conflict, "LOCATION_CODE_TAKEN", "Location code is already in use")
	ErrLocationInactive           = apperr.New(apperr.Invalid, "LOCATION_INACTIVE", "Location is not active")
	ErrInventoryNegative          = apperr.New(apperr.Invalid, "INVENTORY_NEGATIVE", "Negative stock is not allowed")
	ErrInsufficientInventory      = apperr.New(apperr.Invalid, "INSUFFICIENT_INVENTORY", "Not enough stock available")
	ErrInvalidQuantity            = apperr.New(apperr.Invalid, "INVALID_QUANTITY", "Quantity must be positive")
	ErrReservationNotFound        = apperr.New(apperr.NotFound, "RESERVATION_NOT_FOUND", "Reservation not found")
	ErrReservationAlreadyReleased = apperr.New(apperr.Conflict, "RESERVATION_ALREADY_RELEASED", "Reservation is already released")
)
