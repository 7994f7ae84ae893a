package domain_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/domain"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

const ttl = 30 * 24 * time.Hour

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func product(variant, price string, stock int) domain.Product {
	return domain.Product{ProductID: "p", VariantID: variant, Title: "P", Status: "active", Currency: "USD", Price: dec(price),
		InventoryTracked: true, InventoryPolicy: "deny", InventoryQuantity: stock}
}

func TestAddItem(t *testing.T) {
	t.Parallel()
	attrs := map[string]string{"size": "M"}
	cases := []struct {
		name     string
		existing int // quantity already in the cart (same variant and attributes); 0: none
		product  domain.Product
		quantity int
		attrs    map[string]string
		want     int // resulting quantity of the item
		items    int
		err      error
	}{
		{"new item", 0, product("v", "1.00", 10), 2, attrs, 2, 1, nil},
		{"identical item is merged", 3, product("v", "1.00", 10), 2, attrs, 5, 1, nil},
		{"other attributes are another item", 3, product("v", "1.00", 10), 2, map[string]string{"size": "L"}, 2, 2, nil},
		{"no attributes are another item", 3, product("v", "1.00", 10), 2, nil, 2, 2, nil},
		{"quantity 0", 0, product("v", "1.00", 10), 0, nil, 0, 0, domain.ErrInvalidQuantity},
		{"quantity 10000", 0, product("v", "1.00", 10000), 10000, nil, 0, 0, domain.ErrInvalidQuantity},
		{"9999 after merging", 9000, product("v", "1.00", 10000), 999, attrs, 9999, 1, nil},
		{"above 9999 after merging", 9000, product("v", "1.00", 10000), 1000, attrs, 0, 1, domain.ErrInvalidQuantity},
		{"inactive product", 0, func() domain.Product { p := product("v", "1.00", 10); p.Status = "draft"; return p }(), 1, nil, 0, 0, domain.ErrProductNotAvailable},
		{"out of stock", 0, product("v", "1.00", 0), 1, nil, 0, 0, domain.ErrProductNotAvailable},
		{"more than in stock after merging", 4, product("v", "1.00", 5), 2, attrs, 0, 1, domain.ErrProductNotAvailable},
		{"continue sells below zero", 0, func() domain.Product { p := product("v", "1.00", 0); p.InventoryPolicy = "continue"; return p }(), 3, nil, 3, 1, nil},
		{"untracked", 0, func() domain.Product { p := product("v", "1.00", 0); p.InventoryTracked = false; return p }(), 3, nil, 3, 1, nil},
		{"other currency", 0, func() domain.Product { p := product("v", "1.00", 10); p.Currency = "EUR"; return p }(), 1, nil, 0, 0, domain.ErrCurrencyMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := domain.New("c", "", "USD", now, ttl)
			if tc.existing > 0 {
				p := tc.product
				p.InventoryQuantity, p.Status, p.Currency = 100000, "active", "USD"
				if _, err := c.AddItem("first", p, tc.existing, attrs, now); err != nil {
					t.Fatal(err)
				}
			}
			it, err := c.AddItem("second", tc.product, tc.quantity, tc.attrs, now)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if it.Quantity != tc.want {
				t.Errorf("quantity %d, want %d", it.Quantity, tc.want)
			}
			if len(c.Items) != tc.items {
				t.Errorf("%d items, want %d", len(c.Items), tc.items)
			}
		})
	}
}

func TestUpdateItemMerges(t *testing.T) {
	t.Parallel()
	c := domain.New("c", "", "USD", now, ttl)
	p := product("v", "2.50", 100)
	a, _ := c.AddItem("a", p, 2, map[string]string{"k": "1"}, now)
	b, _ := c.AddItem("b", p, 3, map[string]string{"k": "2"}, now)
	attrs := map[string]string{"k": "2"}
	up, removed, err := c.UpdateItem(a.ID, domain.ItemChange{CustomAttributes: &attrs}, now)
	if err != nil || up.ID != "a" || up.Quantity != 5 || removed == nil || removed.ID != b.ID || len(c.Items) != 1 {
		t.Fatalf("merge: %+v %+v %v %d", up, removed, err, len(c.Items))
	}
	q := 10000
	if _, _, err := c.UpdateItem("a", domain.ItemChange{Quantity: &q}, now); !errors.Is(err, domain.ErrInvalidQuantity) {
		t.Errorf("quantity: %v", err)
	}
	if _, _, err := c.UpdateItem("zzz", domain.ItemChange{Quantity: &q}, now); !errors.Is(err, domain.ErrItemNotFound) {
		t.Errorf("unknown: %v", err)
	}
}

// The shipping price is the chosen rate's; naming another method drops it, the same
// method keeps it, "" clears it (docs/decisions/0175).
func TestShippingMethodAndRate(t *testing.T) {
	t.Parallel()
	c := domain.New("c", "", "USD", now, ttl)
	_, _ = c.AddItem("a", product("va", "10.00", 100), 1, nil, now)
	none := domain.Discounts{Items: map[domain.ItemID]decimal.Decimal{}, Shipping: decimal.Zero}
	steps := []struct {
		name, shipping, total string
		do                    func()
	}{
		{"a named method has no price", "0", "10.00", func() { c.SetShippingMethod("express") }},
		{"the chosen rate's price", "7.25", "17.25", func() { c.ChooseShippingRate("ups_ground", dec("7.25")) }},
		{"the same method keeps it", "7.25", "17.25", func() { c.SetShippingMethod("ups_ground") }},
		{"another method drops it", "0", "10.00", func() { c.SetShippingMethod("ups_next_day_air") }},
		{"chosen again", "20.00", "30.00", func() { c.ChooseShippingRate("ups_next_day_air", dec("20.00")) }},
		{"cleared", "0", "10.00", func() { c.SetShippingMethod("") }},
	}
	for _, st := range steps {
		st.do()
		c.Recalculate(none)
		if !c.ShippingTotal.Equal(dec(st.shipping)) || !c.Total().Equal(dec(st.total)) {
			t.Errorf("%s: shipping %s total %s, want %s %s", st.name, c.ShippingTotal, c.Total(), st.shipping, st.total)
		}
	}
}

func TestRecalculate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                                     string
		discounts                                map[domain.ItemID]string
		shippingDiscount, shipping               string
		subtotal, discount, shippingTotal, total string
	}{
		// subtotal = sum(quantity x unit_price); total = subtotal - discount_total + shipping_total
		{"no discounts", nil, "0", "5.00", "27.48", "0", "5.00", "32.48"},
		{"item discounts add up", map[domain.ItemID]string{"a": "1.99", "b": "0.51"}, "0", "0", "27.48", "2.50", "0", "24.98"},
		{"a discount never exceeds its item", map[domain.ItemID]string{"b": "99"}, "0", "0", "27.48", "7.50", "0", "19.98"},
		{"free shipping", nil, "5.00", "5.00", "27.48", "0", "0", "27.48"},
		{"shipping never below zero", nil, "9.00", "5.00", "27.48", "0", "0", "27.48"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := domain.New("c", "", "USD", now, ttl)
			_, _ = c.AddItem("a", product("va", "9.99", 100), 2, nil, now)
			_, _ = c.AddItem("b", product("vb", "2.50", 100), 3, nil, now)
			d := domain.Discounts{Items: map[domain.ItemID]decimal.Decimal{}, Shipping: dec(tc.shippingDiscount)}
			for id, v := range tc.discounts {
				d.Items[id] = dec(v)
			}
			c.ChooseShippingRate("express", dec(tc.shipping))
			c.Recalculate(d)
			sum := decimal.Zero
			for _, it := range c.Items {
				sum = sum.Add(it.DiscountAmount)
				if !it.Total().Equal(it.Subtotal().Sub(it.DiscountAmount)) {
					t.Errorf("item total")
				}
			}
			if !c.Subtotal.Equal(dec(tc.subtotal)) || !c.DiscountTotal.Equal(dec(tc.discount)) || !c.ShippingTotal.Equal(dec(tc.shippingTotal)) || !c.Total().Equal(dec(tc.total)) {
				t.Errorf("subtotal %s discount %s shipping %s total %s", c.Subtotal, c.DiscountTotal, c.ShippingTotal, c.Total())
			}
			if !sum.Equal(c.DiscountTotal) || c.ItemCount != 5 {
				t.Errorf("discount_total %s != sum %s, item_count %d", c.DiscountTotal, sum, c.ItemCount)
			}
		})
	}
}

func TestStatusAndExpiry(t *testing.T) {
	t.Parallel()
	c := domain.New("c", "", "USD", now, ttl)
	cases := []struct {
		at   time.Time
		want error
	}{
		{now.Add(ttl - time.Second), nil},
		{now.Add(ttl), domain.ErrCartExpired},
	}
	for _, tc := range cases {
		if err := c.CheckActive(tc.at); !errors.Is(err, tc.want) && (err != nil || tc.want != nil) {
			t.Errorf("at %s: %v, want %v", tc.at, err, tc.want)
		}
	}
	c.Touch(now.Add(ttl-time.Second), ttl)
	if err := c.CheckActive(now.Add(ttl)); err != nil {
		t.Errorf("touched cart: %v", err)
	}
	c.Status = domain.StatusConverted
	if err := c.CheckActive(now); !errors.Is(err, domain.ErrCartConverted) {
		t.Errorf("converted: %v", err)
	}
}

func TestMergeFrom(t *testing.T) {
	t.Parallel()
	mine := domain.New("m", "cust", "USD", now, ttl)
	_, _ = mine.AddItem("m1", product("v1", "1.00", 100000), 9000, nil, now)
	_, _ = mine.AddItem("m2", product("v2", "1.00", 100000), 1, map[string]string{"a": "b"}, now)
	guest := domain.New("g", "", "USD", now, ttl)
	_, _ = guest.AddItem("g1", product("v1", "1.00", 100000), 2000, nil, now)
	_, _ = guest.AddItem("g2", product("v2", "1.00", 100000), 1, nil, now)
	n := 0
	mine.MergeFrom(guest, func() domain.ItemID { n++; return domain.ItemID("new" + string(rune('0'+n))) }, now)
	if len(mine.Items) != 3 || mine.Items[0].Quantity != 9999 || mine.Items[1].Quantity != 1 || mine.Items[2].ID != "new1" || mine.Items[2].VariantID != "v2" {
		t.Errorf("merged %+v %+v %+v", mine.Items[0], mine.Items[1], mine.Items[2])
	}
	if guest.Items[1].ID != "g2" {
		t.Error("the guest's items were changed")
	}
}

func TestSessionToken(t *testing.T) {
	t.Parallel()
	tok, hash, err := domain.NewSessionToken()
	if err != nil || len(tok) != 43 || len(hash) != 64 || hash != domain.HashSessionToken(tok) {
		t.Fatalf("%q %q %v", tok, hash, err)
	}
	other, _, _ := domain.NewSessionToken()
	cases := []struct {
		hash, token string
		want        bool
	}{
		{hash, tok, true},
		{hash, other, false},
		{hash, "", false},
		{"", tok, false},
		{hash, tok + "x", false},
	}
	for _, tc := range cases {
		if got := domain.SessionTokenMatches(tc.hash, tc.token); got != tc.want {
			t.Errorf("matches(%q, %q) = %v", tc.hash, tc.token, got)
		}
	}
}

func TestAttributesKeyAndCurrency(t *testing.T) {
	t.Parallel()
	if domain.AttributesKey(map[string]string{"b": "2", "a": "1"}) != `{"a":"1","b":"2"}` || domain.AttributesKey(nil) != "{}" {
		t.Error("attributes key is not canonical")
	}
	cases := []struct{ in, want string }{{"", "USD"}, {"eur", "EUR"}, {" JPY ", "JPY"}, {"ABC", ""}, {"EURO", ""}}
	for _, tc := range cases {
		got, err := domain.NormalizeCurrency(tc.in)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("%q: %q %v", tc.in, got, err)
		}
	}
	for cur, want := range map[string]string{"USD": "1.50", "JPY": "2", "KWD": "1.500"} {
		if got := domain.Format(dec("1.5"), cur); got != want {
			t.Errorf("%s: %s, want %s", cur, got, want)
		}
	}
}

func TestCouponError(t *testing.T) {
	t.Parallel()
	cases := []struct{ code, want string }{
		{"COUPON_NOT_FOUND", "COUPON_INVALID"}, {"COUPON_INACTIVE", "COUPON_INVALID"}, {"COUPON_EXPIRED", "COUPON_INVALID"},
		{"COUPON_NOT_STARTED", "COUPON_INVALID"}, {"COUPON_MINIMUM_NOT_MET", "COUPON_MINIMUM_NOT_MET"},
		{"COUPON_USAGE_LIMIT", "COUPON_USAGE_LIMIT"}, {"COUPON_ALREADY_APPLIED", "COUPON_ALREADY_APPLIED"},
		{"COUPON_CANNOT_COMBINE", "COUPON_CANNOT_COMBINE"}, {"COUPON_CUSTOMER_LIMIT", "COUPON_CUSTOMER_LIMIT"},
		{"COUPON_PRODUCT_NOT_ELIGIBLE", "COUPON_PRODUCT_NOT_ELIGIBLE"}, {"", "COUPON_INVALID"},
	}
	for _, tc := range cases {
		err := domain.CouponError(tc.code, "msg")
		if err == nil || !errors.Is(err, errByCode(tc.want)) {
			t.Errorf("%s -> %v, want %s", tc.code, err, tc.want)
		}
	}
}
