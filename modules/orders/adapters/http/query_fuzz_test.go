package http

import (
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/money"
)

// The order list's query: any query string is parsed or refused with a 400.
func FuzzParseListQuery(f *testing.F) {
	httpxtest.FuzzQuery(f, []string{"", "status=any&financial_status=paid&sort=total_price&order=asc", "status=nope&min_total=x",
		"created_at_min=2026-01-02&created_at_max=2026-13-40", "include=items,payments,bogus", "customer_id=x&email=a%40b",
		"min_total=19.99&max_total=1e9999&q=%00", "min_total=1e30", "max_total=99999999999999999999"},
		func(c *gin.Context) error {
			f, err := parseListQuery(c)
			for _, d := range []*decimal.Decimal{f.MinTotal, f.MaxTotal} {
				if err == nil && d != nil && !money.Bounded(*d) { // 1e30 wrapped around the int64 units
					return apperr.New(apperr.Internal, "", "accepted amount "+d.String()+", beyond its integer units")
				}
			}
			return err
		})
}
