package domain

import "github.com/gocommerce/commerce/platform/apperr"

// The module's errors (the spec names no webhook codes; docs/decisions/0190).
var (
	ErrEndpointNotFound = apperr.New(apperr.NotFound, "WEBHOOK_ENDPOINT_NOT_FOUND", "Webhook endpoint not found")
	ErrDeliveryNotFound = apperr.New(apperr.NotFound, "WEBHOOK_DELIVERY_NOT_FOUND", "Webhook delivery not found")
	ErrEndpointDisabled = apperr.New(apperr.Conflict, "WEBHOOK_ENDPOINT_DISABLED", "The webhook endpoint is disabled; enable it first")
)
