package http

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/httpx"
)

// The hand-written product encoders write what encoding/json writes, for any strings
// (HTML, control characters, invalid UTF-8), numbers, flags, times and meta fields.
// `make fuzz` runs it for longer; `go test` runs the seeds.
func FuzzProductJSONMatchesEncodingJSON(f *testing.F) {
	f.Add("Classic Cotton Shirt", "<p>A & B</p>", "gift", "19.99", int64(1795395723), int64(450000000), 3600, 42, true, 1, 20, int64(41))
	f.Add("\x00\x1f\u2028\xff\xfe", "\"\\", "", "", int64(0), int64(0), 0, -7, false, 3, 1, int64(0))
	f.Add("漢 😀", "\x7f<>&", "a\tb", "1e3", int64(-62135596800), int64(1), -86399, 1<<40, true, 0, 0, int64(-1))
	f.Add("x", "y", "z", "0", int64(253402300800), int64(0), 24*3600, 0, false, 2, 100, int64(1<<40))
	f.Fuzz(func(t *testing.T, s1, s2, tag, price string, sec, nsec int64, offset, n int, flag bool, page, perPage int, total int64) {
		at := time.Unix(sec, nsec).In(time.FixedZone("z", offset))
		p := api.ProductResource{
			ID: s1, Title: s2, Slug: s1 + s2, Description: s2, ShortDescription: s1, ProductType: tag, Vendor: s2,
			Tags: []string{tag, s1}, Status: s1, IsFeatured: flag, Price: price, CompareAtPrice: &s2, Currency: s1,
			Taxable: !flag, RequiresShipping: flag, Weight: price, WeightUnit: tag, InventoryQuantity: n,
			InventoryPolicy: s2, LowStockThreshold: -n, HasVariants: flag, SEOTitle: s1, SEODescription: s2,
			MetaFields: map[string]any{s1: s2, tag: []any{price, nil, flag, float64(n)}}, CreatedAt: at, UpdatedAt: at.UTC(),
		}
		if flag {
			p.CostPrice, p.InventoryManagement, p.PublishedAt = &tag, &s1, &at
			p.Variants = &[]api.VariantResource{{ID: s1, Title: s2, Options: map[string]string{tag: s2}, CreatedAt: at}}
		}
		want, err := json.Marshal(httpx.Data(p))
		got := append(appendProduct([]byte(`{"data":`), &p), '}')
		if err == nil && string(got) != string(want) {
			t.Fatalf("product encoding differs\n got: %s\nwant: %s", got, want)
		}
		if !json.Valid(got) {
			t.Fatalf("product: not valid JSON: %s", got)
		}

		items := []api.ProductSummary{{
			ID: s1, Title: s2, Slug: tag, ShortDescription: s2, ProductType: s1, Vendor: tag, Tags: []string{s2},
			Status: s1, IsFeatured: flag, Price: price, CompareAtPrice: p.CostPrice, Currency: tag,
			InventoryQuantity: n, InventoryPolicy: s2, LowStockThreshold: n, HasVariants: !flag, ImageURL: &s2,
			CreatedAt: at, UpdatedAt: at, PublishedAt: p.PublishedAt,
		}, {}}
		page, perPage = max(1, page%1000), max(1, perPage%101)
		want, err = json.Marshal(httpx.NewList(items, httpx.Page{Page: page, PerPage: perPage}, total))
		rec := httptest.NewRecorder()
		c, _ := gin.CreateTestContext(rec)
		writeProductList(c, items, httpx.Page{Page: page, PerPage: perPage}, total)
		if err == nil && rec.Body.String() != string(want) {
			t.Fatalf("list encoding differs\n got: %s\nwant: %s", rec.Body, want)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("list: not valid JSON: %s", rec.Body)
		}
	})
}
