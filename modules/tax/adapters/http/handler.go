// Package http is the tax module's HTTP face: calculation, VAT validation, rates,
// shipping tax, OSS reports, categories and the admin zone and rate creation.
package http

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/tax/app"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// Scopes (Part 2 "Tax and checkout"; docs/decisions/0133): tax:read for calculation,
// validation, rates, categories and reports; zone and rate creation is admin-only
// ("admin" or "tax:admin").
const (
	scopeRead  = "tax:read"
	scopeAdmin = "tax:admin"
)

// Handler serves the tax endpoints.
type Handler struct{ app *app.Service }

// NewHandler builds the handler.
func NewHandler(s *app.Service) *Handler { return &Handler{app: s} }

// RegisterRoutes mounts the tax routes on /api/v1.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, admin := httpx.Require(scopeRead), httpx.RequireAny("admin", scopeAdmin)
	g := r.API.Group("/tax")
	g.POST("/calculate", read, h.calculate)
	g.POST("/validate-vat", read, h.validateVAT)
	g.GET("/rates", read, h.rates)
	g.POST("/calculate-shipping", read, h.calculateShipping)
	g.POST("/oss-report", read, h.ossReport)
	g.GET("/categories", read, h.categories)
	a := r.API.Group("/admin/tax")
	a.POST("/zones", admin, h.createZone)
	a.POST("/rates", admin, h.createRate)
}

// fail writes an error: a malformed VAT id as the spec's literal body
// {error: <text>, code: validation_error}, anything else as the envelope.
func fail(c *gin.Context, err error) {
	if e, ok := apperr.As(err); ok && errors.Is(e, domain.ErrMalformedVATID) {
		c.AbortWithStatusJSON(http.StatusBadRequest, malformedVAT{Error: e.Message, Code: domain.CodeValidation})
		return
	}
	httpx.Error(c, err)
}

// answer binds a JSON body into R, runs fn and writes its answer with 200; errors go
// through fail.
func answer[R any](c *gin.Context, fn func(ctx context.Context, req *R) (any, error)) {
	var req R
	if err := httpx.BindJSON(c, &req); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := fn(c.Request.Context(), &req)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

// create reads an admin write body member by member (platform/patch; a null member is
// absent: its default applies), runs fn and writes its answer as {data} with 201.
func create[In, Out any](c *gin.Context, read func(b *patch.Body) In, fn func(context.Context, In) (Out, error), view func(Out) any) {
	b, err := patch.Read(c.Request, patch.IgnoreNulls())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	in := read(b)
	if err := b.Err(); err != nil {
		httpx.Error(c, err)
		return
	}
	out, err := fn(c.Request.Context(), in)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusCreated, httpx.Data(view(out)))
}

// compute answers a body R that reads into a query of the app (its query method):
// run on the query, the answer shown by view.
func compute[R any, PR interface {
	*R
	query() (Q, error)
}, Q, Res, V any](c *gin.Context, run func(context.Context, Q) (Res, error), view func(Res) V) {
	answer(c, func(ctx context.Context, req *R) (any, error) {
		q, err := PR(req).query()
		if err != nil {
			return nil, err
		}
		res, err := run(ctx, q)
		return view(res), err
	})
}

func (h *Handler) calculate(c *gin.Context) {
	compute[calculateRequest](c, h.app.Calculate, toCalculation)
}

func (h *Handler) validateVAT(c *gin.Context) {
	answer(c, func(ctx context.Context, req *validateVATRequest) (any, error) {
		v, err := h.app.ValidateVAT(ctx, req.VATID)
		return toValidation(v), err
	})
}

func (h *Handler) calculateShipping(c *gin.Context) {
	compute[shippingRequest](c, h.app.CalculateShipping, toShipping)
}

func (h *Handler) ossReport(c *gin.Context) {
	answer(c, func(ctx context.Context, req *ossRequest) (any, error) {
		rep, err := h.app.OSSReport(ctx, app.OSSQuery{Scheme: req.Scheme, Period: req.Period, MemberState: req.MemberState})
		return toOSS(rep), err
	})
}

func (h *Handler) rates(c *gin.Context) {
	views, err := h.app.Rates(c.Request.Context(), app.RatesQuery{
		CountryCode: c.Query("country_code"), RegionCode: c.Query("region_code"), PostalCode: c.Query("postal_code"),
		CategoryID: c.Query("tax_category_id"),
	})
	list(c, "rates", views, err, toRateListItem)
}

func (h *Handler) categories(c *gin.Context) {
	cats, err := h.app.Categories(c.Request.Context())
	list(c, "categories", cats, err, toCategory)
}

// list answers the items a read gave, each shown by view, as the member key of the
// body (an empty list is []) with 200; or the read's error.
func list[T, V any](c *gin.Context, key string, items []T, err error, view func(T) V) {
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := make([]V, len(items))
	for i, it := range items {
		out[i] = view(it)
	}
	c.JSON(http.StatusOK, gin.H{key: out})
}

func (h *Handler) createZone(c *gin.Context) {
	create(c, func(b *patch.Body) domain.ZoneInput {
		return domain.ZoneInput{Name: b.String("name"), Code: b.String("code"), CountryCode: b.String("country_code"),
			RegionCode: b.String("region_code"), ZoneType: b.String("zone_type")}
	}, h.app.CreateZone, func(z *domain.Zone) any { return toZone(z) })
}

func (h *Handler) createRate(c *gin.Context) {
	create(c, func(b *patch.Body) domain.RateInput {
		return domain.RateInput{Name: b.String("name"), ZoneID: b.String("tax_zone_id"), CategoryID: b.String("tax_category_id"),
			Rate: b.Decimal("rate"), RateType: b.String("rate_type"), VATType: b.String("vat_type"),
			ValidFrom: b.String("valid_from"), ValidUntil: b.String("valid_until"), IsVAT: b.Bool("is_vat"),
			B2BExempt: b.Bool("b2b_exempt"), ReverseCharge: b.Bool("reverse_charge"), Priority: b.Int("priority")}
	}, h.app.CreateRate, func(r *domain.Rate) any { return toRate(r) })
}
