package http

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/api"
	"github.com/gocommerce/commerce/platform/httpx"
)

// The hand-written encoding must be byte for byte what encoding/json writes for the
// same resource, for every kind of value a product holds.
func TestProductJSONMatchesEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	at := time.Date(2026, 11, 23, 1, 2, 3, 450000000, time.UTC)
	whole := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	paris := time.Date(2025, 6, 7, 8, 9, 10, 123, time.FixedZone("CEST", 2*3600))
	hard := "<b>Tom & \"Jerry\"</b>\\ \n\r\t\b\f \x00\x01\x1f \x7f é 中文 \u2028\u2029 \xff\xfe end"
	variants := []api.VariantResource{{ID: "v1", Title: hard, Options: map[string]string{"size": "M", "<": ">"}, CreatedAt: at}}
	images := []api.ImageResource{}
	cases := map[string]api.ProductResource{
		"zero": {},
		"typical": {
			ID: "0198f7e2-0000-7000-8000-000000000001", Title: "Classic Cotton Shirt", Slug: "classic-cotton-shirt",
			Description: "<p>A shirt.</p>", ProductType: "physical", Vendor: "Acme", Tags: []string{"new", "gift"},
			Status: "active", IsFeatured: true, Price: "19.99", Currency: "USD", Taxable: true, RequiresShipping: true,
			Weight: "0.1", WeightUnit: "kg", InventoryQuantity: 42, InventoryPolicy: "deny",
			InventoryManagement: str("commerce"), LowStockThreshold: 10, MetaFields: map[string]any{},
			CreatedAt: at, UpdatedAt: whole, PublishedAt: &at,
		},
		"hard strings and values": {
			ID: hard, Title: hard, Slug: hard, Description: hard, ShortDescription: hard, ProductType: hard, Vendor: hard,
			Tags: []string{hard, "", "a"}, Status: hard, Price: hard, CompareAtPrice: str(hard), CostPrice: str(""),
			Currency: hard, Weight: hard, WeightUnit: hard, InventoryQuantity: -7, InventoryPolicy: hard,
			LowStockThreshold: 1 << 40, SEOTitle: hard, SEODescription: hard,
			MetaFields: map[string]any{"z": 1.5, "a": []any{"x", nil, true}, "n": map[string]any{"<k>": hard}},
			CreatedAt:  paris, UpdatedAt: time.Time{}, PublishedAt: &paris,
		},
		"empty tags, nil meta": {Tags: []string{}, MetaFields: nil, PublishedAt: &whole},
		"includes": {
			Tags: []string{}, MetaFields: map[string]any{}, Variants: &variants, Images: &images,
			Collections: &[]api.CollectionResource{{ID: "c1", Title: hard, Rules: []api.CollectionRule{{Column: "tag", Relation: "equals", Condition: "x"}}}},
		},
	}
	for name, p := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(httpx.Data(p))
			if err != nil {
				t.Fatal(err)
			}
			got := append(appendProduct([]byte(`{"data":`), &p), '}')
			if string(got) != string(want) {
				t.Fatalf("encoding differs\n got: %s\nwant: %s", got, want)
			}
			if !json.Valid(got) {
				t.Fatalf("not valid JSON: %s", got)
			}
		})
	}
}

// The list page is written by hand too: the same bytes as encoding/json for
// httpx.NewList, empty or full, first, middle and last page.
func TestProductListJSONMatchesEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	at := time.Date(2026, 11, 23, 1, 2, 3, 450000000, time.UTC)
	hard := "<b>Tom & \"Jerry\"</b>\\ \n\x00 é \u2028 \xff end"
	full := []api.ProductSummary{
		{ID: "p1", Title: "Shirt", Slug: "shirt", Tags: []string{"a", hard}, Status: "active", IsFeatured: true, Price: "19.99",
			CompareAtPrice: str("25.00"), Currency: "EUR", InventoryQuantity: 3, InventoryPolicy: "deny", LowStockThreshold: 5,
			HasVariants: true, ImageURL: str("https://cdn.test/a.png?x=1&y=<2>"), CreatedAt: at, UpdatedAt: at, PublishedAt: &at},
		{ID: hard, Title: hard, Slug: hard, ShortDescription: hard, ProductType: hard, Vendor: hard, Tags: []string{}, Status: hard,
			Price: hard, Currency: hard, InventoryQuantity: -1, InventoryPolicy: hard},
		{},
	}
	cases := map[string]struct {
		items []api.ProductSummary
		page  httpx.Page
		total int64
	}{
		"empty":  {[]api.ProductSummary{}, httpx.Page{Page: 1, PerPage: 20}, 0},
		"nil":    {nil, httpx.Page{Page: 3, PerPage: 20}, 41},
		"first":  {full, httpx.Page{Page: 1, PerPage: 3}, 10},
		"middle": {full[:1], httpx.Page{Page: 2, PerPage: 1}, 3},
		"last":   {full, httpx.Page{Page: 4, PerPage: 3}, 12},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(httpx.NewList(tc.items, tc.page, tc.total))
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			c, _ := gin.CreateTestContext(rec)
			writeProductList(c, tc.items, tc.page, tc.total)
			if got := rec.Body.String(); got != string(want) {
				t.Fatalf("encoding differs\n got: %s\nwant: %s", got, want)
			}
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
				t.Fatalf("status %d, content type %q", rec.Code, rec.Header().Get("Content-Type"))
			}
		})
	}
}

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
