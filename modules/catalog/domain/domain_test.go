package domain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
	"github.com/gocommerce/commerce/platform/patch"
)

var now = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func TestParseAmount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw, currency, want string
		ok                  bool
	}{
		{"19.99", "USD", "19.99", true},
		{"19.9", "USD", "19.9", true},
		{"19.900", "USD", "19.9", true},
		{"0", "USD", "0", true},
		{"1999", "JPY", "1999", true},
		{"1999.0", "JPY", "1999", true},
		{"10.5", "JPY", "", false},
		{"1.999", "USD", "", false},
		{"1.234", "BHD", "1.234", true},
		{"1.2345", "CLF", "1.2345", true},
		{"-1", "USD", "", false},
		{"abc", "USD", "", false},
		{"1e3", "USD", "", false},
		{"", "USD", "", false},
		{" 5.00 ", "USD", "5", true},
		{"1234567890123456", "USD", "", false},
		{"123456789012345", "USD", "123456789012345", true},
		{".5", "USD", "", false},
		{"5.", "USD", "", false},
	}
	for _, c := range cases {
		d, err := ParseAmount("price", c.raw, c.currency)
		if c.ok != (err == nil) {
			t.Errorf("ParseAmount(%q, %s) error %v", c.raw, c.currency, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidPrice) {
				t.Errorf("ParseAmount(%q) = %v, want INVALID_PRICE", c.raw, err)
			}
			if e, _ := apperr.As(err); e.Fields["price"] == "" {
				t.Errorf("ParseAmount(%q) does not name the field", c.raw)
			}
			continue
		}
		if !d.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("ParseAmount(%q) = %s, want %s", c.raw, d, c.want)
		}
	}
	for cur, want := range map[string]string{"USD": "19.90", "BHD": "19.900", "CLF": "19.9000"} {
		if got := FormatAmount(decimal.RequireFromString("19.9"), cur); got != want {
			t.Errorf("FormatAmount(19.9, %s) = %s, want %s", cur, got, want)
		}
	}
	if got := FormatAmount(decimal.RequireFromString("1999"), "JPY"); got != "1999" {
		t.Errorf("JPY format %s", got)
	}
}

func TestCurrencies(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"USD", "eur", " gbp ", "JPY", "CHF", "XCG", "ZWG", "SLE", "VES"} {
		if _, err := NormalizeCurrency(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "US", "USDD", "XXX", "XAU", "HRK", "ZWL", "EURO", "123"} {
		if _, err := NormalizeCurrency(bad); !errors.Is(err, ErrInvalidCurrency) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
	if n := len(money.Codes()); n < 150 {
		t.Errorf("only %d currencies", n)
	}
	if MinorUnits("JPY") != 0 || MinorUnits("KWD") != 3 || MinorUnits("USD") != 2 || MinorUnits("CLF") != 4 {
		t.Error("minor units")
	}
}

func TestSlugs(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Blue Shirt":             "blue-shirt",
		"  Crème Brûlée!! ":      "creme-brulee",
		"Straße 9":               "strasse-9",
		"A -- B__C":              "a-b-c",
		"日本":                     "fallback",
		"":                       "fallback",
		"ÅNGSTRÖM & Ørsted":      "angstrom-rsted",
		strings.Repeat("x", 300): strings.Repeat("x", 200),
	} {
		if got := Slugify(in, "fallback"); got != want {
			t.Errorf("Slugify(%q) = %q, want %q", in, got, want)
		}
	}
	for s, ok := range map[string]bool{"a": true, "a-b-1": true, "A": false, "a--b": false, "-a": false, "a-": false, "a b": false, "": false, strings.Repeat("a", 256): false} {
		if ValidSlug(s) != ok {
			t.Errorf("ValidSlug(%q) = %v", s, !ok)
		}
	}
	if got := UniqueSlug("shirt", nil); got != "shirt" {
		t.Errorf("free: %s", got)
	}
	if got := UniqueSlug("shirt", []string{"shirt", "shirt-2", "shirt-blue", "shirt-4"}); got != "shirt-3" {
		t.Errorf("taken: %s", got)
	}
}

func TestNewProductDefaultsAndStatus(t *testing.T) {
	t.Parallel()
	p, err := NewProduct("p1", ProductInput{Title: patch.Val(" Mug "), Currency: patch.Val("usd"), ProductType: patch.Val(TypeDigital), SharedInput: SharedInput{Price: patch.Val("9.50")}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Mug" || p.Currency != "USD" || p.Status != StatusActive || p.PublishedAt == nil || !p.PublishedAt.Equal(now) ||
		p.RequiresShipping || !p.Taxable || p.WeightUnit != "kg" || p.InventoryPolicy != PolicyDeny ||
		p.InventoryManagement != InventoryManagementCommerce || p.LowStockThreshold != 10 || p.Tags == nil || p.MetaFields == nil {
		t.Fatalf("defaults %+v", p)
	}
	later := now.Add(time.Hour)
	steps := []struct {
		status              string
		published, unpub    bool
		publishedAtNil      bool
		publishedAtUnchange bool
	}{
		{StatusActive, false, false, false, true},
		{StatusDraft, false, true, true, false},
		{StatusArchived, false, false, true, false},
		{StatusActive, true, false, false, false},
		{StatusArchived, false, true, true, false},
	}
	for i, st := range steps {
		before := p.PublishedAt
		ch, err := p.Apply(ProductInput{Status: patch.Val(st.status)}, later)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Published != st.published || ch.Unpublished != st.unpub || (p.PublishedAt == nil) != st.publishedAtNil {
			t.Errorf("step %d (%s): change %+v published_at %v", i, st.status, ch, p.PublishedAt)
		}
		if st.publishedAtUnchange && (before == nil || !p.PublishedAt.Equal(*before)) {
			t.Errorf("step %d: published_at moved", i)
		}
		if st.published && !p.PublishedAt.Equal(later) {
			t.Errorf("step %d: published_at %v", i, p.PublishedAt)
		}
	}
	d, err := NewProduct("p2", ProductInput{Title: patch.Val("Draft"), Currency: patch.Val("EUR"), Status: patch.Val(StatusDraft), SharedInput: SharedInput{Price: patch.Val("1")}}, now)
	if err != nil || d.PublishedAt != nil || !d.RequiresShipping {
		t.Fatalf("draft %+v %v", d, err)
	}
}

func TestProductApplyErrors(t *testing.T) {
	t.Parallel()
	base := func() *Product {
		p, err := NewProduct("p", ProductInput{Title: patch.Val("T"), Currency: patch.Val("USD"), SharedInput: SharedInput{Price: patch.Val("10.50")}}, now)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name  string
		in    ProductInput
		code  string
		field string
	}{
		{"type", ProductInput{ProductType: patch.Val("toy")}, "INVALID_PRODUCT_TYPE", "product_type"},
		{"currency", ProductInput{Currency: patch.Val("ABC")}, "INVALID_CURRENCY", "currency"},
		{"null currency", ProductInput{Currency: patch.Null[string]()}, "INVALID_CURRENCY", "currency"},
		{"price", ProductInput{SharedInput: SharedInput{Price: patch.Val("-3")}}, "INVALID_PRICE", "price"},
		{"null price", ProductInput{SharedInput: SharedInput{Price: patch.Null[string]()}}, "INVALID_PRICE", "price"},
		{"currency narrows", ProductInput{Currency: patch.Val("JPY")}, "INVALID_PRICE", "price"},
		{"cost", ProductInput{SharedInput: SharedInput{CostPrice: patch.Val("x")}}, "INVALID_PRICE", "cost_price"},
		{"status", ProductInput{Status: patch.Val("gone")}, "", "status"},
		{"title", ProductInput{Title: patch.Val("")}, "", "title"},
		{"long title", ProductInput{Title: patch.Val(strings.Repeat("é", 256))}, "", "title"},
		{"slug", ProductInput{Slug: patch.Val("Bad Slug")}, "", "slug"},
		{"weight", ProductInput{SharedInput: SharedInput{Weight: patch.Val("1.23456")}}, "", "weight"},
		{"unit", ProductInput{SharedInput: SharedInput{WeightUnit: patch.Val("ton")}}, "", "weight_unit"},
		{"policy", ProductInput{SharedInput: SharedInput{InventoryPolicy: patch.Val("allow")}}, "", "inventory_policy"},
		{"management", ProductInput{InventoryManagement: patch.Val("other")}, "", "inventory_management"},
		{"threshold", ProductInput{LowStockThreshold: patch.Val(-1)}, "", "low_stock_threshold"},
		{"quantity", ProductInput{SharedInput: SharedInput{InventoryQuantity: patch.Val(-1)}}, "", "inventory_quantity"},
		{"null bool", ProductInput{Taxable: patch.Null[bool]()}, "", "taxable"},
		{"null tags", ProductInput{Tags: patch.Null[[]string]()}, "", "tags"},
		{"tag comma", ProductInput{Tags: patch.Val([]string{"a,b"})}, "", "tags"},
		{"too many tags", ProductInput{Tags: patch.Val(manyTags(251))}, "", "tags"},
		{"meta key", ProductInput{MetaFields: patch.Val(map[string]any{" ": 1})}, "", "meta_fields"},
		{"long sku", ProductInput{SKU: patch.Val(strings.Repeat("s", 256))}, "", "sku"},
	}
	for _, c := range cases {
		p := base()
		before := *p
		_, err := p.Apply(c.in, now.Add(time.Minute))
		e, ok := apperr.As(err)
		if !ok {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if e.Code != c.code || e.Kind != apperr.Invalid || e.Fields[c.field] == "" {
			t.Errorf("%s: %s %v", c.name, e.Code, e.Fields)
		}
		if !p.UpdatedAt.Equal(before.UpdatedAt) || p.Title != before.Title || !p.Price.Equal(before.Price) {
			t.Errorf("%s: product changed on error", c.name)
		}
	}
	p := base()
	if _, err := p.Apply(ProductInput{Tags: patch.Val([]string{" a ", "", "A", "b"}), InventoryManagement: patch.Val(""), SharedInput: SharedInput{CompareAtPrice: patch.Val("12")}}, now); err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Tags, "|") != "a|b" || p.CompareAtPrice.String() != "12" || p.InventoryManagement != "" {
		t.Fatalf("applied %+v", p)
	}
	if err := (&ProductInput{Title: patch.Val("x")}).CheckReplace(); err == nil {
		t.Fatal("CheckReplace accepted a partial input")
	} else if e, _ := apperr.As(err); len(e.Fields) != len(ReplaceFields)-1 {
		t.Fatalf("CheckReplace fields %v", e.Fields)
	}
	if _, err := NewProduct("p", ProductInput{Title: patch.Val("x")}, now); err == nil {
		t.Fatal("NewProduct without price")
	} else if e, _ := apperr.As(err); e.Fields["price"] == "" || e.Fields["currency"] == "" {
		t.Fatalf("NewProduct missing fields %v", e.Fields)
	}
}

func manyTags(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "t" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)
	}
	return out
}

func TestVariantRules(t *testing.T) {
	t.Parallel()
	p, _ := NewProduct("p", ProductInput{Title: patch.Val("T"), Currency: patch.Val("USD"), SharedInput: SharedInput{Price: patch.Val("10.00"), Weight: patch.Val("2"), InventoryQuantity: patch.Val(5), CompareAtPrice: patch.Val("12")}}, now)
	def := NewDefaultVariant("v0", p, " SKU ", "", now)
	if !def.IsDefault || def.Title != DefaultVariantTitle || def.SKU != "SKU" || !def.Price.Equal(p.Price) || def.InventoryQuantity != 5 || def.CompareAtPrice == nil {
		t.Fatalf("default %+v", def)
	}
	if _, err := NewVariant("v1", p, VariantInput{}, now); err == nil {
		t.Fatal("variant without title or options")
	}
	v, err := NewVariant("v1", p, VariantInput{Options: patch.Val(map[string]string{"size": " L ", "color": "Red"}), SharedInput: SharedInput{InventoryQuantity: patch.Val(2)}}, now)
	if err != nil || v.Title != "Red / L" || v.Options["size"] != "L" || v.InventoryQuantity != 2 || !v.Weight.Equal(p.Weight) || v.IsDefault {
		t.Fatalf("variant %+v %v", v, err)
	}
	for name, in := range map[string]VariantInput{
		"price":   {SharedInput: SharedInput{Price: patch.Val("1.001")}},
		"options": {Options: patch.Val(map[string]string{"": "x"})},
		"policy":  {SharedInput: SharedInput{InventoryPolicy: patch.Val("x")}},
		"title":   {Title: patch.Val(" ")},
		"qty":     {SharedInput: SharedInput{InventoryQuantity: patch.Val(-2)}},
	} {
		c := v.Clone()
		if err := c.Apply(in, "USD", now); err == nil {
			t.Errorf("%s accepted", name)
		} else if c.Title != v.Title || !c.Price.Equal(v.Price) {
			t.Errorf("%s changed the variant", name)
		}
	}
	// Mirrors.
	p.Price = decimal.RequireFromString("11")
	if !MirrorProductToVariant(p, def) || !def.Price.Equal(p.Price) || MirrorProductToVariant(p, def) {
		t.Fatal("mirror product → variant")
	}
	def.InventoryQuantity = 9
	if !MirrorVariantToProduct(def, p) || p.InventoryQuantity != 9 || MirrorVariantToProduct(def, p) {
		t.Fatal("mirror variant → product")
	}
}

func TestStockStatus(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		q, th int
		want  string
	}{{0, 10, StockOutOfStock}, {-3, 10, StockOutOfStock}, {1, 10, StockLowStock}, {10, 10, StockLowStock}, {11, 10, StockInStock}, {1, 0, StockInStock}} {
		if got := StockStatus(c.q, c.th); got != c.want {
			t.Errorf("StockStatus(%d, %d) = %s", c.q, c.th, got)
		}
	}
}

func TestCollectionsAndRules(t *testing.T) {
	t.Parallel()
	c, err := NewCollection("c", CollectionInput{Title: patch.Val("Sale")}, now)
	if err != nil || c.CollectionType != CollectionManual || !c.IsActive || c.Rules == nil {
		t.Fatalf("manual %+v %v", c, err)
	}
	if err := c.Apply(CollectionInput{CollectionType: patch.Val(CollectionSmart)}, now); err == nil {
		t.Fatal("type change accepted")
	}
	rules := []Rule{{RuleTag, RelEquals, "Eco"}, {RulePrice, RelLessThan, "50"}, {RuleTitle, RelContains, "mug"}}
	s, err := NewCollection("s", CollectionInput{Title: patch.Val("Eco mugs"), CollectionType: patch.Val(CollectionSmart), Rules: patch.Val(rules)}, now)
	if err != nil {
		t.Fatal(err)
	}
	p := &Product{Title: "Big MUG", Tags: []string{"eco"}, Shared: Shared{Price: decimal.RequireFromString("20")}}
	if !s.Matches(p) {
		t.Fatal("should match")
	}
	p.Price = decimal.RequireFromString("50")
	if s.Matches(p) || c.Matches(p) {
		t.Fatal("should not match")
	}
	for _, r := range []Rule{{"color", RelEquals, "x"}, {RuleTag, RelContains, "x"}, {RulePrice, RelGreaterThan, "abc"}, {RuleInventoryQuantity, RelEquals, "1.5"}, {RuleVendor, RelEquals, ""}} {
		if CheckRule(r) == "" {
			t.Errorf("rule %+v accepted", r)
		}
	}
	for _, r := range []Rule{{RuleVendor, RelEndsWith, "co"}, {RuleInventoryQuantity, RelGreaterThan, "-1"}, {RuleProductType, RelNotEquals, "digital"}} {
		if msg := CheckRule(r); msg != "" {
			t.Errorf("rule %+v refused: %s", r, msg)
		}
	}
	q := &Product{Vendor: "Sunny Co", ProductType: TypeDigital, Shared: Shared{InventoryQuantity: 0}}
	for _, r := range []struct {
		rule Rule
		want bool
	}{
		{Rule{RuleVendor, RelEndsWith, " co"}, true}, {Rule{RuleVendor, RelStartsWith, "sun"}, true}, {Rule{RuleVendor, RelNotContains, "sun"}, false},
		{Rule{RuleProductType, RelNotEquals, "digital"}, false}, {Rule{RuleInventoryQuantity, RelGreaterThan, "-1"}, true},
		{Rule{RuleInventoryQuantity, RelEquals, "0"}, true}, {Rule{RuleTag, RelNotEquals, "eco"}, true},
	} {
		if got := ruleMatches(r.rule, q); got != r.want {
			t.Errorf("%+v = %v", r.rule, got)
		}
	}
}

func TestClampPosition(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]int{{0, 3, 4}, {1, 3, 1}, {4, 3, 4}, {9, 3, 4}, {-1, 0, 1}, {2, 0, 1}} {
		if got := ClampPosition(c[0], c[1]); got != c[2] {
			t.Errorf("ClampPosition(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}
