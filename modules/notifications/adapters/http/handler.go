// Package http is the notifications module's HTTP face: /api/v1/notifications (send,
// list, get, retry, cancel, bulk, stats), /api/v1/notifications/templates (list, get,
// create, update, delete, preview) and the inbound delivery-status webhook
// POST /webhooks/notifications/delivery.
package http

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/notifications/api"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Scopes of the notification endpoints (Part 2 names none; docs/decisions/0180).
const (
	ScopeRead  = "notifications:read"
	ScopeWrite = "notifications:write"
	ScopeAdmin = "admin"
)

// SignatureHeader signs the inbound delivery webhook (CONTRACT §5's format).
const SignatureHeader = "X-Commerce-Signature"

// SignatureTolerance is how old a webhook signature may be.
const SignatureTolerance = 5 * time.Minute

// Handler serves the notification endpoints.
type Handler struct {
	svc *app.Service
	now func() time.Time
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc, now: time.Now} }

// RegisterRoutes mounts the routes.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write, admin := httpx.Require(ScopeRead), httpx.Require(ScopeWrite), httpx.Require(ScopeAdmin)
	ok := http.StatusOK
	g := r.API.Group("/notifications")
	g.GET("", read, httpx.HandleList(h.list))
	g.POST("", write, httpx.HandleJSON(http.StatusCreated, h.create))
	g.GET("/stats", read, httpx.Handle(ok, h.stats))
	g.POST("/bulk", write, httpx.HandleJSON(http.StatusAccepted, h.bulk))
	g.GET("/templates", read, h.templates)
	g.POST("/templates", admin, httpx.HandleJSON(http.StatusCreated, h.createTemplate))
	g.GET("/templates/:id", read, httpx.Handle(ok, h.template))
	g.PUT("/templates/:id", admin, httpx.HandleJSON(ok, h.updateTemplate))
	g.DELETE("/templates/:id", admin, h.deleteTemplate)
	g.POST("/templates/:id/preview", write, httpx.HandleJSON(ok, h.preview))
	g.GET("/:id", read, httpx.Handle(ok, h.get))
	g.POST("/:id/retry", write, httpx.Handle(ok, h.retry))
	g.POST("/:id/cancel", write, httpx.Handle(ok, h.cancel))
	r.Root.POST("/webhooks/notifications/delivery", h.webhook)
}

// customerScope is the customer a caller is limited to ("" for staff and keys).
func customerScope(c *gin.Context) string {
	if p := httpx.Principal(c); p.IsCustomer() {
		return p.ID
	}
	return ""
}

func parseTime(bad domain.Problems, field, v string) *time.Time {
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		if d, derr := time.Parse(time.DateOnly, v); derr == nil {
			return &d
		}
		bad[field] = "must be an RFC 3339 timestamp or a YYYY-MM-DD date"
		return nil
	}
	t = t.UTC()
	return &t
}

func oneOf(bad domain.Problems, field, v string, set []string) string {
	if v != "" && !slices.Contains(set, v) {
		bad[field] = "must be one of: " + strings.Join(set, ", ")
	}
	return v
}

func (h *Handler) list(c *gin.Context, p httpx.Page) ([]api.Notification, int64, error) {
	bad := domain.Problems{}
	f := ports.Filter{
		Channel:    oneOf(bad, "channel", c.Query("channel"), domain.Channels),
		Status:     oneOf(bad, "status", c.Query("status"), domain.Statuses),
		Priority:   oneOf(bad, "priority", c.Query("priority"), domain.Priorities),
		Recipient:  strings.TrimSpace(c.Query("recipient")),
		CustomerID: customerScope(c),
		Sort:       oneOf(bad, "sort", c.DefaultQuery("sort", "created_at"), []string{"created_at", "updated_at", "priority"}),
	}
	f.CreatedAfter = parseTime(bad, "created_after", c.Query("created_after"))
	f.CreatedBefore = parseTime(bad, "created_before", c.Query("created_before"))
	switch strings.ToLower(c.DefaultQuery("order", "desc")) {
	case "desc":
		f.Desc = true
	case "asc":
	default:
		bad["order"] = "must be asc or desc"
	}
	if err := bad.Err(); err != nil {
		return nil, 0, err
	}
	return h.svc.List(c.Request.Context(), f, p.Offset(), p.Limit())
}

func (h *Handler) create(c *gin.Context, req createRequest) (api.Notification, error) {
	return h.svc.Create(c.Request.Context(), req.input())
}

func (h *Handler) get(c *gin.Context) (api.Notification, error) {
	q := app.GetQuery{ID: c.Param("id"), CustomerID: customerScope(c)}
	for _, inc := range strings.Split(c.Query("include"), ",") {
		switch strings.TrimSpace(inc) {
		case "":
		case "attempts":
			q.Attempts = true
		case "template":
			q.Template = true
		default:
			return api.Notification{}, apperr.Validation(map[string]string{"include": "must be a comma list of attempts, template"})
		}
	}
	return h.svc.Get(c.Request.Context(), q)
}

func (h *Handler) retry(c *gin.Context) (statusResponse, error) {
	r, err := h.svc.Retry(c.Request.Context(), c.Param("id"), customerScope(c))
	return statusResponse{ID: r.ID, Status: r.Status, AttemptCount: r.AttemptCount, Message: r.Message}, err
}

func (h *Handler) cancel(c *gin.Context) (cancelResponse, error) {
	r, err := h.svc.Cancel(c.Request.Context(), c.Param("id"), customerScope(c))
	return cancelResponse{ID: r.ID, Status: r.Status, Message: r.Message}, err
}

func (h *Handler) bulk(c *gin.Context, req bulkRequest) (bulkResponse, error) {
	in := app.BulkInput{TemplateID: req.TemplateID, Channel: req.Channel, Priority: req.Priority, Metadata: req.Metadata,
		Recipients: make([]app.BulkRecipient, len(req.Recipients))}
	for i, r := range req.Recipients {
		to := r.Email
		if to == "" {
			to = r.Recipient
		}
		in.Recipients[i] = app.BulkRecipient{Email: to, Variables: r.Variables}
	}
	res, err := h.svc.Bulk(c.Request.Context(), in)
	if err != nil {
		return bulkResponse{}, err
	}
	out := bulkResponse{BatchID: res.BatchID, Total: res.Total, Queued: res.Queued, Failed: res.Failed,
		Notifications: make([]bulkItem, len(res.Notifications))}
	for i, n := range res.Notifications {
		out.Notifications[i] = bulkItem{ID: n.ID, Recipient: n.Recipient, Status: n.Status}
		if n.Error != "" {
			e := n.Error
			out.Notifications[i].Error = &e
		}
	}
	return out, nil
}

func (h *Handler) stats(c *gin.Context) (statsResponse, error) {
	bad := domain.Problems{}
	channel := oneOf(bad, "channel", c.Query("channel"), domain.Channels)
	since := parseTime(bad, "since", c.Query("since"))
	if err := bad.Err(); err != nil {
		return statsResponse{}, err
	}
	s, err := h.svc.Stats(c.Request.Context(), channel, customerScope(c), since)
	if err != nil {
		return statsResponse{}, err
	}
	out := statsResponse{Period: period{Start: s.Start, End: s.End}, ByChannel: map[string]counts{},
		Overall: overall{counts: counts(s.Overall), DeliveryRate: s.DeliveryRate, FailureRate: s.FailureRate}}
	for ch, v := range s.ByChannel {
		out.ByChannel[ch] = counts(v)
	}
	return out, nil
}

func (h *Handler) templates(c *gin.Context) {
	bad := domain.Problems{}
	channel := oneOf(bad, "channel", c.Query("channel"), domain.Channels)
	category := oneOf(bad, "category", c.Query("category"), domain.Categories)
	if err := bad.Err(); err != nil {
		httpx.Error(c, err)
		return
	}
	ts, err := h.svc.Templates(c.Request.Context(), channel, category)
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, httpx.Data(httpx.Map(ts, toSummary)))
}

func (h *Handler) template(c *gin.Context) (api.Template, error) {
	return h.svc.Template(c.Request.Context(), c.Param("id"))
}

func (h *Handler) createTemplate(c *gin.Context, req templateRequest) (templateCreated, error) {
	t, err := h.svc.CreateTemplate(c.Request.Context(), req.input())
	return templateCreated{ID: t.ID, Name: t.Name, Channel: t.Channel, Subject: t.Subject, Variables: t.Variables, CreatedAt: t.CreatedAt}, err
}

func (h *Handler) updateTemplate(c *gin.Context, req templateRequest) (api.Template, error) {
	return h.svc.UpdateTemplate(c.Request.Context(), c.Param("id"), req.input())
}

// deleteTemplate answers the spec's literal body {deleted: true, id}.
func (h *Handler) deleteTemplate(c *gin.Context) {
	id := c.Param("id")
	if err := h.svc.DeleteTemplate(c.Request.Context(), id); err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, deleteResponse{Deleted: true, ID: id})
}

func (h *Handler) preview(c *gin.Context, req previewRequest) (previewResponse, error) {
	p, err := h.svc.PreviewTemplate(c.Request.Context(), c.Param("id"), req.Variables)
	return previewResponse{Subject: p.Subject, Body: p.Body, HTMLBody: p.HTMLBody, MissingVariables: p.MissingVariables,
		RenderedAt: p.RenderedAt}, err
}

// webhook applies a provider's delivery report, signed with notifications.webhook_secret
// (X-Commerce-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">); 200
// {received: true}, a bad signature 400.
func (h *Handler) webhook(c *gin.Context) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		httpx.Error(c, apperr.Invalidf("Could not read the body"))
		return
	}
	if !h.verify(c.GetHeader(SignatureHeader), body) {
		httpx.Error(c, domain.ErrInvalidSignature)
		return
	}
	var req webhookRequest
	if err := json.Unmarshal(body, &req); err != nil {
		httpx.Error(c, apperr.Validation(map[string]string{"body": "must be a JSON object with id, topic and data"}))
		return
	}
	err = h.svc.ApplyDeliveryEvent(c.Request.Context(), app.DeliveryEvent{ID: req.ID, Topic: req.Topic,
		NotificationID: req.Data.NotificationID, ProviderMessageID: req.Data.ProviderMessageID, Error: req.Data.Error})
	if err != nil {
		httpx.Error(c, err)
		return
	}
	c.JSON(http.StatusOK, receivedResponse{Received: true})
}

func (h *Handler) verify(header string, body []byte) bool {
	return domain.VerifySignature(h.svc.Settings().WebhookSecret, header, body, h.now(), SignatureTolerance)
}
