package httpx

import (
	"fmt"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/limits"
)

// Page is a validated page request (page from 1, per_page 1..100, default 20).
type Page struct {
	Page    int
	PerPage int
}

// Offset is the row offset of the page.
func (p Page) Offset() int { return (p.Page - 1) * p.PerPage }

// Limit is the page size.
func (p Page) Limit() int { return p.PerPage }

// MsgPageTooHigh refuses a page beyond limits.MaxPage.
var MsgPageTooHigh = fmt.Sprintf("must be at most %d", limits.MaxPage)

// MaxPerPage is the spec's per_page maximum.
const MaxPerPage = 100

// ParsePage reads page and per_page. Non-integers, values below 1 and pages beyond
// limits.MaxPage are a 400; per_page above 100 is capped at 100
// (docs/decisions/0003-pagination.md).
func ParsePage(c *gin.Context) (Page, error) {
	p := Page{Page: 1, PerPage: 20}
	fields := map[string]string{}
	if v := c.Query("page"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < 1:
			fields["page"] = "must be an integer of at least 1"
		case n > limits.MaxPage:
			fields["page"] = MsgPageTooHigh
		default:
			p.Page = n
		}
	}
	if v := c.Query("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			fields["per_page"] = "must be an integer from 1 to 100"
		} else {
			p.PerPage = min(n, MaxPerPage)
		}
	}
	if len(fields) > 0 {
		return p, apperr.Validation(fields)
	}
	return p, nil
}

// Pagination is Part 2's meta.pagination.
type Pagination struct {
	Total       int64 `json:"total"`
	PerPage     int   `json:"per_page"`
	CurrentPage int   `json:"current_page"`
	TotalPages  int   `json:"total_pages"`
	HasNext     bool  `json:"has_next"`
	HasPrev     bool  `json:"has_prev"`
}

func totalPages(total int64, perPage int) int {
	if perPage <= 0 {
		return 0
	}
	return int((total + int64(perPage) - 1) / int64(perPage))
}

// List is Part 2's list shape: {data, meta: {pagination}}.
type List[T any] struct {
	Data []T      `json:"data"`
	Meta ListMeta `json:"meta"`
}

// ListMeta wraps the pagination.
type ListMeta struct {
	Pagination Pagination `json:"pagination"`
}

// AppendJSON appends m as encoding/json encodes it, for handlers that write their
// list bodies without reflection.
func (m ListMeta) AppendJSON(b []byte) []byte {
	p := m.Pagination
	b = append(b, `{"pagination":{"total":`...)
	b = strconv.AppendInt(b, p.Total, 10)
	b = append(b, `,"per_page":`...)
	b = strconv.AppendInt(b, int64(p.PerPage), 10)
	b = append(b, `,"current_page":`...)
	b = strconv.AppendInt(b, int64(p.CurrentPage), 10)
	b = append(b, `,"total_pages":`...)
	b = strconv.AppendInt(b, int64(p.TotalPages), 10)
	b = append(b, `,"has_next":`...)
	b = strconv.AppendBool(b, p.HasNext)
	b = append(b, `,"has_prev":`...)
	b = strconv.AppendBool(b, p.HasPrev)
	return append(b, "}}"...)
}

// NewList builds Part 2's list shape.
func NewList[T any](items []T, p Page, total int64) List[T] {
	if items == nil {
		items = []T{}
	}
	return List[T]{Data: items, Meta: NewListMeta(p, total)}
}

// NewListMeta is the meta of Part 2's list shape for page p of total items.
func NewListMeta(p Page, total int64) ListMeta {
	tp := totalPages(total, p.PerPage)
	return ListMeta{Pagination: Pagination{
		Total: total, PerPage: p.PerPage, CurrentPage: p.Page, TotalPages: tp,
		HasNext: p.Page < tp, HasPrev: p.Page > 1,
	}}
}

// FlatList is Part 1's coupon list shape: {data, meta: {total, page, per_page, total_pages}}.
type FlatList[T any] struct {
	Data []T      `json:"data"`
	Meta FlatMeta `json:"meta"`
}

// FlatMeta is Part 1's list meta.
type FlatMeta struct {
	Total      int64 `json:"total"`
	Page       int   `json:"page"`
	PerPage    int   `json:"per_page"`
	TotalPages int   `json:"total_pages"`
}

// NewFlatList builds Part 1's list shape.
func NewFlatList[T any](items []T, p Page, total int64) FlatList[T] {
	if items == nil {
		items = []T{}
	}
	return FlatList[T]{Data: items, Meta: FlatMeta{Total: total, Page: p.Page, PerPage: p.PerPage, TotalPages: totalPages(total, p.PerPage)}}
}

// Envelope is a single resource's body: {"data": ...}.
type Envelope struct {
	Data any `json:"data"`
}

// Data wraps a single resource as {data: ...} (a struct, not a map: encoding/json
// writes it without sorting keys).
func Data(v any) Envelope { return Envelope{Data: v} }
