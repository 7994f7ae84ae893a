package domain

import (
	"errors"
	"fmt"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Domain errors: those other modules may test for are inventory/api's own values, so
// errors.Is works across the boundary. Statuses follow CONTRACT.md §5 where the spec
// gives none.
var (
	ErrProductNotFound            = api.ErrProductNotFound
	ErrVariantNotFound            = api.ErrVariantNotFound
	ErrLocationNotFound           = api.ErrLocationNotFound
	ErrLocationCodeTaken          = api.ErrLocationCodeTaken
	ErrLocationInactive           = api.ErrLocationInactive
	ErrInventoryNegative          = api.ErrInventoryNegative
	ErrInsufficientInventory      = api.ErrInsufficientInventory
	ErrInvalidQuantity            = api.ErrInvalidQuantity
	ErrReservationNotFound        = api.ErrReservationNotFound
	ErrReservationAlreadyReleased = api.ErrReservationAlreadyReleased
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
