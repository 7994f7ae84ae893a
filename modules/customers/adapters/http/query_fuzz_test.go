package http

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/money"
)

// The customer list's and the orders tab's queries: any query string is parsed or
// refused with a 400.
func FuzzParseListQuery(f *testing.F) {
	httpxtest.FuzzQuery(f, []string{"", "email=a@b.co&state=enabled&accepts_marketing=true&sort=total_spent&order=desc",
		"min_orders=-1&min_total_spent=1e3&tags=a,,b", "created_after=2026-01-02&updated_after=yesterday", "q=%ff&sort=bogus",
		"status=open&financial_status=nope", "min_orders=99999999999999999999", "min_total_spent=12345678901234567.1", "min_total_spent=1e30"},
		func(c *gin.Context) error {
			q, err := parseListQuery(c)
			if d := q.Filter.MinTotalSpent; err == nil && d != nil && !money.Bounded(*d) { // 1e30 wrapped around the int64 units
				return apperr.New(apperr.Internal, "", "accepted amount "+d.String()+", beyond its integer units")
			}
			if _, ferr := parseOrderFilter(c); err == nil {
				err = ferr
			}
			return err
		})
}
