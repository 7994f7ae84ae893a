package domain

import (
	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Domain errors. The ones catalog/api exports are its values (ErrProductHasOrders with
// the force=true hint), so errors.Is works across the boundary. Statuses follow Part
// 2's error table and CONTRACT.md §5.
var (
	ErrProductNotFound        = api.ErrProductNotFound
	ErrProductSlugTaken       = apperr.New(apperr.Conflict, "PRODUCT_SLUG_TAKEN", "Slug is already in use by another product")
	ErrInvalidProductType     = apperr.New(apperr.Invalid, "INVALID_PRODUCT_TYPE", "product_type must be one of: physical, digital, service")
	ErrInvalidCurrency        = apperr.New(apperr.Invalid, "INVALID_CURRENCY", "currency must be an active ISO 4217 code such as USD")
	ErrInvalidPrice           = apperr.New(apperr.Invalid, "INVALID_PRICE", "Price must be a non-negative decimal string such as \"19.99\"")
	ErrVariantNotFound        = api.ErrVariantNotFound
	ErrVariantSKUTaken        = apperr.New(apperr.Conflict, "VARIANT_SKU_TAKEN", "SKU is already in use by another variant")
	ErrCollectionNotFound     = api.ErrCollectionNotFound
	ErrCollectionSlugTaken    = apperr.New(apperr.Conflict, "COLLECTION_SLUG_TAKEN", "Slug is already in use by another collection")
	ErrProductInCollection    = apperr.New(apperr.Conflict, "PRODUCT_ALREADY_IN_COLLECTION", "Product is already in this collection")
	ErrSmartCollectionManual  = apperr.New(apperr.Invalid, "SMART_COLLECTION", "Products of a smart collection are chosen by its rules and cannot be added or removed by hand")
	ErrImageNotFound          = apperr.New(apperr.NotFound, "IMAGE_NOT_FOUND", "Image not found")
	ErrImageTooLarge          = apperr.New(apperr.Invalid, "IMAGE_TOO_LARGE", "Image exceeds the size limit")
	ErrInvalidImageType       = apperr.New(apperr.Invalid, "INVALID_IMAGE_TYPE", "Image must be a JPEG, PNG or WebP file")
	ErrProductHasOrders       = api.ErrProductHasOrders.WithMessage("Cannot delete a product with orders; archive it instead, or delete with force=true")
	ErrDefaultVariantRequired = apperr.New(apperr.Invalid, "DEFAULT_VARIANT_REQUIRED", "The default variant cannot be deleted: every product keeps at least one variant")
	// ErrStockLimit: a product's stock over its variants would leave
	// -MaxInventoryQuantity..MaxInventoryQuantity (docs/decisions/0094).
	ErrStockLimit = api.ErrStockLimit
)

// StockLimitField is the validation error of a write that would take a product's
// stock over its variants beyond the limit.
var StockLimitField = apperr.Validation(map[string]string{
	"inventory_quantity": "must keep the product's stock over its variants at most 1000000000"})
