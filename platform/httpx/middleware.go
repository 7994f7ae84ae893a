package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/log"
	"github.com/gocommerce/commerce/platform/tx"
)

const (
	requestIDKey = "request_id"
	authErrKey   = "auth_error"
	// HeaderRequestID carries the request id in and out.
	HeaderRequestID = "X-Request-ID"
)

var validRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// RequestID returns the request's id.
func RequestID(c *gin.Context) string { return c.GetString(requestIDKey) }

func newRequestID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "req_" + hex.EncodeToString(b)
}

// requestContext assigns the request id (kept from X-Request-ID when well formed),
// puts a request-scoped logger into the context and gives the request its deadline
// (http.request_timeout), which every database call made with the request's context
// inherits.
func requestContext(logger *zap.Logger, timeout time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(HeaderRequestID)
		if !validRequestID.MatchString(id) {
			id = newRequestID()
		}
		c.Set(requestIDKey, id)
		c.Header(HeaderRequestID, id)
		ctx := log.WithFields(c.Request.Context(), logger, zap.String("request_id", id))
		ctx = tx.WithArrival(ctx, time.Now())
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		c.Request = c.Request.WithContext(ctx)
		c.Next()
	}
}

// Route names the request's route for logs and metrics: its template (e.g.
// /api/v1/products/:id), or "unmatched" when no route matched.
func Route(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	return "unmatched"
}

// accessLog logs every request once, after it completes. No headers, bodies or
// query strings are logged (they may carry tokens or card data).
func accessLog(logger *zap.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		route := Route(c)
		status := c.Writer.Status()
		fields := []zap.Field{
			zap.String("request_id", RequestID(c)),
			zap.String("method", c.Request.Method),
			zap.String("route", route),
			zap.Int("status", status),
			zap.Duration("latency", time.Since(start)),
			zap.String("client_ip", c.ClientIP()),
			zap.String("client_id", ClientID(c)),
		}
		switch {
		case status >= 500:
			logger.Error("request", fields...)
		case route == "/health" || route == "/ready" || route == "/metrics":
			logger.Debug("request", fields...)
		default:
			logger.Info("request", fields...)
		}
	}
}

// recovery turns a panic into the 500 envelope.
func recovery(logger *zap.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			if r := recover(); r != nil {
				if err, ok := r.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(r)
				}
				logger.Error("panic", zap.String("request_id", RequestID(c)), zap.Any("panic", r), zap.Stack("stack"))
				Error(c, fmt.Errorf("panic: %v", r))
			}
		}()
		c.Next()
	}
}

// BodyRule lets one route take a non-JSON media type, with its own size limit and,
// optionally, its own error for an oversized body (e.g. IMAGE_TOO_LARGE).
type BodyRule struct {
	Limit    int64
	TooLarge error
}

// bodyRoutes maps "METHOD /full/path media/type" to its rule.
type bodyRoutes map[string]BodyRule

// bodyRules enforces JSON bodies (415 otherwise, except media types a route registered)
// and the body size limit (413).
func bodyRules(limit int64, routes bodyRoutes) gin.HandlerFunc {
	return func(c *gin.Context) {
		r := c.Request
		hasBody := r.ContentLength > 0 || (r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody) || len(r.TransferEncoding) > 0
		if !hasBody || r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
			c.Next()
			return
		}
		rule := BodyRule{Limit: limit}
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "application/json" && !strings.HasSuffix(mt, "+json") {
			custom, ok := routes[r.Method+" "+c.FullPath()+" "+mt]
			if !ok {
				Error(c, apperr.New(apperr.UnsupportedMediaType, "", "Content-Type must be application/json"))
				return
			}
			rule = custom
		}
		max := rule.Limit
		if r.ContentLength > max {
			if rule.TooLarge != nil {
				Error(c, rule.TooLarge)
				return
			}
			Error(c, apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", max)))
			return
		}
		r.Body = http.MaxBytesReader(c.Writer, r.Body, max)
		c.Next()
	}
}

// Authentication messages (Part 1: category auth, code 401).
const (
	MsgMissingAuth = "Unauthorized: Missing authorization header"
	MsgForbidden   = "Forbidden: Insufficient permissions. Required: "
)

// identify authenticates the Authorization header when present. A bad credential is
// remembered, not rejected: public routes ignore it, protected routes answer 401 with it.
func identify(a auth.Authenticator) gin.HandlerFunc {
	return func(c *gin.Context) {
		h := strings.TrimSpace(c.GetHeader("Authorization"))
		if h == "" || a == nil {
			c.Next()
			return
		}
		cred := h
		if scheme, rest, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
			cred = strings.TrimSpace(rest)
		}
		p, err := a.Authenticate(c.Request.Context(), cred, c.ClientIP())
		if err != nil {
			c.Set(authErrKey, err)
			c.Next()
			return
		}
		c.Request = c.Request.WithContext(auth.WithPrincipal(c.Request.Context(), p))
		c.Next()
	}
}

// Principal returns the authenticated principal (nil when anonymous).
func Principal(c *gin.Context) *auth.Principal { return auth.FromContext(c.Request.Context()) }

// ClientID is the principal's client id, or "ip:<addr>" for anonymous callers.
func ClientID(c *gin.Context) string {
	if p := Principal(c); p != nil {
		return p.ClientID()
	}
	return "ip:" + c.ClientIP()
}

func unauthenticated(c *gin.Context) {
	if v, ok := c.Get(authErrKey); ok {
		if err, ok := v.(error); ok {
			Error(c, err)
			return
		}
	}
	Error(c, apperr.Unauthorized(MsgMissingAuth))
}

// RequireAuth admits any authenticated principal.
func RequireAuth() gin.HandlerFunc {
	return func(c *gin.Context) {
		if Principal(c) == nil {
			unauthenticated(c)
			return
		}
		c.Next()
	}
}

// Require admits a principal holding scope ("resource:action" or a wildcard); 401 when
// not authenticated, 403 "Forbidden: Insufficient permissions. Required: <scope>".
func Require(scope string) gin.HandlerFunc {
	return RequireAny(scope)
}

// RequireOrHeader admits a principal holding scope (403 otherwise) or, without a
// principal, a request carrying header (a guest's credential such as X-Session-Token;
// 401 without either). What the header opens is the handler's business.
func RequireOrHeader(scope, header string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if p := Principal(c); p != nil {
			if !p.Can(scope) {
				Error(c, apperr.New(apperr.Forbidden, "", MsgForbidden+scope))
				return
			}
		} else if c.GetHeader(header) == "" {
			Error(c, apperr.Unauthorized(MsgMissingAuth))
			return
		}
		c.Next()
	}
}

// RequireAny admits a principal holding any of the scopes (the 403 names the first).
func RequireAny(scopes ...string) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := Principal(c)
		if p == nil {
			unauthenticated(c)
			return
		}
		for _, s := range scopes {
			if p.Can(s) {
				c.Next()
				return
			}
		}
		Error(c, apperr.New(apperr.Forbidden, "", MsgForbidden+strings.Join(scopes, " or ")))
	}
}

// Optional marks a route that works with or without credentials; a bad credential is
// still a 401 (a client that sends one expects it to be honoured).
func Optional() gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, bad := c.Get(authErrKey); bad && Principal(c) == nil {
			unauthenticated(c)
			return
		}
		c.Next()
	}
}
