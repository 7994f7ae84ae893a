package domain

import "github.com/gocommerce/commerce/platform/apperr"

// The module's errors (Part 2 names no notification codes; docs/decisions/0180).
var (
	ErrNotificationNotFound = apperr.New(apperr.NotFound, "NOTIFICATION_NOT_FOUND", "Notification not found")
	ErrTemplateNotFound     = apperr.New(apperr.NotFound, "TEMPLATE_NOT_FOUND", "Template not found")
	ErrTemplateExists       = apperr.New(apperr.Conflict, "TEMPLATE_EXISTS", "A template with this id exists")
	ErrSystemTemplate       = apperr.New(apperr.Invalid, "SYSTEM_TEMPLATE", "System templates cannot be deleted")
	ErrInvalidTemplate      = apperr.New(apperr.Invalid, "INVALID_TEMPLATE", "The template does not parse")
	ErrInvalidTransition    = apperr.New(apperr.Invalid, "INVALID_STATUS_TRANSITION", "requested status not reachable")
	ErrTooManyRecipients    = apperr.New(apperr.Invalid, "TOO_MANY_RECIPIENTS", "A bulk send takes at most 10000 recipients")
	ErrInvalidSignature     = apperr.New(apperr.Invalid, "INVALID_SIGNATURE", "Webhook signature does not match")
)
