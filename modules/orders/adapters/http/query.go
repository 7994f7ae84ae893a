package http

import (
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/money"
)

// parseTime reads an RFC 3339 timestamp or a plain date (midnight UTC).
func parseTime(s string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), true
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

// parseListQuery reads the list filters; unknown values are a 400 naming the parameter.
func parseListQuery(c *gin.Context) (ports.ListFilter, error) {
	f := ports.ListFilter{Sort: ports.SortCreatedAt, Desc: true}
	fields := map[string]string{}
	if v := c.Query("status"); v != "" && v != "any" {
		if !domain.Status(v).Valid() {
			fields["status"] = "must be one of: open, closed, cancelled, any"
		}
		f.Status = v
	}
	if v := c.Query("financial_status"); v != "" && v != "any" {
		if !domain.FinancialStatus(v).Valid() {
			fields["financial_status"] = "must be one of: pending, authorized, paid, partially_paid, refunded, partially_refunded, voided, any"
		}
		f.FinancialStatus = v
	}
	if v := c.Query("fulfillment_status"); v != "" && v != "any" {
		if !domain.FulfillmentStatus(v).Valid() {
			fields["fulfillment_status"] = "must be one of: unfulfilled, partial, fulfilled, any"
		}
		f.FulfillmentStatus = v
	}
	if v := c.Query("customer_id"); v != "" {
		if !ids.Valid(v) {
			fields["customer_id"] = "must be a UUID"
		}
		f.CustomerID = strings.ToLower(v)
	}
	f.Email = strings.TrimSpace(c.Query("email"))
	if v := c.Query("order_number"); v != "" {
		n, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(v), "#"), 10, 64)
		if err != nil || n <= 0 {
			fields["order_number"] = "must be an order number such as 1001"
		}
		f.OrderNumber = n
	}
	for name, dst := range map[string]**decimal.Decimal{"min_total": &f.MinTotal, "max_total": &f.MaxTotal} {
		if v := c.Query(name); v != "" {
			d, err := decimal.NewFromString(v)
			if err != nil || d.IsNegative() || !money.Bounded(d) {
				fields[name] = "must be a non-negative decimal such as \"19.99\""
				continue
			}
			*dst = &d
		}
	}
	for name, dst := range map[string]**time.Time{"created_after": &f.CreatedAfter, "created_before": &f.CreatedBefore, "updated_after": &f.UpdatedAfter} {
		if v := c.Query(name); v != "" {
			t, ok := parseTime(v)
			if !ok {
				fields[name] = "must be an ISO 8601 timestamp or a date (YYYY-MM-DD)"
				continue
			}
			*dst = &t
		}
	}
	if v := c.Query("sort"); v != "" {
		switch v {
		case ports.SortCreatedAt, ports.SortUpdatedAt, ports.SortTotalPrice:
			f.Sort = v
		default:
			fields["sort"] = "must be one of: created_at, updated_at, total_price"
		}
	}
	if v := strings.ToLower(c.Query("order")); v != "" {
		switch v {
		case "asc":
			f.Desc = false
		case "desc":
			f.Desc = true
		default:
			fields["order"] = "must be asc or desc"
		}
	}
	if len(fields) > 0 {
		return f, apperr.Validation(fields)
	}
	return f, nil
}

// parseInclude reads include=fulfillments,refunds,transactions,notes.
func parseInclude(v string) (app.Include, error) {
	var inc app.Include
	for _, part := range strings.Split(v, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case "fulfillments":
			inc.Fulfillments = true
		case "refunds":
			inc.Refunds = true
		case "transactions":
			inc.Transactions = true
		case "notes":
			inc.Notes = true
		default:
			return inc, apperr.Validation(map[string]string{"include": "must list some of: fulfillments, refunds, transactions, notes"})
		}
	}
	return inc, nil
}
