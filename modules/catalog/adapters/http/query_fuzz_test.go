package http

import (
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/platform/httpxtest"
)

// The product list's query: any query string is parsed or refused with a 400.
func FuzzParseProductQuery(f *testing.F) {
	httpxtest.FuzzQuery(f, []string{"", "status=active&sort=price&order=desc", "min_price=19.99&max_price=1e3",
		"ids=0198f7e2-0000-7000-8000-000000000001,,x", "created_after=2026-01-02&created_before=2026-01-02T03:04:05.999+23:59",
		"is_featured=T&inventory_status=low_stock&tags=A,%20b", "q=%00&vendor=%ff&sort=&order=up", "min_price=-1&max_price=1234567890123456.12345"},
		func(c *gin.Context) error { _, err := parseProductQuery(c); return err })
}
