package ratelimit

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/openapi"
)

//go:embed openapi.yaml
var openAPIFragment []byte

// AdminModule serves the admin usage view (CONTRACT.md §4).
type AdminModule struct{ l *Limiter }

// NewAdminModule builds the admin usage module.
func NewAdminModule(l *Limiter) *AdminModule { return &AdminModule{l: l} }

// Name names the module (modkit.Module).
func (m *AdminModule) Name() string { return "ratelimit" }

// OpenAPI documents the admin usage view (openapi.Documented).
func (m *AdminModule) OpenAPI() openapi.Fragment {
	return openapi.Fragment{Module: "ratelimit", Data: openAPIFragment}
}

// RegisterRoutes adds GET /api/v1/admin/rate-limits (scope admin).
func (m *AdminModule) RegisterRoutes(r *httpx.Routes) {
	r.API.GET("/admin/rate-limits", httpx.Require("admin"), m.usage)
}

// usage answers 200 {data: {global: {requests_per_minute, current_usage},
// by_client: [{client_id, requests_last_minute, limit, remaining}]}}, busiest first;
// 503 when the shared store cannot be read.
func (m *AdminModule) usage(c *gin.Context) {
	u, err := m.l.Usage(c.Request.Context())
	if err != nil {
		httpx.Error(c, apperr.New(apperr.Unavailable, "", "Rate-limit usage is unavailable").WithCause(err))
		return
	}
	c.JSON(http.StatusOK, httpx.Data(u))
}
