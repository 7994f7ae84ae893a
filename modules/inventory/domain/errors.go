package domain

import (
	"errors"
	"fmt"

	"github.com/gocommerce/commerce/platform/apperr"
)

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
	// ErrStockLimit: a change would take stock beyond MaxStock (docs/decisions/0094).
	// Use cases report it as a validation error naming the request's field
	// (StockLimitField); the code matches the catalog's, so errors.Is works across.
	ErrStockLimit = apperr.New(apperr.Invalid, "STOCK_LIMIT", fmt.Sprintf("Stock must stay from -%d to %d", MaxStock, MaxStock))
)

// StockLimitField turns ErrStockLimit into a validation error naming field; other
// errors pass unchanged.
func StockLimitField(err error, field string) error {
	if errors.Is(err, ErrStockLimit) {
		return apperr.Validation(map[string]string{field: fmt.Sprintf(
			"must keep the stock from -%d to %d (at a location, over all locations and over the product's variants)", MaxStock, MaxStock)})
	}
	return err
}
