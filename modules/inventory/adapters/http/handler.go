// Package http is the inventory module's HTTP face: the /api/v1/inventory endpoints,
// the locations (CONTRACT.md §4) and the product-level stock operations under
// /api/v1/products/{id}/inventory.
package http

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/app"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/ids"
)

// Scopes of the inventory endpoints.
const (
	ScopeRead  = "inventory:read"
	ScopeWrite = "inventory:write"
)

// Handler serves the inventory endpoints.
type Handler struct {
	svc *app.Service
}

// NewHandler builds the handler.
func NewHandler(svc *app.Service) *Handler { return &Handler{svc: svc} }

// RegisterRoutes mounts the routes on /api/v1. The product-level routes use the
// parameter name :id, like every other /products/:id/... route.
func (h *Handler) RegisterRoutes(r *httpx.Routes) {
	read, write := httpx.Require(ScopeRead), httpx.Require(ScopeWrite)
	ok, created := http.StatusOK, http.StatusCreated
	r.API.GET("/inventory", read, httpx.HandleList(h.listLevels))
	r.API.GET("/inventory/movements", read, httpx.HandleList(h.listMovements))
	r.API.GET("/inventory/locations", read, httpx.HandleList(h.listLocations))
	r.API.POST("/inventory/locations", write, httpx.HandleJSON(created, h.createLocation))
	r.API.GET("/inventory/:product_id", read, httpx.Handle(ok, h.getLevel))
	r.API.POST("/inventory/adjust", write, httpx.HandleJSON(ok, h.adjust))
	r.API.POST("/inventory/set", write, httpx.HandleJSON(ok, h.set))
	r.API.POST("/inventory/receive", write, httpx.HandleJSON(ok, h.receive))
	r.API.POST("/inventory/reserve", write, httpx.HandleJSON(created, h.reserve))
	r.API.POST("/inventory/release", write, httpx.HandleJSON(ok, h.release))
	r.API.POST("/inventory/transfer", write, httpx.HandleJSON(ok, h.transfer))
	r.API.POST("/products/:id/inventory/adjust", write, httpx.HandleJSON(ok, h.productAdjust))
	r.API.POST("/products/:id/inventory/set", write, httpx.HandleJSON(ok, h.productSet))
	r.API.POST("/products/:id/inventory/transfer", write, httpx.HandleJSON(ok, h.productTransfer))
}

// actor names the caller for adjusted_by: the principal's email when known, else its
// client id (e.g. "key:<prefix>").
func actor(c *gin.Context) string {
	p := httpx.Principal(c)
	if p == nil {
		return ""
	}
	if p.Email != "" {
		return p.Email
	}
	return p.ClientID()
}

func (h *Handler) adjust(c *gin.Context, req adjustRequest) (api.Adjustment, error) {
	return h.svc.Adjust(c.Request.Context(), api.AdjustCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, LocationID: req.LocationID, Adjustment: *req.Adjustment,
		Reason: req.Reason, Notes: req.Notes, Reference: req.Reference, Actor: actor(c),
	})
}

func (h *Handler) set(c *gin.Context, req setRequest) (api.Adjustment, error) {
	return h.svc.Set(c.Request.Context(), api.SetCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, LocationID: req.LocationID, Quantity: *req.Quantity,
		Reason: req.Reason, Notes: req.Notes, Reference: req.Reference, Actor: actor(c),
	})
}

func (h *Handler) receive(c *gin.Context, req receiveRequest) (api.Receipt, error) {
	return h.svc.Receive(c.Request.Context(), api.ReceiveCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, LocationID: req.LocationID, Quantity: *req.Quantity,
		CostPerUnit: req.CostPerUnit, Reference: req.Reference, Notes: req.Notes, Actor: actor(c),
	})
}

func (h *Handler) reserve(c *gin.Context, req reserveRequest) (api.Reservation, error) {
	return h.svc.Reserve(c.Request.Context(), api.ReserveCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, LocationID: req.LocationID, OrderID: req.OrderID, Quantity: *req.Quantity,
	})
}

func (h *Handler) release(c *gin.Context, req releaseRequest) (releaseResponse, error) {
	out, err := h.svc.Release(c.Request.Context(), req.ReservationID, req.Reason)
	var at time.Time
	if out.ReleasedAt != nil {
		at = out.ReleasedAt.UTC()
	}
	return releaseResponse{ReservationID: out.ID, Status: out.Status, ReleasedAt: at, Reason: out.ReleaseReason}, err
}

func (h *Handler) transfer(c *gin.Context, req transferRequest) (api.Transfer, error) {
	return h.svc.Transfer(c.Request.Context(), api.TransferCommand{
		ProductID: req.ProductID, VariantID: req.VariantID, FromLocationID: req.FromLocationID, ToLocationID: req.ToLocationID,
		Quantity: *req.Quantity, Reason: req.Reason, Reference: req.Reference, Notes: req.Notes, Actor: actor(c),
	})
}

func (h *Handler) productAdjust(c *gin.Context, req productAdjustRequest) (api.Adjustment, error) {
	return h.adjust(c, adjustRequest{stockTarget: req.of(c), Adjustment: req.Adjustment, Reason: req.Reason, movementNotes: req.movementNotes})
}

func (h *Handler) productSet(c *gin.Context, req productSetRequest) (api.Adjustment, error) {
	return h.set(c, setRequest{stockTarget: req.of(c), setCount: req.setCount})
}

func (h *Handler) productTransfer(c *gin.Context, req productTransferRequest) (api.Transfer, error) {
	return h.transfer(c, transferRequest{ProductID: c.Param("id"), productTransferRequest: req})
}

func (h *Handler) getLevel(c *gin.Context) (levelViewResponse, error) {
	fields := map[string]string{}
	history := queryBool(c, "include_history", fields)
	reservations := queryBool(c, "include_reservations", fields)
	if len(fields) > 0 {
		return levelViewResponse{}, apperr.Validation(fields)
	}
	v, err := h.svc.GetLevel(c.Request.Context(), app.GetLevelQuery{
		ProductID: c.Param("product_id"), IncludeHistory: history, IncludeReservations: reservations,
	})
	if err != nil {
		return levelViewResponse{}, err
	}
	return toLevelViewResponse(v), nil
}

func (h *Handler) listLevels(c *gin.Context, page httpx.Page) ([]levelResponse, int64, error) {
	fields := map[string]string{}
	f := ports.LevelFilter{
		ProductID:       queryUUID(c, "product_id", fields),
		LocationID:      queryUUID(c, "location_id", fields),
		LowStockOnly:    queryBool(c, "low_stock_only", fields),
		IncludeIncoming: queryBool(c, "include_incoming", fields),
		Sort:            ports.SortUpdatedAt,
		Desc:            queryOrder(c, fields),
	}
	if v := c.Query("stock_status"); v != "" {
		if s := domain.StockStatus(v); s.Valid() {
			f.Status = s
		} else {
			fields["stock_status"] = "must be one of: in_stock, low_stock, out_of_stock"
		}
	}
	switch v := c.Query("sort"); v {
	case "":
	case string(ports.SortProductID), string(ports.SortAvailable), string(ports.SortUpdatedAt):
		f.Sort = ports.LevelSort(v)
	default:
		fields["sort"] = "must be one of: product_id, available, updated_at"
	}
	return listPage(c, page, fields, f, h.svc.ListLevels, func(l domain.ProductLevel) levelResponse {
		return toLevelResponse(l, f.IncludeIncoming)
	})
}

func (h *Handler) listMovements(c *gin.Context, page httpx.Page) ([]movementResponse, int64, error) {
	fields := map[string]string{}
	f := ports.MovementFilter{
		ProductID:  queryUUID(c, "product_id", fields),
		VariantID:  queryUUID(c, "variant_id", fields),
		LocationID: queryUUID(c, "location_id", fields),
		Reference:  c.Query("reference"),
		Desc:       queryOrder(c, fields),
	}
	if v := c.Query("movement_type"); v != "" {
		if t := domain.MovementType(v); t.Valid() {
			f.Type = t
		} else {
			fields["movement_type"] = "must be one of: in, out, return, lost, found, transfer"
		}
	}
	if v := c.Query("sort"); v != "" && v != "created_at" {
		fields["sort"] = "must be one of: created_at"
	}
	if from, ok := queryTime(c, "start_date", false, fields); ok {
		f.From = &from
	}
	if until, ok := queryTime(c, "end_date", true, fields); ok {
		f.Until = &until
	}
	if f.From != nil && f.Until != nil && !f.Until.After(*f.From) {
		fields["end_date"] = "must not be before start_date"
	}
	return listPage(c, page, fields, f, h.svc.ListMovements, toMovementResponse)
}

func (h *Handler) listLocations(c *gin.Context, page httpx.Page) ([]locationResponse, int64, error) {
	fields := map[string]string{}
	var f ports.LocationFilter
	if c.Query("is_active") != "" {
		v := queryBool(c, "is_active", fields)
		f.IsActive = &v
	}
	return listPage(c, page, fields, f, h.svc.ListLocations, toLocationResponse)
}

// listPage answers the validation error of the query's problems in fields, or lists the
// page of items filter f selects and maps each to its response.
func listPage[F, T, R any](c *gin.Context, page httpx.Page, fields map[string]string, f F,
	list func(context.Context, F, ports.Page) ([]T, int64, error), response func(T) R) ([]R, int64, error) {
	if len(fields) > 0 {
		return nil, 0, apperr.Validation(fields)
	}
	found, total, err := list(c.Request.Context(), f, ports.Page{Offset: page.Offset(), Limit: page.Limit()})
	items := make([]R, len(found))
	for i, x := range found {
		items[i] = response(x)
	}
	return items, total, err
}

func (h *Handler) createLocation(c *gin.Context, req createLocationRequest) (any, error) {
	l, err := h.svc.AddLocation(c.Request.Context(), domain.NewLocationInput{
		Name: req.Name, Code: req.Code, Address1: req.Address1, Address2: req.Address2, City: req.City,
		Province: req.Province, Country: req.Country, Zip: req.Zip, Phone: req.Phone, IsActive: req.IsActive,
	})
	if err != nil {
		return locationResponse{}, err
	}
	return toLocationResponse(l), nil
}

// Query helpers: each records a field message on a bad value.

func queryBool(c *gin.Context, name string, fields map[string]string) bool {
	v := c.Query(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		fields[name] = "must be true or false"
	}
	return b
}

func queryUUID(c *gin.Context, name string, fields map[string]string) string {
	v := c.Query(name)
	if v != "" && !ids.Valid(v) {
		fields[name] = "must be a UUID"
	}
	return v
}

// queryOrder reads order (asc or desc; default desc) and reports descending.
func queryOrder(c *gin.Context, fields map[string]string) bool {
	switch strings.ToLower(c.Query("order")) {
	case "", "desc":
		return true
	case "asc":
		return false
	}
	fields["order"] = "must be one of: asc, desc"
	return true
}

// queryTime reads a date (YYYY-MM-DD, UTC) or an RFC 3339 timestamp. As an end bound
// (exclusive in the filter) a date covers its whole day and a timestamp is inclusive.
func queryTime(c *gin.Context, name string, end bool, fields map[string]string) (time.Time, bool) {
	v := c.Query(name)
	if v == "" {
		return time.Time{}, false
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		if end {
			d = d.AddDate(0, 0, 1)
		}
		return d.UTC(), true
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		fields[name] = "must be a date (YYYY-MM-DD) or an RFC 3339 timestamp"
		return time.Time{}, false
	}
	t = t.UTC()
	if end {
		t = t.Truncate(time.Microsecond).Add(time.Microsecond)
	}
	return t, true
}
