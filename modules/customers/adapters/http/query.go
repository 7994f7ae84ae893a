package http

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/limits"
	"github.com/gocommerce/commerce/platform/money"
)

func parseInclude(s string) (include, error) {
	var inc include
	for _, part := range strings.Split(s, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case "addresses":
			inc.addresses = true
		case "orders":
			inc.orders = true
		case "metafields":
			inc.metafields = true
		default:
			return inc, apperr.Validation(map[string]string{"include": "must be a comma-separated list of: addresses, orders, metafields"})
		}
	}
	return inc, nil
}

func parseBool(c *gin.Context, name string) (*bool, error) {
	v := c.Query(name)
	if v == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return nil, apperr.Validation(map[string]string{name: "must be true or false"})
	}
	return &b, nil
}

// parseTime reads RFC 3339 or a plain date (midnight UTC).
func parseTime(s string) (*time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		u := t.UTC()
		return &u, true
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		u := t.UTC()
		return &u, true
	}
	return nil, false
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

var (
	msgMinOrders     = fmt.Sprintf("must be an integer from 0 to %d", limits.MaxCount)
	msgSearchTooLong = fmt.Sprintf("must be at most %d characters", limits.MaxSearchText)
)

// filterInput is the list filters as strings, from a query string or a search body.
type filterInput struct {
	email, phone, state, acceptsMarketing, tags, minOrders, minTotalSpent string
	createdAfter, createdBefore, updatedAfter, q                          string
}

func (in filterInput) filter(fields map[string]string) ports.CustomerFilter {
	var f ports.CustomerFilter
	// A search body's filters get the bound the query string has (docs/decisions/0094).
	for name, v := range map[string]string{
		"email": in.email, "phone": in.phone, "state": in.state, "accepts_marketing": in.acceptsMarketing,
		"tags": in.tags, "min_orders": in.minOrders, "min_total_spent": in.minTotalSpent,
		"created_after": in.createdAfter, "created_before": in.createdBefore, "updated_after": in.updatedAfter,
	} {
		if len(v) > limits.MaxQueryValue {
			fields[name] = httpx.MsgTooLong
		}
	}
	if len(fields) > 0 {
		return f
	}
	if in.email != "" {
		f.Email = strings.ToLower(strings.TrimSpace(in.email))
	}
	if in.phone != "" {
		p, ok := domain.NormalizePhone(in.phone)
		if !ok {
			fields["phone"] = "must be a phone number with 5 to 15 digits"
		}
		f.Phone = p
	}
	for _, s := range splitList(in.state) {
		st := domain.State(s)
		if !st.Valid() {
			fields["state"] = "must be a comma-separated list of: enabled, disabled, invited, declined"
			break
		}
		f.States = append(f.States, st)
	}
	if in.acceptsMarketing != "" {
		b, err := strconv.ParseBool(in.acceptsMarketing)
		if err != nil {
			fields["accepts_marketing"] = "must be true or false"
		}
		f.AcceptsMarketing = &b
	}
	for _, t := range splitList(in.tags) {
		f.Tags = append(f.Tags, domain.TagKey(t))
	}
	if in.minOrders != "" {
		n, err := strconv.Atoi(in.minOrders)
		if err != nil || n < 0 || n > limits.MaxCount {
			fields["min_orders"] = msgMinOrders
		}
		f.MinOrders = &n
	}
	if in.minTotalSpent != "" {
		d, err := decimal.NewFromString(in.minTotalSpent)
		if err != nil || d.IsNegative() || !money.Bounded(d) {
			fields["min_total_spent"] = "must be a decimal amount of at least 0"
		}
		f.MinTotalSpent = &d
	}
	for name, v := range map[string]struct {
		raw string
		dst **time.Time
	}{
		"created_after":  {in.createdAfter, &f.CreatedAfter},
		"created_before": {in.createdBefore, &f.CreatedBefore},
		"updated_after":  {in.updatedAfter, &f.UpdatedAfter},
	} {
		if v.raw == "" {
			continue
		}
		t, ok := parseTime(v.raw)
		if !ok {
			fields[name] = "must be an RFC 3339 timestamp or a date (YYYY-MM-DD)"
		}
		*v.dst = t
	}
	if utf8.RuneCountInString(in.q) > limits.MaxSearchText {
		fields["q"] = msgSearchTooLong
		return f
	}
	f.Terms = domain.Words(in.q)
	if len(f.Terms) > domain.MaxSearchTerms {
		fields["q"] = "must have at most 10 words"
	}
	return f
}

var sortFields = map[string]ports.SortField{
	"created_at":   ports.SortCreatedAt,
	"updated_at":   ports.SortUpdatedAt,
	"total_spent":  ports.SortTotalSpent,
	"orders_count": ports.SortOrdersCount,
}

// parseSort reads sort (default created_at) and order (asc or desc, default desc).
func parseSort(sort, order string, fields map[string]string) (ports.SortField, bool, error) {
	field := ports.SortCreatedAt
	if sort != "" {
		f, ok := sortFields[sort]
		if !ok {
			fields["sort"] = "must be one of: created_at, updated_at, total_spent, orders_count"
		}
		field = f
	}
	desc := true
	switch strings.ToLower(order) {
	case "", "desc":
	case "asc":
		desc = false
	default:
		fields["order"] = "must be asc or desc"
	}
	if len(fields) > 0 {
		return "", false, apperr.Validation(fields)
	}
	return field, desc, nil
}

func parseListQuery(c *gin.Context) (app.ListQuery, error) {
	fields := map[string]string{}
	in := filterInput{
		email: c.Query("email"), phone: c.Query("phone"), state: c.Query("state"), acceptsMarketing: c.Query("accepts_marketing"),
		tags: c.Query("tags"), minOrders: c.Query("min_orders"), minTotalSpent: c.Query("min_total_spent"),
		createdAfter: c.Query("created_after"), createdBefore: c.Query("created_before"), updatedAfter: c.Query("updated_after"),
		q: c.Query("q"),
	}
	f := in.filter(fields)
	sort, desc, err := parseSort(c.Query("sort"), c.Query("order"), fields)
	if err != nil {
		return app.ListQuery{}, err
	}
	return app.ListQuery{Filter: f, Sort: sort, Desc: desc}, nil
}

func parseSearch(req searchRequest, p httpx.Page) (app.SearchQuery, httpx.Page, error) {
	fields := map[string]string{}
	fl := req.Filters
	in := filterInput{
		email: deref(fl.Email), phone: deref(fl.Phone), state: deref(fl.State),
		minTotalSpent: deref(fl.MinTotalSpent), createdAfter: deref(fl.CreatedAfter),
		createdBefore: deref(fl.CreatedBefore), updatedAfter: deref(fl.UpdatedAfter),
	}
	f := in.filter(fields)
	f.AcceptsMarketing = fl.AcceptsMarketing
	if fl.MinOrders != nil {
		if *fl.MinOrders < 0 || *fl.MinOrders > limits.MaxCount {
			fields["filters.min_orders"] = msgMinOrders
		}
		f.MinOrders = fl.MinOrders
	}
	if t := fl.Tags.Slice(); t != nil {
		for _, tag := range *t {
			if k := domain.TagKey(tag); k != "" {
				f.Tags = append(f.Tags, k)
			}
		}
	}
	for k, v := range fields {
		if !strings.HasPrefix(k, "filters.") {
			delete(fields, k)
			fields["filters."+k] = v
		}
	}
	if utf8.RuneCountInString(req.Query) > limits.MaxSearchText {
		fields["query"] = msgSearchTooLong
	}
	if req.Page != nil {
		if *req.Page < 1 {
			fields["page"] = "must be an integer of at least 1"
		} else if *req.Page > limits.MaxPage {
			fields["page"] = httpx.MsgPageTooHigh
		}
		p.Page = *req.Page
	}
	if req.PerPage != nil {
		if *req.PerPage < 1 {
			fields["per_page"] = "must be an integer from 1 to 100"
		}
		p.PerPage = min(*req.PerPage, httpx.MaxPerPage)
	}
	sortFieldsErr := map[string]string{}
	sort, desc, err := parseSort(req.Sort.Field, req.Sort.Order, sortFieldsErr)
	if err != nil {
		for k, v := range sortFieldsErr {
			name := "sort.field"
			if k == "order" {
				name = "sort.order"
			}
			fields[name] = v
		}
	}
	if len(fields) > 0 {
		return app.SearchQuery{}, p, apperr.Validation(fields)
	}
	return app.SearchQuery{Query: req.Query, ListQuery: app.ListQuery{Filter: f, Sort: sort, Desc: desc, Page: page(p)}}, p, nil
}

var (
	orderStatuses          = setOf(domain.OrderStatuses)
	orderFinancialStatuses = setOf(domain.OrderFinancialStatuses)
)

func setOf(list []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range list {
		out[s] = true
	}
	return out
}

func parseOrderFilter(c *gin.Context) (ports.OrderFilter, error) {
	f := ports.OrderFilter{Status: c.Query("status"), FinancialStatus: c.Query("financial_status")}
	fields := map[string]string{}
	if f.Status != "" && !orderStatuses[f.Status] {
		fields["status"] = "must be one of: " + strings.Join(domain.OrderStatuses, ", ")
	}
	if f.FinancialStatus != "" && !orderFinancialStatuses[f.FinancialStatus] {
		fields["financial_status"] = "must be one of: " + strings.Join(domain.OrderFinancialStatuses, ", ")
	}
	if len(fields) > 0 {
		return f, apperr.Validation(fields)
	}
	return f, nil
}
