package auth

import "testing"

func TestHasScope(t *testing.T) {
	t.Parallel()
	cases := []struct {
		granted  []string
		required string
		want     bool
	}{
		{[]string{"products:read"}, "products:read", true},
		{[]string{"products:read"}, "products:write", false},
		{[]string{"products:write"}, "products:read", true},
		{[]string{"products:write"}, "products:admin", false},
		{[]string{"products:admin"}, "products:write", true},
		{[]string{"products:admin"}, "orders:read", false},
		{[]string{"read"}, "orders:read", true},
		{[]string{"read"}, "orders:write", false},
		{[]string{"write"}, "orders:read", true},
		{[]string{"write"}, "orders:write", true},
		{[]string{"write"}, "admin", false},
		{[]string{"admin"}, "orders:write", true},
		{[]string{"admin"}, "admin", true},
		{[]string{"orders:admin"}, "admin", false},
		{nil, "products:read", false},
		{[]string{"bogus"}, "products:read", false},
		{[]string{"orders:read"}, "products:read", false},
	}
	for _, c := range cases {
		if got := HasScope(c.granted, c.required); got != c.want {
			t.Errorf("HasScope(%v, %q) = %v, want %v", c.granted, c.required, got, c.want)
		}
	}
}

func TestValidScope(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"admin", "read", "write", "products:read", "tax:admin", "rate_limits:read"} {
		if !ValidScope(s) {
			t.Errorf("%q should be valid", s)
		}
	}
	for _, s := range []string{"", "products", "products:delete", ":read", "Products:read"} {
		if ValidScope(s) {
			t.Errorf("%q should be invalid", s)
		}
	}
}

func TestCustomerIDOnlyForCustomerTokens(t *testing.T) {
	t.Parallel()
	cases := []struct {
		p    *Principal
		want string
	}{
		{nil, ""},
		{&Principal{Kind: Customer, ID: "c1"}, "c1"},
		{&Principal{Kind: Staff, ID: "s1"}, ""},
		{&Principal{Kind: APIKey, ID: "k1", KeyPrefix: "ck_1"}, ""},
	}
	for _, c := range cases {
		if got := c.p.CustomerID(); got != c.want {
			t.Errorf("%+v: CustomerID() = %q, want %q", c.p, got, c.want)
		}
	}
}
