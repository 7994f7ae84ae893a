package httpx

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/log"
)

// statusOf is the one table from error kind to HTTP status.
var statusOf = map[apperr.Kind]int{
	apperr.Internal:             http.StatusInternalServerError,
	apperr.Invalid:              http.StatusBadRequest,
	apperr.NotFound:             http.StatusNotFound,
	apperr.Conflict:             http.StatusConflict,
	apperr.Gone:                 http.StatusGone,
	apperr.Unauthenticated:      http.StatusUnauthorized,
	apperr.Forbidden:            http.StatusForbidden,
	apperr.RateLimited:          http.StatusTooManyRequests,
	apperr.Unavailable:          http.StatusServiceUnavailable,
	apperr.PaymentRequired:      http.StatusPaymentRequired,
	apperr.UnsupportedMediaType: http.StatusUnsupportedMediaType,
	apperr.TooLarge:             http.StatusRequestEntityTooLarge,
	apperr.MethodNotAllowed:     http.StatusMethodNotAllowed,
}

// categoryOf names the envelope's category per kind.
var categoryOf = map[apperr.Kind]string{
	apperr.Internal:             "internal",
	apperr.Invalid:              "validation",
	apperr.NotFound:             "not_found",
	apperr.Conflict:             "conflict",
	apperr.Gone:                 "gone",
	apperr.Unauthenticated:      "auth",
	apperr.Forbidden:            "auth",
	apperr.RateLimited:          "rate_limit",
	apperr.Unavailable:          "unavailable",
	apperr.PaymentRequired:      "payment",
	apperr.UnsupportedMediaType: "request",
	apperr.TooLarge:             "request",
	apperr.MethodNotAllowed:     "request",
}

// StatusOf returns the HTTP status of an error.
func StatusOf(err error) int {
	if e, ok := apperr.As(err); ok {
		return statusOf[e.Kind]
	}
	return http.StatusInternalServerError
}

// Unreachable reports an error that says a dependency could not be reached rather
// than that the request was wrong: a refused, reset or broken connection (any
// *net.OpError, driver.ErrBadConn, an unexpected EOF), or PostgreSQL refusing work
// while it shuts down, restarts or starts (SQLSTATE class 08, 57P01, 57P02, 57P03;
// read through the SQLState method pgx's errors have, so this package needs no
// driver). Such a request answers 503 with Retry-After, not 500 (docs/decisions/0220).
func Unreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	var st interface{ SQLState() string }
	if errors.As(err, &st) {
		switch code := st.SQLState(); {
		case strings.HasPrefix(code, "08"), code == "57P01", code == "57P02", code == "57P03":
			return true
		}
	}
	return false
}

// retryAfterBusy is the Retry-After of a 503: the store was busy or slow, not down.
const retryAfterBusy = "1"

// ErrorBody is the envelope's error object (CONTRACT.md §5).
type ErrorBody struct {
	Message   string            `json:"message"`
	Code      any               `json:"code"` // spec code string, or the HTTP status for generic errors
	Category  string            `json:"category"`
	RequestID string            `json:"request_id"`
	Status    int               `json:"status,omitempty"`
	Fields    map[string]string `json:"fields,omitempty"`
}

// Error writes err as the error envelope and aborts the request. It is the only place
// errors become responses. 5xx is logged with the request id; 4xx at debug.
func Error(c *gin.Context, err error) {
	e, ok := apperr.As(err)
	if !ok || e.Kind == apperr.Internal {
		// A body cut by the limit (http.MaxBytesReader) wherever it was read.
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			e = apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", mbe.Limit))
		case errors.Is(err, context.DeadlineExceeded):
			// The request's deadline (http.request_timeout) or a bounded wait ended it.
			e = apperr.New(apperr.Unavailable, "", "The request took too long; retry shortly").WithCause(err)
		case Unreachable(err):
			// The database (or another dependency) is down or restarting: the request
			// can be retried as it is (docs/decisions/0220).
			e = apperr.New(apperr.Unavailable, "", "The store is unavailable; retry shortly").WithCause(err)
		default:
			log.FromContext(c.Request.Context(), zap.NewNop()).Error("internal error", zap.Error(err))
			e = apperr.New(apperr.Internal, "", "Internal server error")
		}
	}
	status := statusOf[e.Kind]
	if status == http.StatusServiceUnavailable && c.Writer.Header().Get("Retry-After") == "" {
		c.Header("Retry-After", retryAfterBusy)
	}
	if status >= 500 && e.Kind != apperr.Internal {
		log.FromContext(c.Request.Context(), zap.NewNop()).Error("request failed", zap.Error(err))
	} else if status < 500 {
		log.FromContext(c.Request.Context(), zap.NewNop()).Debug("request rejected", zap.Error(err))
	}
	body := gin.H{}
	if e.Code == "" {
		body["code"] = status
	} else {
		body["code"] = e.Code
		body["status"] = status
	}
	body["message"] = e.Message
	body["category"] = categoryOf[e.Kind]
	body["request_id"] = RequestID(c)
	if len(e.Fields) > 0 {
		body["fields"] = e.Fields
	}
	for k, v := range e.Extra {
		body[k] = v
	}
	c.AbortWithStatusJSON(status, gin.H{"error": body})
}

// Abort is Error for middleware that already decided to stop.
func Abort(c *gin.Context, err error) { Error(c, err) }
