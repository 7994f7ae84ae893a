package httpx_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
)

// testLimit is http.body_limit_bytes in these tests.
const testLimit = 1024

// uploadLimit is the multipart route's own limit.
const uploadLimit = 4096

// fakeAuth knows three credentials and remembers what it was asked.
type fakeAuth struct {
	mu    sync.Mutex
	calls []string // "credential@ip"
}

var errBadToken = apperr.New(apperr.Unauthenticated, "", "Unauthorized: Invalid or expired token")

func (a *fakeAuth) Authenticate(_ context.Context, credential, remoteIP string) (*auth.Principal, error) {
	a.mu.Lock()
	a.calls = append(a.calls, credential+"@"+remoteIP)
	a.mu.Unlock()
	switch credential {
	case "writer":
		return &auth.Principal{Kind: auth.Staff, ID: "s1", Scopes: []string{"products:write"}}, nil
	case "reader":
		return &auth.Principal{Kind: auth.APIKey, ID: "k1", KeyPrefix: "abcd1234", Scopes: []string{"products:read"}}, nil
	case "admin":
		return &auth.Principal{Kind: auth.Staff, ID: "s2", Scopes: []string{"admin"}}, nil
	}
	return nil, errBadToken
}

func (a *fakeAuth) lastCall() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.calls) == 0 {
		return ""
	}
	return a.calls[len(a.calls)-1]
}

type address struct {
	City string `json:"city" binding:"required"`
}

// seen collects what a test's middleware records, from the server's goroutines.
type seen[T any] struct {
	mu   sync.Mutex
	vals []T
}

func (s *seen[T]) add(v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vals = append(s.vals, v)
}

func (s *seen[T]) list() []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]T(nil), s.vals...)
}

// stockKeeping is embedded in itemReq: its member is named as the body has it.
type stockKeeping struct {
	SKU string `json:"sku,omitempty" binding:"omitempty,max=8"`
}

type itemReq struct {
	stockKeeping
	Name     string   `json:"name" binding:"required,max=20"`
	Email    string   `json:"email,omitempty" binding:"omitempty,email"`
	Quantity int      `json:"quantity" binding:"gte=1"`
	Kind     string   `json:"kind,omitempty" binding:"omitempty,oneof=simple bundle"`
	Address  *address `json:"address,omitempty"`
	Internal string   `json:"-"`
}

// testModule registers one route per behaviour under test.
type testModule struct {
	slowStarted chan struct{}
	slowRelease chan struct{}
}

func (m *testModule) RegisterRoutes(r *httpx.Routes) {
	api := r.API
	ok := func(c *gin.Context) { c.JSON(http.StatusOK, gin.H{"ok": true}) }
	api.GET("/ping", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"client": httpx.ClientID(c), "request_id": httpx.RequestID(c)})
	})
	api.GET("/panic", func(*gin.Context) { panic("kaboom") })
	api.GET("/conflict", func(c *gin.Context) {
		httpx.Error(c, apperr.New(apperr.Conflict, "EMAIL_TAKEN", "Email already registered"))
	})
	api.GET("/wrapped", func(c *gin.Context) {
		httpx.Error(c, apperr.New(apperr.NotFound, "CART_NOT_FOUND", "Cart not found").WithCause(io.ErrUnexpectedEOF))
	})
	api.GET("/internal", func(c *gin.Context) {
		httpx.Error(c, apperr.Wrap(io.ErrClosedPipe, "dial 10.0.0.5 password=secret"))
	})
	api.GET("/extra", func(c *gin.Context) {
		httpx.Error(c, apperr.New(apperr.RateLimited, "", "Rate limit exceeded").WithExtra("retry_after", 30))
	})
	api.POST("/items", func(c *gin.Context) {
		var req itemReq
		if err := httpx.BindJSON(c, &req); err != nil {
			httpx.Error(c, err)
			return
		}
		c.JSON(http.StatusCreated, httpx.Data(req))
	})
	api.PATCH("/items", ok)
	api.PUT("/items", ok)
	api.DELETE("/items", ok)
	api.POST("/raw", func(c *gin.Context) {
		b, err := io.ReadAll(c.Request.Body)
		if err != nil {
			httpx.Error(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"len": len(b)})
	})
	api.POST("/uploads", func(c *gin.Context) {
		f, err := c.FormFile("file")
		if err != nil {
			httpx.Error(c, err)
			return
		}
		c.JSON(http.StatusCreated, gin.H{"size": f.Size})
	})
	r.AllowMultipart(http.MethodPost, "/api/v1/uploads", uploadLimit)
	api.POST("/hooks", func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"value": c.PostForm("value")})
	})
	r.AllowForm(http.MethodPost, "/api/v1/hooks", 64)
	api.POST("/images", func(c *gin.Context) { c.Status(http.StatusCreated) })
	r.AllowBody(http.MethodPost, "/api/v1/images", "image/png", httpx.BodyRule{Limit: 8, TooLarge: apperr.New(apperr.Invalid, "IMAGE_TOO_LARGE", "Image exceeds the size limit")})
	api.PUT("/products/:id", httpx.Require("products:write"), ok)
	api.DELETE("/products/:id", httpx.RequireAny("products:admin", "admin"), ok)
	api.POST("/guest-carts", httpx.Optional(), httpx.RequireOrHeader("products:write", "X-Session-Token"), ok)
	api.GET("/me", httpx.RequireAuth(), func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"client": httpx.ClientID(c)})
	})
	api.GET("/catalog", httpx.Optional(), func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"authenticated": httpx.Principal(c) != nil})
	})
	api.GET("/products", func(c *gin.Context) {
		p, err := httpx.ParsePage(c)
		if err != nil {
			httpx.Error(c, err)
			return
		}
		c.JSON(http.StatusOK, httpx.NewList([]string{"a"}, p, 1))
	})
	api.GET("/slow", func(c *gin.Context) {
		close(m.slowStarted)
		<-m.slowRelease
		c.JSON(http.StatusOK, gin.H{"slow": true})
	})
	r.Root.GET("/api/v2/webhooks", ok)
}

type serverOpts struct {
	cfg     func(*config.Config)
	limiter httpx.RateLimitMiddleware
	metrics httpx.MetricsMiddleware
	health  *httpx.Health
	logger  *zap.Logger
	module  httpx.Module // the testModule when nil
}

func newServer(t *testing.T, o serverOpts) (*httpx.Server, *fakeAuth) {
	t.Helper()
	cfg := config.Default()
	cfg.HTTP.BodyLimitBytes = testLimit
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	if o.logger == nil {
		o.logger = zap.NewNop()
	}
	if o.module == nil {
		o.module = &testModule{slowStarted: make(chan struct{}), slowRelease: make(chan struct{})}
	}
	a := &fakeAuth{}
	s, err := httpx.NewServer(&cfg, o.logger, a, o.limiter, o.metrics, o.health, []httpx.Module{o.module})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return s, a
}

// request is one in-process request.
type request struct {
	method, path string
	body         io.Reader
	contentType  string
	header       map[string]string
}

func do(t *testing.T, h http.Handler, r request) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(r.method, r.path, r.body)
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	for k, v := range r.header {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

func get(t *testing.T, h http.Handler, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, request{method: http.MethodGet, path: path, header: header})
}

func postJSON(t *testing.T, h http.Handler, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, request{method: http.MethodPost, path: path, body: strings.NewReader(body), contentType: "application/json"})
}

func bearer(cred string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + cred}
}

// errorBody decodes the envelope's error object, checking the envelope has nothing else.
func errorBody(t *testing.T, status int, body []byte) map[string]any {
	t.Helper()
	var env map[string]map[string]any
	if err := json.Unmarshal(body, &env); err != nil || len(env) != 1 || env["error"] == nil {
		t.Fatalf("status %d: body %s is not an error envelope (%v)", status, body, err)
	}
	return env["error"]
}

// expectError checks status and the whole error object; request_id must match the header.
func expectError(t *testing.T, w *httptest.ResponseRecorder, status int, want map[string]any) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status = %d, want %d; body %s", w.Code, status, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q", ct)
	}
	got := errorBody(t, w.Code, w.Body.Bytes())
	id, _ := got["request_id"].(string)
	if id == "" || id != w.Header().Get(httpx.HeaderRequestID) {
		t.Fatalf("request_id %q does not match X-Request-ID %q", id, w.Header().Get(httpx.HeaderRequestID))
	}
	delete(got, "request_id")
	// JSON numbers decode as float64.
	norm := map[string]any{}
	for k, v := range want {
		if n, ok := v.(int); ok {
			v = float64(n)
		}
		norm[k] = v
	}
	if !reflect.DeepEqual(got, norm) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(norm)
		t.Fatalf("error = %s\n want %s", gj, wj)
	}
}

// invalid is the 400 envelope of a validation error: its message and the fields
// (name, message pairs) it names.
func invalid(message string, kv ...string) map[string]any {
	return map[string]any{"code": 400, "message": message, "category": "validation", "fields": fields(kv...)}
}

// validation is the "Validation failed" envelope naming the fields.
func validation(kv ...string) map[string]any { return invalid("Validation failed", kv...) }

// invalidJSON is the envelope of a body that is not a JSON object.
var invalidJSON = invalid("Request body is not valid JSON", "body", "must be a valid JSON object")

func fields(kv ...string) map[string]any {
	out := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func jsonBody(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("body %s: %v", w.Body, err)
	}
	return out
}

// unsized hides a reader's length, so the request has no Content-Length (chunked).
type unsized struct{ r io.Reader }

func (u unsized) Read(p []byte) (int, error) { return u.r.Read(p) }

func chunked(s string) io.Reader { return unsized{strings.NewReader(s)} }

func padded(n int) string {
	// {"name":"x","quantity":1,"pad":"...."} of exactly n bytes.
	head := `{"name":"x","quantity":1,"pad":"`
	return head + strings.Repeat("p", n-len(head)-2) + `"}`
}
