package domain

import "github.com/gocommerce/commerce/platform/apperr"

// The module's errors (Part 2 names no shipping codes; docs/decisions/0150).
var (
	ErrShipmentNotFound   = apperr.New(apperr.NotFound, "SHIPMENT_NOT_FOUND", "Shipment not found")
	ErrInvalidCarrier     = apperr.New(apperr.Invalid, "INVALID_CARRIER", "Unknown carrier")
	ErrInvalidServiceCode = apperr.New(apperr.Invalid, "INVALID_SERVICE_CODE", "The carrier does not offer this service for the shipment")
	ErrCarrierUnavailable = apperr.New(apperr.Unavailable, "CARRIER_UNAVAILABLE", "The carrier did not answer")
	ErrCarrierRejected    = apperr.New(apperr.Invalid, "CARRIER_REJECTED", "The carrier refused the request")
	ErrRatesUnavailable   = apperr.New(apperr.Unavailable, "RATES_UNAVAILABLE", "No carrier answered with rates")
	ErrInvalidTransition  = apperr.New(apperr.Invalid, "INVALID_STATUS_TRANSITION", "requested status not reachable")
	ErrWebhookSignature   = apperr.New(apperr.Invalid, "INVALID_SIGNATURE", "Webhook signature does not match")
)
