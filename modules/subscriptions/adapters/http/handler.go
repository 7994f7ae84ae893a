// Package http is the subscriptions module's HTTP face: the subscription endpoints
// under /api/v1/subscriptions and the dunning operations under /api/v1/admin/dunning
// (CONTRACT §4), in the spec's own wrappers.
package http

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

// Scopes of the endpoints (Part 2 names none; docs/decisions/0200). The dunning
// operations need admin.
const (
	ScopeRead  = "subscriptions:read"
	ScopeWrite = "subscriptions:write"
	ScopeAdmin = "admin"
)

// Handler serves the endpoints.
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts the routes on /api/v1.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write := httpx.Require(ScopeRead), httpx.Require(ScopeWrite)
	g := r.API.Group("/subscriptions")
	g.GET("", read, h.list)
	g.POST("", write, h.create)
	g.GET("/:id", read, h.get)
	g.PATCH("/:id", write, h.update)
	g.PUT("/:id", write, h.update)
	g.POST("/:id/cancel", write, h.cancel)
	g.POST("/:id/pause", write, h.pause)
	g.POST("/:id/resume", write, h.resume)
	g.GET("/:id/invoices", read, h.invoices)

	d := r.API.Group("/admin/dunning", httpx.Require(ScopeAdmin))
	d.GET("/failed-payments", h.failedPayments)
	d.GET("/metrics", httpx.Handle(http.StatusOK, h.metrics))
	d.GET("/subscriptions/:id/history", httpx.Handle(http.StatusOK, h.history))
	d.POST("/subscriptions/:id/retry", h.retry)
	d.POST("/subscriptions/:id/extend-grace", h.extendGrace)
}

func caller(c *gin.Context) app.Caller {
	p := httpx.Principal(c)
	return app.Caller{CustomerID: p.CustomerID(), Admin: p.IsAdmin()}
}

// readInput reads a create or update body member by member.
func readInput(b *patch.Body) domain.Input {
	return domain.Input{
		CustomerID: b.String("customer_id"), OrderID: b.String("order_id"), ProductID: b.String("product_id"),
		VariantID: b.String("variant_id"), Interval: b.String("interval"), IntervalCount: b.Int("interval_count"),
		Currency: b.String("currency"), Amount: b.Amount("amount"), SetupFee: b.Amount("setup_fee"), TrialDays: b.Int("trial_days"),
		MinCycles: b.Int("min_cycles"), MaxCycles: b.Int("max_cycles"), PaymentMethodID: b.String("payment_method_id"),
		Gateway: b.String("gateway"), Notes: b.String("notes"), NextBillingAt: b.Time("next_billing_at"),
	}
}

func (h *Handler) list(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	subs, total, err := h.svc.List(c.Request.Context(), caller(c), app.ListQuery{
		CustomerID: c.Query("customer_id"), Status: c.Query("status"), Offset: p.Offset(), Limit: p.Limit(),
	})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := listResponse{Subscriptions: make([]subscriptionJSON, len(subs)), Pagination: pagination{Page: p.Page, PerPage: p.PerPage, Total: total,
		TotalPages: int((total + int64(p.PerPage) - 1) / int64(p.PerPage))}}
	for i := range subs {
		out.Subscriptions[i] = resource(&subs[i])
	}
	c.JSON(http.StatusOK, out)
}

// answer writes err, or the value v a use case answered as view shows it (the
// module's answers have no data envelope), with status.
func answer[T, V any](c *gin.Context, status int, v T, err error, view func(T) V) {
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(status, view(v))
}

// saved is the answer of a create or an update.
func saved(sub *domain.Subscription) successResponse {
	return successResponse{Success: true, Subscription: resource(sub)}
}

// readAndSave reads a create or update body (a 400 naming every bad member), then answers
// what fn made of it with status.
func readAndSave(c *gin.Context, status int, fn func(ctx context.Context, in domain.Input) (*domain.Subscription, error)) {
	in, err := httpx.ReadPatch(c, readInput)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	sub, err := fn(c.Request.Context(), in)
	answer(c, status, sub, err, saved)
}

func (h *Handler) create(c *gin.Context) {
	readAndSave(c, http.StatusCreated, func(ctx context.Context, in domain.Input) (*domain.Subscription, error) {
		return h.svc.Create(ctx, caller(c), in)
	})
}

func (h *Handler) get(c *gin.Context) {
	sub, err := h.svc.Get(c.Request.Context(), caller(c), c.Param("id"))
	answer(c, http.StatusOK, sub, err, func(sub *domain.Subscription) getResponse { return getResponse{Subscription: resource(sub)} })
}

func (h *Handler) update(c *gin.Context) {
	readAndSave(c, http.StatusOK, func(ctx context.Context, in domain.Input) (*domain.Subscription, error) {
		return h.svc.Update(ctx, caller(c), c.Param("id"), in)
	})
}

func (h *Handler) cancel(c *gin.Context) {
	var in app.CancelInput
	if c.Request.ContentLength != 0 {
		read := func(b *patch.Body) app.CancelInput {
			var out app.CancelInput
			bad := patch.Problems{}
			patch.Copy(bad, "reason", b.String("reason"), &out.Reason)
			patch.Copy(bad, "reason_details", b.String("reason_details"), &out.Details)
			patch.Copy(bad, "cancel_at_end", b.Bool("cancel_at_end"), &out.AtEnd)
			for k, v := range bad {
				b.Fail(k, v)
			}
			return out
		}
		var err error
		if in, err = httpx.ReadPatch(c, read); err != nil {
			httpx.Error(c, err)
			return
		}
	}
	sub, err := h.svc.Cancel(c.Request.Context(), caller(c), c.Param("id"), in)
	answer(c, http.StatusOK, sub, err, func(sub *domain.Subscription) cancelResponse {
		msg := "Subscription cancelled"
		if sub.Status != domain.StatusCancelled {
			msg = "Subscription will be cancelled at the end of the current period"
		}
		reason := sub.CancellationReason
		return cancelResponse{Success: true, Message: msg, Subscription: cancelledJSON{ID: sub.ID, Status: string(sub.Status),
			CancelledAt: sub.CancelledAt, CancellationReason: &reason, UpdatedAt: sub.UpdatedAt}}
	})
}

func (h *Handler) pause(c *gin.Context) {
	sub, err := h.svc.Pause(c.Request.Context(), caller(c), c.Param("id"))
	answer(c, http.StatusOK, sub, err, func(sub *domain.Subscription) pauseResponse {
		return pauseResponse{Success: true, Message: "Subscription paused",
			Subscription: pausedJSON{ID: sub.ID, Status: string(sub.Status), UpdatedAt: sub.UpdatedAt}}
	})
}

func (h *Handler) resume(c *gin.Context) {
	sub, err := h.svc.Resume(c.Request.Context(), caller(c), c.Param("id"))
	answer(c, http.StatusOK, sub, err, func(sub *domain.Subscription) resumeResponse {
		return resumeResponse{Success: true, Message: "Subscription resumed",
			Subscription: resumedJSON{ID: sub.ID, Status: string(sub.Status), NextBillingAt: sub.NextBillingAt, UpdatedAt: sub.UpdatedAt}}
	})
}

func (h *Handler) invoices(c *gin.Context) {
	invs, err := h.svc.Invoices(c.Request.Context(), caller(c), c.Param("id"))
	answer(c, http.StatusOK, invs, err, func(invs []domain.Invoice) invoicesResponse {
		out := invoicesResponse{Invoices: make([]invoiceJSON, len(invs))}
		for i := range invs {
			out.Invoices[i] = invoiceJSON(app.ToInvoice(&invs[i]))
		}
		return out
	})
}

func (h *Handler) failedPayments(c *gin.Context) {
	p, err := httpx.ParsePage(c)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	rows, total, err := h.svc.FailedPayments(c.Request.Context(), c.Query("status"), p.Offset(), p.Limit())
	if err != nil {
		httpx.Error(c, err)
		return
	}
	out := failedResponse{Data: make([]failedJSON, len(rows)), Meta: failedMeta{Total: total, Page: p.Page, PerPage: p.PerPage}}
	for i, r := range rows {
		out.Data[i] = toFailed(r)
	}
	c.JSON(http.StatusOK, out)
}

func (h *Handler) metrics(c *gin.Context) (metricsJSON, error) {
	m, err := h.svc.DunningMetrics(c.Request.Context(), c.Query("period"))
	if err != nil {
		return metricsJSON{}, err
	}
	return toMetrics(m), nil
}

func (h *Handler) history(c *gin.Context) (historyJSON, error) {
	hist, err := h.svc.DunningHistory(c.Request.Context(), c.Param("id"))
	if err != nil {
		return historyJSON{}, err
	}
	return toHistory(hist), nil
}

func (h *Handler) retry(c *gin.Context) {
	r, err := h.svc.ManualRetry(c.Request.Context(), c.Param("id"))
	if err != nil {
		httpx.Error(c, err)
		return
	}
	msg := "Payment retry failed"
	if r.Paid {
		msg = "Payment recovered"
	}
	c.JSON(http.StatusOK, retryResponse{Success: r.Paid, Message: msg, PaymentID: r.PaymentID, Status: r.Status})
}

type extendRequest struct {
	Days *int `json:"days" binding:"required"`
}

func (h *Handler) extendGrace(c *gin.Context) {
	body, ok := httpx.Bind[extendRequest](c)
	if !ok {
		return
	}
	if body.Days == nil {
		httpx.Error(c, apperr.Validation(map[string]string{"days": "is required"}))
		return
	}
	end, err := h.svc.ExtendGrace(c.Request.Context(), c.Param("id"), *body.Days)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, extendResponse{Success: true, Message: "Grace period extended", NewGracePeriodEnd: end.UTC().Truncate(time.Microsecond)})
}
