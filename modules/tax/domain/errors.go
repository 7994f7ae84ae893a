package domain

import "github.com/gocommerce/commerce/platform/apperr"

// Tax error codes: the spec's tax codes (Part 2 "Errors"), lower case as written there.
// Statuses follow CONTRACT.md §5: *_not_found 404, every other code 400
// (docs/decisions/0131).
const (
	CodeInvalidVATID         = "invalid_vat_id"
	CodeVIESUnavailable      = "vies_unavailable"
	CodeZoneNotFound         = "tax_zone_not_found"
	CodeInvalidRate          = "invalid_tax_rate"
	CodeOSSReportFailed      = "oss_report_failed"
	CodeCalculationFailed    = "tax_calculation_failed"
	CodeShippingTaxFailed    = "shipping_tax_failed"
	CodeValidation           = "validation_error"
	CodeZoneExists           = "TAX_ZONE_EXISTS"
	CodeCategoryNotFound     = "TAX_CATEGORY_NOT_FOUND"
	MsgMalformedVATIDDefault = "Invalid VAT ID format"
)

// Errors of the tax module.
var (
	// ErrMalformedVATID is a VAT id whose format is wrong for its member state. The
	// HTTP adapter writes it as the spec's literal body {error: <text>, code:
	// validation_error} (Part 2 "Tax and checkout", rule 2).
	ErrMalformedVATID = apperr.New(apperr.Invalid, CodeValidation, MsgMalformedVATIDDefault)
	// ErrInvalidVATID is a well-formed VAT id VIES does not know (asked for B2B
	// treatment in a calculation).
	ErrInvalidVATID = apperr.New(apperr.Invalid, CodeInvalidVATID, "VAT ID is not valid according to VIES")
	// ErrVIESUnavailable is VIES down, slow past tax.vies_timeout, or busy.
	ErrVIESUnavailable = apperr.New(apperr.Invalid, CodeVIESUnavailable, "The EU VIES service is unavailable; retry later")
	ErrZoneNotFound    = apperr.New(apperr.NotFound, CodeZoneNotFound, "Tax zone not found")
	ErrInvalidRate     = apperr.New(apperr.Invalid, CodeInvalidRate, "Invalid tax rate")
	ErrOSSReport       = apperr.New(apperr.Invalid, CodeOSSReportFailed, "OSS report failed")
	ErrCalculation     = apperr.New(apperr.Invalid, CodeCalculationFailed, "Tax calculation failed")
	ErrShippingTax     = apperr.New(apperr.Invalid, CodeShippingTaxFailed, "Shipping tax calculation failed")
	ErrZoneExists      = apperr.New(apperr.Conflict, CodeZoneExists, "A tax zone with this code already exists")
	ErrCategoryMissing = apperr.New(apperr.NotFound, CodeCategoryNotFound, "Tax category not found")
)
