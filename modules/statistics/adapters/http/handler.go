// Package http is the statistics module's HTTP face: the five admin reports under
// /api/v1/admin/statistics.
package http

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/statistics/app"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Handler serves the statistics endpoints.
type Handler struct{ app *app.Service }

// NewHandler builds the handler.
func NewHandler(s *app.Service) *Handler { return &Handler{app: s} }

// RegisterRoutes mounts the routes on /api/v1/admin/statistics.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	g := r.API.Group("/admin/statistics", requireStatistics)
	g.GET("/dashboard", h.dashboard)
	g.GET("/sales", h.sales)
	g.GET("/orders", h.orders)
	g.GET("/products", h.products)
	g.GET("/customers", h.customers)
}

// requireStatistics admits a principal holding admin, or a statistics scope that
// includes statistics:read (statistics:read, :write, :admin); every other key,
// including the bare read and write wildcards, is refused with 403 (Part 2
// "Statistics": other API keys are refused; docs/decisions/0210).
func requireStatistics(c *gin.Context) {
	p := httpx.Principal(c)
	if p == nil {
		httpx.Error(c, apperr.Unauthorized(httpx.MsgMissingAuth))
		return
	}
	for _, s := range p.Scopes {
		if s == "admin" || (strings.HasPrefix(s, "statistics:") && auth.HasScope([]string{s}, "statistics:read")) {
			c.Next()
			return
		}
	}
	httpx.Error(c, apperr.New(apperr.Forbidden, "", httpx.MsgForbidden+"admin or statistics:read"))
}

// query reads the parameters every report takes.
func query(c *gin.Context) app.Query {
	return app.Query{DateFrom: c.Query("date_from"), DateTo: c.Query("date_to"), Currency: c.Query("currency"),
		CompareWith: c.Query("compare_with")}
}

// flag reads a boolean parameter (absent: false).
func flag(c *gin.Context, name string) (bool, error) {
	v := c.Query(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, apperr.Validation(map[string]string{name: "must be true or false"})
	}
	return b, nil
}

// answer runs fn and writes {data} with 200.
func answer[T any](c *gin.Context, fn func(ctx context.Context) (T, error)) {
	out, err := fn(c.Request.Context())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(out))
}

func (h *Handler) dashboard(c *gin.Context) {
	answer(c, func(ctx context.Context) (*app.Dashboard, error) { return h.app.Dashboard(ctx, query(c)) })
}

func (h *Handler) sales(c *gin.Context) {
	answer(c, func(ctx context.Context) (*app.Sales, error) {
		return h.app.Sales(ctx, app.SalesQuery{Query: query(c), Period: c.Query("period"), GroupBy: c.Query("group_by")})
	})
}

func (h *Handler) orders(c *gin.Context) {
	answer(c, func(ctx context.Context) (*app.OrdersReport, error) {
		geo, err := flag(c, "include_geo")
		if err != nil {
			return nil, err
		}
		return h.app.Orders(ctx, app.OrdersQuery{Query: query(c), Period: c.Query("period"), IncludeGeo: geo})
	})
}

func (h *Handler) products(c *gin.Context) {
	answer(c, func(ctx context.Context) (*app.ProductsReport, error) {
		limit := 0
		if v := c.Query("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, apperr.Validation(map[string]string{"limit": "must be from 1 to 100"})
			}
			limit = n
			if n == 0 {
				limit = -1
			}
		}
		return h.app.Products(ctx, app.ProductsQuery{Query: query(c), Limit: limit, SortBy: c.Query("sort_by"),
			CategoryID: c.Query("category_id")})
	})
}

func (h *Handler) customers(c *gin.Context) {
	answer(c, func(ctx context.Context) (*app.CustomersReport, error) {
		seg, err := flag(c, "include_segments")
		if err != nil {
			return nil, err
		}
		return h.app.Customers(ctx, app.CustomersQuery{Query: query(c), IncludeSegments: seg})
	})
}
