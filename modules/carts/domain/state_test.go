package domain_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/carts/domain"
)

// cartIn is a cart in a state: active, expired (active past expires_at), marked
// expired, converted for order "o1", or merged into cart "target".
func cartIn(state string) *domain.Cart {
	c := domain.New("c", "", "USD", now.Add(-time.Hour), ttl)
	switch state {
	case "expired":
		c.ExpiresAt = now.Add(-time.Minute)
	case "marked expired":
		c.ExpiresAt, c.Status = now.Add(-time.Minute), domain.StatusExpired
	case "converted":
		c.Status, c.ConvertedOrderID = domain.StatusConverted, "o1"
	case "merged":
		c.Status, c.MergedIntoID = domain.StatusConverted, "target"
	}
	return c
}

func TestMarkConverted(t *testing.T) {
	t.Parallel()
	cases := []struct {
		state, order string
		again        bool
		err          error
		wantOrder    string // converted_order_id afterwards
	}{
		{"active", "o1", false, nil, "o1"},
		{"converted", "o1", true, nil, "o1"}, // the same order again: a no-op
		{"converted", "o2", false, domain.ErrCartConverted, "o1"},
		{"converted", "", false, domain.ErrCartConverted, "o1"},
		{"merged", "o1", false, domain.ErrCartConverted, ""},
		{"expired", "o1", false, domain.ErrCartExpired, ""},
		{"marked expired", "o1", false, domain.ErrCartExpired, ""},
	}
	for _, tc := range cases {
		c := cartIn(tc.state)
		before := c.UpdatedAt
		again, err := c.MarkConverted(tc.order, now)
		if again != tc.again || !errors.Is(err, tc.err) || c.ConvertedOrderID != tc.wantOrder {
			t.Errorf("%s, order %q: again %v, err %v, order %q", tc.state, tc.order, again, err, c.ConvertedOrderID)
		}
		changed := tc.err == nil && !tc.again
		if changed != (c.UpdatedAt.Equal(now) && c.Status == domain.StatusConverted) || (!changed && !c.UpdatedAt.Equal(before)) {
			t.Errorf("%s, order %q: status %s, updated_at %v", tc.state, tc.order, c.Status, c.UpdatedAt)
		}
	}
}

func TestExpire(t *testing.T) {
	t.Parallel()
	cases := []struct {
		state string
		want  bool
		after domain.Status
	}{
		{"expired", true, domain.StatusExpired},
		{"active", false, domain.StatusActive}, // still within its expiry
		{"marked expired", false, domain.StatusExpired},
		{"converted", false, domain.StatusConverted},
		{"merged", false, domain.StatusConverted},
	}
	for _, tc := range cases {
		c := cartIn(tc.state)
		before := c.UpdatedAt
		if got := c.Expire(now); got != tc.want || c.Status != tc.after {
			t.Errorf("%s: expired %v, status %s", tc.state, got, c.Status)
		}
		if tc.want != c.UpdatedAt.Equal(now) || (!tc.want && !c.UpdatedAt.Equal(before)) {
			t.Errorf("%s: updated_at %v", tc.state, c.UpdatedAt)
		}
	}
}

func TestMergeInto(t *testing.T) {
	t.Parallel()
	cases := []struct {
		state string
		err   error
	}{
		{"active", nil},
		{"expired", domain.ErrCartExpired},
		{"marked expired", domain.ErrCartExpired},
		{"converted", domain.ErrCartConverted},
		{"merged", domain.ErrCartConverted},
	}
	for _, tc := range cases {
		c := cartIn(tc.state)
		was := *c
		err := c.MergeInto("mine", now)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v", tc.state, err)
		}
		if tc.err == nil && (c.Status != domain.StatusConverted || c.MergedIntoID != "mine" || !c.UpdatedAt.Equal(now)) {
			t.Errorf("%s: %+v", tc.state, c)
		}
		if tc.err != nil && (c.Status != was.Status || c.MergedIntoID != was.MergedIntoID || c.UpdatedAt != was.UpdatedAt) {
			t.Errorf("%s: a refused merge changed the cart: %+v", tc.state, c)
		}
	}
	// a merged cart answers CART_CONVERTED to later changes and to checkout
	c := cartIn("active")
	_ = c.MergeInto("mine", now)
	if _, err := c.MarkConverted("o1", now); !errors.Is(err, domain.ErrCartConverted) {
		t.Errorf("converting a merged cart: %v", err)
	}
}

func TestAbsorb(t *testing.T) {
	t.Parallel()
	newID := func() domain.ItemID { return "new" }
	guest := domain.New("g", "", "EUR", now, ttl)
	guest.Email, guest.ShippingMethod = "g@example.com", "express"
	p := product("v1", "1.00", 10)
	p.Currency = "EUR"
	_, _ = guest.AddItem("g1", p, 2, nil, now)

	empty := domain.New("m", "cust", "USD", now, ttl) // no items: takes the guest's currency and details
	if err := empty.Absorb(guest, newID, now); err != nil || empty.Currency != "EUR" || len(empty.Items) != 1 ||
		empty.Email != "g@example.com" || empty.ShippingMethod != "express" {
		t.Errorf("empty cart: %v %+v", err, empty)
	}
	mine := domain.New("m", "cust", "EUR", now, ttl) // its own details are kept
	mine.Email, mine.ShippingMethod = "me@example.com", "standard"
	_, _ = mine.AddItem("m1", p, 1, nil, now)
	if err := mine.Absorb(guest, newID, now); err != nil || mine.Items[0].Quantity != 3 || mine.Email != "me@example.com" || mine.ShippingMethod != "standard" {
		t.Errorf("same currency: %v %+v", err, mine)
	}
	other := domain.New("m", "cust", "USD", now, ttl) // items in another currency: refused, unchanged
	_, _ = other.AddItem("m1", product("v2", "1.00", 10), 1, nil, now)
	if err := other.Absorb(guest, newID, now); !errors.Is(err, domain.ErrCurrencyMismatch) || other.Currency != "USD" || len(other.Items) != 1 || other.Email != "" {
		t.Errorf("other currency: %v %+v", err, other)
	}
}

func TestAddCoupon(t *testing.T) {
	t.Parallel()
	c := domain.New("c", "", "USD", now, ttl)
	if err := c.AddCoupon(domain.AppliedCoupon{Code: " SAVE10 "}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		code string
		err  error
	}{
		{"save10", domain.ErrCouponAlreadyApplied}, // any case
		{"SAVE10", domain.ErrCouponAlreadyApplied},
		{"", domain.ErrCouponInvalid},
		{"   ", domain.ErrCouponInvalid},
		{strings.Repeat("X", domain.MaxCouponCodeLength+1), domain.ErrCouponInvalid},
		{strings.Repeat("X", domain.MaxCouponCodeLength), nil},
		{"FREESHIP", nil},
	}
	for _, tc := range cases {
		if err := c.AddCoupon(domain.AppliedCoupon{Code: tc.code}); !errors.Is(err, tc.err) {
			t.Errorf("%q: %v, want %v", tc.code, err, tc.err)
		}
	}
	got := c.CouponCodes()
	if len(got) != 3 || got[0] != "SAVE10" || got[2] != "FREESHIP" {
		t.Errorf("coupons %v", got)
	}
	if code, err := domain.CheckCouponCode("  A1 "); code != "A1" || err != nil {
		t.Errorf("check: %q %v", code, err)
	}
}
